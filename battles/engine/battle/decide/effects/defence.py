"""Resolvers of the defence effects: defence raised, wards, untargetable, damage cards removed."""

from __future__ import annotations

from typing import Any

from ....cards import DAMAGE_CARD
from ....cards.effects import defence as fx
from ....errors import RuleViolation
from ... import events as ev
from ...state import (
    card_id,
)
from .base import Resolver, Resolving, resolved_elsewhere


def _thorns(ctx: Resolving, effect: fx.ThornsEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.ThornsRaised(seat, effect.damage, effect.melee_only, effect.until, card.id))


def _ward(ctx: Resolving, effect: fx.WardEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(
        ev.WardRaised(
            seat,
            card.id,
            effect.until,
            effect.against,
            effect.defence,
            effect.to_hit,
            effect.damage,
            effect.reduce,
            effect.cap,
            effect.at_least,
            effect.uses,
            effect.recover,
            effect.immobile,
            effect.move_cost,
            effect.ignore_terrain,
        )
    )


def _untargetable(ctx: Resolving, effect: fx.UntargetableEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.UntargetableGained(seat, effect.against, effect.until_attack, card.id))


def _remove_damage_card(ctx: Resolving, effect: fx.RemoveDamageCardEffect) -> None:
    # R-ADD-124: the newest first
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    junk = tuple(x for x in reversed(c.discard) if card_id(x) == DAMAGE_CARD.id)
    if junk:
        tx.emit(ev.DamageCardsRemoved(seat, junk[: effect.n], card.id))


def _defence(ctx: Resolving, effect: fx.DefenceEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.DefenceRaised(seat, effect.amount, card.id))


def _reduce_incoming(
    ctx: Resolving, effect: fx.ReduceIncomingEffect
) -> None:  # pragma: no cover - reactive cards only
    raise RuleViolation("reactive_in_own_turn", "reactive cards answer attacks", "R-REA-1")


RESOLVERS: dict[type[Any], Resolver] = {
    fx.ReduceIncomingEffect: _reduce_incoming,
    fx.DefenceEffect: _defence,
    fx.WardEffect: _ward,
    fx.AfterDefenceEffect: resolved_elsewhere,  # the attack the reactive card answers runs it (R-ADD-97)
    fx.UnflankableEffect: resolved_elsewhere,  # `targeting._facing_for` reads the passive in play (R-ADD-136)
    fx.UntargetableEffect: _untargetable,
    fx.RemoveDamageCardEffect: _remove_damage_card,
    fx.RiposteEffect: resolved_elsewhere,  # `resolution._end_attack` counterattacks after damage taken (R-ADD-130)
    fx.CounterEffect: resolved_elsewhere,  # `resolution._end_attack` deals the reactive card's counter-damage (R-ADD-58)
    fx.ThornsEffect: _thorns,
    fx.PreventComponentDamageEffect: resolved_elsewhere,  # `harm._component_damage` applies it in the attack the card answers (R-ADD-281)
}
