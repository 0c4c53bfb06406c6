"""One effect of a card, resolved by table.

Each effect family (the groups of `battles.engine.cards`' effect classes) has a module here
whose `RESOLVERS` maps each of its effect classes to one resolver. `RESOLVERS` merges them;
an import-time check makes its keys exactly the effect classes of `EFFECT_TYPES`, so a new
effect class cannot be forgotten. Effects that other rules read where they apply them (a
passive in play, a reactive card's answer) are registered with `resolved_elsewhere`, each
entry naming where.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

from ....cards import EFFECT_TYPES, CardDef, Effect
from ..tx import _Tx
from . import allies, attacks, conditions, defence, hand, movement, resources, terrain, triggers
from .base import Resolver, Resolving

FAMILIES = (attacks, defence, movement, terrain, allies, triggers, conditions, resources, hand)

RESOLVERS: Mapping[type[Any], Resolver] = MappingProxyType(
    {cls: resolver for family in FAMILIES for cls, resolver in family.RESOLVERS.items()}
)
assert sum(len(family.RESOLVERS) for family in FAMILIES) == len(RESOLVERS), (
    "an effect class has resolvers in two families"
)
assert set(RESOLVERS) == set(EFFECT_TYPES.values()), (
    "effect classes without a resolver, or resolvers of no effect class: "
    f"{sorted(c.__name__ for c in set(RESOLVERS) ^ set(EFFECT_TYPES.values()))}"
)


def _effect(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: Effect,
    target: int | None,
    path: Sequence[object],
    facing: int | None,
    discard: Sequence[str],
    used: dict[str, bool],
    skip_attack: bool,
    spend: bool = False,
    *,
    attack_target: int | None = None,
    ended: bool = False,
) -> None:
    """One effect of `card`, by its class's resolver; `ended`: run by `_end_attack`, the
    attack's outcome known."""
    resolving = Resolving(
        tx,
        seat,
        card,
        target,
        path,
        facing,
        discard,
        used,
        skip_attack,
        spend,
        attack_target,
        ended,
    )
    RESOLVERS[type(effect)](resolving, effect)
