"""Movement: step costs, path validation and the reachable set (R-MOV-1..3, R-LOS-5).

- R-MOV-1 Step cost: entering a hex costs its terrain's `move_cost` (R-BRD-3) + 1 per
  level climbed (R-BRD-4; going down costs nothing extra) + 1 when the mover's legs
  are destroyed (R-TRN-5, seed 002 "Legs").
- R-MOV-2 Passage: a casket may pass through allied caskets' hexes but never end
  there; it never enters an enemy casket's hex, an impassable hex or a hex off the board.
- R-MOV-3 A move action is a path of adjacent steps to a destination in LOS from the
  start hex (R-LOS-5); its cost is the sum of the step costs; the hexes moved (R-HIT-2)
  are the number of steps.

`reachable` is a Dijkstra search over a per-board adjacency table that is built once
and cached, so a query touches only the hexes within the SP budget.
"""

from __future__ import annotations

import heapq
import threading
from collections import OrderedDict
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from .board import Board
from .errors import InvalidInput, RuleViolation
from .hexes import DIRECTION_VECTORS, Hex
from .los import has_line_of_sight

__all__ = [
    "Reach",
    "forced_path",
    "push_direction",
    "reachable",
    "step_cost",
    "teleport_problem",
    "validate_free_path",
    "validate_path",
]

LEGS_DESTROYED_SURCHARGE = 1  # R-MOV-1, R-TRN-5, seed 002 "Legs": +1 SP per hex


def step_cost(
    board: Board, src: Hex, dst: Hex, *, legs_destroyed: bool = False, ignore_terrain: bool = False
) -> int | None:
    """SP to step from `src` into the adjacent hex `dst` (R-MOV-1), or None if it cannot be entered.

    `ignore_terrain`: a card lets the casket ignore terrain costs, so every enterable hex
    costs 1 before climbing and legs (R-ADD-136).

    None when `dst` is off the board or impassable (R-MOV-2) or not adjacent to `src`.
    Caskets are not considered here: `reachable` and `validate_path` handle them.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 2},
    ...                  "hexes": [{"q": 1, "r": 0, "terrain": "forest", "level": 1},
    ...                            {"q": 0, "r": 1, "terrain": "wall"}]})
    >>> step_cost(b, Hex(0, 0), Hex(1, 0)), step_cost(b, Hex(1, 0), Hex(0, 0))
    (3, 1)
    >>> step_cost(b, Hex(0, 0), Hex(0, 1)) is None, step_cost(b, Hex(0, 0), Hex(2, 0)) is None
    (True, True)
    >>> step_cost(b, Hex(0, 0), Hex(-1, 0), legs_destroyed=True)
    2
    >>> step_cost(b, Hex(0, 0), Hex(1, 0), ignore_terrain=True)
    2
    """
    if src not in board or dst not in board or src.distance(dst) != 1:
        return None
    kind = board.terrain_at(dst)
    if kind.impassable:
        return None
    climb = board.level_at(dst) - board.level_at(src)
    terrain = 1 if ignore_terrain else kind.move_cost
    return terrain + max(climb, 0) + (LEGS_DESTROYED_SURCHARGE if legs_destroyed else 0)


@dataclass(frozen=True, slots=True)
class Reach:
    """The cheapest way to one destination (R-MOV-3): its SP cost and its path.

    `path` excludes the start hex and ends at the destination, so `len(path)` is the
    number of hexes moved for R-HIT-2.

    >>> r = Reach(3, (Hex(0, -1), Hex(1, -2)))
    >>> r.destination, r.hexes_moved
    (Hex(q=1, r=-2), 2)
    """

    cost: int
    path: tuple[Hex, ...]

    @property
    def destination(self) -> Hex:
        return self.path[-1]

    @property
    def hexes_moved(self) -> int:
        return len(self.path)


@dataclass(frozen=True, slots=True)
class _Graph:
    """A board's movement graph. Hex indices follow (q, r) order, so the index is the tie-break."""

    hexes: tuple[Hex, ...]
    index: dict[tuple[int, int], int]
    # For each hex, (neighbour index, R-MOV-1 cost without the legs surcharge) for every
    # enterable neighbour, in direction order. Impassable and off-board hexes never appear.
    edges: tuple[tuple[tuple[int, int], ...], ...]


def _build_graph(board: Board) -> _Graph:
    hexes = tuple(sorted(board.cells))
    # Keyed by plain (q, r) tuples: a Hex is one, and neighbours are probed without
    # building a Hex per probe.
    index: dict[tuple[int, int], int] = {h: i for i, h in enumerate(hexes)}
    clear = board.kinds["clear"]
    terrain = board.terrain
    levels_of = board.levels
    enter: list[int | None] = []
    levels: list[int] = []
    for h in hexes:
        kind = terrain.get(h) or clear
        enter.append(None if kind.impassable else kind.move_cost)
        levels.append(levels_of.get(h, 0))
    vectors = tuple(DIRECTION_VECTORS.values())
    edges: list[tuple[tuple[int, int], ...]] = []
    for i, (q, r) in enumerate(hexes):
        level = levels[i]
        out: list[tuple[int, int]] = []
        for dq, dr in vectors:
            j = index.get((q + dq, r + dr))
            if j is None:
                continue
            base = enter[j]
            if base is not None:
                out.append((j, base + max(levels[j] - level, 0)))
        edges.append(tuple(out))
    return _Graph(hexes, index, tuple(edges))


# Board is frozen but neither hashable (it holds dicts) nor weak-referenceable (slots),
# so the cache is keyed by id() and keeps the Board itself alive: while an entry exists
# its id cannot be reused by another object. The identity check guards the rest.
_CACHE_SIZE = 16
_cache: OrderedDict[int, tuple[Board, _Graph]] = OrderedDict()
_cache_lock = threading.Lock()


def _graph(board: Board) -> _Graph:
    key = id(board)
    with _cache_lock:
        entry = _cache.get(key)
        if entry is not None and entry[0] is board:
            _cache.move_to_end(key)
            return entry[1]
    graph = _build_graph(board)
    with _cache_lock:
        _cache[key] = (board, graph)
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return graph


def _require_on_board(board: Board, start: Hex) -> None:
    if start not in board:
        raise InvalidInput("start", f"hex [{start.q}, {start.r}] is not on the board", "R-MOV-2")


def reachable(
    board: Board,
    start: Hex,
    sp: int,
    *,
    allies: Collection[Hex] = (),
    enemies: Collection[Hex] = (),
    legs_destroyed: bool = False,
    require_sight: bool = True,
    surcharge: int = 0,
) -> dict[Hex, Reach]:
    """Every hex one move action from `start` can end on within `sp` SP, with its cheapest path.

    Paths follow R-MOV-1/R-MOV-2: they may cross `allies` but not end there, never
    enter `enemies` or impassable hexes. With `require_sight` a destination must be in
    LOS from `start` (R-LOS-5). The start hex itself is never included (R-MOV-3).
    `sp` is whatever budget applies (up to twice the maximum with overspend, R-TRN-3).

    Paths are deterministic: the cheapest; among those the fewest steps; among those,
    each hex is entered from the smallest (q, r) neighbour that is still cheapest.
    The dict is ordered by (cost, steps, destination).

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3},
    ...                  "hexes": [{"q": 0, "r": -1, "terrain": "forest"}]})
    >>> reach = reachable(b, Hex(0, 0), 2, enemies=[Hex(1, -1)])
    >>> reach[Hex(0, -1)]
    Reach(cost=2, path=(Hex(q=0, r=-1),))
    >>> reach[Hex(1, -2)]
    Traceback (most recent call last):
    ...
    KeyError: Hex(q=1, r=-2)
    >>> len(reach)
    14
    """
    _require_on_board(board, start)
    if sp <= 0:
        return {}
    graph = _graph(board)
    hexes = graph.hexes
    edges = graph.edges
    index = graph.index
    n = len(hexes)
    s = index[start]
    blocked = {index[h] for h in enemies if h in index}
    blocked.discard(s)
    no_stop = {index[h] for h in allies if h in index}
    no_stop.add(s)
    # `surcharge`: SP more per hex a card adds (R-ADD-113, R-ADD-362).
    legs = (LEGS_DESTROYED_SURCHARGE if legs_destroyed else 0) + surcharge
    # A label packs (cost, steps) into one int, and a heap key packs (label, index), so
    # the heap compares plain ints. Steps never exceed sp because every step costs >= 1
    # (parse_board keeps move_cost in 1..10), which also makes Dijkstra exact here.
    span = sp + 1
    best: dict[int, int] = {s: 0}
    pred: dict[int, int] = {}
    paths: dict[int, tuple[Hex, ...]] = {s: ()}
    result: dict[Hex, Reach] = {}
    heap = [s]
    pop = heapq.heappop
    push = heapq.heappush
    while heap:
        label, u = divmod(pop(heap), n)
        if label != best[u]:
            continue  # a stale entry: u was pushed again with a cheaper label
        cost, steps = divmod(label, span)
        if u != s:
            # pred[u] is final now: every cheapest predecessor has a smaller label, so all
            # of them were settled, and each had its chance to claim u on a tie.
            h = hexes[u]
            path = paths[pred[u]] + (h,)
            paths[u] = path
            # Sight is asked only of the hexes reached (R-LOS-5): a few hundred lines beat
            # a whole-board visible_from (0.3 ms against 1.1 ms, 12 SP, radius 30).
            if u not in no_stop and (not require_sight or has_line_of_sight(board, start, h)):
                result[h] = Reach(cost, path)
        next_steps = steps + 1
        for v, c in edges[u]:
            new_cost = cost + c + legs
            if new_cost > sp or v in blocked:
                continue
            new_label = new_cost * span + next_steps
            old = best.get(v)
            if old is None or new_label < old:
                best[v] = new_label
                pred[v] = u
                push(heap, new_label * n + v)
            elif new_label == old and u < pred[v]:
                pred[v] = u
    return result


def _steps(board: Board, start: Hex, path: Sequence[Hex]) -> Iterator[tuple[Hex, Hex, str]]:
    """Each step of a move along `path` from `start`: the hex left, the hex entered and the
    step in words; refused where the path is empty, leaves the board or skips a hex
    (R-MOV-2, R-MOV-3)."""
    _require_on_board(board, start)
    if not path:
        raise RuleViolation(
            "empty_path", "A move action needs at least one step to a destination", "R-MOV-3"
        )
    here = start
    for i, step in enumerate(path):
        where = f"step {i + 1} to [{step.q}, {step.r}]"
        if step not in board:
            raise RuleViolation("off_board", f"{where} leaves the board", "R-MOV-2")
        if here.distance(step) != 1:
            raise RuleViolation(
                "not_adjacent", f"{where} is not adjacent to [{here.q}, {here.r}]", "R-MOV-3"
            )
        yield here, step, where
        here = step


def validate_path(
    board: Board,
    start: Hex,
    path: Sequence[Hex],
    *,
    allies: Collection[Hex] = (),
    enemies: Collection[Hex] = (),
    legs_destroyed: bool = False,
    require_sight: bool = True,
    ignore_terrain: bool = False,
) -> int:
    """The SP cost of one move action along `path` (R-MOV-3), or RuleViolation naming the fault.

    `path` excludes `start` and ends at the destination. Codes: `empty_path`,
    `off_board`, `not_adjacent`, `impassable`, `enemy_in_path` (R-MOV-2),
    `occupied_destination` (R-MOV-2), `returns_to_start` (R-MOV-3) and
    `destination_not_in_sight` (R-LOS-5). The SP budget is the caller's to check.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3}})
    >>> validate_path(b, Hex(0, 0), [Hex(0, -1), Hex(0, -2)], allies=[Hex(0, -1)])
    2
    >>> validate_path(b, Hex(0, 0), [Hex(0, -1)], allies=[Hex(0, -1)])
    Traceback (most recent call last):
    ...
    battles.engine.errors.RuleViolation: A casket may pass through an ally at [0, -1] but not end its move there (R-MOV-2)
    """
    enemy_set = frozenset(enemies) - {start}
    total = 0
    for here, step, where in _steps(board, start, path):
        kind = board.terrain_at(step)
        if kind.impassable:
            raise RuleViolation(
                "impassable", f"{where} enters impassable terrain ({kind.name})", "R-MOV-2"
            )
        if step in enemy_set:
            raise RuleViolation("enemy_in_path", f"{where} enters an enemy casket's hex", "R-MOV-2")
        cost = step_cost(
            board, here, step, legs_destroyed=legs_destroyed, ignore_terrain=ignore_terrain
        )
        assert cost is not None  # every None case was refused above
        total += cost
    destination = path[-1]
    dest = f"[{destination.q}, {destination.r}]"
    if destination == start:
        # ADDENDUM: a move action must end on a hex other than its start, so validate_path
        # agrees with `reachable`, which never lists the start hex (R-MOV-3).
        raise RuleViolation(
            "returns_to_start", f"The move ends where it started, at {dest}", "R-MOV-3"
        )
    if destination in allies:
        raise RuleViolation(
            "occupied_destination",
            f"A casket may pass through an ally at {dest} but not end its move there",
            "R-MOV-2",
        )
    if require_sight and not has_line_of_sight(board, start, destination):
        raise RuleViolation(
            "destination_not_in_sight",
            f"The destination {dest} is not in line of sight from [{start.q}, {start.r}];"
            " to go round a corner, make two move actions",
            "R-LOS-5",
        )
    return total


# --- forced movement, teleports and moves ignoring terrain (R-ADD-100 onwards) -----------------


def push_direction(source: Hex, target: Hex) -> int:
    """The hex direction (R-BRD-2) of a push from `source` on `target` (R-ADD-100): the one
    nearest the line from `source` to `target`. Cube coordinates are the hex plane scaled,
    so the nearest direction is the one with the largest cube dot product, exactly; on a
    30° diagonal two tie and the lower direction number is taken.

    >>> push_direction(Hex(0, 0), Hex(0, -2)), push_direction(Hex(0, 0), Hex(1, 1))
    (1, 3)
    >>> push_direction(Hex(0, 0), Hex(1, -2))  # N and NE tie: N
    1
    """
    dq, dr = target.q - source.q, target.r - source.r
    if dq == dr == 0:
        raise InvalidInput("target", "a casket does not push itself", "R-ADD-100")

    def dot(direction: int) -> int:
        uq, ur = DIRECTION_VECTORS[direction]
        return dq * uq + dr * ur + (dq + dr) * (uq + ur)

    return max(DIRECTION_VECTORS, key=lambda d: (dot(d), -d))


def forced_path(
    board: Board,
    source: Hex,
    target: Hex,
    hexes: int,
    *,
    toward: bool = False,
    occupied: Collection[Hex] = (),
) -> tuple[Hex, ...]:
    """The hexes a casket on `target` is pushed through by one on `source` (R-ADD-100):
    up to `hexes` steps in one direction, straight away from `source` (`toward`: the
    opposite direction, a pull), each step one hex farther from (nearer to) `source`. It
    stops before the first hex off the board, impassable or `occupied` by a casket, and a
    pull stops when a step would come no nearer. Terrain costs and levels do not matter.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3},
    ...                  "hexes": [{"q": 0, "r": -3, "terrain": "wall"}]})
    >>> forced_path(b, Hex(0, 0), Hex(0, -1), 2)
    (Hex(q=0, r=-2),)
    >>> forced_path(b, Hex(0, 0), Hex(2, -1), 3, toward=True)
    (Hex(q=1, r=0),)
    >>> forced_path(b, Hex(0, 0), Hex(1, 0), 2, occupied=[Hex(2, 0)])
    ()
    """
    direction = push_direction(source, target)
    if toward:
        direction = (direction + 2) % 6 + 1
    sign = -1 if toward else 1
    blocked = frozenset(occupied)
    path: list[Hex] = []
    here = target
    for _ in range(hexes):
        step = here.neighbour(direction)
        if (
            step not in board
            or board.terrain_at(step).impassable
            or step in blocked
            or step == source
            or step.distance(source) != here.distance(source) + sign
        ):
            break
        path.append(step)
        here = step
    return tuple(path)


def teleport_problem(
    board: Board,
    start: Hex,
    destination: Hex,
    hexes: int,
    *,
    occupied: Collection[Hex] = (),
    near_terrain: bool = False,
    onto: str = "",
) -> RuleViolation | None:
    """Why a teleport from `start` may not end on `destination`, or None (R-ADD-102): it
    must be a hex of the board within `hexes`, not the start, not impassable, not
    `occupied`; `near_terrain`: the hex or one next to it holds terrain other than clear;
    `onto`: the hex holds terrain of that kind ("to any Lava Terrain hex", R-ADD-293).

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3},
    ...                  "hexes": [{"q": 0, "r": -3, "terrain": "forest"}]})
    >>> teleport_problem(b, Hex(0, 0), Hex(0, -2), 2, near_terrain=True) is None
    True
    >>> teleport_problem(b, Hex(0, 0), Hex(2, 0), 2, near_terrain=True).code
    'not_near_terrain'
    >>> teleport_problem(b, Hex(0, 0), Hex(0, -3), 2).code
    'too_far'
    >>> teleport_problem(b, Hex(0, 0), Hex(0, -2), 3, onto="forest").code
    'not_onto_terrain'
    >>> teleport_problem(b, Hex(0, 0), Hex(0, -3), 3, onto="forest") is None
    True
    """
    where = f"[{destination.q}, {destination.r}]"
    if destination not in board:
        return RuleViolation("off_board", f"{where} is not on the board", "R-ADD-102")
    distance = start.distance(destination)
    if distance == 0:
        return RuleViolation("returns_to_start", "a teleport goes somewhere", "R-ADD-102")
    if distance > hexes:
        return RuleViolation(
            "too_far", f"{where} is {distance} hexes away; at most {hexes}", "R-ADD-102"
        )
    if board.terrain_at(destination).impassable:
        kind = board.terrain_at(destination).name
        return RuleViolation("impassable", f"{where} is impassable ({kind})", "R-ADD-102")
    if destination in occupied:
        return RuleViolation("occupied_destination", f"a casket stands on {where}", "R-ADD-102")
    if near_terrain and all(
        board.terrain_at(h).name == "clear"
        for h in (destination, *destination.neighbours())
        if h in board
    ):
        return RuleViolation(
            "not_near_terrain", f"{where} is neither in nor next to terrain", "R-ADD-102"
        )
    if onto and board.terrain_at(destination).name != onto:
        return RuleViolation(
            "not_onto_terrain",
            f"{where} is {board.terrain_at(destination).name}, not {onto}",
            "R-ADD-293",
        )
    return None


def validate_free_path(
    board: Board,
    start: Hex,
    path: Sequence[Hex],
    *,
    allies: Collection[Hex] = (),
    enemies: Collection[Hex] = (),
    through_enemies: bool = False,
) -> None:
    """A move that ignores terrain (R-ADD-103): adjacent steps over any hex of the board,
    whatever its terrain, no sight needed; never into an enemy's hex unless
    `through_enemies`; it ends on a hex a casket may stand on: not impassable, not
    occupied, not the start. RuleViolation names the fault.

    >>> from battles.engine.board import parse_board
    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 3},
    ...                  "hexes": [{"q": 0, "r": -1, "terrain": "wall"}]})
    >>> validate_free_path(b, Hex(0, 0), [Hex(0, -1), Hex(0, -2)])
    >>> validate_free_path(b, Hex(0, 0), [Hex(0, -1)])
    Traceback (most recent call last):
    ...
    battles.engine.errors.RuleViolation: the move cannot end on impassable terrain (wall) at [0, -1] (R-ADD-103)
    """
    enemy_set = frozenset(enemies) - {start}
    here = start
    for _, step, where in _steps(board, start, path):
        if step in enemy_set and not through_enemies:
            raise RuleViolation("enemy_in_path", f"{where} enters an enemy casket's hex", "R-MOV-2")
        here = step
    dest = f"[{here.q}, {here.r}]"
    if here == start:
        raise RuleViolation(
            "returns_to_start", f"The move ends where it started, at {dest}", "R-MOV-3"
        )
    if board.terrain_at(here).impassable:
        kind = board.terrain_at(here).name
        raise RuleViolation(
            "impassable",
            f"the move cannot end on impassable terrain ({kind}) at {dest}",
            "R-ADD-103",
        )
    if here in allies or here in enemy_set:
        raise RuleViolation("occupied_destination", f"a casket stands on {dest}", "R-MOV-2")
