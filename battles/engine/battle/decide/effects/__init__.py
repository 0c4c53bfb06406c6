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

from collections.abc import Sequence

from ....cards import CardDef, Effect
from ..tx import _Tx
from .base import Resolving


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
    tokens: int = 0,
    unit: str | None = None,
) -> None:
    """One effect of `card`, by its class's resolver; `ended`: run by `_end_attack`, the
    attack's outcome known; `tokens`: X, paid for a cost of X tokens (R-ADD-389)."""
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
        tokens,
        unit,
    )
    tx.resolvers[type(effect)](resolving, effect)
