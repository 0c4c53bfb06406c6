"""Scenarios for the catalogue entries of the Grit cards (`v3_optional.grit_related`,
R-ADD-53) and the manual cards of the Crucible, the Exchange and the Vestige Bloodlines,
played through decide/evolve like those of test_card_catalogue.py, whose helpers they
use; each card is built from its own database entry."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from unittest import mock

import pytest

from battles.engine.battle.events import (
    GritChecked,
    GritModifierRaised,
    GritRaised,
    GritRerolled,
    HeatChanged,
    WoundEased,
    WoundFlipped,
)
from battles.engine.battle.outcome import battle_outcome
from battles.engine.cards import GritModifierEffect, TriggerEffect
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, Battle, of_type, one
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


def _martyrs_endurance() -> None:
    """ "When you use Blood Offering or other self-harm Church cards: Gain +1 to your next
    Grit Check this mission.": in play, each self-harm Church card played adds 1 to the
    pilot's next Grit check only (R-ADD-361); a card that is not one adds nothing."""
    card = built(GRIT, "martyrs-endurance")
    offering = built("church", "blood-offering")
    with mock.patch.dict(CARDS, {offering.id: offering.as_dict()}):
        b = battle(card, hand=(offering.id,), options={"grit_checks": True})
    assert not of_type(play(b, "martyrs-endurance"), GritModifierRaised)
    assert b.seat(0).grit_next == 0
    events = play(b, offering.id, drawn=[FILLER])
    raised = GritModifierRaised(0, 1, "martyrs-endurance", next_check=True)
    assert one(events, GritModifierRaised) == raised
    assert b.seat(0).grit_next == 1 and b.seat(0).grit_modifier == 0
    checks = _defeated(b, [3, 3, 4], ["severe", "minor"])
    # The first check counts the +1 (3 + 1 = 4, tough it out); the second does not.
    assert [(g.modifier, g.total, g.result) for g in checks] == [
        (1, 4, "tough-it-out"),
        (0, 4, "tough-it-out"),
    ]
    assert b.seat(0).grit_next == 0


GRIT_SCENARIOS[(GRIT, "martyrs-endurance")] = _martyrs_endurance


def _iron_will_training() -> None:
    """ "Once per mission: When you would fail a Grit Check, reroll it. If you still fail,
    gain +1 Grit permanently (trauma builds character).": in play, the first Grit check of
    the battle in the failing band (1-3, Full Wound; 4+ are "gradations of success") is
    rolled again with the same modifier; a second failure gives +1 Grit, which the battle's
    outcome hands to the campaign; a later failure is not rolled again (R-ADD-411)."""
    card = built(GRIT, "iron-will-training")
    b = battle(card, options={"grit_checks": True})
    played = play(b, "iron-will-training")
    assert not of_type(played, GritChecked) and b.seat(0).in_play
    # Survival 3: two wounds. First check 2 (fail), rolled again 1 (fail): +1 Grit, the
    # wound flips; the second check 2 fails and is not rolled again.
    checks = _defeated(b, [3, 2, 1, 2], ["severe", "minor"])
    events = b.events[-40:]
    assert [(g.face, g.total, g.result) for g in checks] == [
        (2, 2, "full-wound"),
        (2, 2, "full-wound"),
    ]
    assert one(events, GritRerolled) == GritRerolled(0, "iron-will-training#1", 1, 1, "full-wound")
    assert one(events, GritRaised) == GritRaised(0, "iron-will-training#1", 1)
    assert len(of_type(events, WoundFlipped)) == 2
    assert b.seat(0).grit_gained == 1 and b.seat(0).defeated
    b.do({"type": "end_battle", "side": "side1", "reason": "seat 0 is defeated"})
    assert battle_outcome(b.events).seats[0].grit_gained == 1
    assert battle_outcome(b.events).seats[1].grit_gained == 0
    # Rolled again into 5: tough it out, the severe wound counts as minor, no Grit; the
    # second check 6 shrugs it off (1 Heat, no wound).
    b = battle(card, options={"grit_checks": True})
    play(b, "iron-will-training")
    _defeated(b, [3, 2, 5, 6], ["severe"])
    events = b.events[-40:]
    rerolled = one(events, GritRerolled)
    assert (rerolled.face, rerolled.total, rerolled.result) == (5, 5, "tough-it-out")
    assert not of_type(events, GritRaised) and b.seat(0).grit_gained == 0
    assert one(events, WoundEased).wound.startswith("severe-")
    assert len(of_type(events, WoundFlipped)) == 1
    # A check that does not fail is not rolled again; the unplayed card rerolls nothing.
    b = battle(card, options={"grit_checks": True})
    play(b, "iron-will-training")
    checks = _defeated(b, [3, 4, 2, 6], ["severe"])
    assert [g.result for g in checks] == ["tough-it-out", "full-wound"]
    rerolled = one(b.events[-40:], GritRerolled)  # the second check's, into shrug it off
    assert (rerolled.face, rerolled.total, rerolled.result) == (6, 6, "shrug-it-off")
    held = battle(card, options={"grit_checks": True})
    checks = _defeated(held, [3, 2, 2], ["severe", "minor"])
    assert len(checks) == 2 and not of_type(held.events, GritRerolled)


GRIT_SCENARIOS[(GRIT, "iron-will-training")] = _iron_will_training


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


def test_card_played_names_its_cards_and_only_it_does() -> None:
    """R-ADD-361: a `card_played` trigger watches the card ids it names; no other trigger
    names cards."""
    then = (GritModifierEffect(1, next_check=True),)
    with pytest.raises(InvalidInput, match=r"trigger\.cards:"):
        TriggerEffect("card_played", then)
    with pytest.raises(InvalidInput, match=r"trigger\.cards:"):
        TriggerEffect("start_of_turn", then, cards=("blood-offering",))
    with pytest.raises(InvalidInput, match=r"trigger\.cards\[0\]"):
        TriggerEffect("card_played", then, cards=("Blood Offering",))
