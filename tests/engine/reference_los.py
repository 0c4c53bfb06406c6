"""A slow, obviously correct reference for line of sight and cover (R-LOS-1..4, R-COV-1..3).

Used only by tests and benchmarks, never by the engine. It shares no algorithm with
`battles.engine.los`: it clips segments against hex polygons with `fractions.Fraction`
and realises R-LOS-4's two nudges as real segments shifted sideways by a tiny rational
amount, then reads off which hexes each shifted segment enters.

Coordinates: `u = 3q`, `v = 2r + q`, an affine image of the pixel plane of R-BRD-2
(`u = 2x`, `v = 2y/√3`). Affine maps keep straight lines straight and keep which side of
a line a point is on, so "enters", "touches" and "left of" mean the same here as on the
table. A hex is the hexagon with corners `centre + (±2, 0), (±1, ±1)`.

Why the nudge is small enough: every hex corner has integer coordinates, so its cross
product with the line direction `D` is an integer. Shifting the segment sideways by
`(V, −U) / SCALE` changes those cross products by `|D|² / SCALE`, far below 1 for any
line on a board this engine accepts; so a shifted segment passes no corner, still crosses
every hex the line crosses, still misses every hex the line misses, and enters a touched
hex exactly when that hex lies on its side. Its ends stay inside the origin's and the
target's hexes.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from fractions import Fraction

from battles.engine.board import COVER_VALUES, Board
from battles.engine.hexes import Hex
from battles.engine.los import CoverSource, LosResult

Point = tuple[int, int]
# The nudge is EPSILON = 1 / SCALE; nudged points are kept as integers over SCALE, so every
# test below is an integer cross product and every parameter an exact Fraction.
SCALE = 10**12
_CORNERS = ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))


def centre(h: Hex) -> Point:
    return (3 * h.q, 2 * h.r + h.q)


def polygon(h: Hex, scale: int = 1) -> list[Point]:
    """The six corners of `h`, in order round the hexagon, times `scale`."""
    cu, cv = centre(h)
    return [((cu + a) * scale, (cv + b) * scale) for a, b in _CORNERS]


def _cross(ax: int, ay: int, bx: int, by: int) -> int:
    return ax * by - ay * bx


def clip(
    p0: Point, p1: Point, h: Hex, *, interior: bool, scale: int = 1
) -> tuple[Fraction, Fraction] | None:
    """The parameters t in [0, 1] for which p0 + t·(p1 − p0) lies in hex `h`; all points
    are integers over `scale`.

    With `interior`, only the open hexagon counts: the answer is None unless the segment
    runs through the inside for some positive length.
    """
    corners = polygon(h, scale)
    cu, cv = (c * scale for c in centre(h))
    lo, hi = Fraction(0), Fraction(1)
    for k in range(6):
        a = corners[k]
        b = corners[(k + 1) % 6]
        ex, ey = b[0] - a[0], b[1] - a[1]
        # f(p) = cross(edge, p − a); the centre tells which sign is inside.
        inside = 1 if _cross(ex, ey, cu - a[0], cv - a[1]) > 0 else -1
        f0 = inside * _cross(ex, ey, p0[0] - a[0], p0[1] - a[1])
        f1 = inside * _cross(ex, ey, p1[0] - a[0], p1[1] - a[1])
        if f0 == f1:
            if f0 < 0 or (interior and f0 == 0):
                return None
            continue
        root = Fraction(f0, f0 - f1)
        if f1 > f0:
            lo = max(lo, root)
        else:
            hi = min(hi, root)
        if lo > hi:
            return None
    if interior:
        return (lo, hi) if lo < hi else None
    return (lo, hi) if lo <= hi else None


def _candidates(origin: Hex, target: Hex) -> Iterator[Hex]:
    """Every hex whose centre is within (2, 1) of the segment's bounding box: a superset of
    the hexes the segment can meet, since a hex lies within (±2, ±1) of its centre."""
    (u0, v0), (u1, v1) = centre(origin), centre(target)
    umin, umax = min(u0, u1) - 2, max(u0, u1) + 2
    vmin, vmax = min(v0, v1) - 1, max(v0, v1) + 1
    for q in range(umin // 3 - 1, umax // 3 + 2):
        for r in range((vmin - q) // 2 - 1, (vmax - q) // 2 + 2):
            cu, cv = 3 * q, 2 * r + q
            if umin <= cu <= umax and vmin <= cv <= vmax:
                yield Hex(q, r)


def nudged_paths(origin: Hex, target: Hex) -> tuple[list[Hex], list[Hex]]:
    """The intervening hexes entered by the line nudged to the left and to the right
    (as seen from the origin looking at the target on screen), each in order (R-LOS-4)."""
    if origin == target:
        return [], []
    p0, p1 = centre(origin), centre(target)
    du, dv = p1[0] - p0[0], p1[1] - p0[1]
    assert du * du + dv * dv < 10**6, "the nudge is only proven small enough for shorter lines"
    near = [
        h
        for h in _candidates(origin, target)
        if h not in (origin, target) and clip(p0, p1, h, interior=False) is not None
    ]
    paths = []
    # (dv, −du) points to the left of the direction (du, dv) on screen (y grows downward).
    for side in (1, -1):
        nu, nv = side * dv, -side * du
        q0 = (p0[0] * SCALE + nu, p0[1] * SCALE + nv)
        q1 = (p1[0] * SCALE + nu, p1[1] * SCALE + nv)
        entered = []
        for h in near:
            span = clip(q0, q1, h, interior=True, scale=SCALE)
            if span is not None:
                entered.append((span[0], h))
        entered.sort()
        paths.append([h for _, h in entered])
    return paths[0], paths[1]


def merge_steps(left: list[Hex], right: list[Hex]) -> list[tuple[Hex, ...]]:
    """Zip the two nudged paths into steps: a hex both enter is a step; a hex only one
    enters is a step of its own, unless the other side enters one at the same moment, in
    which case the two form a divided pair (left, right)."""
    left_set, right_set = set(left), set(right)
    steps: list[tuple[Hex, ...]] = []
    i = j = 0
    while i < len(left) or j < len(right):
        a = left[i] if i < len(left) else None
        b = right[j] if j < len(right) else None
        if a is not None and a == b:
            steps.append((a,))
            i, j = i + 1, j + 1
        elif a is not None and b is not None and a not in right_set and b not in left_set:
            steps.append((a, b))
            i, j = i + 1, j + 1
        elif a is not None and a not in right_set:
            steps.append((a,))
            i += 1
        else:
            assert b is not None and b not in left_set
            steps.append((b,))
            j += 1
    return steps


def _side_cover(
    board: Board, path: list[Hex], target: Hex, others: Collection[Hex]
) -> tuple[int, list[CoverSource]]:
    sources = []
    for h in path:
        kind = board.terrain_at(h)
        if h.distance(target) == 1 and kind.cover != "none":
            sources.append(CoverSource(h, "terrain", kind.cover, kind.name))
        if h in others:
            sources.append(CoverSource(h, "casket", "light", None))
    own = board.terrain_at(target)
    if own.cover != "none":
        sources.append(CoverSource(target, "terrain", own.cover, own.name))
    return max((COVER_VALUES[s.cover] for s in sources), default=0), sources


def reference_line_of_sight(
    board: Board, origin: Hex, target: Hex, others: Collection[Hex] = ()
) -> LosResult:
    """The reference answer, field for field what `battles.engine.los.line_of_sight` gives."""
    left, right = nudged_paths(origin, target)
    steps = merge_steps(left, right)
    flat = [h for step in steps for h in step]
    blocked_by = next((h for h in flat if h in board.blocking), None)
    lv, ls = _side_cover(board, left, target, others)
    rv, rs = _side_cover(board, right, target, others)
    if lv == rv:
        position = {h: i for i, h in enumerate(flat)}
        merged = {(s.at, s.kind): s for s in ls + rs}
        sources = sorted(
            merged.values(),
            key=lambda s: (position.get(s.at, len(flat)), s.kind == "casket"),
        )
    else:
        sources = ls if lv > rv else rs
    higher = board.level_at(origin) > board.level_at(target)
    return LosResult(
        clear=blocked_by is None,
        distance=origin.distance(target),
        blocked_by=blocked_by,
        divided=set(left) != set(right),
        steps=tuple(steps),
        cover="none" if higher else ("none", "light", "heavy")[max(lv, rv)],
        cover_sources=tuple(sources),
        cover_ignored_by_elevation=higher,
        blocked_on_both_sides=any(h in board.blocking for h in set(left) & set(right)),
    )


def reference_has_line_of_sight(board: Board, origin: Hex, target: Hex) -> bool:
    left, right = nudged_paths(origin, target)
    return not any(h in board.blocking for h in left + right)


def reference_visible_from(board: Board, origin: Hex) -> frozenset[Hex]:
    return frozenset(h for h in board.cells if reference_has_line_of_sight(board, origin, h))
