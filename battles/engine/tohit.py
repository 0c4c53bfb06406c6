"""To-hit: the itemised target number, damage, defence and odds of one attack.

Every line of the answer names the ruling it comes from, and the target number
is the sum of the modifier values (R-HIT-1). A refused shot still says as much
as can be computed, so a player sees why (FORMATS.md).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from .arcs import SideRow, candidate_sides, choose_side_row, in_firing_arc
from .board import Board
from .dice import COMPONENTS, TWO_DICE, DicePool, Odds, odds, pool_for_net_advantage
from .errors import InvalidInput, RuleViolation
from .hexes import Hex
from .los import LosResult, line_of_sight
from .ruleset import DEFAULT_RULESET, Ruleset

BASE_TARGET = 5  # R-HIT-1
MAX_REACHABLE_TARGET = 10  # R-HIT-3: two DEATH BLOWs total 10
# Statuses the engine reads; anything else is refused so a typo cannot be ignored.
ATTACKER_STATUSES = ("aiming", "weapon_jammed")
TARGET_STATUSES = ("obscured", "stunned", "immobilised")
MAX_DAMAGE = 100

BANDS: tuple[tuple[int, int | None, str, int], ...] = (
    (0, 3, "short", 0),  # R-RNG-1
    (4, 6, "medium", 1),
    (7, 10, "long", 2),
    (11, None, "extreme", 3),
)


@dataclass(frozen=True, slots=True)
class Modifier:
    """One line of an itemised number: its key, value, label and source ruling."""

    key: str
    value: int
    label: str
    rule: str

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "value": self.value, "label": self.label, "rule": self.rule}


@dataclass(frozen=True, slots=True)
class WeaponRange:
    """A card's range (R-RNG-2): the distances it may attack at.

    >>> parse_range("Melee"), parse_range("8"), parse_range("1-4"), parse_range("Ranged 2-6")
    (WeaponRange(text='Melee', low=1, high=1), WeaponRange(text='8', low=1, high=8), \
WeaponRange(text='1-4', low=1, high=4), WeaponRange(text='Ranged 2-6', low=2, high=6))
    """

    text: str
    low: int
    high: int

    @property
    def melee(self) -> bool:
        return self.text.strip().lower() == "melee"

    def contains(self, distance: int) -> bool:
        return self.low <= distance <= self.high


_RANGE_RE = re.compile(r"^\s*(?:ranged\s+)?(\d{1,3})(?:\s*-\s*(\d{1,3}))?\s*$", re.IGNORECASE)


def parse_range(text: object, field: str = "weapon.range") -> WeaponRange:
    """Parse `Melee`, `Self`, `N` or `A-B` (also the card data's `Ranged A-B`), R-RNG-2."""
    if not isinstance(text, str):
        raise InvalidInput(field, "must be a string: Melee, Self, N or A-B", "R-RNG-2")
    word = text.strip().lower()
    if word == "melee":
        return WeaponRange(text, 1, 1)
    if word == "self":
        return WeaponRange(text, 0, 0)
    match = _RANGE_RE.match(text)
    if not match:
        raise InvalidInput(field, f"{text!r} is not a range: Melee, Self, N or A-B", "R-RNG-2")
    low, high = (int(match[1]), int(match[2])) if match[2] else (1, int(match[1]))
    if low > high or high == 0:
        raise InvalidInput(field, f"{text!r}: the range must run from low to high", "R-RNG-2")
    return WeaponRange(text, low, high)


@dataclass(frozen=True, slots=True)
class Placed:
    """A casket on the board: the hex it stands on (R-BRD-1) and the direction it faces
    (R-BRD-2), the first two fields of both the attacker and the target."""

    at: Hex
    facing: int


@dataclass(frozen=True, slots=True)
class Attacker(Placed):
    moved: int = 0
    heat: int = 0
    destroyed: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Target(Placed):
    shield: str = "left"
    moved_last_turn: int = 0
    statuses: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Weapon:
    range: WeaponRange
    damage: int
    name: str = ""


@dataclass(frozen=True, slots=True)
class ToHit:
    """The whole answer for one attack (FORMATS.md `POST /api/rules/to-hit`)."""

    possible: bool
    refusal: RuleViolation | None
    distance: int
    band: str
    los: LosResult
    side: int | None
    side_name: str | None
    side_candidates: tuple[int, ...]
    target_number: int | None
    modifiers: tuple[Modifier, ...]
    damage_base: int
    damage_modifiers: tuple[Modifier, ...]
    defense_modifier: int | None
    reactive_allowed: bool | None
    shield_cards_allowed: bool | None
    dice: DicePool = TWO_DICE
    pool_sources: tuple[Modifier, ...] = ()
    odds: Odds | None = None
    row: SideRow | None = field(default=None, repr=False)

    @property
    def damage(self) -> int:
        """Damage on an ordinary hit: base plus modifiers, never below 0 (R-DMG-1)."""
        return self.damage_for("hit")

    def damage_for(self, grade: str) -> int:
        """Damage for a result grade: strong +1, critical +2, EXECUTION +0 (R-DMG-1)."""
        bonus = {"strong": 1, "critical": 2}.get(grade, 0)
        return max(0, self.damage_base + sum(m.value for m in self.damage_modifiers) + bonus)

    def as_dict(self) -> dict[str, Any]:
        los = self.los.as_dict()
        out: dict[str, Any] = {
            "possible": self.possible,
            "refusal": self.refusal.as_dict() if self.refusal else None,
            "distance": self.distance,
            "band": self.band,
            "los": {k: los[k] for k in ("clear", "blocked_by", "divided")}
            | {"cover": los["cover"], "cover_sources": los["cover_sources"]},
            "side": self.side,
            "side_name": self.side_name,
            "side_candidates": list(self.side_candidates),
            "target_number": self.target_number,
            "modifiers": [m.as_dict() for m in self.modifiers],
            "damage": {
                "base": self.damage_base,
                "modifiers": [m.as_dict() for m in self.damage_modifiers],
                "by_result": {
                    g: self.damage_for(g) for g in ("hit", "strong", "critical", "execution")
                },
                "rule": "R-DMG-1",
            },
            "defense_modifier": self.defense_modifier,
            "reactive_allowed": self.reactive_allowed,
            "shield_cards_allowed": self.shield_cards_allowed,
            "dice": self.dice.as_dict(),
            "odds": self.odds.as_dict() if self.odds else None,
        }
        if self.pool_sources:
            out["dice"]["sources"] = [m.as_dict() for m in self.pool_sources]
        return out


def range_band(distance: int) -> tuple[str, int]:
    """The R-RNG-1 band and its to-hit modifier.

    >>> range_band(3), range_band(5), range_band(10), range_band(11)
    (('short', 0), ('medium', 1), ('long', 2), ('extreme', 3))
    """
    for low, high, name, value in BANDS:
        if distance >= low and (high is None or distance <= high):
            return name, value
    raise ValueError(distance)


def movement_modifier(hexes: int) -> int:
    """R-HIT-2: 0 → +0, 1–3 → +1, 4–6 → +2, 7+ → +3 (the table wins over seed 001's example).

    >>> [movement_modifier(n) for n in (0, 1, 3, 4, 6, 7, 12)]
    [0, 1, 1, 2, 2, 3, 3]
    """
    if hexes <= 0:
        return 0
    return 1 if hexes <= 3 else 2 if hexes <= 6 else 3


def _fmt(h: Hex) -> str:
    return f"[{h.q},{h.r}]"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _validate(attacker: Attacker, target: Target, weapon: Weapon, board: Board) -> None:
    for name, h in (("attacker.at", attacker.at), ("target.at", target.at)):
        if h not in board:
            raise InvalidInput(name, f"hex [{h.q}, {h.r}] is not on the board", "R-BRD-1")
    for name, d in (("attacker.facing", attacker.facing), ("target.facing", target.facing)):
        # `True in range(1, 7)` holds, so a bool is refused explicitly.
        if not _is_int(d) or d not in range(1, 7):
            raise InvalidInput(name, "a facing is a direction 1..6", "R-BRD-2")
    if target.shield not in ("left", "right", "none"):
        raise InvalidInput("target.shield", "must be left, right or none", "R-ARC-2")
    bad = sorted(attacker.destroyed - set(COMPONENTS))
    if bad:
        raise InvalidInput(
            "attacker.destroyed",
            f"unknown component {bad[0]!r}; known: {', '.join(COMPONENTS)}",
            "R-DMG-7",
        )
    for name, got, known in (
        ("attacker.statuses", attacker.statuses, ATTACKER_STATUSES),
        ("target.statuses", target.statuses, TARGET_STATUSES),
    ):
        unknown = sorted(got - set(known))
        if unknown:
            raise InvalidInput(name, f"unknown status {unknown[0]!r}; known: {', '.join(known)}")
    for name, value in (
        ("attacker.moved", attacker.moved),
        ("attacker.heat", attacker.heat),
        ("target.moved_last_turn", target.moved_last_turn),
    ):
        if not _is_int(value) or not 0 <= value <= 1000:
            raise InvalidInput(name, "must be a whole number 0..1000")
    if not _is_int(weapon.damage) or not 0 <= weapon.damage <= MAX_DAMAGE:
        raise InvalidInput("weapon.damage", f"must be 0..{MAX_DAMAGE}", "R-DMG-1")


def to_hit(
    board: Board,
    attacker: Attacker,
    target: Target,
    weapon: Weapon,
    *,
    others: Collection[Hex] = (),
    enemies: Collection[Hex] = (),
    rules: Ruleset = DEFAULT_RULESET,
    extra_to_hit: Sequence[Modifier] = (),
    extra_damage: Sequence[Modifier] = (),
    advantage: int = 0,
) -> ToHit:
    """Everything about one attack, itemised and cited (R-HIT-1..6, R-DMG-1, R-ARC-*).

    `others` are the hexes of the other caskets (cover, R-COV-1(c)); `enemies`
    those of the attacker's enemies (only option engaged_targets_only reads it).
    `extra_to_hit`/`extra_damage` are card and status lines from the battle; `advantage`
    a card's own "roll with Advantage" (R-ADD-176), a pool source under R-HIT-6 and the
    pool of that net advantage otherwise.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 8}})
    >>> a = to_hit(b, Attacker(Hex(0, 0), 1), Target(Hex(0, -5), 1, moved_last_turn=2),
    ...            Weapon(parse_range("8"), 4), others=[Hex(0, -2)])
    >>> a.target_number, [(m.key, m.value) for m in a.modifiers]
    (6, [('base', 5), ('range', 1), ('defender_movement', 1), ('side', -2), ('cover', 1)])
    >>> a.odds.hit if a.odds else None
    Fraction(5, 12)
    """
    _validate(attacker, target, weapon, board)
    distance = attacker.at.distance(target.at)
    band, band_value = range_band(distance)
    los = line_of_sight(board, attacker.at, target.at, others)

    if distance == 0:
        return ToHit(
            False,
            RuleViolation("same_hex", "Attacker and target share a hex", "R-ARC-1"),
            0,
            band,
            los,
            None,
            None,
            (),
            None,
            (),
            weapon.damage,
            (),
            None,
            None,
            None,
        )

    candidates = candidate_sides(target.at, target.facing, attacker.at)
    melee_facing = str(rules.option("melee_facing"))
    row = choose_side_row(candidates, target.shield, distance, melee_facing)
    ranged = not weapon.range.melee
    higher = board.level_at(attacker.at) > board.level_at(target.at)
    lower = board.level_at(attacker.at) < board.level_at(target.at)

    # --- refusals (checked in the order a player would) ------------------------------
    refusal: RuleViolation | None = None
    if not weapon.range.contains(distance):
        refusal = RuleViolation(
            "out_of_range",
            f"Target is {distance} hexes away; {weapon.range.text} reaches "
            f"{weapon.range.low}-{weapon.range.high}",
            "R-RNG-2",
        )
    elif not in_firing_arc(attacker.at, attacker.facing, target.at):
        refusal = RuleViolation(
            "out_of_arc",
            "Target is outside the attacker's front 180° (sides 6, 1, 2); rotate first",
            "R-ARC-3",
        )
    elif not los.clear:
        assert los.blocked_by is not None
        refusal = RuleViolation(
            "no_line_of_sight",
            f"Line of sight is blocked by {board.terrain_at(los.blocked_by).name} at "
            f"{_fmt(los.blocked_by)}"
            + ("" if los.blocked_on_both_sides else " (divided line: the defender chooses)"),
            "R-LOS-2" if los.blocked_on_both_sides else "R-LOS-4",
        )
    elif rules.option("engaged_targets_only") and distance > 1:
        engaged = [e for e in (*enemies, target.at) if attacker.at.distance(e) == 1]
        if engaged:
            refusal = RuleViolation(
                "engaged",
                f"The attacker is engaged by the enemy at {_fmt(engaged[0])} and may only "
                "attack adjacent enemies",
                "R-VAR-3",
            )

    # --- the target number ------------------------------------------------------------
    modifiers: list[Modifier] = [Modifier("base", BASE_TARGET, "Base to-hit", "R-HIT-1")]
    pool = TWO_DICE
    pool_sources: list[Modifier] = []
    if rules.option("dice_pool_advantage"):
        # ADDENDUM: under R-HIT-6 every static line of R-HIT-1 (range, movement, side, cover,
        # obscured, elevation, head destroyed) gives way to the pool; card lines passed in
        # `extra_to_hit` still count, so the target number is 5 plus those alone.
        pool_sources = _pool_sources(attacker, target, row, band, los, higher)
        if advantage:  # R-ADD-176: one more source, cancelling a disadvantage
            pool_sources.append(Modifier("card", advantage, "Card: advantage", "R-ADD-176"))
        pool = pool_for_net_advantage(sum(m.value for m in pool_sources))
    else:
        # R-ADD-176: the static lines still set the target number; the card sets the roll.
        pool = pool_for_net_advantage(advantage)
        modifiers += _static_modifiers(
            attacker,
            target,
            weapon,
            rules,
            distance,
            band,
            band_value,
            row,
            los,
            higher,
            lower,
            ranged,
        )
    modifiers += extra_to_hit
    target_number = sum(m.value for m in modifiers)
    if refusal is None and target_number > MAX_REACHABLE_TARGET:
        refusal = RuleViolation(
            "impossible_target",
            f"Target number {target_number}+ cannot be reached: two DEATH BLOWs total 10",
            "R-HIT-3",
        )

    # --- damage and defence ---------------------------------------------------------------
    damage_mods: list[Modifier] = []
    if row.damage:
        damage_mods.append(Modifier("side", row.damage, row.label, row.damage_rule))
    if higher:
        damage_mods.append(Modifier("elevation", 1, "Attacker on higher ground", "R-ELV-1"))
    elif lower:
        damage_mods.append(Modifier("elevation", -1, "Attacker on lower ground", "R-ELV-1"))
    if "weapon_jammed" in attacker.statuses:
        damage_mods.append(
            Modifier(
                "catastrophic_failure", -2, "Weapon jammed by a catastrophic failure", "R-DMG-1"
            )
        )
    damage_mods += extra_damage

    return ToHit(
        possible=refusal is None,
        refusal=refusal,
        distance=distance,
        band=band,
        los=los,
        side=row.side,
        side_name=row.name,
        side_candidates=candidates,
        target_number=target_number,
        modifiers=tuple(modifiers),
        damage_base=weapon.damage,
        damage_modifiers=tuple(damage_mods),
        defense_modifier=row.defence,
        reactive_allowed=row.reactive_cards,
        shield_cards_allowed=row.shield_cards,
        dice=pool,
        pool_sources=tuple(pool_sources),
        odds=odds(target_number, pool) if refusal is None else None,
        row=row,
    )


def _static_modifiers(
    attacker: Attacker,
    target: Target,
    weapon: Weapon,
    rules: Ruleset,
    distance: int,
    band: str,
    band_value: int,
    row: SideRow,
    los: LosResult,
    higher: bool,
    lower: bool,
    ranged: bool,
) -> list[Modifier]:
    out: list[Modifier] = []
    if rules.option("range_model") == "half_max":
        if distance * 2 > weapon.range.high:
            out.append(
                Modifier(
                    "range",
                    1,
                    f"Beyond half of range {weapon.range.high} ({distance} hexes)",
                    "R-VAR-1",
                )
            )
    elif band_value:
        out.append(
            Modifier(
                "range", band_value, f"{band.capitalize()} range ({distance} hexes)", "R-RNG-1"
            )
        )
    if rules.option("attacker_movement_model") == "any":
        if attacker.moved > 0:
            out.append(
                Modifier(
                    "attacker_movement", 1, f"Attacker moved {attacker.moved} hexes", "R-VAR-2"
                )
            )
    elif movement_modifier(attacker.moved):
        out.append(
            Modifier(
                "attacker_movement",
                movement_modifier(attacker.moved),
                f"Attacker moved {attacker.moved} hexes",
                "R-HIT-2",
            )
        )
    if movement_modifier(target.moved_last_turn):
        out.append(
            Modifier(
                "defender_movement",
                movement_modifier(target.moved_last_turn),
                f"Target moved {target.moved_last_turn} hexes",
                "R-HIT-2",
            )
        )
    if row.to_hit:
        out.append(Modifier("side", row.to_hit, row.label, "R-ARC-2"))
    if los.cover != "none":
        out.append(
            Modifier("cover", 1 if los.cover == "light" else 2, _cover_label(los), "R-COV-1")
        )
    if "obscured" in target.statuses:
        out.append(Modifier("obscured", 2, "Target obscured", "R-COV-4"))
    if higher:
        out.append(
            Modifier("elevation", -1, "Attacker on higher ground (ignores cover)", "R-ELV-1")
        )
    elif lower:
        out.append(Modifier("elevation", 1, "Attacker on lower ground", "R-ELV-1"))
    if ranged and "head" in attacker.destroyed:
        out.append(Modifier("head_destroyed", 1, "Head destroyed: ranged attack", "R-HIT-1"))
    return out


def _cover_label(los: LosResult) -> str:
    best = max(los.cover_sources, key=lambda s: (s.cover == "heavy", s.kind == "terrain"))
    what = (
        f"casket at {_fmt(best.at)}"
        if best.kind == "casket"
        else f"{best.terrain} at {_fmt(best.at)}"
    )
    return f"{los.cover.capitalize()} cover: {what}"


def _pool_sources(
    attacker: Attacker,
    target: Target,
    row: SideRow,
    band: str,
    los: LosResult,
    higher: bool,
) -> list[Modifier]:
    """R-HIT-6: advantage (+1) and disadvantage (−1) sources; they cancel one for one."""
    out: list[Modifier] = []
    if row.side in (3, 4, 5):
        out.append(Modifier("flank_or_rear", 1, f"{row.label}: advantage", "R-HIT-6"))
    if higher:
        out.append(Modifier("higher_ground", 1, "Higher ground: advantage", "R-HIT-6"))
    for status in ("stunned", "immobilised"):
        if status in target.statuses:
            out.append(Modifier(status, 1, f"Target {status}: advantage", "R-HIT-6"))
    if "aiming" in attacker.statuses:
        out.append(Modifier("aiming", 1, "Aiming: advantage", "R-HIT-6"))
    if band in ("long", "extreme"):
        out.append(Modifier("range", -1, f"{band.capitalize()} range: disadvantage", "R-HIT-6"))
    if los.cover == "heavy":
        out.append(Modifier("heavy_cover", -1, "Heavy cover: disadvantage", "R-HIT-6"))
    if "obscured" in target.statuses:
        out.append(Modifier("obscured", -1, "Target obscured: disadvantage", "R-HIT-6"))
    if attacker.moved >= 6:
        out.append(
            Modifier(
                "attacker_movement",
                -1,
                f"Attacker moved {attacker.moved} hexes: disadvantage",
                "R-HIT-6",
            )
        )
    if attacker.heat >= 5:
        out.append(
            Modifier("heat", -1, f"Attacker at {attacker.heat} Heat: disadvantage", "R-HIT-6")
        )
    # ADDENDUM: "primary weapon destroyed" is a destroyed right arm, the component whose
    # loss forbids Primary Weapon cards (seed 002 component table).
    if "right_arm" in attacker.destroyed:
        out.append(
            Modifier(
                "primary_weapon_destroyed",
                -1,
                "Primary weapon (right arm) destroyed: disadvantage",
                "R-HIT-6",
            )
        )
    return out
