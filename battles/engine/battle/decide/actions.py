"""A player's action command (R-ADD-45): whose turn it is, moves, rotations, vents, a card
played, an attack and the end of the turn, each handed to its rule."""

from __future__ import annotations

from ...arcs import rotation_cost
from ...errors import RuleViolation
from .. import events as ev
from ..commands import (
    Attack,
    AttackTerrain,
    Command,
    Move,
    Pass,
    PlayCard,
    Rotate,
    StrikeUnit,
    UnitAttack,
    UnitMove,
    Vent,
    Withdraw,
)
from ..state import (
    SETUP,
    CasketState,
)
from . import attacking, costs, flow, play, resolution, units
from .tx import VENT_COST, VENT_HEAT, _Tx


def _act(tx: _Tx, command: Command) -> None:
    c = _check_turn(tx, command)
    seat = command.seat
    if isinstance(command, Pass):
        flow._end_turn(tx, seat)
    elif isinstance(command, Withdraw):
        if c.acted or c.sp_spent or c.moved or c.free_rotation_used:
            raise RuleViolation(
                "withdraw_at_start_of_turn",
                "a casket withdraws at the start of its own turn, before it acts",
                "R-TRN-9",
            )
        tx.emit(ev.CasketWithdrew(seat, "R-TRN-9"))
    elif c.sp_locked:
        raise RuleViolation(
            "cannot_act", f"seat {seat} has 0 SP and cannot act this turn: pass", "R-ADD-343"
        )
    elif isinstance(command, Move):
        if c.rooted_turns:
            raise RuleViolation(
                "immobilised",
                "a card has rooted this casket: it cannot move this turn",
                "R-ADD-111",
            )
        if "immobilised" in c.statuses:
            raise RuleViolation("immobilised", "an immobilised casket cannot move", "R-ADD-17")
        if any(w.immobile for w in c.wards):
            raise RuleViolation("immobilised", "a card keeps the casket immobile", "R-ADD-93")
        if command.free:
            _free_move(tx, c, command)
            return
        # R-ADD-113: an enemy card's "movement costs +N SP", per hex this turn; R-ADD-362:
        # a form's "−1 movement", per hex while its ward lasts.
        per_hex = c.move_cost + c.ward_move_cost
        cost = costs._path_cost(tx, c, command.path) + per_hex * len(command.path)
        costs._pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketMoved(seat, tuple((h.q, h.r) for h in command.path), cost))
        resolution._entered(tx, seat, c.at, command.path)  # R-ADD-165
    elif isinstance(command, Rotate):
        if command.facing == c.facing:
            raise RuleViolation("no_rotation", f"already facing {c.facing}", "R-ARC-5")
        cost = rotation_cost(c.facing, command.facing, not c.free_rotation_used)
        costs._pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketRotated(seat, command.facing, cost, not c.free_rotation_used))
    elif isinstance(command, Vent):
        if c.heat == 0:
            raise RuleViolation("no_heat", "no Heat to vent", "R-ADD-19")
        costs._pay(tx, c, VENT_COST, command.pay)
        tx.emit(ev.HeatVented(seat, VENT_COST, min(VENT_HEAT, c.heat)))
    elif isinstance(command, Attack):
        attacking._attack(tx, c, command)
    elif isinstance(command, PlayCard):
        play._play_card(tx, c, command)
    elif isinstance(command, AttackTerrain):
        attacking._attack_terrain(tx, c, command)
    elif isinstance(command, UnitMove):  # summoned units (R-ADD-401, R-ADD-404)
        units._unit_move(tx, c, command)
    elif isinstance(command, UnitAttack):
        units._unit_attack(tx, c, command)
    elif isinstance(command, StrikeUnit):
        units._strike_unit(tx, c, command)
    else:  # pragma: no cover - parse_command produces no other type
        raise RuleViolation("unknown_command", f"{command.NAME} is not an action", None)


def _check_turn(tx: _Tx, command: Command) -> CasketState:
    s = tx.state
    if s.phase == SETUP:
        raise RuleViolation(
            "setup_not_finished", "every player keeps a hand or mulligans first", "R-TRN-1"
        )
    if s.prompts:
        p = s.prompts[0]
        raise RuleViolation(
            "prompt_pending",
            f"the battle waits for seat {p.seat} to answer a {p.kind} prompt",
            p.rule,
        )
    if s.active != command.seat:
        raise RuleViolation(
            "not_your_turn", f"It is seat {s.active}'s turn, not seat {command.seat}'s", "R-TRN-5"
        )
    return tx.seat(command.seat)


def _free_move(tx: _Tx, c: CasketState, command: Move) -> None:
    """R-ADD-69: the move a card granted: up to its hexes, each step legal, no SP."""
    if not c.free_move or c.free_move_source is None:
        raise RuleViolation("no_free_move", "no card granted a move this turn", "R-ADD-69")
    if command.pay is not None:
        raise RuleViolation("free_move_paid", "a granted move costs no SP: no 'pay'", "R-ADD-69")
    if c.free_move_split and c.free_move_stage == 1:
        raise RuleViolation(
            "free_move_after_attack",
            "the rest of this move comes after an attack: attack first",
            "R-ADD-109",
        )
    if len(command.path) > c.free_move:
        raise RuleViolation(
            "path_too_long", f"the granted move is at most {c.free_move} hex(es)", "R-ADD-69"
        )
    costs._path_cost(tx, c, command.path)
    hexes = tuple((h.q, h.r) for h in command.path)
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, c.free_move_source))
    resolution._entered(tx, c.seat, c.at, command.path)  # R-ADD-165
