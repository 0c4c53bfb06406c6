"""Penance's custom dice as data, and exact odds computed from their faces.

Attack dice (R-HIT-4..6), defence dice (R-DMG-2..5), the suffering die (seed 001
§4) and the strain check (R-TRN-4). Every probability is a `Fraction`: no float
decides anything here (R-HIT-5); `Odds.as_dict` adds a rounded float for display.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from types import MappingProxyType
from typing import Any, NamedTuple

from .errors import InvalidInput, RuleViolation

FACES: tuple[int, ...] = (1, 2, 3, 4, 5, 6)
_SIXTH = Fraction(1, 6)

# --- attack dice (R-HIT-4) ----------------------------------------------------------------------


class AttackFace(NamedTuple):
    """One face of the attack die: the face number 1..6, its symbol name and value."""

    face: int
    name: str
    value: int


ATTACK_FACES: Mapping[int, AttackFace] = MappingProxyType(
    {
        1: AttackFace(1, "GLANCE", 1),
        2: AttackFace(2, "BLOOD", 2),
        3: AttackFace(3, "STRIKE", 3),
        4: AttackFace(4, "DOUBLE STRIKE", 4),
        5: AttackFace(5, "DEATH BLOW", 5),
        # R-HIT-4: face 6 is JAM and is worth 0, so two JAMs total 0 (seed 001 says "2").
        6: AttackFace(6, "JAM", 0),
    }
)
_ATTACK_VALUE: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 0)  # indexed by face; hot path of the odds

CATASTROPHIC = "catastrophic"
MISS = "miss"
HIT = "hit"
STRONG = "strong"
CRITICAL = "critical"
EXECUTION = "execution"
GRADES: tuple[str, ...] = (CATASTROPHIC, MISS, HIT, STRONG, CRITICAL, EXECUTION)
KEPT_DICE = 2  # R-HIT-6: every pool keeps two dice.
MAX_TOTAL = 10


def grade(total: int, target_number: int | None = None) -> str:
    """Grade a kept total (R-HIT-4).

    A total of 0 (both kept dice JAM) is a catastrophic failure whatever the
    target number. Without a target number a non-zero total is graded as if it
    hit; with one, a total below it is a miss.

    >>> grade(0), grade(10), grade(9), grade(7), grade(5)
    ('catastrophic', 'execution', 'critical', 'strong', 'hit')
    >>> grade(8, target_number=9), grade(3, target_number=-1)
    ('miss', 'hit')
    """
    if total == 0:
        return CATASTROPHIC
    if target_number is not None and total < target_number:
        return MISS
    if total >= 10:
        return EXECUTION
    if total == 9:
        return CRITICAL
    if total >= 7:
        return STRONG
    return HIT


def _grade_hits(total: int, target_number: int) -> bool:
    # R-HIT-4: a catastrophic failure never hits, even against a target number of 0 or less.
    return total != 0 and total >= target_number


# --- dice pools (R-HIT-6) -----------------------------------------------------------------------

_POOL_COUNTS: Mapping[str, tuple[int, ...]] = MappingProxyType(
    {"all": (2,), "highest": (3, 4), "lowest": (3, 4)}
)


@dataclass(frozen=True, slots=True)
class DicePool:
    """How many attack dice are rolled and which two are kept (R-HIT-6).

    >>> DicePool(2, "all").as_dict()
    {'count': 2, 'keep': 'all'}
    >>> DicePool(2, "highest")
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: dice.count: keep 'highest' rolls 3 or 4 dice, not 2 (R-HIT-6)
    """

    count: int
    keep: str

    def __post_init__(self) -> None:
        counts = _POOL_COUNTS.get(self.keep)
        if counts is None:
            raise InvalidInput("dice.keep", "must be one of all, highest, lowest", "R-HIT-6")
        if isinstance(self.count, bool) or self.count not in counts:
            allowed = " or ".join(str(c) for c in counts)
            raise InvalidInput(
                "dice.count",
                f"keep {self.keep!r} rolls {allowed} dice, not {self.count}",
                "R-HIT-6",
            )

    def as_dict(self) -> dict[str, Any]:
        return {"count": self.count, "keep": self.keep}


TWO_DICE = DicePool(2, "all")


def pool_for_net_advantage(net: int) -> DicePool:
    """The pool for a net advantage (positive) or disadvantage (negative) (R-HIT-6).

    Sources cancel one for one; ±1 rolls 3 dice keeping 2, ±2 or more rolls 4 keeping 2.

    >>> pool_for_net_advantage(0), pool_for_net_advantage(-1), pool_for_net_advantage(5)
    (DicePool(count=2, keep='all'), DicePool(count=3, keep='lowest'), DicePool(count=4, keep='highest'))
    """
    if net == 0:
        return TWO_DICE
    return DicePool(3 if abs(net) == 1 else 4, "highest" if net > 0 else "lowest")


def _kept_indices(faces: Sequence[int], keep: str) -> tuple[int, ...]:
    if keep == "all":
        return tuple(range(len(faces)))
    # Stable sort: among equal values the earlier die is kept, so the answer is deterministic.
    order = sorted(
        range(len(faces)), key=lambda i: _ATTACK_VALUE[faces[i]], reverse=keep == "highest"
    )
    return tuple(sorted(order[:KEPT_DICE]))


def _kept_total(faces: Sequence[int], keep: str) -> int:
    values = sorted(_ATTACK_VALUE[f] for f in faces)
    if keep == "highest":
        return values[-1] + values[-2]
    return values[0] + values[1]  # "all" has exactly two dice


# --- an actual attack roll ----------------------------------------------------------------------


def _check_faces(faces: Sequence[int], count: int, what: str, rule: str) -> tuple[int, ...]:
    if len(faces) != count:
        raise RuleViolation(
            "wrong_dice_count", f"{what} needs {count} dice, got {len(faces)}", rule
        )
    for f in faces:
        if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
            raise RuleViolation("invalid_die_face", f"a die face is 1..6, got {f!r}", rule)
    return tuple(faces)


@dataclass(frozen=True, slots=True)
class AttackRoll:
    """The outcome of an attack roll (R-HIT-4, R-HIT-6)."""

    faces: tuple[int, ...]
    kept: tuple[int, ...]
    kept_indices: tuple[int, ...]
    total: int
    target_number: int
    hit: bool
    grade: str
    pool: DicePool

    @property
    def catastrophic(self) -> bool:
        return self.grade == CATASTROPHIC

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "symbols": [ATTACK_FACES[f].name for f in self.faces],
            "kept": list(self.kept),
            "total": self.total,
            "target_number": self.target_number,
            "hit": self.hit,
            "grade": self.grade,
            "dice": self.pool.as_dict(),
            "rule": "R-HIT-4",
        }


def attack_result(
    faces: Sequence[int], target_number: int, pool: DicePool = TWO_DICE
) -> AttackRoll:
    """Resolve rolled attack dice, physical or digital (R-HIT-4, R-HIT-6).

    >>> r = attack_result([5, 3], 6)
    >>> r.total, r.hit, r.grade
    (8, True, 'strong')
    >>> attack_result([6, 6], -3).grade
    'catastrophic'
    >>> attack_result([6, 1, 6], 5, DicePool(3, "lowest")).kept
    (6, 6)
    """
    faces = _check_faces(faces, pool.count, f"a {pool.count}-dice pool", "R-HIT-6")
    idx = _kept_indices(faces, pool.keep)
    kept = tuple(faces[i] for i in idx)
    total = sum(_ATTACK_VALUE[f] for f in kept)
    return AttackRoll(
        faces=faces,
        kept=kept,
        kept_indices=idx,
        total=total,
        target_number=target_number,
        hit=_grade_hits(total, target_number),
        grade=grade(total, target_number),
        pool=pool,
    )


# --- exact odds (R-HIT-5) -----------------------------------------------------------------------


@cache
def total_distribution(pool: DicePool = TWO_DICE) -> Mapping[int, Fraction]:
    """Exact distribution of the kept total, by enumerating every face combination (R-HIT-5).

    At most 6**4 = 1296 rolls, and cached per pool.

    >>> d = total_distribution()
    >>> d[0], d[5], d[10], sum(d.values())
    (Fraction(1, 36), Fraction(1, 6), Fraction(1, 36), Fraction(1, 1))
    """
    counts: dict[int, int] = {}
    for roll in itertools.product(FACES, repeat=pool.count):
        t = _kept_total(roll, pool.keep)
        counts[t] = counts.get(t, 0) + 1
    n = 6**pool.count
    return MappingProxyType({t: Fraction(c, n) for t, c in sorted(counts.items())})


def _fraction_str(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


@dataclass(frozen=True, slots=True)
class Odds:
    """Exact chances of an attack (R-HIT-5). Each "or better" figure counts hits only."""

    hit: Fraction
    strong_or_better: Fraction
    critical_or_better: Fraction
    execution: Fraction
    catastrophic: Fraction

    def as_dict(self) -> dict[str, Any]:
        """Lowest-terms "n/d" strings plus a display-only float (FORMATS.md to-hit answer).

        >>> odds(6).as_dict()["hit"], odds(6).as_dict()["hit_float"]
        ('5/12', 0.4167)
        """
        return {
            "hit": _fraction_str(self.hit),
            "strong_or_better": _fraction_str(self.strong_or_better),
            "critical_or_better": _fraction_str(self.critical_or_better),
            "execution": _fraction_str(self.execution),
            "catastrophic": _fraction_str(self.catastrophic),
            # Display only; no rule reads it.
            "hit_float": round(float(self.hit), 4),
        }


@lru_cache(maxsize=512)
def odds(target_number: int, pool: DicePool = TWO_DICE) -> Odds:
    """Exact odds of hitting `target_number` with `pool` (R-HIT-4, R-HIT-5, R-HIT-6).

    >>> odds(5).hit  # R-HIT-5: 21/36, not seed 001's 72.22 %
    Fraction(7, 12)
    >>> o = odds(6)
    >>> (o.strong_or_better, o.critical_or_better, o.execution, o.catastrophic)
    (Fraction(5, 18), Fraction(1, 12), Fraction(1, 36), Fraction(1, 36))
    """
    dist = total_distribution(pool)

    def at_least(threshold: int) -> Fraction:
        return sum(
            (p for t, p in dist.items() if t >= threshold and _grade_hits(t, target_number)),
            Fraction(0),
        )

    return Odds(
        hit=at_least(1),
        strong_or_better=at_least(7),
        critical_or_better=at_least(9),
        execution=at_least(MAX_TOTAL),
        catastrophic=dist.get(0, Fraction(0)),
    )


@lru_cache(maxsize=512)
def grade_distribution(target_number: int, pool: DicePool = TWO_DICE) -> Mapping[str, Fraction]:
    """Exact chance of each grade of one attack, in GRADES order (R-HIT-4, R-HIT-5, R-HIT-6).

    The replay's odds chart draws this; the chances add up to exactly 1.

    >>> d = grade_distribution(7)
    >>> [f"{g} {d[g]}" for g in GRADES]
    ['catastrophic 1/36', 'miss 25/36', 'hit 0', 'strong 7/36', 'critical 1/18', 'execution 1/36']
    >>> d["strong"] + d["critical"] + d["execution"] == odds(7).hit
    True
    >>> sum(d.values())
    Fraction(1, 1)
    """
    out = dict.fromkeys(GRADES, Fraction(0))
    for total, p in total_distribution(pool).items():
        out[grade(total, target_number)] += p
    return MappingProxyType(out)


# --- defence dice (R-DMG-2..5) ------------------------------------------------------------------


class DefenceFace(NamedTuple):
    """One face of a defence die and what it does (R-DMG-2, R-DMG-4)."""

    face: int
    name: str
    blocks: bool
    heat: int = 0
    pierce: bool = False
    component_damage: int = 0


DEFENCE_DICE: Mapping[str, tuple[DefenceFace, ...]] = MappingProxyType(
    {
        # R-DMG-2: seed 001's revised 50 % die.
        "default": (
            DefenceFace(1, "SHIELD", blocks=True),
            DefenceFace(2, "SHIELD", blocks=True),
            DefenceFace(3, "ABSORB", blocks=True),
            DefenceFace(4, "BLOOD", blocks=False),
            DefenceFace(5, "PIERCE", blocks=False, pierce=True),
            DefenceFace(6, "HEAT", blocks=False, heat=1),
        ),
        # R-DMG-2 option defense_die: v1, the face table printed first in seed 001.
        "v1": (
            DefenceFace(1, "SHIELD", blocks=True),
            DefenceFace(2, "SHIELD", blocks=True),
            DefenceFace(3, "BLOOD", blocks=False),
            DefenceFace(4, "PIERCE", blocks=False, pierce=True),
            DefenceFace(5, "HEAT", blocks=False, heat=1),
            DefenceFace(6, "CRITICAL", blocks=False, component_damage=1),
        ),
    }
)
# A documented limit so that no request can make the engine work without end:
# one defence die per point of damage (R-DMG-2), and no card comes near this.
MAX_DEFENCE_DICE = 200


def _defence_die(die: str) -> tuple[DefenceFace, ...]:
    faces = DEFENCE_DICE.get(die)
    if faces is None:
        raise InvalidInput(
            "defense_die", f"unknown defence die {die!r}; allowed: default, v1", "R-DMG-2"
        )
    return faces


def _check_damage(damage: int) -> None:
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise InvalidInput("damage", f"must be a whole number ≥ 0, got {damage!r}", "R-DMG-1")
    if damage > MAX_DEFENCE_DICE:
        raise InvalidInput("damage", f"at most {MAX_DEFENCE_DICE} defence dice", "R-DMG-2")


def _final_damage(damage: int, rolled_blocks: int, defence_modifier: int) -> tuple[int, int]:
    # R-DMG-3: a negative modifier cancels blocks (never below none), a positive one adds
    # automatic blocks; the damage taken is never below 0.
    blocks = max(0, rolled_blocks + defence_modifier)
    return blocks, max(0, damage - blocks)


@lru_cache(maxsize=1024)
def damage_distribution(
    damage: int, defence_modifier: int = 0, faces: str = "default", *, execution: bool = False
) -> Mapping[int, Fraction]:
    """Exact distribution of the damage taken after the defence roll (R-DMG-2, R-DMG-3, R-DMG-5).

    The rolled blocks are binomial (one die per point of damage, each blocking
    with the die's share of blocking faces), so this is a sum of `damage + 1`
    binomial terms, not an enumeration of 6**damage rolls.

    >>> dict(damage_distribution(2))
    {0: Fraction(1, 4), 1: Fraction(1, 2), 2: Fraction(1, 4)}
    >>> dict(damage_distribution(2, -3)), dict(damage_distribution(9, execution=True))
    ({2: Fraction(1, 1)}, {9: Fraction(1, 1)})
    """
    _check_damage(damage)
    die = _defence_die(faces)
    if execution:
        return MappingProxyType({damage: Fraction(1)})  # R-DMG-5: no defence dice at all
    p = Fraction(sum(f.blocks for f in die), len(die))
    q = 1 - p
    dist: dict[int, Fraction] = {}
    for k in range(damage + 1):
        _, final = _final_damage(damage, k, defence_modifier)
        prob = math.comb(damage, k) * p**k * q ** (damage - k)
        if prob:
            dist[final] = dist.get(final, Fraction(0)) + prob
    return MappingProxyType(dict(sorted(dist.items())))


@dataclass(frozen=True, slots=True)
class DefenceRoll:
    """An actual defence roll resolved (R-DMG-2..5)."""

    faces: tuple[int, ...]
    die: str
    damage: int
    defence_modifier: int
    rolled_blocks: int
    blocks: int
    final_damage: int
    heat: int
    pierce: bool
    component_damage: int

    def as_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "symbols": [DEFENCE_DICE[self.die][f - 1].name for f in self.faces],
            "damage": self.damage,
            "defense_modifier": self.defence_modifier,
            "rolled_blocks": self.rolled_blocks,
            "blocks": self.blocks,
            "final_damage": self.final_damage,
            "heat": self.heat,
            "pierce": self.pierce,
            "component_damage": self.component_damage,
            "rule": "R-DMG-3",
        }


def defence_result(
    faces: Sequence[int],
    damage: int,
    defence_modifier: int = 0,
    die: str = "default",
    *,
    execution: bool = False,
) -> DefenceRoll:
    """Resolve an actual defence roll: one die per point of damage (R-DMG-2..5).

    Seed 001's example: 8 damage, SHIELD SHIELD SHIELD ABSORB BLOOD HEAT PIERCE BLOOD.

    >>> r = defence_result([1, 2, 1, 3, 4, 6, 5, 4], 8)
    >>> r.blocks, r.final_damage, r.heat, r.pierce
    (4, 4, 1, True)
    >>> defence_result([1, 6, 6], 3, die="v1").component_damage
    2
    """
    _check_damage(damage)
    table = _defence_die(die)
    # R-DMG-5: an EXECUTION rolls no defence dice.
    faces = _check_faces(faces, 0 if execution else damage, "this defence roll", "R-DMG-2")
    rolled = [table[f - 1] for f in faces]
    rolled_blocks = sum(f.blocks for f in rolled)
    if execution:
        blocks, final = 0, damage
    else:
        blocks, final = _final_damage(damage, rolled_blocks, defence_modifier)
    return DefenceRoll(
        faces=faces,
        die=die,
        damage=damage,
        defence_modifier=defence_modifier,
        rolled_blocks=rolled_blocks,
        blocks=blocks,
        final_damage=final,
        heat=sum(f.heat for f in rolled),
        pierce=any(f.pierce for f in rolled),
        component_damage=sum(f.component_damage for f in rolled),
    )


# --- suffering die (seed 001 §4) ----------------------------------------------------------------


class SufferingFace(NamedTuple):
    """One face of the suffering die, its effect text and the effect as fields (seed 001 §4)."""

    face: int
    symbol: str
    name: str
    effect: str
    cards_discarded: int
    heat: int = 0
    damage_this_turn: int = 0  # added to every attack this turn
    damage_next_attack: int = 0
    cards_recovered: int = 0  # taken back from the discard pile


SUFFERING_DIE: Mapping[int, SufferingFace] = MappingProxyType(
    {
        1: SufferingFace(1, "SHIELD", "DIVINE MERCY", "No self-harm", 0),
        2: SufferingFace(2, "BLOOD", "BLOOD PRICE", "Discard 2 cards (self-harm)", 2),
        3: SufferingFace(
            3,
            "STRIKE",
            "ZEALOT'S FURY",
            "Discard 1 card, +1 damage to all attacks this turn",
            1,
            damage_this_turn=1,
        ),
        4: SufferingFace(
            4,
            "HEAT",
            "PENANCE",
            "Discard 1 card, +1 Heat, +2 damage next attack",
            1,
            heat=1,
            damage_next_attack=2,
        ),
        5: SufferingFace(
            5,
            "CRITICAL",
            "MARTYRDOM",
            "Discard 3 cards, +3 damage to next attack",
            3,
            damage_next_attack=3,
        ),
        6: SufferingFace(
            6,
            "ABSORB",
            "ABSOLUTION",
            "Discard 1 card, recover 1 card from discard",
            1,
            cards_recovered=1,
        ),
    }
)


# --- components and the strain check (R-DMG-6, R-TRN-4) -----------------------------------------

COMPONENTS: tuple[str, ...] = ("right_arm", "left_arm", "legs", "head", "chassis")  # R-DMG-7
# R-DMG-6 / R-TRN-4. Seed 002's strain table says "1-2=Arm"; the ruling wins.
_COMPONENT_ROLL: tuple[str, ...] = ("right_arm", "left_arm", "legs", "legs", "head", "chassis")


def component_for_roll(d6: int) -> str:
    """The component a 1d6 picks (R-DMG-6, R-TRN-4): 1 right arm, 2 left arm, 3–4 legs, 5 head, 6 chassis.

    >>> [component_for_roll(n) for n in range(1, 7)]
    ['right_arm', 'left_arm', 'legs', 'legs', 'head', 'chassis']
    """
    _check_faces((d6,), 1, "a component roll", "R-DMG-6")
    return _COMPONENT_ROLL[d6 - 1]


STRAIN_MIN_HEAT = 5  # R-TRN-4: 0–4 Heat is the safe zone, no check
STRAIN_AUTO_FAIL_HEAT = 10  # R-TRN-4: no roll, critical failure

NO_CHECK = "none"
OVERLOAD = "overload"
SP_DRAIN = "sp_drain"
SYSTEM_DAMAGE = "system_damage"
CRITICAL_FAILURE = "critical_failure"


class StrainRow(NamedTuple):
    low: int
    high: int | None  # None: and above
    outcome: str
    effect: str


# R-TRN-4 (seed 002's Strain Table). Rolls happen only at 5+ Heat, so the lowest
# strain total is 6 and the 1–5 row is kept for completeness of the table.
STRAIN_TABLE: tuple[StrainRow, ...] = (
    StrainRow(1, 5, OVERLOAD, "Minor Overload: gain 1 Heat"),
    StrainRow(6, 8, SP_DRAIN, "SP Drain: lose 1 SP this turn"),
    StrainRow(9, 11, SYSTEM_DAMAGE, "System Damage: take 2 damage"),
    StrainRow(12, None, CRITICAL_FAILURE, "Critical Failure: a rolled component takes 1 damage"),
)


@dataclass(frozen=True, slots=True)
class StrainResult:
    """The Refresh heat check's outcome (R-TRN-4)."""

    heat: int
    roll: int | None  # None when no die is rolled (under 5 or 10+ Heat)
    total: int | None
    outcome: str
    heat_gained: int = 0
    sp_lost: int = 0
    damage: int = 0  # R-DMG-6 with no component
    component: str | None = None  # set for a critical failure once its d6 is known
    rule: str = "R-TRN-4"

    @property
    def critical_failure(self) -> bool:
        return self.outcome == CRITICAL_FAILURE

    def as_dict(self) -> dict[str, Any]:
        return {
            "heat": self.heat,
            "roll": self.roll,
            "total": self.total,
            "outcome": self.outcome,
            "heat_gained": self.heat_gained,
            "sp_lost": self.sp_lost,
            "damage": self.damage,
            "component": self.component,
            "rule": self.rule,
        }


def needs_strain_roll(heat: int) -> bool:
    """Whether the Refresh heat check rolls a die (R-TRN-4: 5–9 Heat).

    >>> needs_strain_roll(4), needs_strain_roll(9), needs_strain_roll(10)
    (False, True, False)
    """
    return STRAIN_MIN_HEAT <= heat < STRAIN_AUTO_FAIL_HEAT


def strain_result(
    d6: int | None,
    heat: int,
    component_d6: int | None = None,
    auto_fail: int = STRAIN_AUTO_FAIL_HEAT,
) -> StrainResult:
    """The heat check at Refresh (R-TRN-4): strain = 1d6 + Heat at 5–9 Heat.

    At 10+ Heat (`auto_fail`: 12 with a card that says so, R-ADD-136) there is no roll
    (pass `d6=None`): critical failure. Under 5 Heat there is no check. A critical
    failure's component comes from `component_d6`.

    >>> strain_result(2, 6).outcome, strain_result(6, 6).outcome
    ('sp_drain', 'critical_failure')
    >>> strain_result(None, 11, component_d6=3).component
    'legs'
    >>> strain_result(1, 10, auto_fail=12).outcome
    'system_damage'
    """
    if heat < STRAIN_MIN_HEAT:
        return StrainResult(heat=heat, roll=None, total=None, outcome=NO_CHECK)
    roll: int | None = None
    total: int | None = None
    if heat < auto_fail:
        if d6 is None:
            raise RuleViolation(
                "strain_roll_missing", f"at {heat} Heat the strain check rolls 1d6", "R-TRN-4"
            )
        roll = _check_faces((d6,), 1, "the strain check", "R-TRN-4")[0]
        total = roll + heat
        outcome = next(
            row.outcome
            for row in STRAIN_TABLE
            if row.low <= total and (row.high is None or total <= row.high)
        )
    else:
        outcome = CRITICAL_FAILURE
    if outcome == OVERLOAD:
        return StrainResult(heat, roll, total, outcome, heat_gained=1)
    if outcome == SP_DRAIN:
        return StrainResult(heat, roll, total, outcome, sp_lost=1)
    if outcome == SYSTEM_DAMAGE:
        return StrainResult(heat, roll, total, outcome, damage=2)
    component = None if component_d6 is None else component_for_roll(component_d6)
    return StrainResult(heat, roll, total, outcome, component=component)
