"""Hypothesis properties of line of sight (R-LOS-1..4) and cover (R-COV-1..3).

The rules never mention a direction, so turning or mirroring the whole table must not
change any answer; and the defender's choice of side (R-LOS-4) makes blocking symmetric.
"""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from battles.engine.board import Board, parse_board
from battles.engine.hexes import ORIGIN, Hex, spiral
from battles.engine.los import LosResult, has_line_of_sight, line_of_sight, visible_from

RADIUS = 5
CELLS = sorted(spiral(ORIGIN, RADIUS))
KINDS = ("clear",) * 8 + ("wall", "dense_forest", "rubble", "forest", "fortification")

Scenario = tuple[dict[Hex, str], dict[Hex, int], Hex, Hex, frozenset[Hex]]


def make_board(kinds: dict[Hex, str], levels: dict[Hex, int]) -> Board:
    hexes = [
        {"q": h.q, "r": h.r, "terrain": kinds.get(h, "clear"), "level": levels.get(h, 0)}
        for h in set(kinds) | set(levels)
    ]
    return parse_board({"shape": {"kind": "hexagon", "radius": RADIUS}, "hexes": hexes})


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    kinds = draw(st.lists(st.sampled_from(KINDS), min_size=len(CELLS), max_size=len(CELLS)))
    levels = draw(st.dictionaries(st.sampled_from(CELLS), st.integers(0, 2), max_size=12))
    origin = draw(st.sampled_from(CELLS))
    target = draw(st.sampled_from(CELLS))
    others = draw(st.frozensets(st.sampled_from(CELLS), max_size=8))
    return dict(zip(CELLS, kinds, strict=True)), levels, origin, target, others


def transformed(scenario: Scenario, f: Callable[[Hex], Hex]) -> LosResult:
    kinds, levels, origin, target, others = scenario
    board = make_board({f(h): k for h, k in kinds.items()}, {f(h): v for h, v in levels.items()})
    return line_of_sight(board, f(origin), f(target), frozenset(map(f, others)))


def sources(r: LosResult, f: Callable[[Hex], Hex] = lambda h: h) -> list[tuple[object, ...]]:
    return sorted((f(s.at), s.kind, s.cover, s.terrain, s.rule) for s in r.cover_sources)


def assert_maps(
    before: LosResult, after: LosResult, f: Callable[[Hex], Hex], *, mirror: bool
) -> None:
    assert (after.clear, after.divided, after.distance) == (
        before.clear,
        before.divided,
        before.distance,
    )
    assert (after.cover, after.cover_ignored_by_elevation) == (
        before.cover,
        before.cover_ignored_by_elevation,
    )
    # A turn keeps left and left; a mirror swaps the two hexes of each divided pair.
    expected = [tuple(map(f, step)) for step in before.steps]
    if mirror:
        expected = [step[::-1] for step in expected]
    assert list(after.steps) == expected
    assert sources(after) == sources(before, f)
    if before.blocked_by is None:
        assert after.blocked_by is None
    elif mirror:  # both hexes of a pair may block; each side names its own left one
        index = next(i for i, s in enumerate(before.steps) if before.blocked_by in s)
        assert after.blocked_by in after.steps[index]
    else:
        assert after.blocked_by == f(before.blocked_by)


@settings(max_examples=150, deadline=None)
@given(scenarios(), st.integers(1, 5))
def test_turning_the_table_by_60_degrees_changes_nothing_r_los_4(
    scenario: Scenario, steps: int
) -> None:
    """Hex.rotate: clear, blocked, divided and cover are unchanged; steps turn with it."""

    def turn(h: Hex) -> Hex:
        return h.rotate(steps)

    assert_maps(transformed(scenario, lambda h: h), transformed(scenario, turn), turn, mirror=False)


@settings(max_examples=150, deadline=None)
@given(scenarios())
def test_mirroring_the_table_changes_nothing_r_los_4(scenario: Scenario) -> None:
    """Hex.mirror: the same answers, with each divided pair's left and right swapped."""
    assert_maps(
        transformed(scenario, lambda h: h),
        transformed(scenario, Hex.mirror),
        Hex.mirror,
        mirror=True,
    )


@settings(max_examples=200, deadline=None)
@given(scenarios())
def test_blocked_from_a_to_b_exactly_when_blocked_from_b_to_a_r_los_4(scenario: Scenario) -> None:
    """The defender picks the side (R-LOS-4), so sight is mutual; the line is the same hexes
    walked backwards, left and right swapped."""
    kinds, levels, a, b, others = scenario
    board = make_board(kinds, levels)
    there, back = line_of_sight(board, a, b, others), line_of_sight(board, b, a, others)
    assert there.clear == back.clear == has_line_of_sight(board, b, a)
    assert there.divided == back.divided
    assert list(back.steps) == [step[::-1] for step in reversed(there.steps)]


@settings(max_examples=100, deadline=None)
@given(scenarios())
def test_has_line_of_sight_agrees_with_line_of_sight_r_los_1(scenario: Scenario) -> None:
    kinds, levels, a, b, others = scenario
    board = make_board(kinds, levels)
    r = line_of_sight(board, a, b, others)
    assert has_line_of_sight(board, a, b) == r.clear
    assert r.clear == all(h not in board.blocking for step in r.steps for h in step)
    assert (r.blocked_by is None) == r.clear
    if a.distance(b) <= 1:
        assert r.clear and r.steps == ()  # R-LOS-1


@settings(max_examples=40, deadline=None)
@given(scenarios())
def test_visibility_map_is_line_of_sight_to_every_hex(scenario: Scenario) -> None:
    kinds, levels, origin, _, _ = scenario
    board = make_board(kinds, levels)
    expected = {h for h in board.cells if has_line_of_sight(board, origin, h)}
    assert visible_from(board, origin) == expected
