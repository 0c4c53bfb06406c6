"""Resources: Heat, Taint, tokens, SP, and the costs a casket pays from itself."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Literal

from ...errors import InvalidInput
from ...tohit import MAX_DAMAGE
from .base import WRITTEN, StoredEffect, bounded, check_bool, check_choice, check_inner, check_int
from .bounds import MAX_CARDS, MAX_HEAT, MAX_HEXES, MAX_TOKENS, STATUS_TARGETS, TOKEN_POOLS

if TYPE_CHECKING:
    from . import Effect

MAX_SUFFERING_DICE = 6


@dataclass(frozen=True, slots=True)
class HeatEffect(StoredEffect):
    """Gain (`amount` > 0) or remove (`amount` < 0) Heat; Heat never drops below 0.

    >>> HeatEffect(-2).as_dict()
    {'kind': 'heat', 'amount': -2}
    """

    kind: ClassVar[str] = "heat"
    amount: int

    def __post_init__(self) -> None:
        check_int(self.amount, "heat.amount", -MAX_HEAT, MAX_HEAT)
        if self.amount == 0:
            raise InvalidInput("heat.amount", "must not be 0: a heat effect changes Heat")


@dataclass(frozen=True, slots=True)
class RollSufferingEffect(StoredEffect):
    """Roll `n` suffering dice and apply each face (seed 001 §4).

    >>> RollSufferingEffect(2).as_dict()
    {'kind': 'roll_suffering', 'n': 2}
    """

    kind: ClassVar[str] = "roll_suffering"
    n: int = field(metadata=bounded(1, MAX_SUFFERING_DICE))


@dataclass(frozen=True, slots=True)
class GainTokensEffect(StoredEffect):
    """Gain `n` tokens of a named pool, never above `cap` (R-ADD-61).

    >>> GainTokensEffect("credit", 2).as_dict()
    {'kind': 'gain_tokens', 'pool': 'credit', 'n': 2}
    """

    kind: ClassVar[str] = "gain_tokens"
    pool: str
    n: int
    cap: int = MAX_TOKENS

    def __post_init__(self) -> None:
        check_choice(self.pool, "gain_tokens.pool", TOKEN_POOLS)
        check_int(self.n, "gain_tokens.n", 1, MAX_TOKENS, "R-ADD-61")
        check_int(self.cap, "gain_tokens.cap", 1, MAX_TOKENS, "R-ADD-61")


# What tokens cannot buy: these effects need the command's own fields (R-ADD-61).
_NOT_BOUGHT = ("attack", "spend_tokens", "move", "rotate", "follow_up", "area_attack")


@dataclass(frozen=True, slots=True)
class SpendTokensEffect(StoredEffect):
    """ "Spend N <tokens>: <more>": the player may spend (`spend: true` in the command)
    `n` tokens, or "all" they hold, for the effects in `then` and `damage_per_token` more
    damage on the card's attack per token spent. `required`: the card does nothing
    without the spend, so playing it needs the tokens (R-ADD-61). `per_token`: `then` is
    done once for each token spent ("for each token spent, recover 3 cards", R-ADD-420).

    >>> from battles.engine.cards import AttackBonusEffect
    >>> SpendTokensEffect("credit", 1, (AttackBonusEffect(1),)).as_dict()["then"]
    [{'kind': 'attack_bonus', 'damage': 1, 'to_hit': 0}]
    >>> SpendTokensEffect("credit", 1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: spend_tokens: spending buys nothing: give then or damage_per_token (R-ADD-61)
    """

    kind: ClassVar[str] = "spend_tokens"
    pool: str
    n: int | Literal["all"]
    then: tuple[Effect, ...] = ()
    damage_per_token: int = 0
    required: bool = False
    per_token: bool = False

    def __post_init__(self) -> None:
        check_choice(self.pool, "spend_tokens.pool", TOKEN_POOLS)
        check_bool(self.per_token, "spend_tokens.per_token")
        if self.per_token and not self.then:
            raise InvalidInput("spend_tokens.per_token", "needs then to repeat", "R-ADD-420")
        if self.n != "all":
            check_int(self.n, "spend_tokens.n", 1, MAX_TOKENS, "R-ADD-61")
        check_int(self.damage_per_token, "spend_tokens.damage_per_token", 0, 10, "R-DMG-1")
        check_bool(self.required, "spend_tokens.required")
        if not isinstance(self.then, tuple):
            raise InvalidInput("spend_tokens.then", "must be a tuple of effects")
        if not self.then and not self.damage_per_token:
            raise InvalidInput(
                "spend_tokens", "spending buys nothing: give then or damage_per_token", "R-ADD-61"
            )
        for i, e in enumerate(self.then):
            # By kind: the attack and movement families stay out of this module's imports.
            if getattr(e, "kind", None) in _NOT_BOUGHT:
                raise InvalidInput(
                    f"spend_tokens.then[{i}]",
                    f"{e.kind} cannot be bought with tokens (it needs the command's own fields)",
                    "R-ADD-61",
                )


@dataclass(frozen=True, slots=True)
class TaintEffect(StoredEffect):
    """The pilot of the own casket ("self") or of the attack's target ("target") gains
    `amount` Taint, or loses it when negative, never below 0 (R-PLT-4, R-ADD-66).
    `purge_all`: "purge all Taint from target" loses all of it (R-ADD-184).

    >>> TaintEffect(1, "target").as_dict()
    {'kind': 'taint', 'amount': 1, 'target': 'target'}
    >>> TaintEffect(-1, "target", purge_all=True).change(12)
    -12
    >>> TaintEffect(1, purge_all=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: taint.purge_all: purging removes Taint: give a negative amount (R-ADD-184)
    """

    kind: ClassVar[str] = "taint"
    amount: int
    target: Literal["self", "target"] = field(default="self", metadata=WRITTEN)
    # combos vocabulary: all the pilot's Taint goes, whatever `amount` says (R-ADD-184).
    purge_all: bool = False

    def __post_init__(self) -> None:
        check_int(self.amount, "taint.amount", -10, 10, "R-PLT-4")
        if self.amount == 0:
            raise InvalidInput("taint.amount", "must not be 0: a taint effect changes Taint")
        check_choice(self.target, "taint.target", STATUS_TARGETS)
        check_bool(self.purge_all, "taint.purge_all")
        if self.purge_all and self.amount > 0:
            raise InvalidInput(
                "taint.purge_all", "purging removes Taint: give a negative amount", "R-ADD-184"
            )

    def change(self, taint: int) -> int:
        """The change it makes to a pilot's `taint` (before R-ADD-66's floor at 0)."""
        return -taint if self.purge_all else self.amount


@dataclass(frozen=True, slots=True)
class RemoveHeatRolledEffect(StoredEffect):
    """Remove `d3` × 1d3 Heat, each 1d3 a d6 halved and rounded up; the roll is in an
    event (R-ADD-67).

    >>> RemoveHeatRolledEffect(1).as_dict()
    {'kind': 'remove_heat_rolled', 'd3': 1}
    """

    kind: ClassVar[str] = "remove_heat_rolled"
    d3: int = field(metadata=bounded(1, 6, "R-ADD-67"))


@dataclass(frozen=True, slots=True)
class RemoveTaintRolledEffect(StoredEffect):
    """ "Remove 1d3 Taint from yourself. Recover 1 card from discard pile per Taint
    removed": `d3` × 1d3 (R-ADD-67's d6 halved) off the own pilot's Taint, never below 0,
    then `recover_per` cards recovered (R-ADD-62) per point actually removed (R-ADD-82).

    >>> RemoveTaintRolledEffect(1, recover_per=1).as_dict()
    {'kind': 'remove_taint_rolled', 'd3': 1, 'recover_per': 1}
    """

    kind: ClassVar[str] = "remove_taint_rolled"
    d3: int = field(metadata=bounded(1, 6, "R-ADD-67"))
    recover_per: int = field(default=0, metadata=bounded(0, 3, "R-ADD-82"))


@dataclass(frozen=True, slots=True)
class SpLockEffect(StoredEffect):
    """ "Next turn, you have 0 SP (cannot act). Alternates each turn: Full SP, then 0 SP,
    then full SP, etc. Lasts 3 turns total.": the owner's next `turns` turns alternate,
    the first of them locked: in a locked turn the casket has 0 SP and takes no action
    but passing; its other turns are as usual. It is the price a cost printed "0 SP (but
    costs future actions)" names, so the card costs 0 SP (R-ADD-343).

    >>> SpLockEffect(3).as_dict()
    {'kind': 'sp_lock', 'turns': 3}
    >>> SpLockEffect(3).pattern()
    (True, False, True)
    """

    kind: ClassVar[str] = "sp_lock"
    turns: int

    def __post_init__(self) -> None:
        check_int(self.turns, "sp_lock.turns", 1, 10, "R-ADD-343")

    def pattern(self) -> tuple[bool, ...]:
        """Each of the owner's next turns: locked (True) or as usual, the next one first."""
        return tuple(i % 2 == 0 for i in range(self.turns))


@dataclass(frozen=True, slots=True)
class GainSpEffect(StoredEffect):
    """ "Gain +N SP this turn", "Recover N SP": N more SP to spend this turn, without raising
    the overspend limit's maximum (R-TRN-3, R-ADD-95).

    >>> GainSpEffect(3).as_dict()
    {'kind': 'gain_sp', 'amount': 3}
    """

    kind: ClassVar[str] = "gain_sp"
    amount: int = field(metadata=bounded(1, 10, "R-ADD-95"))


GIVE_HEAT_TO = ("target", "attacker")


@dataclass(frozen=True, slots=True)
class GiveHeatEffect(StoredEffect):
    """Another casket gains `amount` Heat (R-ADD-143): the attack's target, after a hit
    ("Deal 2 damage, target gains 1 Heat": inside `after_attack`), or, on a reactive card,
    the attacker once the attack it answers has ended ("attacker gains 1 Heat").

    >>> GiveHeatEffect(2).as_dict()
    {'kind': 'give_heat', 'amount': 2, 'to': 'target'}
    >>> GiveHeatEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: give_heat.amount: must be an integer from 1 to 20, got 0 (R-ADD-143)
    """

    kind: ClassVar[str] = "give_heat"
    amount: int
    to: Literal["target", "attacker"] = field(default="target", metadata=WRITTEN)

    def __post_init__(self) -> None:
        check_int(self.amount, "give_heat.amount", 1, MAX_HEAT, "R-ADD-143")
        check_choice(self.to, "give_heat.to", GIVE_HEAT_TO)


@dataclass(frozen=True, slots=True)
class SpendTaintEffect(StoredEffect):
    """ "Spend N Taint: <more>": with `spend: true` in the command the player removes `n`
    Taint, or "all" there is, from the own pilot, or, where `whose` is "either" ("yours
    or target's"), from the attack target's pilot when the command says `taint_from:
    "target"`; it buys the effects in `then` and `damage_per_taint` more damage on the
    card's attack per Taint spent (R-ADD-145). On a card without an attack the spend buys
    a move, a later attack's enhancement or Heat (Void Step, Tainted Fury, R-ADD-290);
    `required`: the card does nothing without its spend, which is its price. `whose`
    "enemy" ("Spend 1 enemy Taint Marker: Target gains +1 Heat"): paid by the command's
    `target`, an enemy in the battle, on whom what it buys then acts (R-ADD-294).

    >>> from battles.engine.cards import AttackBonusEffect
    >>> SpendTaintEffect(2, "either", (AttackBonusEffect(2),)).as_dict()
    {'kind': 'spend_taint', 'n': 2, 'whose': 'either', 'then': [{'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0}]}
    >>> SpendTaintEffect(1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: spend_taint: spending buys nothing: give then or damage_per_taint (R-ADD-145)
    >>> SpendTaintEffect(1, "enemy", (GiveHeatEffect(1),), required=True).as_dict()["whose"]
    'enemy'
    >>> SpendTaintEffect(1, "self", (GiveHeatEffect(1),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: spend_taint.then[0]: must be one of: attack_bonus, reduce_incoming, move, enhance_next_attack (R-ADD-290)
    """

    kind: ClassVar[str] = "spend_taint"
    n: int | Literal["all"]
    whose: Literal["self", "either", "enemy"] = field(default="self", metadata=WRITTEN)
    then: tuple[Effect, ...] = ()
    damage_per_taint: int = 0
    required: bool = False

    def __post_init__(self) -> None:
        check_bool(self.required, "spend_taint.required")
        if self.n != "all":
            check_int(self.n, "spend_taint.n", 1, 10, "R-ADD-145")
        check_choice(self.whose, "spend_taint.whose", ("self", "either", "enemy"))
        check_int(self.damage_per_taint, "spend_taint.damage_per_taint", 0, 10, "R-DMG-1")
        if not isinstance(self.then, tuple):
            raise InvalidInput("spend_taint.then", "must be a tuple of effects")
        if not self.then and not self.damage_per_taint:
            raise InvalidInput(
                "spend_taint", "spending buys nothing: give then or damage_per_taint", "R-ADD-145"
            )
        if self.whose == "enemy":
            # R-ADD-294: what the enemy's own Taint buys acts on that enemy.
            if not self.required or self.damage_per_taint:
                raise InvalidInput(
                    "spend_taint.whose",
                    "an enemy's Taint is the card's price and buys what acts on that enemy",
                    "R-ADD-294",
                )
            check_inner(
                self.then,
                "spend_taint.then",
                # R-ADD-412: a forced reroll of that enemy's defence dice
                ("give_heat", "flip_wound", "bonus_against", "force_defence_reroll"),
                "R-ADD-294",
            )
        elif self.then:
            check_inner(
                self.then,
                "spend_taint.then",
                ("attack_bonus", "reduce_incoming", "move", "enhance_next_attack"),
                "R-ADD-290",
            )


@dataclass(frozen=True, slots=True)
class FlipWoundEffect(StoredEffect):
    """ "Target immediately flips 1 Pilot Wound card": the pilot of the casket the card
    acts on (an enemy whose Taint paid for it, R-ADD-294) flips `n` cards of its wound deck
    as any wound is flipped (R-PLT-1); the last one kills the pilot.

    >>> FlipWoundEffect(1).as_dict()
    {'kind': 'flip_wound', 'n': 1}
    """

    kind: ClassVar[str] = "flip_wound"
    n: int = field(metadata=bounded(1, 3, "R-PLT-1"))


@dataclass(frozen=True, slots=True)
class SpBoostEffect(StoredEffect):
    """ "Gain N SP immediately": `amount` more SP to spend this turn, free of overspending
    but not doubled by it; `maximum`: "+N SP maximum", this turn's maximum itself is
    raised (R-TRN-3, R-ADD-135).

    >>> SpBoostEffect(5).as_dict(), SpBoostEffect(1, maximum=True).as_dict()
    ({'kind': 'sp_boost', 'amount': 5}, {'kind': 'sp_boost', 'amount': 1, 'maximum': True})
    """

    kind: ClassVar[str] = "sp_boost"
    amount: int
    maximum: bool = False

    def __post_init__(self) -> None:
        check_int(self.amount, "sp_boost.amount", 1, 10, "R-ADD-135")
        check_bool(self.maximum, "sp_boost.maximum")


@dataclass(frozen=True, slots=True)
class HeatCapacityEffect(StoredEffect):
    """ "You can have up to 12 Heat before overheating (instead of 10)": once the card is in
    play, its owner's strain check is an automatic critical failure only from `heat` Heat
    on, and rolls below it (R-TRN-4, R-ADD-136).

    >>> HeatCapacityEffect(12).as_dict()
    {'kind': 'heat_capacity', 'heat': 12}
    """

    kind: ClassVar[str] = "heat_capacity"
    heat: int = field(metadata=bounded(11, MAX_HEAT, "R-ADD-136"))


@dataclass(frozen=True, slots=True)
class TaintCounterEffect(StoredEffect):
    """ "Spend 1 Taint: Deal 4 damage instead" on a reactive card's counter-damage: the
    player may (`spend: true`) lower the own pilot's Taint by `n` for `counter` more
    counter-damage (R-PLT-4, R-ADD-58, R-ADD-130).

    >>> TaintCounterEffect(1, 2).as_dict()
    {'kind': 'taint_counter', 'n': 1, 'counter': 2}
    """

    kind: ClassVar[str] = "taint_counter"
    n: int = field(metadata=bounded(1, 10, "R-ADD-130"))
    counter: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-130"))


@dataclass(frozen=True, slots=True)
class SelfDamageEffect(StoredEffect):
    """ "You also take 2 damage (…). Spend 2 Bargain tokens to negate self-damage": the
    attacker takes `amount` damage once its card's attack has ended, unless the player
    spent (`spend: true`) `avoid_n` tokens of `avoid_pool` as the card was played
    (R-DMG-8, R-ADD-61, R-ADD-130).

    >>> SelfDamageEffect(2, "bargain", 2).as_dict()
    {'kind': 'self_damage', 'amount': 2, 'avoid_pool': 'bargain', 'avoid_n': 2}
    """

    kind: ClassVar[str] = "self_damage"
    amount: int
    avoid_pool: str
    avoid_n: int

    def __post_init__(self) -> None:
        check_int(self.amount, "self_damage.amount", 1, MAX_DAMAGE, "R-ADD-130")
        check_choice(self.avoid_pool, "self_damage.avoid_pool", TOKEN_POOLS)
        check_int(self.avoid_n, "self_damage.avoid_n", 1, MAX_TOKENS, "R-ADD-61")


@dataclass(frozen=True, slots=True)
class TakeDamageEffect(StoredEffect):
    """ "Take 2 damage, recover 6 cards from discard pile, …" on a card without an attack:
    the player's own casket takes `amount` damage as the card resolves, before the effects
    printed after it, split as the player names it with the card: the command's `discard`
    lists the hand cards it takes, the rest come from the top of the deck (R-DMG-6, R-DMG-8,
    R-ADD-431).

    >>> TakeDamageEffect(2).as_dict()
    {'kind': 'take_damage', 'amount': 2}
    """

    kind: ClassVar[str] = "take_damage"
    amount: int = field(metadata=bounded(1, MAX_DAMAGE, "R-ADD-431"))


@dataclass(frozen=True, slots=True)
class DamageBargainEffect(StoredEffect):
    """ "Enemy may discard 2 cards from hand to reduce damage to 2": when the card's attack
    hits (not an EXECUTION), its target is asked (prompt `bargain`, answered by `choose`)
    whether it discards `cards` cards of its hand to make the hit's damage `damage`,
    before the reactive window (R-ADD-159).

    >>> DamageBargainEffect(2, 2).as_dict()
    {'kind': 'damage_bargain', 'cards': 2, 'damage': 2}
    """

    kind: ClassVar[str] = "damage_bargain"
    cards: int = field(metadata=bounded(1, MAX_CARDS, "R-ADD-159"))
    damage: int = field(metadata=bounded(0, MAX_DAMAGE, "R-ADD-159"))


@dataclass(frozen=True, slots=True)
class ForfeitTokensEffect(StoredEffect):
    """ "Spend all Forge tokens." as a card's price, buying nothing it names: every token of
    `pool` the casket holds goes as the card is played, none needed (R-ADD-175).

    >>> ForfeitTokensEffect("forge").as_dict()
    {'kind': 'forfeit_tokens', 'pool': 'forge'}
    """

    kind: ClassVar[str] = "forfeit_tokens"
    pool: str

    def __post_init__(self) -> None:
        check_choice(self.pool, "forfeit_tokens.pool", TOKEN_POOLS)


@dataclass(frozen=True, slots=True)
class TaintAuraEffect(StoredEffect):
    """ "Enemies within 3 hexes gain +1 Taint per turn": a passive; once played the card
    stays in play, and each enemy casket within `within` hexes of its owner as the enemy's
    own turn starts gains `amount` Taint (R-ADD-66, R-ADD-296, as R-ADD-88 reads a damage
    aura).

    >>> TaintAuraEffect(1, 3).as_dict()
    {'kind': 'taint_aura', 'amount': 1, 'within': 3}
    """

    kind: ClassVar[str] = "taint_aura"
    amount: int = field(metadata=bounded(1, 5, "R-ADD-296"))
    within: int = field(metadata=bounded(1, MAX_HEXES, "R-ADD-296"))
