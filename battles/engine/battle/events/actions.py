"""A casket's actions and the effects of the cards it plays: moves, turns, Heat, cards
played, discarded and shuffled back, buffs, tokens and the triggered effects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import AmountOnSeat, Event, Shown, SourceOnSeat, public


@public
@dataclass(frozen=True, slots=True)
class CasketMoved(Event):
    seat: int
    path: tuple[tuple[int, int], ...]
    cost: int
    by_card: str | None = None


@public
@dataclass(frozen=True, slots=True)
class CasketRotated(Event):
    seat: int
    facing: int
    cost: int
    free_used: bool


@public
@dataclass(frozen=True, slots=True)
class HeatVented(Event):
    seat: int
    cost: int
    removed: int


@public
@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card leaves the hand and its SP is paid; it sits in play until resolved."""

    seat: int
    card: str
    cost: int
    manual: bool
    text: str = ""


@public
@dataclass(frozen=True, slots=True)
class CardResolved(Event):
    """A played card goes to the discard pile."""

    seat: int
    card: str


@public
@dataclass(frozen=True, slots=True)
class CardLapsed(Event):
    """A card lasting "for N turns" leaves play as the last of those turns of its owner
    ends: to the discard pile, or to the removed cards when `removed` (R-ADD-70, R-ADD-375)."""

    seat: int
    card: str
    turns: int
    removed: bool


@public
@dataclass(frozen=True, slots=True)
class OverspendPaid(Event):
    """SP beyond the maximum paid with cards from hand and the deck's top (R-TRN-3)."""

    seat: int
    sp: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]


@public
@dataclass(frozen=True, slots=True)
class HeatChanged(Event):
    seat: int
    amount: int
    heat: int  # after the change
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    seat: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class CardsRecovered(Event):
    """Cards taken back from the discard pile into the hand."""

    seat: int
    cards: tuple[str, ...]
    reason: str


@public
@dataclass(frozen=True, slots=True)
class CardsRestored(Event):
    """Cards taken out of the damage pile into the discard pile by a card's text (R-ADD-440:
    the Damage Graveyard a faction "can interact with"); the damage pile is face up."""

    seat: int
    cards: tuple[str, ...]
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The discard pile becomes the deck with one more Damage card (R-TRN-6)."""

    SHOWN: ClassVar[Shown] = Shown.secret_order("seat", "damage_card", "known")
    seat: int
    order: tuple[str, ...]
    damage_card: str
    known: bool


@public
@dataclass(frozen=True, slots=True)
class BuffGained(Event):
    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    damage_this_turn: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class StatusApplied(Event):
    seat: int
    status: str
    source: str


@public
@dataclass(frozen=True, slots=True)
class TokensChanged(Event):
    """A casket gained (`amount` > 0) or spent tokens of a named pool; `total` is the
    count after the change (R-ADD-61)."""

    seat: int
    pool: str
    amount: int
    total: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class TaintChanged(Event):
    """A card changed a pilot's Taint by `amount` (R-ADD-66); `taint` is the value after.
    Not a GM adjustment (TaintAdjusted is)."""

    seat: int
    amount: int
    taint: int
    source: str


@dataclass(frozen=True, slots=True)
class CardsShuffledIn(Event):
    """Cards from the discard pile went back into the deck, which now runs `order`, top
    first; `known` is false for a physical shuffle (R-ADD-62)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "cards", "known", "reason"), nobody=("order",))
    seat: int
    cards: tuple[str, ...]
    order: tuple[str, ...]
    known: bool
    reason: str


@public
@dataclass(frozen=True, slots=True)
class EffectRolled(Event):
    """The dice a card's rolled amount took ("remove 1d3 Heat"): d6 `faces` and the
    `total` they give (R-ADD-67); the effect's own event follows."""

    seat: int
    faces: tuple[int, ...]
    total: int
    source: str
    rule: str = "R-ADD-67"  # R-ADD-108's direction roll


@public
@dataclass(frozen=True, slots=True)
class SpPenaltyImposed(AmountOnSeat):
    """A card takes `amount` SP off the seat's next turn; the SpDrained that applies it
    follows that turn's SpRestored (R-TRN-3, R-ADD-65)."""


@public
@dataclass(frozen=True, slots=True)
class DamageScheduled(AmountOnSeat):
    """A card's hit scheduled `amount` damage the seat takes at the start of its next turn,
    without an attack (poison, fire; R-ADD-73)."""


@public
@dataclass(frozen=True, slots=True)
class SeedsPlanted(Event):
    """Thornvine seeds planted in a hex; `total` is its count after (R-ADD-66)."""

    at: tuple[int, int]
    amount: int
    total: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class SeedsDetonated(Event):
    """Every seed on the board detonated and cleared; `hexes` were (q, r, count) (R-ADD-66).
    The damage follows as prompts or DamageTaken events."""

    hexes: tuple[tuple[int, int, int], ...]
    source: str


@public
@dataclass(frozen=True, slots=True)
class MoveGranted(Event):
    """A card gave its owner a move of up to `hexes` hexes at no SP, for this turn; the
    move that uses it is a CasketMoved with `by_card` the source (R-ADD-69)."""

    seat: int
    hexes: int
    source: str
    split: bool = False  # a move before an attack and one after (R-ADD-109)


@public
@dataclass(frozen=True, slots=True)
class DefenceRaised(AmountOnSeat):
    """+`amount` Defense until the start of the casket's next turn (R-DMG-3, R-ADD-64)."""


@public
@dataclass(frozen=True, slots=True)
class SufferingRolled(Event):
    seat: int
    faces: tuple[int, ...]


# triggered effects


@public
@dataclass(frozen=True, slots=True)
class ThornsRaised(Event):
    """Attackers of the seat take `damage` once their attack has ended: every attacker
    (`melee_only`: every melee attacker) until the seat's next turn (`until` "next_turn"),
    or the next attacker only ("next_attack") (R-ADD-130)."""

    seat: int
    damage: int
    melee_only: bool
    until: str
    source: str


@public
@dataclass(frozen=True, slots=True)
class SpBoosted(Event):
    """A card gave the seat `amount` SP for this turn (R-ADD-135); `maximum`: it raised this
    turn's SP maximum instead ("+1 SP maximum")."""

    seat: int
    amount: int
    maximum: bool
    source: str


@public
@dataclass(frozen=True, slots=True)
class ComponentDamagePrevented(Event):
    """A passive in play (`source`, an instance) ignored `amount` of the Component Damage
    the seat's `component` was about to take: its use this round (R-ADD-136); or, by
    `rule` R-ADD-281, the reactive card answering the attack prevented it, once."""

    seat: int
    component: str
    amount: int
    source: str
    rule: str = "R-ADD-136"


@public
@dataclass(frozen=True, slots=True)
class CounterRaised(AmountOnSeat):
    """The reactive card the seat just played deals `amount` more counter-damage, bought
    with Taint (R-ADD-130) or given by a condition that held as it was played (R-ADD-362)."""


@public
@dataclass(frozen=True, slots=True)
class SelfDamageDue(AmountOnSeat):
    """The attacker takes `amount` damage once the attack it just declared has ended: its
    own card's price, not bought off (R-ADD-130)."""


@public
@dataclass(frozen=True, slots=True)
class BonusHeld(SourceOnSeat):
    """The passive `source` (an instance in play) gave the seat its next-attack bonus, which
    does not stack: it gives no more until an attack spends it (R-ADD-139)."""


@public
@dataclass(frozen=True, slots=True)
class TurnBuffGained(Event):
    """A bonus for the seat's next attack this turn; unspent, it lapses as the turn ends
    (R-ADD-139)."""

    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class DamageReduced(AmountOnSeat):
    """A passive in play took `amount` off damage the seat was about to take (R-ADD-136);
    `rule` R-ADD-391: all of damage that would have defeated it, negated."""

    rule: str = "R-ADD-136"


@public
@dataclass(frozen=True, slots=True)
class DamageNegated(Event):
    """A passive in play negated `amount` of the first damage the seat takes this turn,
    `used` of its budget now spent in this turn (R-ADD-376)."""

    seat: int
    amount: int
    card: str
    used: int


@public
@dataclass(frozen=True, slots=True)
class LastingBonusGained(Event):
    """+`damage` on every attack of the seat for the rest of the battle, `total` now
    (R-ADD-131)."""

    seat: int
    damage: int
    total: int
    source: str
