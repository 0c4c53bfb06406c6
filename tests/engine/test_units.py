"""Summoned units as the rules hold them (R-ADD-400 to R-ADD-404), apart from the cards that
summon them (test_card_catalogue_summons.py): on the board, in moves, under attack, in the
stored state, the viewer's state, the legal actions and the autoplayer.

Seat 0 stands at [0, 3] facing N and seat 1 three hexes north at [0, 0] (the catalogue's
battle); the units are put on the board with the event that summons them.
"""

from __future__ import annotations

import random

import pytest

from battles.engine.battle import decide, legal_actions, parse_command, replay, state_view
from battles.engine.battle.autoplay import choose
from battles.engine.battle.events import CasketWithdrew, UnitDamaged, UnitSummoned
from battles.engine.battle.snapshot import state_from_dict, state_to_dict
from battles.engine.errors import RuleViolation

from .battle_builder import Battle, one
from .test_card_catalogue import arrange, battle, built, tokens


def _unit(owner: int, at: tuple[int, int], hp: int = 8, unit: str = "u1") -> UnitSummoned:
    return UnitSummoned(owner, unit, "Mercenary", at, hp, 3, 3, 1, "x#1")


def _field(*units: UnitSummoned, card: str = "hire-mercenary", section: str = "exchange") -> Battle:
    b = battle(built(section, card), gap=3)
    arrange(b, *units)
    return b


def test_an_enemy_unit_blocks_a_move_and_an_own_one_is_passed_through() -> None:
    """R-ADD-403, R-MOV-2: never through an enemy's unit; through an own one, not onto it."""
    b = _field(_unit(1, (0, 2)))
    move = {"type": "move", "seat": 0, "path": [[0, 2], [0, 1]]}
    assert b.refuse(move).code == "enemy_in_path"
    own = _field(_unit(0, (0, 2)))
    assert own.refuse({"type": "move", "seat": 0, "path": [[0, 2]]}).code == "occupied_destination"
    own.do(move)
    assert own.seat(0).at.q == 0 and own.seat(0).at.r == 1


def test_a_unit_is_summoned_only_on_a_free_hex() -> None:
    """R-ADD-400: not on a casket's hex nor a unit's."""
    b = _field(_unit(0, (0, 1)))
    tokens(b, "credit", 3)
    body = {"type": "play_card", "seat": 0, "card": "hire-mercenary#1", "path": [[0, 1]]}
    assert b.refuse(body).code == "summon_hex"
    assert b.refuse({**body, "path": [[0, 0]]}).code == "summon_hex"


def test_an_attack_card_destroys_a_unit_at_zero_hp_and_touches_no_deck() -> None:
    """R-ADD-404: the card's printed damage less the unit's Defense; at 0 it leaves."""
    card = built("equipment_items", "world-tree-staff-forest-s-wrath")  # Ranged 3-8, 6 damage
    b = _field(_unit(1, (1, -1), hp=5), card=card.id, section="equipment_items")
    decks = [len(c.deck) for c in b.state.seats]
    events = b.do({"type": "strike_unit", "seat": 0, "card": f"{card.id}#1", "unit": "u1"})
    assert one(events, UnitDamaged) == UnitDamaged(0, "u1", 5, 0, f"{card.id}#1")
    assert b.state.units == () and [len(c.deck) for c in b.state.seats] == decks
    assert f"{card.id}#1" in b.seat(0).discard and b.seat(0).sp_spent == card.sp_cost
    near = _field(_unit(1, (0, 2)), card=card.id, section="equipment_items")
    body = {"type": "strike_unit", "seat": 0, "card": f"{card.id}#1", "unit": "u1"}
    assert near.refuse(body).code == "out_of_range"  # 1 hex: the card reaches 3-8
    own = _field(_unit(0, (1, -1)), card=card.id, section="equipment_items")
    assert own.refuse(body).code == "no_such_unit"  # never the own side's


def test_a_unit_acts_once_a_turn_and_again_in_its_owners_next_turn() -> None:
    """R-ADD-401: one move and one attack in each of its owner's turns."""
    b = _field(_unit(0, (0, 1)))
    b.do({"type": "unit_move", "seat": 0, "unit": "u1", "path": [[1, 0]]})
    assert b.refuse({"type": "unit_move", "seat": 0, "unit": "u1", "path": [[1, 1]]}).code == (
        "unit_moved"
    )
    too_far = _field(_unit(0, (0, 1)))
    path = [[1, 0], [2, -1], [3, -2], [4, -3]]
    assert too_far.refuse({"type": "unit_move", "seat": 0, "unit": "u1", "path": path}).code == (
        "path_too_long"
    )
    assert b.state.units[0].moved
    b.do({"type": "pass", "seat": 0, "drawn": []})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.state.active == 0 and not b.state.units[0].moved


def test_units_leave_with_their_owner_and_when_the_battle_ends() -> None:
    """R-ADD-402."""
    b = _field(_unit(1, (0, 2)), _unit(0, (1, 1), unit="u2"))
    arrange(b, CasketWithdrew(1, "R-TRN-9"))
    assert [u.id for u in b.state.units] == ["u2"]
    b.do({"type": "end_battle", "side": None, "reason": "arranged"})
    assert b.state.units == ()


def test_units_survive_the_stored_state_and_are_in_every_viewers_state() -> None:
    """The snapshot writes them (R-ADD-400); every viewer sees them (R-ADD-28 hides none)."""
    b = _field(_unit(0, (0, 1)), _unit(1, (1, 0), unit="u2"))
    again = state_from_dict(state_to_dict(b.state))
    assert again.units == b.state.units and again.units_summoned == 2
    units = [_unit(0, (0, 1)), _unit(1, (1, 0), unit="u2")]
    assert replay([*b.events, *units]) == b.state  # the fold is the events' alone
    for seats in ({0}, {1}, set()):
        shown = state_view(b.state, seats, full=False)["units"]
        assert [(u["id"], u["owner"], u["hp"]) for u in shown] == [("u1", 0, 8), ("u2", 1, 8)]


def test_every_unit_action_listed_is_accepted() -> None:
    """Each unit body the legal actions list is one decide accepts (R-ADD-401, R-ADD-404)."""
    b = _field(_unit(0, (0, 1)), _unit(1, (1, 2), unit="u2"))
    bodies = [
        a.body
        for a in legal_actions(b.state, {0})
        if a.body["type"] in ("unit_move", "unit_attack", "strike_unit")
    ]
    assert {x["type"] for x in bodies} == {"unit_move", "unit_attack"}
    for body in bodies:
        decide(b.state, parse_command(body))
    with pytest.raises(RuleViolation):
        decide(
            b.state, parse_command({"type": "unit_attack", "seat": 0, "unit": "u2", "target": 1})
        )


def test_the_autoplayer_attacks_with_a_unit_and_moves_one_toward_the_enemy() -> None:
    """R-ADD-401: with no casket attack of its own, the greedy player uses its units."""
    b = _field(_unit(0, (0, 1)))
    actions = list(legal_actions(b.state))
    assert choose(b.state, actions, random.Random(0))["type"] == "unit_attack"
    far = _field(_unit(0, (3, 0)))
    body = choose(far.state, list(legal_actions(far.state)), random.Random(0))
    assert body["type"] == "unit_move" and body["unit"] == "u1"
