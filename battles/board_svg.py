"""The battle board drawn as SVG data for the replay page: flat-top hexes (R-BRD-1/2).

Pure geometry for the template: where each hex and each casket goes, their labels, and
nothing of the rules (the engine's state is the only source of positions and facings).

>>> cells = hex_cells([(0, 0), (1, 0)], {}, {})
>>> [c["key"] for c in cells], cells[1]["x"]
(['0,0', '1,0'], 45.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

SIZE = 30.0  # a hex's outer radius in SVG units
# R-BRD-2: directions 1..6 are N, NE, SE, S, SW, NW; on a flat-top grid N points up.
FACING_DEGREES = {1: -90.0, 2: -30.0, 3: 30.0, 4: 90.0, 5: 150.0, 6: 210.0}


def centre(q: int, r: int) -> tuple[float, float]:
    """The centre of axial hex (q, r) on a flat-top grid (R-BRD-1)."""
    return SIZE * 1.5 * q, SIZE * math.sqrt(3) * (r + q / 2)


def _corners(x: float, y: float) -> str:
    points = (
        (x + SIZE * math.cos(math.radians(60 * i)), y + SIZE * math.sin(math.radians(60 * i)))
        for i in range(6)
    )
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in points)


def hex_cells(
    cells: Iterable[tuple[int, int]], terrain: Mapping[tuple[int, int], str],
    levels: Mapping[tuple[int, int], int],
) -> list[dict[str, Any]]:  # fmt: skip
    out = []
    for q, r in sorted(cells):
        x, y = centre(q, r)
        kind = terrain.get((q, r), "clear")
        level = levels.get((q, r), 0)
        label = f"hex {q},{r}: {kind}" + (f", level {level}" if level else "")
        out.append(
            {"key": f"{q},{r}", "x": round(x, 1), "y": round(y, 1), "points": _corners(x, y),
             "terrain": kind, "level": level, "label": label}
        )  # fmt: skip
    return out


def tokens(seats: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A token per casket still on the board, with its facing arrow's tip."""
    out = []
    for c in seats:
        if c.get("withdrawn"):
            continue
        q, r = c["at"]
        x, y = centre(q, r)
        angle = math.radians(FACING_DEGREES[c["facing"]])
        state = "defeated" if c["defeated"] else "in battle"
        out.append(
            {
                "seat": c["seat"],
                "x": round(x, 1),
                "y": round(y, 1),
                "tip_x": round(x + SIZE * 0.85 * math.cos(angle), 1),
                "tip_y": round(y + SIZE * 0.85 * math.sin(angle), 1),
                "initial": c["name"][:1],
                "side_index": c["seat"] % 2,
                "defeated": c["defeated"],
                "label": f"seat {c['seat']}: {c['name']} ({c['side']}) at {q},{r}, "
                f"facing {c['facing']}, {state}, {c['hp']} HP",
            }
        )
    return out


def view_box(cells: list[dict[str, Any]]) -> str:
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    pad = SIZE * 1.2
    return (
        f"{min(xs) - pad:.0f} {min(ys) - pad:.0f} "
        f"{max(xs) - min(xs) + 2 * pad:.0f} {max(ys) - min(ys) + 2 * pad:.0f}"
    )
