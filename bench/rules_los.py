"""Benchmark: line of sight and the visibility map on a radius-30 board, 20 % blocking terrain.

Prints the median time of one `battles.engine.los.line_of_sight` query at distances 3, 8
and 16, and of the whole `visible_from` map from the centre hex, each beside the slow
exact reference (tests/engine/reference_los.py: polygon clipping with Fractions) run in
the same process on the same board, with their ratio. The reference also checks that
both give the same answers (R-LOS-1..4, R-COV-1..3).

The fast figures are with the per-offset line cache warm (the normal state of a server);
the cold figures are printed too: for a query, the one-off cost of building one offset's
geometry; for a map, the whole map with the cache emptied first.

Run: .venv/bin/python bench/rules_los.py [--quick]   (--quick: fewer reference runs)
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battles.engine import los
from battles.engine.board import Board, parse_board
from battles.engine.hexes import ORIGIN, Hex, ring, spiral
from battles.engine.los import has_line_of_sight, line_of_sight, visible_from
from tests.engine.reference_los import reference_line_of_sight, reference_visible_from

RADIUS = 30
SEED = 20240611
BLOCKING_SHARE = 0.20
COVER_SHARE = 0.10
DISTANCES = (3, 8, 16)
PAIRS = 200  # origin/target pairs per distance
REPEAT = 20  # calls per pair for the fast timing
MAP_RUNS = 21


def make_board() -> Board:
    rng = random.Random(SEED)
    hexes = []
    for h in spiral(ORIGIN, RADIUS):
        x = rng.random()
        if h != ORIGIN and x < BLOCKING_SHARE:
            hexes.append({"q": h.q, "r": h.r, "terrain": rng.choice(("wall", "dense_forest"))})
        elif x < BLOCKING_SHARE + COVER_SHARE:
            hexes.append({"q": h.q, "r": h.r, "terrain": rng.choice(("rubble", "forest"))})
    return parse_board({"shape": {"kind": "hexagon", "radius": RADIUS}, "hexes": hexes})


def pairs_at(board: Board, distance: int, rng: random.Random) -> list[tuple[Hex, Hex]]:
    cells = sorted(board.cells)
    out: list[tuple[Hex, Hex]] = []
    while len(out) < PAIRS:
        origin = rng.choice(cells)
        targets = [h for h in ring(origin, distance) if h in board]
        if targets:
            out.append((origin, rng.choice(targets)))
    return out


def timed(fn: Callable[[], object], repeat: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def fmt(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f} µs" if seconds < 1e-2 else f"{seconds * 1e3:10.1f} ms"


def main() -> None:
    quick = "--quick" in sys.argv
    board = make_board()
    rng = random.Random(SEED + 1)
    print(f"radius-{RADIUS} board, {len(board)} hexes, {len(board.blocking)} blocking")
    print(f"{'query':<34}{'fast':>13}{'reference':>13}{'ratio':>9}{'cold':>13}")
    for distance in DISTANCES:
        pairs = pairs_at(board, distance, rng)
        others = frozenset(rng.sample(sorted(board.cells), 8))

        def fast_query(o: Hex, t: Hex, others: frozenset[Hex] = others) -> object:
            return line_of_sight(board, o, t, others)

        def ref_query(o: Hex, t: Hex, others: frozenset[Hex] = others) -> object:
            return reference_line_of_sight(board, o, t, others)

        # Cold: the per-offset geometry, built once per offset and process.
        cold = statistics.median(
            [timed(partial(los._build_line, h.q, h.r), REPEAT) for h in ring(ORIGIN, distance)]
        )
        fast = statistics.median([timed(partial(fast_query, o, t), REPEAT) for o, t in pairs])
        sample = pairs[: 40 if quick else PAIRS]
        ref = statistics.median([timed(partial(ref_query, o, t)) for o, t in sample])
        for o, t in sample:
            assert fast_query(o, t) == ref_query(o, t), (o, t)
        print(
            f"{f'line_of_sight, distance {distance}':<34}{fmt(fast)}{fmt(ref)}"
            f"{ref / fast:8.0f}x{fmt(cold)}"
        )
        fast_bool = statistics.median(
            [timed(partial(has_line_of_sight, board, o, t), REPEAT) for o, t in pairs]
        )
        print(f"{f'has_line_of_sight, distance {distance}':<34}{fmt(fast_bool)}")

    los._LINES.clear()
    cold_map = timed(partial(visible_from, board, ORIGIN))
    fast_map = statistics.median(
        [timed(partial(visible_from, board, ORIGIN)) for _ in range(MAP_RUNS)]
    )
    t0 = time.perf_counter()
    expected = reference_visible_from(board, ORIGIN)
    ref_map = time.perf_counter() - t0
    assert visible_from(board, ORIGIN) == expected
    print(
        f"{'visible_from centre (' + str(len(expected)) + ' seen)':<34}"
        f"{fmt(fast_map)}{fmt(ref_map)}{ref_map / fast_map:8.0f}x{fmt(cold_map)}"
    )
    corner = Hex(RADIUS, -RADIUS)
    los._LINES.clear()
    cold_corner = timed(partial(visible_from, board, corner))
    fast_corner = statistics.median(
        [timed(partial(visible_from, board, corner)) for _ in range(MAP_RUNS)]
    )
    print(f"{'visible_from corner':<34}{fmt(fast_corner)}{'':>13}{'':>9}{fmt(cold_corner)}")


if __name__ == "__main__":
    main()
