"""One effect of a card, resolved by table.

Each effect family (the groups of `battles.engine.cards`' effect classes) has a module here
whose `RESOLVERS` maps each of its effect classes to one resolver; `table.RESOLVERS` merges
them, checked at import to cover exactly the effect classes of `EFFECT_TYPES`, so a new effect
class cannot be forgotten. Effects that other rules read where they apply them (a passive in
play, a reactive card's answer) are registered with `resolved_elsewhere`, each entry naming
where.

The resolvers call the rules (a move, a prompt, damage) and the rules resolve effects, so the
rules reach the resolvers only through the table the transaction carries (`_Tx.resolvers`,
given by `entry`): this package's `__init__` and `base` import no family, and the rule modules
import only them.
"""

from __future__ import annotations

from ....cards import Effect
from .base import Resolving

__all__ = ["Resolving", "_effect"]


def _effect(resolving: Resolving, effect: Effect) -> None:
    """One effect of `resolving.card`, by its class's resolver."""
    resolving.tx.resolvers[type(effect)](resolving, effect)
