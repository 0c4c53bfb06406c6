"""Resolvers of the defence effects: defence raised, wards, untargetable, damage cards removed."""

from __future__ import annotations

from typing import Any

from ....cards import (
    DAMAGE_CARD,
    AfterDefenceEffect,
    CounterEffect,
    DefenceEffect,
    PreventComponentDamageEffect,
    ReduceIncomingEffect,
    RemoveDamageCardEffect,
    RiposteEffect,
    ThornsEffect,
    UnflankableEffect,
    UntargetableEffect,
    WardEffect,
)
from ....errors import RuleViolation
from ... import events as ev
from ...state import (
    card_id,
)
from .base import Resolver, Resolving, resolved_elsewhere


def _thorns(ctx: Resolving, effect: ThornsEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.ThornsRaised(seat, effect.damage, effect.melee_only, effect.until, card.id))


def _ward(ctx: Resolving, effect: WardEffect) -> None:
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
        )
    )


def _untargetable(ctx: Resolving, effect: UntargetableEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.UntargetableGained(seat, effect.against, effect.until_attack, card.id))


def _remove_damage_card(ctx: Resolving, effect: RemoveDamageCardEffect) -> None:
    # R-ADD-124: the newest first
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    junk = tuple(x for x in reversed(c.discard) if card_id(x) == DAMAGE_CARD.id)
    if junk:
        tx.emit(ev.DamageCardsRemoved(seat, junk[: effect.n], card.id))


def _defence(ctx: Resolving, effect: DefenceEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.DefenceRaised(seat, effect.amount, card.id))


def _reduce_incoming(
    ctx: Resolving, effect: ReduceIncomingEffect
) -> None:  # pragma: no cover - reactive cards only
    raise RuleViolation("reactive_in_own_turn", "reactive cards answer attacks", "R-REA-1")


RESOLVERS: dict[type[Any], Resolver] = {
    ReduceIncomingEffect: _reduce_incoming,
    DefenceEffect: _defence,
    WardEffect: _ward,
    AfterDefenceEffect: resolved_elsewhere,  # the attack the reactive card answers runs it (R-ADD-97)
    UnflankableEffect: resolved_elsewhere,  # `targeting._facing_for` reads the passive in play (R-ADD-136)
    UntargetableEffect: _untargetable,
    RemoveDamageCardEffect: _remove_damage_card,
    RiposteEffect: resolved_elsewhere,  # `resolution._end_attack` counterattacks after damage taken (R-ADD-130)
    CounterEffect: resolved_elsewhere,  # `resolution._end_attack` deals the reactive card's counter-damage (R-ADD-58)
    ThornsEffect: _thorns,
    PreventComponentDamageEffect: resolved_elsewhere,  # `harm._component_damage` applies it in the attack the card answers (R-ADD-281)
}
