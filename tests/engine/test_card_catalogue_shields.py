"""Scenarios for the catalogue entries of issue-28's second round read by R-ADD-430 to
R-ADD-439 (shields, teleport strikes, self-inflicted prices), played through decide/evolve
with the helpers of test_card_catalogue.py. Each scenario quotes the text it checks;
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import AttackCovered, DefenceRolled, ReactivePlayed

from .battle_builder import FILLER, of_type, one
from .test_card_catalogue import run_scenario
from .test_card_catalogue_allies import _covering, _field, _hit_seat_2, built_reactive

EQUIPMENT = "equipment"
SHIELDS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _bulwark() -> None:
    """ "Reactive: -2 damage to you and ally." (range "Self+Ally"): on an adjacent ally's
    attack, through R-ADD-122's window, the ally keeps its damage less 2 and the player
    takes none; on the player's own attack, its own reactive card, 2 less; an ally 2 hexes
    away is not reached (R-ADD-430)."""
    card = built_reactive(EQUIPMENT, "bulwark")
    instance = "bulwark#1"
    b = _covering(card, 1)
    damage = _hit_seat_2(b, "blade")
    assert damage >= 3
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "reactive", "R-ADD-122")
    own = len(b.seat(0).hand) + len(b.seat(0).deck)
    events = b.do({"type": "play_reactive", "seat": 0, "card": instance, "faces": [4] * damage})
    assert one(events, AttackCovered) == AttackCovered(0, 2, instance, 2, True)
    assert one(events, DefenceRolled).seat == 2  # every die BLOOD: no block
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.component) == (
        2,
        "take_damage",
        damage - 2,
        "chassis",
    )
    b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": damage - 2,
          "drawn": [FILLER] * (damage - 2)})  # fmt: skip
    assert b.state.attack is None and instance in b.seat(0).discard
    assert len(b.seat(0).hand) + len(b.seat(0).deck) == own - 1  # the card only
    assert len(b.seat(2).deck) == 24 - (damage - 2)
    # Two hexes away: not reached, seat 2 takes all of it.
    far = _covering(card, 2)
    assert _hit_seat_2(far, "blade", (3, 2, *[4] * damage)) == damage
    assert not of_type(far.events, AttackCovered)
    assert [(p.seat, p.kind, p.amount) for p in far.state.prompts] == [(2, "take_damage", damage)]
    # Attacked itself: its own reactive card, 2 less.
    me = _field(card, first=1)
    me.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
           "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [(p.seat, p.kind, p.rule) for p in me.state.prompts] == [(0, "reactive", "R-REA-1")]
    hit = me.state.attack
    assert hit is not None
    events = me.do(
        {"type": "play_reactive", "seat": 0, "card": instance, "faces": [4] * hit.damage}
    )
    assert one(events, ReactivePlayed).reduction == 2
    assert [(p.seat, p.kind, p.amount) for p in me.state.prompts] == [
        (0, "take_damage", hit.damage - 2)
    ]


SHIELDS_SCENARIOS[(EQUIPMENT, "bulwark")] = _bulwark


@pytest.mark.parametrize("key", sorted(SHIELDS_SCENARIOS), ids="/".join)
def test_shields_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, SHIELDS_SCENARIOS[key])
