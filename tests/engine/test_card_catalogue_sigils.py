"""Scenarios for the catalogue entries of the faction cards brought to the engine for the
95 % coverage of the real database (R-ADD-280 onwards): passives that change what the
owner's other cards do and reactive cards on the Component Damage of the attack they
answer, played through decide/evolve with the helpers of test_card_catalogue.py. Each
scenario quotes the text it checks; `test_every_automated_entry_has_a_scenario_below`
counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from unittest import mock

import pytest

from battles.engine.battle.events import BleedApplied, BleedTicked, PromptOpened
from battles.engine.cards import BleedFactorEffect, effect_from_dict
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, one
from .test_card_catalogue import arrange, battle, built, play, resolve_hit, run_scenario

SIGILS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _toxin_mastery() -> None:
    """ "All Bleed effects you apply deal double damage. Bleed 1 becomes Bleed 2, Bleed 2
    becomes Bleed 4, etc. Elven-exclusive sigil.": in play, the owner's Bleed puts twice
    the counters (R-ADD-110: a counter is 1 damage at the start of one of the target's
    turns), the extra counters of "if target already has Bleed counters" included; a
    second copy in play doubles nothing more (R-ADD-280)."""
    card = built("elves", "toxin-mastery")
    venom = built("elves", "venom-strike")  # "Apply Bleed 3"
    barbed = built("elves", "barbed-arrow-volley")  # "Apply Bleed 3 … +1 additional"
    extra = {venom.id: venom.as_dict(), barbed.id: barbed.as_dict()}
    with mock.patch.dict(CARDS, extra):
        for sigils, bleed in ((0, 3), (1, 6), (2, 6)):
            b = battle(card, hand=(venom.id, card.id), version="2.1")
            for k in range(1, sigils + 1):  # both copies in the hand (cardCount 2)
                b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#{k}"})
            assert sum(x.startswith(card.id) for x in b.seat(0).in_play) == sigils
            events = resolve_hit(b, venom, 2, kill=False)
            assert one(events, BleedApplied) == BleedApplied(1, bleed, bleed, venom.id), sigils
            hp = b.seat(1).hp
            drawn = [FILLER] * (6 - len(b.seat(0).hand))  # back to a hand of 6
            ticked = b.do({"type": "pass", "seat": 0, "drawn": drawn})
            # Each counter is one damage at the start of one turn: twice the turns, not more
            # damage a turn.
            assert one(ticked, BleedTicked) == BleedTicked(1, bleed - 1)
            prompt = one(ticked, PromptOpened)
            assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 1)
            b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 1, "drawn": [FILLER]})
            assert (b.seat(1).hp, b.seat(1).bleed) == (hp - 1, bleed - 1)
        # Bleed 3 + 1 on a bleeding target: (3 + 1) × 2 = 8 more.
        b = battle(card, hand=(barbed.id,), version="2.1", gap=3)
        play(b, card.id)
        arrange(b, BleedApplied(1, 2, 2, "arranged"))
        events = resolve_hit(b, barbed, 3, kill=False)
        assert one(events, BleedApplied) == BleedApplied(1, 8, 10, barbed.id)


SIGILS_SCENARIOS[("elves", "toxin-mastery")] = _toxin_mastery


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "bleed_factor", "factor": 1}, "effect.factor"),
        ({"kind": "bleed_factor", "factor": 5}, "effect.factor"),
        ({"kind": "bleed_factor"}, "effect.factor"),
    ],
)
def test_a_bad_sigil_effect_names_its_field(doc: dict[str, object], field: str) -> None:
    with pytest.raises(InvalidInput) as caught:
        effect_from_dict(doc)
    assert caught.value.field == field


def test_the_bleed_factor_round_trips() -> None:
    assert effect_from_dict({"kind": "bleed_factor", "factor": 2}) == BleedFactorEffect(2)


@pytest.mark.parametrize("key", sorted(SIGILS_SCENARIOS), ids="/".join)
def test_sigils_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, SIGILS_SCENARIOS[key])
