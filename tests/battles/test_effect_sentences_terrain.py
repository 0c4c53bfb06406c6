"""The terrain a card makes reads as a sentence on the replay and play pages, naming its
hexes and how long it lasts (issue 17, terrain: R-ADD-161)."""

from __future__ import annotations

from battles.replay import Names, describe, plain

NAMES = Names({0: "Penitent Scout", 1: "Bastion Heavy"}, {}, {})


def test_terrain_names_its_kind_hexes_and_duration() -> None:
    payload = {"seat": 0, "card": "smoke-bomb", "kind": "smoke", "hexes": [[0, 1], [1, 0]],
               "until_round": 2, "turns": 0}  # fmt: skip
    assert plain(describe("TerrainCreated", payload, NAMES)) == (
        "Penitent Scout's smoke-bomb makes smoke terrain at 0,1, 1,0 until the end of round 2 "
        "(R-ADD-161)"
    )
    payload = {**payload, "kind": "lava", "hexes": [[0, -1]], "until_round": 0, "turns": 2}
    assert plain(describe("TerrainCreated", payload, NAMES)).endswith(
        "makes lava terrain at 0,-1 for 2 of its turns (R-ADD-161)"
    )
    payload = {**payload, "turns": 0}
    assert "for the rest of the battle" in plain(describe("TerrainCreated", payload, NAMES))
