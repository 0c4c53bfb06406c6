"""Scenarios for the catalogue entries that make terrain during a battle (issue 17, terrain:
R-ADD-160 to R-ADD-162), played through decide/evolve with the helpers of
test_card_catalogue.py; plus the `terrain` effect's validation, the board with card-made
terrain, its lapse, its snapshot and its replay sentence.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.decide import attack_answer
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    CasketMoved,
    CasketPushed,
    HeatChanged,
    PromptOpened,
    TerrainAttacked,
    TerrainCreated,
    TerrainEntered,
    TurnEnded,
    UntargetableGained,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.snapshot import state_from_dict, state_to_dict
from battles.engine.battle.state import with_changes
from battles.engine.board import parse_board, with_terrain
from battles.engine.cards import TerrainEffect, card_from_dict, effect_from_dict
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.los import line_of_sight

from .battle_builder import CARDS, FILLER, Battle, of_type, one
from .test_card_catalogue import (
    AUTOMATED,
    MAUL,
    arrange,
    attack,
    battle,
    built,
    declared,
    hit,
    play,
    resolve_hit,
    run_scenario,
)
from .test_card_catalogue_allies import _field
from .test_card_catalogue_area import blast

TERRAIN_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

ME, HIM = Hex(0, 3), Hex(0, 0)  # seat 0 and, with gap 3, seat 1 (see `battle`)


def kind_at(b: Battle, q: int, r: int) -> str:
    return b.state.board.terrain_at(Hex(q, r)).name


def sees(b: Battle, a: Hex, z: Hex) -> bool:
    return line_of_sight(b.state.board, a, z, []).clear


def end_turn(b: Battle, seat: int) -> list[Any]:
    """`seat` passes; seat 1's pass ends the round, whose initiative puts seat 0 first."""
    drawn = [FILLER] * max(0, 6 - len(b.seat(seat).hand))  # the draw phase (R-TRN-7)
    body: dict[str, Any] = {"type": "pass", "seat": seat, "drawn": drawn}
    return b.do({**body, "faces": [6, 1]} if seat == 1 else body)


def _nomads_smoke_bomb() -> None:
    """ "Target hex becomes smoke terrain (blocks line of sight). Lasts until end of round."
    (range 3 hexes): the hex `path` names, in reach and sight, is smoke until the round
    ends (R-ADD-160 to R-ADD-162)."""
    card = built("nomads", "smoke-bomb")
    b = battle(card, gap=3)
    assert sees(b, ME, HIM)
    far = b.refuse({"type": "play_card", "seat": 0, "card": "smoke-bomb#1", "path": [[0, -1]]})
    assert (far.code, far.rule) == ("out_of_range", "R-ADD-162")  # 4 hexes away
    none = b.refuse({"type": "play_card", "seat": 0, "card": "smoke-bomb#1"})
    assert (none.code, none.rule) == ("hexes_required", "R-ADD-162")
    events = play(b, "smoke-bomb", path=[[0, 1]])
    assert one(events, TerrainCreated) == TerrainCreated(0, "smoke-bomb", "smoke", ((0, 1),), 1, 0)
    assert kind_at(b, 0, 1) == "smoke" and not sees(b, ME, HIM)  # blocks line of sight
    end_turn(b, 0)
    assert kind_at(b, 0, 1) == "smoke"  # the round goes on
    end_turn(b, 1)  # the round ends
    assert (b.state.round, kind_at(b, 0, 1), b.state.placed_terrain) == (2, "clear", ())
    assert sees(b, ME, HIM)


TERRAIN_SCENARIOS[("nomads", "smoke-bomb")] = _nomads_smoke_bomb


def _equipment_smoke_bomb() -> None:
    """ "Create smoke hex, blocks LOS." (range Self): the own hex is smoke, seen through by
    no one, until the end of the round, no duration being printed (R-ADD-161, R-ADD-162)."""
    card = built("equipment", "smoke-bomb")
    b = battle(card, gap=3)
    beyond = Hex(0, 5)
    assert sees(b, HIM, beyond)
    events = play(b, "smoke-bomb")
    assert one(events, TerrainCreated) == TerrainCreated(0, "smoke-bomb", "smoke", ((0, 3),), 1, 0)
    assert kind_at(b, 0, 3) == "smoke" and not sees(b, HIM, beyond)
    assert b.state.board.terrain_at(ME).cover == "heavy"  # R-ADD-160: as dense forest
    end_turn(b, 0)
    end_turn(b, 1)
    assert kind_at(b, 0, 3) == "clear" and sees(b, HIM, beyond)


TERRAIN_SCENARIOS[("equipment", "smoke-bomb")] = _equipment_smoke_bomb


def _smoke_and_mirrors() -> None:
    """ "Create smoke in your current hex. Blocks LOS. Move 2 hexes (does not break
    stealth). Vanish." (Self): smoke in the hex it leaves, a move of up to 2 hexes, and
    R-ADD-155's invisibility, which the move does not end (R-ADD-164)."""
    card = built("nomads", "smoke-and-mirrors")
    b = battle(card, gap=1)
    events = play(b, "smoke-and-mirrors", path=[[0, 4], [0, 5]])
    made = one(events, TerrainCreated)
    assert made == TerrainCreated(0, "smoke-and-mirrors", "smoke", ((0, 3),), 1, 0)
    assert b.seat(0).at == Hex(0, 5) and kind_at(b, 0, 3) == "smoke"
    assert one(events, UntargetableGained) == UntargetableGained(
        0, "all", True, "smoke-and-mirrors"
    )
    assert not sees(b, Hex(0, 2), Hex(0, 5))  # the smoke lies between
    end_turn(b, 0)
    err = b.refuse({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0})
    assert (err.code, err.rule) == ("untargetable", "R-ADD-155")


TERRAIN_SCENARIOS[("nomads", "smoke-and-mirrors")] = _smoke_and_mirrors


def _grenade_smoke_cloud() -> None:
    """ "Create 3-hex smoke cloud (blocks LOS, lasts 2 rounds). Remove this card from game
    after use." (Ranged 2-4): three touching hexes, the first 2 to 4 hexes away, smoke
    through the next round's end; the card goes out of the game (R-ADD-70, R-ADD-161/162)."""
    cid = "alchemical-grenades-smoke-bomb"
    card = built("equipment_items", cid)
    b = battle(card, gap=3)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1"}
    near = b.refuse({**body, "path": [[0, 2], [0, 1], [0, 0]]})
    assert near.code == "out_of_range"  # 1 hex away: the range is 2-4
    apart = b.refuse({**body, "path": [[0, 1], [1, 0], [3, -1]]})
    assert (apart.code, apart.rule) == ("hexes_not_adjacent", "R-ADD-162")
    short = b.refuse({**body, "path": [[0, 1], [1, 0]]})
    assert short.code == "hexes_required"
    events = play(b, cid, path=[[0, 1], [1, 0], [-1, 1]])
    made = one(events, TerrainCreated)
    assert (made.kind, made.hexes, made.until_round) == ("smoke", ((0, 1), (1, 0), (-1, 1)), 2)
    assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard
    assert not sees(b, ME, HIM)
    end_turn(b, 0)
    end_turn(b, 1)  # round 1 ends: the cloud stays
    assert b.state.round == 2 and {kind_at(b, q, r) for q, r in made.hexes} == {"smoke"}
    end_turn(b, 0)
    end_turn(b, 1)  # round 2 ends: gone
    assert {kind_at(b, q, r) for q, r in made.hexes} == {"clear"} and sees(b, ME, HIM)


TERRAIN_SCENARIOS[("equipment_items", "alchemical-grenades-smoke-bomb")] = _grenade_smoke_cloud


def _frozen_ground() -> None:
    """ "Create 3-hex ice terrain (difficult terrain, movement costs +1 SP), lasts 3
    rounds" (no range): three touching hexes from the own or an adjacent hex; entering one
    costs 2 SP; it lasts to the end of round 3 (R-ADD-160 to R-ADD-162)."""
    cid = "glacial-tome-frozen-ground"
    card = built("equipment_items", cid)
    b = battle(card, gap=6)
    far = b.refuse(
        {"type": "play_card", "seat": 0, "card": f"{cid}#1", "path": [[0, 1], [0, 0], [1, 0]]}
    )
    assert far.code == "out_of_range"  # no printed range: the own hex or an adjacent one
    made = one(play(b, cid, path=[[0, 2], [0, 1], [1, 1]]), TerrainCreated)
    assert (made.kind, made.until_round, made.turns) == ("ice", 3, 0)
    assert b.state.board.terrain_at(Hex(0, 2)).move_cost == 2
    spent = b.seat(0).sp_spent
    b.do({"type": "move", "seat": 0, "path": [[0, 2]]})
    assert b.seat(0).sp_spent == spent + 2  # difficult: +1 SP (R-TRN-5)
    for _ in range(2):
        end_turn(b, 0)
        end_turn(b, 1)
    assert b.state.round == 3 and kind_at(b, 0, 1) == "ice"
    end_turn(b, 0)
    end_turn(b, 1)
    assert kind_at(b, 0, 1) == "clear"


TERRAIN_SCENARIOS[("equipment_items", "glacial-tome-frozen-ground")] = _frozen_ground


def _lava_flask() -> None:
    """ "Throw flask of lava. Deal 2 damage and create 1 Lava Terrain hex at target location
    (lasts 2 turns). Portable volcano." (range 4): a 2-damage attack; the target's hex is
    lava as the attack ends, hit or miss, for the player's turn and its next one; a casket
    ending its turn in lava gains 2 Heat (R-ADD-160 to R-ADD-162)."""
    card = built("crucible", "lava-flask")
    b = battle(card, gap=4)
    events = attack(b, card)  # a missing roll: the flask lands all the same
    assert hit(one(events, type(declared(battle(card, gap=4), card)))) == 2
    made = one(events, TerrainCreated)
    assert made == TerrainCreated(0, "lava-flask", "lava", ((0, -1),), 0, 2)
    assert [type(e) for e in events].index(TerrainCreated) < [type(e) for e in events].index(
        AttackEnded
    )
    assert kind_at(b, 0, -1) == "lava"
    end_turn(b, 0)  # the player's first turn is over
    assert kind_at(b, 0, -1) == "lava"
    heats = of_type(end_turn(b, 1), HeatChanged)  # seat 1 ends its turn in lava
    lava = [(h.seat, h.amount) for h in heats if h.rule == "R-ADD-160"]
    assert lava == [(1, 2)] and "end of turn in lava" in [h.reason for h in heats]
    assert kind_at(b, 0, -1) == "lava"
    events = end_turn(b, 0)  # the player's second turn ends
    assert of_type(events, TurnEnded) and kind_at(b, 0, -1) == "clear"


TERRAIN_SCENARIOS[("crucible", "lava-flask")] = _lava_flask


def _meteor_strike() -> None:
    """ "Deal 6 damage, create burning terrain (1 hex), gain 3 Heat" (Ranged 4-8): a
    6-damage attack, 3 Heat, and the target's hex burns (lava, R-ADD-160) until the end of
    the round, no duration being printed (R-ADD-161; R-ADD-274 names the card)."""
    cid = "inferno-staff-meteor-strike"
    card = built("equipment_items", cid)
    b = battle(card, gap=4)
    near = battle(card, gap=3)
    assert near.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1}).code
    events = attack(b, card)
    assert hit(one(events, type(declared(battle(card, gap=4), card)))) == 6
    assert b.seat(0).heat == 3
    assert one(events, TerrainCreated) == TerrainCreated(0, cid, "lava", ((0, -1),), 1, 0)
    end_turn(b, 0)
    end_turn(b, 1)
    assert kind_at(b, 0, -1) == "clear"


TERRAIN_SCENARIOS[("equipment_items", "inferno-staff-meteor-strike")] = _meteor_strike


def _avalanche() -> None:
    """ "Deal 6 damage, push target 2 hexes, create difficult terrain" (Ranged 4-8): a hit
    pushes the target 2 hexes away (R-ADD-100) and the hex it ends in is difficult ground
    until the end of the round (R-ADD-161, R-ADD-162)."""
    cid = "winter-s-heart-staff-avalanche"
    card = built("equipment_items", cid)
    b = battle(card, gap=4, version="2.1")
    events = resolve_hit(b, card, 6, kill=False, roll=(3, 3))
    assert one(events, CasketPushed).path == ((0, -2), (0, -3))
    assert b.seat(1).at == Hex(0, -3)
    made = one(events, TerrainCreated)
    assert (made.kind, made.hexes, made.until_round) == ("difficult", ((0, -3),), 1)
    assert b.state.board.terrain_at(Hex(0, -3)).move_cost == 2
    assert kind_at(b, 0, -1) == "clear"  # where it stood before the push


TERRAIN_SCENARIOS[("equipment_items", "winter-s-heart-staff-avalanche")] = _avalanche


def _earthquake() -> None:
    """ "Deal 4 damage to all enemies within 2 hexes, create difficult terrain" (Ranged
    3-6 AoE): 4 damage to the target and every enemy within 2 hexes of it (R-ADD-84), and
    one area of difficult ground, every hex within 2 of the target, made once however many
    caskets the blast catches (R-ADD-274), until the end of the round: no duration is
    printed (R-ADD-274 names the card)."""
    cid = "world-tree-staff-earthquake"
    card = built("equipment_items", cid)
    area = next(e for e in card.effects if e.kind == "area_attack")
    assert (area.as_dict()["damage"], area.as_dict()["within"]) == (4, 2)
    b = battle(card, gap=3)
    ring = {(h.q, h.r) for h in b.state.board.cells if h.distance(HIM) <= 2}
    assert len(ring) == 19
    events = attack(b, card)
    assert hit(one(events, type(declared(battle(card, gap=3), card)))) == 4
    made = one(events, TerrainCreated)
    assert (made.kind, set(made.hexes), made.until_round) == ("difficult", ring, 1)
    assert b.state.board.terrain_at(HIM).move_cost == 2
    assert b.state.board.terrain_at(Hex(2, -2)).move_cost == 2  # the area's edge
    assert b.state.board.terrain_at(Hex(0, 3)).move_cost == 1  # the caster, 3 away
    end_turn(b, 0)
    end_turn(b, 1)
    assert kind_at(b, 0, 0) == "clear" and kind_at(b, 2, -2) == "clear"
    # Three enemies caught: still one area, around the first target.
    b, events = blast("equipment_items", cid, 3, 4, 4, within=2)
    made = one(events, TerrainCreated)
    assert set(made.hexes) == ring


TERRAIN_SCENARIOS[("equipment_items", "world-tree-staff-earthquake")] = _earthquake


def _consecrated_ground() -> None:
    """ "Create 3-hex holy terrain (allies standing in it gain +1 Defense, remove 1 Heat at
    end of turn), lasts 3 rounds" (no range): an ally attacked on it has one more automatic
    block, and loses 1 Heat as its turn ends there; the player's own casket is not its ally
    (R-ADD-74, R-ADD-163)."""
    cid = "codex-of-light-consecrated-ground"
    card = built("equipment_items", cid)
    b = _field(card, [((1, 2), "pack", None)])
    made = one(play(b, cid, path=[[1, 2], [1, 3], [0, 3]]), TerrainCreated)
    assert (made.kind, made.until_round) == ("holy", 3)
    assert b.state.ground_of(b.seat(2)) == ("holy", "ally")
    assert b.state.ground_of(b.seat(0)) is None  # the maker's own hex: not an ally
    arrange(b, HeatChanged(2, 2, 2, "arranged", "R-TRN-4"))
    end_turn(b, 0)
    d = one(b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 1
    drawn = [FILLER] * (6 - len(b.seat(1).hand))
    b.do({"type": "pass", "seat": 1, "drawn": drawn})
    heats = of_type(b.do({"type": "pass", "seat": 2, "faces": [6, 1, 1]}), HeatChanged)
    assert [(h.seat, h.amount) for h in heats if h.rule == "R-ADD-163"] == [(2, -1)]
    assert "end of turn on holy ground" in [h.reason for h in heats]


TERRAIN_SCENARIOS[("equipment_items", "codex-of-light-consecrated-ground")] = _consecrated_ground


def _sanctuary() -> None:
    """ "Create 2-hex sanctuary zone (enemies cannot enter, allies inside gain +3 Defense),
    lasts 2 rounds" (no range): an enemy's move into it is refused, a push stops before
    it, and an ally attacked inside has 3 more automatic blocks (R-ADD-163)."""
    cid = "divine-scepter-sanctuary"
    card = built("equipment_items", cid)
    b = _field(card, [((1, 2), "pack", None)])
    made = one(play(b, cid, path=[[1, 2], [1, 1]]), TerrainCreated)
    assert (made.kind, made.hexes, made.until_round) == ("sanctuary", ((1, 2), (1, 1)), 2)
    assert b.state.barred_for(b.seat(1)) == [Hex(1, 2), Hex(1, 1)]
    assert b.state.barred_for(b.seat(2)) == []  # an ally may come and go
    end_turn(b, 0)
    refused = b.refuse({"type": "move", "seat": 1, "path": [[1, 1]]})
    assert (refused.code, refused.rule) == ("sanctuary", "R-ADD-163")
    b.do({"type": "move", "seat": 1, "path": [[-1, 2]]})  # elsewhere it moves as ever
    b.do({"type": "move", "seat": 1, "path": [[0, 2]]})
    d = one(b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 2,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 3


TERRAIN_SCENARIOS[("equipment_items", "divine-scepter-sanctuary")] = _sanctuary


def _static_field() -> None:
    """ "Create 4-hex electric field (enemies entering take 2 damage), lasts 3 rounds" (no
    range): an enemy's move into it deals 2 damage once, however many of its hexes it
    crosses; the player's own moves in it deal none (R-ADD-165)."""
    cid = "tempest-scepter-static-field"
    card = built("equipment_items", cid)
    b = battle(card, gap=4, version="2.1")  # cards lost to damage leave the HP (R-DMG-8)
    made = one(play(b, cid, path=[[0, 2], [1, 1], [0, 1], [-1, 2]]), TerrainCreated)
    assert (made.kind, made.until_round, made.damage) == ("electric_field", 3, 2)
    assert not of_type(b.do({"type": "move", "seat": 0, "path": [[0, 2]]}), TerrainEntered)
    end_turn(b, 0)
    events = b.do({"type": "move", "seat": 1, "path": [[0, 0], [0, 1], [-1, 2]]})
    entered = one(events, TerrainEntered)
    assert entered == TerrainEntered(1, (0, 1), 0, cid, "electric_field", 2)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 2)
    hp = b.seat(1).hp
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(1).hp == hp - 2
    assert len(b.state.placed_terrain) == 4  # a field stays
    events = b.do({"type": "move", "seat": 1, "path": [[0, 1]]})  # on within it: nothing
    assert not of_type(events, TerrainEntered)


TERRAIN_SCENARIOS[("equipment_items", "tempest-scepter-static-field")] = _static_field


def _flame_wall() -> None:
    """ "Create 3-hex fire wall (blocks movement, deals 2 damage to crossers), lasts 2
    rounds" (no range): no step enters it, sight passes over it, and a move that crosses
    it by ignoring terrain (the player's own too) takes 2 damage (R-ADD-165, R-ADD-166)."""
    cid = "pyromancer-s-grimoire-flame-wall"
    card = built("equipment_items", cid)
    leap = built(
        "nomads", "grappling-hook"
    )  # "Move up to 3 hexes in straight line, ignoring all terrain"
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(CARDS, leap.id, leap.as_dict())
        b = battle(card, gap=4, hand=(leap.id,))
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1"}
    under = b.refuse({**body, "path": [[0, 3], [0, 2], [1, 1]]})
    assert (under.code, under.rule) == ("terrain_not_placeable", "R-ADD-162")  # its own hex
    made = one(play(b, cid, path=[[0, 2], [1, 1], [-1, 2]]), TerrainCreated)
    assert (made.kind, made.until_round, made.damage) == ("fire_wall", 2, 2)
    assert b.refuse({"type": "move", "seat": 0, "path": [[0, 2]]}).code  # blocks movement
    assert sees(b, ME, Hex(0, -1))  # not sight
    events = play(b, leap.id, path=[[0, 2], [0, 1]])
    assert one(events, TerrainEntered) == TerrainEntered(0, (0, 2), 0, cid, "fire_wall", 2)
    assert one(events, PromptOpened).amount == 2 and b.seat(0).at == Hex(0, 1)


TERRAIN_SCENARIOS[("equipment_items", "pyromancer-s-grimoire-flame-wall")] = _flame_wall


def _walled(cid: str, hexes: list[list[int]]) -> tuple[Battle, TerrainCreated]:
    """Seat 0 (holding two of the Maul, Melee 2) raises the wall of `cid` on `hexes`; seat 1 stands
    4 hexes north."""
    card = built("equipment_items", cid)
    b = battle(card, gap=4)
    # Two of the test's Maul in seat 0's hand for two fillers (seat 1's deck holds the card).
    b.state = with_changes(b.state, seats=tuple(
        with_changes(c, hand=(*c.hand[:-2], "test-maul#1", "test-maul#2")) if c.seat == 0 else c
        for c in b.state.seats))  # fmt: skip
    made = one(play(b, cid, path=hexes), TerrainCreated)
    return b, made


def _wall_with_hit_points(cid: str, kind: str, n: int, hp: int, blocks_sight: bool) -> None:
    """Each hex of the wall has the printed hit points, lasts until destroyed, blocks moves
    (and sight when printed); an attack card played at one hex, in its reach, sight and
    arc, takes its printed damage off that hex's hit points, and at 0 the hex opens while
    the others stand (R-ADD-382)."""
    hexes = [[0, 2], [1, 1], [-1, 2], [1, 2], [-1, 3]][:n]
    b, made = _walled(cid, hexes)
    assert (made.kind, made.hexes, made.hp) == (kind, tuple(map(tuple, hexes)), hp)
    assert (made.until_round, made.turns) == (0, 0)  # "lasts until destroyed"
    assert [p.hp for p in b.state.placed_terrain] == [hp] * n
    assert b.refuse({"type": "move", "seat": 0, "path": [[0, 2]]}).code  # blocks movement
    assert sees(b, ME, Hex(0, -1)) is not blocks_sight
    assert state_from_dict(state_to_dict(b.state)).placed_terrain == b.state.placed_terrain
    end_turn(b, 0)
    end_turn(b, 1)  # a round ends: the wall stands
    assert [p.hp for p in b.state.placed_terrain] == [hp] * n and kind_at(b, 0, 2) == kind
    body = {"type": "attack_terrain", "seat": 0, "card": "test-maul#1", "at": [0, 2]}
    assert body in [a.body for a in legal_actions(b.state)]
    far = b.refuse({**body, "at": [1, 1]})  # 2 hexes away: the Maul is Melee
    assert (far.code, far.rule) == ("out_of_range", "R-RNG-2")
    bare = b.refuse({**body, "at": [1, 3]})
    assert (bare.code, bare.rule) == ("no_terrain_to_attack", "R-ADD-382")
    struck = one(b.do(body), TerrainAttacked)
    assert struck == TerrainAttacked(0, "test-maul", (0, 2), kind, 2, hp - 2)
    assert b.state.placed_at(Hex(0, 2)).hp == hp - 2  # type: ignore[union-attr]
    assert "test-maul#1" in b.seat(0).discard and b.seat(0).sp_spent == 1
    # Worn down to the Maul's 2 by earlier blows, the hex is destroyed: a gap opens.
    arrange(b, TerrainAttacked(1, "arranged", (0, 2), kind, hp - 4, 2)) if hp > 4 else None
    broken = one(b.do({**body, "card": "test-maul#2"}), TerrainAttacked)
    assert broken.left == 0 and kind_at(b, 0, 2) == "clear"
    assert len(b.state.placed_terrain) == n - 1 and kind_at(b, -1, 2) == kind
    assert one(b.do({"type": "move", "seat": 0, "path": [[0, 2]]}), CasketMoved).path


def _ice_wall() -> None:
    """ "Create 5-hex ice wall (blocks movement and LOS), 5 HP, lasts until destroyed"
    (no range: the first hex next to the casket, R-ADD-162): 5 HP a hex (R-ADD-382)."""
    _wall_with_hit_points("winter-s-heart-staff-ice-wall", "ice_wall", 5, 5, True)


def _vine_wall() -> None:
    """ "Create 4-hex vine wall (blocks movement, 3 HP), lasts until destroyed": 3 HP a
    hex, sight passing over it (R-ADD-382, as R-ADD-166's fire wall)."""
    _wall_with_hit_points("druid-s-tome-vine-wall", "vine_wall", 4, 3, False)


TERRAIN_SCENARIOS[("equipment_items", "winter-s-heart-staff-ice-wall")] = _ice_wall
TERRAIN_SCENARIOS[("equipment_items", "druid-s-tome-vine-wall")] = _vine_wall


def _runic_mine() -> None:
    """ "Place mine in adjacent hex. When enemy enters, deal 6 damage. Lasts 3 rounds.
    Remove this card from game after use." (Melee): a mine on an adjacent hex fires once,
    6 damage, at the first enemy entering it, and the card leaves the game (R-ADD-70,
    R-ADD-165)."""
    cid = "runic-charges-runic-mine"
    card = built("equipment_items", cid)
    b = battle(card, gap=3)
    far = b.refuse({"type": "play_card", "seat": 0, "card": f"{cid}#1", "path": [[0, 1]]})
    assert far.code == "out_of_range"
    made = one(play(b, cid, path=[[0, 2]]), TerrainCreated)
    assert (made.kind, made.until_round, made.damage) == ("mine", 3, 6)
    assert f"{cid}#1" in b.seat(0).removed
    end_turn(b, 0)
    events = b.do({"type": "move", "seat": 1, "path": [[0, 1], [0, 2]]})
    assert one(events, TerrainEntered) == TerrainEntered(1, (0, 2), 0, cid, "mine", 6)
    assert one(events, PromptOpened).amount == 6
    assert b.state.placed_terrain == () and kind_at(b, 0, 2) == "clear"  # spent


TERRAIN_SCENARIOS[("equipment_items", "runic-charges-runic-mine")] = _runic_mine


def _reality_shard() -> None:
    """ "Throw shard of broken reality. Deal 2 damage. Create "Distortion hex" at impact
    location (lasts 3 turns). Distortion hexes: Enemies standing in them have -1 to all
    actions. Allies ignore effect. Warped space." (range 4): a 2-damage attack; the
    target's hex is distortion as the attack ends, and an enemy attacking from it has its
    target number raised by 1, for 3 of the player's turns (R-ADD-161 to R-ADD-163)."""
    cid = "reality-shard"
    card = built("wyrd-conclave", cid)
    b = battle(card, gap=1)
    maul = card_from_dict(MAUL)
    before = attack_answer(b.state, 1, maul, 0).target_number
    events = attack(b, card)
    assert hit(one(events, AttackDeclared)) == 2
    assert one(events, TerrainCreated) == TerrainCreated(0, cid, "distortion", ((0, 2),), 0, 3)
    answer = attack_answer(b.state, 1, maul, 0)
    assert answer.target_number == before + 1
    assert [(m.key, m.value, m.rule) for m in answer.modifiers if m.key == "distortion"] == [
        ("distortion", 1, "R-ADD-163")
    ]
    assert attack_answer(b.state, 0, maul, 1).target_number == before  # the maker's side
    for seat_ in (0, 1, 0, 1):
        end_turn(b, seat_)
    assert kind_at(b, 0, 2) == "distortion"  # two of the player's turns have ended
    end_turn(b, 0)
    assert kind_at(b, 0, 2) == "clear"
    assert attack_answer(b.state, 1, maul, 0).target_number == before


TERRAIN_SCENARIOS[("wyrd-conclave", "reality-shard")] = _reality_shard


@pytest.mark.parametrize("key", sorted(TERRAIN_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_terrain_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, TERRAIN_SCENARIOS[key])


# --- the vocabulary and the board ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"terrain": "magma"}, "effect.terrain"),
        ({"terrain": "smoke", "hexes": 0}, "effect.hexes"),
        ({"terrain": "smoke", "hexes": 6}, "effect.hexes"),
        ({"terrain": "smoke", "at": "there"}, "effect.at"),
        ({"terrain": "smoke", "until": "forever"}, "effect.until"),
        ({"terrain": "smoke", "n": 0}, "effect.n"),
        ({"terrain": "mine", "damage": -1}, "effect.damage"),
        ({"terrain": "smoke", "at": "self", "hexes": 2}, "effect.hexes"),
    ],
)
def test_a_bad_terrain_effect_names_its_field(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as info:
        effect_from_dict({"kind": "terrain", **doc})
    assert info.value.field == field


def test_terrain_after_an_attack_is_made_at_the_target() -> None:
    with pytest.raises(InvalidInput) as info:
        effect_from_dict(
            {"kind": "after_attack", "on": "end", "then": [{"kind": "terrain", "terrain": "lava"}]}
        )
    assert info.value.field == "effect.then[0].at" and info.value.rule == "R-ADD-162"
    ok = effect_from_dict(
        {"kind": "after_attack", "on": "end", "then": [{"kind": "terrain", "terrain": "lava",
                                                       "at": "target"}]}
    )  # fmt: skip
    assert ok.as_dict()["then"] == [TerrainEffect("lava", at="target").as_dict()]


def test_a_board_kind_of_the_same_name_wins_and_walls_stay_walls() -> None:
    board = parse_board(
        {
            "shape": {"kind": "hexagon", "radius": 2},
            "terrain_kinds": {"smoke": {"blocks_los": False}},
            "hexes": [{"q": 1, "r": 0, "terrain": "wall"}],
        }
    )
    placed = with_terrain(board, {Hex(0, 1): "smoke", Hex(0, -1): "lava"})
    assert not placed.blocks_los(Hex(0, 1))  # the board's own smoke
    assert placed.terrain_at(Hex(0, -1)).heat_end_of_turn == 2
    assert board.terrain_at(Hex(0, 1)).name == "clear"  # the setup's board is untouched
    card = built("nomads", "smoke-bomb")
    b = battle(card, gap=3)
    walled = parse_board(
        {"shape": {"kind": "hexagon", "radius": 8}, "hexes": [{"q": 0, "r": 2, "terrain": "wall"}]}
    )
    b.state = with_changes(b.state, board=walled)
    refused = b.refuse({"type": "play_card", "seat": 0, "card": "smoke-bomb#1", "path": [[0, 2]]})
    assert (refused.code, refused.rule) == ("terrain_not_placeable", "R-ADD-162")


def test_terrain_survives_a_snapshot_and_the_setup_board_comes_back() -> None:
    card = built("nomads", "smoke-bomb")
    b = battle(card, gap=3)
    play(b, "smoke-bomb", path=[[0, 1]])
    again = state_from_dict(state_to_dict(b.state))
    assert again == b.state and again.board.terrain_at(Hex(0, 1)).name == "smoke"
    # A revert onto a later state keeps no terrain the document does not list.
    bare = dict(state_to_dict(b.state, with_setup=False))
    bare.pop("placed_terrain")
    reverted = state_from_dict(bare, b.state)
    assert reverted.placed_terrain == () and reverted.board.terrain_at(Hex(0, 1)).name == "clear"


def test_a_terrain_card_is_offered_with_its_hexes() -> None:
    from battles.engine.battle.legal import legal_actions

    card = built("equipment_items", "alchemical-grenades-smoke-bomb")
    b = battle(card, gap=3)
    offered = [
        a.body
        for a in legal_actions(b.state)
        if a.body.get("card") == "alchemical-grenades-smoke-bomb#1"
    ]
    assert offered and all(len(x["path"]) == 3 for x in offered)
    play(b, "alchemical-grenades-smoke-bomb", path=offered[0]["path"])
    assert len(b.state.placed_terrain) == 3


def test_a_push_stops_before_an_enemys_sanctuary(monkeypatch: pytest.MonkeyPatch) -> None:
    """R-ADD-163: a pushed enemy stops before the sanctuary as before an occupied hex."""
    shove = {"id": "test-shove", "name": "Test Shove", "kind": "other", "sp_cost": 0,
             "range": "3", "damage": 0, "heat": 0, "automated": True,
             "effects": [{"kind": "push", "hexes": 2}]}  # fmt: skip
    monkeypatch.setitem(CARDS, "test-shove", shove)
    cid = "divine-scepter-sanctuary"
    b = _field(built("equipment_items", cid), [((1, 1), "pack", None)], ally_hand=["test-shove"])
    play(b, cid, path=[[-1, 3], [-2, 4]])
    end_turn(b, 0)
    b.do({"type": "pass", "seat": 1, "drawn": []})
    assert b.state.active == 2
    pushed = one(
        b.do({"type": "play_card", "seat": 2, "card": "test-shove#1", "target": 1}), CasketPushed
    )
    assert pushed.path == () and b.seat(1).at == Hex(0, 2)  # (-1, 3) is the sanctuary's


def test_a_push_into_an_enemys_field_hurts_after_the_hit() -> None:
    """R-ADD-165: a push is a move; the field's damage follows the attack's, and the attack
    still ends once (Avalanche pushes 2 hexes into a field laid in its path)."""
    cid = "winter-s-heart-staff-avalanche"
    card = built("equipment_items", cid)
    b = battle(card, gap=4, version="2.1")
    arrange(b, TerrainCreated(0, "field", "electric_field", ((0, -2), (0, -3)), 3, 0, 2))
    events = resolve_hit(b, card, 6, kill=False, roll=(3, 3))
    assert one(events, TerrainEntered) == TerrainEntered(
        1, (0, -2), 0, "field", "electric_field", 2
    )
    assert len(of_type(events, AttackEnded)) == 1
    assert [p.amount for p in b.state.prompts] == [2]
    hp = b.seat(1).hp
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(1).hp == hp - 2 and b.state.prompts == () and b.state.attack is None
