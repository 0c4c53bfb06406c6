"""Defence: reductions of an incoming attack, Defense, wards, and the answers to an attack
(counters, ripostes, thorns).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .base import WRITTEN, StoredEffect, bounded, check_bool, check_choice, check_inner, check_int
from .bounds import AFTER_KINDS, MAX_CARDS, MAX_TO_HIT

if TYPE_CHECKING:
    from . import Effect


@dataclass(frozen=True, slots=True)
class ReduceIncomingEffect(StoredEffect):
    """Reduce the damage of the attack this reactive card answers by `amount` (R-REA-1).
    `before_roll`: "(before Defense roll)", the damage is reduced before the defence dice
    are rolled, one die per point left (R-DMG-2, R-ADD-291).

    >>> ReduceIncomingEffect(2).as_dict(), ReduceIncomingEffect(2, minimum=1).as_dict()
    ({'kind': 'reduce_incoming', 'amount': 2}, {'kind': 'reduce_incoming', 'amount': 2, 'minimum': 1})
    >>> ReduceIncomingEffect(3, before_roll=True).as_dict()
    {'kind': 'reduce_incoming', 'amount': 3, 'before_roll': True}
    """

    kind: ClassVar[str] = "reduce_incoming"
    amount: int
    # "Reduce damage by N (minimum 1)": the reduction never takes a hit below this (R-ADD-58).
    minimum: int = 0
    before_roll: bool = False

    def __post_init__(self) -> None:
        check_int(self.amount, "reduce_incoming.amount", 1, MAX_DAMAGE, "R-REA-1")
        check_int(self.minimum, "reduce_incoming.minimum", 0, 1, "R-ADD-58")
        check_bool(self.before_roll, "reduce_incoming.before_roll")
        if self.before_roll and self.minimum:
            raise InvalidInput(
                "reduce_incoming.before_roll",
                "a reduction before the roll has no minimum: the dice decide the rest",
                "R-ADD-291",
            )


@dataclass(frozen=True, slots=True)
class DefenceEffect(StoredEffect):
    """+`amount` Defense until the start of the player's next turn: that many automatic
    blocks against every attack on the casket (R-DMG-3, R-ADD-64). On a reactive card:
    against the attack it answers, unless a PIERCE face voids the card (R-ADD-98).

    >>> DefenceEffect(2).as_dict()
    {'kind': 'defence', 'amount': 2}
    """

    kind: ClassVar[str] = "defence"
    amount: int = field(metadata=bounded(1, 10, "R-DMG-3"))


@dataclass(frozen=True, slots=True)
class CounterEffect(StoredEffect):
    """ "Deal N damage to attacker (after attack resolves)": once the attack the reactive
    card answered has ended, its attacker takes N damage, choosing hand or deck as for any
    damage (R-DMG-6, R-ADD-58). A PIERCE face voids it with the rest of the card (R-DMG-4).

    >>> CounterEffect(2).as_dict()
    {'kind': 'counter', 'damage': 2}
    """

    kind: ClassVar[str] = "counter"
    damage: int = field(metadata=bounded(1, MAX_DAMAGE, "R-DMG-6"))


# What a ward acts on: every damage the casket takes, or attacks (of one kind) only.
WARD_AGAINST = ("all", "attacks", "ranged", "melee")

# When a ward lapses (R-ADD-93): the end of the turn it was raised in, the end of the round,
# the start of the owner's next turn (as card Defense, R-ADD-64), the end of the owner's next
# turn, or only once its uses are spent.
# "end_of_battle": "+2 Defense permanently this mission" (R-ADD-366).
WARD_UNTIL = (
    *("end_of_turn", "end_of_round", "next_turn", "end_of_next_turn", "used"),
    "end_of_battle",
)


class WardTerms:
    """What a ward does as an attack is declared, the same for a card's ward (`WardEffect`)
    and a ward in play (the battle state's `Ward`, R-ADD-93)."""

    __slots__ = ()
    defence: int
    to_hit: int
    damage: int

    @property
    def declared(self) -> bool:
        """It acts as an attack is declared (Defense, to-hit, damage), not on damage taken."""
        return (self.defence, self.to_hit, self.damage) != (0, 0, 0)


@dataclass(frozen=True, slots=True)
class WardEffect(WardTerms, StoredEffect):
    """A protection of the own casket lasting `until` (R-ADD-93): against attacks of the
    kind `against`, +`defence` blocks (R-DMG-3), +`to_hit` on their target number (R-HIT-1)
    and `damage` on their damage (R-DMG-1), as each is declared; then, on damage it
    takes (`against` "all": any damage), `reduce` off it and, when it is at least
    `at_least`, at most `cap` left (R-ADD-94). `uses` > 0: only the next that many
    attacks (or damages) it changes. `recover`: cards recovered each time it prevents
    damage (R-ADD-62). `immobile`: while it lasts the casket takes no move action (R-ADD-17).
    A Metamorph form's "−1 Defense" is a `defence` below 0, one block fewer; its "−1
    movement" a `move_cost` of 1 SP more per hex moved, and its "ignore terrain" moves
    paying 1 SP a hex whatever the terrain, while the ward lasts (R-ADD-362).

    >>> WardEffect("end_of_round", "all", reduce=2).as_dict()
    {'kind': 'ward', 'until': 'end_of_round', 'against': 'all', 'reduce': 2}
    >>> WardEffect("used", defence=3)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: ward.uses: a ward that lasts until used needs uses of 1 or more (R-ADD-93)
    >>> WardEffect("end_of_turn", "all", defence=1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: ward.against: defence, to_hit and damage act on attacks: not 'all' (R-ADD-93)
    """

    kind: ClassVar[str] = "ward"
    until: str
    against: str = field(default="attacks", metadata=WRITTEN)
    defence: int = 0
    to_hit: int = 0
    damage: int = 0
    reduce: int = 0
    cap: int | None = None
    at_least: int = 0
    uses: int = 0
    recover: int = 0
    immobile: bool = False
    move_cost: int = 0
    ignore_terrain: bool = False

    def __post_init__(self) -> None:
        check_choice(self.until, "ward.until", WARD_UNTIL)
        check_bool(self.immobile, "ward.immobile")
        check_bool(self.ignore_terrain, "ward.ignore_terrain")
        check_int(self.move_cost, "ward.move_cost", 0, 10, "R-ADD-362")
        check_choice(self.against, "ward.against", WARD_AGAINST)
        # Below 0: a form's "−1 Defense", one automatic block fewer (R-ADD-362).
        check_int(self.defence, "ward.defence", -10, 10, "R-DMG-3")
        check_int(self.to_hit, "ward.to_hit", 0, MAX_TO_HIT, "R-HIT-1")
        check_int(self.damage, "ward.damage", -MAX_DAMAGE, 0, "R-DMG-1")
        # Negative: "you take +1 damage from all sources" (R-ADD-96).
        check_int(self.reduce, "ward.reduce", -MAX_DAMAGE, MAX_DAMAGE, "R-ADD-94")
        if self.cap is not None:
            check_int(self.cap, "ward.cap", 0, MAX_DAMAGE, "R-ADD-94")
        check_int(self.at_least, "ward.at_least", 0, MAX_DAMAGE, "R-ADD-94")
        check_int(self.uses, "ward.uses", 0, 10, "R-ADD-93")
        check_int(self.recover, "ward.recover", 0, MAX_CARDS, "R-ADD-62")
        before = self.declared
        after = self.reduce != 0 or self.cap is not None
        moves = self.immobile or self.move_cost or self.ignore_terrain
        if not before and not after and not moves:
            raise InvalidInput("ward", "changes nothing", "R-ADD-93")
        if before and self.against == "all":
            raise InvalidInput(
                "ward.against", "defence, to_hit and damage act on attacks: not 'all'", "R-ADD-93"
            )
        if before and after and self.uses:
            raise InvalidInput(
                "ward.uses", "a ward with uses acts either as attacks are declared or on damage"
            )
        if self.until == "used" and not self.uses:
            raise InvalidInput(
                "ward.uses", "a ward that lasts until used needs uses of 1 or more", "R-ADD-93"
            )
        if self.at_least and self.cap is None:
            raise InvalidInput("ward.at_least", "only a cap applies from a threshold", "R-ADD-94")
        if self.recover and not after:
            raise InvalidInput("ward.recover", "only a ward that prevents damage recovers")


DEFENCE_OUTCOMES = ("took_damage", "prevented_at_least")


@dataclass(frozen=True, slots=True)
class AfterDefenceEffect(StoredEffect):
    """A reactive card's effects that wait for what it did (R-ADD-97): "if you took damage"
    from the attack it answered (after wards), or "if you block 3+ damage" (its own
    reduction prevented at least `n`). A PIERCE face voids them with the card (R-DMG-4).

    >>> from battles.engine.cards import RecoverEffect
    >>> AfterDefenceEffect("prevented_at_least", (RecoverEffect(1),), 3).as_dict()
    {'kind': 'after_defence', 'test': 'prevented_at_least', 'then': [{'kind': 'recover', 'n': 1}], 'n': 3}
    >>> AfterDefenceEffect("took_damage", (RecoverEffect(1),), 2)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: after_defence.n: 'took_damage' takes no threshold (R-ADD-97)
    """

    kind: ClassVar[str] = "after_defence"
    test: str
    then: tuple[Effect, ...]
    n: int = 0

    def __post_init__(self) -> None:
        check_choice(self.test, "after_defence.test", DEFENCE_OUTCOMES)
        if self.test == "prevented_at_least":
            check_int(self.n, "after_defence.n", 1, MAX_DAMAGE, "R-ADD-97")
        elif self.n:
            raise InvalidInput("after_defence.n", f"{self.test!r} takes no threshold", "R-ADD-97")
        check_inner(self.then, "after_defence.then", AFTER_KINDS)


@dataclass(frozen=True, slots=True)
class ThornsEffect(StoredEffect):
    """ "Attackers take N damage": each attack on the owner (`melee_only`: made with a Melee
    card) deals its attacker `damage` once it has ended, whatever its outcome, until the
    start of the owner's next turn (`until` "next_turn") or for the next such attack only
    ("next_attack") (R-ADD-130).

    >>> ThornsEffect(1, melee_only=True).as_dict()
    {'kind': 'thorns', 'damage': 1, 'melee_only': True, 'until': 'next_turn'}
    >>> ThornsEffect(2, until="forever")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: thorns.until: 'forever' is not one of: next_turn, next_attack
    """

    kind: ClassVar[str] = "thorns"
    damage: int
    melee_only: bool = field(default=False, metadata=WRITTEN)
    until: Literal["next_turn", "next_attack"] = field(default="next_turn", metadata=WRITTEN)

    def __post_init__(self) -> None:
        check_int(self.damage, "thorns.damage", 1, MAX_DAMAGE, "R-ADD-130")
        check_bool(self.melee_only, "thorns.melee_only")
        check_choice(self.until, "thorns.until", THORNS_UNTIL)
        if self.melee_only and self.until == "next_attack":
            # No card says "the next melee attacker": the next attacker is any attacker.
            raise InvalidInput(
                "thorns.melee_only", "the next attack's thorns answer any attack", "R-ADD-130"
            )


THORNS_UNTIL = ("next_turn", "next_attack")


@dataclass(frozen=True, slots=True)
class UnflankableEffect(StoredEffect):
    """ "Passive: You can see in 360° (cannot be flanked). Attacks against you from behind do
    not gain bonuses": once the card is in play, every attack on its owner comes from the
    owner's front (R-ARC-1, R-ARC-2, R-ADD-136).

    >>> UnflankableEffect().as_dict()
    {'kind': 'unflankable'}
    """

    kind: ClassVar[str] = "unflankable"


@dataclass(frozen=True, slots=True)
class RiposteEffect(StoredEffect):
    """ "After taking damage, immediately counterattack for 3 damage": R-ADD-58's
    counter-damage, dealt only when the attack the reactive card answered left the defender
    at least 1 damage to take (R-ADD-130).

    >>> RiposteEffect(3).as_dict()
    {'kind': 'riposte', 'damage': 3}
    """

    kind: ClassVar[str] = "riposte"
    damage: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-130"))


@dataclass(frozen=True, slots=True)
class RemoveDamageCardEffect(StoredEffect):
    """ "Remove 1 Damage card from target's discard pile from the game": the `n` Damage
    cards (R-TRN-6) most recently discarded leave the game, as many as the pile holds
    (R-ADD-124).

    >>> RemoveDamageCardEffect(1).as_dict()
    {'kind': 'remove_damage_card', 'n': 1}
    """

    kind: ClassVar[str] = "remove_damage_card"
    n: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-124"))


@dataclass(frozen=True, slots=True)
class UntargetableEffect(StoredEffect):
    """ "Cannot be targeted by attacks until your next turn": until the start of the
    owner's next turn no attack may name its casket as the target; `against` "ranged"
    refuses only attacks made with a card that is not Melee. `until_attack`: the
    owner's own next attack ends it ("attacking breaks invisibility") (R-ADD-155).

    >>> UntargetableEffect("ranged").as_dict()
    {'kind': 'untargetable', 'against': 'ranged'}
    >>> UntargetableEffect("melee")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: untargetable.against: 'melee' is not one of: all, ranged
    """

    kind: ClassVar[str] = "untargetable"
    against: Literal["all", "ranged"] = field(default="all", metadata=WRITTEN)
    until_attack: bool = False

    def __post_init__(self) -> None:
        check_choice(self.against, "untargetable.against", ("all", "ranged"))
        check_bool(self.until_attack, "untargetable.until_attack")


@dataclass(frozen=True, slots=True)
class PreventComponentDamageEffect(StoredEffect):
    """ "When you would take Component Damage, prevent 1 Component Damage": on a reactive
    card, the first Component Damage the attack it answers deals its owner (CRITICAL
    faces, R-DMG-4, or Primary Weapon cards discarded, R-DMG-6) is `n` less, once in that
    attack; a PIERCE face voids it with the card (R-REA-1, R-ADD-281). "Prevent it": `n`
    "all", that Component Damage whole (R-ADD-387).

    >>> PreventComponentDamageEffect(1).as_dict()
    {'kind': 'prevent_component_damage', 'n': 1}
    >>> PreventComponentDamageEffect("all").as_dict()
    {'kind': 'prevent_component_damage', 'n': 'all'}
    """

    kind: ClassVar[str] = "prevent_component_damage"
    n: int | Literal["all"]

    def __post_init__(self) -> None:
        if self.n != "all":
            check_int(self.n, "prevent_component_damage.n", 1, MAX_CARDS, "R-ADD-281")
