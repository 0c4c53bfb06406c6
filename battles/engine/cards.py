"""Card definitions: the project's card format, a small effect vocabulary, and the database import.

A `CardDef` is what the engine plays. Its `effects` are a short list of declarative
steps the engine runs in order (attack, move, rotate, Heat, draw, discard, buffs,
reactive damage reduction, suffering dice, statuses). Anything a card's text says
beyond them is left to the players: such a card is *manual* (`automated` false) and
the engine shows its text while still running the structured part.

`derive_from_database` turns one entry of the game's card database into a `CardDef`
using only the entry's fields, never by reading meaning into the free text: an
attack's range and damage become an `attack` effect, and the card is automated only
when its text is no more than that attack.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, ClassVar, Literal

from .errors import InvalidInput
from .ruleset import Ruleset
from .tohit import MAX_DAMAGE, WeaponRange, parse_range

# "behaviour": a support unit's behaviour card (its AI draws them), never a casket deck's (R-ADD-52).
CARD_KINDS = (
    "primary_weapon",
    "secondary",
    "universal",
    "reactive",
    "damage",
    "other",
    "behaviour",
)
DISCARD_SOURCES = ("hand", "deck", "choice")
STATUS_TARGETS = ("self", "target")
# The statuses the to-hit calculation reads (R-COV-4, R-HIT-6): nothing else can be applied.
STATUSES = ("obscured", "stunned", "immobilised", "aiming")
# Small bounds: they catch typos ("40" for "4") without restricting any real card.
MAX_HEXES = 20
MAX_HEAT = 20
MAX_CARDS = 30
MAX_SUFFERING_DICE = 6
MAX_TO_HIT = 10
# R-TRN-1: the casket deck size of each ruleset version (seed 002 "30-card Casket HP decks").
DECK_SIZE: Mapping[str, int] = MappingProxyType({"2.0": 30, "2.1": 30})  # R-TRN-1

_SLUG_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


# --- validation helpers ------------------------------------------------------------------------


@contextmanager
def _rebased(path: str, own: str) -> Iterator[None]:
    """Re-raise an InvalidInput raised under the prefix `own` under `path` instead.

    Values validate themselves on construction with a generic prefix ("card", "move");
    a parser that knows where the value sits in a document rebases the field path.
    """
    try:
        yield
    except InvalidInput as err:
        field = err.field
        if field == own or field.startswith((own + ".", own + "[")):
            raise InvalidInput(path + field[len(own) :], err.message, err.rule) from None
        raise


def _check_int(value: object, field: str, low: int, high: int, rule: str | None = None) -> None:
    # bool is an int subclass; JSON `true` must never pass for 1.
    if type(value) is not int or not low <= value <= high:
        raise InvalidInput(field, f"must be an integer from {low} to {high}, got {value!r}", rule)


def _check_bool(value: object, field: str) -> None:
    if not isinstance(value, bool):
        raise InvalidInput(field, f"must be true or false, got {value!r}")


def _check_choice(value: object, field: str, allowed: Sequence[str]) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidInput(field, f"{value!r} is not one of: {', '.join(allowed)}")


# --- the effect vocabulary ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AttackEffect:
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
        _check_int(self.damage, "attack.damage", 0, MAX_DAMAGE, "R-DMG-1")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "range": self.range.text, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class MoveEffect:
    """Move up to `hexes` hexes (each step legal as R-TRN-5 and R-LOS-5 say).

    >>> MoveEffect(2).as_dict()
    {'kind': 'move', 'hexes': 2}
    """

    kind: ClassVar[str] = "move"
    hexes: int
    # "in a straight line": every step in one direction (R-ADD-63).
    line: bool = False

    def __post_init__(self) -> None:
        _check_int(self.hexes, "move.hexes", 1, MAX_HEXES, "R-TRN-5")
        _check_bool(self.line, "move.line")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes}
        if self.line:
            out["line"] = True
        return out


@dataclass(frozen=True, slots=True)
class RotateEffect:
    """Rotate up to `steps` 60° turns either way, or to any facing ("any"), at no SP (R-ARC-5).

    Three steps reach every facing; "any" says the same thing the way card texts do.

    >>> RotateEffect("any").as_dict(), RotateEffect(1).steps
    ({'kind': 'rotate', 'steps': 'any'}, 1)
    """

    kind: ClassVar[str] = "rotate"
    steps: int | Literal["any"]
    # "You may rotate": without a facing the card does not turn (R-ADD-63).
    optional: bool = False

    def __post_init__(self) -> None:
        if self.steps != "any":
            _check_int(self.steps, "rotate.steps", 1, 3, "R-ARC-5")
        _check_bool(self.optional, "rotate.optional")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "steps": self.steps}
        if self.optional:
            out["optional"] = True
        return out


@dataclass(frozen=True, slots=True)
class HeatEffect:
    """Gain (`amount` > 0) or remove (`amount` < 0) Heat; Heat never drops below 0.

    >>> HeatEffect(-2).as_dict()
    {'kind': 'heat', 'amount': -2}
    """

    kind: ClassVar[str] = "heat"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "heat.amount", -MAX_HEAT, MAX_HEAT)
        if self.amount == 0:
            raise InvalidInput("heat.amount", "must not be 0: a heat effect changes Heat")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class DrawEffect:
    """Draw `n` cards, one at a time as R-TRN-6 draws.

    >>> DrawEffect(2).as_dict()
    {'kind': 'draw', 'n': 2}
    """

    kind: ClassVar[str] = "draw"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "draw.n", 1, MAX_CARDS, "R-TRN-6")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class DiscardEffect:
    """Discard `n` cards from the hand, the top of the deck, or the player's choice of split.

    >>> DiscardEffect(1, "deck").as_dict()
    {'kind': 'discard', 'n': 1, 'source': 'deck'}
    """

    kind: ClassVar[str] = "discard"
    n: int
    source: Literal["hand", "deck", "choice"]

    def __post_init__(self) -> None:
        _check_int(self.n, "discard.n", 1, MAX_CARDS)
        _check_choice(self.source, "discard.source", DISCARD_SOURCES)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "source": self.source}


@dataclass(frozen=True, slots=True)
class BuffNextAttackEffect:
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
    damage: int = 0
    to_hit: int = 0
    # "all": every block is cancelled, rolled or automatic (R-DMG-3, R-ADD-60).
    ignore_defence: int | Literal["all"] = 0

    def __post_init__(self) -> None:
        _check_int(self.damage, "buff_next_attack.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.to_hit, "buff_next_attack.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if self.ignore_defence != "all":
            _check_int(
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "damage": self.damage,
            "to_hit": self.to_hit,
            "ignore_defence": self.ignore_defence,
        }


@dataclass(frozen=True, slots=True)
class ReduceIncomingEffect:
    """Reduce the damage of the attack this reactive card answers by `amount` (R-REA-1).

    >>> ReduceIncomingEffect(2).as_dict(), ReduceIncomingEffect(2, minimum=1).as_dict()
    ({'kind': 'reduce_incoming', 'amount': 2}, {'kind': 'reduce_incoming', 'amount': 2, 'minimum': 1})
    """

    kind: ClassVar[str] = "reduce_incoming"
    amount: int
    # "Reduce damage by N (minimum 1)": the reduction never takes a hit below this (R-ADD-58).
    minimum: int = 0

    def __post_init__(self) -> None:
        _check_int(self.amount, "reduce_incoming.amount", 1, MAX_DAMAGE, "R-REA-1")
        _check_int(self.minimum, "reduce_incoming.minimum", 0, 1, "R-ADD-58")

    def as_dict(self) -> dict[str, Any]:
        # `minimum` only when set, so every card written before R-ADD-58 keeps its form.
        out: dict[str, Any] = {"kind": self.kind, "amount": self.amount}
        if self.minimum:
            out["minimum"] = self.minimum
        return out


@dataclass(frozen=True, slots=True)
class RollSufferingEffect:
    """Roll `n` suffering dice and apply each face (seed 001 §4).

    >>> RollSufferingEffect(2).as_dict()
    {'kind': 'roll_suffering', 'n': 2}
    """

    kind: ClassVar[str] = "roll_suffering"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "roll_suffering.n", 1, MAX_SUFFERING_DICE)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class StatusEffect:
    """Put a status the to-hit rules read on the player's casket or the target (R-COV-4, R-HIT-6).

    >>> StatusEffect("target", "obscured").as_dict()
    {'kind': 'status', 'target': 'target', 'status': 'obscured'}
    """

    kind: ClassVar[str] = "status"
    target: Literal["self", "target"]
    status: Literal["obscured", "stunned", "immobilised", "aiming"]

    def __post_init__(self) -> None:
        _check_choice(self.target, "status.target", STATUS_TARGETS)
        _check_choice(self.status, "status.status", STATUSES)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "target": self.target, "status": self.status}


# --- the vocabulary the real cards need (issue 17) ---------------------------------------------

# Named token pools a casket keeps during a battle (R-ADD-61): the factions' resources.
TOKEN_POOLS = ("forge", "credit", "biomass", "soul_shard", "bargain", "metamorph", "rune")
MAX_TOKENS = 99
# Conditions an attack bonus may test, all read from the battle state when the attack card
# is played (R-ADD-59). `n` is the threshold; `pool` and `terrain` name what is counted.
CONDITIONS = (
    "own_heat_at_least",
    "own_tokens_at_least",
    "own_component_damage_at_least",
    "moved_this_turn",
    "standing_in",
    "target_hp_at_most",
    "target_moved_last_turn",
    "target_taint_at_least",
    # R-ADD-74: "enemies with 15 or fewer cards remaining in their deck" (the deck only,
    # not the HP of R-DMG-9); "when adjacent to 2+ allies" (the attacker's own side).
    "target_deck_at_most",
    "own_adjacent_allies_at_least",
    # R-ADD-75: "if outnumbered (2+ enemies within 6 hexes)": `n` enemies within `within`.
    "enemies_within_at_least",
)
_CONDITIONS_WITH_N = frozenset(CONDITIONS) - {
    "moved_this_turn",
    "standing_in",
    "target_moved_last_turn",
}


@dataclass(frozen=True, slots=True)
class Condition:
    """A test of the battle state an attack bonus depends on (R-ADD-59).

    >>> Condition("own_tokens_at_least", 3, pool="forge").as_dict()
    {'test': 'own_tokens_at_least', 'n': 3, 'pool': 'forge'}
    >>> Condition("own_tokens_at_least", 3)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: condition.pool: 'own_tokens_at_least' counts a pool: give one of forge, credit, biomass, soul_shard, bargain, metamorph, rune (R-ADD-61)
    """

    test: str
    n: int = 0
    pool: str | None = None
    terrain: str | None = None
    within: int = 0

    def __post_init__(self) -> None:
        _check_choice(self.test, "condition.test", CONDITIONS)
        if self.test == "enemies_within_at_least":
            _check_int(self.within, "condition.within", 1, MAX_HEXES, "R-RNG-3")
        elif self.within:
            raise InvalidInput("condition.within", f"{self.test!r} counts no hexes", "R-ADD-75")
        if self.test in _CONDITIONS_WITH_N:
            _check_int(self.n, "condition.n", 1, MAX_TOKENS, "R-ADD-59")
        elif self.n:
            raise InvalidInput("condition.n", f"{self.test!r} takes no threshold", "R-ADD-59")
        if (self.test == "own_tokens_at_least") != (self.pool is not None):
            raise InvalidInput(
                "condition.pool",
                f"{self.test!r} counts a pool: give one of {', '.join(TOKEN_POOLS)}"
                if self.pool is None
                else f"{self.test!r} counts no pool",
                "R-ADD-61",
            )
        if self.pool is not None:
            _check_choice(self.pool, "condition.pool", TOKEN_POOLS)
        if (self.test == "standing_in") != (self.terrain is not None):
            raise InvalidInput("condition.terrain", "only 'standing_in' names a terrain", "R-BRD-3")
        if self.terrain is not None and not _SLUG_RE.fullmatch(self.terrain):
            raise InvalidInput("condition.terrain", f"{self.terrain!r} is not a terrain name")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"test": self.test}
        if self.n:
            out["n"] = self.n
        if self.pool is not None:
            out["pool"] = self.pool
        if self.terrain is not None:
            out["terrain"] = self.terrain
        if self.within:
            out["within"] = self.within
        return out


def condition_from_dict(d: object, path: str) -> Condition:
    if not isinstance(d, Mapping):
        raise InvalidInput(path, "must be an object with a 'test'", "R-ADD-59")
    allowed = ("test", "n", "pool", "terrain", "within")
    unknown = [str(k) for k in d if k not in allowed]
    if unknown:
        raise InvalidInput(f"{path}.{unknown[0]}", f"unknown field; allowed: {', '.join(allowed)}")
    if "test" not in d:
        raise InvalidInput(f"{path}.test", "required", "R-ADD-59")
    with _rebased(path, "condition"):
        return Condition(
            d["test"], d.get("n", 0), d.get("pool"), d.get("terrain"), d.get("within", 0)
        )


@dataclass(frozen=True, slots=True)
class AttackBonusEffect:
    """This card's own attack gets +`damage` and `to_hit` (negative is easier) when
    `condition` holds as the card is played, or always without one (R-ADD-59): the
    "deal N damage instead" and "+N if …" of attack texts.

    >>> AttackBonusEffect(2, condition=Condition("own_heat_at_least", 3)).as_dict()
    {'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0, 'condition': {'test': 'own_heat_at_least', 'n': 3}}
    """

    kind: ClassVar[str] = "attack_bonus"
    damage: int = 0
    to_hit: int = 0
    condition: Condition | None = None

    def __post_init__(self) -> None:
        _check_int(self.damage, "attack_bonus.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.to_hit, "attack_bonus.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if (self.damage, self.to_hit) == (0, 0):
            raise InvalidInput("attack_bonus", "changes nothing: give damage or to_hit", "R-ADD-59")
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("attack_bonus.condition", "must be a condition", "R-ADD-59")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "damage": self.damage, "to_hit": self.to_hit}
        if self.condition is not None:
            out["condition"] = self.condition.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class GainTokensEffect:
    """Gain `n` tokens of a named pool, never above `cap` (R-ADD-61).

    >>> GainTokensEffect("credit", 2).as_dict()
    {'kind': 'gain_tokens', 'pool': 'credit', 'n': 2}
    """

    kind: ClassVar[str] = "gain_tokens"
    pool: str
    n: int
    cap: int = MAX_TOKENS

    def __post_init__(self) -> None:
        _check_choice(self.pool, "gain_tokens.pool", TOKEN_POOLS)
        _check_int(self.n, "gain_tokens.n", 1, MAX_TOKENS, "R-ADD-61")
        _check_int(self.cap, "gain_tokens.cap", 1, MAX_TOKENS, "R-ADD-61")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "pool": self.pool, "n": self.n}
        if self.cap != MAX_TOKENS:
            out["cap"] = self.cap
        return out


@dataclass(frozen=True, slots=True)
class SpendTokensEffect:
    """ "Spend N <tokens>: <more>": the player may spend (`spend: true` in the command)
    `n` tokens, or "all" they hold, for the effects in `then` and `damage_per_token` more
    damage on the card's attack per token spent. `required`: the card does nothing
    without the spend, so playing it needs the tokens (R-ADD-61).

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

    def __post_init__(self) -> None:
        _check_choice(self.pool, "spend_tokens.pool", TOKEN_POOLS)
        if self.n != "all":
            _check_int(self.n, "spend_tokens.n", 1, MAX_TOKENS, "R-ADD-61")
        _check_int(self.damage_per_token, "spend_tokens.damage_per_token", 0, 10, "R-DMG-1")
        _check_bool(self.required, "spend_tokens.required")
        if not isinstance(self.then, tuple):
            raise InvalidInput("spend_tokens.then", "must be a tuple of effects")
        if not self.then and not self.damage_per_token:
            raise InvalidInput(
                "spend_tokens", "spending buys nothing: give then or damage_per_token", "R-ADD-61"
            )
        for i, e in enumerate(self.then):
            if isinstance(
                e,
                AttackEffect
                | SpendTokensEffect
                | MoveEffect
                | RotateEffect
                | FollowUpEffect
                | AreaAttackEffect,
            ):
                raise InvalidInput(
                    f"spend_tokens.then[{i}]",
                    f"{e.kind} cannot be bought with tokens (it needs the command's own fields)",
                    "R-ADD-61",
                )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "pool": self.pool, "n": self.n}
        if self.then:
            out["then"] = [e.as_dict() for e in self.then]
        if self.damage_per_token:
            out["damage_per_token"] = self.damage_per_token
        if self.required:
            out["required"] = True
        return out


@dataclass(frozen=True, slots=True)
class RecoverEffect:
    """Take the `n` most recently discarded cards from the discard pile back into the
    hand, as many as there are (R-ADD-62).

    >>> RecoverEffect(2).as_dict()
    {'kind': 'recover', 'n': 2}
    """

    kind: ClassVar[str] = "recover"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "recover.n", 1, MAX_CARDS, "R-ADD-62")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class ShuffleInEffect:
    """Put the `n` most recently discarded cards, or "all", back into the deck and shuffle
    it (R-ADD-62); no Damage card is added, this is not R-TRN-6's reshuffle.

    >>> ShuffleInEffect("all").as_dict()
    {'kind': 'shuffle_in', 'n': 'all'}
    """

    kind: ClassVar[str] = "shuffle_in"
    n: int | Literal["all"]

    def __post_init__(self) -> None:
        if self.n != "all":
            _check_int(self.n, "shuffle_in.n", 1, MAX_CARDS, "R-ADD-62")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class DiscardChosenEffect:
    """ "Then discard N cards of your choice": after the card's other effects (a draw), the
    player is asked (prompt `discard`) which `n` cards of the hand to discard (R-ADD-62).
    It is the card's last effect.

    >>> DiscardChosenEffect(1).as_dict()
    {'kind': 'discard_chosen', 'n': 1}
    """

    kind: ClassVar[str] = "discard_chosen"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "discard_chosen.n", 1, MAX_CARDS, "R-ADD-62")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class DiscardHandEffect:
    """Discard the whole hand (the card itself is already in play) (R-ADD-14).

    >>> DiscardHandEffect().as_dict()
    {'kind': 'discard_hand'}
    """

    kind: ClassVar[str] = "discard_hand"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class DefenceEffect:
    """+`amount` Defense until the start of the player's next turn: that many automatic
    blocks against every attack on the casket (R-DMG-3, R-ADD-64).

    >>> DefenceEffect(2).as_dict()
    {'kind': 'defence', 'amount': 2}
    """

    kind: ClassVar[str] = "defence"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "defence.amount", 1, 10, "R-DMG-3")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class WhenEffect:
    """Run `then` only when `condition` holds as the card resolves (R-ADD-59): "If you
    have 3+ Metamorph tokens, draw 3 cards instead" is a draw of 2 and, when, 1 more.

    >>> WhenEffect(Condition("standing_in", terrain="lava"), (DrawEffect(1),)).as_dict()
    {'kind': 'when', 'condition': {'test': 'standing_in', 'terrain': 'lava'}, 'then': [{'kind': 'draw', 'n': 1}]}
    """

    kind: ClassVar[str] = "when"
    condition: Condition
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        if not isinstance(self.condition, Condition):
            raise InvalidInput("when.condition", "must be a condition", "R-ADD-59")
        _check_inner(self.then, "when.then", (*_AFTER_KINDS, "reduce_incoming"))

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "condition": self.condition.as_dict(),
            "then": [e.as_dict() for e in self.then],
        }


@dataclass(frozen=True, slots=True)
class AfterAttackEffect:
    """Effects of an attack card that wait for its outcome (R-ADD-65): on "hit" when the
    attack hits (EXECUTION included), on "kill" when its target is defeated by the time
    the attack ends ("If this destroys an enemy, gain 3 Soul Shards"), on "end" whatever
    the outcome ("move 1 hex after").

    >>> AfterAttackEffect("kill", (GainTokensEffect("soul_shard", 3),)).as_dict()
    {'kind': 'after_attack', 'on': 'kill', 'then': [{'kind': 'gain_tokens', 'pool': 'soul_shard', 'n': 3}]}
    """

    kind: ClassVar[str] = "after_attack"
    on: Literal["hit", "kill", "end"]
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        _check_choice(self.on, "after_attack.on", ("hit", "kill", "end"))
        _check_inner(self.then, "after_attack.then", (*_AFTER_KINDS, "grant_move"))

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "on": self.on, "then": [e.as_dict() for e in self.then]}


@dataclass(frozen=True, slots=True)
class TaintEffect:
    """The pilot of the own casket ("self") or of the attack's target ("target") gains
    `amount` Taint, or loses it when negative, never below 0 (R-PLT-4, R-ADD-66).

    >>> TaintEffect(1, "target").as_dict()
    {'kind': 'taint', 'amount': 1, 'target': 'target'}
    """

    kind: ClassVar[str] = "taint"
    amount: int
    target: Literal["self", "target"] = "self"

    def __post_init__(self) -> None:
        _check_int(self.amount, "taint.amount", -10, 10, "R-PLT-4")
        if self.amount == 0:
            raise InvalidInput("taint.amount", "must not be 0: a taint effect changes Taint")
        _check_choice(self.target, "taint.target", STATUS_TARGETS)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "target": self.target}


@dataclass(frozen=True, slots=True)
class HinderEffect:
    """The attack's target gets +`to_hit` on the target number of its next attack: "target
    has −1 to their next attack roll" (R-HIT-1, R-ADD-65). Used after a hit, or on a card
    without an attack: then the command's `target`, an enemy within the card's range.

    >>> HinderEffect(1).as_dict()
    {'kind': 'hinder', 'to_hit': 1}
    """

    kind: ClassVar[str] = "hinder"
    to_hit: int

    def __post_init__(self) -> None:
        _check_int(self.to_hit, "hinder.to_hit", 1, MAX_TO_HIT, "R-HIT-1")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "to_hit": self.to_hit}


@dataclass(frozen=True, slots=True)
class GrantMoveEffect:
    """ "Move up to N hexes after the attack": the owner may make one move of up to
    `hexes` hexes at no SP later this turn (`move` with `free: true`) (R-ADD-69).

    >>> GrantMoveEffect(2).as_dict()
    {'kind': 'grant_move', 'hexes': 2}
    """

    kind: ClassVar[str] = "grant_move"
    hexes: int

    def __post_init__(self) -> None:
        _check_int(self.hexes, "grant_move.hexes", 1, MAX_HEXES, "R-ADD-69")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "hexes": self.hexes}


@dataclass(frozen=True, slots=True)
class IgnoreCoverEffect:
    """The card's own attack ignores cover: its R-COV-2 target-number modifier is
    cancelled (R-ADD-60).

    >>> IgnoreCoverEffect().as_dict()
    {'kind': 'ignore_cover'}
    """

    kind: ClassVar[str] = "ignore_cover"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class RemoveHeatRolledEffect:
    """Remove `d3` × 1d3 Heat, each 1d3 a d6 halved and rounded up; the roll is in an
    event (R-ADD-67).

    >>> RemoveHeatRolledEffect(1).as_dict()
    {'kind': 'remove_heat_rolled', 'd3': 1}
    """

    kind: ClassVar[str] = "remove_heat_rolled"
    d3: int

    def __post_init__(self) -> None:
        _check_int(self.d3, "remove_heat_rolled.d3", 1, 6, "R-ADD-67")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "d3": self.d3}


@dataclass(frozen=True, slots=True)
class SpPenaltyEffect:
    """ "Target has −N SP next turn": the target's next SP restore is N lower (R-TRN-3,
    R-ADD-65). Used after a hit.

    >>> SpPenaltyEffect(2).as_dict()
    {'kind': 'sp_penalty', 'amount': 2}
    """

    kind: ClassVar[str] = "sp_penalty"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "sp_penalty.amount", 1, 6, "R-TRN-3")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class DamageNextTurnEffect:
    """ "Target takes N additional damage at the start of their next turn" (poison, fire):
    a hit schedules `amount` damage the target takes when its next turn starts, without
    an attack (R-ADD-73). Used after a hit.

    >>> DamageNextTurnEffect(2).as_dict()
    {'kind': 'damage_next_turn', 'amount': 2}
    """

    kind: ClassVar[str] = "damage_next_turn"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "damage_next_turn.amount", 1, MAX_DAMAGE, "R-ADD-73")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class WindowEffect:
    """A reactive card's window narrower than "targeted by an attack": "Play when attacked
    in melee" answers only an attack made with a Melee card (R-RNG-2, R-ADD-58).

    >>> WindowEffect("melee").as_dict()
    {'kind': 'window', 'attack': 'melee'}
    """

    kind: ClassVar[str] = "window"
    attack: Literal["melee"]

    def __post_init__(self) -> None:
        _check_choice(self.attack, "window.attack", ("melee",))

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "attack": self.attack}


@dataclass(frozen=True, slots=True)
class CounterEffect:
    """ "Deal N damage to attacker (after attack resolves)": once the attack the reactive
    card answered has ended, its attacker takes N damage, choosing hand or deck as for any
    damage (R-DMG-6, R-ADD-58). A PIERCE face voids it with the rest of the card (R-DMG-4).

    >>> CounterEffect(2).as_dict()
    {'kind': 'counter', 'damage': 2}
    """

    kind: ClassVar[str] = "counter"
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.damage, "counter.damage", 1, MAX_DAMAGE, "R-DMG-6")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "damage": self.damage}


MAX_SEEDS = 4  # Thorn Strike: "max 4 seeds per hex"


@dataclass(frozen=True, slots=True)
class PlantSeedsEffect:
    """Plant `n` Thornvine seeds in the attack target's hex, at most 4 a hex (R-ADD-66).
    Used after a hit.

    >>> PlantSeedsEffect(2).as_dict()
    {'kind': 'plant_seeds', 'n': 2}
    """

    kind: ClassVar[str] = "plant_seeds"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "plant_seeds.n", 1, MAX_SEEDS, "R-ADD-66")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class DetonateSeedsEffect:
    """Every seeded hex with an enemy casket in it deals `per_seed` damage a seed, at most
    `max_per_hex`, to that casket; then every seed on the board is cleared (R-ADD-66).

    >>> DetonateSeedsEffect(2, 8).as_dict()
    {'kind': 'detonate_seeds', 'per_seed': 2, 'max_per_hex': 8}
    """

    kind: ClassVar[str] = "detonate_seeds"
    per_seed: int
    max_per_hex: int

    def __post_init__(self) -> None:
        _check_int(self.per_seed, "detonate_seeds.per_seed", 1, 10, "R-ADD-66")
        _check_int(self.max_per_hex, "detonate_seeds.max_per_hex", 1, MAX_DAMAGE, "R-ADD-66")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "per_seed": self.per_seed, "max_per_hex": self.max_per_hex}


@dataclass(frozen=True, slots=True)
class LimitEffect:
    """ "Once per turn / round / mission": the card may be played `n` times per period;
    a battle is the mission's fight, so "mission" is the battle (R-ADD-63).

    >>> LimitEffect("round").as_dict()
    {'kind': 'limit', 'per': 'round', 'n': 1}
    """

    kind: ClassVar[str] = "limit"
    per: Literal["turn", "round", "battle"]
    n: int = 1

    def __post_init__(self) -> None:
        _check_choice(self.per, "limit.per", ("turn", "round", "battle"))
        _check_int(self.n, "limit.n", 1, 10, "R-ADD-63")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "per": self.per, "n": self.n}


@dataclass(frozen=True, slots=True)
class RemoveFromGameEffect:
    """ "Remove this card from game after use": once the card has resolved (its attack or
    the attack it answered has ended), it goes to the seat's removed cards, not the discard
    pile (R-ADD-70).

    >>> RemoveFromGameEffect().as_dict()
    {'kind': 'remove_from_game'}
    """

    kind: ClassVar[str] = "remove_from_game"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


# --- several attacks and areas from one card (issue 17, area) --------------------------------

FOLLOW_UP_TARGETS = ("any", "other", "same")


@dataclass(frozen=True, slots=True)
class FollowUpEffect:
    """One more attack by the same card once its previous one has ended (R-ADD-80): at
    `range` for `damage`, each a whole attack of its own (target number, roll, reactive
    window, defence dice). Its target is the next seat the `attack` command names in
    `also`: "any" enemy (the first attack's target when `also` names none: "attack
    twice"), "other" (an enemy this card attacks no other time: "to 2 targets", made only
    when named), "same" (the first attack's target, never named: "against same target").
    `condition` (R-ADD-59) is read as the card is played; `on` "kill": made only when the
    card's first attack has defeated its target ("if this kills the target, make another
    attack"). `near`: the target stands within that many hexes of the first attack's
    target ("arcs to 2 additional enemies within 2 hexes", R-ADD-84).

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
    target: Literal["any", "other", "same"] = "any"
    condition: Condition | None = None
    on: Literal["end", "kill"] = "end"
    near: int = 0

    def __post_init__(self) -> None:
        if not isinstance(self.range, WeaponRange) or self.range.low < 1:
            raise InvalidInput(
                "follow_up.range", "must be a range reaching distance 1 or more", "R-RNG-2"
            )
        _check_int(self.damage, "follow_up.damage", 0, MAX_DAMAGE, "R-DMG-1")
        _check_choice(self.target, "follow_up.target", FOLLOW_UP_TARGETS)
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("follow_up.condition", "must be a condition", "R-ADD-59")
        _check_choice(self.on, "follow_up.on", ("end", "kill"))
        if self.on == "kill" and self.target == "same":
            raise InvalidInput(
                "follow_up.on", "a defeated target cannot be attacked again", "R-ADD-80"
            )
        _check_int(self.near, "follow_up.near", 0, MAX_HEXES, "R-ADD-84")
        if self.near and self.target != "other":
            raise InvalidInput(
                "follow_up.near", "only another target is near the first", "R-ADD-84"
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "range": self.range.text,
            "damage": self.damage,
            "target": self.target,
        }
        if self.condition is not None:
            out["condition"] = self.condition.as_dict()
        if self.on != "end":
            out["on"] = self.on
        if self.near:
            out["near"] = self.near
        return out


@dataclass(frozen=True, slots=True)
class AreaAttackEffect:
    """ "N damage to all adjacent enemies", "to all enemies within 2 hexes": after the
    card's own attack, every other casket within `within` hexes of the attacker as the
    card is played is attacked for `damage`, each a whole attack of its own, in seat
    order (R-ADD-81). Enemies only, unless `allies` ("to ALL adjacent hexes": friendly
    fire, the attacker never included). `around` "target": the area is around the first
    attack's target instead, a blast (R-ADD-84); "wreck": around a destroyed enemy the
    command's `target` names, within the card's printed range, on a card without an attack
    of its own ("Target destroyed enemy explodes", R-ADD-89). `aura`: around the attacker, every attack
    of the card ignores line of sight and facing (R-RNG-3, R-ADD-85). `ignore_defence`:
    its attacks cancel every block, "Armor-Piercing" (R-ADD-60). `pick`: only that many of
    the caught caskets, drawn at random ("2 random enemies within 3 hexes", R-ADD-87).

    >>> AreaAttackEffect(2).as_dict()
    {'kind': 'area_attack', 'damage': 2, 'within': 1}
    >>> AreaAttackEffect(2, within=0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: area_attack.within: must be an integer from 1 to 20, got 0 (R-ADD-81)
    """

    kind: ClassVar[str] = "area_attack"
    damage: int
    within: int = 1
    allies: bool = False
    around: Literal["self", "target", "wreck"] = "self"
    aura: bool = False
    ignore_defence: bool = False
    pick: int = 0

    def __post_init__(self) -> None:
        _check_int(self.damage, "area_attack.damage", 0, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.within, "area_attack.within", 1, MAX_HEXES, "R-ADD-81")
        _check_bool(self.allies, "area_attack.allies")
        _check_choice(self.around, "area_attack.around", ("self", "target", "wreck"))
        _check_bool(self.aura, "area_attack.aura")
        _check_bool(self.ignore_defence, "area_attack.ignore_defence")
        _check_int(self.pick, "area_attack.pick", 0, 6, "R-ADD-87")
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
        if self.around == "self":
            return parse_range("Melee" if self.within == 1 else f"1-{self.within}")
        low, high = max(1, first.low - self.within), first.high + self.within
        return parse_range(f"{low}-{high}")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "damage": self.damage, "within": self.within}
        if self.allies:
            out["allies"] = True
        if self.around != "self":
            out["around"] = self.around
        if self.aura:
            out["aura"] = True
        if self.ignore_defence:
            out["ignore_defence"] = True
        if self.pick:
            out["pick"] = self.pick
        return out


@dataclass(frozen=True, slots=True)
class RemoveTaintRolledEffect:
    """ "Remove 1d3 Taint from yourself. Recover 1 card from discard pile per Taint
    removed": `d3` × 1d3 (R-ADD-67's d6 halved) off the own pilot's Taint, never below 0,
    then `recover_per` cards recovered (R-ADD-62) per point actually removed (R-ADD-82).

    >>> RemoveTaintRolledEffect(1, recover_per=1).as_dict()
    {'kind': 'remove_taint_rolled', 'd3': 1, 'recover_per': 1}
    """

    kind: ClassVar[str] = "remove_taint_rolled"
    d3: int
    recover_per: int = 0

    def __post_init__(self) -> None:
        _check_int(self.d3, "remove_taint_rolled.d3", 1, 6, "R-ADD-67")
        _check_int(self.recover_per, "remove_taint_rolled.recover_per", 0, 3, "R-ADD-82")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "d3": self.d3}
        if self.recover_per:
            out["recover_per"] = self.recover_per
        return out


@dataclass(frozen=True, slots=True)
class AreaHinderEffect:
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
        _check_int(self.to_hit, "area_hinder.to_hit", 1, MAX_TO_HIT, "R-HIT-1")
        _check_int(self.within, "area_hinder.within", 1, MAX_HEXES, "R-ADD-86")
        _check_bool(self.cone, "area_hinder.cone")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "to_hit": self.to_hit, "within": self.within}
        if self.cone:
            out["cone"] = True
        return out


@dataclass(frozen=True, slots=True)
class DamageAuraEffect:
    """ "Adjacent enemies take 1 damage at start of their turn" beside "+2 Defense until
    next turn": until the start of the owner's next turn, each enemy casket within
    `within` hexes of it when its own turn starts takes `amount` damage without an attack
    (R-ADD-73's way, R-ADD-88).

    >>> DamageAuraEffect(1).as_dict()
    {'kind': 'damage_aura', 'amount': 1, 'within': 1}
    """

    kind: ClassVar[str] = "damage_aura"
    amount: int
    within: int = 1

    def __post_init__(self) -> None:
        _check_int(self.amount, "damage_aura.amount", 1, MAX_DAMAGE, "R-ADD-88")
        _check_int(self.within, "damage_aura.within", 1, MAX_HEXES, "R-ADD-88")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "within": self.within}


TRIGGERS = ("start_of_turn", "end_of_turn", "casket_destroyed", "component_damaged", "attack")


@dataclass(frozen=True, slots=True)
class TriggerEffect:
    """A passive: the card stays in play once played and runs `then` each time its
    trigger fires for the owner (R-ADD-68): at the start or the end of the owner's turn,
    when a casket within `within` hexes is destroyed (`enemy_only`: an enemy's), or per
    point of Component Damage the owner takes. On "attack", `then` holds attack bonuses
    only: each attack the owner declares gets those whose condition holds ("Passive: you
    deal +2 damage to enemies with …", R-ADD-74).

    >>> TriggerEffect("start_of_turn", (GainTokensEffect("bargain", 1, cap=10),)).as_dict()
    {'kind': 'trigger', 'on': 'start_of_turn', 'then': [{'kind': 'gain_tokens', 'pool': 'bargain', 'n': 1, 'cap': 10}]}
    """

    kind: ClassVar[str] = "trigger"
    on: str
    then: tuple[Effect, ...]
    within: int = 0
    enemy_only: bool = False

    def __post_init__(self) -> None:
        _check_choice(self.on, "trigger.on", TRIGGERS)
        if self.on == "attack":  # R-ADD-74: bonuses to each of the owner's attacks
            _check_inner(self.then, "trigger.then", ("attack_bonus",))
        else:
            _check_inner(self.then, "trigger.then", (*_AFTER_KINDS, "buff_next_attack"))
        _check_bool(self.enemy_only, "trigger.enemy_only")
        if self.on == "casket_destroyed":
            _check_int(self.within, "trigger.within", 1, MAX_HEXES, "R-RNG-3")
        elif self.within or self.enemy_only:
            raise InvalidInput("trigger.within", "only casket_destroyed counts hexes", "R-ADD-68")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "on": self.on,
            "then": [e.as_dict() for e in self.then],
        }
        if self.within:
            out["within"] = self.within
        if self.enemy_only:
            out["enemy_only"] = True
        return out


# What a conditional or after-the-attack effect may do: the casket's own resources, and
# Taint; never an attack, a move or a choice the command makes.
_AFTER_KINDS = (
    *("gain_tokens", "recover", "draw", "heat", "taint", "hinder", "sp_penalty", "plant_seeds"),
    "damage_next_turn",
)


def _check_inner(effects: object, field: str, kinds: Sequence[str]) -> None:
    if not isinstance(effects, tuple) or not effects:
        raise InvalidInput(field, "must be a non-empty tuple of effects")
    for i, e in enumerate(effects):
        if getattr(e, "kind", None) not in kinds:
            raise InvalidInput(f"{field}[{i}]", f"must be one of: {', '.join(kinds)}", "R-ADD-65")


Effect = (
    AttackEffect
    | MoveEffect
    | RotateEffect
    | HeatEffect
    | DrawEffect
    | DiscardEffect
    | BuffNextAttackEffect
    | ReduceIncomingEffect
    | RollSufferingEffect
    | StatusEffect
    | AttackBonusEffect
    | GainTokensEffect
    | SpendTokensEffect
    | RecoverEffect
    | DiscardHandEffect
    | DefenceEffect
    | WhenEffect
    | AfterAttackEffect
    | TaintEffect
    | HinderEffect
    | TriggerEffect
    | GrantMoveEffect
    | IgnoreCoverEffect
    | RemoveHeatRolledEffect
    | ShuffleInEffect
    | DiscardChosenEffect
    | LimitEffect
    | SpPenaltyEffect
    | DamageNextTurnEffect
    | WindowEffect
    | CounterEffect
    | PlantSeedsEffect
    | DetonateSeedsEffect
    | RemoveFromGameEffect
    # issue 17, area
    | FollowUpEffect
    | AreaAttackEffect
    | RemoveTaintRolledEffect
    | AreaHinderEffect
    | DamageAuraEffect
)
EFFECT_TYPES: Mapping[str, type[Effect]] = MappingProxyType(
    {
        cls.kind: cls
        for cls in (
            AttackEffect,
            MoveEffect,
            RotateEffect,
            HeatEffect,
            DrawEffect,
            DiscardEffect,
            BuffNextAttackEffect,
            ReduceIncomingEffect,
            RollSufferingEffect,
            StatusEffect,
            AttackBonusEffect,
            GainTokensEffect,
            SpendTokensEffect,
            RecoverEffect,
            DiscardHandEffect,
            DefenceEffect,
            WhenEffect,
            AfterAttackEffect,
            TaintEffect,
            HinderEffect,
            TriggerEffect,
            GrantMoveEffect,
            IgnoreCoverEffect,
            RemoveHeatRolledEffect,
            ShuffleInEffect,
            DiscardChosenEffect,
            LimitEffect,
            SpPenaltyEffect,
            DamageNextTurnEffect,
            WindowEffect,
            CounterEffect,
            PlantSeedsEffect,
            DetonateSeedsEffect,
            RemoveFromGameEffect,
            # issue 17, area
            FollowUpEffect,
            AreaAttackEffect,
            RemoveTaintRolledEffect,
            AreaHinderEffect,
            DamageAuraEffect,
        )
    }
)


def effect_from_dict(d: object, path: str = "effect") -> Effect:
    """Parse one effect `{"kind": ..., <its fields>}`; any bad field names its path.

    >>> effect_from_dict({"kind": "discard", "n": 2, "source": "hand"})
    DiscardEffect(n=2, source='hand')
    >>> effect_from_dict({"kind": "move", "hexes": 0}, "card.effects[1]")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.effects[1].hexes: must be an integer from 1 to 20, got 0 (R-TRN-5)
    >>> effect_from_dict({"kind": "teleport"}, "card.effects[0]")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.effects[0].kind: unknown effect 'teleport'; known: attack, move, rotate, heat, draw, discard, buff_next_attack, reduce_incoming, roll_suffering, status, attack_bonus, gain_tokens, spend_tokens, recover, discard_hand, defence, when, after_attack, taint, hinder, trigger, grant_move, ignore_cover, remove_heat_rolled, shuffle_in, discard_chosen, limit, sp_penalty, damage_next_turn, window, counter, plant_seeds, detonate_seeds, remove_from_game, follow_up, area_attack, remove_taint_rolled, area_hinder, damage_aura
    """
    if not isinstance(d, Mapping):
        raise InvalidInput(path, "must be an object with a 'kind'")
    kind = d.get("kind")
    if not isinstance(kind, str) or kind not in EFFECT_TYPES:
        raise InvalidInput(
            f"{path}.kind", f"unknown effect {kind!r}; known: {', '.join(EFFECT_TYPES)}"
        )
    cls = EFFECT_TYPES[kind]
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    for key in d:
        if key != "kind" and key not in names:
            raise InvalidInput(
                f"{path}.{key}", f"unknown field of {kind}; allowed: kind, {', '.join(names)}"
            )
    values: dict[str, Any] = {}
    for f in fields:
        if f.name not in d:
            if f.default is dataclasses.MISSING:
                raise InvalidInput(f"{path}.{f.name}", f"required by {kind}")
            continue
        value = d[f.name]
        if f.name == "range":
            value = parse_range(value, f"{path}.range")
        elif f.name == "condition" and value is not None:
            value = condition_from_dict(value, f"{path}.condition")
        elif f.name == "then":
            if not isinstance(value, list | tuple):
                raise InvalidInput(f"{path}.then", "must be a list of effects")
            value = tuple(effect_from_dict(e, f"{path}.then[{i}]") for i, e in enumerate(value))
        values[f.name] = value
    with _rebased(path, kind):
        return cls(**values)


# --- cards -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class CardDef:
    """One card as the engine plays it.

    `range`, `damage` and `heat` are the printed values; the engine runs only `effects`.
    When the card has an attack effect, `range` and `damage` are those of its first attack.
    `automated` says the effects express everything the text says; a manual card keeps
    its text for the players to resolve the rest.

    >>> card = CardDef(id="plain-cut", name="Plain Cut", kind="primary_weapon", sp_cost=2,
    ...                range=parse_range("Melee"), damage=4, text="Deal 4 damage.",
    ...                effects=(AttackEffect(parse_range("Melee"), 4),), automated=True)
    >>> card.manual, card_from_dict(card.as_dict()) == card
    (False, True)
    >>> CardDef(id="Bad Id", name="x", kind="other", sp_cost=0, automated=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.id: 'Bad Id' is not a slug (lowercase letters, digits and single hyphens)
    """

    id: str
    name: str
    kind: str
    sp_cost: int
    range: WeaponRange | None = None
    damage: int | None = None
    heat: int = 0
    keywords: tuple[str, ...] = ()
    text: str = ""
    shield: bool = False
    effects: tuple[Effect, ...] = ()
    automated: bool

    def __post_init__(self) -> None:
        if not isinstance(self.id, str) or not _SLUG_RE.fullmatch(self.id):
            raise InvalidInput(
                "card.id",
                f"{self.id!r} is not a slug (lowercase letters, digits and single hyphens)",
            )
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidInput("card.name", "must be a non-empty string")
        _check_choice(self.kind, "card.kind", CARD_KINDS)
        _check_int(self.sp_cost, "card.sp_cost", 0, 99, "R-TRN-5")
        if self.range is not None and not isinstance(self.range, WeaponRange):
            raise InvalidInput("card.range", "must be a range or null", "R-RNG-2")
        if self.damage is not None:
            _check_int(self.damage, "card.damage", 0, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.heat, "card.heat", -MAX_HEAT, MAX_HEAT)
        if not isinstance(self.keywords, tuple) or not all(
            isinstance(k, str) and k for k in self.keywords
        ):
            raise InvalidInput("card.keywords", "must be a tuple of non-empty strings")
        if not isinstance(self.text, str):
            raise InvalidInput("card.text", "must be a string")
        for name in ("shield", "automated"):
            if not isinstance(getattr(self, name), bool):
                raise InvalidInput(f"card.{name}", "must be true or false")
        if not isinstance(self.effects, tuple):
            raise InvalidInput("card.effects", "must be a tuple of effects")
        for i, effect in enumerate(self.effects):
            if not isinstance(effect, tuple(EFFECT_TYPES.values())):
                raise InvalidInput(f"card.effects[{i}]", "must be an effect")
            if isinstance(effect, DiscardChosenEffect) and i != len(self.effects) - 1:
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "discard_chosen asks the player once the card resolves: make it the last",
                    "R-ADD-62",
                )
            inner = effect.then if isinstance(effect, SpendTokensEffect | WhenEffect) else (effect,)
            reactive_only = (ReduceIncomingEffect, WindowEffect, CounterEffect)
            if self.kind != "reactive" and any(isinstance(e, reactive_only) for e in inner):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    f"{effect.kind} answers an attack: only a reactive card may have it",
                    "R-REA-1",
                )
            attack_only = (
                any(
                    isinstance(
                        e,
                        AttackBonusEffect | AfterAttackEffect | IgnoreCoverEffect | FollowUpEffect,
                    )
                    or (isinstance(e, AreaAttackEffect) and e.around != "wreck")
                    for e in inner
                )
                or (isinstance(effect, SpendTokensEffect) and effect.damage_per_token)
                or (isinstance(effect, TaintEffect) and effect.target == "target")
            )
            if attack_only and not any(isinstance(e, AttackEffect) for e in self.effects):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "an attack bonus needs the card's own attack effect",
                    "R-ADD-59",
                )
        self._check_consistency()

    def _check_consistency(self) -> None:
        # R-ADD-80: what waits for a kill, or is Armor-Piercing, is said of all the card's
        # further attacks at once (AttacksQueued), so such a card has only that one.
        further = [e for e in self.effects if isinstance(e, FollowUpEffect | AreaAttackEffect)]
        special = [
            e
            for e in further
            if (isinstance(e, FollowUpEffect) and e.on == "kill")
            or (isinstance(e, AreaAttackEffect) and e.ignore_defence)
        ]
        if special and len(further) > 1:
            raise InvalidInput(
                "card.effects",
                "a further attack on a kill, or an Armor-Piercing area, must be the card's "
                "only further attack",
                "R-ADD-80",
            )
        attacks = [e for e in self.effects if isinstance(e, AttackEffect)]
        if attacks and (self.range, self.damage) != (attacks[0].range, attacks[0].damage):
            raise InvalidInput(
                "card.range",
                "range and damage must be those of the card's first attack effect",
                "R-RNG-2",
            )
        heat = sum(e.amount for e in self.effects if isinstance(e, HeatEffect))
        if self.automated and heat != self.heat:
            raise InvalidInput(
                "card.heat",
                f"an automated card's heat ({self.heat}) must equal its heat effects ({heat})",
            )
        if not self.automated and not self.text.strip():
            raise InvalidInput("card.text", "a manual card needs its text for the players")
        if self.kind == "damage" and (self.sp_cost, self.effects) != (0, ()):
            raise InvalidInput("card.kind", "a Damage card costs 0 SP and does nothing", "R-TRN-6")

    @property
    def limit(self) -> LimitEffect | None:
        """The card's use limit, if its text has one (R-ADD-63)."""
        return next((e for e in self.effects if isinstance(e, LimitEffect)), None)

    @property
    def leaves_game(self) -> bool:
        """Resolved, the card goes to the removed cards, not the discard pile (R-ADD-70)."""
        return any(isinstance(e, RemoveFromGameEffect) for e in self.effects)

    @property
    def passive(self) -> bool:
        """Played, the card stays in play and its triggers fire (R-ADD-68)."""
        return any(isinstance(e, TriggerEffect) for e in self.effects)

    @property
    def manual(self) -> bool:
        """The card's text says more than its effects: the players resolve the rest."""
        return not self.automated

    @property
    def attack(self) -> AttackEffect | None:
        """The card's first attack effect, if any.

        >>> DAMAGE_CARD.attack is None
        True
        """
        return next((e for e in self.effects if isinstance(e, AttackEffect)), None)

    def as_dict(self) -> dict[str, Any]:
        """The card in the project's JSON card format (`card_from_dict` reads it back).

        >>> DAMAGE_CARD.as_dict()["kind"], DAMAGE_CARD.as_dict()["effects"]
        ('damage', [])
        """
        return {
            "id": self.id,
            "name": self.name,
            "kind": self.kind,
            "sp_cost": self.sp_cost,
            "range": self.range.text if self.range else None,
            "damage": self.damage,
            "heat": self.heat,
            "keywords": list(self.keywords),
            "text": self.text,
            "shield": self.shield,
            "effects": [e.as_dict() for e in self.effects],
            "automated": self.automated,
        }


# R-TRN-6: added to the deck at each reshuffle; 0 SP, does nothing.
DAMAGE_CARD = CardDef(
    id="damage",
    name="Damage",
    kind="damage",
    sp_cost=0,
    text="A blank card added at each reshuffle; it may be played for 0 SP and does nothing.",
    automated=True,
)

_CARD_FIELDS = tuple(f.name for f in dataclasses.fields(CardDef))
_REQUIRED_CARD_FIELDS = ("id", "name", "kind", "sp_cost", "automated")


def card_from_dict(doc: object, path: str = "card") -> CardDef:
    """Parse a card in the project's JSON format; every bad or unknown field names its path.

    Required: id, name, kind, sp_cost, automated. The rest default to no range, no
    damage, 0 Heat, no keywords, no text, not a shield card, no effects.

    >>> card_from_dict({"id": "vent", "name": "Vent", "kind": "other", "sp_cost": 1,
    ...                 "heat": -2, "effects": [{"kind": "heat", "amount": -2}],
    ...                 "automated": True}).effects
    (HeatEffect(amount=-2),)
    >>> card_from_dict({"id": "vent", "name": "Vent", "kind": "other", "sp_cost": 1,
    ...                 "automated": True, "colour": "red"}, "cards[3]")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: cards[3].colour: unknown field(s) colour; allowed: id, name, kind, sp_cost, range, damage, heat, keywords, text, shield, effects, automated
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput(path, "must be an object")
    unknown = [str(k) for k in doc if k not in _CARD_FIELDS]
    if unknown:
        raise InvalidInput(
            f"{path}.{unknown[0]}",
            f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(_CARD_FIELDS)}",
        )
    for key in _REQUIRED_CARD_FIELDS:
        if key not in doc:
            raise InvalidInput(f"{path}.{key}", "required")
    values = dict(doc)
    if values.get("range") is not None:
        values["range"] = parse_range(values["range"], f"{path}.range")
    if "keywords" in values:
        keywords = values["keywords"]
        if not isinstance(keywords, list | tuple):
            raise InvalidInput(f"{path}.keywords", "must be a list of strings")
        values["keywords"] = tuple(keywords)
    if "effects" in values:
        effects = values["effects"]
        if not isinstance(effects, list | tuple):
            raise InvalidInput(f"{path}.effects", "must be a list of effects")
        values["effects"] = tuple(
            effect_from_dict(e, f"{path}.effects[{i}]") for i, e in enumerate(effects)
        )
    with _rebased(path, "card"):
        return CardDef(**values)


# --- the game's card database ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DerivedCard:
    """One database entry's outcome: a card, or the one-line reason it cannot be loaded.

    >>> DerivedCard(None, "no id", False).loaded
    False
    """

    card: CardDef | None
    reason: str | None
    automated: bool
    # Why a loaded card stays manual, when the effect catalogue says (R-ADD-57).
    note: str | None = None

    def __post_init__(self) -> None:
        if (self.card is None) == (self.reason is None):
            raise ValueError("a DerivedCard has either a card or a reason")
        if self.automated != (self.card is not None and self.card.automated):
            raise ValueError("automated must be the card's own flag")

    @property
    def loaded(self) -> bool:
        return self.card is not None


# The types the database uses for cards whose whole point is one attack on one target.
# Listed rather than guessed from the word "attack" ("attack-enhancement" is a buff).
ATTACK_TYPES = frozenset(
    {"attack", "attack-execute", "attack-debuff", "attack-mark", "movement-attack"}
)
_COST_RE = re.compile(r"\s*(\d{1,2})\s*(?:SP)?\s*(?:\(reactive\))?\s*", re.IGNORECASE)
_INT_RE = re.compile(r"\s*([+-]?\d{1,3})\s*")
# The database's spellings of R-RNG-2 ranges, each mapped to the engine's spelling.
# Anything qualified further (area, cone, leap, radius, AoE, two ranges) is not one
# attack at one target, so it is not parsed.
_DB_RANGES: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"melee(?: \((?:1 hex|range 1)\))?|adjacent|1 hex \(adjacent only\)", re.I),
        "Melee",
    ),
    (re.compile(r"self", re.I), "Self"),
    (re.compile(r"(?:range )?(\d{1,2})(?: hex(?:es)?)?", re.I), r"\1"),
    (re.compile(r"ranged \(?(\d{1,2})-(\d{1,2})(?: hexes)?\)?", re.I), r"\1-\2"),
    (re.compile(r"ranged (\d{1,2})", re.I), r"\1"),
)
# The only effect texts an automated attack may have: the attack itself, optionally its
# Heat and a short "Basic … attack." label. Everything else is for the players. An
# equipment item's cards print the lone attack without its full stop ("Deal 3 damage").
_PLAIN_ATTACK_RE = re.compile(
    r"Deal (?P<damage>\d{1,2}) damage(?: at range)?(?:\.|$)"
    r"(?: (?:Gain|Generate) (?P<heat>\d) Heat\.)?"
    r"(?: Basic [A-Za-z][A-Za-z' -]{0,30} attack\.)?"
)
_SKIPPED = {
    "_meta": "metadata, not cards",
    # R-ADD-53: the engine's own piles, not cards a deck is built from.
    "special_cards": "wound, trauma and penalty cards (Damage, SCRAP, Decay): the engine's "
    "own piles (R-TRN-6 Damage card, R-PLT-1 wound deck), not deck cards",
}
# The section whose entries are support units' behaviour cards (and the derivation section of
# the ones a unit nests, R-ADD-53).
BEHAVIOUR_SECTION = "support_unit_behaviors"


def database_range(text: object) -> WeaponRange | None:
    """A database range in R-RNG-2 terms, or None when it is not one plain range.

    >>> database_range("Melee (Range 1)"), database_range("4 hexes"), database_range("N/A")
    (WeaponRange(text='Melee', low=1, high=1), WeaponRange(text='4', low=1, high=4), None)
    >>> database_range("Ranged 2-5").text, database_range("3 hexes (line)")
    ('2-5', None)
    """
    if not isinstance(text, str):
        return None
    for pattern, spelling in _DB_RANGES:
        match = pattern.fullmatch(text.strip())
        if match:
            try:
                return parse_range(match.expand(spelling))
            except InvalidInput:
                return None
    return None


def _db_int(value: object) -> int | None:
    if type(value) is int:
        return value
    if isinstance(value, str) and (match := _INT_RE.fullmatch(value)):
        return int(match[1])
    return None


def _db_cost(value: object) -> int | None:
    if type(value) is int:
        return value if value >= 0 else None
    if isinstance(value, str) and (match := _COST_RE.fullmatch(value)):
        return int(match[1])
    return None


def _db_kind(section: str, type_: str, keywords: Sequence[str]) -> str:
    if section == BEHAVIOUR_SECTION:
        return "behaviour"  # R-ADD-52: a support unit's, never a casket deck's
    lowered = {k.lower() for k in keywords}
    if lowered & {"primary", "primary-weapon"}:
        return "primary_weapon"  # R-DMG-6: discarding one damages a component
    if any(w == "reactive" or w.startswith("reactive-") for w in (type_, *lowered)):
        return "reactive"  # R-REA-1/2
    if "secondary" in lowered:
        return "secondary"
    if section == "universal":
        return "universal"
    return "other"


def _plain_attack(text: str, damage: int, heat: int) -> bool:
    match = _PLAIN_ATTACK_RE.fullmatch(text.strip())
    if not match or int(match["damage"]) != damage:
        return False
    return match["heat"] is None or int(match["heat"]) == heat


def derive_from_database(entry: object, section: str) -> DerivedCard:
    """Derive a card from one database entry's fields, never from its free text.

    A card the effect catalogue (battles/engine/card_catalogue) reviewed for exactly this
    text, cost and range gets the catalogue's effects and is automated (R-ADD-57); a
    catalogued card that stays manual carries the catalogue's reason in `note`.

    An attack-type entry with an integer damage and a plain range gets an attack effect
    (plus a heat effect for a non-zero integer heat field); it is automated only when
    its text is exactly that attack. Entries without id or name, with a cost that is not
    a whole number of SP, or attacks without a usable range, give a reason instead.

    >>> d = derive_from_database({"id": "jab", "name": "Jab", "type": "Attack", "cost": 1,
    ...                           "range": "Melee", "damage": 2, "effect": "Deal 2 damage.",
    ...                           "keywords": ["attack", "primary"]}, "equipment")
    >>> d.card.kind, d.card.effects, d.automated
    ('primary_weapon', (AttackEffect(range=WeaponRange(text='Melee', low=1, high=1), damage=2),), True)
    >>> derive_from_database({"id": "x", "name": "X", "cost": "N/A"}, "special_cards").reason
    "cost 'N/A' is not a whole number of SP"
    """
    if not isinstance(entry, Mapping):
        return _reason(f"not an object but {type(entry).__name__}")
    card_id, name = entry.get("id"), entry.get("name")
    if not isinstance(card_id, str) or not card_id:
        return _reason("no id")
    if card_id in (DAMAGE_CARD.id, "damage-card"):
        return _reason("the blank Damage card is built in as DAMAGE_CARD (R-TRN-6)")
    if not _SLUG_RE.fullmatch(card_id):
        return _reason(f"id {card_id!r} is not a slug")
    if not isinstance(name, str) or not name.strip():
        return _reason("no name")
    if "cost" not in entry:
        return _reason("no cost")
    cost = _db_cost(entry["cost"])
    if cost is None:
        return _reason(f"cost {entry.get('cost')!r} is not a whole number of SP")
    keywords = entry.get("keywords", [])
    if not isinstance(keywords, list) or not all(isinstance(k, str) and k for k in keywords):
        return _reason("keywords are not a list of strings")
    raw_type = entry.get("type")
    type_ = raw_type.strip().lower() if isinstance(raw_type, str) else ""
    text = entry.get("effect", "")
    if not isinstance(text, str):
        return _reason("effect text is not a string")

    # R-ADD-57: a card the effect catalogue reviewed for exactly this text plays its effects.
    from .card_catalogue import lookup  # the catalogue's loader imports this module

    found, note = lookup(section, card_id, text, entry["cost"], entry.get("range"))
    if found is not None:
        try:
            card = found.card(
                name=name.strip(),
                kind=_db_kind(section, type_, keywords),
                sp_cost=cost,
                keywords=tuple(keywords),
                shield=any(k.lower() == "shield" for k in keywords),  # R-REA-2
            )
        except InvalidInput as err:
            return _reason(f"catalogue entry: {err}")
        return DerivedCard(card, None, True)

    range_ = database_range(entry.get("range"))
    damage = _db_int(entry.get("damage"))
    if damage is not None and not 0 <= damage <= MAX_DAMAGE:
        damage = None
    heat = _db_int(entry.get("heat"))
    # A heat field that is not a whole number (a die roll) is for the players.
    plain_heat = heat is not None or entry.get("heat") is None
    effects: tuple[Effect, ...] = ()
    automated = plain_heat and not text.strip()
    if type_ in ATTACK_TYPES and (range_ is None or range_.low < 1):
        return _reason(f"attack range {entry.get('range')!r} is not one plain range (R-RNG-2)")
    try:
        if type_ in ATTACK_TYPES and range_ is not None:
            if damage is None:
                automated = False  # the printed damage is not one number: the players read it
            else:
                effects = (AttackEffect(range_, damage),)
                if heat:
                    effects += (HeatEffect(heat),)
                automated = plain_heat and _plain_attack(text, damage, heat or 0)
        card = CardDef(
            id=card_id,
            name=name.strip(),
            kind=_db_kind(section, type_, keywords),
            sp_cost=cost,
            range=range_,
            damage=damage,
            heat=heat or 0,
            keywords=tuple(keywords),
            text=text,
            shield=any(k.lower() == "shield" for k in keywords),  # R-REA-2
            effects=effects,
            automated=automated,
        )
    except InvalidInput as err:
        return _reason(str(err))
    return DerivedCard(card, None, card.automated, None if card.automated else note)


def _reason(reason: str) -> DerivedCard:
    return DerivedCard(None, reason, False)


def iter_database(doc: object) -> Iterator[tuple[str, int, Any]]:
    """Every (section, index, entry) of the database's list-valued sections, in file order.

    Other sections yield nothing; `skipped_sections` says which and why.

    >>> list(iter_database({"_meta": {}, "universal": [{"id": "a"}], "tactics": {"x": []}}))
    [('universal', 0, {'id': 'a'})]
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput("database", "must be an object of sections")
    for section, entries in doc.items():
        if section in _SKIPPED or not isinstance(entries, list):
            continue
        for index, entry in enumerate(entries):
            yield str(section), index, entry


def skipped_sections(doc: object) -> list[tuple[str, str]]:
    """The sections `iter_database` does not read, each with the reason.

    >>> skipped_sections({"_meta": {}, "universal": [], "tactics": {"church": [], "elves": []}})
    [('_meta', 'metadata, not cards'), ('tactics', 'an object of sub-sections (church, elves), not a list of entries')]
    """
    if not isinstance(doc, Mapping):
        raise InvalidInput("database", "must be an object of sections")
    skipped: list[tuple[str, str]] = []
    for section, entries in doc.items():
        if section in _SKIPPED:
            skipped.append((str(section), _SKIPPED[section]))
        elif isinstance(entries, Mapping):
            keys = ", ".join(str(k) for k in entries)
            skipped.append(
                (str(section), f"an object of sub-sections ({keys}), not a list of entries")
            )
        elif not isinstance(entries, list):
            skipped.append((str(section), f"a {type(entries).__name__}, not a list of entries"))
    return skipped


# --- deck construction -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DeckProblem:
    """One way a deck breaks the construction rules; `index` is its row, None for the whole deck.

    >>> DeckProblem("deck_size", "29 cards; a casket deck has 30", "R-TRN-1").as_dict()["rule"]
    'R-TRN-1'
    """

    code: str
    message: str
    rule: str
    index: int | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "rule": self.rule, "index": self.index}


def validate_deck(cards: Sequence[tuple[CardDef, int]], ruleset: Ruleset) -> list[DeckProblem]:
    """Check a built casket deck, given as (card, count) rows; an empty list means legal.

    >>> validate_deck([(DAMAGE_CARD, 30)], Ruleset())[0].code
    'damage_card_in_deck'
    """
    size = DECK_SIZE[ruleset.version]
    problems: list[DeckProblem] = []
    seen: set[str] = set()
    total = 0
    for i, (card, count) in enumerate(cards):
        if type(count) is not int or count < 1:
            problems.append(
                DeckProblem(
                    "bad_count",
                    f"{card.name}: count must be a whole number of at least 1, got {count!r}",
                    "R-TRN-1",
                    i,
                )
            )
        else:
            total += count
        if card.kind == "damage":
            problems.append(
                DeckProblem(
                    "damage_card_in_deck",
                    f"{card.name}: Damage cards only enter a deck when it is reshuffled",
                    "R-TRN-6",
                    i,
                )
            )
        if card.kind == "behaviour":
            problems.append(
                DeckProblem(
                    "behaviour_card_in_deck",
                    f"{card.name}: a support unit's behaviour card is not a casket deck's",
                    "R-ADD-52",
                    i,
                )
            )
        if card.id in seen:
            problems.append(
                DeckProblem(
                    "duplicate_card",
                    f"{card.name} is listed twice; give one row with the total count",
                    "R-TRN-1",
                    i,
                )
            )
        seen.add(card.id)
    if total != size:
        problems.append(
            DeckProblem(
                "deck_size",
                f"the deck has {total} cards; a casket deck has exactly {size}",
                "R-TRN-1",
            )
        )
    return problems
