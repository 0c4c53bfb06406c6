"""Boards: the board document of FORMATS.md parsed into an immutable `Board`.

Terrain kinds are data (R-BRD-3); elevation is a per-hex level 0–2 separate
from terrain (R-BRD-4). Every parse error names the offending entry as a
dotted path, so an API can answer a 400 that points at it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import InvalidInput
from .hexes import Hex, spiral

COVER_VALUES: dict[str, int] = {"none": 0, "light": 1, "heavy": 2}  # R-COV-2
MAX_LEVEL = 2  # R-BRD-4
# Documented limits so that no request can make the engine hang: at most 10,000
# hexes (a radius-57 hexagon; a radius-30 board is 2,791, a real table far less)
# and no rectangle side over 120, because the cost of a whole visibility map
# grows with the board's longest line as well as its area.
MAX_BOARD_HEXES = 10_000
MAX_BOARD_SIDE = 120
MAX_NAME_LENGTH = 200


@dataclass(frozen=True, slots=True)
class TerrainKind:
    """One kind of terrain and its five properties (R-BRD-3).

    >>> DEFAULT_TERRAIN["forest"].cover
    'light'
    """

    name: str
    blocks_los: bool = False
    move_cost: int = 1
    impassable: bool = False
    cover: str = "none"
    heat_end_of_turn: int = 0

    @property
    def cover_value(self) -> int:
        return COVER_VALUES[self.cover]

    def as_dict(self) -> dict[str, Any]:
        return {
            "blocks_los": self.blocks_los,
            "move_cost": self.move_cost,
            "impassable": self.impassable,
            "cover": self.cover,
            "heat_end_of_turn": self.heat_end_of_turn,
        }


# R-BRD-3 defaults. Impassable kinds keep move_cost 1 so that a board which
# overrides `impassable: false` on them gets an ordinary hex, not a free one.
DEFAULT_TERRAIN: Mapping[str, TerrainKind] = {
    k.name: k
    for k in (
        TerrainKind("clear"),
        TerrainKind("forest", move_cost=2, cover="light"),
        TerrainKind("dense_forest", blocks_los=True, move_cost=2, cover="heavy"),
        TerrainKind("rubble", move_cost=2, cover="light"),
        TerrainKind("fortification", move_cost=2, cover="heavy"),
        TerrainKind("wall", blocks_los=True, impassable=True),
        TerrainKind("building", blocks_los=True, impassable=True),
        TerrainKind("cliff", blocks_los=True, impassable=True),
        TerrainKind("water", heat_end_of_turn=-2),
    )
}
# Terrain made in battle: the kinds cards make during a battle (R-ADD-160). They are not
# board kinds: a board document names them only if its `terrain_kinds` defines them,
# and then its own definition wins.
BATTLE_TERRAIN: Mapping[str, TerrainKind] = {
    k.name: k
    for k in (
        TerrainKind("smoke", blocks_los=True, cover="heavy"),
        TerrainKind("lava", move_cost=2, heat_end_of_turn=2),
        TerrainKind("ice", move_cost=2),
        TerrainKind("difficult", move_cost=2),
        # What these do depends on the side of the casket that made them (R-ADD-163),
        # which a kind cannot say: the engine reads it from the placed terrain.
        TerrainKind("holy"),
        TerrainKind("distortion"),
        TerrainKind("sanctuary"),
        # Open ground that hurts the maker's enemies entering it (R-ADD-165).
        TerrainKind("electric_field"),
        TerrainKind("mine"),
        # A wall of fire: no step enters it, sight passes over it; what crosses it burns.
        TerrainKind("fire_wall", impassable=True),
        # Walls with hit points (R-ADD-382): ice blocks movement and sight, vines movement only.
        TerrainKind("ice_wall", impassable=True, blocks_los=True),
        TerrainKind("vine_wall", impassable=True),
    )
}
_TERRAIN_PROPERTIES = ("blocks_los", "move_cost", "impassable", "cover", "heat_end_of_turn")


@dataclass(frozen=True, slots=True)
class Board:
    """An immutable board: its hexes, their terrain and levels, and the terrain kinds in force.

    Only hexes that differ from clear level 0 are stored; lookups fall back to clear, 0.

    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 2},
    ...                  "hexes": [{"q": 1, "r": 0, "terrain": "wall"}]})
    >>> b.terrain_at(Hex(1, 0)).blocks_los, b.level_at(Hex(1, 0)), Hex(3, 0) in b
    (True, 0, False)
    """

    name: str
    shape: Mapping[str, Any]
    cells: frozenset[Hex]
    kinds: Mapping[str, TerrainKind]
    terrain: Mapping[Hex, TerrainKind] = field(default_factory=dict)
    levels: Mapping[Hex, int] = field(default_factory=dict)
    # Precomputed for the LOS hot path.
    blocking: frozenset[Hex] = frozenset()

    def __contains__(self, h: object) -> bool:
        return h in self.cells

    def __len__(self) -> int:
        return len(self.cells)

    def terrain_at(self, h: Hex) -> TerrainKind:
        return self.terrain.get(h) or self.kinds["clear"]

    def level_at(self, h: Hex) -> int:
        return self.levels.get(h, 0)

    def blocks_los(self, h: Hex) -> bool:
        return h in self.blocking

    def to_document(self) -> dict[str, Any]:
        """The board document this board was parsed from, normalised (FORMATS.md)."""
        overridden = {
            name: kind.as_dict()
            for name, kind in self.kinds.items()
            if DEFAULT_TERRAIN.get(name) != kind
        }
        hexes: list[dict[str, Any]] = []
        for h in sorted(set(self.terrain) | set(self.levels)):
            entry: dict[str, Any] = {"q": h.q, "r": h.r, "terrain": self.terrain_at(h).name}
            if self.level_at(h):
                entry["level"] = self.level_at(h)
            hexes.append(entry)
        doc: dict[str, Any] = {"name": self.name, "shape": dict(self.shape), "hexes": hexes}
        if overridden:
            doc["terrain_kinds"] = overridden
        return doc


def _require_int(value: object, path: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(path, f"must be a whole number, got {type(value).__name__}")
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f"at least {lo}"
        raise InvalidInput(path, f"must be {bounds}, got {value}")
    return value


def _require_mapping(value: object, path: str, allowed: tuple[str, ...]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise InvalidInput(path, f"must be an object, got {type(value).__name__}")
    unknown = sorted(set(value) - set(allowed))
    if unknown:
        raise InvalidInput(
            f"{path}.{unknown[0]}" if path else unknown[0],
            f"unknown field; allowed: {', '.join(allowed)}",
        )
    return value


def shape_cells(shape: object, path: str = "board.shape") -> frozenset[Hex]:
    """The hexes of a shape: a hexagon of radius N or an odd-q rectangle (FORMATS.md).

    >>> len(shape_cells({"kind": "hexagon", "radius": 1}))
    7
    >>> sorted(shape_cells({"kind": "rectangle", "width": 2, "height": 2}))
    [Hex(q=0, r=0), Hex(q=0, r=1), Hex(q=1, r=0), Hex(q=1, r=1)]
    """
    if not isinstance(shape, Mapping):
        raise InvalidInput(path, "must be an object with a 'kind'")
    kind = shape.get("kind")
    if kind == "hexagon":
        _require_mapping(shape, path, ("kind", "radius"))
        if "radius" not in shape:
            raise InvalidInput(f"{path}.radius", "is required for a hexagon")
        radius = _require_int(shape["radius"], f"{path}.radius", 0)
        if 3 * radius * (radius + 1) + 1 > MAX_BOARD_HEXES:
            raise InvalidInput(
                f"{path}.radius", f"a board may have at most {MAX_BOARD_HEXES} hexes"
            )
        return frozenset(spiral(Hex(0, 0), radius))
    if kind == "rectangle":
        _require_mapping(shape, path, ("kind", "width", "height"))
        for key in ("width", "height"):
            if key not in shape:
                raise InvalidInput(f"{path}.{key}", "is required for a rectangle")
        width = _require_int(shape["width"], f"{path}.width", 1, MAX_BOARD_SIDE)
        height = _require_int(shape["height"], f"{path}.height", 1, MAX_BOARD_SIDE)
        if width * height > MAX_BOARD_HEXES:
            raise InvalidInput(path, f"a board may have at most {MAX_BOARD_HEXES} hexes")
        # Odd-q offset: column c, row w is axial q = c, r = w - (c - (c & 1)) / 2.
        return frozenset(
            Hex(c, w - (c - (c & 1)) // 2) for c in range(width) for w in range(height)
        )
    raise InvalidInput(f"{path}.kind", "must be 'hexagon' or 'rectangle'")


def _parse_kind(name: str, spec: object, path: str, base: TerrainKind) -> TerrainKind:
    spec = _require_mapping(spec, path, _TERRAIN_PROPERTIES)
    kind = replace(base, name=name)
    if "blocks_los" in spec:
        if not isinstance(spec["blocks_los"], bool):
            raise InvalidInput(f"{path}.blocks_los", "must be true or false", "R-BRD-3")
        kind = replace(kind, blocks_los=spec["blocks_los"])
    if "impassable" in spec:
        if not isinstance(spec["impassable"], bool):
            raise InvalidInput(f"{path}.impassable", "must be true or false", "R-BRD-3")
        kind = replace(kind, impassable=spec["impassable"])
    if "move_cost" in spec:
        kind = replace(kind, move_cost=_require_int(spec["move_cost"], f"{path}.move_cost", 1, 10))
    if "cover" in spec:
        if spec["cover"] not in COVER_VALUES:
            raise InvalidInput(
                f"{path}.cover", f"must be one of {', '.join(COVER_VALUES)}", "R-COV-2"
            )
        kind = replace(kind, cover=spec["cover"])
    if "heat_end_of_turn" in spec:
        kind = replace(
            kind,
            heat_end_of_turn=_require_int(
                spec["heat_end_of_turn"], f"{path}.heat_end_of_turn", -10, 10
            ),
        )
    return kind


def parse_board(doc: object, path: str = "board") -> Board:
    """Parse and validate a board document (FORMATS.md). Unknown fields are errors.

    >>> parse_board({"shape": {"kind": "hexagon", "radius": 0}}).cells
    frozenset({Hex(q=0, r=0)})
    >>> parse_board({"shape": {"kind": "hexagon", "radius": 1},
    ...              "hexes": [{"q": 5, "r": 0, "terrain": "wall"}]})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: board.hexes[0]: hex [5, 0] is outside the board's shape
    """
    doc = _require_mapping(doc, path, ("name", "shape", "terrain_kinds", "hexes"))
    name = doc.get("name", "")
    if not isinstance(name, str) or len(name) > MAX_NAME_LENGTH:
        raise InvalidInput(
            f"{path}.name", f"must be a string of at most {MAX_NAME_LENGTH} characters"
        )
    if "shape" not in doc:
        raise InvalidInput(f"{path}.shape", "is required")
    cells = shape_cells(doc["shape"], f"{path}.shape")

    kinds: dict[str, TerrainKind] = dict(DEFAULT_TERRAIN)
    raw_kinds = doc.get("terrain_kinds", {})
    if not isinstance(raw_kinds, Mapping):
        raise InvalidInput(f"{path}.terrain_kinds", "must be an object of kind name to properties")
    if len(raw_kinds) > 100:
        raise InvalidInput(f"{path}.terrain_kinds", "at most 100 terrain kinds")
    for kind_name, spec in raw_kinds.items():
        kind_path = f"{path}.terrain_kinds.{kind_name}"
        if not isinstance(kind_name, str) or not kind_name.isidentifier() or len(kind_name) > 50:
            raise InvalidInput(kind_path, "a kind name is a short identifier (letters, digits, _)")
        base = DEFAULT_TERRAIN.get(kind_name, DEFAULT_TERRAIN["clear"])
        kinds[kind_name] = _parse_kind(kind_name, spec, kind_path, base)

    raw_hexes = doc.get("hexes", [])
    if not isinstance(raw_hexes, list):
        raise InvalidInput(f"{path}.hexes", "must be a list")
    if len(raw_hexes) > len(cells):
        raise InvalidInput(
            f"{path}.hexes", f"lists {len(raw_hexes)} hexes; the shape has only {len(cells)}"
        )
    terrain: dict[Hex, TerrainKind] = {}
    levels: dict[Hex, int] = {}
    seen: set[Hex] = set()
    for i, entry in enumerate(raw_hexes):
        entry_path = f"{path}.hexes[{i}]"
        entry = _require_mapping(entry, entry_path, ("q", "r", "terrain", "level"))
        for key in ("q", "r"):
            if key not in entry:
                raise InvalidInput(f"{entry_path}.{key}", "is required")
        h = Hex(
            _require_int(entry["q"], f"{entry_path}.q"), _require_int(entry["r"], f"{entry_path}.r")
        )
        if h not in cells:
            raise InvalidInput(entry_path, f"hex [{h.q}, {h.r}] is outside the board's shape")
        if h in seen:
            raise InvalidInput(entry_path, f"hex [{h.q}, {h.r}] is listed twice")
        seen.add(h)
        kind_name = entry.get("terrain", "clear")
        if not isinstance(kind_name, str) or kind_name not in kinds:
            raise InvalidInput(
                f"{entry_path}.terrain",
                f"unknown terrain kind {kind_name!r}; known: {', '.join(sorted(kinds))}",
                "R-BRD-3",
            )
        if kind_name != "clear":
            terrain[h] = kinds[kind_name]
        level = _require_int(entry.get("level", 0), f"{entry_path}.level", 0, MAX_LEVEL)
        if level:
            levels[h] = level

    if kinds["clear"].blocks_los:
        # An overridden clear that blocks would make every unlisted hex block too.
        blocking = frozenset(h for h in cells if (terrain.get(h) or kinds["clear"]).blocks_los)
    else:
        blocking = frozenset(h for h, k in terrain.items() if k.blocks_los)
    return Board(
        name=name,
        shape=dict(doc["shape"]),
        cells=cells,
        kinds=kinds,
        terrain=terrain,
        levels=levels,
        blocking=blocking,
    )


def with_terrain(board: Board, placed: Mapping[Hex, str]) -> Board:
    """`board` with some hexes' terrain replaced by kinds cards made in the battle
    (R-ADD-160): the board's own kind of that name, else `BATTLE_TERRAIN`'s. The kinds
    used join the board's kinds, so every reader of terrain, cover, movement and LOS
    sees them; the board of the setup is left as it was.

    >>> b = parse_board({"shape": {"kind": "hexagon", "radius": 2}})
    >>> smoky = with_terrain(b, {Hex(1, 0): "smoke"})
    >>> smoky.blocks_los(Hex(1, 0)), smoky.terrain_at(Hex(1, 0)).cover, b.blocks_los(Hex(1, 0))
    (True, 'heavy', False)
    """
    if not placed:
        return board
    kinds = dict(board.kinds)
    terrain = dict(board.terrain)
    for h, name in placed.items():
        kind = kinds.get(name) or BATTLE_TERRAIN[name]
        kinds[name] = kind
        if h in board.cells:
            terrain[h] = kind
    if kinds["clear"].blocks_los:
        blocking = frozenset(
            h for h in board.cells if (terrain.get(h) or kinds["clear"]).blocks_los
        )
    else:
        blocking = frozenset(h for h, k in terrain.items() if k.blocks_los)
    return replace(board, kinds=kinds, terrain=terrain, blocking=blocking)
