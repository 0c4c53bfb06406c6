"""A casket's actions and the effects of the cards it plays: moves, turns, Heat, cards
played, discarded and shuffled back, buffs, tokens and the triggered effects."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Event, Shown


@dataclass(frozen=True, slots=True)
class CasketMoved(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "path", "cost", "by_card"))
    seat: int
    path: tuple[tuple[int, int], ...]
    cost: int
    by_card: str | None = None


@dataclass(frozen=True, slots=True)
class CasketRotated(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "facing", "cost", "free_used"))
    seat: int
    facing: int
    cost: int
    free_used: bool


@dataclass(frozen=True, slots=True)
class HeatVented(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "cost", "removed"))
    seat: int
    cost: int
    removed: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card leaves the hand and its SP is paid; it sits in play until resolved."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "card", "cost", "manual", "text"))
    seat: int
    card: str
    cost: int
    manual: bool
    text: str = ""


@dataclass(frozen=True, slots=True)
class CardResolved(Event):
    """A played card goes to the discard pile."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "card"))
    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class CardLapsed(Event):
    """A card lasting "for N turns" leaves play as the last of those turns of its owner
    ends: to the discard pile, or to the removed cards when `removed` (R-ADD-70, R-ADD-375)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "card", "turns", "removed"))
    seat: int
    card: str
    turns: int
    removed: bool


@dataclass(frozen=True, slots=True)
class OverspendPaid(Event):
    """SP beyond the maximum paid with cards from hand and the deck's top (R-TRN-3)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "sp", "from_hand", "from_deck"))
    seat: int
    sp: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeatChanged(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "heat", "reason", "rule"))
    seat: int
    amount: int
    heat: int  # after the change
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "from_hand", "from_deck", "reason", "rule"))
    seat: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardsRecovered(Event):
    """Cards taken back from the discard pile into the hand."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "cards", "reason"))
    seat: int
    cards: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class CardsRestored(Event):
    """Cards taken out of the damage pile into the discard pile by a card's text (R-ADD-440:
    the Damage Graveyard a faction "can interact with"); the damage pile is face up."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "cards", "reason", "rule"))
    seat: int
    cards: tuple[str, ...]
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The discard pile becomes the deck with one more Damage card (R-TRN-6)."""

    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "damage_card", "known"), nobody=("order",), count="cards"
    )
    seat: int
    order: tuple[str, ...]
    damage_card: str
    known: bool


@dataclass(frozen=True, slots=True)
class BuffGained(Event):
    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "damage", "to_hit", "ignore_defence", "damage_this_turn", "source")
    )
    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    damage_this_turn: int
    source: str


@dataclass(frozen=True, slots=True)
class StatusApplied(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "status", "source"))
    seat: int
    status: str
    source: str


@dataclass(frozen=True, slots=True)
class TokensChanged(Event):
    """A casket gained (`amount` > 0) or spent tokens of a named pool; `total` is the
    count after the change (R-ADD-61)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "pool", "amount", "total", "source"))
    seat: int
    pool: str
    amount: int
    total: int
    source: str


@dataclass(frozen=True, slots=True)
class TaintChanged(Event):
    """A card changed a pilot's Taint by `amount` (R-ADD-66); `taint` is the value after.
    Not a GM adjustment (TaintAdjusted is)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "taint", "source"))
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


@dataclass(frozen=True, slots=True)
class EffectRolled(Event):
    """The dice a card's rolled amount took ("remove 1d3 Heat"): d6 `faces` and the
    `total` they give (R-ADD-67); the effect's own event follows."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "faces", "total", "source", "rule"))
    seat: int
    faces: tuple[int, ...]
    total: int
    source: str
    rule: str = "R-ADD-67"  # R-ADD-108's direction roll


@dataclass(frozen=True, slots=True)
class SpPenaltyImposed(Event):
    """A card takes `amount` SP off the seat's next turn; the SpDrained that applies it
    follows that turn's SpRestored (R-TRN-3, R-ADD-65)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source"))
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class DamageScheduled(Event):
    """A card's hit scheduled `amount` damage the seat takes at the start of its next turn,
    without an attack (poison, fire; R-ADD-73)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source"))
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SeedsPlanted(Event):
    """Thornvine seeds planted in a hex; `total` is its count after (R-ADD-66)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("at", "amount", "total", "source"))
    at: tuple[int, int]
    amount: int
    total: int
    source: str


@dataclass(frozen=True, slots=True)
class SeedsDetonated(Event):
    """Every seed on the board detonated and cleared; `hexes` were (q, r, count) (R-ADD-66).
    The damage follows as prompts or DamageTaken events."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("hexes", "source"))
    hexes: tuple[tuple[int, int, int], ...]
    source: str


@dataclass(frozen=True, slots=True)
class MoveGranted(Event):
    """A card gave its owner a move of up to `hexes` hexes at no SP, for this turn; the
    move that uses it is a CasketMoved with `by_card` the source (R-ADD-69)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "hexes", "source", "split"))
    seat: int
    hexes: int
    source: str
    split: bool = False  # a move before an attack and one after (R-ADD-109)


@dataclass(frozen=True, slots=True)
class DefenceRaised(Event):
    """+`amount` Defense until the start of the casket's next turn (R-DMG-3, R-ADD-64)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source"))
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SufferingRolled(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "faces"))
    seat: int
    faces: tuple[int, ...]


# triggered effects


@dataclass(frozen=True, slots=True)
class ThornsRaised(Event):
    """Attackers of the seat take `damage` once their attack has ended: every attacker
    (`melee_only`: every melee attacker) until the seat's next turn (`until` "next_turn"),
    or the next attacker only ("next_attack") (R-ADD-130)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "damage", "melee_only", "until", "source"))
    seat: int
    damage: int
    melee_only: bool
    until: str
    source: str


@dataclass(frozen=True, slots=True)
class SpBoosted(Event):
    """A card gave the seat `amount` SP for this turn (R-ADD-135); `maximum`: it raised this
    turn's SP maximum instead ("+1 SP maximum")."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "maximum", "source"))
    seat: int
    amount: int
    maximum: bool
    source: str


@dataclass(frozen=True, slots=True)
class ComponentDamagePrevented(Event):
    """A passive in play (`source`, an instance) ignored `amount` of the Component Damage
    the seat's `component` was about to take: its use this round (R-ADD-136); or, by
    `rule` R-ADD-281, the reactive card answering the attack prevented it, once."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "component", "amount", "source", "rule"))
    seat: int
    component: str
    amount: int
    source: str
    rule: str = "R-ADD-136"


@dataclass(frozen=True, slots=True)
class CounterRaised(Event):
    """The reactive card the seat just played deals `amount` more counter-damage, bought
    with Taint (R-ADD-130) or given by a condition that held as it was played (R-ADD-362)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source"))
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SelfDamageDue(Event):
    """The attacker takes `amount` damage once the attack it just declared has ended: its
    own card's price, not bought off (R-ADD-130)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source"))
    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class BonusHeld(Event):
    """The passive `source` (an instance in play) gave the seat its next-attack bonus, which
    does not stack: it gives no more until an attack spends it (R-ADD-139)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "source"))
    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class TurnBuffGained(Event):
    """A bonus for the seat's next attack this turn; unspent, it lapses as the turn ends
    (R-ADD-139)."""

    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "damage", "to_hit", "ignore_defence", "source")
    )
    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    source: str


@dataclass(frozen=True, slots=True)
class DamageReduced(Event):
    """A passive in play took `amount` off damage the seat was about to take (R-ADD-136);
    `rule` R-ADD-391: all of damage that would have defeated it, negated."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "source", "rule"))
    seat: int
    amount: int
    source: str
    rule: str = "R-ADD-136"


@dataclass(frozen=True, slots=True)
class DamageNegated(Event):
    """A passive in play negated `amount` of the first damage the seat takes this turn,
    `used` of its budget now spent in this turn (R-ADD-376)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "card", "used"))
    seat: int
    amount: int
    card: str
    used: int


@dataclass(frozen=True, slots=True)
class LastingBonusGained(Event):
    """+`damage` on every attack of the seat for the rest of the battle, `total` now
    (R-ADD-131)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "damage", "total", "source"))
    seat: int
    damage: int
    total: int
    source: str
