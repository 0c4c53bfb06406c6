"""Scenarios for the catalogue entries of the Grit cards (`v3_optional.grit_related`,
R-ADD-53) and the manual cards of the Crucible, the Exchange and the Vestige Bloodlines,
played through decide/evolve like those of test_card_catalogue.py, whose helpers they
use; each card is built from its own database entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from battles.engine.battle.events import GritChecked, GritModifierRaised, HeatChanged

from .battle_builder import Battle, of_type, one
from .test_card_catalogue import AUTOMATED, battle, built, play, run_scenario

GRIT = "v3_optional.grit_related"
GRIT_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _defeated(b: Battle, faces: list[int], drawn: list[str]) -> list[GritChecked]:
    """Seat 0 keeps 5 cards in hand, its deck and discard emptied, and passes: defeated
    (R-DMG-6), its survival roll of `faces[0]` (1-3: two wounds, R-PLT-3) checked wound by
    wound with `faces[1:]` (R-ADD-305), the wounds that flip `drawn`. The Grit checks made."""
    c = b.seat(0)
    emptied = replace(c, hand=c.hand[:5], deck=(), discard=(), removed=c.deck + c.hand[5:])
    b.state = replace(b.state, seats=(emptied, *b.state.seats[1:]))
    new = b.do({"type": "pass", "seat": 0, "faces": faces, "drawn": drawn})
    return of_type(new, GritChecked)


def _stone_endurance_boost() -> None:
    """ "Until end of mission: +1 to all Grit Checks (not just vs Severe Injuries). Gain 1
    Heat.": every later Grit check of the pilot this battle adds 1 (R-ADD-360), and the
    card's 1 Heat. A 3 on the die is a full wound without the card, tough it out with it."""
    card = built(GRIT, "stone-endurance-boost")
    b = battle(card, options={"grit_checks": True})
    heat = b.seat(0).heat
    events = play(b, "stone-endurance-boost")
    assert one(events, GritModifierRaised) == GritModifierRaised(0, 1, "stone-endurance-boost")
    assert one(events, HeatChanged).amount == 1 and b.seat(0).heat == heat + 1
    assert b.seat(0).grit_modifier == 1
    checks = _defeated(b, [3, 3, 5], ["severe"])
    assert [(g.modifier, g.total, g.result) for g in checks] == [
        (1, 4, "tough-it-out"),
        (1, 6, "shrug-it-off"),
    ]
    # The same dice without the card: no modifier, a full wound first.
    plain = battle(card, options={"grit_checks": True})
    checks = _defeated(plain, [3, 3, 5], ["severe", "minor"])
    assert [(g.modifier, g.total, g.result) for g in checks] == [
        (0, 3, "full-wound"),
        (0, 5, "tough-it-out"),
    ]


GRIT_SCENARIOS[(GRIT, "stone-endurance-boost")] = _stone_endurance_boost


@pytest.mark.parametrize("key", sorted(GRIT_SCENARIOS), ids="/".join)
def test_grit_scenario(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, GRIT_SCENARIOS[key])


def test_the_raised_modifier_is_recorded_without_the_option() -> None:
    """R-ADD-360: without `grit_checks` the battle rolls no check, but the card's +1 is
    recorded for the table that rolls it."""
    card = built(GRIT, "stone-endurance-boost")
    b = battle(card)
    play(b, "stone-endurance-boost")
    assert b.seat(0).grit_modifier == 1
