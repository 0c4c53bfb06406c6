"""Exact line of sight, cover and the visibility map (R-LOS-1..4, R-COV-1..3).

Geometry. The affine map `u = 3q`, `v = 2r + q` sends the pixel centres of R-BRD-2
(`x = 1.5q`, `y = √3(r + q/2)`) to integer points, and every hex vertex to
`centre + (±2, 0)` or `centre + (±1, ±1)`. Affine maps preserve incidence and
sidedness, so every decision below is an integer comparison; no float decides anything.

For the segment from the origin centre to `D = (U, V)` and a hex with centre `C`:

* `c = U·C.v − V·C.u` (a cross product) tells the side of the line the centre is on.
  Over the six vertices `w`, `U·w.v − V·w.u` ranges over `[−reach, reach]` with
  `reach = max(2|V|, |U| + |V|)`, so the infinite line crosses the hex's interior when
  `|c| < reach` and only touches it (along an edge or at a vertex) when `|c| == reach`.
* `key = U·C.u + 3·V·C.v` is, up to a constant factor, the Euclidean projection of `C`
  on the line. Hexes are the Voronoi cells of their centres, so a hex other than the
  origin's and the target's meets the segment (rather than the line beyond an end)
  exactly when `0 < key < key(target)`, and ordering by `key` orders the hexes along the
  line. The two hexes of an edge the line runs along are mirror images across it and
  share their `key`; a hex touched at a single vertex sorts strictly between the hexes
  the line leaves and enters there.

The geometry depends only on the offset `target − origin`, so it is computed once per
offset (lazily, cached) as a `_Line`; a query translates it and looks hexes up in sets.

Sides (R-LOS-4): "left" and "right" are as seen by someone at the origin looking at the
target on the screen (y grows downward); `c < 0` is the left side.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from .board import COVER_VALUES, Board
from .hexes import DIRECTION_VECTORS, Hex

RULE_COVER = "R-COV-1"
_COVER_NAMES: dict[int, str] = {v: k for k, v in COVER_VALUES.items()}
_DIRECTIONS: tuple[tuple[int, int], ...] = tuple(DIRECTION_VECTORS.values())
# Offsets up to this distance are cached: a radius-30 board spans 60, and the cache of
# every offset up to 64 (12,481 lines, built in about 0.5 s) holds about 12 MB at most.
# Longer lines are computed on demand, exactly the same way, and not kept.
_CACHE_MAX_DISTANCE = 64


@dataclass(frozen=True, slots=True)
class CoverSource:
    """One thing that gives the target cover (R-COV-1): its hex, kind and level.

    `kind` is "terrain" (the target's own hex, R-COV-1(a), or an intervening hex adjacent
    to the target, R-COV-1(b)) or "casket" (another casket on the line, R-COV-1(c)).

    >>> CoverSource(Hex(1, -1), "casket", "light", None).as_dict()
    {'at': [1, -1], 'kind': 'casket', 'cover': 'light', 'rule': 'R-COV-1'}
    """

    at: Hex
    kind: str
    cover: str
    terrain: str | None
    rule: str = RULE_COVER

    def as_dict(self) -> dict[str, object]:
        # ADDENDUM: FORMATS.md shows a source as {at, kind, rule}; "cover" (and "terrain"
        # for a terrain source) are added as optional fields so a player sees the level.
        out: dict[str, object] = {"at": [self.at.q, self.at.r], "kind": self.kind}
        out["cover"] = self.cover
        if self.terrain is not None:
            out["terrain"] = self.terrain
        out["rule"] = self.rule
        return out


@dataclass(frozen=True, slots=True)
class LosResult:
    """The answer to one line-of-sight question (R-LOS-1..4) with its cover (R-COV-1..3).

    `steps` lists the intervening hexes from origin to target; a step is one hex, or the
    two hexes (left, right) of an edge the line runs along (R-LOS-4). A hex the line only
    touches at a vertex is a one-hex step on its own; `divided` says that some touch
    happened. `blocked_by` is the blocking hex nearest the origin (in a pair: the left).
    `cover_sources` are the sources on the side giving the most cover (both sides' when
    they tie); `cover` is the highest of them (R-COV-2), or "none" when the attacker
    stands higher than the target (R-COV-3, `cover_ignored_by_elevation`).

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3}})
    >>> line_of_sight(b, Hex(0, 0), Hex(0, -2)).as_dict()["line"]
    [[[0, -1]]]
    """

    clear: bool
    distance: int
    blocked_by: Hex | None
    divided: bool
    steps: tuple[tuple[Hex, ...], ...]
    cover: str
    cover_sources: tuple[CoverSource, ...]
    cover_ignored_by_elevation: bool
    # True when some blocking hex is entered by both nudged lines, so the block does not
    # depend on the defender's choice of side (R-LOS-2 rather than R-LOS-4).
    blocked_on_both_sides: bool = False

    def as_dict(self) -> dict[str, object]:
        """The FORMATS.md line-of-sight answer, plus `cover_ignored_by_elevation` (R-COV-3)."""
        return {
            "clear": self.clear,
            "distance": self.distance,
            "blocked_by": None if self.blocked_by is None else [*self.blocked_by],
            "divided": self.divided,
            "line": [[[h.q, h.r] for h in step] for step in self.steps],
            "cover": self.cover,
            "cover_sources": [s.as_dict() for s in self.cover_sources],
            "cover_ignored_by_elevation": self.cover_ignored_by_elevation,
        }


@dataclass(frozen=True, slots=True)
class _Line:
    """The geometry of every line with one offset, relative to the origin.

    `order` holds the intervening hexes in step order (a pair: left, then right); `pairs`
    the indices where a two-hex step starts; `left_skips`/`right_skips` the indices the
    left/right nudged line does not enter (the other side's touched hexes, R-LOS-4);
    `near` the indices of hexes adjacent to the target (R-COV-1(b)).
    """

    order: tuple[tuple[int, int], ...]
    pairs: frozenset[int]
    left_skips: frozenset[int]
    right_skips: frozenset[int]
    near: tuple[int, ...]

    @property
    def divided(self) -> bool:
        return bool(self.left_skips or self.right_skips)


_LINES: dict[tuple[int, int], _Line] = {}
_NO_INDICES: frozenset[int] = frozenset()
# One tuple object per relative hex, shared by all cached lines, keeps the cache small.
_INTERNED: dict[tuple[int, int], tuple[int, int]] = {}


def _build_line(dq: int, dr: int) -> _Line:
    """Compute the hexes met by the segment from (0, 0) to (dq, dr), in integers only."""
    U = 3 * dq
    V = 2 * dr + dq
    reach = max(2 * abs(V), abs(U) + abs(V))
    end = U * U + 3 * V * V  # `key` of the target
    # Each hex on the segment has a neighbour on it with a smaller key (the hex the line
    # comes from), so walking only "forward" neighbours from the origin finds them all.
    # Stepping to a neighbour changes `c` and `key` by a fixed amount per direction.
    forward = [
        (a, b, U * (2 * b + a) - V * 3 * a, 3 * U * a + 3 * V * (2 * b + a))
        for a, b in _DIRECTIONS
        if 3 * U * a + 3 * V * (2 * b + a) > 0
    ]
    seen: set[tuple[int, int]] = set()
    intern = _INTERNED.setdefault
    todo = [(0, 0, 0, 0)]
    found: list[tuple[int, int, tuple[int, int]]] = []
    while todo:
        q, r, c0, key0 = todo.pop()
        for a, b, dc, dkey in forward:
            c = c0 + dc
            if c > reach or -c > reach:
                continue  # misses the line
            key = key0 + dkey
            if key >= end:
                continue  # the target, or a hex meeting the line beyond it
            n = (q + a, r + b)
            if n in seen:
                continue
            seen.add(n)
            found.append((key, c, intern(n, n)))
            todo.append((q + a, r + b, c, key))
    # Sorting by (key, c) puts a pair's left hex (c < 0) first.
    found.sort()
    order = []
    pairs = []
    left_skips = []
    right_skips = []
    near = []
    previous = -1
    for i, (key, c, h) in enumerate(found):
        order.append(h)
        if key == previous:
            pairs.append(i - 1)
        previous = key
        if c == reach:
            left_skips.append(i)  # touched on the right: only the right nudge enters it
        elif c == -reach:
            right_skips.append(i)
        if abs(h[0] - dq) + abs(h[1] - dr) + abs(h[0] - dq + h[1] - dr) == 2:
            near.append(i)
    return _Line(tuple(order), _set(pairs), _set(left_skips), _set(right_skips), tuple(near))


def _set(indices: list[int]) -> frozenset[int]:
    # Most lines have no pairs and no touches: share one empty set among them.
    return frozenset(indices) if indices else _NO_INDICES


def _line(dq: int, dr: int) -> _Line:
    line = _LINES.get((dq, dr))
    if line is None:
        line = _build_line(dq, dr)
        if abs(dq) + abs(dr) + abs(dq + dr) <= 2 * _CACHE_MAX_DISTANCE:
            _LINES[(dq, dr)] = line
    return line


def _side_cover(
    board: Board,
    hexes: list[Hex],
    line: _Line,
    skips: frozenset[int],
    casket_at: list[int],
    own: CoverSource | None,
) -> tuple[int, dict[tuple[int, str], CoverSource]]:
    """Cover along one nudged line: R-COV-1 (b) and (c), plus the target's own hex (a)."""
    found: dict[tuple[int, str], CoverSource] = {}
    best = COVER_VALUES[own.cover] if own is not None else 0
    for i in line.near:
        if i in skips:
            continue
        kind = board.terrain_at(hexes[i])
        if kind.cover != "none":
            # R-COV-1(b): an intervening hex adjacent to the target whose terrain gives cover.
            found[(i, "terrain")] = CoverSource(hexes[i], "terrain", kind.cover, kind.name)
            best = max(best, kind.cover_value)
    for i in casket_at:
        if i not in skips:
            # R-COV-1(c): another casket in an intervening hex gives light cover.
            found[(i, "casket")] = CoverSource(hexes[i], "casket", "light", None)
            best = max(best, COVER_VALUES["light"])
    if own is not None:
        found[(len(hexes), "terrain")] = own
    return best, found


def line_of_sight(
    board: Board, origin: Hex, target: Hex, others: Collection[Hex] = ()
) -> LosResult:
    """Line of sight from `origin` to `target` with cover (R-LOS-1..4, R-COV-1..3).

    `others` are the hexes of the other caskets: they never block (R-LOS-3) and give light
    cover when they stand on the line (R-COV-1(c)). Hexes off the board count as clear.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 4},
    ...                  "hexes": [{"q": 0, "r": -1, "terrain": "wall"},
    ...                            {"q": 2, "r": -2, "terrain": "rubble"}]})
    >>> r = line_of_sight(b, Hex(0, 0), Hex(0, -3))
    >>> r.clear, r.blocked_by
    (False, Hex(q=0, r=-1))
    >>> r = line_of_sight(b, Hex(0, 0), Hex(3, -3), others=[Hex(1, -1)])
    >>> r.clear, r.cover, [s.kind for s in r.cover_sources]
    (True, 'light', ['casket', 'terrain'])
    """
    oq, or_ = origin
    line = _line(target[0] - oq, target[1] - or_)
    # R-LOS-1: only intervening hexes are listed, so the own hexes can never block.
    # ADDENDUM: an intervening hex off the board (a line along a rectangle's ragged edge)
    # is listed like any other and counts as clear: it never blocks and gives no cover.
    hexes = [Hex(oq + a, or_ + b) for a, b in line.order]
    blocking = board.blocking
    blocked_by = None
    if blocking:
        # R-LOS-2/R-LOS-4: the union of both nudged lines, so either side blocking blocks;
        # levels play no part. ADDENDUM: of a pair, whose hexes are equally near the
        # origin, the left one is named when both block.
        for h in hexes:
            if h in blocking:
                blocked_by = h
                break
    both_sides = blocked_by is not None and any(
        h in blocking and i not in line.left_skips and i not in line.right_skips
        for i, h in enumerate(hexes)
    )
    # ADDENDUM: a hex touched at a single vertex (off the 30° diagonals) has no partner
    # on the other side; FORMATS.md knows one-hex and two-hex steps, so it is a one-hex
    # step of its own, and `divided` says that the line touched something.
    if line.pairs:
        grouped: list[tuple[Hex, ...]] = []
        i = 0
        while i < len(hexes):
            if i in line.pairs:
                grouped.append((hexes[i], hexes[i + 1]))
                i += 2
            else:
                grouped.append((hexes[i],))
                i += 1
        steps = tuple(grouped)
    else:
        steps = tuple([(h,) for h in hexes])

    # Cover (R-COV-1): computed per nudged side; the side with more cover counts (R-LOS-4).
    # ADDENDUM: at distance 0 (origin == target) only the own hex's terrain, (a), applies.
    own_kind = board.terrain_at(target)
    own = (
        CoverSource(target, "terrain", own_kind.cover, own_kind.name)
        if own_kind.cover != "none"
        else None
    )
    if others:
        occupied = others if isinstance(others, set | frozenset) else frozenset(others)
        casket_at = [i for i, h in enumerate(hexes) if h in occupied]
    else:
        casket_at = []
    if line.divided:
        left = _side_cover(board, hexes, line, line.left_skips, casket_at, own)
        right = _side_cover(board, hexes, line, line.right_skips, casket_at, own)
        if left[0] == right[0]:
            # ADDENDUM: when both sides give the same cover, the sources of both are listed.
            value, chosen = left[0], {**left[1], **right[1]}
        else:
            value, chosen = max(left, right, key=lambda side: side[0])
    else:
        value, chosen = _side_cover(board, hexes, line, frozenset(), casket_at, own)
    sources = tuple(chosen[k] for k in sorted(chosen, key=lambda k: (k[0], k[1] == "casket")))

    # R-COV-3: an attacker on a higher level than the target ignores all cover.
    # ADDENDUM: the sources are still listed, so a player sees what was ignored, and the
    # flag is set whenever the attacker is higher, whether or not there was cover.
    higher = board.level_at(origin) > board.level_at(target)
    return LosResult(
        clear=blocked_by is None,
        distance=origin.distance(target),
        blocked_by=blocked_by,
        divided=line.divided,
        steps=steps,
        cover="none" if higher else _COVER_NAMES[value],
        cover_sources=sources,
        cover_ignored_by_elevation=higher,
        blocked_on_both_sides=both_sides,
    )


def has_line_of_sight(board: Board, origin: Hex, target: Hex) -> bool:
    """True when no intervening hex on either nudged line blocks (R-LOS-1, R-LOS-2, R-LOS-4).

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3},
    ...                  "hexes": [{"q": 0, "r": -1, "terrain": "wall"}]})
    >>> has_line_of_sight(b, Hex(0, 0), Hex(0, -2)), has_line_of_sight(b, Hex(0, 0), Hex(0, -1))
    (False, True)
    """
    blocking = board.blocking
    if not blocking:
        return True
    oq, or_ = origin
    # A plain (q, r) tuple hashes and compares equal to the Hex with those coordinates.
    return not any(
        (oq + a, or_ + b) in blocking for a, b in _line(target[0] - oq, target[1] - or_).order
    )


def line_through(origin: Hex, toward: Hex, within: int) -> tuple[Hex, ...]:
    """The hexes a straight line from `origin`'s centre through `toward`'s centre, drawn on
    as far as `within` hexes of `origin`, passes through, nearest first (R-ADD-381): those
    whose interior it crosses (`toward` included), not those it only touches along an edge
    or at a vertex, which R-LOS-4 settles in favour of the casket standing there.

    >>> line_through(Hex(0, 0), Hex(0, -1), 3)
    (Hex(q=0, r=-1), Hex(q=0, r=-2), Hex(q=0, r=-3))
    >>> line_through(Hex(0, 0), Hex(1, -3), 4)  # off the six directions
    (Hex(q=0, r=-1), Hex(q=1, r=-2), Hex(q=1, r=-3), Hex(q=1, r=-4))
    >>> line_through(Hex(0, 0), Hex(1, 1), 4)  # along edges: only the centres it meets
    (Hex(q=1, r=1), Hex(q=2, r=2))
    """
    dq, dr = toward[0] - origin[0], toward[1] - origin[1]
    step = origin.distance(toward)
    if step == 0:
        return ()
    k = -(-within // step)  # the first whole multiple of the offset reaching `within`
    line = _line(k * dq, k * dr)
    touched = line.left_skips | line.right_skips
    crossed = [
        Hex(origin[0] + a, origin[1] + b) for i, (a, b) in enumerate(line.order) if i not in touched
    ]
    crossed.append(Hex(origin[0] + k * dq, origin[1] + k * dr))
    return tuple(h for h in crossed if origin.distance(h) <= within)


def visible_from(board: Board, origin: Hex) -> frozenset[Hex]:
    """Every board hex with clear line of sight from `origin`, `origin` included (R-LOS-1..4).

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 2},
    ...                  "hexes": [{"q": 0, "r": -1, "terrain": "wall"}]})
    >>> sorted(b.cells - visible_from(b, Hex(0, 0)))  # two of them through a divided pair
    [Hex(q=-1, r=-1), Hex(q=0, r=-2), Hex(q=1, r=-2)]
    """
    oq, or_ = origin
    # Move the blockers instead of each line: a line is clear when its relative hexes miss
    # every relative blocker, a C-level set test.
    relative = {(q - oq, r - or_) for q, r in board.blocking}
    if not relative:
        return board.cells
    lines = _LINES
    visible = []
    for h in board.cells:
        key = (h[0] - oq, h[1] - or_)
        line = lines.get(key) or _line(*key)
        if relative.isdisjoint(line.order):
            visible.append(h)
    return frozenset(visible)
