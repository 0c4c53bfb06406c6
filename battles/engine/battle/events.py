"""Battle events: what happened, in the past tense, with every random outcome inside.

Each event is a frozen dataclass whose fields are JSON values (tuples stand for
lists), so the event store's one codec (penance_site/eventstore/codec.py, registered
for battle streams in battles/codec.py) turns it into a stored row and back,
upcasting older schema versions with the upcasters of upcast.py.

>>> HeatChanged(seat=0, amount=2, heat=2, reason="card", rule="R-TRN-4").type
'HeatChanged'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class Event:
    SCHEMA_VERSION: ClassVar[int] = 1
    # GM adjustments are marked so an audit tells them from play.
    ADJUSTMENT: ClassVar[bool] = False

    @property
    def type(self) -> str:
        return type(self).__name__


# --- setup ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BattleCreated(Event):
    """The setup document, normalised; the state's static part comes from it alone."""

    battle_id: str
    setup: Mapping[str, Any]
    engine_version: str


@dataclass(frozen=True, slots=True)
class DeckShuffled(Event):
    """A casket deck's new order, top first; `known` is false for a physical shuffle."""

    seat: int
    order: tuple[str, ...]
    known: bool
    reason: str


@dataclass(frozen=True, slots=True)
class WoundDeckShuffled(Event):
    """The pilot wound deck, top first, with carried wounds face up (R-PLT-1, R-PLT-2)."""

    seat: int
    order: tuple[str, ...]
    face_up: tuple[str, ...]
    known: bool


@dataclass(frozen=True, slots=True)
class CardsDrawn(Event):
    seat: int
    cards: tuple[str, ...]
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class HandKept(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class MulliganTaken(Event):
    """The hand goes back into the deck; a DeckShuffled and a CardsDrawn follow (R-TRN-1)."""

    seat: int
    returned: tuple[str, ...]


# --- rounds and turns ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Every roll, re-rolls of ties included, as (seat, face) per throw; then the order (R-TRN-2)."""

    throws: tuple[tuple[tuple[int, int], ...], ...]
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class SpRestored(Event):
    """SP set to this turn's maximum; `lines` itemise it as (label, value, rule) (R-TRN-3)."""

    seat: int
    sp_max: int
    lines: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True, slots=True)
class StrainChecked(Event):
    """The Refresh heat check (R-TRN-4); its consequences follow as their own events."""

    seat: int
    heat: int
    roll: int | None
    total: int | None
    outcome: str


@dataclass(frozen=True, slots=True)
class SpDrained(Event):
    seat: int
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int


@dataclass(frozen=True, slots=True)
class BattleWon(Event):
    """The battle is over; `side` None is a draw (every casket defeated) (R-TRN-8)."""

    side: str | None
    reason: str
    rule: str


# --- actions -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CasketMoved(Event):
    seat: int
    path: tuple[tuple[int, int], ...]
    cost: int
    by_card: str | None = None


@dataclass(frozen=True, slots=True)
class CasketRotated(Event):
    seat: int
    facing: int
    cost: int
    free_used: bool


@dataclass(frozen=True, slots=True)
class HeatVented(Event):
    seat: int
    cost: int
    removed: int


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card leaves the hand and its SP is paid; it sits in play until resolved."""

    seat: int
    card: str
    cost: int
    manual: bool
    text: str = ""


@dataclass(frozen=True, slots=True)
class CardResolved(Event):
    """A played card goes to the discard pile."""

    seat: int
    card: str


@dataclass(frozen=True, slots=True)
class OverspendPaid(Event):
    """SP beyond the maximum paid with cards from hand and the deck's top (R-TRN-3)."""

    seat: int
    sp: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class HeatChanged(Event):
    seat: int
    amount: int
    heat: int  # after the change
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardsDiscarded(Event):
    seat: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class CardsRecovered(Event):
    """Cards taken back from the discard pile into the hand."""

    seat: int
    cards: tuple[str, ...]
    reason: str


@dataclass(frozen=True, slots=True)
class DeckReshuffled(Event):
    """The discard pile becomes the deck with one more Damage card (R-TRN-6)."""

    seat: int
    order: tuple[str, ...]
    damage_card: str
    known: bool


@dataclass(frozen=True, slots=True)
class BuffGained(Event):
    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    damage_this_turn: int
    source: str


@dataclass(frozen=True, slots=True)
class StatusApplied(Event):
    seat: int
    status: str
    source: str


@dataclass(frozen=True, slots=True)
class TokensChanged(Event):
    """A casket gained (`amount` > 0) or spent tokens of a named pool; `total` is the
    count after the change (R-ADD-61)."""

    seat: int
    pool: str
    amount: int
    total: int
    source: str


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

    seat: int
    cards: tuple[str, ...]
    order: tuple[str, ...]
    known: bool
    reason: str


@dataclass(frozen=True, slots=True)
class EffectRolled(Event):
    """The dice a card's rolled amount took ("remove 1d3 Heat"): d6 `faces` and the
    `total` they give (R-ADD-67); the effect's own event follows."""

    seat: int
    faces: tuple[int, ...]
    total: int
    source: str


@dataclass(frozen=True, slots=True)
class SpPenaltyImposed(Event):
    """A card takes `amount` SP off the seat's next turn; the SpDrained that applies it
    follows that turn's SpRestored (R-TRN-3, R-ADD-65)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class DamageScheduled(Event):
    """A card's hit scheduled `amount` damage the seat takes at the start of its next turn,
    without an attack (poison, fire; R-ADD-73)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SeedsPlanted(Event):
    """Thornvine seeds planted in a hex; `total` is its count after (R-ADD-66)."""

    at: tuple[int, int]
    amount: int
    total: int
    source: str


@dataclass(frozen=True, slots=True)
class SeedsDetonated(Event):
    """Every seed on the board detonated and cleared; `hexes` were (q, r, count) (R-ADD-66).
    The damage follows as prompts or DamageTaken events."""

    hexes: tuple[tuple[int, int, int], ...]
    source: str


@dataclass(frozen=True, slots=True)
class MoveGranted(Event):
    """A card gave its owner a move of up to `hexes` hexes at no SP, for this turn; the
    move that uses it is a CasketMoved with `by_card` the source (R-ADD-69)."""

    seat: int
    hexes: int
    source: str


@dataclass(frozen=True, slots=True)
class DefenceRaised(Event):
    """+`amount` Defense until the start of the casket's next turn (R-DMG-3, R-ADD-64)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SufferingRolled(Event):
    seat: int
    faces: tuple[int, ...]


# issue 17, triggers


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


@dataclass(frozen=True, slots=True)
class SpBoosted(Event):
    """A card gave the seat `amount` SP for this turn (R-ADD-135); `maximum`: it raised this
    turn's SP maximum instead ("+1 SP maximum")."""

    seat: int
    amount: int
    maximum: bool
    source: str


@dataclass(frozen=True, slots=True)
class ComponentDamagePrevented(Event):
    """A passive in play (`source`, an instance) ignored `amount` of the Component Damage
    the seat's `component` was about to take: its use this round (R-ADD-136)."""

    seat: int
    component: str
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class CounterRaised(Event):
    """The reactive card the seat just played deals `amount` more counter-damage, bought
    with Taint (R-ADD-130)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class SelfDamageDue(Event):
    """The attacker takes `amount` damage once the attack it just declared has ended: its
    own card's price, not bought off (R-ADD-130)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class BonusHeld(Event):
    """The passive `source` (an instance in play) gave the seat its next-attack bonus, which
    does not stack: it gives no more until an attack spends it (R-ADD-139)."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class TurnBuffGained(Event):
    """A bonus for the seat's next attack this turn; unspent, it lapses as the turn ends
    (R-ADD-139)."""

    seat: int
    damage: int
    to_hit: int
    ignore_defence: int
    source: str


@dataclass(frozen=True, slots=True)
class DamageReduced(Event):
    """A passive in play took `amount` off damage the seat was about to take (R-ADD-136)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class LastingBonusGained(Event):
    """+`damage` on every attack of the seat for the rest of the battle, `total` now
    (R-ADD-131)."""

    seat: int
    damage: int
    total: int
    source: str


# --- attacks -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackDeclared(Event):
    """An attack with its whole to-hit answer (R-HIT-1) and the buffs it spends."""

    attacker: int
    target: int
    card: str
    component: str
    component_roll: int | None
    target_number: int
    side: int
    damage_by_grade: tuple[tuple[str, int], ...]
    defence_modifier: int
    reactive_allowed: bool
    shield_allowed: bool
    to_hit: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class AttackRolled(Event):
    faces: tuple[int, ...]
    total: int
    grade: str
    damage: int


@dataclass(frozen=True, slots=True)
class WeaponJammed(Event):
    """CATASTROPHIC FAILURE: Primary Weapons discarded, +2 Heat, −2 damage next attack."""

    seat: int
    discarded: tuple[str, ...]
    heat: int


@dataclass(frozen=True, slots=True)
class ReactivePlayed(Event):
    seat: int
    card: str
    reduction: int


@dataclass(frozen=True, slots=True)
class ReactiveDeclined(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class DefenceRolled(Event):
    seat: int
    faces: tuple[int, ...]
    blocks: int
    final_damage: int
    heat: int
    pierce: bool
    component_damage: int
    reduction_applied: int


@dataclass(frozen=True, slots=True)
class AttackEnded(Event):
    attacker: int
    card: str
    outcome: str


# --- damage, components, pilots ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PromptOpened(Event):
    seat: int
    kind: str
    amount: int
    component: str | None
    rule: str
    reason: str


@dataclass(frozen=True, slots=True)
class PromptClosed(Event):
    seat: int
    kind: str


@dataclass(frozen=True, slots=True)
class DamageTaken(Event):
    """Cards discarded for damage (R-DMG-6); `primary_weapons` of them mark the component."""

    seat: int
    from_hand: tuple[str, ...]
    from_deck: tuple[str, ...]
    primary_weapons: int
    component: str | None


@dataclass(frozen=True, slots=True)
class ComponentDamaged(Event):
    seat: int
    component: str
    amount: int
    total: int
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class ComponentDestroyed(Event):
    """A component's destruction and the cards its effect discards (seed 002 table, R-DMG-7)."""

    seat: int
    component: str
    discarded: tuple[str, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class WoundFlipped(Event):
    seat: int
    wound: str
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class SurvivalRolled(Event):
    """Casket defeat: 1d6, on 1–3 the pilot takes 2 wounds (R-PLT-3)."""

    seat: int
    face: int
    wounds: int


@dataclass(frozen=True, slots=True)
class PilotKilled(Event):
    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class CasketDefeated(Event):
    seat: int
    reason: str
    rule: str


# --- GM adjustments ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CasketWithdrew(Event):
    """The seat's player withdrew the casket at the start of its turn: it leaves the board,
    is not defeated, and its pilot makes no survival roll (R-TRN-9)."""

    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The GM ended the battle: a winning side, or None for a draw, and why (R-TRN-9)."""

    ADJUSTMENT: ClassVar[bool] = True
    side: str | None
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class TaintAdjusted(Event):
    """The GM set the pilot's Taint, with a reason (R-PLT-4)."""

    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    taint: int
    reason: str


@dataclass(frozen=True, slots=True)
class TaintOverloaded(Event):
    """Taint reached 10: the pilot rolled 1d6 and takes `wounds` (R-PLT-3, R-ADD-44)."""

    seat: int
    taint: int
    face: int
    wounds: int


@dataclass(frozen=True, slots=True)
class HeatAdjusted(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    heat: int
    reason: str


@dataclass(frozen=True, slots=True)
class ComponentDamageAdjusted(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    component: str
    amount: int
    total: int
    destroyed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class CasketRelocated(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    at: tuple[int, int]
    facing: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    card: str
    from_zone: str
    reason: str


@dataclass(frozen=True, slots=True)
class CommandReverted(Event):
    """Compensation for one earlier command: the state it left is replaced by the state
    before it (`state`, as state_to_dict wrote it). The reverted events stay in the log."""

    ADJUSTMENT: ClassVar[bool] = True
    command_id: str
    from_version: int
    to_version: int
    state: Mapping[str, Any]
    reason: str


@dataclass(frozen=True, slots=True)
class DiceSecretRevealed(Event):
    """The battle's dice secret, in hex, recorded with the event that ends the battle: its
    SHA-256 is the commitment in BattleCreated's setup, and every roll and shuffle since
    creation derives from it (R-ADD-45)."""

    secret: str


EVENT_TYPES: Mapping[str, type[Event]] = {
    cls.__name__: cls
    for cls in (
        BattleCreated,
        DeckShuffled,
        WoundDeckShuffled,
        CardsDrawn,
        HandKept,
        MulliganTaken,
        RoundStarted,
        InitiativeRolled,
        TurnStarted,
        SpRestored,
        StrainChecked,
        SpDrained,
        TurnEnded,
        RoundEnded,
        BattleWon,
        CasketMoved,
        CasketRotated,
        HeatVented,
        CardPlayed,
        CardResolved,
        OverspendPaid,
        HeatChanged,
        CardsDiscarded,
        CardsRecovered,
        DeckReshuffled,
        BuffGained,
        StatusApplied,
        TokensChanged,
        TaintChanged,
        EffectRolled,
        CardsShuffledIn,
        SpPenaltyImposed,
        DamageScheduled,
        SeedsPlanted,
        SeedsDetonated,
        MoveGranted,
        DefenceRaised,
        SufferingRolled,
        AttackDeclared,
        AttackRolled,
        WeaponJammed,
        ReactivePlayed,
        ReactiveDeclined,
        DefenceRolled,
        AttackEnded,
        PromptOpened,
        PromptClosed,
        DamageTaken,
        ComponentDamaged,
        ComponentDestroyed,
        WoundFlipped,
        SurvivalRolled,
        PilotKilled,
        CasketDefeated,
        CasketWithdrew,
        BattleEnded,
        TaintAdjusted,
        TaintOverloaded,
        HeatAdjusted,
        ComponentDamageAdjusted,
        CasketRelocated,
        CardReturned,
        CommandReverted,
        DiceSecretRevealed,
        # issue 17, triggers
        ThornsRaised,
        LastingBonusGained,
        SpBoosted,
        DamageReduced,
        TurnBuffGained,
        ComponentDamagePrevented,
        CounterRaised,
        SelfDamageDue,
        BonusHeld,
    )
}
