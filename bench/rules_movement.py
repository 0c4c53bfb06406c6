"""Benchmark: `reachable` for 12 SP on a radius-30 board with 20 % blocking/difficult terrain.

Prints the median time of `battles.engine.movement.reachable` beside a naive reference
(Bellman-Ford relaxation over the whole board, no heap, no precomputed tables) run in
the same process on the same board, and their ratio. The reference also checks that
both give the same costs (R-MOV-1..3).

Run: .venv/bin/python bench/rules_movement.py
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from battles.engine.board import Board, parse_board
from battles.engine.hexes import ORIGIN, Hex
from battles.engine.movement import reachable, step_cost

RADIUS = 30
SP = 12
SEED = 20240601
SHARE = 0.20  # of the hexes: half blocking (wall, dense forest), half difficult
RUNS = 31
NAIVE_RUNS = 5


def make_board() -> Board:
    rng = random.Random(SEED)
    kinds = ("wall", "dense_forest", "forest", "rubble")
    hexes = []
    for q in range(-RADIUS, RADIUS + 1):
        for r in range(max(-RADIUS, -q - RADIUS), min(RADIUS, -q + RADIUS) + 1):
            h = Hex(q, r)
            if h != ORIGIN and rng.random() < SHARE:
                hexes.append({"q": q, "r": r, "terrain": rng.choice(kinds)})
            elif rng.random() < 0.1:
                hexes.append({"q": q, "r": r, "level": rng.choice((1, 2))})
    return parse_board({"shape": {"kind": "hexagon", "radius": RADIUS}, "hexes": hexes})


def naive_costs(board: Board, start: Hex, sp: int) -> dict[Hex, int]:
    """Bellman-Ford: relax every edge of the board until nothing changes."""
    cost: dict[Hex, int] = {start: 0}
    cells = sorted(board.cells)
    changed = True
    while changed:
        changed = False
        for u in cells:
            cu = cost.get(u)
            if cu is None:
                continue
            for v in u.neighbours():
                c = step_cost(board, u, v)
                if c is None or cu + c > sp:
                    continue
                if v not in cost or cu + c < cost[v]:
                    cost[v] = cu + c
                    changed = True
    del cost[start]
    return cost


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000


def main() -> None:
    board = make_board()
    t0 = time.perf_counter()
    reach = reachable(board, ORIGIN, SP, require_sight=False)
    first_ms = (time.perf_counter() - t0) * 1000
    naive = naive_costs(board, ORIGIN, SP)
    assert {h: r.cost for h, r in reach.items()} == naive, "reference disagrees"

    fast = median_ms(lambda: reachable(board, ORIGIN, SP, require_sight=False), RUNS)
    slow = median_ms(lambda: naive_costs(board, ORIGIN, SP), NAIVE_RUNS)
    with_sight = median_ms(lambda: reachable(board, ORIGIN, SP), RUNS)
    seen = len(reachable(board, ORIGIN, SP))

    print(
        f"board: radius {RADIUS}, {len(board)} hexes, {SHARE:.0%} blocking/difficult, seed {SEED}"
    )
    print(f"reachable, {SP} SP: {len(reach)} destinations ({seen} in sight)")
    print(f"first call (builds the cached board graph): {first_ms:8.2f} ms")
    print(f"reachable, require_sight=False, median of {RUNS}: {fast:8.2f} ms")
    print(f"reachable, require_sight=True,  median of {RUNS}: {with_sight:8.2f} ms (incl. LOS)")
    print(f"naive Bellman-Ford, median of {NAIVE_RUNS}:        {slow:8.2f} ms")
    print(f"ratio naive / reachable (no sight): {slow / fast:.1f}x")


if __name__ == "__main__":
    main()
