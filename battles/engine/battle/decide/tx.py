"""The `_Tx` transaction every rule writes its events through, and the numbers the rules share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ...errors import RuleViolation
from .. import events as ev
from ..evolve import evolve
from ..randomness import (
    DiceSource,
)
from ..state import (
    BattleState,
    CasketState,
    card_id,
)

if TYPE_CHECKING:  # `effects.base` builds on the transaction: its type only, at no run time
    from .effects.base import Resolver

VENT_COST = 2  # seed 002 "Common Actions": Vent Heat, 2 SP, remove 3 Heat (R-ADD-19)
VENT_HEAT = 3
NEURAL_FEEDBACK_EVERY = 5  # R-DMG-7
SURVIVAL_WOUND_FACES = (1, 2, 3)  # R-PLT-3: on 1–3 the pilot takes 2 wounds
SURVIVAL_WOUNDS = 2
JAM_HEAT = 2  # catastrophic failure, seed 001 (R-HIT-4, R-DMG-1)
REAR = 4  # R-ARC-2: the rear side


@dataclass
class _Tx:
    """The events decided so far and the state they lead to; `resolvers`: the resolver of
    each effect class (`effects.table.RESOLVERS`, given by `entry`), through which the rules
    resolve a card's effects without importing the resolvers that call them."""

    state: BattleState
    dice: DiceSource
    resolvers: Mapping[type[Any], Resolver]
    drawn: list[str] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)

    def emit(self, event: ev.Event) -> None:
        self.events.append(event)
        self.state = evolve(self.state, event)

    @property
    def table(self) -> bool:
        return self.state.dice_mode == "table"

    def seat(self, n: int) -> CasketState:
        return self.state.seats[n]

    def take(self, pile: Sequence[str], n: int, purpose: str, rule: str) -> tuple[str, ...]:
        """The top `n` of an ordered pile; at a table, the cards the command reports (R-ADD-18)."""
        if not self.table:
            return tuple(pile[:n])
        remaining = list(pile)
        out: list[str] = []
        for _ in range(n):
            if not self.drawn:
                raise RuleViolation(
                    "cards_not_reported",
                    f"{purpose} takes {n} card(s) from a pile whose order only the table "
                    f"knows: report them in 'drawn'",
                    rule,
                )
            name = self.drawn.pop(0)
            match = next(
                (
                    c
                    for c in remaining
                    # A wound kind ("minor") names any wound of that kind; a card is named
                    # by its instance or card id only, never by a prefix of another id.
                    if c == name
                    or card_id(c) == name
                    or ("#" not in c and c.startswith(name + "-"))
                ),
                None,
            )
            if match is None:
                raise RuleViolation(
                    "card_not_in_deck", f"{name!r} is not in the pile {purpose} takes from", rule
                )
            remaining.remove(match)
            out.append(match)
        return tuple(out)

    def shuffle(self, cards: Sequence[str], purpose: str) -> tuple[tuple[str, ...], bool]:
        if self.table:
            return tuple(cards), False
        return self.dice.shuffle(cards, purpose=purpose), True


# "Behind you": the casket's sides 3, 4 and 5, those R-REA-2 names its rear (R-ADD-127).
REAR_SIDES = frozenset({3, 4, 5})


# R-ADD-163: Consecrated Ground's "allies standing in it gain +1 Defense", Sanctuary's
# "allies inside gain +3 Defense".
GROUND_DEFENCE = {"holy": 1, "sanctuary": 3}
