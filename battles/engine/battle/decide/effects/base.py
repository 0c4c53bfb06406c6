"""What every effect resolver is given, and the resolver of effects resolved elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ....cards import CardDef, Effect
from .. import conditions
from ..tx import _Tx


@dataclass(frozen=True)
class Resolving:
    """One effect being resolved: the card, the seat that plays it and the command's arguments
    (an effect resolved outside a play of its card keeps the defaults: none given).

    `used` records which of the command's arguments an effect took (a card whose effects
    leave one unused is refused, R-ADD-14); `skip_attack`: the card is an attack card whose
    attack and riders the attack command resolves; `spend`: the player spends what the card
    offers to spend; `attack_target`: the casket the card's attack is made against;
    `ended`: run by `resolution._end_attack`, the attack's outcome known; `tokens`: X,
    paid for the card's cost of X tokens ("Draw X cards", R-ADD-389); `unit`: the own
    summoned unit the command names (R-ADD-409).
    """

    tx: _Tx
    seat: int
    card: CardDef
    target: int | None = None
    path: Sequence[object] = ()
    facing: int | None = None
    discard: Sequence[str] = ()
    used: dict[str, bool] = field(default_factory=dict)
    skip_attack: bool = False
    spend: bool = False
    attack_target: int | None = None
    ended: bool = False
    # X, the tokens the command paid for the card's cost of X tokens (R-ADD-389)
    tokens: int = 0
    unit: str | None = None  # the own unit the command names (R-ADD-409)

    def then(self, inner: Effect, **changes: Any) -> None:
        """Resolve `inner`, an effect inside this one ("when ...", "then ..."), with
        `changes` to the resolution; `spend`, `attack_target` and `ended` are not carried
        unless named."""
        carried = {"spend": False, "attack_target": None, "ended": False} | changes
        self.tx.resolvers[type(inner)](replace(self, **carried), inner)


# A resolver takes the resolution and the effect of the one class it is registered for.
Resolver = Callable[[Resolving, Any], None]


def resolved_elsewhere(ctx: Resolving, effect: object) -> None:
    """The resolver of an effect that other rules read where they apply it (each table entry
    names where); resolving the card itself does nothing more.

    >>> from battles.engine.battle.decide.effects.table import RESOLVERS
    >>> from battles.engine.cards import CoverEffect, DrawEffect
    >>> RESOLVERS[CoverEffect] is resolved_elsewhere, RESOLVERS[DrawEffect] is resolved_elsewhere
    (True, False)
    """


def affected_enemy(ctx: Resolving) -> int:
    """The casket a hindering effect reaches: the attack's target, or, for a card without an
    attack, an enemy within the card's range named by 'target' (R-ADD-65)."""
    if ctx.attack_target is not None:
        return ctx.attack_target
    who = conditions._enemy_in_range(ctx.tx, ctx.seat, ctx.card, ctx.target)
    ctx.used["target"] = True
    return who
