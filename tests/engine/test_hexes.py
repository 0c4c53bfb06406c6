"""Hex geometry: R-BRD-1 coordinates and distance, R-BRD-2 directions and pixels."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from battles.engine.hexes import (
    DIRECTION_VECTORS,
    Hex,
    mirror_direction,
    ring,
    rotate_direction,
    spiral,
)

coords = st.integers(-60, 60)
hexes = st.builds(Hex, coords, coords)


def test_directions_are_n_ne_se_s_sw_nw_r_brd_2() -> None:
    assert DIRECTION_VECTORS == {
        1: (0, -1),
        2: (1, -1),
        3: (1, 0),
        4: (0, 1),
        5: (-1, 1),
        6: (-1, 0),
    }


def test_pixel_centres_put_north_up_r_brd_2() -> None:
    x, y = Hex(0, 0).neighbour(1).to_pixel()
    assert (x, y) == (0.0, -math.sqrt(3))
    x, y = Hex(0, 0).neighbour(3).to_pixel()
    assert x > 0 and y > 0  # SE: right and down


def test_ring_k_has_6k_hexes_at_distance_k_r_brd_1() -> None:
    """Seed 000 "Hex Counting": range 1 = 6 hexes, range 2 = 12, range 3 = 18."""
    centre = Hex(2, -1)
    for k in range(0, 8):
        members = list(ring(centre, k))
        assert len(members) == (6 * k if k else 1) == len(set(members))
        assert all(centre.distance(h) == k for h in members)


def test_spiral_covers_the_hexagon_r_brd_1() -> None:
    assert len(set(spiral(Hex(0, 0), 4))) == 3 * 4 * 5 + 1


def test_distance_formula_r_brd_1() -> None:
    assert Hex(0, 0).distance(Hex(3, -2)) == 3
    assert Hex(0, 0).distance(Hex(1, -5)) == 5
    assert Hex(-2, 3).distance(Hex(2, -3)) == 6


@given(hexes, hexes)
def test_distance_is_symmetric_and_zero_only_on_itself(a: Hex, b: Hex) -> None:
    assert a.distance(b) == b.distance(a)
    assert (a.distance(b) == 0) == (a == b)


@given(hexes, hexes, hexes)
def test_distance_obeys_the_triangle_inequality(a: Hex, b: Hex, c: Hex) -> None:
    assert a.distance(c) <= a.distance(b) + b.distance(c)


@given(hexes, st.integers(0, 11))
def test_rotation_keeps_distance_and_six_turns_are_identity(h: Hex, steps: int) -> None:
    assert h.rotate(steps).distance(Hex(0, 0)) == h.distance(Hex(0, 0))
    assert h.rotate(6) == h
    assert h.rotate(steps).rotate(6 - steps % 6) == h


@given(st.sampled_from(range(1, 7)), st.integers(0, 11))
def test_rotating_a_neighbour_rotates_its_direction(direction: int, steps: int) -> None:
    assert Hex(0, 0).neighbour(direction).rotate(steps) == Hex(0, 0).neighbour(
        rotate_direction(direction, steps)
    )


@given(st.sampled_from(range(1, 7)))
def test_mirroring_a_neighbour_mirrors_its_direction(direction: int) -> None:
    assert Hex(0, 0).neighbour(direction).mirror() == Hex(0, 0).neighbour(
        mirror_direction(direction)
    )


@given(hexes, hexes)
def test_mirror_is_an_isometry_and_an_involution(a: Hex, b: Hex) -> None:
    assert a.mirror().distance(b.mirror()) == a.distance(b)
    assert a.mirror().mirror() == a


@given(hexes)
def test_mirror_flips_pixel_x_only(h: Hex) -> None:
    x, y = h.to_pixel()
    mx, my = h.mirror().to_pixel()
    assert math.isclose(mx, -x, abs_tol=1e-9) and math.isclose(my, y, abs_tol=1e-9)


def test_direction_to_only_for_adjacent_hexes() -> None:
    assert Hex(3, 3).direction_to(Hex(3, 2)) == 1
    assert Hex(3, 3).direction_to(Hex(3, 1)) is None
    assert Hex(3, 3).direction_to(Hex(3, 3)) is None
