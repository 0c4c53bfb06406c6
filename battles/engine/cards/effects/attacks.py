"""Attacks: the attack itself, further attacks and areas, and what changes an attack
(bonuses, enhancements of later attacks, its rules, what follows its outcome).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE, WeaponRange, parse_range
from .base import (
    WRITTEN,
    InnerMust,
    StoredEffect,
    bounded,
    check_bool,
    check_choice,
    check_inner,
    check_int,
)
from .bounds import AFTER_KINDS, MAX_HEXES, MAX_TO_HIT, MAX_TOKENS, TOKEN_POOLS
from .condition import Condition
from .resources import GiveHeatEffect
from .terrain import TerrainEffect

if TYPE_CHECKING:
    from . import Effect


@dataclass(frozen=True, slots=True)
class AttackEffect(StoredEffect):
    """Attack one target at `range` for `damage`: the engine runs the whole attack sequence.

    >>> AttackEffect(parse_range("Melee"), 4).as_dict()
    {'kind': 'attack', 'range': 'Melee', 'damage': 4}
    >>> AttackEffect(parse_range("Self"), 4)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: attack.range: an attack needs a target at distance 1 or more; 'Self' is 0 (R-RNG-2)
    """

    kind: ClassVar[str] = "attack"
    range: WeaponRange
    damage: int

    def __post_init__(self) -> None:
        if not isinstance(self.range, WeaponRange):
            raise InvalidInput("attack.range", "must be a WeaponRange", "R-RNG-2")
        # R-ARC-1 refuses an attack on the own hex, so a range reaching only 0 attacks nothing.
        if self.range.low < 1:
            raise InvalidInput(
                "attack.range",
                f"an attack needs a target at distance 1 or more; {self.range.text!r} is 0",
                "R-RNG-2",
            )
        check_int(self.damage, "attack.damage", 0, MAX_DAMAGE, "R-DMG-1")


@dataclass(frozen=True, slots=True)
class BuffNextAttackEffect(StoredEffect):
    """The player's next attack gets +`damage`, `to_hit` on its target number (negative is
    easier, R-HIT-1) and cancels `ignore_defence` defence blocks (R-DMG-3).

    >>> BuffNextAttackEffect(damage=2).as_dict()
    {'kind': 'buff_next_attack', 'damage': 2, 'to_hit': 0, 'ignore_defence': 0}
    >>> BuffNextAttackEffect()
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: buff_next_attack: changes nothing: give damage, to_hit or ignore_defence
    """

    kind: ClassVar[str] = "buff_next_attack"
    damage: int = field(default=0, metadata=WRITTEN)
    to_hit: int = field(default=0, metadata=WRITTEN)
    # "all": every block is cancelled, rolled or automatic (R-DMG-3, R-ADD-60).
    ignore_defence: int | Literal["all"] = field(default=0, metadata=WRITTEN)

    def __post_init__(self) -> None:
        check_int(self.damage, "buff_next_attack.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        check_int(self.to_hit, "buff_next_attack.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if self.ignore_defence != "all":
            check_int(
                self.ignore_defence, "buff_next_attack.ignore_defence", 0, MAX_DAMAGE, "R-DMG-3"
            )
        if (self.damage, self.to_hit, self.ignore_defence) == (0, 0, 0):
            raise InvalidInput(
                "buff_next_attack", "changes nothing: give damage, to_hit or ignore_defence"
            )

    @property
    def blocks_ignored(self) -> int:
        """The blocks cancelled: "all" is more than any attack can roll (R-ADD-60).

        >>> BuffNextAttackEffect(ignore_defence="all").blocks_ignored == MAX_DAMAGE
        True
        """
        return MAX_DAMAGE if self.ignore_defence == "all" else self.ignore_defence


@dataclass(frozen=True, slots=True)
class AttackBonusEffect(StoredEffect):
    """This card's own attack gets +`damage` and `to_hit` (negative is easier) when
    `condition` holds as the card is played, or always without one (R-ADD-59): the
    "deal N damage instead" and "+N if …" of attack texts.

    `each_attack`: the damage is added to each further attack of the card too, read for
    that attack's target as the card is played ("+2 damage vs corrupted" on a blast,
    R-ADD-186).

    >>> AttackBonusEffect(2, condition=Condition("own_heat_at_least", 3)).as_dict()
    {'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0, 'condition': {'test': 'own_heat_at_least', 'n': 3}}
    >>> AttackBonusEffect(0, 1, each_attack=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: attack_bonus.each_attack: only damage is added to each attack (R-ADD-186)
    """

    kind: ClassVar[str] = "attack_bonus"
    damage: int = field(default=0, metadata=WRITTEN)
    to_hit: int = field(default=0, metadata=WRITTEN)
    condition: Condition | None = None
    # combos vocabulary: every attack of the card gets the damage (R-ADD-186).
    each_attack: bool = False

    def __post_init__(self) -> None:
        check_int(self.damage, "attack_bonus.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        check_int(self.to_hit, "attack_bonus.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if (self.damage, self.to_hit) == (0, 0):
            raise InvalidInput("attack_bonus", "changes nothing: give damage or to_hit", "R-ADD-59")
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("attack_bonus.condition", "must be a condition", "R-ADD-59")
        check_bool(self.each_attack, "attack_bonus.each_attack")
        if self.each_attack and (self.to_hit or self.damage <= 0):
            raise InvalidInput(
                "attack_bonus.each_attack", "only damage is added to each attack", "R-ADD-186"
            )


# The kind of the cards each component's type is (seed 002 "Component Destroyed": the arms
# take their card types with them; R-ADD-365). Legs, head and chassis have none.
COMPONENT_CARD_KINDS: dict[str, str] = {"right_arm": "primary_weapon", "left_arm": "secondary"}


@dataclass(frozen=True, slots=True)
class ComponentTypeDamageEffect(StoredEffect):
    """ "If target discards cards from that component type, deal +2 Component Damage": when
    the damage of the card's attack makes its target discard one or more cards of the named
    component's type (`COMPONENT_CARD_KINDS`), that component takes `amount` more Component
    Damage, once for the attack (R-ADD-365).

    >>> ComponentTypeDamageEffect(2).as_dict()
    {'kind': 'component_type_damage', 'amount': 2}
    """

    kind: ClassVar[str] = "component_type_damage"
    amount: int

    def __post_init__(self) -> None:
        check_int(self.amount, "component_type_damage.amount", 1, 5, "R-ADD-365")


@dataclass(frozen=True, slots=True)
class AfterAttackEffect(StoredEffect):
    """Effects of an attack card that wait for its outcome (R-ADD-65): on "hit" when the
    attack hits (EXECUTION included), on "kill" when its target is defeated by the time
    the attack ends ("If this destroys an enemy, gain 3 Soul Shards"), on "end" whatever
    the outcome ("move 1 hex after"); on "miss" when the roll misses, a catastrophic failure
    not included, and on "damage" when the target takes damage from it, after its wards
    ("if this deals damage") (buffs vocabulary; R-ADD-95).

    `attacks` "further": only after the card's further attacks (R-ADD-80, R-ADD-81), not
    its first ("4 damage to primary, 2 damage + push to adjacent enemies", R-ADD-187).

    >>> from battles.engine.cards import DrawEffect, GainTokensEffect
    >>> AfterAttackEffect("kill", (GainTokensEffect("soul_shard", 3),)).as_dict()
    {'kind': 'after_attack', 'on': 'kill', 'then': [{'kind': 'gain_tokens', 'pool': 'soul_shard', 'n': 3}]}
    >>> AfterAttackEffect("hit", (DrawEffect(1),), attacks="first")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: after_attack.attacks: 'first' is not one of: all, further
    """

    kind: ClassVar[str] = "after_attack"
    on: Literal["hit", "kill", "end", "miss", "damage"]
    then: tuple[Effect, ...]
    # combos vocabulary: which of the card's attacks it follows (R-ADD-187).
    attacks: Literal["all", "further"] = "all"

    def __post_init__(self) -> None:
        check_choice(self.on, "after_attack.on", ("hit", "kill", "end", "miss", "damage"))
        check_choice(self.attacks, "after_attack.attacks", ("all", "further"))
        # buffs vocabulary: "On Miss: recover 2 SP and +3 damage to next attack" (R-ADD-95);
        # move, R-ADD-100: a push waits for the hit; "If …, knockback" is a `when` inside it.
        kinds = (
            *AFTER_KINDS,
            *("grant_move", "gain_sp", "buff_next_attack", "push", "when", "scatter"),
            "give_heat",
            "terrain",  # terrain vocabulary: made at the target's hex (R-ADD-162)
            "grant_rotation",  # combos vocabulary (R-ADD-189)
        )
        check_inner(
            self.then,
            "after_attack.then",
            kinds,
            musts=(
                InnerMust(
                    GiveHeatEffect,
                    field="to",
                    allowed=("target",),
                    message="after an attack, Heat goes to its target; a reactive card gives "
                    "the attacker Heat at the top level",
                    rule="R-ADD-143",
                ),
                InnerMust(
                    TerrainEffect,
                    field="at",
                    allowed=("target", "area"),
                    message="after an attack, terrain is made at its target's hex ('target') "
                    "or in the area around it ('area', R-ADD-274)",
                    rule="R-ADD-162",
                ),
            ),
        )


@dataclass(frozen=True, slots=True)
class IgnoreCoverEffect(StoredEffect):
    """The card's own attack ignores cover: its R-COV-2 target-number modifier is
    cancelled (R-ADD-60).

    >>> IgnoreCoverEffect().as_dict()
    {'kind': 'ignore_cover'}
    """

    kind: ClassVar[str] = "ignore_cover"


FOLLOW_UP_TARGETS = ("any", "other", "same")


@dataclass(frozen=True, slots=True)
class FollowUpEffect(StoredEffect):
    """One more attack by the same card once its previous one has ended (R-ADD-80): at
    `range` for `damage`, each a whole attack of its own (target number, roll, reactive
    window, defence dice). Its target is the next seat the `attack` command names in
    `also`: "any" enemy (the first attack's target when `also` names none: "attack
    twice"), "other" (an enemy this card attacks no other time: "to 2 targets", made only
    when named), "same" (the first attack's target, never named: "against same target").
    `condition` (R-ADD-59) is read as the card is played; `on` "kill": made only when the
    card's first attack has defeated its target ("if this kills the target, make another
    attack"). `near`: the target stands within that many hexes of the first attack's
    target ("arcs to 2 additional enemies within 2 hexes", R-ADD-84). `instead`: "can
    target 2 different enemies for N damage each instead": when the command names this
    attack's target, the card's first attack deals this one's `damage` too, not its own
    (R-ADD-363).

    >>> FollowUpEffect(parse_range("Melee"), 3, "other").as_dict()
    {'kind': 'follow_up', 'range': 'Melee', 'damage': 3, 'target': 'other'}
    >>> FollowUpEffect(parse_range("Melee"), 3, "next")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: follow_up.target: 'next' is not one of: any, other, same
    """

    kind: ClassVar[str] = "follow_up"
    range: WeaponRange
    damage: int
    target: Literal["any", "other", "same"] = field(default="any", metadata=WRITTEN)
    condition: Condition | None = None
    on: Literal["end", "kill"] = "end"
    near: int = 0
    instead: bool = False

    def __post_init__(self) -> None:
        check_bool(self.instead, "follow_up.instead")
        if self.instead and (self.target, self.on) != ("other", "end"):
            raise InvalidInput(
                "follow_up.instead",
                "only a further attack on another enemy, made when named, replaces the "
                "first's damage",
                "R-ADD-363",
            )
        if not isinstance(self.range, WeaponRange) or self.range.low < 1:
            raise InvalidInput(
                "follow_up.range", "must be a range reaching distance 1 or more", "R-RNG-2"
            )
        check_int(self.damage, "follow_up.damage", 0, MAX_DAMAGE, "R-DMG-1")
        check_choice(self.target, "follow_up.target", FOLLOW_UP_TARGETS)
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("follow_up.condition", "must be a condition", "R-ADD-59")
        check_choice(self.on, "follow_up.on", ("end", "kill"))
        if self.on == "kill" and self.target == "same":
            raise InvalidInput(
                "follow_up.on", "a defeated target cannot be attacked again", "R-ADD-80"
            )
        check_int(self.near, "follow_up.near", 0, MAX_HEXES, "R-ADD-84")
        if self.near and self.target != "other":
            raise InvalidInput(
                "follow_up.near", "only another target is near the first", "R-ADD-84"
            )


@dataclass(frozen=True, slots=True)
class AreaAttackEffect(StoredEffect):
    """ "N damage to all adjacent enemies", "to all enemies within 2 hexes": after the
    card's own attack, every other casket within `within` hexes of the attacker as the
    card is played is attacked for `damage`, each a whole attack of its own, in seat
    order (R-ADD-81). Enemies only, unless `allies` ("to ALL adjacent hexes": friendly
    fire, the attacker never included). `around` "target": the area is around the first
    attack's target instead, a blast (R-ADD-84); "wreck": around a destroyed enemy the
    command's `target` names, within the card's printed range, on a card without an attack
    of its own ("Target destroyed enemy explodes", R-ADD-89). `aura`: around the attacker, every attack
    of the card ignores line of sight and facing (R-RNG-3, R-ADD-85). "line": every casket in
    the hexes a straight line from the attacker through the first target passes through, out
    to `within` hexes of the attacker ("line of lightning (hits all targets in straight
    line)", R-ADD-381). `ignore_defence`:
    its attacks cancel every block, "Armor-Piercing" (R-ADD-60). `pick`: only that many of
    the caught caskets, drawn at random ("2 random enemies within 3 hexes", R-ADD-87).

    >>> AreaAttackEffect(2).as_dict()
    {'kind': 'area_attack', 'damage': 2, 'within': 1}
    >>> AreaAttackEffect(0, 20, around="line", damage_of_attack=True, plus=2, first_behind=True).as_dict()
    {'kind': 'area_attack', 'damage': 0, 'within': 20, 'around': 'line', 'damage_of_attack': True, 'plus': 2, 'first_behind': True}
    >>> AreaAttackEffect(2, within=0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: area_attack.within: must be an integer from 1 to 20, got 0 (R-ADD-81)
    """

    kind: ClassVar[str] = "area_attack"
    damage: int
    within: int = field(default=1, metadata=WRITTEN)
    allies: bool = False
    around: Literal["self", "target", "wreck", "line"] = "self"
    aura: bool = False
    ignore_defence: bool = False
    pick: int = 0
    # combos vocabulary: "deal damage to target and all adjacent enemies" on an enhancement:
    # the caught enemies take the printed damage of the attack it enhances (R-ADD-182).
    damage_of_attack: bool = False
    # "+2 damage, Armor-Piercing, hits 2 targets in line" on an enhancement: `plus` more
    # than that printed damage, and of the caskets the line catches only the first behind
    # the target (`first_behind`); the line reaches as far as the enhanced attack's printed
    # range, `within` at most (R-ADD-393).
    plus: int = 0
    first_behind: bool = False

    def __post_init__(self) -> None:
        check_int(self.damage, "area_attack.damage", 0, MAX_DAMAGE, "R-DMG-1")
        check_bool(self.damage_of_attack, "area_attack.damage_of_attack")
        check_int(self.plus, "area_attack.plus", 0, MAX_DAMAGE, "R-ADD-393")
        check_bool(self.first_behind, "area_attack.first_behind")
        if self.plus and not self.damage_of_attack:
            raise InvalidInput(
                "area_attack.plus", "adds to the enhanced attack's damage only", "R-ADD-393"
            )
        if self.first_behind and (self.around != "line" or self.pick):
            raise InvalidInput(
                "area_attack.first_behind",
                "the first casket behind the target on a line",
                "R-ADD-393",
            )
        if self.damage_of_attack and self.damage:
            raise InvalidInput(
                "area_attack.damage",
                "the attack's printed damage is the amount: give 0 with damage_of_attack",
                "R-ADD-182",
            )
        check_int(self.within, "area_attack.within", 1, MAX_HEXES, "R-ADD-81")
        check_bool(self.allies, "area_attack.allies")
        check_choice(self.around, "area_attack.around", ("self", "target", "wreck", "line"))
        check_bool(self.aura, "area_attack.aura")
        check_bool(self.ignore_defence, "area_attack.ignore_defence")
        check_int(self.pick, "area_attack.pick", 0, 6, "R-ADD-87")
        if self.aura and self.around != "self":
            raise InvalidInput("area_attack.aura", "an aura is around the attacker", "R-RNG-3")

    def reach(self, first: WeaponRange) -> WeaponRange:
        """The range its attacks are made at: around the attacker, Melee when adjacent
        (R-RNG-2) or 1 to `within`; around the target of an attack at `first`, every
        distance a casket within `within` of that target can be at (R-ADD-84).

        >>> AreaAttackEffect(4, within=2).reach(parse_range("Melee")).text
        '1-2'
        >>> AreaAttackEffect(2, around="target").reach(parse_range("3-6")).text
        '2-7'
        """
        if self.around in ("self", "line"):  # a line runs out from the attacker too
            return parse_range("Melee" if self.within == 1 else f"1-{self.within}")
        low, high = max(1, first.low - self.within), first.high + self.within
        return parse_range(f"{low}-{high}")


@dataclass(frozen=True, slots=True)
class DamageAuraEffect(StoredEffect):
    """ "Adjacent enemies take 1 damage at start of their turn" beside "+2 Defense until
    next turn": until the start of the owner's next turn, each enemy casket within
    `within` hexes of it when its own turn starts takes `amount` damage without an attack
    (R-ADD-73's way, R-ADD-88).

    >>> DamageAuraEffect(1).as_dict()
    {'kind': 'damage_aura', 'amount': 1, 'within': 1}
    """

    kind: ClassVar[str] = "damage_aura"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-88"))
    within: int = field(default=1, metadata=bounded(1, MAX_HEXES, "R-ADD-88", written=True))


# "Your next ranged attack": an attack made with a card whose range is not Melee, the test
# R-ARC-3 already makes (R-ADD-90).
# R-ADD-292: an item's spell school, carried on its cards as the keyword "school: <name>";
# "next fire spell" waits for an attack made with a card of that school.
SPELL_SCHOOLS = ("fire", "ice", "lightning", "death", "nature", "light", "void")
SCHOOL_NOTE = "school: "
ENHANCED_ATTACKS = ("any", "ranged", "melee", *SPELL_SCHOOLS)


@dataclass(frozen=True, slots=True)
class EnhanceNextAttackEffect(StoredEffect):
    """ "Enhance your next (ranged) attack: …": waits, with the card's source, for the
    owner's next attack of the kind `attacks` ("any", "ranged", R-ADD-90, or a spell
    school: an attack made with a card of that school, R-ADD-292), which spends
    it: +`damage`, `to_hit` on its target number, `ignore_defence` blocks cancelled
    (R-DMG-3, "all" R-ADD-60), cover and range band cancelled (R-COV-2, R-RNG-1), never
    a miss (R-ADD-91), the target's card Defense ignored (R-ADD-92). `this_turn`: it
    lapses unused at the end of the turn ("next attack this turn", R-ADD-90), `this_round`
    at the end of the round (R-ADD-370); `every`:
    every such attack until then gets it, none spends it ("until end of turn, all your
    attacks", R-ADD-96). `sp_cost`: that attack costs so much less SP, never below 0
    ("your next ranged attack costs -1 SP", R-ADD-99); `reach`: it reaches so many hexes
    further ("+2 range", R-ADD-90). `vs_bleeding`: its damage only against a target that
    has Bleed counters as the attack is declared; the attack spends it all the same
    (R-ADD-173). `then`: what the text adds to that attack besides,
    read as the card's own would be (R-ADD-180): attack bonuses with a condition ("+2
    damage (+4 vs corrupted)"), read as the attack is declared, and effects waiting for
    its outcome ("target gains 2 Heat": `after_attack` on "hit"), and a blast around that
    attack's target ("deal 3 damage to all adjacent enemies", R-ADD-182).

    >>> EnhanceNextAttackEffect("ranged", damage=1, ignore_defence="all").as_dict()
    {'kind': 'enhance_next_attack', 'attacks': 'ranged', 'damage': 1, 'ignore_defence': 'all'}
    >>> EnhanceNextAttackEffect("thrown", damage=1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: enhance_next_attack.attacks: 'thrown' is not one of: any, ranged, melee, fire, ice, lightning, death, nature, light, void
    >>> EnhanceNextAttackEffect()
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: enhance_next_attack: changes nothing: give damage, to_hit, ignore_defence, sp_cost, then or a flag (R-ADD-90)
    >>> heat = AfterAttackEffect("hit", (GiveHeatEffect(3),))
    >>> EnhanceNextAttackEffect("ranged", then=(heat,)).as_dict()["then"]
    [{'kind': 'after_attack', 'on': 'hit', 'then': [{'kind': 'give_heat', 'amount': 3, 'to': 'target'}]}]
    >>> EnhanceNextAttackEffect("ranged", then=(GiveHeatEffect(3),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: enhance_next_attack.then[0]: must be one of: attack_bonus, after_attack, area_attack, reroll_attack_die (R-ADD-180)
    """

    kind: ClassVar[str] = "enhance_next_attack"
    attacks: str = field(default="any", metadata=WRITTEN)
    damage: int = 0
    to_hit: int = 0
    ignore_defence: int | Literal["all"] = 0
    ignore_cover: bool = False
    ignore_range: bool = False
    cannot_miss: bool = False
    ignore_defence_buffs: bool = False
    this_turn: bool = False
    every: bool = False
    sp_cost: int = 0
    reach: int = 0
    # forms vocabulary: "+2 damage to enemies that have Bleed counters on them" (R-ADD-173).
    vs_bleeding: bool = False
    # combos vocabulary: the attack's conditional bonuses and hit effects (R-ADD-180).
    then: tuple[Effect, ...] = ()
    # "Until end of round, gain +3 damage to all attacks" on a card played outside its
    # owner's turn: it lapses as the round ends, not the turn (R-ADD-370).
    this_round: bool = False

    def __post_init__(self) -> None:
        check_choice(self.attacks, "enhance_next_attack.attacks", ENHANCED_ATTACKS)
        check_bool(self.vs_bleeding, "enhance_next_attack.vs_bleeding")
        if self.vs_bleeding and not self.damage:
            raise InvalidInput(
                "enhance_next_attack.vs_bleeding", "only damage depends on Bleed", "R-ADD-173"
            )
        if self.then:
            kinds = ("attack_bonus", "after_attack", "area_attack", "reroll_attack_die")
            # "Deal 3 damage to all adjacent enemies" on a shell: around its target;
            # "hits 2 targets in line": the line through it (R-ADD-393).
            around = InnerMust(
                AreaAttackEffect,
                field="around",
                allowed=("target", "line"),
                message="an enhancement's area is around the target of the attack it "
                "enhances, or the line through it",
                rule="R-ADD-182",
            )
            check_inner(self.then, "enhance_next_attack.then", kinds, "R-ADD-180", musts=(around,))
            if self.every:  # what no attack spends cannot follow one attack's outcome
                raise InvalidInput(
                    "enhance_next_attack.then", "only an enhancement one attack spends", "R-ADD-180"
                )
        elif self.then != ():
            raise InvalidInput(
                "enhance_next_attack.then", "must be a tuple of effects", "R-ADD-180"
            )
        check_int(self.sp_cost, "enhance_next_attack.sp_cost", -10, 0, "R-ADD-99")
        check_int(self.reach, "enhance_next_attack.reach", 0, MAX_HEXES, "R-ADD-90")
        if self.reach and self.attacks != "ranged":
            raise InvalidInput(
                "enhance_next_attack.reach", "only a ranged attack reaches further", "R-ADD-90"
            )
        check_bool(self.every, "enhance_next_attack.every")
        check_bool(self.this_round, "enhance_next_attack.this_round")
        if self.this_round and self.this_turn:
            raise InvalidInput(
                "enhance_next_attack.this_round", "lapses with the turn or the round", "R-ADD-370"
            )
        if self.every and not (self.this_turn or self.this_round):
            raise InvalidInput(
                "enhance_next_attack.every",
                "every attack until when? give this_turn or this_round",
                "R-ADD-96",
            )
        check_int(self.damage, "enhance_next_attack.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        check_int(self.to_hit, "enhance_next_attack.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if self.ignore_defence != "all":
            check_int(
                self.ignore_defence, "enhance_next_attack.ignore_defence", 0, MAX_DAMAGE, "R-DMG-3"
            )
        for name in _ENHANCE_FLAGS:
            check_bool(getattr(self, name), f"enhance_next_attack.{name}")
        numbers = (self.damage, self.to_hit, self.ignore_defence, self.sp_cost, self.reach)
        flags = any(getattr(self, name) for name in _ENHANCE_FLAGS[:-1])
        if numbers == (0, 0, 0, 0, 0) and not flags and not self.then:
            raise InvalidInput(
                "enhance_next_attack",
                "changes nothing: give damage, to_hit, ignore_defence, sp_cost, then or a flag",
                "R-ADD-90",
            )

    @property
    def blocks_ignored(self) -> int:
        """The blocks cancelled: "all" is more than any attack can roll (R-ADD-60)."""
        return MAX_DAMAGE if self.ignore_defence == "all" else self.ignore_defence


_ENHANCE_FLAGS = (
    "ignore_cover",
    "ignore_range",
    "cannot_miss",
    "ignore_defence_buffs",
    "this_turn",  # last: alone it changes nothing
)


@dataclass(frozen=True, slots=True)
class AttackRulesEffect(StoredEffect):
    """The card's own attack, when `condition` holds as it is played (R-ADD-59) or
    always: "This attack cannot miss" (R-ADD-91), "enemy cannot use Reactive cards
    against this attack" (R-REA-1), "Ignore Defense buffs" (R-ADD-92).

    >>> AttackRulesEffect(cannot_miss=True).as_dict()
    {'kind': 'attack_rules', 'cannot_miss': True}
    >>> AttackRulesEffect()
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: attack_rules: changes nothing: give cannot_miss, no_reactive or ignore_defence_buffs (R-ADD-91)
    """

    kind: ClassVar[str] = "attack_rules"
    cannot_miss: bool = False
    no_reactive: bool = False
    ignore_defence_buffs: bool = False
    condition: Condition | None = None

    def __post_init__(self) -> None:
        for name in _RULE_FLAGS:
            check_bool(getattr(self, name), f"attack_rules.{name}")
        if not any(getattr(self, name) for name in _RULE_FLAGS):
            raise InvalidInput(
                "attack_rules",
                "changes nothing: give cannot_miss, no_reactive or ignore_defence_buffs",
                "R-ADD-91",
            )
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("attack_rules.condition", "must be a condition", "R-ADD-59")


_RULE_FLAGS = ("cannot_miss", "no_reactive", "ignore_defence_buffs")


@dataclass(frozen=True, slots=True)
class LastingBonusEffect(StoredEffect):
    """ "+N damage to all attacks permanently for the rest of the mission (stacks)": every
    attack the owner declares from now on, for the rest of the battle, deals `damage` more
    (R-DMG-1, R-ADD-131).

    >>> LastingBonusEffect(1).as_dict()
    {'kind': 'lasting_bonus', 'damage': 1}
    """

    kind: ClassVar[str] = "lasting_bonus"
    damage: int = field(metadata=bounded(1, 10, "R-ADD-131"))


@dataclass(frozen=True, slots=True)
class BuffThisTurnEffect(StoredEffect):
    """ "Your next attack this turn: +2 damage, ignores 1 Defense, and −1 to target number":
    `buff_next_attack`'s bonus, lapsing unspent when the turn ends (R-ADD-139).

    >>> BuffThisTurnEffect(damage=2, to_hit=-1, ignore_defence=1).as_dict()
    {'kind': 'buff_this_turn', 'damage': 2, 'to_hit': -1, 'ignore_defence': 1}
    >>> BuffThisTurnEffect()
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: buff_this_turn: changes nothing: give damage, to_hit or ignore_defence (R-ADD-139)
    """

    kind: ClassVar[str] = "buff_this_turn"
    damage: int = field(default=0, metadata=WRITTEN)
    to_hit: int = field(default=0, metadata=WRITTEN)
    ignore_defence: int = field(default=0, metadata=WRITTEN)

    def __post_init__(self) -> None:
        check_int(self.damage, "buff_this_turn.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        check_int(self.to_hit, "buff_this_turn.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        check_int(self.ignore_defence, "buff_this_turn.ignore_defence", 0, MAX_DAMAGE, "R-DMG-3")
        if (self.damage, self.to_hit, self.ignore_defence) == (0, 0, 0):
            raise InvalidInput(
                "buff_this_turn",
                "changes nothing: give damage, to_hit or ignore_defence",
                "R-ADD-139",
            )


@dataclass(frozen=True, slots=True)
class DestroyOnCriticalEffect(StoredEffect):
    """ "Destroy 1 Component on Crit": when the card's attack is a critical hit, the targeted
    component (R-DMG-6) is destroyed as the attack ends (R-HIT-4, R-DMG-7, R-ADD-131).

    >>> DestroyOnCriticalEffect().as_dict()
    {'kind': 'destroy_on_critical'}
    """

    kind: ClassVar[str] = "destroy_on_critical"


@dataclass(frozen=True, slots=True)
class BonusAgainstEffect(StoredEffect):
    """ "Your next attack vs that target +N damage": the command's `target`, an enemy
    within the card's printed range, is marked; the owner's next attack declared against
    it gets +`damage` and spends the mark (R-DMG-1, R-ADD-156). `advantage`: "Gain
    Advantage on your next attack against that enemy", that attack's roll has so much
    more advantage (R-HIT-6, R-ADD-295).

    >>> BonusAgainstEffect(2).as_dict()
    {'kind': 'bonus_against', 'damage': 2}
    >>> BonusAgainstEffect(0, advantage=1).as_dict()
    {'kind': 'bonus_against', 'damage': 0, 'advantage': 1}
    >>> BonusAgainstEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: bonus_against: gives nothing: give damage or advantage (R-ADD-156)
    """

    kind: ClassVar[str] = "bonus_against"
    damage: int
    advantage: int = 0

    def __post_init__(self) -> None:
        check_int(self.damage, "bonus_against.damage", 0, MAX_DAMAGE, "R-DMG-1")
        check_int(self.advantage, "bonus_against.advantage", 0, 2, "R-HIT-6")
        if not self.damage and not self.advantage:
            raise InvalidInput(
                "bonus_against", "gives nothing: give damage or advantage", "R-ADD-156"
            )


@dataclass(frozen=True, slots=True)
class OfferMissEffect(StoredEffect):
    """ "Offer bargain: 'Miss this attack, give me 2 Bargain tokens.' Enemy chooses": a
    reactive card's offer to the attacker, asked (prompt `siphon`, answered by `choose`)
    when it holds the tokens: paying them to the defender makes the hit a miss, refusing
    lets it hit normally (R-ADD-159).

    >>> OfferMissEffect("bargain", 2).as_dict()
    {'kind': 'offer_miss', 'pool': 'bargain', 'n': 2}
    """

    kind: ClassVar[str] = "offer_miss"
    pool: str
    n: int

    def __post_init__(self) -> None:
        check_choice(self.pool, "offer_miss.pool", TOKEN_POOLS)
        check_int(self.n, "offer_miss.n", 1, MAX_TOKENS, "R-ADD-159")


@dataclass(frozen=True, slots=True)
class AdvantageEffect(StoredEffect):
    """ "Roll with Advantage (3d6, take 2 highest)": the card's own attack roll has `n` more
    advantage (R-HIT-6's pool: +1 rolls 3 dice and keeps the 2 highest), whether or not
    option dice_pool_advantage is on (R-ADD-176).

    >>> AdvantageEffect().as_dict()
    {'kind': 'advantage', 'n': 1}
    """

    kind: ClassVar[str] = "advantage"
    n: int = field(default=1, metadata=bounded(1, 2, "R-HIT-6", written=True))


@dataclass(frozen=True, slots=True)
class RerollAttackDieEffect(StoredEffect):
    """ "Reroll 1 Attack Die on your next attack this turn": in an enhancement's `then`
    (or on an attack card, its own attack), once the attack's dice are rolled its player
    may roll one of them again, chosen after seeing the roll, or keep the roll; the new
    face stands (R-HIT-4, R-HIT-6, R-ADD-282).

    >>> RerollAttackDieEffect().as_dict()
    {'kind': 'reroll_attack_die'}
    """

    kind: ClassVar[str] = "reroll_attack_die"


@dataclass(frozen=True, slots=True)
class ForceDefenceRerollEffect(StoredEffect):
    """ "Force target to reroll up to 2 successful Defense Dice" (taint-exploitation.md's
    timing: "After target rolls Defense Dice, before applying damage"): held in the
    attacker's hand, the card answers its own attack's defence roll when a die of it blocked;
    the attacker picks up to `dice` of the blocking dice and they are rolled again before the
    damage is applied (R-ADD-412).

    >>> ForceDefenceRerollEffect(2).as_dict()
    {'kind': 'force_defence_reroll', 'dice': 2}
    """

    kind: ClassVar[str] = "force_defence_reroll"
    dice: int = field(metadata=bounded(1, 5, "R-ADD-412"))
