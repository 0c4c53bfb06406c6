"""Resolvers of the conditional effects: "when", "unless you spend", and the passives read elsewhere."""

from __future__ import annotations

from typing import Any

from ....cards import (
    LimitEffect,
    TokenCostEffect,
    TriggerEffect,
    UnlessSpentEffect,
    WhenEffect,
    WindowEffect,
)
from .. import conditions
from .. import effects as resolvers
from .base import Resolver, Resolving, resolved_elsewhere


def _when(ctx: Resolving, effect: WhenEffect) -> None:
    tx, seat, card, target, path, facing, discard, used, skip_attack, attack_target, ended = (
        ctx.tx,
        ctx.seat,
        ctx.card,
        ctx.target,
        ctx.path,
        ctx.facing,
        ctx.discard,
        ctx.used,
        ctx.skip_attack,
        ctx.attack_target,
        ctx.ended,
    )
    about = attack_target if attack_target is not None else target
    if conditions._holds(tx, seat, effect.condition, about):
        for inner in effect.then:
            resolvers._effect(
                tx,
                seat,
                card,
                inner,
                target,
                path,
                facing,
                discard,
                used,
                skip_attack,
                attack_target=attack_target,
                ended=ended,
            )


def _unless_spent(ctx: Resolving, effect: UnlessSpentEffect) -> None:
    tx, seat, card, target, path, facing, discard, used, skip_attack, spend, attack_target = (
        ctx.tx,
        ctx.seat,
        ctx.card,
        ctx.target,
        ctx.path,
        ctx.facing,
        ctx.discard,
        ctx.used,
        ctx.skip_attack,
        ctx.spend,
        ctx.attack_target,
    )
    if not spend:  # R-ADD-151: the spend replaces these
        for inner in effect.then:
            resolvers._effect(
                tx,
                seat,
                card,
                inner,
                target,
                path,
                facing,
                discard,
                used,
                skip_attack,
                attack_target=attack_target,
            )


RESOLVERS: dict[type[Any], Resolver] = {
    WhenEffect: _when,
    TriggerEffect: resolved_elsewhere,  # a passive in play: `play._triggers` fires it on its event, `harm._reduce_taken` on damage taken (R-ADD-131, R-ADD-136)
    WindowEffect: resolved_elsewhere,  # `reactions._in_window` opens the reactive window it names (R-ADD-58)
    UnlessSpentEffect: _unless_spent,
    TokenCostEffect: resolved_elsewhere,  # paid as the card is played (R-ADD-133)
    LimitEffect: resolved_elsewhere,  # checked before the card is played (R-ADD-63)
}
