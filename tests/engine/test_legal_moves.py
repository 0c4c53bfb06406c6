"""Moves as legal actions (issue 13): each carries its SP cost; `every_move` lists every
reachable hex, overspend included (R-TRN-3), and `decide` accepts each one."""

from __future__ import annotations

import random

import pytest

from battles.engine.battle import create, decide, evolve, legal_actions, replay
from battles.engine.battle.commands import parse_command
from battles.engine.battle.legal import MAX_MOVES
from battles.engine.battle.state import ACTION, BattleState
from battles.engine.demo import demo_setup
from battles.engine.errors import RuleViolation
from battles.engine.movement import reachable


def _states(seed: int, commands: int) -> list[BattleState]:
    """The action-phase states of a random game, one per command."""
    rng = random.Random(seed)
    state = replay(create(f"m{seed}", demo_setup(seed=seed)))
    seen = []
    for _ in range(commands):
        if state.over:
            break
        if state.phase == ACTION and not state.prompts:
            seen.append(state)
        actions = [a.body for a in legal_actions(state) if a.body["type"] != "withdraw"]
        body = rng.choice(actions)
        for event in decide(state, parse_command(body)):
            state = evolve(state, event)
    return seen


def _reach(state: BattleState, budget: int) -> dict[tuple[int, int], int]:
    c = state.seats[state.active or 0]
    found = reachable(
        state.board,
        c.at,
        budget,
        allies=state.ally_hexes(c),
        enemies=state.enemy_hexes(c),
        legs_destroyed="legs" in c.destroyed,
    )
    return {(h.q, h.r): r.cost for h, r in found.items()}


def test_every_move_lists_each_reachable_hex_once_with_its_cost_and_overspend() -> None:
    checked = 0
    for state in _states(seed=3, commands=160)[::4]:
        c = state.seats[state.active or 0]
        budget = min(c.overspend_room, max(c.sp_left, 0) + len(c.deck))
        expected = _reach(state, budget)
        moves = [a for a in legal_actions(state, every_move=True) if a.body["type"] == "move"]
        listed = {tuple(a.body["path"][-1]): a for a in moves}
        assert len(listed) == len(moves), "one action per destination"
        assert {k: a.sp_cost for k, a in listed.items()} == expected
        for a in moves:
            assert a.sp_cost is not None
            cards = c.overspend_cards(a.sp_cost)
            pay = a.body.get("pay")
            assert (pay["deck"] if pay else 0) == cards, "overspend: one card per SP past the max"
            decide(state, parse_command(a.body))  # accepted: raises RuleViolation otherwise
        checked += len(moves)
    assert checked > 100


def test_the_default_listing_keeps_its_sample_of_moves_with_their_costs() -> None:
    for state in _states(seed=5, commands=120)[::5]:
        moves = [a for a in legal_actions(state) if a.body["type"] == "move"]
        assert len(moves) <= MAX_MOVES
        c = state.seats[state.active or 0]
        costs = _reach(state, max(c.sp_left, 1))
        for a in moves:
            assert a.sp_cost == costs[tuple(a.body["path"][-1])]
            assert a.as_dict()["sp_cost"] == a.sp_cost


def test_an_overspend_move_without_its_payment_is_refused() -> None:
    """The overspend moves `every_move` adds are legal only with the cards they cost."""
    refused = 0
    for state in _states(seed=3, commands=160)[:40]:
        for a in legal_actions(state, every_move=True):
            if a.body["type"] != "move" or not a.body.get("pay"):
                continue
            unpaid = {k: v for k, v in a.body.items() if k != "pay"}
            with pytest.raises(RuleViolation) as err:
                decide(state, parse_command(unpaid))
            assert err.value.rule == "R-TRN-3"
            refused += 1
    assert refused > 10


def test_at_a_table_an_overspend_the_deck_cannot_pay_is_not_offered() -> None:
    """At a table the faces and cards come later, but what the engine refuses without them
    is still left out: overspending from an empty deck (R-TRN-3, R-ADD-18)."""
    from dataclasses import replace

    # A turn in progress, then the same state at a table (the faces and cards to come).
    state = replace(_states(seed=2, commands=30)[-1], dice_mode="table")
    seat = state.active
    assert seat is not None
    c = state.seats[seat]
    spent = replace(c, sp_spent=c.sp_max, deck=())
    broke = replace(state, seats=tuple(spent if x.seat == seat else x for x in state.seats))
    offered = [a.body for a in legal_actions(broke, every_move=True)]
    assert {"type": "pass", "seat": seat} in offered
    assert not [b for b in offered if b.get("pay", {}).get("deck")], offered
    with_deck = replace(c, sp_spent=c.sp_max)
    able = replace(state, seats=tuple(with_deck if x.seat == seat else x for x in state.seats))
    assert [a for a in legal_actions(able, every_move=True) if a.body.get("pay")]
