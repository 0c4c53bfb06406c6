"""The table of every effect class's resolver, merged from the families and checked complete.

`entry` gives it to each transaction (`_Tx.resolvers`); the rules resolve effects through it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ....cards import EFFECT_TYPES
from . import allies, attacks, conditions, defence, hand, movement, resources, terrain, triggers
from .base import Resolver

FAMILIES = (attacks, defence, movement, terrain, allies, triggers, conditions, resources, hand)

RESOLVERS: Mapping[type[Any], Resolver] = MappingProxyType(
    {cls: resolver for family in FAMILIES for cls, resolver in family.RESOLVERS.items()}
)
assert sum(len(family.RESOLVERS) for family in FAMILIES) == len(RESOLVERS), (
    "an effect class has resolvers in two families"
)
assert set(RESOLVERS) == set(EFFECT_TYPES.values()), (
    "effect classes without a resolver in their family's RESOLVERS "
    "(battle/decide/effects/<family>.py), or resolvers of no class in cards.effects.Effect: "
    f"{sorted(c.__name__ for c in set(RESOLVERS) ^ set(EFFECT_TYPES.values()))}"
)
