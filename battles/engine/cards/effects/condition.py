"""The battle-state tests a conditional effect reads as its card is played (R-ADD-59)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from ...errors import InvalidInput
from .base import Stored, check_choice, check_faction, check_int, rebased
from .bounds import MAX_HEXES, MAX_TOKENS, SLUG_RE, TOKEN_POOLS

# Conditions an attack bonus may test, all read from the battle state when the attack card
# is played (R-ADD-59). `n` is the threshold; `pool` and `terrain` name what is counted.
# Each test with the bounds (low, high, rule) of its `n`, None for a test that takes none.
_THRESHOLD = (1, MAX_TOKENS, "R-ADD-59")
_N_BOUNDS: Mapping[str, tuple[int, int, str] | None] = MappingProxyType(
    {
        "own_heat_at_least": _THRESHOLD,
        "own_tokens_at_least": _THRESHOLD,
        "own_component_damage_at_least": _THRESHOLD,
        "moved_this_turn": None,
        "standing_in": None,
        "target_hp_at_most": _THRESHOLD,
        "target_moved_last_turn": None,
        "target_taint_at_least": _THRESHOLD,
        # R-ADD-74: "enemies with 15 or fewer cards remaining in their deck" (the deck only,
        # not the HP of R-DMG-9); "when adjacent to 2+ allies" (the attacker's own side).
        "target_deck_at_most": _THRESHOLD,
        "own_adjacent_allies_at_least": _THRESHOLD,
        # R-ADD-75: "if outnumbered (2+ enemies within 6 hexes)": `n` enemies within `within`.
        "enemies_within_at_least": _THRESHOLD,
        # lasting damage vocabulary; R-ADD-110: "enemies with 5+ Bleed", counted as the card is played.
        "target_bleed_at_least": _THRESHOLD,
        # lasting damage vocabulary; R-ADD-119: "if target is adjacent to another ally" (the attacker's).
        "target_adjacent_allies_at_least": _THRESHOLD,
        # buffs vocabulary; R-ADD-98: "if attacking from rear arc (hex 4)": the attack's side.
        "from_rear": None,
        # movement vocabulary (R-ADD-106): the card's own move before its attack, "if you moved 3
        # hexes", "if you move through lava".
        "card_moved_at_least": _THRESHOLD,
        "card_moved_through": None,
        # battle states vocabulary (R-ADD-144): what the battle now records of the round and turn.
        "target_damaged_this_round": None,
        "destroyed_within_this_round": None,
        "discarded_this_turn": None,
        "target_killed_an_ally": None,
        "near_terrain": None,
        "target_without_cover": None,
        # battle states vocabulary (R-ADD-146): the attack's side, slow/freeze, open terrain.
        "attack_side_is": (1, 6, "R-ARC-2"),  # a side of the side table
        "target_immobilised": None,
        "standing_in_open": None,
        # R-ADD-149: the casket's mark (R-ADD-148) is still in the battle.
        "own_mark_in_battle": None,
        # allies vocabulary (R-ADD-121): `n` allies, of `faction` when given, within `within`
        # hexes of the own casket, or of the attack's target ("adjacent to target": 1).
        "allies_within_at_least": _THRESHOLD,
        "allies_near_target_at_least": _THRESHOLD,
        # triggers vocabulary: "if you did NOT attack this turn" (R-ADD-134), "when your deck has
        # 15 or fewer cards" (R-ADD-137), "if no enemies are within 3 hexes" (R-ADD-137).
        "not_attacked_this_turn": None,
        "own_deck_at_most": _THRESHOLD,
        "no_enemy_within": None,
        "attacked_this_turn": None,  # "after making an attack" (R-ADD-134)
        "destroyed_enemy_this_turn": None,  # "when you destroy an enemy Casket" (R-ADD-131)
        # forms vocabulary (R-ADD-170): "if in Metamorph form", "if you have Assault Form active".
        "own_form": None,
        # forms vocabulary (R-ADD-174): "if in Honor Duel"; "if target has Coward's Mark".
        "own_in_duel": None,
        "target_cowards_mark": None,
        # combos vocabulary (R-ADD-188): "if both are ranged attacks": `n` of the cards the card
        # itself drew are ranged attack cards.
        "card_drew_ranged_at_least": _THRESHOLD,
        # "within 1 hex of fire" (R-ADD-298): the own hex or one next to it holds a terrain that
        # burns (`FIRE_TERRAIN`).
        "near_fire": None,
        # bloodlines (R-ADD-380): "if all adjacent allies are also Fenmar bloodline (pure pack)":
        # `n` or more allies within `within` of the attack's target, and every ally there of
        # `bloodline`.
        "pack_of_bloodline": _THRESHOLD,
        # summoned units (R-ADD-407): "if target is adjacent to your Mercenary": `n` of the
        # player's units named `unit` within `within` hexes of the attack's target.
        "own_units_near_target_at_least": _THRESHOLD,
    }
)

CONDITIONS = tuple(_N_BOUNDS)

# R-ADD-380: the Vestige faction and the primary bloodlines its casket may have, as the
# database's Vestige Heritage names them (Fenmar, Urtok, Vexis, Corvath, Serrak).
VESTIGE = "vestige-bloodlines"
BLOODLINES = ("fenmar", "urtok", "vexis", "corvath", "serrak")

# R-ADD-298: the terrain kinds that are fire: lava (a card's "burning terrain" too) and a
# fire wall.
FIRE_TERRAIN = ("lava", "fire_wall")

# forms vocabulary (R-ADD-170): the forms Metamorphic Adaptation transforms a casket into,
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
    "pack_of_bloodline",  # R-ADD-380
    "own_units_near_target_at_least",  # R-ADD-407
)

# The conditions that may count only the allies of one faction (R-ADD-121).
_CONDITIONS_FACTION = ("allies_within_at_least", "allies_near_target_at_least")


# The conditions that name a terrain (R-BRD-3).
_TERRAIN_CONDITIONS = ("standing_in", "card_moved_through", "near_terrain")


@dataclass(frozen=True, slots=True)
class Condition(Stored):
    """A test of the battle state an attack bonus depends on (R-ADD-59).

    >>> Condition("own_tokens_at_least", 3, pool="forge").as_dict()
    {'test': 'own_tokens_at_least', 'n': 3, 'pool': 'forge'}
    >>> Condition("own_tokens_at_least", 3)
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: condition.pool: 'own_tokens_at_least' counts a pool: give one of forge, credit, biomass, soul_shard, bargain, metamorph, rune, scrap (R-ADD-61)
    """

    test: str
    n: int = 0
    pool: str | None = None
    terrain: str | None = None
    within: int = 0
    # allies vocabulary: count only the allies whose setup names this faction (R-ADD-121).
    faction: str | None = None
    # forms vocabulary: the form `own_form` asks for, "metamorph" for any (R-ADD-170).
    form: str | None = None
    # bloodlines: the bloodline every ally `pack_of_bloodline` counts must have (R-ADD-380).
    bloodline: str | None = None
    # summoned units: the printed name of the units `own_units_near_target_at_least` counts.
    unit: str | None = None

    def __post_init__(self) -> None:
        check_choice(self.test, "condition.test", CONDITIONS)
        _named_when(
            self.bloodline,
            self.test == "pack_of_bloodline",
            "condition.bloodline",
            BLOODLINES,
            ("'pack_of_bloodline' names a bloodline: one of ", f"{self.test!r} names none"),
            "R-ADD-380",
        )
        _named_when(
            self.form,
            self.test == "own_form",
            "condition.form",
            _CONDITION_FORMS,
            ("'own_form' names a form: one of ", f"{self.test!r} names no form"),
            "R-ADD-170",
        )
        if (self.test == "own_units_near_target_at_least") != (self.unit is not None):
            raise InvalidInput(
                "condition.unit",
                "'own_units_near_target_at_least' names a unit, no other test does",
                "R-ADD-407",
            )
        if self.unit is not None and (
            not isinstance(self.unit, str) or not self.unit.replace(" ", "").isalpha()
        ):
            raise InvalidInput("condition.unit", f"{self.unit!r} is not a unit's name", "R-ADD-407")
        if self.test in _CONDITIONS_WITHIN:
            check_int(self.within, "condition.within", 1, MAX_HEXES, "R-RNG-3")
        elif self.within:
            raise InvalidInput("condition.within", f"{self.test!r} counts no hexes", "R-ADD-75")
        if self.faction is not None:
            if self.test not in _CONDITIONS_FACTION:
                raise InvalidInput(
                    "condition.faction", f"{self.test!r} counts no allies", "R-ADD-121"
                )
            check_faction(self.faction, "condition.faction")
        bounds = _N_BOUNDS[self.test]
        if bounds is not None:
            check_int(self.n, "condition.n", *bounds)
        elif self.n:
            raise InvalidInput("condition.n", f"{self.test!r} takes no threshold", "R-ADD-59")
        _named_when(
            self.pool,
            self.test == "own_tokens_at_least",
            "condition.pool",
            TOKEN_POOLS,
            (f"{self.test!r} counts a pool: give one of ", f"{self.test!r} counts no pool"),
            "R-ADD-61",
        )
        if (self.test in _TERRAIN_CONDITIONS) != (self.terrain is not None):
            raise InvalidInput(
                "condition.terrain",
                f"{' and '.join(repr(t) for t in _TERRAIN_CONDITIONS)} name a terrain, no other",
                "R-BRD-3",
            )
        if self.terrain is not None and not SLUG_RE.fullmatch(self.terrain):
            raise InvalidInput("condition.terrain", f"{self.terrain!r} is not a terrain name")


def _named_when(
    value: str | None,
    asked: bool,
    field: str,
    choices: Sequence[str],
    words: tuple[str, str],
    rule: str,
) -> None:
    """`value`, one of `choices`, given exactly when the test `asked` for it; `words`: the
    refusal of one missing (followed by the choices) and of one given unasked."""
    if asked != (value is not None):
        missing, unasked = words
        raise InvalidInput(field, missing + ", ".join(choices) if value is None else unasked, rule)
    if value is not None:
        check_choice(value, field, choices)


def condition_from_dict(d: object, path: str) -> Condition:
    """Parse a condition as its `as_dict` writes it, from the same fields.

    >>> condition_from_dict({"test": "own_heat_at_least", "n": 3}, "c")
    Condition(test='own_heat_at_least', n=3, pool=None, terrain=None, within=0, faction=None, form=None, bloodline=None, unit=None)
    >>> condition_from_dict({"test": "from_rear", "hexes": 2}, "c")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: c.hexes: unknown field; allowed: test, n, pool, terrain, within, faction, form, bloodline, unit
    """
    if not isinstance(d, Mapping):
        raise InvalidInput(path, "must be an object with a 'test'", "R-ADD-59")
    allowed = tuple(f.name for f in dataclasses.fields(Condition))
    unknown = [str(k) for k in d if k not in allowed]
    if unknown:
        raise InvalidInput(f"{path}.{unknown[0]}", f"unknown field; allowed: {', '.join(allowed)}")
    if "test" not in d:
        raise InvalidInput(f"{path}.test", "required", "R-ADD-59")
    with rebased(path, "condition"):
        return Condition(**{str(k): v for k, v in d.items()})
