"""Board builders shared by the engine tests."""

from __future__ import annotations

from typing import Any

from battles.engine.board import Board, parse_board


def board(radius: int = 8, shape: dict[str, Any] | None = None, **cells: Any) -> Board:
    """A board; keyword `t_<q>_<r>` sets terrain and `l_<q>_<r>` a level (minus as m)."""
    entries: dict[tuple[int, int], dict[str, Any]] = {}
    for key, value in cells.items():
        kind, q, r = key.split("_")
        h = (int(q.replace("m", "-")), int(r.replace("m", "-")))
        entry = entries.setdefault(h, {"q": h[0], "r": h[1]})
        entry["terrain" if kind == "t" else "level"] = value
    return parse_board(
        {"shape": shape or {"kind": "hexagon", "radius": radius}, "hexes": list(entries.values())}
    )
