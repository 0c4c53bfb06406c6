"""Movement: R-MOV-1 step cost, R-MOV-2 passage, R-MOV-3 move actions, R-LOS-5 sight.

Also the seed 002 "Movement Rules" bullets, seed 000 "Climbing" and seed 002 "Legs".
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles.engine.board import Board, parse_board
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.hexes import ORIGIN, Hex, spiral
from battles.engine.los import has_line_of_sight
from battles.engine.movement import Reach, reachable, step_cost, validate_path


def board(radius: int = 4, hexes: list[dict[str, Any]] | None = None, **extra: Any) -> Board:
    return parse_board(
        {"shape": {"kind": "hexagon", "radius": radius}, "hexes": hexes or [], **extra}
    )


def walls(*cells: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"q": q, "r": r, "terrain": "wall"} for q, r in cells]


def corridor() -> Board:
    """A straight N–S corridor through [0,0]: every hex at q = ±1 is a wall."""
    cells = [(q, r) for q in (-1, 1) for r in range(-5, 6) if Hex(q, r).distance(ORIGIN) <= 5]
    return board(5, walls(*cells))


def codes(exc: pytest.ExceptionInfo[RuleViolation]) -> tuple[str, str | None]:
    return exc.value.code, exc.value.rule


# --- R-MOV-1 step cost -------------------------------------------------------


def test_clear_hex_costs_one_sp_r_mov_1_seed_002_one_sp_per_hex() -> None:
    b = board()
    for n in ORIGIN.neighbours():
        assert step_cost(b, ORIGIN, n) == 1


def test_difficult_terrain_costs_one_more_r_mov_1_seed_002_difficult_terrain() -> None:
    b = board(hexes=[{"q": 0, "r": -1, "terrain": t} for t in ["forest"]])
    assert step_cost(b, ORIGIN, Hex(0, -1)) == 2
    # Leaving difficult terrain costs nothing: the cost is the entered hex's.
    assert step_cost(b, Hex(0, -1), ORIGIN) == 1
    for name in ("dense_forest", "rubble", "fortification"):
        assert step_cost(board(hexes=[{"q": 1, "r": 0, "terrain": name}]), ORIGIN, Hex(1, 0)) == 2
    assert step_cost(board(hexes=[{"q": 1, "r": 0, "terrain": "water"}]), ORIGIN, Hex(1, 0)) == 1


def test_custom_terrain_kind_uses_its_own_move_cost_r_mov_1_r_brd_3() -> None:
    b = board(
        hexes=[
            {"q": 1, "r": 0, "terrain": "bog"},
            {"q": -1, "r": 0, "terrain": "wall"},
            {"q": 0, "r": 1, "terrain": "forest"},
        ],
        terrain_kinds={
            "bog": {"move_cost": 3},
            "wall": {"impassable": False},  # a board may make its walls passable
            "forest": {"move_cost": 4},
        },
    )
    assert step_cost(b, ORIGIN, Hex(1, 0)) == 3
    assert step_cost(b, ORIGIN, Hex(-1, 0)) == 1
    assert step_cost(b, ORIGIN, Hex(0, 1)) == 4


def test_climbing_costs_one_per_level_up_nothing_down_r_mov_1_r_brd_4_seed_000_climbing() -> None:
    b = board(
        hexes=[
            {"q": 0, "r": -1, "level": 1},
            {"q": 0, "r": -2, "level": 2},
            {"q": 1, "r": -1, "level": 2},
        ]
    )
    assert step_cost(b, ORIGIN, Hex(0, -1)) == 2  # seed 000: "Moving UP 1 level: 2 SP total"
    assert step_cost(b, Hex(0, -1), Hex(0, -2)) == 2
    assert step_cost(b, ORIGIN, Hex(1, -1)) == 3  # two levels at once: +2
    assert step_cost(b, Hex(0, -2), Hex(0, -1)) == 1  # seed 000: "Moving DOWN: 1 SP"
    assert step_cost(b, Hex(1, -1), ORIGIN) == 1  # down two levels: still nothing extra
    assert step_cost(b, Hex(0, -2), Hex(1, -2)) == 1


def test_climbing_into_difficult_terrain_adds_both_r_mov_1() -> None:
    b = board(hexes=[{"q": 0, "r": -1, "terrain": "rubble", "level": 1}])
    assert step_cost(b, ORIGIN, Hex(0, -1)) == 3


def test_legs_destroyed_adds_one_per_hex_r_mov_1_r_trn_5_seed_002_legs() -> None:
    b = board(hexes=[{"q": 0, "r": -1, "terrain": "forest", "level": 1}])
    assert (
        step_cost(b, ORIGIN, Hex(1, 0), legs_destroyed=True) == 2
    )  # seed 002: "2 SP per hex total"
    assert step_cost(b, ORIGIN, Hex(0, -1), legs_destroyed=True) == 4
    assert step_cost(b, Hex(0, -1), ORIGIN, legs_destroyed=True) == 2


def test_step_cost_refuses_impassable_off_board_and_non_adjacent_r_mov_2() -> None:
    b = board(
        2,
        [
            *walls((1, 0)),
            {"q": 0, "r": 1, "terrain": "building"},
            {"q": -1, "r": 0, "terrain": "cliff"},
        ],
    )
    assert step_cost(b, ORIGIN, Hex(1, 0)) is None
    assert step_cost(b, ORIGIN, Hex(0, 1)) is None
    assert step_cost(b, ORIGIN, Hex(-1, 0)) is None
    assert step_cost(b, Hex(2, 0), Hex(3, 0)) is None
    assert step_cost(b, Hex(3, 0), Hex(2, 0)) is None
    assert step_cost(b, ORIGIN, Hex(0, -2)) is None
    assert step_cost(b, ORIGIN, ORIGIN) is None


# --- reachable ---------------------------------------------------------------


def test_open_board_reach_is_the_hexes_within_sp_r_mov_3() -> None:
    b = board(6)
    reach = reachable(b, ORIGIN, 3)
    assert set(reach) == set(spiral(ORIGIN, 3)) - {ORIGIN}
    for h, r in reach.items():
        assert r.cost == h.distance(ORIGIN) == r.hexes_moved
        assert r.destination == h


def test_reachable_excludes_start_and_zero_sp_reaches_nothing_r_mov_3() -> None:
    b = board()
    assert reachable(b, ORIGIN, 0) == {}
    assert reachable(b, ORIGIN, -3) == {}
    assert ORIGIN not in reachable(b, ORIGIN, 2)


def test_start_off_the_board_is_invalid_input_r_mov_2() -> None:
    with pytest.raises(InvalidInput):
        reachable(board(2), Hex(5, 0), 3)
    with pytest.raises(InvalidInput):
        validate_path(board(2), Hex(5, 0), [Hex(4, 0)])


def test_moves_through_allies_but_never_stops_there_r_mov_2_seed_002() -> None:
    b = corridor()
    ally = Hex(0, -1)
    reach = reachable(b, ORIGIN, 3, allies=[ally])
    assert ally not in reach
    assert reach[Hex(0, -2)] == Reach(2, (ally, Hex(0, -2)))
    assert validate_path(b, ORIGIN, [ally, Hex(0, -2)], allies=[ally]) == 2
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, [ally], allies=[ally])
    assert codes(exc) == ("occupied_destination", "R-MOV-2")


def test_cannot_move_through_enemies_r_mov_2_seed_002() -> None:
    b = corridor()
    enemy = Hex(0, -1)
    reach = reachable(b, ORIGIN, 5, enemies=[enemy])
    assert enemy not in reach
    assert not any(h.r < 0 for h in reach)
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, [enemy, Hex(0, -2)], enemies=[enemy])
    assert codes(exc) == ("enemy_in_path", "R-MOV-2")
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, [enemy], enemies=[enemy])
    assert codes(exc) == ("enemy_in_path", "R-MOV-2")


def test_cannot_move_through_walls_r_mov_2_seed_002() -> None:
    b = corridor()
    reach = reachable(b, ORIGIN, 6, require_sight=False)
    assert all(h.q == 0 for h in reach)
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, [Hex(1, 0), Hex(2, 0)])
    assert codes(exc) == ("impassable", "R-MOV-2")


def test_walls_are_walked_round_r_mov_2() -> None:
    b = board(4, walls((0, -1)))
    # Round the wall: [0,-2] is 2 hexes away but needs 3 steps. The wall hides it, so
    # only the sight-free search lists it (R-LOS-5).
    assert reachable(b, ORIGIN, 3, require_sight=False)[Hex(0, -2)].cost == 3
    assert Hex(0, -2) not in reachable(b, ORIGIN, 2, require_sight=False)


def test_difficult_terrain_in_reachable_r_mov_1() -> None:
    b = board(4, [{"q": 0, "r": -1, "terrain": "forest"}])
    reach = reachable(b, ORIGIN, 2)
    assert reach[Hex(0, -1)] == Reach(2, (Hex(0, -1),))
    # [0,-2] costs 3 SP round the forest (3 steps) or through it (2 steps): a tie on
    # cost goes to the fewer steps (R-MOV-3 deterministic paths).
    assert reachable(b, ORIGIN, 3)[Hex(0, -2)] == Reach(3, (Hex(0, -1), Hex(0, -2)))


def test_climbing_in_reachable_up_costs_down_is_free_r_mov_1_seed_000_climbing() -> None:
    b = board(4, [{"q": q, "r": r, "level": 1} for q, r in [(0, -1), (0, -2)]])
    reach = reachable(b, ORIGIN, 3)
    assert reach[Hex(0, -1)].cost == 2
    assert reach[Hex(0, -2)].cost == 3
    back = reachable(b, Hex(0, -2), 2)
    assert back[Hex(0, -1)].cost == 1
    assert back[ORIGIN].cost == 2


def test_legs_destroyed_halves_the_reach_r_mov_1_r_trn_5_seed_002_legs() -> None:
    b = board(6)
    reach = reachable(b, ORIGIN, 4, legs_destroyed=True)
    assert set(reach) == set(spiral(ORIGIN, 2)) - {ORIGIN}
    assert reach[Hex(0, -2)].cost == 4


def test_hexes_moved_is_the_number_of_steps_r_mov_3_r_hit_2() -> None:
    b = board(4, [{"q": 0, "r": -1, "terrain": "forest"}])
    r = reachable(b, ORIGIN, 3)[Hex(0, -1)]
    assert (r.cost, r.hexes_moved) == (2, 1)


def test_mover_listed_among_its_allies_is_harmless_r_mov_2() -> None:
    b = board()
    assert reachable(b, ORIGIN, 2, allies=[ORIGIN]) == reachable(b, ORIGIN, 2)
    assert reachable(b, ORIGIN, 2, enemies=[ORIGIN]) == reachable(b, ORIGIN, 2)


def test_paths_are_deterministic_whatever_the_order_of_caskets_r_mov_3() -> None:
    b = board(5, walls((1, -1), (-1, 0)))
    allies = [Hex(0, -1), Hex(2, 0), Hex(-2, 2)]
    enemies = [Hex(1, 1), Hex(-1, -2)]
    first = reachable(b, ORIGIN, 6, allies=allies, enemies=enemies)
    second = reachable(b, ORIGIN, 6, allies=list(reversed(allies)), enemies=set(enemies))
    assert list(first.items()) == list(second.items())


def test_tie_break_enters_from_the_smallest_neighbour_r_mov_3() -> None:
    b = board(4)
    # [1,-2] is reached in 2 steps via [0,-1] or [1,-1]; the smaller (q, r) wins.
    assert reachable(b, ORIGIN, 2)[Hex(1, -2)].path == (Hex(0, -1), Hex(1, -2))


def test_reachable_is_ordered_by_cost_then_steps_r_mov_3() -> None:
    b = board(4, [{"q": 1, "r": 0, "terrain": "forest"}])
    reach = list(reachable(b, ORIGIN, 3).values())
    keys = [(r.cost, r.hexes_moved) for r in reach]
    assert keys == sorted(keys)


# --- validate_path -----------------------------------------------------------


def test_validate_path_sums_the_step_costs_r_mov_3() -> None:
    b = board(4, [{"q": 0, "r": -1, "terrain": "forest"}, {"q": 0, "r": -2, "level": 1}])
    assert validate_path(b, ORIGIN, [Hex(0, -1), Hex(0, -2)]) == 4
    assert validate_path(b, ORIGIN, [Hex(0, -1), Hex(0, -2)], legs_destroyed=True) == 6


def test_validate_path_empty_path_r_mov_3() -> None:
    with pytest.raises(RuleViolation) as exc:
        validate_path(board(), ORIGIN, [])
    assert codes(exc) == ("empty_path", "R-MOV-3")


def test_validate_path_not_adjacent_r_mov_3() -> None:
    with pytest.raises(RuleViolation) as exc:
        validate_path(board(), ORIGIN, [Hex(0, -1), Hex(0, -3)])
    assert codes(exc) == ("not_adjacent", "R-MOV-3")
    with pytest.raises(RuleViolation) as exc:
        validate_path(board(), ORIGIN, [Hex(0, -1), Hex(0, -1)])
    assert codes(exc) == ("not_adjacent", "R-MOV-3")


def test_validate_path_off_board_r_mov_2() -> None:
    with pytest.raises(RuleViolation) as exc:
        validate_path(board(1), ORIGIN, [Hex(0, -1), Hex(0, -2)])
    assert codes(exc) == ("off_board", "R-MOV-2")


def test_validate_path_refuses_a_move_back_to_its_start_r_mov_3() -> None:
    with pytest.raises(RuleViolation) as exc:
        validate_path(board(), ORIGIN, [Hex(0, -1), ORIGIN])
    assert codes(exc) == ("returns_to_start", "R-MOV-3")


def test_validate_path_reports_the_first_fault_in_path_order_r_mov_2() -> None:
    b = board(3, walls((0, -2)))
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, [Hex(0, -1), Hex(0, -2), Hex(0, -3)], enemies=[Hex(0, -1)])
    assert codes(exc) == ("enemy_in_path", "R-MOV-2")


# --- R-LOS-5 sight -----------------------------------------------------------


def test_destination_must_be_in_sight_r_los_5_seed_002() -> None:
    b = board(4, walls((0, -1)))
    target = Hex(0, -2)
    assert not has_line_of_sight(b, ORIGIN, target)
    assert target not in reachable(b, ORIGIN, 5)
    path = list(reachable(b, ORIGIN, 5, require_sight=False)[target].path)
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, path)
    assert codes(exc) == ("destination_not_in_sight", "R-LOS-5")
    assert validate_path(b, ORIGIN, path, require_sight=False) == 3


def test_path_round_a_corner_needs_two_moves_r_los_5() -> None:
    """The line to [2,-1] runs along the edge between two walls: hidden, though 4 steps away."""
    b = board(5, walls((1, -1), (1, 0)))
    behind = Hex(2, -1)
    assert not has_line_of_sight(b, ORIGIN, behind)
    one_move = reachable(b, ORIGIN, 8, require_sight=False)[behind]
    assert one_move.cost == 4
    assert behind not in reachable(b, ORIGIN, 8)
    with pytest.raises(RuleViolation) as exc:
        validate_path(b, ORIGIN, one_move.path)
    assert codes(exc) == ("destination_not_in_sight", "R-LOS-5")
    # Two move actions through a hex that sees both ends; the cheapest such pair costs 6.
    first = reachable(b, ORIGIN, 8)
    totals = {
        h: r.cost + second[behind].cost
        for h, r in first.items()
        if behind in (second := reachable(b, h, 8 - r.cost))
    }
    assert min(totals.values()) == 6
    waypoint = Hex(1, -3)
    assert totals[waypoint] == 6
    leg1, leg2 = first[waypoint], reachable(b, waypoint, 3)[behind]
    assert validate_path(b, ORIGIN, leg1.path) + validate_path(b, waypoint, leg2.path) == 6


def corner() -> Board:
    """A wall running north from [1,-1]."""
    return board(5, walls((1, -1), (1, -2), (1, -3)))


def test_sight_filter_keeps_exactly_the_hexes_in_los_r_los_5() -> None:
    b = corner()
    for start in (ORIGIN, Hex(0, -1), Hex(2, 0)):
        blind = reachable(b, start, 5, require_sight=False)
        seen = reachable(b, start, 5)
        assert seen == {h: r for h, r in blind.items() if has_line_of_sight(b, start, h)}


def test_caskets_do_not_block_the_sight_to_a_destination_r_los_3_r_los_5() -> None:
    b = corridor()
    assert Hex(0, -3) in reachable(b, ORIGIN, 3, allies=[Hex(0, -1)], enemies=[Hex(0, 2)])


# --- properties --------------------------------------------------------------

KINDS = ("clear", "clear", "clear", "forest", "wall", "bog", "water")
TINY = frozenset(spiral(ORIGIN, 2))


@st.composite
def tiny_worlds(draw: st.DrawFn) -> tuple[Board, Hex, list[Hex], list[Hex], bool]:
    cells = sorted(TINY)
    hexes = []
    for h in cells:
        kind = draw(st.sampled_from(KINDS))
        level = draw(st.sampled_from((0, 0, 1, 2)))
        if kind != "clear" or level:
            hexes.append({"q": h.q, "r": h.r, "terrain": kind, "level": level})
    b = board(2, hexes, terrain_kinds={"bog": {"move_cost": 3}})
    start = draw(st.sampled_from(cells))
    others = [h for h in cells if h != start]
    allies = draw(st.lists(st.sampled_from(others), max_size=3, unique=True))
    enemies = draw(st.lists(st.sampled_from(others), max_size=3, unique=True))
    enemies = [h for h in enemies if h not in allies]
    return b, start, allies, enemies, draw(st.booleans())


def brute_force(
    b: Board, start: Hex, sp: int, allies: list[Hex], enemies: list[Hex], legs: bool
) -> dict[Hex, tuple[int, int]]:
    """Every simple path from `start`, walked exhaustively: the least (cost, steps) per hex."""
    best: dict[Hex, tuple[int, int]] = {start: (0, 0)}

    def walk(here: Hex, cost: int, steps: int, seen: frozenset[Hex]) -> None:
        for n in here.neighbours():
            c = step_cost(b, here, n, legs_destroyed=legs)
            if c is None or n in seen or n in enemies or cost + c > sp:
                continue
            label = (cost + c, steps + 1)
            if n not in best or label < best[n]:
                best[n] = label
            walk(n, cost + c, steps + 1, seen | {n})

    walk(start, 0, 0, frozenset({start}))
    return best


PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPS
@given(world=tiny_worlds(), sp=st.integers(0, 5))
def test_reachable_agrees_with_brute_force_over_all_paths_r_mov_1_r_mov_2(
    world: tuple[Board, Hex, list[Hex], list[Hex], bool], sp: int
) -> None:
    b, start, allies, enemies, legs = world
    best = brute_force(b, start, sp, allies, enemies, legs)
    reach = reachable(
        b, start, sp, allies=allies, enemies=enemies, legs_destroyed=legs, require_sight=False
    )
    expected = {h: lab for h, lab in best.items() if h != start and h not in allies}
    assert {h: (r.cost, r.hexes_moved) for h, r in reach.items()} == expected
    # The fixed order: each hex is entered from its smallest cheapest neighbour.
    for h, r in reach.items():
        before = r.path[-2] if len(r.path) > 1 else start
        candidates = [
            n
            for n in h.neighbours()
            if n in best
            and (c := step_cost(b, n, h, legs_destroyed=legs)) is not None
            and (best[n][0] + c, best[n][1] + 1) == best[h]
        ]
        assert before == min(candidates)


@PROPS
@given(world=tiny_worlds(), sp=st.integers(0, 6), sight=st.booleans())
def test_every_reach_path_validates_at_its_cost_r_mov_3(
    world: tuple[Board, Hex, list[Hex], list[Hex], bool], sp: int, sight: bool
) -> None:
    b, start, allies, enemies, legs = world
    kw: dict[str, Any] = {
        "allies": allies,
        "enemies": enemies,
        "legs_destroyed": legs,
        "require_sight": sight,
    }
    for r in reachable(b, start, sp, **kw).values():
        assert r.cost <= sp
        assert validate_path(b, start, r.path, **kw) == r.cost


@PROPS
@given(world=tiny_worlds(), sp=st.integers(0, 5), sight=st.booleans())
def test_reachable_is_monotone_in_sp_r_mov_3(
    world: tuple[Board, Hex, list[Hex], list[Hex], bool], sp: int, sight: bool
) -> None:
    b, start, allies, enemies, legs = world
    kw: dict[str, Any] = {
        "allies": allies,
        "enemies": enemies,
        "legs_destroyed": legs,
        "require_sight": sight,
    }
    small = reachable(b, start, sp, **kw)
    large = reachable(b, start, sp + 1, **kw)
    assert set(small) <= set(large)
    assert all(large[h] == r for h, r in small.items())
    assert all(r.cost == sp + 1 for h, r in large.items() if h not in small)


@PROPS
@given(world=tiny_worlds(), sp=st.integers(1, 5))
def test_sight_filter_is_has_line_of_sight_r_los_5(
    world: tuple[Board, Hex, list[Hex], list[Hex], bool], sp: int
) -> None:
    b, start, allies, enemies, legs = world
    kw: dict[str, Any] = {"allies": allies, "enemies": enemies, "legs_destroyed": legs}
    blind = reachable(b, start, sp, require_sight=False, **kw)
    seen = reachable(b, start, sp, **kw)
    assert seen == {h: r for h, r in blind.items() if has_line_of_sight(b, start, h)}


def test_board_cache_never_mixes_boards_r_mov_1() -> None:
    """The per-board graph cache is keyed by identity: equal-shaped boards stay apart."""
    for _ in range(3):
        open_board = board(3)
        forest = board(3, [{"q": 0, "r": -1, "terrain": "forest"}])
        assert reachable(open_board, ORIGIN, 1)[Hex(0, -1)].cost == 1
        assert Hex(0, -1) not in reachable(forest, ORIGIN, 1)
        assert reachable(forest, ORIGIN, 2)[Hex(0, -1)].cost == 2
