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
    rule: str = "R-ADD-67"  # issue 17, move: R-ADD-108's direction roll


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
    split: bool = False  # issue 17, move: a move before an attack and one after (R-ADD-109)


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

    # 2: issue 17, combos added `enhanced_by` and `further` (upcast.py).
    SCHEMA_VERSION: ClassVar[int] = 2

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
    # issue 17, combos: the cards whose enhancements this attack spent and whose hit
    # effects wait for its outcome (R-ADD-180).
    enhanced_by: tuple[str, ...] = ()
    # issue 17, combos: one of the card's further attacks, not its first (R-ADD-187).
    further: bool = False


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
    # issue 17, move: the dodge the card declares, made as the attack ends (R-ADD-107).
    path: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True, slots=True)
class ReactiveDeclined(Event):
    seat: int


@dataclass(frozen=True, slots=True)
class AttackCovered(Event):
    """An ally of the attacked casket played a card that takes its damage (R-ADD-122)."""

    seat: int
    target: int
    card: str
    reduction: int


@dataclass(frozen=True, slots=True)
class DefenceLent(Event):
    """An ally's card gave `seat` +Defense until seat `until`'s next turn, or until the
    round ends when `until` is -1 (R-ADD-123)."""

    seat: int
    amount: int
    until: int
    source: str


@dataclass(frozen=True, slots=True)
class DamageCardsRemoved(Event):
    """Damage cards left `seat`'s discard pile for the removed cards (R-ADD-124)."""

    seat: int
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class DamageDeflected(Event):
    """`seat`'s reactive card took `amount` off the attack for its attacker to take once the
    attack has ended (R-ADD-125)."""

    seat: int
    attacker: int
    amount: int


@dataclass(frozen=True, slots=True)
class AllyMoved(Event):
    """An ally's card moved `seat` along `path` in the card player's turn (R-ADD-126)."""

    seat: int
    path: tuple[tuple[int, int], ...]
    by: int
    source: str


@dataclass(frozen=True, slots=True)
class AttackWarded(Event):
    """`seat`'s ward in play negates the damage of the attack just declared on `target`,
    and leaves play (R-ADD-128)."""

    seat: int
    card: str
    target: int


@dataclass(frozen=True, slots=True)
class ZoneCreated(Event):
    """`seat`'s card made a zone centred on hex `at`, until the round ends (R-ADD-129)."""

    seat: int
    card: str
    at: tuple[int, int]


@dataclass(frozen=True, slots=True)
class TerrainCreated(Event):
    """`seat`'s card made `hexes` of terrain `kind` (R-ADD-160): until the end of round
    `until_round`, or for `turns` of `seat`'s turns (the one it is made in counts), or
    (both 0) for the rest of the battle (R-ADD-161)."""

    seat: int
    card: str
    kind: str
    hexes: tuple[tuple[int, int], ...]
    until_round: int = 0
    turns: int = 0
    damage: int = 0  # to the maker's enemies entering it (R-ADD-165)


@dataclass(frozen=True, slots=True)
class TerrainEntered(Event):
    """`seat` entered terrain seat `maker`'s card made at `at` that hurts enemies entering it:
    `damage` follows as a prompt or DamageTaken; a mine is spent by it (R-ADD-165)."""

    seat: int
    at: tuple[int, int]
    maker: int
    card: str
    kind: str
    damage: int


@dataclass(frozen=True, slots=True)
class RotationGranted(Event):
    """`seat`'s card gave back its free 60° rotation of this turn (R-ARC-5, R-ADD-189)."""

    seat: int
    source: str


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


# --- lasting effects on an enemy (issue 17, dot) -------------------------------------------------


@dataclass(frozen=True, slots=True)
class Rooted(Event):
    """A card immobilised the seat through its next `turns` turns (R-ADD-111)."""

    seat: int
    turns: int
    source: str


@dataclass(frozen=True, slots=True)
class BleedApplied(Event):
    """A card's hit put `amount` Bleed counters on the seat; `total` after (R-ADD-110)."""

    seat: int
    amount: int
    total: int
    source: str


@dataclass(frozen=True, slots=True)
class BleedTicked(Event):
    """At the start of its turn the seat bled: one counter off, `total` left; its 1 damage
    is taken with the other damage of that moment (R-ADD-110)."""

    seat: int
    total: int


@dataclass(frozen=True, slots=True)
class OngoingDamageScheduled(Event):
    """A card's hit scheduled `amount` damage at the start of each of the seat's next
    `turns` turns (R-ADD-112)."""

    seat: int
    amount: int
    turns: int
    source: str


@dataclass(frozen=True, slots=True)
class MoveCostRaised(Event):
    """Each hex the seat moves in its next turn costs `amount` SP more (R-ADD-113)."""

    seat: int
    amount: int
    source: str


@dataclass(frozen=True, slots=True)
class DrawPenaltyImposed(Event):
    """The seat's next Draw phase fills its hand to `n` cards fewer (R-ADD-114)."""

    seat: int
    n: int
    source: str


@dataclass(frozen=True, slots=True)
class AttacksForgone(Event):
    """The seat makes no attack until the start of its next turn (R-ADD-115)."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class SpendArmed(Event):
    """The tokens spent on the attack card `source` also bought effects that wait for
    its attack's outcome (R-ADD-116)."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class DefenceLowered(Event):
    """Attacks on the seat cancel `amount` more blocks until its next turn ends (R-ADD-119)."""

    seat: int
    amount: int
    source: str


# --- issue 17, area: several attacks from one card ------------------------------------------


@dataclass(frozen=True, slots=True)
class AttacksQueued(Event):
    """The attacks a card makes after its first, in order (R-ADD-80, R-ADD-81): each
    (target seat, range, damage). `component` is the one the command named, or None
    (each then rolls its own, R-DMG-6); `after_kill` the seat whose defeat they wait for."""

    attacker: int
    card: str
    attacks: tuple[tuple[int, str, int], ...]
    component: str | None
    after_kill: int | None
    rule: str
    ignore_defence: bool = False  # R-ADD-60: the area's attacks cancel every block


@dataclass(frozen=True, slots=True)
class FollowUpTaken(Event):
    """The card's next queued attack comes up: `made` (its AttackDeclared follows) or
    passed over with the `reason` (its target is out of the battle, or the rules refuse
    the attack, R-ADD-80)."""

    attacker: int
    card: str
    target: int
    made: bool
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class DamageAuraRaised(Event):
    """Until the start of the seat's next turn, each enemy within `within` hexes of it takes
    `amount` damage as its own turn starts (R-ADD-88)."""

    seat: int
    amount: int
    within: int
    source: str


# --- issue 17, buffs -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackEnhanced(Event):
    """A card's enhancement now waits for the seat's next attack of the kind `attacks`
    ("any" or "ranged"); `ignore_defence` is the blocks it cancels (R-ADD-90)."""

    seat: int
    source: str
    attacks: str
    damage: int
    to_hit: int
    ignore_defence: int
    ignore_cover: bool
    ignore_range: bool
    cannot_miss: bool
    ignore_defence_buffs: bool
    this_turn: bool
    every: bool = False
    sp_cost: int = 0
    reach: int = 0
    vs_bleeding: bool = False  # issue 17, forms: its damage only on a bleeding target


@dataclass(frozen=True, slots=True)
class EnhancementsSpent(Event):
    """The attack being declared spends these waiting enhancements (their positions in
    the seat's list, R-ADD-90)."""

    seat: int
    indices: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class WardRaised(Event):
    """A card's ward on the seat's casket, lasting `until` (R-ADD-93, R-ADD-94)."""

    seat: int
    source: str
    until: str
    against: str
    defence: int
    to_hit: int
    damage: int
    reduce: int
    cap: int | None
    at_least: int
    uses: int
    recover: int
    immobile: bool = False


@dataclass(frozen=True, slots=True)
class WardUsed(Event):
    """The ward at `index` acted: on an attack as it was declared (`before` and `after`
    None), or on damage the seat takes, `before` becoming `after` (R-ADD-94). A ward with
    uses spends one."""

    seat: int
    index: int
    source: str
    before: int | None = None
    after: int | None = None


@dataclass(frozen=True, slots=True)
class DefenceBuffsIgnored(Event):
    """The attack just declared ignores the target's Defense buffs, a reactive card's
    included (R-ADD-92)."""

    attacker: int


@dataclass(frozen=True, slots=True)
class SpGained(Event):
    """The seat may spend `amount` more SP this turn (R-ADD-95)."""

    seat: int
    amount: int
    source: str


# issue 17, move
@dataclass(frozen=True, slots=True)
class CasketPushed(Event):
    """A card moved a casket against its will: `path` the hexes it entered, one step at a
    time, straight away from (or toward) `by`; empty when the first step was blocked or the
    casket is anchored (R-ADD-100, R-ADD-101). Not a move of its own (R-HIT-2)."""

    seat: int
    path: tuple[tuple[int, int], ...]
    by: int
    source: str
    rule: str = "R-ADD-100"  # R-ADD-108: a random teleport to an adjacent hex


# issue 17, move
@dataclass(frozen=True, slots=True)
class CasketTeleported(Event):
    """A card put its owner on `at`, `hexes` away, whatever lay between; those hexes
    count as moved this turn (R-ADD-102, R-HIT-2)."""

    seat: int
    at: tuple[int, int]
    hexes: int
    source: str


@dataclass(frozen=True, slots=True)
class EnemyMarked(Event):
    """`seat`'s card marked `target`: its destruction runs the card's effects for `seat`
    (R-ADD-148). Issue 17, states."""

    seat: int
    target: int
    source: str


# issue 17, misc


@dataclass(frozen=True, slots=True)
class UntargetableGained(Event):
    """Until the start of its next turn the casket cannot be the target of attacks
    (`against` "all") or of attacks made with a card that is not Melee ("ranged");
    `until_attack`: its own next attack ends it (R-ADD-155)."""

    seat: int
    against: str
    until_attack: bool
    source: str


@dataclass(frozen=True, slots=True)
class UntargetableEnded(Event):
    """The casket attacked, which ends an untargetability that lasts only until it
    attacks (R-ADD-155)."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """`seat`'s player looks at `target`'s hand: the cards it held (R-ADD-156). Shown to
    those two seats and the GM only while the battle runs (R-ADD-28)."""

    seat: int
    target: int
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class TargetBonusGained(Event):
    """`seat`'s next attack declared against `target` gets +`damage` (R-ADD-156)."""

    seat: int
    target: int
    damage: int
    source: str


@dataclass(frozen=True, slots=True)
class CardsLookedAt(Event):
    """`seat`'s player looks at the top cards of its own deck (R-ADD-157); only that seat
    and the GM see them while the battle runs (R-ADD-28)."""

    seat: int
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class DeckArranged(Event):
    """The top of `seat`'s deck, put back in `order` (top first) (R-ADD-157)."""

    seat: int
    order: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class WreckScavenged(Event):
    """`seat` scavenged the wreck of the defeated casket `wreck`, which is removed from play
    (R-ADD-158)."""

    seat: int
    wreck: int
    source: str


@dataclass(frozen=True, slots=True)
class UltimatumAnswered(Event):
    """The enemy an ultimatum named chose `option`: "damage" now or "skip_turn" (R-ADD-159)."""

    seat: int
    option: str


@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """The casket's turn, started, ends at once: an ultimatum's skipped turn (R-ADD-159)."""

    seat: int


@dataclass(frozen=True, slots=True)
class HitDamageBargained(Event):
    """The attack's target gave up cards (a `CardsDiscarded` before this) to make the hit's
    damage `damage` (R-ADD-159)."""

    seat: int
    damage: int
    source: str


@dataclass(frozen=True, slots=True)
class HitBargainedAway(Event):
    """The attacker paid the reactive card's price (its `TokensChanged` before this): the
    hit becomes a miss (R-ADD-159)."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class FormTaken(Event):
    """The casket took `form` until the end of the round `round` (R-ADD-170)."""

    seat: int
    form: str
    round: int
    source: str


@dataclass(frozen=True, slots=True)
class DuelChallenged(Event):
    """`seat` challenged `target` to an Honor Duel with card `source`; the target is asked
    (prompt `duel`, R-ADD-174)."""

    seat: int
    target: int
    source: str


@dataclass(frozen=True, slots=True)
class DuelAnswered(Event):
    """The challenged `seat` accepted `challenger`'s Honor Duel, or refused it and gained
    Coward's Mark of `mark_damage` (R-ADD-174)."""

    seat: int
    challenger: int
    accepted: bool
    mark_damage: int


@dataclass(frozen=True, slots=True)
class ReactivesBarred(Event):
    """`seat` plays no reactive card until the end of `by`'s turn (R-ADD-174)."""

    seat: int
    by: int
    source: str


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
        # issue 17, dot
        Rooted,
        BleedApplied,
        BleedTicked,
        OngoingDamageScheduled,
        MoveCostRaised,
        DrawPenaltyImposed,
        AttacksForgone,
        SpendArmed,
        DefenceLowered,
        # issue 17, area
        AttacksQueued,
        FollowUpTaken,
        DamageAuraRaised,
        # issue 17, buffs
        AttackEnhanced,
        EnhancementsSpent,
        WardRaised,
        WardUsed,
        SpGained,
        DefenceBuffsIgnored,
        CasketPushed,  # issue 17, move
        CasketTeleported,  # issue 17, move
        EnemyMarked,  # issue 17, states
        # issue 17, misc
        UntargetableGained,
        UntargetableEnded,
        HandRevealed,
        TargetBonusGained,
        CardsLookedAt,
        DeckArranged,
        WreckScavenged,
        UltimatumAnswered,
        TurnSkipped,
        HitDamageBargained,
        HitBargainedAway,
        AttackCovered,  # issue 17, allies
        DefenceLent,  # issue 17, allies
        DamageCardsRemoved,  # issue 17, allies
        DamageDeflected,  # issue 17, allies
        AllyMoved,  # issue 17, allies
        AttackWarded,  # issue 17, allies
        ZoneCreated,  # issue 17, allies
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
        FormTaken,  # issue 17, forms
        DuelChallenged,  # issue 17, forms
        DuelAnswered,  # issue 17, forms
        ReactivesBarred,  # issue 17, forms
        TerrainCreated,  # issue 17, terrain
        TerrainEntered,  # issue 17, terrain
        RotationGranted,  # issue 17, combos
    )
}
