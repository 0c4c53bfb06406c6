"""Facing, attack sides, firing arcs and rotation (R-ARC-1..5).

Sides are relative to a casket's facing: side 1 is the hex-side it faces, then
clockwise, so side 2 is front-right and side 6 front-left (seed 000 "Hex Sides").
Sectors are decided with exact integer tests on cube coordinates: the six 60°
sectors centred on the six directions are exactly the six orderings of the
offset's cube components, and a sector boundary is where two of them are equal.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from .errors import InvalidInput, RuleViolation
from .hexes import DIRECTIONS, Hex

SHIELDS: tuple[str, ...] = ("left", "right", "none")
FIRING_ARC_SIDES: frozenset[int] = frozenset({6, 1, 2})  # R-ARC-3


@dataclass(frozen=True, slots=True)
class SideRow:
    """One row of the side table (R-ARC-2): what an attack from this side gets.

    `to_hit` adds to the target number, `damage` to the damage, `defence` is the
    defence modifier of R-DMG-3. `damage_rule` names where the damage figure came
    from (R-ARC-4 when option melee_facing=simple replaced it).
    """

    side: int
    name: str
    to_hit: int
    damage: int
    defence: int
    shield_cards: bool
    reactive_cards: bool
    damage_rule: str = "R-ARC-2"

    @property
    def label(self) -> str:
        """A modifier label such as "Rear (side 4)" (FORMATS.md to-hit answer)."""
        return f"{self.name[:1].upper()}{self.name[1:]} (side {self.side})"


def _mirror_side(side: int) -> int:
    return (1 - side) % 6 + 1  # 2 ↔ 6, 3 ↔ 5; 1 and 4 stay


_LEFT = (
    SideRow(1, "front", 0, 0, 0, shield_cards=True, reactive_cards=True),
    SideRow(2, "weapon side", 0, 1, -1, shield_cards=False, reactive_cards=True),
    SideRow(3, "flank (weapon)", -1, 2, -2, shield_cards=False, reactive_cards=False),
    SideRow(4, "rear", -2, 3, -3, shield_cards=False, reactive_cards=False),
    SideRow(5, "flank (shield)", -1, 2, -2, shield_cards=False, reactive_cards=False),
    SideRow(6, "shield side", 1, 0, 1, shield_cards=True, reactive_cards=True),
)
# R-ARC-2: a right shield mirrors the left-shield table.
_RIGHT = tuple(replace(_LEFT[_mirror_side(s) - 1], side=s) for s in DIRECTIONS)
# R-ARC-2: no shield, sides 2 and 6 are both weapon sides and no shield card can be played:
# the left-shield table with plain flanks and side 6 a second side 2.
_NONE = (
    replace(_LEFT[0], shield_cards=False),
    _LEFT[1],
    replace(_LEFT[2], name="flank"),
    _LEFT[3],
    replace(_LEFT[4], name="flank"),
    replace(_LEFT[1], side=6),
)
SIDE_TABLE: Mapping[str, tuple[SideRow, ...]] = MappingProxyType(
    {"left": _LEFT, "right": _RIGHT, "none": _NONE}
)

# R-ARC-4 option melee_facing=simple (seed 000 "Melee Range"): front +0, sides +1, rear +2.
MELEE_DAMAGE: Mapping[int, int] = MappingProxyType({1: 0, 2: 1, 3: 1, 4: 2, 5: 1, 6: 1})


def _check_direction(value: int, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 6:
        raise InvalidInput(field, f"must be a direction 1..6, got {value!r}", "R-BRD-2")
    return value


def side_row(side: int, shield: str = "left") -> SideRow:
    """The side table row for an attack from `side` on a casket with `shield` (R-ARC-2).

    >>> side_row(4).damage, side_row(6).to_hit, side_row(2, "right").name
    (3, 1, 'shield side')
    """
    rows = SIDE_TABLE.get(shield)
    if rows is None:
        raise InvalidInput("shield", f"must be one of {', '.join(SHIELDS)}", "R-ARC-2")
    return rows[_check_direction(side, "side") - 1]


def melee_damage_bonus(side: int) -> int:
    """Damage bonus from seed 000's melee list, option melee_facing=simple (R-ARC-4).

    >>> [melee_damage_bonus(s) for s in range(1, 7)]
    [0, 1, 1, 2, 1, 1]
    """
    return MELEE_DAMAGE[_check_direction(side, "side")]


def attack_side_row(
    side: int, shield: str, distance: int, melee_facing: str = "side_table"
) -> SideRow:
    """The side row that applies to one attack, with option melee_facing (R-ARC-2, R-ARC-4).

    Under melee_facing=simple an attack at distance 1 takes its damage bonus from
    seed 000's melee list; every other column still comes from the side table.

    >>> attack_side_row(3, "left", 1, "simple").damage, attack_side_row(3, "left", 2, "simple").damage
    (1, 2)
    """
    if melee_facing not in ("side_table", "simple"):
        raise InvalidInput(
            "rules.options.melee_facing", "must be one of side_table, simple", "R-ARC-4"
        )
    row = side_row(side, shield)
    # ADDENDUM: melee_facing=simple replaces only the damage column, and only for
    # attacks at distance 1 (seed 000 gives the list under "Melee Range"); the to-hit,
    # defence and card columns still come from the R-ARC-2 side table.
    if melee_facing == "simple" and distance == 1:
        return replace(row, damage=MELEE_DAMAGE[side], damage_rule="R-ARC-4")
    return row


# For each direction, the indices of (q, r, s) from smallest to largest along it.
_ORDERINGS: tuple[tuple[int, tuple[int, int, int]], ...] = (
    (1, (1, 0, 2)),  # N  (0,-1,+1): r < q < s
    (2, (1, 2, 0)),  # NE (+1,-1,0): r < s < q
    (3, (2, 1, 0)),  # SE (+1,0,-1): s < r < q
    (4, (2, 0, 1)),  # S  (0,+1,-1): s < q < r
    (5, (0, 2, 1)),  # SW (-1,+1,0): q < s < r
    (6, (0, 1, 2)),  # NW (-1,0,+1): q < r < s
)


def _sector_directions(dq: int, dr: int) -> tuple[int, ...]:
    """Absolute directions whose 60° sector holds the offset; two on a boundary (R-ARC-1)."""
    q, r, s = dq, dr, -dq - dr
    # The sector centred on each direction is one strict ordering of (q, r, s), e.g.
    # N = (0, -1, +1) has r < q < s. A tie of two components is the vertex direction
    # between two sectors, and then both orderings consistent with it count.
    found: list[int] = []
    for direction, (a, b, c) in _ORDERINGS:
        lo, mid, hi = (q, r, s)[a], (q, r, s)[b], (q, r, s)[c]
        if lo <= mid <= hi:
            found.append(direction)
    return tuple(found)


def relative_side(absolute_direction: int, facing: int) -> int:
    """`side = ((absolute_direction − facing) mod 6) + 1` (R-ARC-1).

    >>> relative_side(1, 4), relative_side(3, 2)
    (4, 2)
    """
    return (absolute_direction - facing) % 6 + 1


def candidate_sides(defender_at: Hex, defender_facing: int, attacker_at: Hex) -> tuple[int, ...]:
    """The side(s) an attack comes from: one, or two on a sector boundary (R-ARC-1).

    >>> candidate_sides(Hex(0, 0), 1, Hex(1, -1))  # adjacent NE of a north-facing casket
    (2,)
    >>> candidate_sides(Hex(0, 0), 1, Hex(1, -2))  # the vertex direction between N and NE
    (1, 2)
    """
    _check_direction(defender_facing, "facing")
    dq, dr = attacker_at.q - defender_at.q, attacker_at.r - defender_at.r
    if dq == 0 and dr == 0:
        raise RuleViolation(
            "same_hex", "an attack from the defender's own hex has no side", "R-ARC-1"
        )
    return tuple(sorted(relative_side(d, defender_facing) for d in _sector_directions(dq, dr)))


def _defender_preference(row: SideRow) -> tuple[int, int, int, int]:
    # R-ARC-1: higher to-hit modifier, then lower damage bonus, then better defence;
    # the lower side number only makes the choice deterministic (never needed by the tables).
    return (row.to_hit, -row.damage, row.defence, -row.side)


def attack_side(defender_at: Hex, facing: int, attacker_at: Hex, shield: str = "left") -> int:
    """The side an attack comes from, with the defender's choice on a boundary (R-ARC-1).

    >>> attack_side(Hex(0, 0), 1, Hex(1, -2))  # front (+0) or weapon side (+0, +1 damage)
    1
    >>> attack_side(Hex(0, 0), 1, Hex(-1, -1))  # shield side (+1) beats front (+0)
    6
    """
    return choose_side_row(candidate_sides(defender_at, facing, attacker_at), shield).side


def choose_side_row(
    candidates: Sequence[int], shield: str, distance: int = 2, melee_facing: str = "side_table"
) -> SideRow:
    """The row the defender picks among boundary candidates, with option melee_facing (R-ARC-1).

    >>> choose_side_row((2, 3), "left").side  # weapon side (+0) beats flank (−1)
    2
    """
    rows = [attack_side_row(s, shield, distance, melee_facing) for s in candidates]
    return max(rows, key=_defender_preference)


def in_firing_arc(attacker_at: Hex, attacker_facing: int, target_at: Hex) -> bool:
    """Whether a ranged attack may go at `target_at`: the front 180°, boundaries included (R-ARC-3).

    Distance 1 is always allowed (seed 000 "Melee Range"); so is the own hex
    (range Self), which has no direction.

    >>> in_firing_arc(Hex(0, 0), 1, Hex(2, -1))  # due east: the side 2/3 boundary, included
    True
    >>> in_firing_arc(Hex(0, 0), 1, Hex(0, 2)), in_firing_arc(Hex(0, 0), 1, Hex(0, 1))
    (False, True)
    """
    if attacker_at.distance(target_at) <= 1:
        _check_direction(attacker_facing, "facing")
        return True
    return any(
        s in FIRING_ARC_SIDES for s in candidate_sides(attacker_at, attacker_facing, target_at)
    )


def rotation_steps(from_facing: int, to_facing: int) -> int:
    """60° turns from one facing to another the short way (R-ARC-5).

    >>> rotation_steps(1, 4), rotation_steps(1, 6), rotation_steps(2, 2)
    (3, 1, 0)
    """
    return min((to_facing - from_facing) % 6, (from_facing - to_facing) % 6)


def rotation_cost(from_facing: int, to_facing: int, free_rotation_available: bool = True) -> int:
    """SP to turn from one facing to another the short way (R-ARC-5).

    One 60° turn per turn is free; each further 60° costs 1 SP (seed 000:
    "Rotate 3 hex-sides = 1 free + 2 SP").

    >>> rotation_cost(1, 4, True), rotation_cost(1, 6, True), rotation_cost(1, 6, False)
    (2, 0, 1)
    """
    _check_direction(from_facing, "from_facing")
    _check_direction(to_facing, "to_facing")
    steps = rotation_steps(from_facing, to_facing)
    return max(0, steps - 1) if free_rotation_available else steps
