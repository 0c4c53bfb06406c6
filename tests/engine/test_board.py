"""The board document of FORMATS.md: shapes, terrain kinds as data (R-BRD-3), levels (R-BRD-4),
and errors that name the offending entry."""

from __future__ import annotations

from typing import Any

import pytest

from battles.engine.board import DEFAULT_TERRAIN, MAX_BOARD_HEXES, parse_board, shape_cells
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex


def board(**extra: Any) -> dict[str, Any]:
    return {"shape": {"kind": "hexagon", "radius": 3}, **extra}


def error_field(doc: Any) -> str:
    with pytest.raises(InvalidInput) as err:
        parse_board(doc)
    return err.value.field


def test_default_terrain_table_r_brd_3() -> None:
    table = {
        name: (k.blocks_los, k.move_cost, k.impassable, k.cover, k.heat_end_of_turn)
        for name, k in DEFAULT_TERRAIN.items()
    }
    assert table == {
        "clear": (False, 1, False, "none", 0),
        "forest": (False, 2, False, "light", 0),
        "dense_forest": (True, 2, False, "heavy", 0),
        "rubble": (False, 2, False, "light", 0),
        "fortification": (False, 2, False, "heavy", 0),
        "wall": (True, 1, True, "none", 0),
        "building": (True, 1, True, "none", 0),
        "cliff": (True, 1, True, "none", 0),
        "water": (False, 1, False, "none", -2),
    }


def test_rectangle_uses_odd_q_offset_formats() -> None:
    """FORMATS.md: column c, row w is axial q = c, r = w - (c - (c & 1)) / 2."""
    cells = shape_cells({"kind": "rectangle", "width": 4, "height": 3})
    assert len(cells) == 12
    assert Hex(3, -1) in cells and Hex(2, -1) in cells and Hex(2, 2) not in cells
    assert Hex(3, 1) in cells and Hex(3, 2) not in cells


def test_unlisted_hexes_are_clear_level_0() -> None:
    b = parse_board(board(hexes=[{"q": 1, "r": 0, "terrain": "rubble", "level": 1}]))
    assert b.terrain_at(Hex(0, 0)).name == "clear" and b.level_at(Hex(0, 0)) == 0
    assert b.terrain_at(Hex(1, 0)).name == "rubble" and b.level_at(Hex(1, 0)) == 1


def test_level_is_separate_from_terrain_r_brd_4() -> None:
    b = parse_board(board(hexes=[{"q": 1, "r": 0, "level": 2}]))
    assert b.level_at(Hex(1, 0)) == 2 and not b.blocks_los(Hex(1, 0))


def test_board_may_add_a_terrain_kind_r_brd_3() -> None:
    """FORMATS.md's bog: its own move cost, cover and heat; missing properties fall back to clear."""
    b = parse_board(
        board(
            terrain_kinds={"bog": {"move_cost": 2, "heat_end_of_turn": -1}},
            hexes=[{"q": 0, "r": 1, "terrain": "bog"}],
        )
    )
    bog = b.terrain_at(Hex(0, 1))
    assert (bog.move_cost, bog.heat_end_of_turn, bog.blocks_los, bog.cover) == (
        2,
        -1,
        False,
        "none",
    )


def test_board_may_override_a_default_kind_r_brd_3() -> None:
    """The game's repository: forest that blocks LOS; water that removes 1 Heat."""
    b = parse_board(
        board(
            terrain_kinds={"forest": {"blocks_los": True}, "water": {"heat_end_of_turn": -1}},
            hexes=[{"q": 0, "r": 1, "terrain": "forest"}, {"q": 1, "r": 1, "terrain": "water"}],
        )
    )
    assert b.blocks_los(Hex(0, 1)) and b.terrain_at(Hex(0, 1)).cover == "light"
    assert b.terrain_at(Hex(1, 1)).heat_end_of_turn == -1


def test_overriding_clear_to_block_blocks_unlisted_hexes() -> None:
    b = parse_board(board(terrain_kinds={"clear": {"blocks_los": True}}))
    assert b.blocks_los(Hex(0, 0)) and b.blocks_los(Hex(2, -1))


def test_to_document_round_trips() -> None:
    doc = board(
        name="Proving Grounds",
        terrain_kinds={"bog": {"move_cost": 3}},
        hexes=[{"q": 1, "r": 0, "terrain": "bog", "level": 1}, {"q": 0, "r": 2, "terrain": "wall"}],
    )
    b = parse_board(doc)
    again = parse_board(b.to_document())
    assert (again.terrain, again.levels, again.kinds, again.cells) == (
        b.terrain,
        b.levels,
        b.kinds,
        b.cells,
    )


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ([], "board"),
        ({}, "board.shape"),
        ({"shape": {"kind": "hexagon"}}, "board.shape.radius"),
        ({"shape": {"kind": "hexagon", "radius": -1}}, "board.shape.radius"),
        ({"shape": {"kind": "hexagon", "radius": 2.5}}, "board.shape.radius"),
        ({"shape": {"kind": "hexagon", "radius": 200}}, "board.shape.radius"),
        ({"shape": {"kind": "rectangle", "width": 3}}, "board.shape.height"),
        ({"shape": {"kind": "rectangle", "width": 3, "height": 0}}, "board.shape.height"),
        ({"shape": {"kind": "triangle"}}, "board.shape.kind"),
        ({"shape": {"kind": "hexagon", "radius": 2, "colour": "red"}}, "board.shape.colour"),
        (board(size=3), "board.size"),
        (board(hexes={"q": 0}), "board.hexes"),
        (board(hexes=[{"q": 0}]), "board.hexes[0].r"),
        (board(hexes=[{"q": 0, "r": "1"}]), "board.hexes[0].r"),
        (board(hexes=[{"q": 9, "r": 0}]), "board.hexes[0]"),
        (board(hexes=[{"q": 0, "r": 0}, {"q": 0, "r": 0, "terrain": "wall"}]), "board.hexes[1]"),
        (board(hexes=[{"q": 0, "r": 0, "terrain": "lava"}]), "board.hexes[0].terrain"),
        (board(hexes=[{"q": 0, "r": 0, "level": 3}]), "board.hexes[0].level"),
        (board(hexes=[{"q": 0, "r": 0, "height": 1}]), "board.hexes[0].height"),
        (board(terrain_kinds={"bog": {"cover": "total"}}), "board.terrain_kinds.bog.cover"),
        (board(terrain_kinds={"bog": {"move_cost": 0}}), "board.terrain_kinds.bog.move_cost"),
        (board(terrain_kinds={"bog": {"blocks_los": 1}}), "board.terrain_kinds.bog.blocks_los"),
        (board(terrain_kinds={"bog": {"slippery": True}}), "board.terrain_kinds.bog.slippery"),
        (board(terrain_kinds={"two words": {}}), "board.terrain_kinds.two words"),
    ],
)
def test_errors_name_the_offending_entry(doc: Any, field: str) -> None:
    assert error_field(doc) == field


def test_size_limit_is_documented_and_enforced() -> None:
    assert MAX_BOARD_HEXES == 10_000
    with pytest.raises(InvalidInput, match="at most 10000 hexes"):
        parse_board({"shape": {"kind": "rectangle", "width": 101, "height": 100}})
