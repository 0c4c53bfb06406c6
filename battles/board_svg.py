"""The battle board drawn as SVG data for the replay page: flat-top hexes (R-BRD-1/2).

Pure geometry for the template: where each hex and each casket goes, their labels, and
nothing of the rules (the engine's state is the only source of positions and facings).

>>> cells = hex_cells([(0, 0), (1, 0)], {}, {})
>>> [c["key"] for c in cells], cells[1]["x"]
(['0,0', '1,0'], 45.0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from battles.engine.hexes import DIRECTION_NAMES

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


def hex_points(q: int, r: int) -> str:
    """The SVG polygon points of hex (q, r)."""
    return _corners(*centre(q, r))


def hex_cells(
    cells: Iterable[tuple[int, int]], terrain: Mapping[tuple[int, int], str],
    levels: Mapping[tuple[int, int], int], placed: Mapping[tuple[int, int], str] | None = None,
) -> list[dict[str, Any]]:  # fmt: skip
    """`placed`: terrain a card made during the battle (R-ADD-160), as the words drawn on
    its hex ("smoke, to round 2"), so that it is told apart from the board's own.

    >>> cell = hex_cells([(0, 0)], {(0, 0): "smoke"}, {}, {(0, 0): "smoke, to round 2"})[0]
    >>> cell["placed"], cell["label"]
    ('smoke, to round 2', 'hex 0,0: smoke (made by a card: smoke, to round 2)')
    """
    out = []
    for q, r in sorted(cells):
        x, y = centre(q, r)
        kind = terrain.get((q, r), "clear")
        level = levels.get((q, r), 0)
        made = (placed or {}).get((q, r), "")
        label = f"hex {q},{r}: {kind.replace('_', ' ')}" + (f", level {level}" if level else "")
        label += f" (made by a card: {made})" if made else ""
        out.append(
            {"key": f"{q},{r}", "x": round(x, 1), "y": round(y, 1), "points": _corners(x, y),
             "terrain": kind, "level": level, "label": label, "placed": made,
             "placed_y": round(y + SIZE * 0.55, 1)}
        )  # fmt: skip
    return out


def cells_markup(cells: Iterable[Mapping[str, Any]]) -> SafeString:
    """The board's hexes as SVG groups, from `hex_cells`: what the play page's frame drew
    with a template loop, written here because that loop was a third of the frame's
    rendering (127 hexes, eight values each, bench/live_server_cost.py), on every step
    and for every open page. A level's label sits 14 units above the centre, the centre's
    y cut to a whole number as the template's `add` filter did.

    >>> print(cells_markup(hex_cells([(0, 0)], {(0, 0): "forest"}, {(0, 0): 1})))
    <g class="hex terrain-forest level-1" data-hex="0,0" aria-label="hex 0,0: forest, level 1">
      <title>hex 0,0: forest, level 1</title>
      <polygon class="ground" points="30.0,0.0 15.0,26.0 -15.0,26.0 -30.0,0.0 -15.0,-26.0 15.0,-26.0"/>
      <polygon class="texture" points="30.0,0.0 15.0,26.0 -15.0,26.0 -30.0,0.0 -15.0,-26.0 15.0,-26.0" fill="url(#dots)"/>
      <text x="0.0" y="-14" class="level">L1</text>
    </g>
    """
    out = []
    for h in cells:
        terrain, points, label = escape(h["terrain"]), escape(h["points"]), escape(h["label"])
        lines = [
            f'<g class="hex terrain-{terrain} level-{h["level"]}" data-hex="{escape(h["key"])}"'
            f' aria-label="{label}">',
            f"  <title>{label}</title>",
            f'  <polygon class="ground" points="{points}"/>',
        ]
        if h["terrain"] in ("forest", "dense_forest"):
            lines.append(f'  <polygon class="texture" points="{points}" fill="url(#dots)"/>')
        elif h["terrain"] != "clear":
            lines.append(f'  <polygon class="texture" points="{points}" fill="url(#hatch)"/>')
        if h["level"]:
            y = int(h["y"]) - 14
            lines.append(f'  <text x="{h["x"]}" y="{y}" class="level">L{h["level"]}</text>')
        if h["placed"]:
            lines.append(
                f'  <text x="{h["x"]}" y="{h["placed_y"]}" class="placed" text-anchor="middle"'
                f' font-size="7">{escape(h["placed"])}</text>'
            )
        lines.append("</g>")
        out.append("\n".join(lines))
    return mark_safe("\n".join(out))  # noqa: S308 - every text in it escaped above


def tokens(
    seats: Iterable[Mapping[str, Any]], side_names: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """A token per casket still on the board: its facing line's tip, its shield side's arc
    and a label that says everything the drawing shows; the side by its name for people
    (`side_names`), else by its key.

    >>> t = tokens([{"seat": 0, "at": [0, 0], "facing": 1, "name": "Scout", "side": "a",
    ...              "defeated": False, "hp": 20, "shield": "left", "destroyed": ["legs"]}])[0]
    >>> t["label"]
    'seat 0: Scout (a, token S0) at 0,0, facing N, shield left, in battle, 20 HP, destroyed: legs'
    >>> tokens([{"seat": 1, "at": [1, 0], "facing": 1, "name": "B", "side": "b", "defeated": False,
    ...          "hp": 3, "destroyed": ["left_arm"]}])[0]["label"].endswith("destroyed: left arm")
    True
    >>> t["shield_path"].startswith("M ")
    True
    """
    seats = list(seats)
    sides = list(dict.fromkeys(c["side"] for c in seats))  # colour by side, in seat order
    out = []
    for c in seats:
        if c.get("withdrawn"):
            continue
        q, r = c["at"]
        x, y = centre(q, r)
        facing = FACING_DEGREES[c["facing"]]
        angle = math.radians(facing)
        state = "defeated" if c["defeated"] else "in battle"
        # Components in words ("left arm"), as the log names them.
        destroyed = ", ".join(str(k).replace("_", " ") for k in c.get("destroyed") or ())
        damaged = f", destroyed: {destroyed}" if destroyed else ""
        shield = c.get("shield", "none")
        out.append(
            {
                "seat": c["seat"],
                "x": round(x, 1),
                "y": round(y, 1),
                "tip_x": round(x + SIZE * 0.85 * math.cos(angle), 1),
                "tip_y": round(y + SIZE * 0.85 * math.sin(angle), 1),
                "shield_path": _shield_arc(x, y, facing, shield),
                "mark_x": round(x + 15, 1),
                "mark_y": round(y - 15, 1),
                "initial": c["name"][:1],
                "side_index": sides.index(c["side"]),
                "defeated": c["defeated"],
                "damaged": bool(c.get("destroyed")),
                "name": c["name"],
                "side_name": (side_names or {}).get(c["side"], c["side"]),
                # The label holds the token's visible text ("P0", "B1✕") too (WCAG 2.5.3).
                "label": f"seat {c['seat']}: {c['name']} "
                f"({(side_names or {}).get(c['side'], c['side'])}, token {c['name'][:1]}"
                f"{c['seat']}{'✕' if c['defeated'] else ''}) at {q},{r}, "
                f"facing {DIRECTION_NAMES[c['facing']]}, shield {shield}, {state}, {c['hp']} HP{damaged}",
            }
        )
    return out


def unit_tokens(
    units: Iterable[Mapping[str, Any]],
    seats: Sequence[Mapping[str, Any]],
) -> list[dict[str, Any]]:
    """A token per summoned unit on the board (R-ADD-400): drawn on its hex in its owner's
    side colour, its id as its visible text and a label that says everything about it.

    >>> u = unit_tokens([{"id": "u1", "owner": 0, "name": "Mercenary", "q": 1, "r": 0, "hp": 8,
    ...                   "movement": 3, "damage": 3, "defence": 0}],
    ...                 [{"seat": 0, "name": "Scout", "side": "a"}])[0]
    >>> u["key"], u["text"]
    ('1,0', 'u1')
    >>> u["label"]
    'unit u1: Mercenary of Scout (seat 0) at 1,0, 8 HP, moves 3, 3 melee damage, Defense 0'
    """
    sides = list(dict.fromkeys(c["side"] for c in seats))
    out = []
    for u in units:
        owner = seats[u["owner"]]
        x, y = centre(u["q"], u["r"])
        out.append(
            {
                "id": u["id"],
                "key": f"{u['q']},{u['r']}",
                "x": round(x, 1),
                "y": round(y, 1),
                "rect_x": round(x - 11, 1),
                "rect_y": round(y - 9, 1),
                "side_index": sides.index(owner["side"]),
                "text": u["id"],
                "label": f"unit {u['id']}: {u['name']} of {owner['name']} (seat {u['owner']}) "
                f"at {u['q']},{u['r']}, {u['hp']} HP, moves {u['movement']}, "
                f"{u['damage']} melee damage, Defense {u['defence']}",
            }
        )
    return out


def _shield_arc(x: float, y: float, facing: float, shield: str) -> str | None:
    """A thick arc on the token's shield side: 90° to the left or right of its facing."""
    if shield not in ("left", "right"):
        return None
    middle = facing + (-90.0 if shield == "left" else 90.0)
    radius = 21.0
    a, b = math.radians(middle - 40), math.radians(middle + 40)
    return (
        f"M {x + radius * math.cos(a):.1f} {y + radius * math.sin(a):.1f} "
        f"A {radius} {radius} 0 0 1 {x + radius * math.cos(b):.1f} {y + radius * math.sin(b):.1f}"
    )


def kind_traits(kind: Any) -> str:
    """What an engine `TerrainKind` does (R-BRD-3), in words: "blocks sight, impassable"."""
    traits = []
    if kind.blocks_los:
        traits.append("blocks sight")
    if kind.impassable:
        traits.append("impassable")
    elif kind.move_cost != 1:
        traits.append(f"{kind.move_cost} SP to enter")
    if kind.cover != "none":
        traits.append(f"{kind.cover} cover")
    if kind.heat_end_of_turn:
        h = kind.heat_end_of_turn
        traits.append(f"{'+' if h > 0 else '−'}{abs(h)} Heat at turn end")
    return ", ".join(traits) or "open ground"


def legend(kinds: Mapping[str, Any], cells: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """A key entry per terrain kind drawn: what the engine's kind does (R-BRD-3), in words.
    `kinds` are the board's `TerrainKind`s by name (the engine's, read, never re-decided)."""
    out = []
    for name in sorted({c["terrain"] for c in cells}):
        kind = kinds.get(name)
        traits = kind_traits(kind) if kind is not None else "open ground"
        out.append({"terrain": name, "name": name.replace("_", " "), "traits": traits})
    return out


def view_box(cells: list[dict[str, Any]]) -> str:
    xs = [c["x"] for c in cells]
    ys = [c["y"] for c in cells]
    pad = SIZE * 1.2
    return (
        f"{min(xs) - pad:.0f} {min(ys) - pad:.0f} "
        f"{max(xs) - min(xs) + 2 * pad:.0f} {max(ys) - min(ys) + 2 * pad:.0f}"
    )
