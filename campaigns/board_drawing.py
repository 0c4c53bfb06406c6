"""A board drawn for the campaign pages (issue 14): the mission wizard's deployment board and
the board editor. Geometry comes from `battles.board_svg` (the battle viewer's), terrain and
levels from the engine's parsed `Board`; nothing here decides a rule.

Every hex is drawn with `data-hex="q,r"` and a text label; the pages make hexes focusable
buttons (campaigns/static/campaigns/hexpick.js puts a clicked hex into the form).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import battles.board_svg as board_svg
from battles.engine.board import Board
from battles.engine.hexes import DIRECTION_NAMES

# A hex is SIZE·√3 ≈ 52 SVG units across its flats; drawn at this many px per unit at
# least, every hex is a touch target of 44 px or more (WCAG 2.5.5).
MIN_PX_PER_UNIT = 44 / (board_svg.SIZE * math.sqrt(3))


@dataclass(frozen=True)
class Mark:
    """Something standing on a hex: a deployed casket (with its facing) or a line-of-sight
    end. `text` is drawn in the hex; `label` is added to the hex's accessible name."""

    q: int
    r: int
    text: str
    label: str
    facing: int | None = None
    kind: str = "seat"


def seat_mark(index: int, name: str, q: int, r: int, facing: int | None) -> Mark:
    """A deployed pilot: their seat number and initial, and the facing named (R-BRD-2)."""
    turned = f", facing {DIRECTION_NAMES[facing]}" if facing in DIRECTION_NAMES else ""
    return Mark(q, r, f"{index}{name[:1]}", f"seat {index}: {name}{turned}", facing)


def drawing(
    board: Board,
    marks: Iterable[Mark] = (),
    line: tuple[tuple[int, int], tuple[int, int], bool] | None = None,
) -> dict[str, Any]:
    """The template's data: cells with labels (and what stands on each), marks with their
    facing line, an optional line between two hexes (`clear` or not), the view box, the
    minimum width in px that keeps hexes 44 px across, and the terrain legend."""
    marks = list(marks)
    on: dict[tuple[int, int], list[Mark]] = {}
    for m in marks:
        on.setdefault((m.q, m.r), []).append(m)
    cells = board_svg.hex_cells(
        ((h.q, h.r) for h in board.cells),
        {(h.q, h.r): kind.name for h, kind in board.terrain.items()},
        {(h.q, h.r): level for h, level in board.levels.items()},
    )
    for c in cells:
        # A terrain kind in words ("dense forest"), not its key.
        c["label"] = c["label"].replace("_", " ")
        q, r = (int(v) for v in c["key"].split(","))
        here = on.get((q, r), [])
        if here:
            c["label"] += "; " + "; ".join(m.label for m in here)
        c["marked"] = bool(here)
    drawn = []
    for m in marks:
        x, y = board_svg.centre(m.q, m.r)
        tip = None
        if m.facing in board_svg.FACING_DEGREES:
            angle = math.radians(board_svg.FACING_DEGREES[m.facing])
            tip = (round(x + board_svg.SIZE * 0.85 * math.cos(angle), 1),
                   round(y + board_svg.SIZE * 0.85 * math.sin(angle), 1))  # fmt: skip
        drawn.append({"mark": m, "x": round(x, 1), "y": round(y, 1), "tip": tip})
    box = board_svg.view_box(cells)
    width = float(box.split()[2])
    out: dict[str, Any] = {
        "cells": cells,
        "marks": drawn,
        "view_box": box,
        "min_width": math.ceil(width * MIN_PX_PER_UNIT),
        "legend": board_svg.legend(board.kinds, cells),
        "line": None,
    }
    if line is not None:
        (q1, r1), (q2, r2), clear = line
        x1, y1 = board_svg.centre(q1, r1)
        x2, y2 = board_svg.centre(q2, r2)
        out["line"] = {"x1": x1, "y1": y1, "x2": x2, "y2": y2, "clear": clear}
    return out


def kind_traits(kind: Any) -> str:
    return board_svg.kind_traits(kind)
