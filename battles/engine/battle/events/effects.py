"""The lasting effects cards leave: damage over time, several attacks from one card,
enhancements and wards, pushes and teleports, looks at hands and decks, forms and duels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import AmountOnSeat, Event, Shown, SourceOnSeat, public


@public
@dataclass(frozen=True, slots=True)
class Rooted(Event):
    """A card immobilised the seat through its next `turns` turns (R-ADD-111)."""

    seat: int
    turns: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class BleedApplied(Event):
    """A card's hit put `amount` Bleed counters on the seat; `total` after (R-ADD-110)."""

    seat: int
    amount: int
    total: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class BleedTicked(Event):
    """At the start of its turn the seat bled: one counter off, `total` left; its 1 damage
    is taken with the other damage of that moment (R-ADD-110)."""

    seat: int
    total: int


@public
@dataclass(frozen=True, slots=True)
class OngoingDamageScheduled(Event):
    """A card's hit scheduled `amount` damage at the start of each of the seat's next
    `turns` turns (R-ADD-112)."""

    seat: int
    amount: int
    turns: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class DamageUntilDiscards(Event):
    """A card's hit gave the seat `amount` damage at the start of each of its turns until
    it has discarded `discards` cards (R-ADD-443)."""

    seat: int
    amount: int
    discards: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class MoveCostRaised(AmountOnSeat):
    """Each hex the seat moves in its next turn costs `amount` SP more (R-ADD-113)."""


@public
@dataclass(frozen=True, slots=True)
class SpLocked(Event):
    """The seat's next turns, the next one first: locked (0 SP, no action but passing) or
    as usual (R-ADD-343)."""

    seat: int
    turns: tuple[bool, ...]
    source: str


@public
@dataclass(frozen=True, slots=True)
class CardCostRaised(AmountOnSeat):
    """Every card the seat plays in its next turn costs `amount` SP more (R-ADD-341)."""


@public
@dataclass(frozen=True, slots=True)
class DrawPenaltyImposed(Event):
    """The seat's next Draw phase fills its hand to `n` cards fewer (R-ADD-114)."""

    seat: int
    n: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class CasketCursed(Event):
    """A card's hit put its lasting curse on the seat, laid by seat `by` (R-ADD-421)."""

    seat: int
    by: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class CurseLifted(Event):
    """The seat's curse of card `source` is lifted: it destroyed `killed` (R-ADD-421)."""

    seat: int
    killed: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class LoopArmed(SourceOnSeat):
    """The next damage the seat would take this turn will be stored (R-ADD-422)."""


@public
@dataclass(frozen=True, slots=True)
class DamageLooped(AmountOnSeat):
    """`amount` damage the seat would have taken is stored, not taken (R-ADD-422)."""


@public
@dataclass(frozen=True, slots=True)
class LoopReleased(Event):
    """The seat's stored damage goes to `target` (-1: no enemy within reach, it is lost)
    (R-ADD-422)."""

    seat: int
    target: int
    amount: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class AttacksForgone(SourceOnSeat):
    """The seat makes no attack until the start of its next turn (R-ADD-115)."""


@public
@dataclass(frozen=True, slots=True)
class SpendArmed(SourceOnSeat):
    """The tokens spent on the attack card `source` also bought effects that wait for
    its attack's outcome (R-ADD-116)."""


@public
@dataclass(frozen=True, slots=True)
class DefenceLowered(AmountOnSeat):
    """Attacks on the seat cancel `amount` more blocks until its next turn ends (R-ADD-119)."""


@public
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


@public
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


@public
@dataclass(frozen=True, slots=True)
class DamageAuraRaised(Event):
    """Until the start of the seat's next turn, each enemy within `within` hexes of it takes
    `amount` damage as its own turn starts (R-ADD-88)."""

    seat: int
    amount: int
    within: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class AttackEnhanced(SourceOnSeat):
    """A card's enhancement now waits for the seat's next attack of the kind `attacks`
    ("any" or "ranged"); `ignore_defence` is the blocks it cancels (R-ADD-90)."""

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
    vs_bleeding: bool = False  # its damage only on a bleeding target
    this_round: bool = False  # it lapses as the round ends (R-ADD-370)


@public
@dataclass(frozen=True, slots=True)
class EnhancementsSpent(Event):
    """The attack being declared spends these waiting enhancements (their positions in
    the seat's list, R-ADD-90)."""

    seat: int
    indices: tuple[int, ...]


@public
@dataclass(frozen=True, slots=True)
class WardRaised(SourceOnSeat):
    """A card's ward on the seat's casket, lasting `until` (R-ADD-93, R-ADD-94)."""

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
    # A Metamorph form's movement (R-ADD-362)
    move_cost: int = 0
    ignore_terrain: bool = False


@public
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


@public
@dataclass(frozen=True, slots=True)
class DefenceBuffsIgnored(Event):
    """The attack just declared ignores the target's Defense buffs, a reactive card's
    included (R-ADD-92)."""

    attacker: int


@public
@dataclass(frozen=True, slots=True)
class SpGained(AmountOnSeat):
    """The seat may spend `amount` more SP this turn (R-ADD-95)."""


# movement cards
@public
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


# movement cards
@public
@dataclass(frozen=True, slots=True)
class CasketTeleported(Event):
    """A card put its owner on `at`, `hexes` away, whatever lay between; those hexes
    count as moved this turn (R-ADD-102, R-HIT-2)."""

    seat: int
    at: tuple[int, int]
    hexes: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class EnemyMarked(Event):
    """`seat`'s card marked `target`: its destruction runs the card's effects for `seat`
    (R-ADD-148)."""

    seat: int
    target: int
    source: str


# cards that look, bargain and scavenge


@public
@dataclass(frozen=True, slots=True)
class UntargetableGained(Event):
    """Until the start of its next turn the casket cannot be the target of attacks
    (`against` "all") or of attacks made with a card that is not Melee ("ranged");
    `until_attack`: its own next attack ends it (R-ADD-155)."""

    seat: int
    against: str
    until_attack: bool
    source: str


@public
@dataclass(frozen=True, slots=True)
class UntargetableEnded(SourceOnSeat):
    """The casket attacked, which ends an untargetability that lasts only until it
    attacks (R-ADD-155)."""


@dataclass(frozen=True, slots=True)
class HandRevealed(Event):
    """`seat`'s player looks at `target`'s hand: the cards it held (R-ADD-156). Shown to
    those two seats and the GM only while the battle runs (R-ADD-28)."""

    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "target", "source"), owners=("cards",), owner_seats=("seat", "target")
    )
    seat: int
    target: int
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class CardsStolen(Event):
    """`seat` takes `cards` from `target`'s hand into its own, where they are `as_cards`
    (the same cards, numbered anew where `seat` holds that number already) (R-ADD-386).
    Which cards: those two seats and the GM only while the battle runs (R-ADD-28)."""

    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "target", "source"),
        owners=("cards", "as_cards"),
        owner_seats=("seat", "target"),
    )
    seat: int
    target: int
    cards: tuple[str, ...]
    as_cards: tuple[str, ...]
    source: str


@public
@dataclass(frozen=True, slots=True)
class TargetBonusGained(Event):
    """`seat`'s next attack declared against `target` gets +`damage` (R-ADD-156) and
    `advantage` on its attack roll (R-HIT-6, R-ADD-295)."""

    seat: int
    target: int
    damage: int
    source: str
    advantage: int = 0


@dataclass(frozen=True, slots=True)
class CardsLookedAt(Event):
    """`seat`'s player looks at the top cards of its own deck (R-ADD-157); only that seat
    and the GM see them while the battle runs (R-ADD-28)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "source"), owners=("cards",))
    seat: int
    cards: tuple[str, ...]
    source: str


@dataclass(frozen=True, slots=True)
class DeckArranged(Event):
    """The top of `seat`'s deck, put back in `order` (top first) (R-ADD-157)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat",), owners=("order",))
    seat: int
    order: tuple[str, ...]


@public
@dataclass(frozen=True, slots=True)
class WreckScavenged(Event):
    """`seat` scavenged the wreck of the defeated casket `wreck`, which is removed from play
    (R-ADD-158)."""

    seat: int
    wreck: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class UltimatumAnswered(Event):
    """The enemy an ultimatum named chose `option`: "damage" now or "skip_turn" (R-ADD-159)."""

    seat: int
    option: str


@public
@dataclass(frozen=True, slots=True)
class TurnSkipped(Event):
    """The casket's turn, started, ends at once: an ultimatum's skipped turn (R-ADD-159)."""

    seat: int


@public
@dataclass(frozen=True, slots=True)
class HitDamageBargained(Event):
    """The attack's target gave up cards (a `CardsDiscarded` before this) to make the hit's
    damage `damage` (R-ADD-159)."""

    seat: int
    damage: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class HitBargainedAway(SourceOnSeat):
    """The attacker paid the reactive card's price (its `TokensChanged` before this): the
    hit becomes a miss (R-ADD-159)."""


@public
@dataclass(frozen=True, slots=True)
class FormTaken(Event):
    """The casket took `form` until the end of the round `round` (R-ADD-170)."""

    seat: int
    form: str
    round: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class ChrysalisEntered(SourceOnSeat):
    """The seat's card `source` put its casket in Chrysalis state: its next turn is skipped,
    and it emerges as its turn after that starts (R-ADD-366)."""


@public
@dataclass(frozen=True, slots=True)
class ChrysalisEmerged(SourceOnSeat):
    """The casket leaves Chrysalis state as its turn starts; what it gains follows (R-ADD-366)."""


@public
@dataclass(frozen=True, slots=True)
class FormOffered(SourceOnSeat):
    """Card `source` lets the seat choose one of its forms (prompt `form`, R-ADD-362)."""


@public
@dataclass(frozen=True, slots=True)
class DuelChallenged(Event):
    """`seat` challenged `target` to an Honor Duel with card `source`; the target is asked
    (prompt `duel`, R-ADD-174)."""

    seat: int
    target: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class DuelAnswered(Event):
    """The challenged `seat` accepted `challenger`'s Honor Duel, or refused it and gained
    Coward's Mark of `mark_damage` (R-ADD-174)."""

    seat: int
    challenger: int
    accepted: bool
    mark_damage: int


@public
@dataclass(frozen=True, slots=True)
class ReactivesBarred(Event):
    """`seat` plays no reactive card until the end of `by`'s turn (R-ADD-174)."""

    seat: int
    by: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class CardsForbidden(Event):
    """`seat` plays no card of `classes` ("defense", "movement") until its own turn ends
    (R-ADD-340)."""

    seat: int
    classes: tuple[str, ...]
    source: str


@public
@dataclass(frozen=True, slots=True)
class GritModifierRaised(AmountOnSeat):
    """Every Grit check the seat's pilot makes for the rest of the battle adds `amount`
    (R-ADD-305's modifier; "until end of mission", R-ADD-360); `next_check`: only its next
    check (R-ADD-361)."""

    next_check: bool = False
