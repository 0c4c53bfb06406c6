"""Versioned rulesets: a version plus named options, each tied to the ruling that defines it.

A battle records its ruleset in its first event and is replayed under it even
after the defaults change (RULINGS.md preamble), so a `Ruleset` always carries
every option explicitly, defaults filled in.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, NamedTuple

from .errors import InvalidInput

ENGINE_VERSION = "1.0.0"

OptionValue = bool | int | str

# Every ruling of RULINGS.md with a one-line title, in the document's order.
RULINGS: Mapping[str, str] = MappingProxyType(
    {
        "R-BRD-1": "Coordinates: flat-top axial hexes, cube distance",
        "R-BRD-2": "Directions 1..6 = N, NE, SE, S, SW, NW (also facing)",
        "R-BRD-3": "Terrain is data: LOS, move cost, impassable, cover, heat",
        "R-BRD-4": "Elevation is a per-hex level 0–2; +1 SP per level climbed",
        "R-RNG-1": "Range bands: short +0, medium +1, long +2, extreme +3",
        "R-RNG-2": "Card ranges: Melee, Self, N, A-B; out of range cannot attack",
        "R-RNG-3": "Aura X affects every hex within X and ignores LOS",
        "R-LOS-1": "LOS runs centre to centre; only intervening hexes block",
        "R-LOS-2": "An intervening hex whose terrain blocks LOS blocks it",
        "R-LOS-3": "Caskets never block LOS",
        "R-LOS-4": "Divided line: the defender chooses the side",
        "R-LOS-5": "Moving needs sight of the destination",
        "R-COV-1": "Cover sources: own hex, adjacent intervening hex, caskets",
        "R-COV-2": "Light cover +1, heavy +2; cover does not stack",
        "R-COV-3": "An attacker on higher ground ignores cover",
        "R-COV-4": "Obscured (+2) is a status, not cover, and stacks with it",
        "R-ARC-1": "Attack side from the defender's facing; boundaries: defender chooses",
        "R-ARC-2": "Side table: to-hit, damage, defence, shield and reactive cards",
        "R-ARC-3": "Firing arc: front 180° (sides 6, 1, 2); distance 1 any direction",
        "R-ARC-4": "Melee facing: side table, or option simple",
        "R-ARC-5": "Rotation: one 60° turn free per turn, then 1 SP each",
        "R-ELV-1": "Higher ground: −1 to hit, +1 damage; lower: +1, −1 damage",
        "R-HIT-1": "Target number = 5 + itemised modifiers",
        "R-HIT-2": "Movement modifiers: 0 / 1–3 / 4–6 / 7+ hexes",
        "R-HIT-3": "Target numbers above 10 are refused",
        "R-HIT-4": "Attack results: catastrophic, hit, strong, critical, execution",
        "R-HIT-5": "Odds are exact, from the die faces",
        "R-HIT-6": "Option dice_pool_advantage: 3 or 4 dice keep 2",
        "R-DMG-1": "Damage = card + result + side + elevation + modifiers, never below 0",
        "R-DMG-2": "Defence dice: one per damage; default or v1 faces",
        "R-DMG-3": "Defence modifiers cancel or add blocks",
        "R-DMG-4": "Defence faces: HEAT, PIERCE, CRITICAL",
        "R-DMG-5": "EXECUTION: no defence dice, full damage, component destroyed",
        "R-DMG-6": "Taking damage: discard from hand or deck; weapon cards damage components",
        "R-DMG-7": "Components destroyed at 3 damage; neural feedback every 5",
        "R-REA-1": "At most one reactive card per attack, before defence dice",
        "R-REA-2": "No reactive cards from sides 3, 4, 5 or against EXECUTION",
        "R-TRN-1": "Setup: deck, hand, mulligan, wound deck, SP, Heat, deploy",
        "R-TRN-2": "Initiative: 1d6 each round, ties re-roll, then clockwise",
        "R-TRN-3": "SP maximum by class; overspend costs cards",
        "R-TRN-4": "Heat check at Refresh: strain = 1d6 + Heat",
        "R-TRN-5": "Actions: move, rotate, play a card, vent",
        "R-TRN-6": "Draw to 6; empty deck reshuffles the discard pile plus a Damage card",
        "R-TRN-7": "End of turn: effects, water, discard down to 6",
        "R-TRN-8": "Victory is checked at round end",
        "R-PLT-1": "Wound deck: 5 minor, 3 severe, 2 trauma",
        "R-PLT-2": "Carried wounds start the next battle face up",
        "R-PLT-3": "Wound triggers in battle",
        "R-PLT-4": "Taint; option taint_exploitation",
        "R-PLT-5": "Campaign persistence applied exactly once",
        "R-VAR-1": "Option range_model: half_max",
        "R-VAR-2": "Option attacker_movement_model: any",
        "R-VAR-3": "Option engaged_targets_only",
        "R-DMG-8": "Damage pile (2.1): cards lost to damage never return to play",
        "R-DMG-9": "HP = deck + discard (2.1): both empty, the casket is defeated",
        "R-TRN-9": "Ending a battle: withdraw, the GM ends it, option round_limit",
    }
)


class OptionSpec(NamedTuple):
    """One switch of a ruleset: its allowed values (the first is the default) and its ruling.
    `minimum`, when set, also allows every whole number from it up (R-TRN-9 round_limit)."""

    name: str
    allowed: tuple[OptionValue, ...]
    rule: str
    description: str
    minimum: int | None = None

    @property
    def default(self) -> OptionValue:
        return self.allowed[0]

    def accepts(self, value: object) -> bool:
        # Type-exact: JSON `1` must not pass for `true`, nor `true` for 1.
        if self.minimum is not None and type(value) is int and value >= self.minimum:
            return True
        return any(type(value) is type(a) and value == a for a in self.allowed)

    def shown(self) -> str:
        values = _show(self.allowed)
        return values if self.minimum is None else f"{values} or a whole number ≥ {self.minimum}"


class RulesetSpec(NamedTuple):
    version: str
    options: Mapping[str, OptionSpec]


def _spec(*options: OptionSpec) -> Mapping[str, OptionSpec]:
    return MappingProxyType({o.name: o for o in options})


# R-TRN-9 (c), in 2.0 and 2.1: at the end of that round the side with the most HP wins.
ROUND_LIMIT = OptionSpec(
    "round_limit",
    ("none",),
    "R-TRN-9",
    "End the battle at the end of this round: most HP wins, equal HP is a draw",
    minimum=1,
)

RULESETS: Mapping[str, RulesetSpec] = MappingProxyType(
    {
        "2.0": RulesetSpec(
            "2.0",
            _spec(
                OptionSpec(
                    "melee_facing",
                    ("side_table", "simple"),
                    "R-ARC-4",
                    "Damage bonus of attacks at distance 1: the side table or seed 000's melee list",
                ),
                OptionSpec("defense_die", ("default", "v1"), "R-DMG-2", "Defence die faces"),
                OptionSpec(
                    "component_threshold",
                    (3, 8),
                    "R-DMG-7",
                    "Component Damage that destroys a component",
                ),
                OptionSpec(
                    "dice_pool_advantage",
                    (False, True),
                    "R-HIT-6",
                    "Advantage and disadvantage dice pools replace static modifiers",
                ),
                OptionSpec(
                    "taint_exploitation",
                    (False, True),
                    "R-PLT-4",
                    "Gain 1 Taint per 3 damage taken and spend Taint",
                ),
                OptionSpec(
                    "persistent_component_damage",
                    (False, True),
                    "R-PLT-5",
                    "Component damage carries into the campaign awaiting repair",
                ),
                OptionSpec(
                    "range_model",
                    ("bands", "half_max"),
                    "R-VAR-1",
                    "Range modifier: R-RNG-1 bands, or +1 beyond half the maximum range",
                ),
                OptionSpec(
                    "attacker_movement_model",
                    ("table", "any"),
                    "R-VAR-2",
                    "Attacker movement: R-HIT-2 table, or +1 for any movement",
                ),
                OptionSpec(
                    "engaged_targets_only",
                    (False, True),
                    "R-VAR-3",
                    "A casket adjacent to an enemy may only attack adjacent enemies",
                ),
                ROUND_LIMIT,
                OptionSpec(
                    "grit_checks",
                    (False, True),
                    "R-PLT-3",
                    "Before each wound flip the pilot rolls 1d6 + Grit: the campaign's Grit "
                    "check (R-ADD-305)",
                ),
            ),
        ),
    }
)
# Ruleset 2.1 (RULINGS.md "Ruleset 2.1") is 2.0 with the damage pile (R-DMG-8) and HP
# defeat (R-DMG-9); its options are 2.0's. The engine asks `damage_pile(ruleset)`.
RULESETS = MappingProxyType({**RULESETS, "2.1": RulesetSpec("2.1", RULESETS["2.0"].options)})
DAMAGE_PILE_VERSIONS = frozenset({"2.1"})
DEFAULT_VERSION = "2.1"

_OFF_ON: Mapping[OptionValue, str] = MappingProxyType({False: "off", True: "on"})

# How pages and people name each option and its values: never a key or a Python value
# ("dice_pool_advantage False" reads as "Dice-pool advantage: off"). A whole-number
# value not listed (round_limit) reads as "after round N".
OPTION_WORDS: Mapping[str, tuple[str, Mapping[OptionValue, str]]] = MappingProxyType(
    {
        "melee_facing": (
            "Melee facing",
            {"side_table": "the side table", "simple": "seed 000's melee list"},
        ),
        "defense_die": ("Defence die", {"default": "standard faces", "v1": "version 1 faces"}),
        "component_threshold": (
            "Component destroyed at",
            {3: "3 Component Damage", 8: "8 Component Damage"},
        ),
        "dice_pool_advantage": ("Dice-pool advantage", _OFF_ON),
        "taint_exploitation": ("Taint exploitation", _OFF_ON),
        "persistent_component_damage": ("Component damage kept between missions", _OFF_ON),
        "range_model": (
            "Range modifier",
            {"bands": "range bands", "half_max": "+1 beyond half the maximum range"},
        ),
        "attacker_movement_model": (
            "Attacker movement",
            {"table": "the movement table", "any": "+1 for any movement"},
        ),
        "engaged_targets_only": ("Engaged caskets attack adjacent enemies only", _OFF_ON),
        "round_limit": ("Round limit", {"none": "none"}),
        "grit_checks": ("Grit checks against wounds", _OFF_ON),
    }
)


class OptionInWords(NamedTuple):
    """One option of a ruleset as a page shows it: its name in words, its value in words,
    what it means and the ruling it comes from; `name` is the key the API uses."""

    name: str
    label: str
    value: str
    description: str
    rule: str


def option_in_words(name: str, value: OptionValue) -> OptionInWords:
    """An option's value in words.

    >>> option_in_words("dice_pool_advantage", False)[1:3]
    ('Dice-pool advantage', 'off')
    >>> option_in_words("round_limit", 12).value
    'after round 12'
    """
    label, words = OPTION_WORDS[name]
    spec = RULESETS[DEFAULT_VERSION].options[name]
    # Type-exact, as OptionSpec.accepts: True must not read as the word for 1.
    shown = next((w for v, w in words.items() if type(v) is type(value) and v == value), None)
    if shown is None:
        shown = f"after round {value}" if type(value) is int else str(value)
    return OptionInWords(name, label, shown, spec.description, spec.rule)


def _show(values: tuple[object, ...]) -> str:
    return ", ".join(json.dumps(v) for v in values)


def _validated(
    version: object, options: object, path: str
) -> tuple[str, Mapping[str, OptionValue]]:
    if not isinstance(version, str) or version not in RULESETS:
        raise InvalidInput(
            f"{path}.version",
            f"unknown ruleset version {json.dumps(version, default=str)}; "
            f"allowed: {_show(tuple(RULESETS))}",
        )
    if not isinstance(options, Mapping):
        raise InvalidInput(f"{path}.options", "must be an object of option name to value")
    specs = RULESETS[version].options
    for name in options:
        if name not in specs:
            raise InvalidInput(
                f"{path}.options.{name}",
                f"unknown option of ruleset {version}; allowed: {', '.join(specs)}",
            )
    full: dict[str, OptionValue] = {}
    for name, spec in specs.items():
        value = options.get(name, spec.default)
        if not spec.accepts(value):
            raise InvalidInput(
                f"{path}.options.{name}",
                f"{json.dumps(value, default=str)} is not allowed; allowed: {spec.shown()}",
                spec.rule,
            )
        full[name] = value
    return version, MappingProxyType(full)


@dataclass(frozen=True, slots=True)
class Ruleset:
    """An immutable ruleset: a version and every option's value, defaults filled in.

    >>> rs = Ruleset("2.0", {"defense_die": "v1"})
    >>> rs.option("defense_die"), rs.option("melee_facing")
    ('v1', 'side_table')
    >>> Ruleset("2.0", {"defense_die": "v2"})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: rules.options.defense_die: "v2" is not allowed; allowed: "default", "v1" (R-DMG-2)
    """

    version: str = DEFAULT_VERSION
    options: Mapping[str, OptionValue] = field(default_factory=dict)

    def __post_init__(self) -> None:
        _, options = _validated(self.version, self.options, "rules")
        object.__setattr__(self, "options", options)

    def __hash__(self) -> int:
        return hash((self.version, tuple(self.options.items())))

    def option(self, name: str) -> OptionValue:
        """The value of one option; an unknown name is a programming error (KeyError)."""
        return self.options[name]

    def in_words(self) -> tuple[OptionInWords, ...]:
        """Every option in words, in the ruleset's order (OPTION_WORDS).

        >>> [o.value for o in Ruleset("2.0").in_words()][:3]
        ['the side table', 'standard faces', '3 Component Damage']
        """
        return tuple(option_in_words(name, value) for name, value in self.options.items())

    @property
    def damage_pile(self) -> bool:
        """Whether damage goes to a damage pile that never returns (R-DMG-8) and a casket
        is defeated when deck and discard are empty (R-DMG-9): ruleset 2.1.

        >>> Ruleset("2.1").damage_pile, Ruleset("2.0").damage_pile
        (True, False)
        """
        return self.version in DAMAGE_PILE_VERSIONS

    @property
    def round_limit(self) -> int | None:
        """The round at whose end the battle stops (R-TRN-9), or None.

        >>> Ruleset("2.1", {"round_limit": 12}).round_limit, Ruleset().round_limit
        (12, None)
        """
        value = self.options["round_limit"]
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def with_options(self, **changes: OptionValue) -> Ruleset:
        """A copy with some options changed, validated.

        >>> Ruleset().with_options(component_threshold=8).option("component_threshold")
        8
        """
        return Ruleset(self.version, {**self.options, **changes})

    def as_dict(self) -> dict[str, Any]:
        """The ruleset as recorded in a battle's first event: every option explicit.

        >>> Ruleset().as_dict()["options"]["range_model"]
        'bands'
        """
        return {"version": self.version, "options": dict(self.options)}


DEFAULT_RULESET = Ruleset()


def parse_ruleset(doc: object, path: str = "rules") -> Ruleset:
    """Parse `{"version": "2.0", "options": {...}}`; both fields are optional, as is the document.

    >>> parse_ruleset({"options": {"dice_pool_advantage": True}}).option("dice_pool_advantage")
    True
    >>> parse_ruleset({"version": "1.0"})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: rules.version: unknown ruleset version "1.0"; allowed: "2.0", "2.1"
    """
    if doc is None:
        return DEFAULT_RULESET
    if not isinstance(doc, Mapping):
        raise InvalidInput(path, "must be an object with optional 'version' and 'options'")
    for key in doc:
        if key not in ("version", "options"):
            raise InvalidInput(f"{path}.{key}", "unknown field; allowed: version, options")
    version, options = _validated(doc.get("version", DEFAULT_VERSION), doc.get("options", {}), path)
    return Ruleset(version, options)


def describe_rulesets() -> dict[str, Any]:
    """The answer of GET /api/rules/: versions, their options and every ruling's title.

    >>> d = describe_rulesets()
    >>> d["versions"]["2.0"]["options"]["defense_die"]
    {'default': 'default', 'allowed': ['default', 'v1'], 'rule': 'R-DMG-2', 'description': 'Defence die faces'}
    >>> d["rulings"]["R-HIT-5"]
    'Odds are exact, from the die faces'
    """
    return {
        "engine_version": ENGINE_VERSION,
        "default_version": DEFAULT_VERSION,
        "versions": {
            version: {
                "options": {
                    name: {
                        "default": spec.default,
                        "allowed": list(spec.allowed),
                        "rule": spec.rule,
                        "description": spec.description,
                        **({"minimum": spec.minimum} if spec.minimum is not None else {}),
                    }
                    for name, spec in rs.options.items()
                }
            }
            for version, rs in RULESETS.items()
        },
        "rulings": dict(RULINGS),
        "version_rulings": {
            "2.0": [],
            "2.1": ["R-DMG-8", "R-DMG-9"],
        },
    }
