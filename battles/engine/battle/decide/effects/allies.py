"""Resolvers of the ally effects: gains for allies and zones."""

from __future__ import annotations

from typing import Any

from ....cards import DefenceEffect
from ....cards.effects import allies as fx
from ....errors import RuleViolation
from ....hexes import Hex
from ... import events as ev
from ...state import (
    card_id,
)
from .. import conditions, units
from .base import Resolver, Resolving, resolved_elsewhere


def _zone(ctx: Resolving, effect: fx.ZoneEffect) -> None:
    # R-ADD-129: the copy just played, on this hex
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    instance = next(x for x in reversed(c.in_play) if card_id(x) == card.id)
    tx.emit(ev.ZoneCreated(seat, instance, (c.at.q, c.at.r)))


def _ally(ctx: Resolving, effect: fx.AllyEffect) -> None:
    # R-ADD-120: the ally's own gains
    tx, seat, card, target, used = ctx.tx, ctx.seat, ctx.card, ctx.target, ctx.used
    used["target"] = used.get("target", False) or not effect.every
    for ally in conditions._ally_targets(tx, seat, card, effect, target):
        for inner in effect.then:
            own_turn = ally == seat and effect.defence_until == "your_next_turn"
            if isinstance(inner, DefenceEffect) and not own_turn:
                # R-ADD-123: until the player's next turn, or the round's end.
                until = seat if effect.defence_until == "your_next_turn" else -1
                tx.emit(ev.DefenceLent(ally, inner.amount, until, card.id))
            else:
                # The ally's own gain: none of the command's arguments, attack effects skipped.
                ctx.then(
                    inner,
                    seat=ally,
                    target=None,
                    path=(),
                    facing=None,
                    discard=(),
                    used={},
                    skip_attack=True,
                )


def _summon(ctx: Resolving, effect: fx.SummonEffect) -> None:
    # R-ADD-400: on the hex the command's `path` names (one hex), else the nearest free one;
    # after an attack (R-ADD-406) always the nearest.
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    source = next((x for x in reversed(c.in_play) if card_id(x) == card.id), card.id)
    place: Hex | None = None
    if ctx.path:
        if len(ctx.path) != 1 or not isinstance(ctx.path[0], Hex):
            raise RuleViolation(
                "summon_hex", f"{card.name} names one hex in 'path': where it summons", "R-ADD-400"
            )
        place = ctx.path[0]
        ctx.used["path"] = True
    if ctx.ended:  # R-ADD-406: after an attack, no unit when none may come; nothing refused
        mine = [u for u in tx.state.units if u.owner == seat and u.name == effect.name]
        full = bool(effect.limit) and len(mine) >= effect.limit
        if full or not units.free_hexes(tx.state, c.at, effect.within):
            return
    units._summon(tx, seat, source, card, effect, place)


def _unit_order(ctx: Resolving, effect: fx.UnitOrderEffect) -> None:
    # R-ADD-409: the named unit's move along `path`, then its attack on `target`
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    source = next((x for x in reversed(c.in_play) if card_id(x) == card.id), card.id)
    path = tuple(h for h in ctx.path if isinstance(h, Hex))
    ctx.used.update(unit=True, path=True, target=True)
    units._order(tx, c, card, source, effect, ctx.unit, path, ctx.target)


def _unit_boost(ctx: Resolving, effect: fx.UnitBoostEffect) -> None:
    # R-ADD-408: the player's units of that name within range, now
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    source = next((x for x in reversed(c.in_play) if card_id(x) == card.id), card.id)
    units._boost(tx, c, source, effect)


RESOLVERS: dict[type[Any], Resolver] = {
    fx.AllyEffect: _ally,
    fx.CoverEffect: resolved_elsewhere,  # `resolution._coverers` and `reactions._play_reactive` offer and play the cover (R-ADD-122)
    fx.DeflectEffect: resolved_elsewhere,  # `resolution._roll_defence` and `resolution._reactive_defence` deflect the damage (R-ADD-125)
    fx.AllyMoveEffect: resolved_elsewhere,  # `play._card_effects` moves the allies along the command's `ally_paths` (R-ADD-126)
    fx.GuardEffect: resolved_elsewhere,  # `attacking._ward` spends the guard in play on an attack (R-ADD-128)
    fx.ZoneEffect: _zone,
    fx.SummonEffect: _summon,
    fx.UnitOrderEffect: _unit_order,
    fx.UnitBoostEffect: _unit_boost,
}
