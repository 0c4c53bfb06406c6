"""Scenarios for the faction sections' catalogue entries automated by issue 17's second
pass (R-ADD-73 and after), played through decide/evolve like those of
test_card_catalogue.py, whose helpers they use. Kept in their own file so that engineers
adding entries to other sections do not edit the same lines;
`test_every_automated_entry_has_a_scenario_below` (in test_card_catalogue.py) counts
the scenarios of both files.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import DamageScheduled, DamageTaken, PromptOpened

from .battle_builder import FILLER, of_type, one
from .test_card_catalogue import (
    AUTOMATED,
    ENTRIES,
    Attack,
    battle,
    built,
    check_attack,
    resolve_hit,
)

FACTION_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _venomous_spit() -> None:
    """ "Deal 2 damage. Target takes 2 additional damage at start of their next turn
    (poison).": scheduled by a hit only, taken once when the target's turn starts, without
    an attack (R-ADD-73)."""
    card = built("vestige-bloodlines", "venomous-spit")
    missed = check_attack("vestige-bloodlines", "venomous-spit", Attack(4, 2))
    assert missed.seat(1).damage_next_turn == 0  # the missing roll schedules nothing
    b = battle(card, version="2.1")
    events = resolve_hit(b, card, 2, kill=False)
    assert one(events, DamageScheduled) == DamageScheduled(1, 2, "venomous-spit")
    assert b.seat(1).damage_next_turn == 2
    hp = b.seat(1).hp
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        1,
        "take_damage",
        2,
        "R-DMG-6",
    )
    assert "R-ADD-73" in prompt.reason and not of_type(events, DamageTaken)
    assert b.seat(1).damage_next_turn == 0  # taken once: the next turn starts clean
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(1).hp == hp - 2


FACTION_SCENARIOS.update({
    ("vestige-bloodlines", "venomous-spit"): _venomous_spit,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(FACTION_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_faction_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    assert ENTRIES[key].text  # the scenario's docstring quotes it
    FACTION_SCENARIOS[key]()
