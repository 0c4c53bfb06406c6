"""Resolvers of the conditional effects: "when", "unless you spend", and the passives read elsewhere."""

from __future__ import annotations

from typing import Any

from ....cards.effects import triggers as fx
from .. import conditions
from .base import Resolver, Resolving, resolved_elsewhere


def _when(ctx: Resolving, effect: fx.WhenEffect) -> None:
    about = ctx.attack_target if ctx.attack_target is not None else ctx.target
    if conditions._holds(ctx.tx, ctx.seat, effect.condition, about):
        for inner in effect.then:
            ctx.then(inner, attack_target=ctx.attack_target, ended=ctx.ended)


def _unless_spent(ctx: Resolving, effect: fx.UnlessSpentEffect) -> None:
    if not ctx.spend:  # R-ADD-151: the spend replaces these
        for inner in effect.then:
            ctx.then(inner, attack_target=ctx.attack_target)


RESOLVERS: dict[type[Any], Resolver] = {
    fx.WhenEffect: _when,
    fx.TriggerEffect: resolved_elsewhere,  # a passive in play: `passives._triggers` fires it on its event, `resolution._reduce_taken` on damage taken (R-ADD-131, R-ADD-136)
    fx.WindowEffect: resolved_elsewhere,  # `resolution._in_window` opens the reactive window it names (R-ADD-58)
    fx.UnlessSpentEffect: _unless_spent,
    fx.TokenCostEffect: resolved_elsewhere,  # paid as the card is played (R-ADD-133)
    fx.LimitEffect: resolved_elsewhere,  # checked before the card is played (R-ADD-63)
    fx.AllyDestroyedWindowEffect: resolved_elsewhere,  # `harm._defeat` opens its window, `reactions._ally_destroyed` plays it (R-ADD-283)
    fx.LowDeckWindowEffect: resolved_elsewhere,  # `reactions._low_deck_windows` opens its window after each decision, `reactions._low_deck` plays it (R-ADD-370)
    fx.LethalWindowEffect: resolved_elsewhere,  # `resolution._lethal_window` opens its window before the damage's split, `reactions._lethal` plays it (R-ADD-371)
    fx.ForTurnsEffect: resolved_elsewhere,  # the card stays in play; `flow._finish_turn` ends it with the last of its turns (R-ADD-375)
}
