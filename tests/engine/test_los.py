"""Line of sight and cover: R-LOS-1..4, R-COV-1..3 and seed 000's LOS and cover diagrams.

The seed draws its diagrams on a square grid; each test says how it was put on hexes.
The fast engine is also checked against the slow exact reference (reference_los.py).
"""

from __future__ import annotations

import random
from typing import Any

from battles.engine import los
from battles.engine.board import Board, parse_board
from battles.engine.hexes import ORIGIN, Hex, ring, spiral
from battles.engine.los import (
    CoverSource,
    LosResult,
    has_line_of_sight,
    line_of_sight,
    visible_from,
)
from tests.engine.boards import board
from tests.engine.reference_los import (
    nudged_paths,
    reference_line_of_sight,
    reference_visible_from,
)

A = ORIGIN
NORTH_2 = Hex(0, -2)  # seed 000's column [A] / [ ] / [T], put on hexes going N


def terrain(**placed: str) -> Board:
    cells: dict[str, Any] = {f"t_{k}": v for k, v in placed.items()}
    return board(**cells)


def hexes_of(steps: tuple[tuple[Hex, ...], ...]) -> list[list[tuple[int, int]]]:
    return [[(h.q, h.r) for h in step] for step in steps]


# --- Seed 000 "LOS Diagram" and "Cover Diagram" ------------------------------------


def test_wall_blocks_los_seed_000_los_diagram_blocked_r_los_2() -> None:
    """Seed 000 "BLOCKED LOS (Wall in the way)": A, wall, T in a column."""
    r = line_of_sight(terrain(**{"0_m1": "wall"}), A, NORTH_2)
    assert (r.clear, r.blocked_by, r.divided) == (False, Hex(0, -1), False)
    assert hexes_of(r.steps) == [[(0, -1)]]


def test_rubble_gives_cover_without_blocking_seed_000_los_diagram_clear() -> None:
    """Seed 000 "CLEAR LOS (Rubble provides cover, doesn't block)": +1, i.e. light cover.

    The rubble hex is on the line and adjacent to the target: R-COV-1(b).
    """
    r = line_of_sight(terrain(**{"0_m1": "rubble"}), A, NORTH_2)
    assert r.clear and r.blocked_by is None
    assert r.cover == "light"
    assert r.cover_sources == (CoverSource(Hex(0, -1), "terrain", "light", "rubble"),)


def test_caskets_do_not_block_seed_000_los_diagram_past_caskets_r_los_3() -> None:
    """Seed 000 "CLEAR LOS (Can shoot past other Caskets)"; the casket between gives light
    cover (seed 000 "Other Caskets: +1 ... between you and attacker", R-COV-1(c))."""
    r = line_of_sight(terrain(), A, NORTH_2, others=[Hex(0, -1)])
    assert r.clear
    assert (r.cover, r.cover_sources) == (
        "light",
        (CoverSource(Hex(0, -1), "casket", "light", None),),
    )
    assert has_line_of_sight(terrain(), A, NORTH_2)


def test_target_in_rubble_hex_has_light_cover_seed_000_cover_example_r_cov_1a() -> None:
    """Seed 000 "COVER EXAMPLE": "Target is IN rubble hex ... Target gets +1 Defense"."""
    target = Hex(3, -1)
    r = line_of_sight(terrain(**{"3_m1": "rubble"}), A, target)
    assert r.clear and r.cover == "light"
    assert r.cover_sources == (CoverSource(target, "terrain", "light", "rubble"),)


def test_target_behind_rubble_but_not_in_it_has_no_cover_seed_000_no_cover() -> None:
    """Seed 000 "NO COVER (Behind rubble, but not in it)": the target stands diagonally past
    the rubble on the seed's square grid, not next to it. On hexes: the rubble is on the
    line but two hexes from the target, which is in clear terrain, so neither R-COV-1(a)
    nor (b) applies."""
    r = line_of_sight(terrain(**{"0_m1": "rubble"}), A, Hex(0, -3))
    assert r.clear
    assert [h for (h,) in r.steps] == [Hex(0, -1), Hex(0, -2)]
    assert (r.cover, r.cover_sources) == ("none", ())


def test_cover_does_not_stack_highest_counts_seed_000_r_cov_2() -> None:
    """Seed 000 "Target in forest (+1) AND behind fortress wall (+2) = +2 total"."""
    r = line_of_sight(terrain(**{"0_m2": "forest", "0_m1": "fortification"}), A, NORTH_2)
    assert r.clear and r.cover == "heavy"
    assert [(s.at, s.cover, s.terrain) for s in r.cover_sources] == [
        (Hex(0, -1), "heavy", "fortification"),
        (NORTH_2, "light", "forest"),
    ]


def test_casket_and_rubble_on_the_same_hex_are_both_listed_r_cov_1() -> None:
    r = line_of_sight(terrain(**{"0_m1": "rubble"}), A, NORTH_2, others={Hex(0, -1)})
    assert [s.kind for s in r.cover_sources] == ["terrain", "casket"]
    assert r.cover == "light"


def test_large_terrain_and_dense_forest_block_seed_000_los_basics() -> None:
    """Seed 000 "LOS is BLOCKED by: Walls, Large terrain (buildings, cliffs), Dense forests"."""
    for kind in ("wall", "building", "cliff", "dense_forest"):
        assert not has_line_of_sight(terrain(**{"0_m1": kind}), A, NORTH_2), kind


def test_light_terrain_does_not_block_seed_000_los_basics() -> None:
    """Seed 000 "LOS is NOT blocked by: ... Rubble, Light terrain (water, ice, clear)"."""
    for kind in ("clear", "forest", "rubble", "fortification", "water"):
        assert has_line_of_sight(terrain(**{"0_m1": kind}), A, NORTH_2), kind


def test_custom_terrain_kind_blocks_when_it_says_so_r_brd_3_r_los_2() -> None:
    doc = {
        "shape": {"kind": "hexagon", "radius": 3},
        "terrain_kinds": {"smoke": {"blocks_los": True}, "hedge": {"cover": "heavy"}},
        "hexes": [{"q": 0, "r": -1, "terrain": "smoke"}, {"q": 1, "r": -1, "terrain": "hedge"}],
    }
    b = parse_board(doc)
    assert not has_line_of_sight(b, A, NORTH_2)
    r = line_of_sight(b, A, Hex(2, -2))
    assert r.clear and r.cover == "heavy" and r.cover_sources[0].terrain == "hedge"


# --- R-LOS-1 / R-LOS-2: whose hexes can block ---------------------------------------


def test_adjacent_hexes_always_see_each_other_r_los_1() -> None:
    """Every hex but the origin is a wall; the six neighbours are still in sight."""
    b = parse_board(
        {
            "shape": {"kind": "hexagon", "radius": 3},
            "hexes": [{"q": h.q, "r": h.r, "terrain": "wall"} for h in spiral(A, 3) if h != A],
        }
    )
    for n in A.neighbours():
        r = line_of_sight(b, A, n)
        assert r.clear and r.steps == () and r.distance == 1
    assert visible_from(b, A) == {A, *A.neighbours()}


def test_own_hexes_never_block_r_los_1() -> None:
    """Attacker and target standing in dense forest still see each other; the target's
    own dense forest gives it heavy cover (R-COV-1(a))."""
    b = terrain(**{"0_0": "dense_forest", "0_m2": "dense_forest"})
    r = line_of_sight(b, A, NORTH_2)
    assert r.clear and r.cover == "heavy"


def test_walls_block_whatever_the_levels_r_los_2() -> None:
    """R-LOS-2: a level-0 wall between two level-2 hexes still blocks."""
    b = board(t_0_m1="wall", l_0_0=2, l_0_m2=2)
    assert not line_of_sight(b, A, NORTH_2).clear
    b = board(t_0_m1="wall", l_0_0=2, l_0_m2=0)
    assert not line_of_sight(b, A, NORTH_2).clear


def test_elevation_alone_never_blocks_r_brd_4() -> None:
    """Seed 000 terrain table "Elevated: pass through": a level-2 hill between two level-0
    hexes does not block."""
    b = board(l_0_m1=2)
    assert line_of_sight(b, A, NORTH_2).clear


def test_first_blocker_is_the_one_nearest_the_origin_r_los_2() -> None:
    b = terrain(**{"0_m1": "building", "0_m3": "wall"})
    assert line_of_sight(b, A, Hex(0, -4)).blocked_by == Hex(0, -1)
    assert line_of_sight(b, Hex(0, -4), A).blocked_by == Hex(0, -3)


# --- R-LOS-4: divided lines ----------------------------------------------------------


def test_divided_line_on_a_30_degree_diagonal_runs_between_a_pair_r_los_4() -> None:
    r = line_of_sight(terrain(), A, Hex(1, -2))
    assert r.divided and r.clear
    assert hexes_of(r.steps) == [[(0, -1), (1, -1)]]  # (left, right) seen from A
    r = line_of_sight(terrain(), A, Hex(2, -4))
    assert hexes_of(r.steps) == [[(0, -1), (1, -1)], [(1, -2)], [(1, -3), (2, -3)]]


def test_diagonal_is_blocked_when_only_one_side_of_the_pair_blocks_r_los_4() -> None:
    """The defender chooses the side: one blocking hex of the pair is enough."""
    for wall in ("0_m1", "1_m1"):
        r = line_of_sight(terrain(**{wall: "wall"}), A, Hex(1, -2))
        assert not r.clear and r.divided, wall
        assert not has_line_of_sight(terrain(**{wall: "wall"}), A, Hex(1, -2))
    r = line_of_sight(terrain(**{"0_m1": "wall", "1_m1": "wall"}), A, Hex(1, -2))
    assert r.blocked_by == Hex(0, -1)  # both equally near: the left one is named


def test_off_diagonal_line_through_vertices_is_divided_r_los_4() -> None:
    """R-LOS-4's own example, [0,0] → [1,-5]: the line passes two vertices. At the first it
    touches [1,-2] on its right, at the second [0,-3] on its left; each touched hex is a
    step of its own, entered only by the line nudged to its side."""
    r = line_of_sight(terrain(), A, Hex(1, -5))
    assert r.divided and r.clear
    assert hexes_of(r.steps) == [[(0, -1)], [(1, -2)], [(0, -2)], [(1, -3)], [(0, -3)], [(1, -4)]]
    left, right = nudged_paths(A, Hex(1, -5))
    assert Hex(1, -2) in right and Hex(1, -2) not in left
    assert Hex(0, -3) in left and Hex(0, -3) not in right


def test_off_diagonal_line_blocked_when_only_one_side_blocks_r_los_4() -> None:
    for wall in ("1_m2", "0_m3"):
        r = line_of_sight(terrain(**{wall: "wall"}), A, Hex(1, -5))
        assert not r.clear, wall
    # A wall next to the line but not touched by it does not matter.
    for wall in ("1_m1", "m1_m2", "2_m4"):
        assert line_of_sight(terrain(**{wall: "wall"}), A, Hex(1, -5)).clear, wall


def test_cover_comes_from_the_more_covered_side_r_los_4_r_cov_1() -> None:
    """Pair [0,-1] (left) / [1,-1] (right) next to target [1,-2]: rubble on the left and a
    fortification on the right: the right side's heavy cover counts, and only its source
    is listed."""
    r = line_of_sight(terrain(**{"0_m1": "rubble", "1_m1": "fortification"}), A, Hex(1, -2))
    assert r.cover == "heavy"
    assert r.cover_sources == (CoverSource(Hex(1, -1), "terrain", "heavy", "fortification"),)
    # A casket on one side of the pair gives light cover (R-COV-1(c)).
    r = line_of_sight(terrain(), A, Hex(1, -2), others=[Hex(0, -1)])
    assert r.cover == "light" and [s.at for s in r.cover_sources] == [Hex(0, -1)]


def test_casket_in_a_hex_touched_at_a_vertex_gives_cover_r_los_4_r_cov_1c() -> None:
    """[0,0] → [1,-5]: [0,-3] is touched on the left only. A casket there gives the left
    side light cover (R-COV-1(c)); forest there gives none, as [0,-3] is two hexes from the
    target (R-COV-1(b) needs an adjacent hex)."""
    r = line_of_sight(terrain(), A, Hex(1, -5), others=[Hex(0, -3)])
    assert r.cover == "light" and r.cover_sources == (
        CoverSource(Hex(0, -3), "casket", "light", None),
    )
    assert line_of_sight(terrain(**{"0_m3": "forest"}), A, Hex(1, -5)).cover == "none"


def test_sides_giving_equal_cover_list_both_sources_addendum() -> None:
    """ADDENDUM: when both nudged lines give the same cover, both sides' sources are listed."""
    r = line_of_sight(terrain(**{"0_m1": "rubble", "1_m1": "forest"}), A, Hex(1, -2))
    assert r.cover == "light"
    assert [s.at for s in r.cover_sources] == [Hex(0, -1), Hex(1, -1)]


# --- R-COV-3 elevation ----------------------------------------------------------------


def test_higher_attacker_ignores_all_cover_r_cov_3() -> None:
    """Seed 000 "Higher ground ignores cover, including allied Caskets"."""
    b = board(t_0_m2="forest", l_0_0=1)
    r = line_of_sight(b, A, NORTH_2, others=[Hex(0, -1)])
    assert r.clear and r.cover == "none" and r.cover_ignored_by_elevation
    assert {s.kind for s in r.cover_sources} == {"terrain", "casket"}  # still shown


def test_lower_or_level_attacker_keeps_cover_r_cov_3() -> None:
    for attacker, target in ((0, 0), (0, 1), (1, 2), (2, 2)):
        b = board(t_0_m2="forest", l_0_0=attacker, l_0_m2=target)
        r = line_of_sight(b, A, NORTH_2)
        assert r.cover == "light" and not r.cover_ignored_by_elevation


# --- Shapes and edges -------------------------------------------------------------------


def test_formats_example_is_illustrative_only() -> None:
    """FORMATS.md's answer for [0,0] → [3,-2] only shows the shape: its `line` pairs [2,-1]
    with [2,-2], but the true line passes no vertex; it crosses [1,-1] and then [2,-1]."""
    r = line_of_sight(terrain(), A, Hex(3, -2), others=[Hex(1, -1)])
    assert r.as_dict() == {
        "clear": True,
        "distance": 3,
        "blocked_by": None,
        "divided": False,
        "line": [[[1, -1]], [[2, -1]]],
        "cover": "light",
        "cover_sources": [{"at": [1, -1], "kind": "casket", "cover": "light", "rule": "R-COV-1"}],
        "cover_ignored_by_elevation": False,
    }


def test_as_dict_names_the_blocker_pairs_and_terrain_of_a_source() -> None:
    d = line_of_sight(terrain(**{"1_m1": "wall", "2_m3": "rubble"}), A, Hex(2, -4)).as_dict()
    assert d["blocked_by"] == [1, -1] and d["divided"] is True and d["clear"] is False
    assert d["line"] == [[[0, -1], [1, -1]], [[1, -2]], [[1, -3], [2, -3]]]
    assert d["cover_sources"] == [
        {"at": [2, -3], "kind": "terrain", "cover": "light", "terrain": "rubble", "rule": "R-COV-1"}
    ]


def test_own_hex_is_distance_0_with_no_line() -> None:
    r = line_of_sight(terrain(**{"0_0": "forest"}), A, A)
    assert (r.clear, r.distance, r.steps, r.divided, r.cover) == (True, 0, (), False, "light")
    assert A in visible_from(terrain(), A)


def test_hexes_off_the_board_count_as_clear_addendum() -> None:
    """ADDENDUM: a line along a rectangle's ragged edge touches a hex outside the board;
    it is listed in the pair and never blocks. Endpoints off the board do not crash."""
    b = board(shape={"kind": "rectangle", "width": 4, "height": 3})
    r = line_of_sight(b, Hex(0, 0), Hex(2, -1))
    assert r.clear and r.divided
    assert hexes_of(r.steps) == [[(1, -1), (1, 0)]] and Hex(1, -1) not in b
    assert line_of_sight(b, Hex(-5, 0), Hex(9, 9)).distance == 23
    assert isinstance(has_line_of_sight(b, Hex(-5, 0), Hex(9, 9)), bool)


def test_long_lines_beyond_the_cache_are_computed_the_same_way() -> None:
    b = terrain()
    far = Hex(70, -5)
    r = line_of_sight(b, A, far)
    assert (70, -5) not in los._LINES
    assert r.steps == reference_line_of_sight(b, A, far).steps and r.distance == 70


def test_line_geometry_depends_only_on_the_offset() -> None:
    b = terrain()
    for origin in (Hex(2, -3), Hex(-4, 1)):
        moved = line_of_sight(b, origin, Hex(origin.q + 1, origin.r - 5)).steps
        assert moved == tuple(
            tuple(h + origin for h in s) for s in line_of_sight(b, A, Hex(1, -5)).steps
        )


# --- Fast engine against the exact reference ------------------------------------------

KINDS = ["clear"] * 12 + [
    "wall",
    "building",
    "dense_forest",
    "rubble",
    "forest",
    "fortification",
    "water",
]


def random_board(rng: random.Random, radius: int, share: float = 1.0) -> Board:
    hexes = []
    for h in spiral(ORIGIN, radius):
        kind = rng.choice(KINDS) if rng.random() < share else "clear"
        level = rng.choice((0, 0, 0, 1, 2))
        if kind != "clear" or level:
            hexes.append({"q": h.q, "r": h.r, "terrain": kind, "level": level})
    return parse_board({"shape": {"kind": "hexagon", "radius": radius}, "hexes": hexes})


def assert_same(board: Board, o: Hex, t: Hex, others: frozenset[Hex]) -> LosResult:
    fast = line_of_sight(board, o, t, others)
    assert fast == reference_line_of_sight(board, o, t, others), (o, t)
    assert has_line_of_sight(board, o, t) == fast.clear
    return fast


def test_fast_matches_reference_on_random_boards_and_lines_r_los_4() -> None:
    """2,400 random lines on 80 random boards, field for field (R-LOS-1..4, R-COV-1..3)."""
    rng = random.Random(20240611)
    divided = 0
    for _ in range(80):
        b = random_board(rng, 8)
        cells = sorted(b.cells)
        for _ in range(30):
            others = frozenset(rng.sample(cells, rng.randrange(0, 10)))
            divided += assert_same(b, rng.choice(cells), rng.choice(cells), others).divided
    assert divided > 300  # vertex passes and diagonals are common, not corner cases


def test_fast_matches_reference_for_every_offset_up_to_distance_10() -> None:
    """Every offset from the centre of a radius-10 board, twice (two random boards)."""
    rng = random.Random(7)
    for _ in range(2):
        b = random_board(rng, 10, share=0.5)
        others = frozenset(rng.sample(sorted(b.cells), 20))
        for t in spiral(ORIGIN, 10):
            assert_same(b, ORIGIN, t, others)


def test_fast_matches_reference_on_long_lines() -> None:
    rng = random.Random(11)
    b = random_board(rng, 30, share=0.15)
    cells = sorted(b.cells)
    for _ in range(60):
        o = rng.choice(cells)
        far = [h for h in cells if 20 <= h.distance(o) <= 40]
        assert_same(b, o, rng.choice(far), frozenset(rng.sample(cells, 30)))
    for k in range(1, 31):  # the six 30° diagonals at every length
        for t in ring(ORIGIN, k):
            if len({t.q, t.r, t.s}) == 2:
                assert_same(b, ORIGIN, t, frozenset())


# --- Visibility map -----------------------------------------------------------------------


def test_visibility_map_equals_one_by_one_line_of_sight_on_random_boards() -> None:
    rng = random.Random(3)
    for radius in (5, 8, 12):
        for _ in range(3):
            b = random_board(rng, radius, share=0.4)
            origin = rng.choice(sorted(b.cells))
            expected = frozenset(h for h in b.cells if has_line_of_sight(b, origin, h))
            assert visible_from(b, origin) == expected
            assert origin in expected


def test_visibility_map_matches_the_reference() -> None:
    rng = random.Random(5)
    b = random_board(rng, 7, share=0.3)
    for origin in (ORIGIN, Hex(7, -7), Hex(-3, 5)):
        assert visible_from(b, origin) == reference_visible_from(b, origin)


def test_visibility_map_of_an_open_board_is_the_whole_board() -> None:
    b = terrain()
    assert visible_from(b, Hex(6, 0)) == b.cells
