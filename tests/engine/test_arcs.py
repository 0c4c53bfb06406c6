"""Facing, attack sides, firing arcs and rotation: R-ARC-1..5, seed 000 "Facing & Firing Arcs"."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine.arcs import (
    attack_side,
    attack_side_row,
    candidate_sides,
    in_firing_arc,
    melee_damage_bonus,
    relative_side,
    rotation_cost,
    side_row,
)
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.hexes import DIRECTIONS, Hex, mirror_direction, ring, rotate_direction

CENTRE = Hex(0, 0)


def _row_values(shield: str, side: int) -> tuple[object, ...]:
    row = side_row(side, shield)
    return (row.to_hit, row.damage, row.defence, row.shield_cards, row.reactive_cards)


# --- the side table (R-ARC-2) -------------------------------------------------------------------


def test_left_shield_side_table_r_arc_2() -> None:
    assert [_row_values("left", s) for s in DIRECTIONS] == [
        (0, 0, 0, True, True),
        (0, 1, -1, False, True),
        (-1, 2, -2, False, False),
        (-2, 3, -3, False, False),
        (-1, 2, -2, False, False),
        (1, 0, 1, True, True),
    ]


def test_right_shield_mirrors_left_r_arc_2() -> None:
    for side in DIRECTIONS:
        left, right = side_row(side, "left"), side_row(mirror_direction(side), "right")
        assert dataclasses.replace(left, side=right.side) == right


def test_no_shield_has_two_weapon_sides_and_no_shield_cards_r_arc_2() -> None:
    assert _row_values("none", 2) == _row_values("none", 6) == (0, 1, -1, False, True)
    assert not any(side_row(s, "none").shield_cards for s in DIRECTIONS)
    assert _row_values("none", 4) == _row_values("left", 4)


def test_reactive_cards_never_from_sides_3_4_5_r_rea_2() -> None:
    for shield in ("left", "right", "none"):
        assert [side_row(s, shield).reactive_cards for s in DIRECTIONS] == [
            True,
            True,
            False,
            False,
            False,
            True,
        ]


def test_side_row_label_matches_formats_example() -> None:
    assert side_row(4).label == "Rear (side 4)"
    assert side_row(4).name == "rear"


def test_unknown_shield_is_invalid_r_arc_2() -> None:
    with pytest.raises(InvalidInput) as err:
        side_row(1, "both")
    assert (err.value.field, err.value.rule) == ("shield", "R-ARC-2")


# --- seed 000's diagrams and Q&A (R-ARC-1) ------------------------------------------------------


def test_qa_which_adjacent_hex_holds_the_attacker_r_arc_1() -> None:
    """Seed 000 Q&A: "Determine which of the 6 hexes adjacent to the defender contains the
    attacker": defender facing up (1), the hexes N, NE, SE, S, SW, NW are sides 1..6, and
    an attacker in hex 2 is a front-right (weapon-side) attack."""
    for d in DIRECTIONS:
        assert candidate_sides(CENTRE, 1, CENTRE.neighbour(d)) == (d,)
    assert side_row(attack_side(CENTRE, 1, CENTRE.neighbour(2))).name == "weapon side"


@pytest.mark.parametrize("facing", DIRECTIONS)
@pytest.mark.parametrize("side", DIRECTIONS)
def test_side_formula_for_every_facing_r_arc_1(facing: int, side: int) -> None:
    """R-ARC-1: side = ((absolute_direction − facing) mod 6) + 1."""
    attacker = Hex(3, -1).neighbour(rotate_direction(facing, side - 1))
    assert candidate_sides(Hex(3, -1), facing, attacker) == (side,)
    assert relative_side(rotate_direction(facing, side - 1), facing) == side


def test_direct_rear_attack_diagram_r_arc_2() -> None:
    """Seed 000 "DIRECT REAR ATTACK": target facing down, attacker behind it: side 4,
    +3 damage, defence −3, no reactive cards."""
    for attacker in (CENTRE.neighbour(1), Hex(0, -4)):
        side = attack_side(CENTRE, 4, attacker)
        assert side == 4
        row = side_row(side)
        assert (row.damage, row.defence, row.reactive_cards) == (3, -3, False)


@pytest.mark.parametrize("facing", [5, 6])
def test_flank_attack_weapon_side_diagram_r_arc_2(facing: int) -> None:
    """Seed 000 "FLANK ATTACK - WEAPON SIDE": left-shield target facing left (SW or NW on a
    flat-top grid), attacker in its front-right hex: side 2, +1 damage, defence −1, no shield."""
    attacker = CENTRE.neighbour(rotate_direction(facing, 1))
    side = attack_side(CENTRE, facing, attacker, "left")
    row = side_row(side, "left")
    assert (side, row.damage, row.defence, row.shield_cards) == (2, 1, -1, False)


@pytest.mark.parametrize("facing", [2, 3])
def test_shield_side_attack_diagram_r_arc_2(facing: int) -> None:
    """Seed 000 "SHIELD SIDE ATTACK": left-shield target facing right (NE or SE), attacker in
    its front-left hex: side 6, +0 damage, defence +1, shield cards allowed."""
    attacker = CENTRE.neighbour(rotate_direction(facing, 5))
    side = attack_side(CENTRE, facing, attacker, "left")
    row = side_row(side, "left")
    assert (side, row.to_hit, row.damage, row.defence, row.shield_cards) == (6, 1, 0, 1, True)


def test_front_attack_diagram_r_arc_2() -> None:
    """Seed 000 "FRONT ATTACK": target facing up, attacker in front: side 1, all +0."""
    side = attack_side(CENTRE, 1, CENTRE.neighbour(1))
    assert side == 1
    assert _row_values("left", side) == (0, 0, 0, True, True)


def test_qa_attack_a_right_shield_casket_on_its_left_r_arc_2() -> None:
    """Seed 000 Q&A: against a right shield, attack sides 5 and 6 to bypass the shield. Under
    R-ARC-2's mirror they are its weapon side and weapon flank; shield cards only from 1 and 2
    (R-REA-2)."""
    for side in (5, 6):
        assert not side_row(side, "right").shield_cards
        assert side_row(side, "right").to_hit <= side_row(mirror_direction(side), "right").to_hit
    assert side_row(6, "right").name == "weapon side"
    assert [s for s in DIRECTIONS if side_row(s, "right").shield_cards] == [1, 2]


# --- sectors for non-adjacent attackers (R-ARC-1) -----------------------------------------------


def _float_sector_oracle(dq: int, dr: int) -> float:
    """Test-only oracle: the clockwise angle from north of the pixel offset (R-BRD-2)."""
    x = 1.5 * dq
    y = math.sqrt(3) * (dr + dq / 2)
    return math.degrees(math.atan2(x, -y)) % 360


def test_sectors_agree_with_pixel_angles_away_from_boundaries_r_arc_1() -> None:
    for radius in range(1, 9):
        for h in ring(CENTRE, radius):
            angle = _float_sector_oracle(h.q, h.r)
            offset = (angle + 30) % 60
            if min(offset, 60 - offset) < 1e-6:
                continue
            expected_direction = int(((angle + 30) % 360) // 60) + 1
            assert candidate_sides(CENTRE, 1, h) == (expected_direction,), h


def test_boundary_hexes_are_the_vertex_directions_r_arc_1() -> None:
    """Two cube components equal ⇔ the offset lies on a vertex direction: 6 such hexes on
    every even ring, none on odd rings."""
    for radius in range(1, 9):
        boundary = [h for h in ring(CENTRE, radius) if len(candidate_sides(CENTRE, 1, h)) == 2]
        assert len(boundary) == (6 if radius % 2 == 0 else 0)
        for h in boundary:
            assert len({h.q, h.r, h.s}) == 2


@pytest.mark.parametrize(
    ("shield", "attacker", "sides", "chosen"),
    [
        ("left", Hex(1, -2), (1, 2), 1),  # front +0/+0 vs weapon +0/+1: lower damage
        ("left", Hex(-1, -1), (1, 6), 6),  # shield side +1 to hit
        ("left", Hex(2, -1), (2, 3), 2),  # +0 beats −1
        ("left", Hex(1, 1), (3, 4), 3),  # −1 beats −2
        ("left", Hex(-1, 2), (4, 5), 5),
        ("left", Hex(-2, 1), (5, 6), 6),
        ("right", Hex(1, -2), (1, 2), 2),  # mirrored: the shield side is 2
        ("right", Hex(-1, -1), (1, 6), 1),  # weapon side 6 gives +1 damage: front is better
        ("none", Hex(-1, -1), (1, 6), 1),
    ],
)
def test_defender_chooses_on_a_sector_boundary_r_arc_1(
    shield: str, attacker: Hex, sides: tuple[int, ...], chosen: int
) -> None:
    """R-ARC-1: higher to-hit modifier, then lower damage bonus, then better defence."""
    assert candidate_sides(CENTRE, 1, attacker) == sides
    assert attack_side(CENTRE, 1, attacker, shield) == chosen


def test_attack_from_own_hex_has_no_side_r_arc_1() -> None:
    with pytest.raises(RuleViolation) as err:
        candidate_sides(CENTRE, 1, CENTRE)
    assert (err.value.code, err.value.rule) == ("same_hex", "R-ARC-1")


@pytest.mark.parametrize("facing", [0, 7, True])
def test_facing_outside_1_to_6_is_invalid_r_brd_2(facing: int) -> None:
    with pytest.raises(InvalidInput) as err:
        candidate_sides(CENTRE, facing, Hex(0, -1))
    assert err.value.rule == "R-BRD-2"


hexes = st.builds(Hex, st.integers(-12, 12), st.integers(-12, 12))
facings = st.integers(1, 6)


@settings(max_examples=150, deadline=None)
@given(defender=hexes, attacker=hexes, facing=facings, steps=st.integers(0, 5))
def test_rotating_everything_by_60_degrees_keeps_the_side_r_arc_1(
    defender: Hex, attacker: Hex, facing: int, steps: int
) -> None:
    if defender == attacker:
        return
    rotated = candidate_sides(
        defender.rotate(steps), rotate_direction(facing, steps), attacker.rotate(steps)
    )
    assert rotated == candidate_sides(defender, facing, attacker)


@settings(max_examples=150, deadline=None)
@given(defender=hexes, attacker=hexes, facing=facings)
def test_mirroring_swaps_left_and_right_shield_consistently_r_arc_2(
    defender: Hex, attacker: Hex, facing: int
) -> None:
    if defender == attacker:
        return
    sides = candidate_sides(defender, facing, attacker)
    mirrored = candidate_sides(defender.mirror(), mirror_direction(facing), attacker.mirror())
    assert mirrored == tuple(sorted(mirror_direction(s) for s in sides))
    left = attack_side(defender, facing, attacker, "left")
    right = attack_side(defender.mirror(), mirror_direction(facing), attacker.mirror(), "right")
    assert right == mirror_direction(left)


@settings(max_examples=100, deadline=None)
@given(defender=hexes, attacker=hexes, facing=facings)
def test_candidate_sides_are_one_or_two_neighbouring_sides_r_arc_1(
    defender: Hex, attacker: Hex, facing: int
) -> None:
    if defender == attacker:
        return
    sides = candidate_sides(defender, facing, attacker)
    assert len(sides) in (1, 2)
    if len(sides) == 2:
        assert (sides[1] - sides[0]) % 6 in (1, 5)
        assert defender.distance(attacker) % 2 == 0


# --- firing arc (R-ARC-3) -----------------------------------------------------------------------


def test_adjacent_targets_are_always_in_arc_r_arc_3() -> None:
    """Seed 000 "Melee Range": any of the 6 adjacent hexes, regardless of facing."""
    for facing in DIRECTIONS:
        assert all(in_firing_arc(CENTRE, facing, n) for n in CENTRE.neighbours())


def test_firing_arc_is_sides_6_1_2_with_boundaries_r_arc_3() -> None:
    for h in ring(CENTRE, 4):
        sides = set(candidate_sides(CENTRE, 1, h))
        assert in_firing_arc(CENTRE, 1, h) == bool(sides & {6, 1, 2}), h
    assert in_firing_arc(CENTRE, 1, Hex(2, -1))  # due east: the 2/3 boundary is included
    assert in_firing_arc(CENTRE, 1, Hex(-2, 1))  # due west: the 5/6 boundary is included
    assert not in_firing_arc(CENTRE, 1, Hex(1, 1))  # the 3/4 boundary is behind


def test_qa_cannot_attack_behind_without_rotating_r_arc_3() -> None:
    """Seed 000 Q&A "Can I attack behind me without rotating?": no."""
    assert not in_firing_arc(CENTRE, 1, Hex(0, 3))
    assert in_firing_arc(CENTRE, 4, Hex(0, 3))


@settings(max_examples=100, deadline=None)
@given(attacker=hexes, target=hexes, facing=facings, steps=st.integers(0, 5))
def test_firing_arc_is_rotation_invariant_r_arc_3(
    attacker: Hex, target: Hex, facing: int, steps: int
) -> None:
    assert in_firing_arc(attacker, facing, target) == in_firing_arc(
        attacker.rotate(steps), rotate_direction(facing, steps), target.rotate(steps)
    )


# --- melee facing option (R-ARC-4) --------------------------------------------------------------


def test_simple_melee_damage_list_r_arc_4() -> None:
    """Seed 000 "Melee Range": front +0, side +1, rear +2."""
    assert [melee_damage_bonus(s) for s in DIRECTIONS] == [0, 1, 1, 2, 1, 1]


def test_simple_melee_replaces_only_damage_at_distance_1_r_arc_4() -> None:
    """ADDENDUM to R-ARC-4: only the damage column, only at distance 1."""
    row = attack_side_row(4, "left", 1, "simple")
    assert (row.to_hit, row.damage, row.defence, row.damage_rule) == (-2, 2, -3, "R-ARC-4")
    assert attack_side_row(4, "left", 3, "simple") == side_row(4, "left")
    assert attack_side_row(6, "left", 1, "side_table") == side_row(6, "left")
    assert attack_side_row(6, "left", 1, "simple").damage == 1


def test_unknown_melee_facing_is_invalid_r_arc_4() -> None:
    with pytest.raises(InvalidInput) as err:
        attack_side_row(1, "left", 1, "fancy")
    assert err.value.rule == "R-ARC-4"


# --- rotation (R-ARC-5) -------------------------------------------------------------------------


def test_rotate_three_sides_is_one_free_plus_two_sp_r_arc_5() -> None:
    """Seed 000: "Rotate 3 hex-sides = 1 free + 2 SP"; "Rotate 180° … costs 2 SP total"."""
    assert rotation_cost(1, 4, True) == 2
    assert rotation_cost(1, 4, False) == 3


@pytest.mark.parametrize(
    ("start", "end", "free", "cost"),
    [(1, 1, True, 0), (1, 2, True, 0), (1, 6, True, 0), (1, 3, True, 1), (6, 2, True, 1),
     (5, 2, True, 2), (1, 2, False, 1), (1, 1, False, 0), (2, 5, False, 3)],
)  # fmt: skip
def test_rotation_takes_the_short_way_r_arc_5(start: int, end: int, free: bool, cost: int) -> None:
    assert rotation_cost(start, end, free) == cost


def test_rotation_facing_must_be_a_direction_r_brd_2() -> None:
    with pytest.raises(InvalidInput) as err:
        rotation_cost(1, 7, True)
    assert err.value.field == "to_facing"
