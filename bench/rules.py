"""Benchmark of the rules engine's hot paths, each beside a slow reference in the same run.

On a radius-30 hexagon board (2,791 hexes) with 20 % blocking terrain (wall, dense forest),
10 % cover terrain and 10 % raised hexes, all from a fixed seed, it prints the median time of

* one `los.line_of_sight` query at distances 3, 8 and 16 (target: < 25 µs at distance 8),
  against `tests/engine/reference_los.reference_line_of_sight` (polygon clipping with
  Fractions, R-LOS-4's nudges as real shifted segments);
* one `tohit.to_hit` answer, against the same `to_hit` computed with the reference LOS;
* the whole `los.visible_from` map from the centre (target: < 100 ms), against
  `reference_visible_from`;
* `movement.reachable` for 12 SP, against the naive Bellman-Ford of bench/rules_movement.py;

and the ratio reference / engine. Every reference answer is also compared with the engine's
(an assertion), so a fast wrong answer cannot pass. LOS figures are with the per-offset line
geometry cached (a server's normal state); the cold cost is printed too.

Run: .venv/bin/python bench/rules.py [--quick]   (--quick: fewer samples, for a smoke test)
"""

from __future__ import annotations

import datetime
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from functools import partial
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from rules_movement import naive_costs  # noqa: E402

from battles.engine import los, tohit  # noqa: E402
from battles.engine.arcs import candidate_sides  # noqa: E402
from battles.engine.board import Board, parse_board  # noqa: E402
from battles.engine.hexes import ORIGIN, Hex, ring, spiral  # noqa: E402
from battles.engine.los import line_of_sight, visible_from  # noqa: E402
from battles.engine.movement import reachable  # noqa: E402
from battles.engine.tohit import Attacker, Target, ToHit, Weapon, parse_range, to_hit  # noqa: E402
from tests.engine.reference_los import (  # noqa: E402
    reference_line_of_sight,
    reference_visible_from,
)

RADIUS = 30
SEED = 20240612
BLOCKING_SHARE = 0.20
COVER_SHARE = 0.10
RAISED_SHARE = 0.10
DISTANCES = (3, 8, 16)
SP = 12
LOS_TARGET_US = 25.0  # at distance 8
MAP_TARGET_MS = 100.0


def make_board() -> Board:
    rng = random.Random(SEED)
    hexes = []
    for h in spiral(ORIGIN, RADIUS):
        x = rng.random()
        entry: dict[str, object] = {"q": h.q, "r": h.r}
        if h != ORIGIN and x < BLOCKING_SHARE:
            entry["terrain"] = rng.choice(("wall", "dense_forest"))
        elif x < BLOCKING_SHARE + COVER_SHARE:
            entry["terrain"] = rng.choice(("rubble", "forest", "fortification"))
        if rng.random() < RAISED_SHARE:
            entry["level"] = rng.choice((1, 2))
        if len(entry) > 2:
            hexes.append(entry)
    return parse_board({"shape": {"kind": "hexagon", "radius": RADIUS}, "hexes": hexes})


def pairs_at(board: Board, distance: int, rng: random.Random, n: int) -> list[tuple[Hex, Hex]]:
    cells = sorted(board.cells)
    out: list[tuple[Hex, Hex]] = []
    while len(out) < n:
        origin = rng.choice(cells)
        targets = [h for h in ring(origin, distance) if h in board]
        if targets:
            out.append((origin, rng.choice(targets)))
    return out


def per_call(fn: Callable[[], object], repeat: int) -> float:
    """Seconds per call, timing `repeat` calls in a row (for calls of a few µs)."""
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - t0) / repeat


def median_of(fns: list[Callable[[], object]], repeat: int) -> float:
    return statistics.median(per_call(fn, repeat) for fn in fns)


def fmt(seconds: float) -> str:
    if seconds < 1e-3:
        return f"{seconds * 1e6:9.1f} µs"
    if seconds < 1.0:
        return f"{seconds * 1e3:9.2f} ms"
    return f"{seconds:9.2f} s "


def reference_los_in_tohit() -> AbstractContextManager[object]:
    """`to_hit` with its line of sight swapped for the reference: the reference to-hit."""
    return mock.patch.object(tohit, "line_of_sight", reference_line_of_sight)


def machine() -> str:
    model = platform.processor() or platform.machine()
    try:
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                model = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{platform.node()} · {model} · {os.cpu_count()} CPUs · {platform.system()} "
        f"{platform.release()} · Python {platform.python_version()}"
    )


def row(name: str, fast: float, ref: float, note: str = "") -> None:
    print(f"{name:<36}{fmt(fast)}{fmt(ref)}{ref / fast:9.0f}x   {note}")


def main() -> None:
    quick = "--quick" in sys.argv
    n_pairs, ref_pairs, repeat = (40, 10, 20) if quick else (200, 60, 50)
    board = make_board()
    rng = random.Random(SEED + 1)
    now = datetime.datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    print(f"bench/rules.py  {now}")
    print(f"machine: {machine()}")
    print(
        f"board: radius {RADIUS}, {len(board)} hexes, {len(board.blocking)} blocking "
        f"({BLOCKING_SHARE:.0%}), seed {SEED}; medians"
    )
    print(f"{'':<36}{'engine':>12}{'reference':>12}{'ratio':>10}   target / note")

    # --- one line-of-sight query ---------------------------------------------------------------
    for distance in DISTANCES:
        pairs = pairs_at(board, distance, rng, n_pairs)
        crowd = frozenset(rng.sample(sorted(board.cells), 8))
        for o, t in pairs[:ref_pairs]:
            assert line_of_sight(board, o, t, crowd) == reference_line_of_sight(
                board, o, t, crowd
            ), (o, t)
        fast = median_of([partial(line_of_sight, board, o, t, crowd) for o, t in pairs], repeat)
        ref = median_of(
            [partial(reference_line_of_sight, board, o, t, crowd) for o, t in pairs[:ref_pairs]],
            1,
        )
        # Cold: building one offset's line geometry, done once per offset and process.
        cold = median_of([partial(los._build_line, h.q, h.r) for h in ring(ORIGIN, distance)], 1)
        note = (
            f"< {LOS_TARGET_US:.0f} µs: {'met' if fast * 1e6 < LOS_TARGET_US else 'MISSED'}; "
            if distance == 8
            else ""
        )
        row(
            f"line_of_sight, distance {distance}",
            fast,
            ref,
            f"{note}cold geometry {fmt(cold).strip()}",
        )

    # --- one to-hit answer ------------------------------------------------------------------------
    weapon = Weapon(parse_range("1-16"), 4)
    shots: list[tuple[Attacker, Target, tuple[Hex, ...]]] = []
    for distance in (2, 4, 6, 8, 10, 12):
        for o, t in pairs_at(board, distance, rng, n_pairs // 6):
            # The attacker faces the target: its sector seen with facing 1 is its direction.
            facing = candidate_sides(o, 1, t)[0]
            near = tuple(rng.sample(sorted(board.cells), 4))
            shots.append(
                (
                    Attacker(o, facing, moved=rng.randint(0, 4)),
                    Target(t, rng.randint(1, 6), rng.choice(("left", "right")), rng.randint(0, 3)),
                    near,
                )
            )

    rng.shuffle(shots)  # so that the reference's sample mixes the distances too

    def answer(a: Attacker, t: Target, others: tuple[Hex, ...]) -> ToHit:
        return to_hit(board, a, t, weapon, others=others)

    # Compared as dicts: a refusal is a RuleViolation, an exception, equal only to itself.
    expected = [answer(*s).as_dict() for s in shots[:ref_pairs]]
    with reference_los_in_tohit():
        assert [answer(*s).as_dict() for s in shots[:ref_pairs]] == expected
        ref = median_of([partial(answer, *s) for s in shots[:ref_pairs]], 1)
    fast = median_of([partial(answer, *s) for s in shots], repeat)
    possible = sum(answer(*s).possible for s in shots)
    row("to_hit, distances 2-12", fast, ref, f"{possible}/{len(shots)} shots possible")

    # --- the visibility map -----------------------------------------------------------------------
    los._LINES.clear()
    cold_map = per_call(lambda: visible_from(board, ORIGIN), 1)
    fast_map = median_of([lambda: visible_from(board, ORIGIN)] * (5 if quick else 21), 1)
    t0 = time.perf_counter()
    seen = reference_visible_from(board, ORIGIN)
    ref_map = time.perf_counter() - t0
    assert visible_from(board, ORIGIN) == seen
    met = "met" if fast_map * 1e3 < MAP_TARGET_MS else "MISSED"
    row(
        "visible_from centre, whole board",
        fast_map,
        ref_map,
        f"< {MAP_TARGET_MS:.0f} ms: {met}; {len(seen)} seen; cold cache {fmt(cold_map).strip()}",
    )

    # --- reachable ----------------------------------------------------------------------------------
    start = ORIGIN
    reach = reachable(board, start, SP, require_sight=False)
    naive = naive_costs(board, start, SP)
    assert {h: r.cost for h, r in reach.items()} == naive
    fast_reach = median_of([lambda: reachable(board, start, SP, require_sight=False)] * 21, 1)
    ref_reach = median_of([lambda: naive_costs(board, start, SP)] * (1 if quick else 3), 1)
    with_sight = median_of([lambda: reachable(board, start, SP)] * 21, 1)
    row(
        f"reachable, {SP} SP (no sight filter)",
        fast_reach,
        ref_reach,
        f"{len(reach)} hexes; with R-LOS-5 sight filter {fmt(with_sight).strip()}",
    )


if __name__ == "__main__":
    main()
