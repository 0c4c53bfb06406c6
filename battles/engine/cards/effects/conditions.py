"""Conditions: statuses and lasting states put on a casket (hindrances, bleeding, lasting
damage, marks, forms, duels).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .base import WRITTEN, StoredEffect, bounded, check_bool, check_choice, check_inner, check_int
from .bounds import MAX_CARDS, MAX_HEXES, MAX_TO_HIT, SLUG_RE, STATUS_TARGETS
from .condition import FORMS, Condition

if TYPE_CHECKING:
    from . import Effect

# The statuses the to-hit calculation reads (R-COV-4, R-HIT-6), and "anchored", which forced
# movement reads (R-ADD-101, movement vocabulary): nothing else can be applied.
STATUSES = ("obscured", "stunned", "immobilised", "aiming", "anchored")


@dataclass(frozen=True, slots=True)
class StatusEffect(StoredEffect):
    """Put a status the to-hit rules read on the player's casket or the target (R-COV-4, R-HIT-6).

    >>> StatusEffect("target", "obscured").as_dict()
    {'kind': 'status', 'target': 'target', 'status': 'obscured'}
    """

    kind: ClassVar[str] = "status"
    target: Literal["self", "target"]
    status: Literal["obscured", "stunned", "immobilised", "aiming", "anchored"]

    def __post_init__(self) -> None:
        check_choice(self.target, "status.target", STATUS_TARGETS)
        check_choice(self.status, "status.status", STATUSES)


@dataclass(frozen=True, slots=True)
class HinderEffect(StoredEffect):
    """The attack's target gets +`to_hit` on the target number of its next attack: "target
    has −1 to their next attack roll" (R-HIT-1, R-ADD-65). Used after a hit, or on a card
    without an attack: then the command's `target`, an enemy within the card's range.

    >>> HinderEffect(1).as_dict()
    {'kind': 'hinder', 'to_hit': 1}
    """

    kind: ClassVar[str] = "hinder"
    to_hit: int = field(metadata=bounded(1, MAX_TO_HIT, "R-HIT-1"))


@dataclass(frozen=True, slots=True)
class SpPenaltyEffect(StoredEffect):
    """ "Target has −N SP next turn": the target's next SP restore is N lower (R-TRN-3,
    R-ADD-65). Used after a hit.

    >>> SpPenaltyEffect(2).as_dict()
    {'kind': 'sp_penalty', 'amount': 2}
    """

    kind: ClassVar[str] = "sp_penalty"
    amount: int | Literal["all"]  # "all": "target loses all SP next turn" (R-ADD-119)

    def __post_init__(self) -> None:
        if self.amount != "all":
            check_int(self.amount, "sp_penalty.amount", 1, 6, "R-TRN-3")


@dataclass(frozen=True, slots=True)
class DamageNextTurnEffect(StoredEffect):
    """ "Target takes N additional damage at the start of their next turn" (poison, fire):
    a hit schedules `amount` damage the target takes when its next turn starts, without
    an attack (R-ADD-73). Used after a hit.

    >>> DamageNextTurnEffect(2).as_dict()
    {'kind': 'damage_next_turn', 'amount': 2}
    """

    kind: ClassVar[str] = "damage_next_turn"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-73"))


@dataclass(frozen=True, slots=True)
class AreaHinderEffect(StoredEffect):
    """ "All enemies in cone have −1 to their next attack roll": every enemy in the battle
    within `within` hexes of the caster, in its front cone when `cone` (the hexes whose
    direction lies in the caster's front 60° sector, its edges included, R-ARC-1), gets
    +`to_hit` on the target number of its next attack (R-HIT-1, R-ADD-65). No line of
    sight is needed, as for an aura (R-RNG-3, R-ADD-86).

    >>> AreaHinderEffect(1, 3, cone=True).as_dict()
    {'kind': 'area_hinder', 'to_hit': 1, 'within': 3, 'cone': True}
    """

    kind: ClassVar[str] = "area_hinder"
    to_hit: int
    within: int
    cone: bool = False

    def __post_init__(self) -> None:
        check_int(self.to_hit, "area_hinder.to_hit", 1, MAX_TO_HIT, "R-HIT-1")
        check_int(self.within, "area_hinder.within", 1, MAX_HEXES, "R-ADD-86")
        check_bool(self.cone, "area_hinder.cone")


@dataclass(frozen=True, slots=True)
class CardCostEffect(StoredEffect):
    """ "All enemies in area have +1 SP cost to all cards for 1 turn": every enemy in the
    battle within `within` hexes of the caster (the printed area, no line of sight, as
    `area_hinder`) pays `amount` SP more for every card it plays in its next turn, an
    attack's card included (R-TRN-5, R-ADD-341).

    >>> CardCostEffect(1, 4).as_dict()
    {'kind': 'card_cost', 'amount': 1, 'within': 4}
    """

    kind: ClassVar[str] = "card_cost"
    amount: int
    within: int

    def __post_init__(self) -> None:
        check_int(self.amount, "card_cost.amount", 1, 5, "R-ADD-341")
        check_int(self.within, "card_cost.within", 1, MAX_HEXES, "R-ADD-341")


# "Loses all SP next turn": a penalty above any SP maximum drains all of it (R-ADD-119).
SP_ALL = 99

MAX_BLEED = 20


@dataclass(frozen=True, slots=True)
class BleedEffect(StoredEffect):
    """ "Apply Bleed N": the attack's target gains `n` Bleed counters, `more_if_bleeding`
    more when it already had some ("If target already has Bleed counters, apply +1
    additional Bleed"). Each counter is 1 damage at the start of one of its turns
    (R-ADD-110). Used after a hit.

    >>> BleedEffect(3, more_if_bleeding=1).as_dict()
    {'kind': 'bleed', 'n': 3, 'more_if_bleeding': 1}
    >>> BleedEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: bleed.n: must be an integer from 1 to 20, got 0 (R-ADD-110)
    """

    kind: ClassVar[str] = "bleed"
    n: int
    more_if_bleeding: int = 0
    # combos vocabulary: "target and adjacent enemies gain Bleed 1": the attacker's enemies
    # adjacent to the target gain `n` too, without an attack of their own (R-ADD-182).
    adjacent: bool = False

    def __post_init__(self) -> None:
        check_int(self.n, "bleed.n", 1, MAX_BLEED, "R-ADD-110")
        check_int(self.more_if_bleeding, "bleed.more_if_bleeding", 0, MAX_BLEED, "R-ADD-110")
        check_bool(self.adjacent, "bleed.adjacent")


@dataclass(frozen=True, slots=True)
class BleedFactorEffect(StoredEffect):
    """ "All Bleed effects you apply deal double damage. Bleed 1 becomes Bleed 2, Bleed 2
    becomes Bleed 4": once the card is in play, every Bleed its owner applies puts `factor`
    times the counters the applying card names (its extra counters included); more such
    cards in play do not multiply again (R-ADD-110, R-ADD-280).

    >>> BleedFactorEffect(2).as_dict()
    {'kind': 'bleed_factor', 'factor': 2}
    >>> BleedFactorEffect(1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: bleed_factor.factor: must be an integer from 2 to 4, got 1 (R-ADD-280)
    """

    kind: ClassVar[str] = "bleed_factor"
    factor: int = field(metadata=bounded(2, 4, "R-ADD-280"))


@dataclass(frozen=True, slots=True)
class OngoingDamageEffect(StoredEffect):
    """ "Ongoing: target takes N damage at start of their turn for T turns": a hit
    schedules `amount` damage at the start of each of the target's next `turns` turns,
    taken as R-ADD-73's scheduled damage is (R-ADD-112). Used after a hit.

    >>> OngoingDamageEffect(1, 3).as_dict()
    {'kind': 'ongoing_damage', 'amount': 1, 'turns': 3}
    """

    kind: ClassVar[str] = "ongoing_damage"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-112"))
    turns: int = field(metadata=bounded(1, 10, "R-ADD-112"))


@dataclass(frozen=True, slots=True)
class DamageUntilDiscardsEffect(StoredEffect):
    """ "Ongoing: target takes 2 damage at start of their turn until they discard 3 cards
    total": a hit gives the target `amount` damage at the start of each of its turns,
    taken as R-ADD-73's scheduled damage, until it has discarded `discards` cards since
    (a card's or a cost's discard, cards paid for overspending; damage is no discard,
    R-ADD-144, R-ADD-443). Used after a hit.

    >>> DamageUntilDiscardsEffect(2, 3).as_dict()
    {'kind': 'damage_until_discards', 'amount': 2, 'discards': 3}
    """

    kind: ClassVar[str] = "damage_until_discards"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-443"))
    discards: int = field(metadata=bounded(1, 10, "R-ADD-443"))


@dataclass(frozen=True, slots=True)
class DrawPenaltyEffect(StoredEffect):
    """ "Target draws N fewer card(s) next turn": the enemy's next Draw phase fills its
    hand to 6 − `n` (R-TRN-6, R-ADD-114). Used after a hit, or on a card without an
    attack: then the command's `target`, an enemy within the card's range (R-ADD-65).

    >>> DrawPenaltyEffect(1).as_dict()
    {'kind': 'draw_penalty', 'n': 1}
    """

    kind: ClassVar[str] = "draw_penalty"
    n: int = field(metadata=bounded(1, 6, "R-ADD-114"))


@dataclass(frozen=True, slots=True)
class LastingCurseEffect(StoredEffect):
    """ "Place "Fae Curse" on target (lasts until removed). Cursed targets: Draw 1 fewer
    card each turn … All allies within 3 hexes of cursed target also draw 1 fewer card …
    Curse removed when target kills a Wyrd unit": after a hit the attack's target is
    cursed for the rest of the battle; each Draw phase of a cursed casket, and of any
    casket with a cursed ally within `spread` hexes, fills its hand to 6 − `fewer`; the
    curse is lifted when the cursed casket destroys a casket of faction `lifted_by`
    (R-ADD-421).

    >>> LastingCurseEffect(1, 3, "wyrd-conclave").as_dict()
    {'kind': 'lasting_curse', 'fewer': 1, 'spread': 3, 'lifted_by': 'wyrd-conclave'}
    """

    kind: ClassVar[str] = "lasting_curse"
    fewer: int
    spread: int
    lifted_by: str  # a faction of the card database, as the setup names it (R-ADD-121)

    def __post_init__(self) -> None:
        check_int(self.fewer, "lasting_curse.fewer", 1, 6, "R-ADD-421")
        check_int(self.spread, "lasting_curse.spread", 0, MAX_HEXES, "R-ADD-421")
        if not isinstance(self.lifted_by, str) or not SLUG_RE.fullmatch(self.lifted_by):
            raise InvalidInput("lasting_curse.lifted_by", "must be a faction's slug", "R-ADD-421")


@dataclass(frozen=True, slots=True)
class TemporalLoopEffect(StoredEffect):
    """ "Next damage you take this turn is stored in temporal loop. At start of your next
    turn, choose 1 enemy within 6 hexes - they take that stored damage instead": until the
    turn it is played in ends, the next damage the own casket would take is not taken but
    stored; as its next turn starts, the player chooses an enemy within `within` hexes
    (prompt `temporal_loop`), who takes it (R-ADD-422).

    >>> TemporalLoopEffect(6).as_dict()
    {'kind': 'temporal_loop', 'within': 6}
    """

    kind: ClassVar[str] = "temporal_loop"
    within: int = field(metadata=bounded(1, MAX_HEXES, "R-ADD-422"))


@dataclass(frozen=True, slots=True)
class NoAttacksEffect(StoredEffect):
    """ "Cannot attack until next turn": the own casket makes no attack until the start of
    its next turn (R-ADD-115).

    >>> NoAttacksEffect().as_dict()
    {'kind': 'no_attacks'}
    """

    kind: ClassVar[str] = "no_attacks"


@dataclass(frozen=True, slots=True)
class LowerDefenceEffect(StoredEffect):
    """ "Target has −N Defense until end of their next turn": every attack on it cancels N
    more blocks (R-DMG-3) until its next turn ends (R-ADD-119). Used after a hit.

    >>> LowerDefenceEffect(1).as_dict()
    {'kind': 'lower_defence', 'amount': 1}
    """

    kind: ClassVar[str] = "lower_defence"
    amount: int = field(metadata=bounded(1, 10, "R-ADD-119"))


@dataclass(frozen=True, slots=True)
class MarkEffect(StoredEffect):
    """ "Mark target enemy. When the marked enemy is destroyed, …": the command's `target`,
    an enemy within the card's range, becomes the owner's one mark; when that casket is
    destroyed while marked, the owner runs `then` (R-ADD-148). A new mark replaces the old.

    >>> from battles.engine.cards import GainTokensEffect
    >>> MarkEffect((GainTokensEffect("soul_shard", 2),)).as_dict()
    {'kind': 'mark', 'then': [{'kind': 'gain_tokens', 'pool': 'soul_shard', 'n': 2}]}
    """

    kind: ClassVar[str] = "mark"
    then: tuple[Effect, ...]
    # "Your attacks against Prey deal +N damage": each attack of the marker on the mark.
    damage: int = 0
    # "Mark 1 visible enemy": the mark needs line of sight (R-LOS-1..4).
    visible: bool = False
    # "You can track Prey through concealment": the mark's obscured status (R-COV-4) does
    # not count for the marker's attacks.
    tracks: bool = False

    def __post_init__(self) -> None:
        check_inner(self.then, "mark.then", ("gain_tokens", "recover", "draw", "heat", "taint"))
        check_int(self.damage, "mark.damage", 0, 10, "R-ADD-148")
        check_bool(self.visible, "mark.visible")
        check_bool(self.tracks, "mark.tracks")


@dataclass(frozen=True, slots=True)
class UltimatumEffect(StoredEffect):
    """ "Target enemy must choose: [1] Take N damage immediately, OR [2] Skip their next
    turn": the command's `target`, an enemy within the card's printed range (any enemy
    when it prints none, R-ADD-385), is asked (prompt `ultimatum`, answered by `choose`);
    it is the card's last effect (R-ADD-159). `discard` instead of `damage`: "skips their
    next turn (save: discard 2 cards to resist)": the save is that many cards of the
    target's hand or deck (prompt `save`, R-ADD-342).

    >>> UltimatumEffect(4).as_dict()
    {'kind': 'ultimatum', 'damage': 4}
    >>> UltimatumEffect(discard=2).as_dict()
    {'kind': 'ultimatum', 'damage': 0, 'discard': 2}
    >>> UltimatumEffect(4, discard=2)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: ultimatum: offers damage or a discard, one of them (R-ADD-342)
    """

    kind: ClassVar[str] = "ultimatum"
    damage: int = field(default=0, metadata=WRITTEN)
    discard: int = 0

    def __post_init__(self) -> None:
        StoredEffect.__post_init__(self)
        check_int(self.discard, "ultimatum.discard", 0, MAX_CARDS, "R-ADD-342")
        if not self.discard:
            check_int(self.damage, "ultimatum.damage", 1, MAX_DAMAGE, "R-ADD-159")
        elif self.damage:
            raise InvalidInput("ultimatum", "offers damage or a discard, one of them", "R-ADD-342")


@dataclass(frozen=True, slots=True)
class TransformEffect(StoredEffect):
    """ "Transform into … Assault Form …": the casket takes `form` until the end of the
    round (`FormTaken`, R-ADD-170); a later form replaces it. What the form itself gives
    (+2 damage, −1 Defense …) is written as the card's other effects.

    >>> TransformEffect("assault").as_dict()
    {'kind': 'transform', 'form': 'assault'}
    >>> TransformEffect("mantis")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: transform.form: 'mantis' is not one of: assault, tank, scout
    """

    kind: ClassVar[str] = "transform"
    form: str

    def __post_init__(self) -> None:
        check_choice(self.form, "transform.form", FORMS)


@dataclass(frozen=True, slots=True)
class ChrysalisEffect(StoredEffect):
    """ "Enter Chrysalis state for 1 turn (cannot act). Next turn, recover 10 cards from
    discard pile, remove all Heat, gain +2 Defense permanently this mission": the casket's
    next turn is skipped (as R-ADD-159's), and as its turn after that starts it recovers
    `recover` cards (R-ADD-62), loses all its Heat and gains `defence` automatic blocks for
    the rest of the battle (`ChrysalisEntered`, `ChrysalisEmerged`, R-ADD-366).

    >>> ChrysalisEffect(10, 2).as_dict()
    {'kind': 'chrysalis', 'recover': 10, 'defence': 2}
    """

    kind: ClassVar[str] = "chrysalis"
    recover: int
    defence: int

    def __post_init__(self) -> None:
        check_int(self.recover, "chrysalis.recover", 0, 30, "R-ADD-366")
        check_int(self.defence, "chrysalis.defence", 0, 10, "R-ADD-366")


# What a chosen form may give until the end of the round (R-ADD-362).
FORM_GIFTS = ("enhance_next_attack", "ward", "grant_move")


@dataclass(frozen=True, slots=True)
class ChooseFormEffect(StoredEffect):
    """ "Transform into one of three forms until end of round. Choose: [1] Assault Form
    (…), [2] Tank Form (…), [3] Scout Form (…)": the player chooses as the card resolves
    (prompt `form`, answered by `choose` with the form's name); the casket takes that form
    (`FormTaken`, R-ADD-170) and that form's effects resolve. It is the card's last effect
    (R-ADD-362).

    >>> from battles.engine.cards import GrantMoveEffect, WardEffect
    >>> ChooseFormEffect((WardEffect("end_of_round", defence=-1),),
    ...                  (WardEffect("end_of_round", defence=3),),
    ...                  (GrantMoveEffect(2),)).as_dict()["scout"]
    [{'kind': 'grant_move', 'hexes': 2}]
    """

    kind: ClassVar[str] = "choose_form"
    assault: tuple[Effect, ...]
    tank: tuple[Effect, ...]
    scout: tuple[Effect, ...]

    def __post_init__(self) -> None:
        for form in FORMS:
            check_inner(getattr(self, form), f"choose_form.{form}", FORM_GIFTS, "R-ADD-362")

    def of(self, form: str) -> tuple[Effect, ...]:
        """The effects of the form chosen."""
        check_choice(form, "choose_form.form", FORMS)
        gifts: tuple[Effect, ...] = getattr(self, form)
        return gifts


@dataclass(frozen=True, slots=True)
class DuelEffect(StoredEffect):
    """ "Challenge 1 visible enemy to Honor Duel …": the command's `target`, a visible enemy
    within the card's range, is asked (prompt `duel`). Accepting, the two may attack only
    each other, and no one else may attack them, until the challenger's next turn starts;
    if the challenger's attack kills the target meanwhile, it runs `then`. Refusing, the
    target gains Coward's Mark: Crucible attacks on it deal +`mark_damage` for the rest of
    the battle (R-ADD-174).

    >>> from battles.engine.cards import GainTokensEffect, RecoverEffect
    >>> DuelEffect((GainTokensEffect("forge", 3), RecoverEffect(3)), 2).as_dict()["mark_damage"]
    2
    """

    kind: ClassVar[str] = "duel"
    then: tuple[Effect, ...]
    mark_damage: int

    def __post_init__(self) -> None:
        check_inner(self.then, "duel.then", ("gain_tokens", "recover", "draw"), "R-ADD-174")
        check_int(self.mark_damage, "duel.mark_damage", 1, 10, "R-ADD-174")


@dataclass(frozen=True, slots=True)
class BarReactivesEffect(StoredEffect):
    """ "… and they cannot use defense cards this turn": when `condition` holds as the
    attack card is played (R-ADD-59), its target plays no reactive card until the end of
    this turn, this attack's included (R-ADD-174).

    >>> BarReactivesEffect(Condition("target_cowards_mark")).as_dict()
    {'kind': 'bar_reactives', 'condition': {'test': 'target_cowards_mark'}}
    """

    kind: ClassVar[str] = "bar_reactives"
    condition: Condition | None = None

    def __post_init__(self) -> None:
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("bar_reactives.condition", "must be a condition", "R-ADD-59")


# R-ADD-340: the import writes a card's printed type that names Defense or Movement among its
# keywords with this note ("class: defense"), as R-ADD-292 writes a spell's school.
CLASS_NOTE = "class: "
CARD_CLASSES = ("defense", "movement")


@dataclass(frozen=True, slots=True)
class ForbidCardsEffect(StoredEffect):
    """ "Until end of your turn, … you cannot use defense cards or movement cards": until
    its owner's turn ends, the owner plays no card of the classes named: a `defense` card
    is a reactive card (R-ADD-174) or one whose printed type names Defense, a `movement`
    card one whose printed type names Movement (R-ADD-340).

    >>> ForbidCardsEffect(defense=True, movement=True).as_dict()
    {'kind': 'forbid_cards', 'defense': True, 'movement': True}
    >>> ForbidCardsEffect()
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: forbid_cards: forbids nothing: give defense or movement (R-ADD-340)
    """

    kind: ClassVar[str] = "forbid_cards"
    defense: bool = False
    movement: bool = False

    def __post_init__(self) -> None:
        check_bool(self.defense, "forbid_cards.defense")
        check_bool(self.movement, "forbid_cards.movement")
        if not (self.defense or self.movement):
            raise InvalidInput(
                "forbid_cards", "forbids nothing: give defense or movement", "R-ADD-340"
            )

    def classes(self) -> tuple[str, ...]:
        """The card classes it forbids, in CARD_CLASSES order."""
        return tuple(x for x in CARD_CLASSES if getattr(self, x))


@dataclass(frozen=True, slots=True)
class GritModifierEffect(StoredEffect):
    """ "Until end of mission: +1 to all Grit Checks": every Grit check the own pilot makes
    for the rest of the battle adds `amount` (R-ADD-305's modifier, R-ADD-360).
    `next_check`: "gain +1 to your next Grit Check this mission": only the pilot's next
    check adds it (R-ADD-361).

    >>> GritModifierEffect(1).as_dict()
    {'kind': 'grit_modifier', 'amount': 1}
    >>> GritModifierEffect(1, next_check=True).as_dict()
    {'kind': 'grit_modifier', 'amount': 1, 'next_check': True}
    """

    kind: ClassVar[str] = "grit_modifier"
    amount: int
    next_check: bool = False

    def __post_init__(self) -> None:
        check_int(self.amount, "grit_modifier.amount", 1, 3, "R-ADD-360")
        check_bool(self.next_check, "grit_modifier.next_check")


@dataclass(frozen=True, slots=True)
class GritRerollEffect(StoredEffect):
    """ "Once per mission: When you would fail a Grit Check, reroll it. If you still fail,
    gain +1 Grit permanently": a standing rule of the passive in play; the first of the own
    pilot's Grit checks (R-ADD-305) that falls in the failing band (1-3, Full Wound) is
    rolled again with the same modifier, once per battle for each such card; a second
    failure raises the pilot's Grit by `gain`, handed to the campaign with the outcome
    (R-ADD-411).

    >>> GritRerollEffect(1).as_dict()
    {'kind': 'grit_reroll', 'gain': 1}
    >>> GritRerollEffect(0).as_dict()  # the default is not written
    {'kind': 'grit_reroll'}
    >>> GritRerollEffect(4)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: grit_reroll.gain: must be an integer from 0 to 3, got 4 (R-ADD-411)
    """

    kind: ClassVar[str] = "grit_reroll"
    gain: int = 0

    def __post_init__(self) -> None:
        check_int(self.gain, "grit_reroll.gain", 0, 3, "R-ADD-411")
