"""Resolvers of the movement effects: card moves, rotations, pushes, teleports, scatters, roots."""

from __future__ import annotations

from typing import Any

from ....arcs import rotation_steps
from ....cards.effects import movement as fx
from ....errors import RuleViolation
from ... import events as ev
from .. import moves
from .base import Resolver, Resolving, affected_enemy, resolved_elsewhere


def _grant_rotation(ctx: Resolving, effect: fx.GrantRotationEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    if tx.seat(seat).free_rotation_used:  # R-ADD-189: unused, the turn's own is there
        tx.emit(ev.RotationGranted(seat, card.id))


def _push(ctx: Resolving, effect: fx.PushEffect) -> None:
    moves._push(
        ctx.tx, ctx.seat, ctx.card, effect, ctx.target, ctx.used, ctx.attack_target, ctx.ended
    )


def _scatter(ctx: Resolving, effect: fx.ScatterEffect) -> None:
    tx, seat, card, attack_target, ended = ctx.tx, ctx.seat, ctx.card, ctx.attack_target, ctx.ended
    if attack_target is not None and ended:
        moves._scatter(tx, seat, card, attack_target)


def _teleport(ctx: Resolving, effect: fx.TeleportEffect) -> None:
    tx, seat, card, path, used = ctx.tx, ctx.seat, ctx.card, ctx.path, ctx.used
    c = tx.seat(seat)
    if effect.whom == "enemy":  # R-ADD-390: "Teleport target enemy to any hex within 6"
        moves._teleport_enemy(tx, seat, card, effect, ctx.target, path)
        used["target"] = True
    else:
        moves._teleport(tx, c, card, effect, path)
    used["path"] = True


def _grant_move(ctx: Resolving, effect: fx.GrantMoveEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.MoveGranted(seat, effect.hexes, card.id, effect.split))


def _move_cost(ctx: Resolving, effect: fx.MoveCostEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        tx.emit(ev.MoveCostRaised(attack_target, effect.amount, card.id))


def _move(ctx: Resolving, effect: fx.MoveEffect) -> None:
    tx, seat, card, path, used, skip_attack = (
        ctx.tx,
        ctx.seat,
        ctx.card,
        ctx.path,
        ctx.used,
        ctx.skip_attack,
    )
    c = tx.seat(seat)
    if skip_attack:
        return  # an attack card's move is the attack command's path (R-ADD-104)
    if not path:
        raise RuleViolation("path_required", f"{card.name} moves: give 'path'", "R-ADD-25")
    moves._card_move(tx, c, card, effect, path, None)
    used["path"] = True


def _rotate(ctx: Resolving, effect: fx.RotateEffect) -> None:
    tx, seat, card, facing, used = ctx.tx, ctx.seat, ctx.card, ctx.facing, ctx.used
    c = tx.seat(seat)
    if facing is None and effect.optional:
        return  # R-ADD-63: "you may rotate"
    if facing is None:
        raise RuleViolation("facing_required", f"{card.name} rotates: give 'facing'", "R-ARC-5")
    steps = rotation_steps(c.facing, facing)
    if effect.steps != "any" and steps > effect.steps:
        raise RuleViolation(
            "rotation_too_far", f"{card.name} turns at most {effect.steps} step(s)", "R-ADD-16"
        )
    used["facing"] = True
    tx.emit(ev.CasketRotated(seat, facing, 0, False))


def _root(ctx: Resolving, effect: fx.RootEffect) -> None:
    ctx.tx.emit(ev.Rooted(affected_enemy(ctx), effect.turns, ctx.card.id))


RESOLVERS: dict[type[Any], Resolver] = {
    fx.MoveEffect: _move,
    fx.RotateEffect: _rotate,
    fx.GrantMoveEffect: _grant_move,
    fx.PushEffect: _push,
    fx.TeleportEffect: _teleport,
    fx.ScatterEffect: _scatter,
    fx.RootEffect: _root,
    fx.MoveCostEffect: _move_cost,
    fx.FreePassageEffect: resolved_elsewhere,  # `costs._path_cost` reads the passive in play (R-ADD-136)
    fx.GrantRotationEffect: _grant_rotation,
}
