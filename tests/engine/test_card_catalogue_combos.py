"""Scenarios for the catalogue entries of issue 17's combos group: cards that needed the
vocabulary of several first-wave groups at once (several attacks or areas with Bleed or
pushes; enhancements of the next ranged attack whose hit gives the target Heat or purges
its Taint; R-ADD-180 onwards). Played through decide/evolve with the helpers of
test_card_catalogue.py and test_card_catalogue_area.py;
`test_every_automated_entry_has_a_scenario_below` (in test_card_catalogue.py) counts these
scenarios with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import (
    AttackEnded,
    BleedApplied,
    CasketPushed,
    SpPenaltyImposed,
)

from .battle_builder import of_type
from .test_card_catalogue import AUTOMATED, ENTRIES, built
from .test_card_catalogue_area import (
    MISS,
    ROUND,
    again,
    attacks,
    blast,
    field,
    hits,
    played_once,
    strike,
)

COMBOS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


# --- several attacks or an area, each hit with its Bleed or push (R-ADD-80, R-ADD-81, R-ADD-84) --


def _leaf_blade_flurry() -> None:
    """ "Attack twice for 2 damage each (total 4 damage). Each hit applies Bleed 1. Rapid
    strikes.": two attacks (R-ADD-80), each hit one Bleed counter (R-ADD-65, R-ADD-110); a
    miss applies none."""
    again("elves", "leaf-blade-flurry", [2, 2])
    card = built("elves", "leaf-blade-flurry")
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, hits(2, 2))
    assert [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, 1), (1, 1)]
    assert b.seat(1).bleed == 2
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, [MISS, *hits(2)])
    assert [e.outcome for e in of_type(events, AttackEnded)] == ["miss", "hit"]
    assert b.seat(1).bleed == 1


def _swarm_of_thorns() -> None:
    """ "Deal 3 damage to target + 2 damage to adjacent enemies, all affected Bleed 1": a
    blast around the target (R-ADD-84); each enemy hit gains one Bleed counter (R-ADD-81's
    "all affected", R-ADD-110); the enemy two hexes beyond and the ally are not caught."""
    b, events = blast("equipment_items", "world-tree-staff-swarm-of-thorns", 3, 3, 2)
    assert [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, 1), (2, 1)]
    assert (b.seat(1).bleed, b.seat(2).bleed, b.seat(3).bleed, b.seat(4).bleed) == (1, 1, 0, 0)


def _thunderclap() -> None:
    """ "Deal 2 damage to all adjacent enemies, push 1 hex": each enemy hit is pushed one
    hex straight away from the attacker (R-ADD-81, R-ADD-100); a missed one stays."""
    card = built("equipment_items", "stormcaller-s-grimoire-thunderclap")
    b = field(card, [ROUND["N"], ROUND["SE"], ((0, 0), 4)])  # the third two hexes away
    events = strike(b, card, 1, hits(2, 2))
    assert attacks(events) == [(1, 2), (2, 2)]
    played_once(b, events, card)
    pushed = {e.seat: e.path for e in of_type(events, CasketPushed)}
    assert set(pushed) == {1, 2} and all(len(p) == 1 for p in pushed.values())
    assert [b.seat(n).at.distance(b.seat(0).at) for n in (1, 2)] == [2, 2]
    b = field(card, [ROUND["N"], ROUND["SE"]])
    events = strike(b, card, 1, [MISS, *hits(2)])
    assert [e.seat for e in of_type(events, CasketPushed)] == [2]
    assert b.seat(1).at.distance(b.seat(0).at) == 1


def _thornwhip() -> None:
    """ "Deal 3 damage, Bleed 1, pull target 1 hex toward you": on a hit the target gains a
    Bleed counter and is pulled one hex nearer (R-ADD-65, R-ADD-100, R-ADD-110); a miss does
    neither."""
    card = built("equipment_items", "druid-s-tome-thornwhip")
    b = field(card, [((0, 0), 4)])  # 3 hexes N
    events = strike(b, card, 1, hits(3))
    assert attacks(events) == [(1, 3)]
    assert b.seat(1).bleed == 1
    assert [e.path for e in of_type(events, CasketPushed)] == [((0, 1),)]
    assert b.seat(1).at.distance(b.seat(0).at) == 2
    b = field(card, [((0, 0), 4)])
    events = strike(b, card, 1, [MISS])
    assert b.seat(1).bleed == 0 and not of_type(events, CasketPushed)


def _concussion_blast() -> None:
    """ "Deal 3 damage to all enemies within 2 hexes, push 1 hex, targets lose 1 SP next
    turn. Remove this card from game after use.": a blast of radius 2 around the target
    (R-ADD-84); each enemy hit is pushed away from the thrower (R-ADD-100) and loses 1 SP
    next turn (R-ADD-65); the card then leaves the game (R-ADD-70)."""
    b, events = blast("equipment_items", "alchemical-grenades-concussion-blast", 2, 3, 3, within=2)
    assert [(e.seat, e.amount) for e in of_type(events, SpPenaltyImposed)] == [
        (1, 1), (2, 1), (3, 1),
    ]  # fmt: skip
    assert sorted(e.seat for e in of_type(events, CasketPushed)) == [1, 2, 3]
    assert b.seat(0).removed == ("alchemical-grenades-concussion-blast#1",)
    assert b.seat(4).sp_penalty == 0  # the ally is not caught


COMBOS_SCENARIOS.update({
    ("elves", "leaf-blade-flurry"): _leaf_blade_flurry,
    ("equipment_items", "world-tree-staff-swarm-of-thorns"): _swarm_of_thorns,
    ("equipment_items", "stormcaller-s-grimoire-thunderclap"): _thunderclap,
    ("equipment_items", "druid-s-tome-thornwhip"): _thornwhip,
    ("equipment_items", "alchemical-grenades-concussion-blast"): _concussion_blast,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(COMBOS_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_combo_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    assert ENTRIES[key].text  # the scenario's docstring quotes it
    COMBOS_SCENARIOS[key]()
