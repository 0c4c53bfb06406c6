"""The GM's corrections: adjustments and reverts (R-ADD-32)."""

from __future__ import annotations

from ...errors import RuleViolation
from .. import events as ev
from ..commands import (
    AdjustComponentDamage,
    AdjustHeat,
    AdjustTaint,
    Command,
    EndBattle,
    Relocate,
    ReturnCard,
    Revert,
)
from ..snapshot import state_to_dict
from ..state import (
    TAINT_OVERLOAD,
    BattleState,
)
from . import harm
from .tx import _Tx


def _adjust(tx: _Tx, command: Command) -> None:
    seat = command.seat
    c = tx.seat(seat)
    if isinstance(command, AdjustHeat):
        tx.emit(ev.HeatAdjusted(seat, command.heat, command.reason))
    elif isinstance(command, AdjustTaint):
        tx.emit(ev.TaintAdjusted(seat, command.taint, command.reason))
        if c.taint < TAINT_OVERLOAD <= command.taint and c.in_battle and not c.pilot_dead:
            harm._taint_overload(tx, seat)
    elif isinstance(command, AdjustComponentDamage):
        total = max(0, c.damage_of(command.component) + command.amount)
        threshold = int(tx.state.ruleset.option("component_threshold"))
        tx.emit(
            ev.ComponentDamageAdjusted(
                seat, command.component, command.amount, total, total >= threshold, command.reason
            )
        )
    elif isinstance(command, Relocate):
        board = tx.state.board
        if command.at not in board or board.terrain_at(command.at).impassable:
            raise RuleViolation(
                "bad_hex", f"{list(command.at)} is off the board or impassable", "R-BRD-3"
            )
        if tx.state.unit_at(command.at) is not None or any(  # R-ADD-403: a unit's hex too
            x.at == command.at and x.seat != seat and x.in_battle for x in tx.state.seats
        ):
            raise RuleViolation("occupied", f"{list(command.at)} is occupied", "R-MOV-2")
        tx.emit(
            ev.CasketRelocated(seat, (command.at.q, command.at.r), command.facing, command.reason)
        )
    elif isinstance(command, ReturnCard):
        zone = next(
            (z for z in ("discard", "removed") if any(x == command.card for x in getattr(c, z))),
            None,
        )
        if zone is None:
            raise RuleViolation(
                "card_not_in_discard",
                f"{command.card!r} is in neither seat {seat}'s discard pile nor its removed cards",
                "R-ADD-24",
            )
        tx.emit(ev.CardReturned(seat, command.card, zone, command.reason))
    elif isinstance(command, EndBattle):
        sides = sorted({x.side for x in tx.state.seats})
        if command.side is not None and command.side not in sides:
            raise RuleViolation(
                "no_such_side",
                f"side {command.side!r} is not in this battle; its sides: {', '.join(sides)} "
                "(or null for a draw)",
                "R-TRN-9",
            )
        tx.emit(ev.BattleEnded(command.side, command.reason, "R-TRN-9"))


def _revert(tx: _Tx, command: Revert, before: BattleState | None) -> None:
    if tx.state.dice_revealed:
        raise RuleViolation(
            "dice_revealed",
            "the battle's dice secret was revealed when it ended: reverting the end would "
            "continue a battle whose every roll is known; create a new battle instead",
            "R-ADD-45",
        )
    if before is None:
        raise RuleViolation(
            "revert_unavailable",
            f"command {command.command_id!r} is not this battle's latest command; only the "
            "latest can be reverted",
            "R-ADD-24",
        )
    tx.emit(
        ev.CommandReverted(
            command.command_id,
            before.version,
            tx.state.version,
            state_to_dict(before, with_setup=False),
            command.reason,
        )
    )
