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


def test_card_made_terrain_is_labelled_on_its_hex() -> None:
    from battles import board_svg
    from battles.engine.battle.state import PlacedTerrain
    from battles.pages import _placed_words

    smoke = PlacedTerrain(0, 1, "smoke", 0, "smoke-bomb", until_round=2)
    lava = PlacedTerrain(1, 0, "lava", 0, "lava-flask", turns=2)
    assert (_placed_words(smoke), _placed_words(lava)) == ("smoke, to round 2", "lava, 2 turns")
    cells = board_svg.hex_cells(
        [(0, 0), (0, 1)], {(0, 1): "smoke"}, {}, {(0, 1): _placed_words(smoke)}
    )
    assert [c["placed"] for c in cells] == ["", "smoke, to round 2"]
    assert cells[1]["label"] == "hex 0,1: smoke (made by a card: smoke, to round 2)"


def test_entering_a_field_names_its_maker_and_damage() -> None:
    payload = {"seat": 1, "at": [0, 1], "maker": 0, "card": "runic-charges-runic-mine",
               "kind": "mine", "damage": 6}  # fmt: skip
    assert plain(describe("TerrainEntered", payload, NAMES)) == (
        "Bastion Heavy enters Penitent Scout's mine at 0,1 (runic-charges-runic-mine): 6 damage "
        "(R-ADD-165)"
    )


def test_a_wall_with_hit_points_is_labelled_and_said_with_them() -> None:
    """R-ADD-382: each hex of the wall shows the hit points it has left; the wall's making
    and each attack on a hex are said with them."""
    from battles.engine.battle.state import PlacedTerrain
    from battles.pages import _placed_words

    wall = PlacedTerrain(0, 2, "ice_wall", 0, "winter-s-heart-staff-ice-wall", hp=3)
    assert _placed_words(wall) == "ice wall, 3 HP"
    payload = {"seat": 0, "card": "druid-s-tome-vine-wall", "kind": "vine_wall",
               "hexes": [[0, 2], [1, 1]], "until_round": 0, "turns": 0, "hp": 3}  # fmt: skip
    assert plain(describe("TerrainCreated", payload, NAMES)).endswith(
        "makes vine wall terrain at 0,2, 1,1, 3 hit points a hex, until destroyed (R-ADD-382)"
    )
    hit = {"seat": 1, "card": "test-maul", "at": [0, 2], "kind": "vine_wall", "damage": 2,
           "left": 1}  # fmt: skip
    assert plain(describe("TerrainAttacked", hit, NAMES)) == (
        "Bastion Heavy's test-maul strikes the vine wall at 0,2 for 2 hit points, 1 hit point "
        "left (R-ADD-382)"
    )
    assert plain(describe("TerrainAttacked", {**hit, "left": 0}, NAMES)).endswith(
        "for 2 hit points: destroyed, the hex opens (R-ADD-382)"
    )


def test_a_forms_ward_says_what_it_changes() -> None:
    """R-ADD-362: Assault Form's one block fewer, Tank Form's dearer moves, Scout Form's
    moves ignoring terrain are said as such, not as a ward against damage."""
    ward = {"seat": 0, "source": "metamorphic-adaptation", "until": "end_of_round",
            "against": "attacks", "defence": -1, "to_hit": 0, "damage": 0, "reduce": 0,
            "cap": None, "at_least": 0, "uses": 0, "recover": 0}  # fmt: skip
    assert plain(describe("WardRaised", ward, NAMES)).startswith(
        "Penitent Scout meets 1 automatic block fewer until end of round"
    )
    tank = {**ward, "defence": 3, "move_cost": 1}
    assert plain(describe("WardRaised", tank, NAMES)).startswith(
        "Penitent Scout meets 3 more automatic blocks and pays 1 SP more for each hex it moves "
        "until end of round"
    )
    scout = {**ward, "defence": 0, "ignore_terrain": True}
    assert "moves at 1 SP a hex whatever the terrain" in plain(describe("WardRaised", scout, NAMES))
    plain_ward = {**ward, "defence": 2}
    assert plain(describe("WardRaised", plain_ward, NAMES)).startswith(
        "Penitent Scout is warded against attacks damage until end of round"
    )
