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

from .board import BATTLE_TERRAIN
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
# The statuses the to-hit calculation reads (R-COV-4, R-HIT-6), and "anchored", which forced
# movement reads (R-ADD-101, issue 17, move): nothing else can be applied.
STATUSES = ("obscured", "stunned", "immobilised", "aiming", "anchored")
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
    # issue 17, move: "ignoring (all) terrain (and obstacles)", "(leap)": no step cost, any
    # hex of the board may be crossed, no sight needed (R-ADD-103).
    ignore_terrain: bool = False
    # "ignore terrain and enemies", a leap: enemy caskets may be crossed too (R-ADD-103).
    through_enemies: bool = False
    # "Move up to N hexes toward target": each step one hex nearer the attack's target; the
    # move of an attack card is made with the attack command's path (R-ADD-104).
    toward: bool = False

    def __post_init__(self) -> None:
        _check_int(self.hexes, "move.hexes", 1, MAX_HEXES, "R-TRN-5")
        _check_bool(self.line, "move.line")
        _check_bool(self.ignore_terrain, "move.ignore_terrain")
        _check_bool(self.through_enemies, "move.through_enemies")
        _check_bool(self.toward, "move.toward")
        if self.through_enemies and not self.ignore_terrain:
            raise InvalidInput(
                "move.through_enemies",
                "only a move that ignores terrain crosses enemies",
                "R-ADD-103",
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes}
        for name in ("line", "ignore_terrain", "through_enemies", "toward"):
            if getattr(self, name):
                out[name] = True
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
    status: Literal["obscured", "stunned", "immobilised", "aiming", "anchored"]

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
    # issue 17, dot; R-ADD-110: "enemies with 5+ Bleed", counted as the card is played.
    "target_bleed_at_least",
    # issue 17, dot; R-ADD-119: "if target is adjacent to another ally" (the attacker's).
    "target_adjacent_allies_at_least",
    # issue 17, buffs; R-ADD-98: "if attacking from rear arc (hex 4)": the attack's side.
    "from_rear",
    # issue 17, move (R-ADD-106): the card's own move before its attack, "if you moved 3
    # hexes", "if you move through lava".
    "card_moved_at_least",
    "card_moved_through",
    # issue 17, states (R-ADD-144): what the battle now records of the round and turn.
    "target_damaged_this_round",
    "destroyed_within_this_round",
    "discarded_this_turn",
    "target_killed_an_ally",
    "near_terrain",
    "target_without_cover",
    # issue 17, states (R-ADD-146): the attack's side, slow/freeze, open terrain.
    "attack_side_is",
    "target_immobilised",
    "standing_in_open",
    # R-ADD-149: the casket's mark (R-ADD-148) is still in the battle.
    "own_mark_in_battle",
    # issue 17, allies (R-ADD-121): `n` allies, of `faction` when given, within `within`
    # hexes of the own casket, or of the attack's target ("adjacent to target": 1).
    "allies_within_at_least",
    "allies_near_target_at_least",
    # issue 17, triggers: "if you did NOT attack this turn" (R-ADD-134), "when your deck has
    # 15 or fewer cards" (R-ADD-137), "if no enemies are within 3 hexes" (R-ADD-137).
    "not_attacked_this_turn",
    "own_deck_at_most",
    "no_enemy_within",
    "attacked_this_turn",  # "after making an attack" (R-ADD-134)
    "destroyed_enemy_this_turn",  # "when you destroy an enemy Casket" (R-ADD-131)
    # issue 17, forms (R-ADD-170): "if in Metamorph form", "if you have Assault Form active".
    "own_form",
    # issue 17, forms (R-ADD-174): "if in Honor Duel"; "if target has Coward's Mark".
    "own_in_duel",
    "target_cowards_mark",
    # issue 17, combos (R-ADD-188): "if both are ranged attacks": `n` of the cards the card
    # itself drew are ranged attack cards.
    "card_drew_ranged_at_least",
)
# issue 17, forms (R-ADD-170): the forms Metamorphic Adaptation transforms a casket into,
# until the end of the round. A condition's `form` may also be "metamorph": any of them.
FORMS = ("assault", "tank", "scout")
_CONDITION_FORMS = ("metamorph", *FORMS)
# The conditions that count caskets within `within` hexes (R-ADD-75, R-ADD-121).
_CONDITIONS_WITHIN = (
    "enemies_within_at_least",
    "allies_within_at_least",
    "allies_near_target_at_least",
    "destroyed_within_this_round",  # R-ADD-144
    "no_enemy_within",  # R-ADD-136
)
# The conditions that may count only the allies of one faction (R-ADD-121).
_CONDITIONS_FACTION = ("allies_within_at_least", "allies_near_target_at_least")
_CONDITIONS_WITH_N = frozenset(CONDITIONS) - {
    "moved_this_turn",
    "standing_in",
    "target_moved_last_turn",
    "from_rear",
    "card_moved_through",
    "target_damaged_this_round",
    "destroyed_within_this_round",
    "discarded_this_turn",
    "target_killed_an_ally",
    "near_terrain",
    "target_without_cover",
    "target_immobilised",
    "standing_in_open",
    "own_mark_in_battle",
    "not_attacked_this_turn",
    "no_enemy_within",
    "attacked_this_turn",
    "destroyed_enemy_this_turn",
    "own_form",
    "own_in_duel",
    "target_cowards_mark",
}
# The conditions that name a terrain (R-BRD-3).
_TERRAIN_CONDITIONS = ("standing_in", "card_moved_through", "near_terrain")


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
    # issue 17, allies: count only the allies whose setup names this faction (R-ADD-121).
    faction: str | None = None
    # issue 17, forms: the form `own_form` asks for, "metamorph" for any (R-ADD-170).
    form: str | None = None

    def __post_init__(self) -> None:
        _check_choice(self.test, "condition.test", CONDITIONS)
        if (self.test == "own_form") != (self.form is not None):
            raise InvalidInput(
                "condition.form",
                f"'own_form' names a form: one of {', '.join(_CONDITION_FORMS)}"
                if self.form is None
                else f"{self.test!r} names no form",
                "R-ADD-170",
            )
        if self.form is not None:
            _check_choice(self.form, "condition.form", _CONDITION_FORMS)
        if self.test in _CONDITIONS_WITHIN:
            _check_int(self.within, "condition.within", 1, MAX_HEXES, "R-RNG-3")
        elif self.within:
            raise InvalidInput("condition.within", f"{self.test!r} counts no hexes", "R-ADD-75")
        if self.faction is not None:
            if self.test not in _CONDITIONS_FACTION:
                raise InvalidInput(
                    "condition.faction", f"{self.test!r} counts no allies", "R-ADD-121"
                )
            # A slug only: the factions are carddb's, which imports this module.
            if not isinstance(self.faction, str) or not _SLUG_RE.fullmatch(self.faction):
                raise InvalidInput(
                    "condition.faction", f"{self.faction!r} is not a faction name", "R-ADD-121"
                )
        if self.test == "attack_side_is":  # a side of the side table (R-ARC-2)
            _check_int(self.n, "condition.n", 1, 6, "R-ARC-2")
        elif self.test in _CONDITIONS_WITH_N:
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
        if (self.test in _TERRAIN_CONDITIONS) != (self.terrain is not None):
            raise InvalidInput(
                "condition.terrain",
                f"{' and '.join(repr(t) for t in _TERRAIN_CONDITIONS)} name a terrain, no other",
                "R-BRD-3",
            )
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
        if self.faction is not None:
            out["faction"] = self.faction
        if self.form is not None:
            out["form"] = self.form
        return out


def condition_from_dict(d: object, path: str) -> Condition:
    if not isinstance(d, Mapping):
        raise InvalidInput(path, "must be an object with a 'test'", "R-ADD-59")
    allowed = ("test", "n", "pool", "terrain", "within", "faction", "form")
    unknown = [str(k) for k in d if k not in allowed]
    if unknown:
        raise InvalidInput(f"{path}.{unknown[0]}", f"unknown field; allowed: {', '.join(allowed)}")
    if "test" not in d:
        raise InvalidInput(f"{path}.test", "required", "R-ADD-59")
    with _rebased(path, "condition"):
        return Condition(
            d["test"],
            d.get("n", 0),
            d.get("pool"),
            d.get("terrain"),
            d.get("within", 0),
            d.get("faction"),
            d.get("form"),
        )


@dataclass(frozen=True, slots=True)
class AttackBonusEffect:
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
    damage: int = 0
    to_hit: int = 0
    condition: Condition | None = None
    # issue 17, combos: every attack of the card gets the damage (R-ADD-186).
    each_attack: bool = False

    def __post_init__(self) -> None:
        _check_int(self.damage, "attack_bonus.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.to_hit, "attack_bonus.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if (self.damage, self.to_hit) == (0, 0):
            raise InvalidInput("attack_bonus", "changes nothing: give damage or to_hit", "R-ADD-59")
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("attack_bonus.condition", "must be a condition", "R-ADD-59")
        _check_bool(self.each_attack, "attack_bonus.each_attack")
        if self.each_attack and (self.to_hit or self.damage <= 0):
            raise InvalidInput(
                "attack_bonus.each_attack", "only damage is added to each attack", "R-ADD-186"
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "damage": self.damage, "to_hit": self.to_hit}
        if self.condition is not None:
            out["condition"] = self.condition.as_dict()
        if self.each_attack:
            out["each_attack"] = True
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
    blocks against every attack on the casket (R-DMG-3, R-ADD-64). On a reactive card:
    against the attack it answers, unless a PIERCE face voids the card (R-ADD-98).

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
        # issue 17, buffs: "+1 damage to all attacks for each enemy within 6" (R-ADD-96);
        # move: "if …, knockback" (R-ADD-100); triggers: R-ADD-134; forms: "… reduce by 2.
        # If in Metamorph form, reduce by 3" (R-ADD-170); combos: "…, gain +1 SP" (R-ADD-188).
        kinds = (
            *(*_AFTER_KINDS, "reduce_incoming", "enhance_next_attack", "push"),
            *("sp_boost", "grant_move", "ward", "gain_sp"),
        )
        _check_inner(self.then, "when.then", kinds)

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
    the outcome ("move 1 hex after"); on "miss" when the roll misses, a catastrophic failure
    not included, and on "damage" when the target takes damage from it, after its wards
    ("if this deals damage") (issue 17, buffs; R-ADD-95).

    `attacks` "further": only after the card's further attacks (R-ADD-80, R-ADD-81), not
    its first ("4 damage to primary, 2 damage + push to adjacent enemies", R-ADD-187).

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
    # issue 17, combos: which of the card's attacks it follows (R-ADD-187).
    attacks: Literal["all", "further"] = "all"

    def __post_init__(self) -> None:
        _check_choice(self.on, "after_attack.on", ("hit", "kill", "end", "miss", "damage"))
        _check_choice(self.attacks, "after_attack.attacks", ("all", "further"))
        # issue 17, buffs: "On Miss: recover 2 SP and +3 damage to next attack" (R-ADD-95);
        # move, R-ADD-100: a push waits for the hit; "If …, knockback" is a `when` inside it.
        kinds = (
            *_AFTER_KINDS,
            *("grant_move", "gain_sp", "buff_next_attack", "push", "when", "scatter"),
            "give_heat",
            "terrain",  # issue 17, terrain: made at the target's hex (R-ADD-162)
            "grant_rotation",  # issue 17, combos (R-ADD-189)
        )
        _check_inner(self.then, "after_attack.then", kinds)
        for i, e in enumerate(self.then):
            if isinstance(e, GiveHeatEffect) and e.to != "target":
                raise InvalidInput(
                    f"after_attack.then[{i}].to",
                    "after an attack, Heat goes to its target; a reactive card gives the "
                    "attacker Heat at the top level",
                    "R-ADD-143",
                )
            if isinstance(e, TerrainEffect) and e.at != "target":
                raise InvalidInput(
                    f"after_attack.then[{i}].at",
                    "after an attack, terrain is made at its target's hex ('target')",
                    "R-ADD-162",
                )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "on": self.on,
            "then": [e.as_dict() for e in self.then],
        }
        if self.attacks != "all":
            out["attacks"] = self.attacks
        return out


@dataclass(frozen=True, slots=True)
class TaintEffect:
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
    target: Literal["self", "target"] = "self"
    # issue 17, combos: all the pilot's Taint goes, whatever `amount` says (R-ADD-184).
    purge_all: bool = False

    def __post_init__(self) -> None:
        _check_int(self.amount, "taint.amount", -10, 10, "R-PLT-4")
        if self.amount == 0:
            raise InvalidInput("taint.amount", "must not be 0: a taint effect changes Taint")
        _check_choice(self.target, "taint.target", STATUS_TARGETS)
        _check_bool(self.purge_all, "taint.purge_all")
        if self.purge_all and self.amount > 0:
            raise InvalidInput(
                "taint.purge_all", "purging removes Taint: give a negative amount", "R-ADD-184"
            )

    def change(self, taint: int) -> int:
        """The change it makes to a pilot's `taint` (before R-ADD-66's floor at 0)."""
        return -taint if self.purge_all else self.amount

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "amount": self.amount, "target": self.target}
        if self.purge_all:
            out["purge_all"] = True
        return out


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
    # issue 17, move: "You may make 1 attack during this movement … After attacking, you
    # may continue moving": one move before an attack and one after it (R-ADD-109).
    split: bool = False

    def __post_init__(self) -> None:
        _check_int(self.hexes, "grant_move.hexes", 1, MAX_HEXES, "R-ADD-69")
        _check_bool(self.split, "grant_move.split")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes}
        if self.split:
            out["split"] = True
        return out


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
    amount: int | Literal["all"]  # "all": "target loses all SP next turn" (R-ADD-119)

    def __post_init__(self) -> None:
        if self.amount != "all":
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
    # issue 17, combos: "deal damage to target and all adjacent enemies" on an enhancement:
    # the caught enemies take the printed damage of the attack it enhances (R-ADD-182).
    damage_of_attack: bool = False

    def __post_init__(self) -> None:
        _check_int(self.damage, "area_attack.damage", 0, MAX_DAMAGE, "R-DMG-1")
        _check_bool(self.damage_of_attack, "area_attack.damage_of_attack")
        if self.damage_of_attack and self.damage:
            raise InvalidInput(
                "area_attack.damage",
                "the attack's printed damage is the amount: give 0 with damage_of_attack",
                "R-ADD-182",
            )
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
        if self.damage_of_attack:
            out["damage_of_attack"] = True
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


# issue 17, move
@dataclass(frozen=True, slots=True)
class PushEffect:
    """ "Push N hexes", "knockback target N hex", "pull enemy N hexes toward you": the
    attack's target (after a hit), or the command's `target` on a card without an attack,
    is moved up to `hexes` hexes straight away from the own casket, or toward it with
    `toward`, and stops at the first hex it cannot enter (R-ADD-100).

    >>> PushEffect(2, toward=True).as_dict()
    {'kind': 'push', 'hexes': 2, 'toward': True}
    """

    kind: ClassVar[str] = "push"
    hexes: int
    toward: bool = False
    # "If they end adjacent, deal 2 damage": damage without an attack (R-ADD-100, R-DMG-8).
    adjacent_damage: int = 0

    def __post_init__(self) -> None:
        _check_int(self.hexes, "push.hexes", 1, MAX_HEXES, "R-ADD-100")
        _check_bool(self.toward, "push.toward")
        _check_int(self.adjacent_damage, "push.adjacent_damage", 0, MAX_DAMAGE, "R-ADD-100")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes}
        if self.toward:
            out["toward"] = True
        if self.adjacent_damage:
            out["adjacent_damage"] = self.adjacent_damage
        return out


# issue 17, move
@dataclass(frozen=True, slots=True)
class TeleportEffect:
    """ "Teleport up to N hexes": the own casket goes to any hex within `hexes` it could
    end a move on, whatever lies between (the command's `path` names that one hex);
    `near_terrain`: "must end in or adjacent to terrain" (R-ADD-102).

    >>> TeleportEffect(4, near_terrain=True).as_dict()
    {'kind': 'teleport', 'hexes': 4, 'near_terrain': True}
    """

    kind: ClassVar[str] = "teleport"
    hexes: int
    near_terrain: bool = False

    def __post_init__(self) -> None:
        _check_int(self.hexes, "teleport.hexes", 1, MAX_HEXES, "R-ADD-102")
        _check_bool(self.near_terrain, "teleport.near_terrain")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes}
        if self.near_terrain:
            out["near_terrain"] = True
        return out


# issue 17, move
@dataclass(frozen=True, slots=True)
class ScatterEffect:
    """ "Teleport target to random adjacent hex": after a hit, 1d6 names a direction
    (R-BRD-2) and the target goes to that neighbouring hex, or the first one clockwise
    from it that can take it (R-ADD-108).

    >>> ScatterEffect().as_dict()
    {'kind': 'scatter'}
    """

    kind: ClassVar[str] = "scatter"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


TRIGGERS = (
    *("start_of_turn", "end_of_turn", "casket_destroyed", "component_damaged", "attack"),
    # issue 17, states (R-ADD-147) and triggers: "at the start / end of each round"
    # (R-ADD-137), "reduce all damage you take by N" (R-ADD-136), "whenever you discard
    # cards" (R-ADD-139).
    *("start_of_round", "end_of_round", "damage_taken", "cards_discarded"),
    # "the first Component Damage you take each round is ignored" (R-ADD-136)
    "first_component_damage_each_round",
)


@dataclass(frozen=True, slots=True)
class TriggerEffect:
    """A passive: the card stays in play once played and runs `then` each time its
    trigger fires for the owner (R-ADD-68): at the start or the end of the owner's turn,
    when a casket within `within` hexes is destroyed (`enemy_only`: an enemy's;
    `ally_only`: one of the owner's side; `by_owner`: one the owner's own attack destroyed;
    `within` 0: at any distance, R-ADD-131), or per point of Component Damage the owner
    takes. On "attack", `then` holds attack bonuses only: each attack the owner declares
    gets those whose condition holds ("Passive: you deal +2 damage to enemies with …",
    R-ADD-74).

    >>> TriggerEffect("start_of_turn", (GainTokensEffect("bargain", 1, cap=10),)).as_dict()
    {'kind': 'trigger', 'on': 'start_of_turn', 'then': [{'kind': 'gain_tokens', 'pool': 'bargain', 'n': 1, 'cap': 10}]}
    >>> TriggerEffect("casket_destroyed", (DrawEffect(2),), enemy_only=True, by_owner=True).as_dict()
    {'kind': 'trigger', 'on': 'casket_destroyed', 'then': [{'kind': 'draw', 'n': 2}], 'enemy_only': True, 'by_owner': True}
    >>> TriggerEffect("casket_destroyed", (DrawEffect(2),), enemy_only=True, ally_only=True)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: trigger.ally_only: a casket is an enemy's or an ally's, not both (R-ADD-131)
    """

    kind: ClassVar[str] = "trigger"
    on: str
    then: tuple[Effect, ...]
    within: int = 0
    enemy_only: bool = False
    # issue 17, triggers (R-ADD-131): "when an allied Casket … is destroyed", "when you
    # destroy an enemy Casket", "if you dealt the killing blow".
    ally_only: bool = False
    by_owner: bool = False
    # "Your next attack deals +3 damage" without "this bonus stacks": held once (R-ADD-139).
    stacks: bool = True

    def __post_init__(self) -> None:
        _check_choice(self.on, "trigger.on", TRIGGERS)
        if self.on == "attack":  # R-ADD-74: bonuses to each of the owner's attacks
            _check_inner(self.then, "trigger.then", ("attack_bonus",))
        elif self.on in ("damage_taken", "first_component_damage_each_round"):
            # R-ADD-136: a reduction of each damage, or of a round's first Component Damage
            _check_inner(self.then, "trigger.then", ("reduce_incoming",))
        else:
            # R-ADD-138: "gain +3 Defense until end of your next turn" (`defence`).
            kinds = (
                *_AFTER_KINDS,
                "buff_next_attack",
                "seed_area",
                "lasting_bonus",
                "when",
                "sp_boost",
                "defence",
            )
            _check_inner(self.then, "trigger.then", kinds)
        _check_bool(self.enemy_only, "trigger.enemy_only")
        _check_bool(self.ally_only, "trigger.ally_only")
        _check_bool(self.by_owner, "trigger.by_owner")
        _check_bool(self.stacks, "trigger.stacks")
        if not self.stacks and any(e.kind != "buff_next_attack" for e in self.then):
            raise InvalidInput(
                "trigger.stacks", "only a next-attack bonus is held once (false)", "R-ADD-139"
            )
        if self.on == "casket_destroyed":
            # R-ADD-131: 0 is "at any distance" ("each time an allied Casket is destroyed").
            _check_int(self.within, "trigger.within", 0, MAX_HEXES, "R-RNG-3")
            if self.enemy_only and self.ally_only:
                raise InvalidInput(
                    "trigger.ally_only",
                    "a casket is an enemy's or an ally's, not both",
                    "R-ADD-131",
                )
            if self.within == 0 and not (self.ally_only or self.by_owner):
                raise InvalidInput(
                    "trigger.within",
                    "any distance (0) only for an ally's destruction or the owner's own kill",
                    "R-ADD-131",
                )
        elif self.within or self.enemy_only or self.ally_only or self.by_owner:
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
        if self.ally_only:
            out["ally_only"] = True
        if self.by_owner:
            out["by_owner"] = True
        if not self.stacks:
            out["stacks"] = False
        return out


# --- lasting effects on an enemy (issue 17, dot) -------------------------------------------------

MAX_ROOT_TURNS = 3
# "Loses all SP next turn": a penalty above any SP maximum drains all of it (R-ADD-119).
SP_ALL = 99
MAX_BLEED = 20


@dataclass(frozen=True, slots=True)
class RootEffect:
    """ "Target cannot move until end of their next turn", "cannot move for 2 turns": the
    enemy is immobilised (R-ADD-17) through the whole of its next `turns` turns, whatever
    the ruleset (R-ADD-111). Used after a hit, or on a card without an attack: then the
    command's `target`, an enemy within the card's range (R-ADD-65).

    >>> RootEffect(2).as_dict()
    {'kind': 'root', 'turns': 2}
    >>> RootEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: root.turns: must be an integer from 1 to 3, got 0 (R-ADD-111)
    """

    kind: ClassVar[str] = "root"
    turns: int = 1

    def __post_init__(self) -> None:
        _check_int(self.turns, "root.turns", 1, MAX_ROOT_TURNS, "R-ADD-111")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "turns": self.turns}


@dataclass(frozen=True, slots=True)
class BleedEffect:
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
    # issue 17, combos: "target and adjacent enemies gain Bleed 1": the attacker's enemies
    # adjacent to the target gain `n` too, without an attack of their own (R-ADD-182).
    adjacent: bool = False

    def __post_init__(self) -> None:
        _check_int(self.n, "bleed.n", 1, MAX_BLEED, "R-ADD-110")
        _check_int(self.more_if_bleeding, "bleed.more_if_bleeding", 0, MAX_BLEED, "R-ADD-110")
        _check_bool(self.adjacent, "bleed.adjacent")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "n": self.n}
        if self.more_if_bleeding:
            out["more_if_bleeding"] = self.more_if_bleeding
        if self.adjacent:
            out["adjacent"] = True
        return out


@dataclass(frozen=True, slots=True)
class OngoingDamageEffect:
    """ "Ongoing: target takes N damage at start of their turn for T turns": a hit
    schedules `amount` damage at the start of each of the target's next `turns` turns,
    taken as R-ADD-73's scheduled damage is (R-ADD-112). Used after a hit.

    >>> OngoingDamageEffect(1, 3).as_dict()
    {'kind': 'ongoing_damage', 'amount': 1, 'turns': 3}
    """

    kind: ClassVar[str] = "ongoing_damage"
    amount: int
    turns: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "ongoing_damage.amount", 1, MAX_DAMAGE, "R-ADD-112")
        _check_int(self.turns, "ongoing_damage.turns", 1, 10, "R-ADD-112")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "turns": self.turns}


@dataclass(frozen=True, slots=True)
class MoveCostEffect:
    """ "Target's movement costs +N SP next turn": during its next turn each hex the
    target moves costs `amount` SP more (R-MOV-1, R-ADD-113). Used after a hit.

    >>> MoveCostEffect(2).as_dict()
    {'kind': 'move_cost', 'amount': 2}
    """

    kind: ClassVar[str] = "move_cost"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "move_cost.amount", 1, 5, "R-ADD-113")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class DrawPenaltyEffect:
    """ "Target draws N fewer card(s) next turn": the enemy's next Draw phase fills its
    hand to 6 − `n` (R-TRN-6, R-ADD-114). Used after a hit, or on a card without an
    attack: then the command's `target`, an enemy within the card's range (R-ADD-65).

    >>> DrawPenaltyEffect(1).as_dict()
    {'kind': 'draw_penalty', 'n': 1}
    """

    kind: ClassVar[str] = "draw_penalty"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "draw_penalty.n", 1, 6, "R-ADD-114")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class NoAttacksEffect:
    """ "Cannot attack until next turn": the own casket makes no attack until the start of
    its next turn (R-ADD-115).

    >>> NoAttacksEffect().as_dict()
    {'kind': 'no_attacks'}
    """

    kind: ClassVar[str] = "no_attacks"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class LowerDefenceEffect:
    """ "Target has −N Defense until end of their next turn": every attack on it cancels N
    more blocks (R-DMG-3) until its next turn ends (R-ADD-119). Used after a hit.

    >>> LowerDefenceEffect(1).as_dict()
    {'kind': 'lower_defence', 'amount': 1}
    """

    kind: ClassVar[str] = "lower_defence"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "lower_defence.amount", 1, 10, "R-ADD-119")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


TARGET_DISCARD_PICKS = ("random", "target")
TARGET_DISCARD_KINDS = ("any", "weapon", "shield")


@dataclass(frozen=True, slots=True)
class TargetDiscardsEffect:
    """ "Target discards 1 random (weapon) card", "destroy 1 Shield card in target's hand",
    "target discards 1 card": after a hit the target loses `n` cards from its hand, of
    kind `of` (a weapon: a Primary Weapon card; a shield card), picked at random or by the
    target itself (a prompt); `lost` ("destroy"): lost as damage is (R-DMG-8), not
    discarded (R-ADD-117).

    >>> TargetDiscardsEffect(1, "random", "shield", lost=True).as_dict()
    {'kind': 'target_discards', 'n': 1, 'pick': 'random', 'of': 'shield', 'lost': True}
    >>> TargetDiscardsEffect(1, "target", "weapon")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: target_discards.of: a target picks among all its cards (R-ADD-117)
    """

    kind: ClassVar[str] = "target_discards"
    n: int
    pick: str = "random"
    of: str = "any"
    lost: bool = False

    def __post_init__(self) -> None:
        _check_int(self.n, "target_discards.n", 1, 6, "R-ADD-117")
        _check_choice(self.pick, "target_discards.pick", TARGET_DISCARD_PICKS)
        _check_choice(self.of, "target_discards.of", TARGET_DISCARD_KINDS)
        _check_bool(self.lost, "target_discards.lost")
        if self.pick == "target" and (self.of != "any" or self.lost):
            raise InvalidInput(
                "target_discards.of", "a target picks among all its cards", "R-ADD-117"
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "n": self.n, "pick": self.pick, "of": self.of}
        if self.lost:
            out["lost"] = True
        return out


# --- issue 17, buffs: enhancements of later attacks, the own attack's rules, wards ----------

# "Your next ranged attack": an attack made with a card whose range is not Melee, the test
# R-ARC-3 already makes (R-ADD-90).
ENHANCED_ATTACKS = ("any", "ranged", "melee")


@dataclass(frozen=True, slots=True)
class EnhanceNextAttackEffect:
    """ "Enhance your next (ranged) attack: …": waits, with the card's source, for the
    owner's next attack of the kind `attacks` ("any" or "ranged", R-ADD-90), which spends
    it: +`damage`, `to_hit` on its target number, `ignore_defence` blocks cancelled
    (R-DMG-3, "all" R-ADD-60), cover and range band cancelled (R-COV-2, R-RNG-1), never
    a miss (R-ADD-91), the target's card Defense ignored (R-ADD-92). `this_turn`: it
    lapses unused at the end of the turn ("next attack this turn", R-ADD-90); `every`:
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
    >>> EnhanceNextAttackEffect("fire", damage=1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: enhance_next_attack.attacks: 'fire' is not one of: any, ranged, melee
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
    battles.engine.errors.InvalidInput: enhance_next_attack.then[0]: must be one of: attack_bonus, after_attack, area_attack (R-ADD-180)
    """

    kind: ClassVar[str] = "enhance_next_attack"
    attacks: str = "any"
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
    # issue 17, forms: "+2 damage to enemies that have Bleed counters on them" (R-ADD-173).
    vs_bleeding: bool = False
    # issue 17, combos: the attack's conditional bonuses and hit effects (R-ADD-180).
    then: tuple[Effect, ...] = ()

    def __post_init__(self) -> None:
        _check_choice(self.attacks, "enhance_next_attack.attacks", ENHANCED_ATTACKS)
        _check_bool(self.vs_bleeding, "enhance_next_attack.vs_bleeding")
        if self.vs_bleeding and not self.damage:
            raise InvalidInput(
                "enhance_next_attack.vs_bleeding", "only damage depends on Bleed", "R-ADD-173"
            )
        if self.then:
            kinds = ("attack_bonus", "after_attack", "area_attack")
            _check_inner(self.then, "enhance_next_attack.then", kinds, "R-ADD-180")
            for i, e in enumerate(self.then):
                # "Deal 3 damage to all adjacent enemies" on a shell: around its target.
                if isinstance(e, AreaAttackEffect) and e.around != "target":
                    raise InvalidInput(
                        f"enhance_next_attack.then[{i}].around",
                        "an enhancement's area is around the target of the attack it enhances",
                        "R-ADD-182",
                    )
            if self.every:  # what no attack spends cannot follow one attack's outcome
                raise InvalidInput(
                    "enhance_next_attack.then", "only an enhancement one attack spends", "R-ADD-180"
                )
        elif self.then != ():
            raise InvalidInput(
                "enhance_next_attack.then", "must be a tuple of effects", "R-ADD-180"
            )
        _check_int(self.sp_cost, "enhance_next_attack.sp_cost", -10, 0, "R-ADD-99")
        _check_int(self.reach, "enhance_next_attack.reach", 0, MAX_HEXES, "R-ADD-90")
        if self.reach and self.attacks != "ranged":
            raise InvalidInput(
                "enhance_next_attack.reach", "only a ranged attack reaches further", "R-ADD-90"
            )
        _check_bool(self.every, "enhance_next_attack.every")
        if self.every and not self.this_turn:
            raise InvalidInput(
                "enhance_next_attack.every", "every attack until when? give this_turn", "R-ADD-96"
            )
        _check_int(self.damage, "enhance_next_attack.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.to_hit, "enhance_next_attack.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        if self.ignore_defence != "all":
            _check_int(
                self.ignore_defence, "enhance_next_attack.ignore_defence", 0, MAX_DAMAGE, "R-DMG-3"
            )
        for name in _ENHANCE_FLAGS:
            _check_bool(getattr(self, name), f"enhance_next_attack.{name}")
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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "attacks": self.attacks}
        names = ("damage", "to_hit", "ignore_defence", *_ENHANCE_FLAGS, "every", "sp_cost", "reach")
        for name in (*names, "vs_bleeding"):  # issue 17, forms: vs_bleeding last
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.then:
            out["then"] = [e.as_dict() for e in self.then]
        return out


_ENHANCE_FLAGS = (
    "ignore_cover",
    "ignore_range",
    "cannot_miss",
    "ignore_defence_buffs",
    "this_turn",  # last: alone it changes nothing
)


@dataclass(frozen=True, slots=True)
class AttackRulesEffect:
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
            _check_bool(getattr(self, name), f"attack_rules.{name}")
        if not any(getattr(self, name) for name in _RULE_FLAGS):
            raise InvalidInput(
                "attack_rules",
                "changes nothing: give cannot_miss, no_reactive or ignore_defence_buffs",
                "R-ADD-91",
            )
        if self.condition is not None and not isinstance(self.condition, Condition):
            raise InvalidInput("attack_rules.condition", "must be a condition", "R-ADD-59")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        out.update({name: True for name in _RULE_FLAGS if getattr(self, name)})
        if self.condition is not None:
            out["condition"] = self.condition.as_dict()
        return out


_RULE_FLAGS = ("cannot_miss", "no_reactive", "ignore_defence_buffs")
# What a ward acts on: every damage the casket takes, or attacks (of one kind) only.
WARD_AGAINST = ("all", "attacks", "ranged", "melee")
# When a ward lapses (R-ADD-93): the end of the turn it was raised in, the end of the round,
# the start of the owner's next turn (as card Defense, R-ADD-64), the end of the owner's next
# turn, or only once its uses are spent.
WARD_UNTIL = ("end_of_turn", "end_of_round", "next_turn", "end_of_next_turn", "used")


@dataclass(frozen=True, slots=True)
class WardEffect:
    """A protection of the own casket lasting `until` (R-ADD-93): against attacks of the
    kind `against`, +`defence` blocks (R-DMG-3), +`to_hit` on their target number (R-HIT-1)
    and `damage` on their damage (R-DMG-1), as each is declared; then, on damage it
    takes (`against` "all": any damage), `reduce` off it and, when it is at least
    `at_least`, at most `cap` left (R-ADD-94). `uses` > 0: only the next that many
    attacks (or damages) it changes. `recover`: cards recovered each time it prevents
    damage (R-ADD-62). `immobile`: while it lasts the casket takes no move action (R-ADD-17).

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
    against: str = "attacks"
    defence: int = 0
    to_hit: int = 0
    damage: int = 0
    reduce: int = 0
    cap: int | None = None
    at_least: int = 0
    uses: int = 0
    recover: int = 0
    immobile: bool = False

    def __post_init__(self) -> None:
        _check_choice(self.until, "ward.until", WARD_UNTIL)
        _check_bool(self.immobile, "ward.immobile")
        _check_choice(self.against, "ward.against", WARD_AGAINST)
        _check_int(self.defence, "ward.defence", 0, 10, "R-DMG-3")
        _check_int(self.to_hit, "ward.to_hit", 0, MAX_TO_HIT, "R-HIT-1")
        _check_int(self.damage, "ward.damage", -MAX_DAMAGE, 0, "R-DMG-1")
        # Negative: "you take +1 damage from all sources" (R-ADD-96).
        _check_int(self.reduce, "ward.reduce", -MAX_DAMAGE, MAX_DAMAGE, "R-ADD-94")
        if self.cap is not None:
            _check_int(self.cap, "ward.cap", 0, MAX_DAMAGE, "R-ADD-94")
        _check_int(self.at_least, "ward.at_least", 0, MAX_DAMAGE, "R-ADD-94")
        _check_int(self.uses, "ward.uses", 0, 10, "R-ADD-93")
        _check_int(self.recover, "ward.recover", 0, MAX_CARDS, "R-ADD-62")
        before = (self.defence, self.to_hit, self.damage) != (0, 0, 0)
        after = self.reduce != 0 or self.cap is not None
        if not before and not after and not self.immobile:
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

    @property
    def declared(self) -> bool:
        """It acts as an attack is declared (Defense, to-hit, damage), not on damage taken."""
        return (self.defence, self.to_hit, self.damage) != (0, 0, 0)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "until": self.until, "against": self.against}
        for name in ("defence", "to_hit", "damage", "reduce", "cap", "at_least", "uses"):
            value = getattr(self, name)
            if value or (name == "cap" and value is not None):
                out[name] = value
        if self.recover:
            out["recover"] = self.recover
        if self.immobile:
            out["immobile"] = True
        return out


@dataclass(frozen=True, slots=True)
class GainSpEffect:
    """ "Gain +N SP this turn", "Recover N SP": N more SP to spend this turn, without raising
    the overspend limit's maximum (R-TRN-3, R-ADD-95).

    >>> GainSpEffect(3).as_dict()
    {'kind': 'gain_sp', 'amount': 3}
    """

    kind: ClassVar[str] = "gain_sp"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "gain_sp.amount", 1, 10, "R-ADD-95")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


DEFENCE_OUTCOMES = ("took_damage", "prevented_at_least")


@dataclass(frozen=True, slots=True)
class AfterDefenceEffect:
    """A reactive card's effects that wait for what it did (R-ADD-97): "if you took damage"
    from the attack it answered (after wards), or "if you block 3+ damage" (its own
    reduction prevented at least `n`). A PIERCE face voids them with the card (R-DMG-4).

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
        _check_choice(self.test, "after_defence.test", DEFENCE_OUTCOMES)
        if self.test == "prevented_at_least":
            _check_int(self.n, "after_defence.n", 1, MAX_DAMAGE, "R-ADD-97")
        elif self.n:
            raise InvalidInput("after_defence.n", f"{self.test!r} takes no threshold", "R-ADD-97")
        _check_inner(self.then, "after_defence.then", _AFTER_KINDS)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "test": self.test,
            "then": [e.as_dict() for e in self.then],
        }
        if self.n:
            out["n"] = self.n
        return out


# --- issue 17, states: effects whose text reads or changes a state of the battle ---------------

GIVE_HEAT_TO = ("target", "attacker")


@dataclass(frozen=True, slots=True)
class GiveHeatEffect:
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
    to: Literal["target", "attacker"] = "target"

    def __post_init__(self) -> None:
        _check_int(self.amount, "give_heat.amount", 1, MAX_HEAT, "R-ADD-143")
        _check_choice(self.to, "give_heat.to", GIVE_HEAT_TO)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount, "to": self.to}


@dataclass(frozen=True, slots=True)
class SpendTaintEffect:
    """ "Spend N Taint: <more>": with `spend: true` in the command the player removes `n`
    Taint, or "all" there is, from the own pilot, or, where `whose` is "either" ("yours
    or target's"), from the attack target's pilot when the command says `taint_from:
    "target"`; it buys the effects in `then` and `damage_per_taint` more damage on the
    card's attack per Taint spent (R-ADD-145).

    >>> SpendTaintEffect(2, "either", (AttackBonusEffect(2),)).as_dict()
    {'kind': 'spend_taint', 'n': 2, 'whose': 'either', 'then': [{'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0}]}
    >>> SpendTaintEffect(1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: spend_taint: spending buys nothing: give then or damage_per_taint (R-ADD-145)
    """

    kind: ClassVar[str] = "spend_taint"
    n: int | Literal["all"]
    whose: Literal["self", "either"] = "self"
    then: tuple[Effect, ...] = ()
    damage_per_taint: int = 0

    def __post_init__(self) -> None:
        if self.n != "all":
            _check_int(self.n, "spend_taint.n", 1, 10, "R-ADD-145")
        _check_choice(self.whose, "spend_taint.whose", ("self", "either"))
        _check_int(self.damage_per_taint, "spend_taint.damage_per_taint", 0, 10, "R-DMG-1")
        if not isinstance(self.then, tuple):
            raise InvalidInput("spend_taint.then", "must be a tuple of effects")
        if not self.then and not self.damage_per_taint:
            raise InvalidInput(
                "spend_taint", "spending buys nothing: give then or damage_per_taint", "R-ADD-145"
            )
        if self.then:
            _check_inner(self.then, "spend_taint.then", ("attack_bonus", "reduce_incoming"))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "n": self.n, "whose": self.whose}
        if self.then:
            out["then"] = [e.as_dict() for e in self.then]
        if self.damage_per_taint:
            out["damage_per_taint"] = self.damage_per_taint
        return out


@dataclass(frozen=True, slots=True)
class SeedAreaEffect:
    """Add `n` Thornvine seeds to every board hex within `within` hexes of the own casket
    (0: its own hex only), at most 4 a hex (R-ADD-66, R-ADD-147).

    >>> SeedAreaEffect(1, 2).as_dict()
    {'kind': 'seed_area', 'n': 1, 'within': 2}
    """

    kind: ClassVar[str] = "seed_area"
    n: int
    within: int

    def __post_init__(self) -> None:
        _check_int(self.n, "seed_area.n", 1, MAX_SEEDS, "R-ADD-66")
        _check_int(self.within, "seed_area.within", 0, 6, "R-ADD-147")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "within": self.within}


@dataclass(frozen=True, slots=True)
class MarkEffect:
    """ "Mark target enemy. When the marked enemy is destroyed, …": the command's `target`,
    an enemy within the card's range, becomes the owner's one mark; when that casket is
    destroyed while marked, the owner runs `then` (R-ADD-148). A new mark replaces the old.

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
        _check_inner(self.then, "mark.then", ("gain_tokens", "recover", "draw", "heat", "taint"))
        _check_int(self.damage, "mark.damage", 0, 10, "R-ADD-148")
        _check_bool(self.visible, "mark.visible")
        _check_bool(self.tracks, "mark.tracks")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "then": [e.as_dict() for e in self.then]}
        if self.damage:
            out["damage"] = self.damage
        if self.visible:
            out["visible"] = True
        if self.tracks:
            out["tracks"] = True
        return out


# --- issue 17, triggers: thorns, lasting bonuses, token costs ---------------------------------


@dataclass(frozen=True, slots=True)
class ThornsEffect:
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
    melee_only: bool = False
    until: Literal["next_turn", "next_attack"] = "next_turn"

    def __post_init__(self) -> None:
        _check_int(self.damage, "thorns.damage", 1, MAX_DAMAGE, "R-ADD-130")
        _check_bool(self.melee_only, "thorns.melee_only")
        _check_choice(self.until, "thorns.until", THORNS_UNTIL)
        if self.melee_only and self.until == "next_attack":
            # No card says "the next melee attacker": the next attacker is any attacker.
            raise InvalidInput(
                "thorns.melee_only", "the next attack's thorns answer any attack", "R-ADD-130"
            )

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "damage": self.damage,
            "melee_only": self.melee_only,
            "until": self.until,
        }


THORNS_UNTIL = ("next_turn", "next_attack")


@dataclass(frozen=True, slots=True)
class LastingBonusEffect:
    """ "+N damage to all attacks permanently for the rest of the mission (stacks)": every
    attack the owner declares from now on, for the rest of the battle, deals `damage` more
    (R-DMG-1, R-ADD-131).

    >>> LastingBonusEffect(1).as_dict()
    {'kind': 'lasting_bonus', 'damage': 1}
    """

    kind: ClassVar[str] = "lasting_bonus"
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.damage, "lasting_bonus.damage", 1, 10, "R-ADD-131")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class SpBoostEffect:
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
        _check_int(self.amount, "sp_boost.amount", 1, 10, "R-ADD-135")
        _check_bool(self.maximum, "sp_boost.maximum")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "amount": self.amount}
        if self.maximum:
            out["maximum"] = True
        return out


@dataclass(frozen=True, slots=True)
class BuffThisTurnEffect:
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
    damage: int = 0
    to_hit: int = 0
    ignore_defence: int = 0

    def __post_init__(self) -> None:
        _check_int(self.damage, "buff_this_turn.damage", -MAX_DAMAGE, MAX_DAMAGE, "R-DMG-1")
        _check_int(self.to_hit, "buff_this_turn.to_hit", -MAX_TO_HIT, MAX_TO_HIT, "R-HIT-1")
        _check_int(self.ignore_defence, "buff_this_turn.ignore_defence", 0, MAX_DAMAGE, "R-DMG-3")
        if (self.damage, self.to_hit, self.ignore_defence) == (0, 0, 0):
            raise InvalidInput(
                "buff_this_turn",
                "changes nothing: give damage, to_hit or ignore_defence",
                "R-ADD-139",
            )

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "damage": self.damage,
            "to_hit": self.to_hit,
            "ignore_defence": self.ignore_defence,
        }


@dataclass(frozen=True, slots=True)
class UnflankableEffect:
    """ "Passive: You can see in 360° (cannot be flanked). Attacks against you from behind do
    not gain bonuses": once the card is in play, every attack on its owner comes from the
    owner's front (R-ARC-1, R-ARC-2, R-ADD-136).

    >>> UnflankableEffect().as_dict()
    {'kind': 'unflankable'}
    """

    kind: ClassVar[str] = "unflankable"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class HeatCapacityEffect:
    """ "You can have up to 12 Heat before overheating (instead of 10)": once the card is in
    play, its owner's strain check is an automatic critical failure only from `heat` Heat
    on, and rolls below it (R-TRN-4, R-ADD-136).

    >>> HeatCapacityEffect(12).as_dict()
    {'kind': 'heat_capacity', 'heat': 12}
    """

    kind: ClassVar[str] = "heat_capacity"
    heat: int

    def __post_init__(self) -> None:
        _check_int(self.heat, "heat_capacity.heat", 11, MAX_HEAT, "R-ADD-136")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "heat": self.heat}


@dataclass(frozen=True, slots=True)
class DestroyOnCriticalEffect:
    """ "Destroy 1 Component on Crit": when the card's attack is a critical hit, the targeted
    component (R-DMG-6) is destroyed as the attack ends (R-HIT-4, R-DMG-7, R-ADD-131).

    >>> DestroyOnCriticalEffect().as_dict()
    {'kind': 'destroy_on_critical'}
    """

    kind: ClassVar[str] = "destroy_on_critical"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class FreePassageEffect:
    """ "You may move through enemy-occupied hexes … You may ignore terrain costs": once the
    card is in play, its owner's moves pass through enemies as through allies (never ending
    on one) and pay 1 SP a hex whatever its terrain, climbing and legs still counted
    (R-MOV-2, R-BRD-3, R-ADD-136).

    >>> FreePassageEffect().as_dict()
    {'kind': 'free_passage'}
    """

    kind: ClassVar[str] = "free_passage"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class TaintCounterEffect:
    """ "Spend 1 Taint: Deal 4 damage instead" on a reactive card's counter-damage: the
    player may (`spend: true`) lower the own pilot's Taint by `n` for `counter` more
    counter-damage (R-PLT-4, R-ADD-58, R-ADD-130).

    >>> TaintCounterEffect(1, 2).as_dict()
    {'kind': 'taint_counter', 'n': 1, 'counter': 2}
    """

    kind: ClassVar[str] = "taint_counter"
    n: int
    counter: int

    def __post_init__(self) -> None:
        _check_int(self.n, "taint_counter.n", 1, 10, "R-ADD-130")
        _check_int(self.counter, "taint_counter.counter", 1, MAX_DAMAGE, "R-ADD-130")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "counter": self.counter}


@dataclass(frozen=True, slots=True)
class SelfDamageEffect:
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
        _check_int(self.amount, "self_damage.amount", 1, MAX_DAMAGE, "R-ADD-130")
        _check_choice(self.avoid_pool, "self_damage.avoid_pool", TOKEN_POOLS)
        _check_int(self.avoid_n, "self_damage.avoid_n", 1, MAX_TOKENS, "R-ADD-61")

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "amount": self.amount,
            "avoid_pool": self.avoid_pool,
            "avoid_n": self.avoid_n,
        }


@dataclass(frozen=True, slots=True)
class RiposteEffect:
    """ "After taking damage, immediately counterattack for 3 damage": R-ADD-58's
    counter-damage, dealt only when the attack the reactive card answered left the defender
    at least 1 damage to take (R-ADD-130).

    >>> RiposteEffect(3).as_dict()
    {'kind': 'riposte', 'damage': 3}
    """

    kind: ClassVar[str] = "riposte"
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.damage, "riposte.damage", 1, MAX_DAMAGE, "R-ADD-130")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class TokenCostEffect:
    """A printed cost in tokens ("1 Forge token", "3 Credit tokens"): the card costs 0 SP
    and playing it needs and spends `n` tokens of `pool`, as it is played (R-ADD-133).

    >>> TokenCostEffect("forge", 1).as_dict()
    {'kind': 'token_cost', 'pool': 'forge', 'n': 1}
    >>> TokenCostEffect("gold", 1)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: token_cost.pool: 'gold' is not one of: forge, credit, biomass, soul_shard, bargain, metamorph, rune
    """

    kind: ClassVar[str] = "token_cost"
    pool: str
    n: int

    def __post_init__(self) -> None:
        _check_choice(self.pool, "token_cost.pool", TOKEN_POOLS)
        _check_int(self.n, "token_cost.n", 1, MAX_TOKENS, "R-ADD-133")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pool": self.pool, "n": self.n}


# What a conditional or after-the-attack effect may do: the casket's own resources, and
# Taint; never an attack, a move or a choice the command makes.
_AFTER_KINDS = (
    *("gain_tokens", "recover", "draw", "heat", "taint", "hinder", "sp_penalty", "plant_seeds"),
    "damage_next_turn",
    # issue 17, dot: lasting effects on the attack's target (R-ADD-110 to R-ADD-114)
    *("root", "bleed", "ongoing_damage", "move_cost", "draw_penalty", "target_discards"),
    "lower_defence",
)


def _check_inner(effects: object, field: str, kinds: Sequence[str], rule: str = "R-ADD-65") -> None:
    if not isinstance(effects, tuple) or not effects:
        raise InvalidInput(field, "must be a non-empty tuple of effects")
    for i, e in enumerate(effects):
        if getattr(e, "kind", None) not in kinds:
            raise InvalidInput(f"{field}[{i}]", f"must be one of: {', '.join(kinds)}", rule)


# issue 17, allies: what a card may do for an ally, the ally's own resources (R-ADD-120).
_ALLY_KINDS = (
    *("recover", "draw", "heat", "gain_tokens", "taint", "buff_next_attack", "defence"),
    "remove_damage_card",
)


@dataclass(frozen=True, slots=True)
class AllyEffect:
    """ "Ally within N hexes recovers 3 cards", "Remove 1 Taint from self or ally within 2
    hexes", "All allies within 3 hexes recover 2 cards": `then` acts on an ally, not on the
    player's casket (R-ADD-120). The ally is a casket of the own side in the battle within
    `within` hexes, named by the command's `target`; `self_allowed` lets the target be the
    player's own casket ("self or ally"); `every` acts on each such ally instead, none
    named; `faction` takes only allies whose setup names that faction (R-ADD-121). A
    `defence` it gives lasts until the start of the player's next turn ("until your next
    turn"), or with `defence_until` "end_of_round" until the round ends (R-ADD-123).

    >>> AllyEffect(3, (RecoverEffect(3),)).as_dict()
    {'kind': 'ally', 'within': 3, 'then': [{'kind': 'recover', 'n': 3}]}
    >>> AllyEffect(3, (DefenceEffect(1),), defence_until="end_of_round").as_dict()["defence_until"]
    'end_of_round'
    >>> AllyEffect(3, (MoveEffect(1),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: ally.then[0]: must be one of: recover, draw, heat, gain_tokens, taint, buff_next_attack, defence, remove_damage_card (R-ADD-120)
    """

    kind: ClassVar[str] = "ally"
    within: int
    then: tuple[Effect, ...]
    self_allowed: bool = False
    every: bool = False
    faction: str | None = None
    defence_until: Literal["your_next_turn", "end_of_round"] = "your_next_turn"
    # "Allies behind you": only those on the player's rear sides 3-5 (R-ARC-1, R-ADD-127).
    behind: bool = False

    def __post_init__(self) -> None:
        _check_int(self.within, "ally.within", 1, MAX_HEXES, "R-ADD-120")
        _check_bool(self.behind, "ally.behind")
        if self.behind and not self.every:
            raise InvalidInput("ally.behind", "'behind' picks among every ally", "R-ADD-127")
        _check_choice(self.defence_until, "ally.defence_until", ("your_next_turn", "end_of_round"))
        if self.defence_until != "your_next_turn" and not any(
            isinstance(e, DefenceEffect) for e in self.then if isinstance(self.then, tuple)
        ):
            raise InvalidInput("ally.defence_until", "gives no defence to last", "R-ADD-123")
        _check_inner(self.then, "ally.then", _ALLY_KINDS, "R-ADD-120")
        for i, e in enumerate(self.then):
            if isinstance(e, TaintEffect) and e.target != "self":
                raise InvalidInput(
                    f"ally.then[{i}].target", "an ally's Taint is its own: 'self'", "R-ADD-120"
                )
        _check_bool(self.self_allowed, "ally.self_allowed")
        _check_bool(self.every, "ally.every")
        if self.every and self.self_allowed:
            raise InvalidInput(
                "ally.self_allowed",
                "'every' acts on the allies only, never the own casket",
                "R-ADD-120",
            )
        if self.faction is not None and (
            not isinstance(self.faction, str) or not _SLUG_RE.fullmatch(self.faction)
        ):
            raise InvalidInput(
                "ally.faction", f"{self.faction!r} is not a faction name", "R-ADD-121"
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "kind": self.kind,
            "within": self.within,
            "then": [e.as_dict() for e in self.then],
        }
        if self.self_allowed:
            out["self_allowed"] = True
        if self.every:
            out["every"] = True
        if self.faction is not None:
            out["faction"] = self.faction
        if self.defence_until != "your_next_turn":
            out["defence_until"] = self.defence_until
        if self.behind:
            out["behind"] = True
        return out


@dataclass(frozen=True, slots=True)
class CoverEffect:
    """ "Reactive: Take ally's damage", "When an ally within 2 hexes would take damage,
    redirect that damage to yourself": a reactive card an ally of the attacked casket, within
    `within` hexes of it, plays after the hit; the damage the attacked casket's defence roll
    leaves is the card player's to take instead, less the card's own reductions (R-ADD-122).

    >>> CoverEffect(1).as_dict()
    {'kind': 'cover', 'within': 1}
    """

    kind: ClassVar[str] = "cover"
    within: int

    def __post_init__(self) -> None:
        _check_int(self.within, "cover.within", 1, MAX_HEXES, "R-ADD-122")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "within": self.within}


@dataclass(frozen=True, slots=True)
class RemoveDamageCardEffect:
    """ "Remove 1 Damage card from target's discard pile from the game": the `n` Damage
    cards (R-TRN-6) most recently discarded leave the game, as many as the pile holds
    (R-ADD-124).

    >>> RemoveDamageCardEffect(1).as_dict()
    {'kind': 'remove_damage_card', 'n': 1}
    """

    kind: ClassVar[str] = "remove_damage_card"
    n: int

    def __post_init__(self) -> None:
        _check_int(self.n, "remove_damage_card.n", 1, MAX_CARDS, "R-ADD-124")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


@dataclass(frozen=True, slots=True)
class DeflectEffect:
    """ "Reactive: Redirect 3 damage to attacker": the answered attack's damage left after
    the defence dice is `amount` lower, and what that took off, at most `amount`, is the
    attacker's to take once the attack has ended (R-ADD-125).

    >>> DeflectEffect(3).as_dict()
    {'kind': 'deflect', 'amount': 3}
    """

    kind: ClassVar[str] = "deflect"
    amount: int

    def __post_init__(self) -> None:
        _check_int(self.amount, "deflect.amount", 1, MAX_DAMAGE, "R-ADD-125")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "amount": self.amount}


@dataclass(frozen=True, slots=True)
class AllyMoveEffect:
    """ "Choose 1 allied … Casket within range. They immediately move up to 2 hexes toward
    you", "Allied Emergent units within 3 hexes may also move 1 hex": allies within
    `within` hexes (of `faction` when given, R-ADD-121) may each move up to `hexes` hexes,
    every step legal as R-TRN-5 and R-LOS-5 say, and with `toward` each step nearer the
    player's casket. The command's `ally_paths` gives each path; the ally is the one its
    `target` names, or with `every` any ally in reach (R-ADD-126).

    >>> AllyMoveEffect(2, 6, toward=True).as_dict()
    {'kind': 'ally_move', 'hexes': 2, 'within': 6, 'toward': True}
    """

    kind: ClassVar[str] = "ally_move"
    hexes: int
    within: int
    every: bool = False
    faction: str | None = None
    toward: bool = False
    # "Draw 1 card for each ally that moves": the player's draw per ally moved (R-ADD-126).
    draw_per_ally: int = 0
    # "Move 1 hex toward target": each step nearer the card's attack target (R-ADD-126).
    toward_target: bool = False

    def __post_init__(self) -> None:
        _check_int(self.hexes, "ally_move.hexes", 1, MAX_HEXES, "R-ADD-126")
        _check_int(self.draw_per_ally, "ally_move.draw_per_ally", 0, 3, "R-ADD-126")
        _check_bool(self.toward_target, "ally_move.toward_target")
        if self.toward_target and (self.toward or not self.every):
            # The attack's `target` is the enemy: no ally can be named by it as well.
            raise InvalidInput(
                "ally_move.toward_target",
                "moves every ally in reach toward the attack's target, not toward you",
                "R-ADD-126",
            )
        _check_int(self.within, "ally_move.within", 1, MAX_HEXES, "R-ADD-126")
        _check_bool(self.every, "ally_move.every")
        _check_bool(self.toward, "ally_move.toward")
        if self.faction is not None and (
            not isinstance(self.faction, str) or not _SLUG_RE.fullmatch(self.faction)
        ):
            raise InvalidInput(
                "ally_move.faction", f"{self.faction!r} is not a faction name", "R-ADD-121"
            )

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "hexes": self.hexes, "within": self.within}
        if self.every:
            out["every"] = True
        if self.faction is not None:
            out["faction"] = self.faction
        if self.toward:
            out["toward"] = True
        if self.draw_per_ally:
            out["draw_per_ally"] = self.draw_per_ally
        if self.toward_target:
            out["toward_target"] = True
        return out


@dataclass(frozen=True, slots=True)
class GuardEffect:
    """ "Negate all damage from next attack targeting you or ally within 2 hexes": played,
    the card stays in play until the next attack declared on the player's casket or on an
    ally within `within` hexes of it; that attack deals no damage and the card is then
    discarded (R-ADD-128).

    >>> GuardEffect(2).as_dict()
    {'kind': 'guard', 'within': 2}
    """

    kind: ClassVar[str] = "guard"
    within: int

    def __post_init__(self) -> None:
        _check_int(self.within, "guard.within", 1, MAX_HEXES, "R-ADD-128")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "within": self.within}


@dataclass(frozen=True, slots=True)
class ZoneEffect:
    """ "Create a 3-hex radius healing zone centered on you until end of round. Allied
    Caskets in this zone recover 2 cards from discard pile at start of their turn": played,
    the card stays in play until the round ends, its zone fixed on the player's hex; each
    ally that starts its turn within `radius` hexes of it gets `then` (R-ADD-129).

    >>> ZoneEffect(3, (RecoverEffect(2),)).as_dict()
    {'kind': 'zone', 'radius': 3, 'then': [{'kind': 'recover', 'n': 2}]}
    """

    kind: ClassVar[str] = "zone"
    radius: int
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        _check_int(self.radius, "zone.radius", 1, MAX_HEXES, "R-ADD-129")
        _check_inner(
            self.then, "zone.then", ("recover", "draw", "heat", "gain_tokens"), "R-ADD-129"
        )

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "radius": self.radius, "then": [e.as_dict() for e in self.then]}


# issue 17, combos
@dataclass(frozen=True, slots=True)
class GrantRotationEffect:
    """ "Rotate once after attacking": as the attack ends, the casket's free 60° rotation of
    the turn (R-ARC-5) is available again if it was used; it lapses with the turn (R-ADD-189).
    Used in `after_attack`.

    >>> GrantRotationEffect().as_dict()
    {'kind': 'grant_rotation'}
    """

    kind: ClassVar[str] = "grant_rotation"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


# --- issue 17, misc: optional costs and alternatives, named recoveries ------------------------


@dataclass(frozen=True, slots=True)
class UnlessSpentEffect:
    """ "Gain 1 Credit. OR: Spend 3 Credits to deal 7 damage instead": `then` runs only when
    the command does not spend the card's tokens (`spend` false), so the spend replaces
    it (R-ADD-151). The card must have a spend_tokens effect.

    >>> UnlessSpentEffect((GainTokensEffect("credit", 1),)).as_dict()
    {'kind': 'unless_spent', 'then': [{'kind': 'gain_tokens', 'pool': 'credit', 'n': 1}]}
    >>> UnlessSpentEffect(())
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: unless_spent.then: must be a non-empty tuple of effects
    """

    kind: ClassVar[str] = "unless_spent"
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        _check_inner(self.then, "unless_spent.then", _AFTER_KINDS)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "then": [e.as_dict() for e in self.then]}


@dataclass(frozen=True, slots=True)
class DiscardForEffect:
    """ "Discard 1 card to deal +2 damage": an optional cost the player pays by sending
    `spend: true` (as for tokens, R-ADD-61): `n` cards are discarded, those the command
    names in `discard` from the hand and the rest from the top of the deck, and `then`
    runs; on an attack card before the attack is declared, so its bonus is this
    attack's (R-ADD-152).

    >>> DiscardForEffect(1, (AttackBonusEffect(2),)).as_dict()
    {'kind': 'discard_for', 'n': 1, 'then': [{'kind': 'attack_bonus', 'damage': 2, 'to_hit': 0}]}
    >>> DiscardForEffect(0, (AttackBonusEffect(2),))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: discard_for.n: must be an integer from 1 to 30, got 0 (R-ADD-152)
    """

    kind: ClassVar[str] = "discard_for"
    n: int
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        _check_int(self.n, "discard_for.n", 1, MAX_CARDS, "R-ADD-152")
        _check_inner(self.then, "discard_for.then", ("attack_bonus", *_AFTER_KINDS))

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "then": [e.as_dict() for e in self.then]}


@dataclass(frozen=True, slots=True)
class RecoverNamedEffect:
    """ "Recover 1 discarded Hand Axe card from discard pile": the `n` most recently
    discarded cards whose card id is one of `cards` go back to the hand, newest first, as
    many as the pile holds (R-ADD-62, R-ADD-153).

    >>> RecoverNamedEffect(("hand-axe-throw", "hand-axe-chop")).as_dict()
    {'kind': 'recover_named', 'cards': ['hand-axe-throw', 'hand-axe-chop'], 'n': 1}
    >>> RecoverNamedEffect(("Hand Axe",))
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: recover_named.cards[0]: 'Hand Axe' is not a card id (R-ADD-153)
    """

    kind: ClassVar[str] = "recover_named"
    cards: tuple[str, ...]
    n: int = 1

    def __post_init__(self) -> None:
        if not isinstance(self.cards, tuple) or not self.cards:
            raise InvalidInput("recover_named.cards", "must name at least one card id", "R-ADD-153")
        for i, name in enumerate(self.cards):
            if not isinstance(name, str) or not _SLUG_RE.fullmatch(name):
                raise InvalidInput(
                    f"recover_named.cards[{i}]", f"{name!r} is not a card id", "R-ADD-153"
                )
        _check_int(self.n, "recover_named.n", 1, MAX_CARDS, "R-ADD-62")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": list(self.cards), "n": self.n}


@dataclass(frozen=True, slots=True)
class UntargetableEffect:
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
    against: Literal["all", "ranged"] = "all"
    until_attack: bool = False

    def __post_init__(self) -> None:
        _check_choice(self.against, "untargetable.against", ("all", "ranged"))
        _check_bool(self.until_attack, "untargetable.until_attack")

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "against": self.against}
        if self.until_attack:
            out["until_attack"] = True
        return out


@dataclass(frozen=True, slots=True)
class LookAtHandEffect:
    """ "Look at target enemy's hand": the command's `target`, an enemy within the card's
    printed range, shows its hand to the player; the cards are recorded in the event, seen
    by that player, the target's and the GM (R-ADD-28, R-ADD-156).

    >>> LookAtHandEffect().as_dict()
    {'kind': 'look_at_hand'}
    """

    kind: ClassVar[str] = "look_at_hand"

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class BonusAgainstEffect:
    """ "Your next attack vs that target +N damage": the command's `target`, an enemy
    within the card's printed range, is marked; the owner's next attack declared against
    it gets +`damage` and spends the mark (R-DMG-1, R-ADD-156).

    >>> BonusAgainstEffect(2).as_dict()
    {'kind': 'bonus_against', 'damage': 2}
    >>> BonusAgainstEffect(0)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: bonus_against.damage: must be an integer from 1 to 100, got 0 (R-DMG-1)
    """

    kind: ClassVar[str] = "bonus_against"
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.damage, "bonus_against.damage", 1, MAX_DAMAGE, "R-DMG-1")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class ArrangeTopEffect:
    """ "Look at top N cards of your deck, arrange them in any order": the player sees the
    top `n` cards (an event only that seat and the GM see) and is asked (prompt `arrange`)
    for their new order; it is the card's last effect. A table arranges its own deck,
    whose order the engine never knows (R-ADD-18, R-ADD-157). `then` runs once the order
    is given, with the answer's `spend` ("Spend 1 Credit token to draw 1 additional card").

    >>> ArrangeTopEffect(3).as_dict()
    {'kind': 'arrange_top', 'n': 3}
    >>> ArrangeTopEffect(3, (SpendTokensEffect("credit", 1, (DrawEffect(1),)),)).as_dict()["then"]
    [{'kind': 'spend_tokens', 'pool': 'credit', 'n': 1, 'then': [{'kind': 'draw', 'n': 1}]}]
    """

    kind: ClassVar[str] = "arrange_top"
    n: int
    then: tuple[Effect, ...] = ()

    def __post_init__(self) -> None:
        _check_int(self.n, "arrange_top.n", 2, MAX_CARDS, "R-ADD-157")
        if self.then:
            _check_inner(self.then, "arrange_top.then", ("spend_tokens", *_AFTER_KINDS))

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "n": self.n}
        if self.then:
            out["then"] = [e.as_dict() for e in self.then]
        return out


@dataclass(frozen=True, slots=True)
class ScavengeWreckEffect:
    """ "Target a destroyed enemy wreck within 4 hexes. Gain 3 Soul Shards. That wreck is
    removed from play": the command's `target` is a defeated enemy casket whose wreck lies
    within the card's printed range and was not scavenged before; it is removed and `then`
    runs (R-ADD-158).

    >>> ScavengeWreckEffect((GainTokensEffect("soul_shard", 3),)).as_dict()
    {'kind': 'scavenge_wreck', 'then': [{'kind': 'gain_tokens', 'pool': 'soul_shard', 'n': 3}]}
    """

    kind: ClassVar[str] = "scavenge_wreck"
    then: tuple[Effect, ...]

    def __post_init__(self) -> None:
        _check_inner(self.then, "scavenge_wreck.then", _AFTER_KINDS)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "then": [e.as_dict() for e in self.then]}


@dataclass(frozen=True, slots=True)
class UltimatumEffect:
    """ "Target enemy must choose: [1] Take N damage immediately, OR [2] Skip their next
    turn": the command's `target`, an enemy within the card's printed range, is asked
    (prompt `ultimatum`, answered by `choose`); it is the card's last effect (R-ADD-159).

    >>> UltimatumEffect(4).as_dict()
    {'kind': 'ultimatum', 'damage': 4}
    """

    kind: ClassVar[str] = "ultimatum"
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.damage, "ultimatum.damage", 1, MAX_DAMAGE, "R-ADD-159")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class DamageBargainEffect:
    """ "Enemy may discard 2 cards from hand to reduce damage to 2": when the card's attack
    hits (not an EXECUTION), its target is asked (prompt `bargain`, answered by `choose`)
    whether it discards `cards` cards of its hand to make the hit's damage `damage`,
    before the reactive window (R-ADD-159).

    >>> DamageBargainEffect(2, 2).as_dict()
    {'kind': 'damage_bargain', 'cards': 2, 'damage': 2}
    """

    kind: ClassVar[str] = "damage_bargain"
    cards: int
    damage: int

    def __post_init__(self) -> None:
        _check_int(self.cards, "damage_bargain.cards", 1, MAX_CARDS, "R-ADD-159")
        _check_int(self.damage, "damage_bargain.damage", 0, MAX_DAMAGE, "R-ADD-159")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "cards": self.cards, "damage": self.damage}


@dataclass(frozen=True, slots=True)
class OfferMissEffect:
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
        _check_choice(self.pool, "offer_miss.pool", TOKEN_POOLS)
        _check_int(self.n, "offer_miss.n", 1, MAX_TOKENS, "R-ADD-159")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pool": self.pool, "n": self.n}


@dataclass(frozen=True, slots=True)
class TransformEffect:
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
        _check_choice(self.form, "transform.form", FORMS)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "form": self.form}


@dataclass(frozen=True, slots=True)
class DuelEffect:
    """ "Challenge 1 visible enemy to Honor Duel …": the command's `target`, a visible enemy
    within the card's range, is asked (prompt `duel`). Accepting, the two may attack only
    each other, and no one else may attack them, until the challenger's next turn starts;
    if the challenger's attack kills the target meanwhile, it runs `then`. Refusing, the
    target gains Coward's Mark: Crucible attacks on it deal +`mark_damage` for the rest of
    the battle (R-ADD-174).

    >>> DuelEffect((GainTokensEffect("forge", 3), RecoverEffect(3)), 2).as_dict()["mark_damage"]
    2
    """

    kind: ClassVar[str] = "duel"
    then: tuple[Effect, ...]
    mark_damage: int

    def __post_init__(self) -> None:
        _check_inner(self.then, "duel.then", ("gain_tokens", "recover", "draw"), "R-ADD-174")
        _check_int(self.mark_damage, "duel.mark_damage", 1, 10, "R-ADD-174")

    def as_dict(self) -> dict[str, Any]:
        then = [e.as_dict() for e in self.then]
        return {"kind": self.kind, "then": then, "mark_damage": self.mark_damage}


@dataclass(frozen=True, slots=True)
class BarReactivesEffect:
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

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.condition is not None:
            out["condition"] = self.condition.as_dict()
        return out


@dataclass(frozen=True, slots=True)
class ForfeitTokensEffect:
    """ "Spend all Forge tokens." as a card's price, buying nothing it names: every token of
    `pool` the casket holds goes as the card is played, none needed (R-ADD-175).

    >>> ForfeitTokensEffect("forge").as_dict()
    {'kind': 'forfeit_tokens', 'pool': 'forge'}
    """

    kind: ClassVar[str] = "forfeit_tokens"
    pool: str

    def __post_init__(self) -> None:
        _check_choice(self.pool, "forfeit_tokens.pool", TOKEN_POOLS)

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "pool": self.pool}


@dataclass(frozen=True, slots=True)
class AdvantageEffect:
    """ "Roll with Advantage (3d6, take 2 highest)": the card's own attack roll has `n` more
    advantage (R-HIT-6's pool: +1 rolls 3 dice and keeps the 2 highest), whether or not
    option dice_pool_advantage is on (R-ADD-176).

    >>> AdvantageEffect().as_dict()
    {'kind': 'advantage', 'n': 1}
    """

    kind: ClassVar[str] = "advantage"
    n: int = 1

    def __post_init__(self) -> None:
        _check_int(self.n, "advantage.n", 1, 2, "R-HIT-6")

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}


# --- issue 17, terrain: terrain made during a battle --------------------------------------------

TERRAIN_AT = ("hex", "self", "target")
TERRAIN_UNTIL = ("end_of_round", "rounds", "turns", "battle")
MAX_TERRAIN_HEXES = 5  # the largest printed: Ice Wall's "5-hex ice wall"


@dataclass(frozen=True, slots=True)
class TerrainEffect:
    """ "Target hex becomes smoke terrain (blocks line of sight). Lasts until end of round":
    `hexes` hexes of `terrain` (a kind of R-ADD-160: smoke, lava, ice, difficult) made
    `at` the hexes the command's `path` names ("hex": the first within the card's range
    and in sight, each next one adjacent to one before, R-ADD-162), the own casket's hex
    ("self") or the attack target's as the attack ends ("target", in `after_attack`). It
    lasts until the end of the round, for `n` rounds or `n` of the player's turns (the
    current one counts), or for the rest of the battle (R-ADD-161).

    >>> TerrainEffect("smoke", hexes=3, until="rounds", n=2).as_dict()
    {'kind': 'terrain', 'terrain': 'smoke', 'hexes': 3, 'at': 'hex', 'until': 'rounds', 'n': 2}
    >>> TerrainEffect("smoke", hexes=2, at="self")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: terrain.hexes: 'self' and 'target' make one hex, got 2 (R-ADD-162)
    """

    kind: ClassVar[str] = "terrain"
    terrain: str
    hexes: int = 1
    at: Literal["hex", "self", "target"] = "hex"
    until: Literal["end_of_round", "rounds", "turns", "battle"] = "end_of_round"
    n: int = 1
    # "Enemies entering take 2 damage", a mine's "when enemy enters, deal 6 damage" (R-ADD-165)
    damage: int = 0

    def __post_init__(self) -> None:
        _check_choice(self.terrain, "terrain.terrain", tuple(BATTLE_TERRAIN))
        _check_int(self.damage, "terrain.damage", 0, MAX_DAMAGE, "R-ADD-165")
        _check_int(self.hexes, "terrain.hexes", 1, MAX_TERRAIN_HEXES, "R-ADD-162")
        _check_choice(self.at, "terrain.at", TERRAIN_AT)
        _check_choice(self.until, "terrain.until", TERRAIN_UNTIL)
        _check_int(self.n, "terrain.n", 1, 10, "R-ADD-161")
        if self.at != "hex" and self.hexes != 1:
            raise InvalidInput(
                "terrain.hexes", f"'self' and 'target' make one hex, got {self.hexes}", "R-ADD-162"
            )

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "terrain": self.terrain,
            "hexes": self.hexes,
            "at": self.at,
            "until": self.until,
            "n": self.n,
            **({"damage": self.damage} if self.damage else {}),
        }


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
    # issue 17, dot
    | RootEffect
    | BleedEffect
    | OngoingDamageEffect
    | MoveCostEffect
    | DrawPenaltyEffect
    | NoAttacksEffect
    | TargetDiscardsEffect
    | LowerDefenceEffect
    # issue 17, area
    | FollowUpEffect
    | AreaAttackEffect
    | RemoveTaintRolledEffect
    | AreaHinderEffect
    | DamageAuraEffect
    # issue 17, buffs
    | EnhanceNextAttackEffect
    | AttackRulesEffect
    | WardEffect
    | GainSpEffect
    | AfterDefenceEffect
    | PushEffect  # issue 17, move
    | TeleportEffect  # issue 17, move
    | ScatterEffect  # issue 17, move
    | GiveHeatEffect  # issue 17, states
    | SpendTaintEffect  # issue 17, states
    | SeedAreaEffect  # issue 17, states
    | MarkEffect  # issue 17, states
    # issue 17, misc
    | UnlessSpentEffect
    | DiscardForEffect
    | RecoverNamedEffect
    | UntargetableEffect
    | LookAtHandEffect
    | BonusAgainstEffect
    | ArrangeTopEffect
    | ScavengeWreckEffect
    | UltimatumEffect
    | DamageBargainEffect
    | OfferMissEffect
    | AllyEffect  # issue 17, allies
    | CoverEffect  # issue 17, allies
    | RemoveDamageCardEffect  # issue 17, allies
    | DeflectEffect  # issue 17, allies
    | AllyMoveEffect  # issue 17, allies
    | GuardEffect  # issue 17, allies
    | ZoneEffect  # issue 17, allies
    # issue 17, triggers
    | ThornsEffect
    | LastingBonusEffect
    | TokenCostEffect
    | SpBoostEffect
    | BuffThisTurnEffect
    | UnflankableEffect
    | HeatCapacityEffect
    | DestroyOnCriticalEffect
    | FreePassageEffect
    | TaintCounterEffect
    | SelfDamageEffect
    | RiposteEffect
    | TransformEffect  # issue 17, forms
    | DuelEffect  # issue 17, forms
    | BarReactivesEffect  # issue 17, forms
    | ForfeitTokensEffect  # issue 17, forms
    | AdvantageEffect  # issue 17, forms
    | TerrainEffect  # issue 17, terrain
    | GrantRotationEffect  # issue 17, combos
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
            # issue 17, dot
            RootEffect,
            BleedEffect,
            OngoingDamageEffect,
            MoveCostEffect,
            DrawPenaltyEffect,
            NoAttacksEffect,
            TargetDiscardsEffect,
            LowerDefenceEffect,
            # issue 17, area
            FollowUpEffect,
            AreaAttackEffect,
            RemoveTaintRolledEffect,
            AreaHinderEffect,
            DamageAuraEffect,
            # issue 17, buffs
            EnhanceNextAttackEffect,
            AttackRulesEffect,
            WardEffect,
            GainSpEffect,
            AfterDefenceEffect,
            PushEffect,  # issue 17, move
            TeleportEffect,  # issue 17, move
            ScatterEffect,  # issue 17, move
            GiveHeatEffect,  # issue 17, states
            SpendTaintEffect,  # issue 17, states
            SeedAreaEffect,  # issue 17, states
            MarkEffect,  # issue 17, states
            # issue 17, misc
            UnlessSpentEffect,
            DiscardForEffect,
            RecoverNamedEffect,
            UntargetableEffect,
            LookAtHandEffect,
            BonusAgainstEffect,
            ArrangeTopEffect,
            ScavengeWreckEffect,
            UltimatumEffect,
            DamageBargainEffect,
            OfferMissEffect,
            AllyEffect,  # issue 17, allies
            CoverEffect,  # issue 17, allies
            RemoveDamageCardEffect,  # issue 17, allies
            DeflectEffect,  # issue 17, allies
            AllyMoveEffect,  # issue 17, allies
            GuardEffect,  # issue 17, allies
            ZoneEffect,  # issue 17, allies
            # issue 17, triggers
            ThornsEffect,
            LastingBonusEffect,
            TokenCostEffect,
            SpBoostEffect,
            BuffThisTurnEffect,
            UnflankableEffect,
            HeatCapacityEffect,
            DestroyOnCriticalEffect,
            FreePassageEffect,
            TaintCounterEffect,
            SelfDamageEffect,
            RiposteEffect,
            TransformEffect,  # issue 17, forms
            DuelEffect,  # issue 17, forms
            BarReactivesEffect,  # issue 17, forms
            ForfeitTokensEffect,  # issue 17, forms
            AdvantageEffect,  # issue 17, forms
            TerrainEffect,  # issue 17, terrain
            GrantRotationEffect,  # issue 17, combos
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
    >>> effect_from_dict({"kind": "blink"}, "card.effects[0]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: card.effects[0].kind: unknown effect 'blink'; known: attack, move, rotate, heat, draw, ...
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
        elif f.name == "cards" and isinstance(value, list):
            value = tuple(value)  # recover_named's card ids (R-ADD-153)
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
            if isinstance(effect, ArrangeTopEffect) and i != len(self.effects) - 1:
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "arrange_top asks the player once the card resolves: make it the last",
                    "R-ADD-157",
                )
            if isinstance(effect, UltimatumEffect) and i != len(self.effects) - 1:
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "ultimatum asks the enemy once the card resolves: make it the last",
                    "R-ADD-159",
                )
            with_then = (
                SpendTokensEffect
                | WhenEffect
                | SpendTaintEffect
                | UnlessSpentEffect
                | DiscardForEffect
            )
            inner = effect.then if isinstance(effect, with_then) else (effect,)
            reactive_only = (
                *(ReduceIncomingEffect, WindowEffect, CounterEffect),
                *(TaintCounterEffect, RiposteEffect),  # issue 17, triggers
                AfterDefenceEffect,  # issue 17, buffs
                GiveHeatEffect,  # issue 17, states
                OfferMissEffect,  # issue 17, misc
            )
            if isinstance(effect, GiveHeatEffect) and effect.to != "attacker":
                raise InvalidInput(
                    f"card.effects[{i}].to",
                    "Heat for the attack's target waits for the hit: put it in after_attack",
                    "R-ADD-143",
                )
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
                        AttackBonusEffect
                        | AfterAttackEffect
                        | IgnoreCoverEffect
                        | FollowUpEffect
                        | AttackRulesEffect
                        | DamageBargainEffect
                        | DestroyOnCriticalEffect  # issue 17, triggers
                        | SelfDamageEffect,
                    )
                    or (isinstance(e, AreaAttackEffect) and e.around != "wreck")
                    for e in inner
                )
                or (isinstance(effect, SpendTokensEffect) and effect.damage_per_token)
                # R-ADD-145: the target's Taint and damage per Taint need an attack
                or (
                    isinstance(effect, SpendTaintEffect)
                    and (effect.damage_per_taint > 0 or effect.whose == "either")
                )
                or (isinstance(effect, TaintEffect) and effect.target == "target")
            )
            if attack_only and not any(isinstance(e, AttackEffect) for e in self.effects):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "an attack bonus needs the card's own attack effect",
                    "R-ADD-59",
                )
        self._check_optional_costs()
        self._check_consistency()

    def _check_optional_costs(self) -> None:
        """`spend: true` buys one optional cost, tokens or cards (R-ADD-61, R-ADD-152), and
        "OR" alternatives replace a token spend (R-ADD-151)."""
        spends = [i for i, e in enumerate(self.effects) if isinstance(e, SpendTokensEffect)]
        for i, effect in enumerate(self.effects):
            if isinstance(effect, UnlessSpentEffect) and not spends:
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "unless_spent runs when the card's tokens are not spent: the card needs "
                    "a spend_tokens effect",
                    "R-ADD-151",
                )
            if isinstance(effect, DiscardForEffect) and (
                spends
                or any(isinstance(e, DiscardForEffect) for e in self.effects[:i])
                or any(isinstance(e, DiscardEffect) and e.source != "deck" for e in self.effects)
            ):
                raise InvalidInput(
                    f"card.effects[{i}]",
                    "discard_for is the card's one optional cost ('spend') and the only "
                    "effect naming cards in 'discard'",
                    "R-ADD-152",
                )

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
    def pledge(self) -> bool:
        """A cover played in its player's turn ("You may cover adjacent ally"): it waits in
        play for the attack it takes, until that player's next turn (R-ADD-122)."""
        return self.kind != "reactive" and any(isinstance(e, CoverEffect) for e in self.effects)

    @property
    def leaves_game(self) -> bool:
        """Resolved, the card goes to the removed cards, not the discard pile (R-ADD-70)."""
        return any(isinstance(e, RemoveFromGameEffect) for e in self.effects)

    @property
    def token_cost(self) -> TokenCostEffect | None:
        """The card's printed cost in tokens, if any: it costs 0 SP (R-ADD-133)."""
        return next((e for e in self.effects if isinstance(e, TokenCostEffect)), None)

    @property
    def passive(self) -> bool:
        """Played, the card stays in play and its triggers fire (R-ADD-68), or it waits
        there for the attack it wards off (R-ADD-128), or its zone lasts (R-ADD-129); a
        standing rule (`unflankable`, `heat_capacity`, `free_passage`, R-ADD-136) too."""
        stays = TriggerEffect | GuardEffect | ZoneEffect
        standing = UnflankableEffect | HeatCapacityEffect | FreePassageEffect
        return self.pledge or any(isinstance(e, stays | standing) for e in self.effects)

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
    # R-ADD-133: a printed cost in tokens the catalogue wrote as `token_cost`: 0 SP.
    printed = found.effects if found is not None and found.effects is not None else ()
    if cost is None and any(isinstance(e, TokenCostEffect) for e in printed):
        cost = 0
    if cost is None:
        return _reason(f"cost {entry.get('cost')!r} is not a whole number of SP")
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
