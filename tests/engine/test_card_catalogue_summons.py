"""Scenarios for the catalogue entries that summon a unit (R-ADD-400 to R-ADD-406), played
through decide/evolve like those of test_card_catalogue.py, whose helpers they use; each
card is built from its own database entry. The unit's own rules (its move, its attack, a
casket's attack card on it, its end with the battle) are checked with Hire Mercenary's.
"""

from __future__ import annotations

from collections.abc import Callable

from battles.engine.battle import legal_actions
from battles.engine.battle.events import (
    PromptOpened,
    TokensChanged,
    UnitAttacked,
    UnitDamaged,
    UnitMoved,
    UnitsBoosted,
    UnitSummoned,
)
from battles.engine.hexes import Hex

from .battle_builder import FILLER, Battle, of_type, one
from .test_card_catalogue import (
    arrange,
    battle,
    built,
    conditional,
    declared,
    hit,
    kill_reward,
    play,
    resolve_hit,
    tokens,
)

SUMMONS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

MERCENARY = UnitSummoned(0, "u1", "Mercenary", (0, 1), 8, 3, 3, 0, "hire-mercenary#1")


def _seat_one_turn(b: Battle) -> None:
    """Seat 0 passes, drawing back to 6 (table dice): seat 1's turn of round 1."""
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert b.state.active == 1


def _hire_mercenary() -> None:
    """ "Summon 1 Mercenary unit (8 HP, 3 damage, fights for you until destroyed or mission
    ends). Mercenary appears in target hex (must be unoccupied). Can have up to 2
    Mercenaries active simultaneously.\" (3 Credit tokens, 3 hexes)"""
    card = built("exchange", "hire-mercenary")
    b = battle(card, gap=3)  # seat 1 at [0, 0]
    tokens(b, "credit", 3)
    events = play(b, "hire-mercenary", path=[[0, 1]])
    assert one(events, UnitSummoned) == MERCENARY
    assert one(events, TokensChanged).total == 0 and b.seat(0).sp_spent == 0  # R-ADD-133
    (unit,) = b.state.units
    assert (unit.hp, unit.damage, unit.movement, unit.at) == (8, 3, 3, Hex(0, 1))
    # "target hex (must be unoccupied)", within its 3 hexes (R-ADD-400)
    for where, code in (([0, 0], "summon_hex"), ([0, -1], "summon_hex")):
        c = battle(card, gap=3)
        tokens(c, "credit", 3)
        assert c.refuse({"type": "play_card", "seat": 0, "card": "hire-mercenary#1",
                         "path": [where]}).code == code  # fmt: skip
    # "up to 2 Mercenaries active simultaneously"
    full = battle(card, gap=3)
    tokens(full, "credit", 3)
    arrange(full, MERCENARY, UnitSummoned(0, "u2", "Mercenary", (1, 1), 8, 3, 3, 0, "x#1"))
    assert full.refuse({"type": "play_card", "seat": 0, "card": "hire-mercenary#1"}).code == (
        "summon_limit"
    )
    # It "fights for you" in your turn: the legal actions offer its attack on the adjacent
    # enemy; the 3 damage is a hit without a roll, which the casket takes (R-ADD-401).
    bodies = [a.body for a in legal_actions(b.state, {0}) if a.body["type"] == "unit_attack"]
    assert bodies == [{"type": "unit_attack", "seat": 0, "unit": "u1", "target": 1}]
    events = b.do(bodies[0])
    assert one(events, UnitAttacked) == UnitAttacked(0, "u1", 1, 3)
    assert one(events, PromptOpened).amount == 3
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 3, "drawn": [FILLER] * 3})
    assert b.refuse(bodies[0]).code == "unit_attacked"
    assert one(b.do({"type": "unit_move", "seat": 0, "unit": "u1", "path": [[1, 0]]}),
               UnitMoved).path == ((1, 0),)  # fmt: skip
    assert b.refuse({"type": "unit_move", "seat": 0, "unit": "u1", "path": [[1, 1]]}).code == (
        "unit_moved"
    )
    # The enemy's attack card on it: 2 damage (the test's Maul), 6 HP left (R-ADD-404).
    _seat_one_turn(b)
    assert b.refuse({"type": "unit_move", "seat": 1, "unit": "u1", "path": [[1, 1]]}).code == (
        "no_such_unit"
    )
    (strike,) = [a.body for a in legal_actions(b.state, {1}) if a.body["type"] == "strike_unit"]
    assert strike["unit"] == "u1" and strike["card"].startswith("test-maul#")
    damaged = one(b.do(strike), UnitDamaged)
    assert (damaged.amount, damaged.hp) == (2, 6) and b.state.units[0].hp == 6
    # "until destroyed or mission ends"
    b.do({"type": "end_battle", "side": None, "reason": "arranged"})
    assert b.state.units == ()


def _reanimate() -> None:
    """ "Spend 3 Soul Shards. Summon a Skeletal Minion within 3 hexes (3 HP, 3 Movement, 2
    melee damage). Minion acts immediately after your turn.\""""
    card = built("ossuarium", "reanimate")
    b = battle(card, gap=4)
    tokens(b, "soul_shard", 3)
    events = play(b, "reanimate", spend=True, path=[[2, 1]])
    summoned = one(events, UnitSummoned)
    assert (summoned.name, summoned.hp, summoned.movement, summoned.damage) == (
        "Skeletal Minion", 3, 3, 2,
    )  # fmt: skip
    assert summoned.at == (2, 1) and b.seat(0).tokens_of("soul_shard") == 0
    # It acts in the turn it came (R-ADD-401): a move of up to 3 hexes.
    moves = [a.body for a in legal_actions(b.state, {0}) if a.body["type"] == "unit_move"]
    assert moves and all(len(m["path"]) <= 3 for m in moves)
    # Without the shards, no minion.
    poor = battle(card, gap=4)
    assert poor.refuse({"type": "play_card", "seat": 0, "card": "reanimate#1", "spend": True,
                        "path": [[2, 1]]}).code  # fmt: skip


def _forest_s_wrath() -> None:
    """ "Deal 6 damage, summon 1 treant minion (8 HP, melee 3 damage)": after the attack, a
    Treant on a free hex next to the casket (R-ADD-405, R-ADD-406)."""
    card = built("equipment_items", "world-tree-staff-forest-s-wrath")
    b = battle(card, version="2.1", gap=3)
    events = resolve_hit(b, card, 6, kill=False)
    summoned = one(events, UnitSummoned)
    assert (summoned.name, summoned.hp, summoned.damage, summoned.movement) == ("Treant", 8, 3, 3)
    assert b.state.units[0].at.distance(b.seat(0).at) == 1


def _buyout_strike() -> None:
    """ "Deal 6 damage. If this kills the target, immediately summon 1 Mercenary (no Credit
    cost).\": a Mercenary as Hire Mercenary's, only on a kill (R-ADD-406)."""

    def check(b: Battle, kill: bool) -> None:
        made = of_type(b.events, UnitSummoned)
        assert [(u.name, u.hp, u.damage) for u in made] == ([("Mercenary", 8, 3)] if kill else [])
        assert b.seat(0).tokens_of("credit") == 0

    kill_reward("exchange", "buyout-strike", 6, check)


def _hostile_acquisition() -> None:
    """ "Deal 5 damage. If target is adjacent to your Mercenary, deal 7 damage instead
    (coordinated assault).": the player's own unit named Mercenary, next to the target
    (seat 1 at [0, 2]) as the card is played (R-ADD-407)."""
    card = built("exchange", "hostile-acquisition")

    def mercenary(
        owner: int, at: tuple[int, int], name: str = "Mercenary"
    ) -> Callable[[Battle], None]:
        return lambda b: arrange(b, UnitSummoned(owner, "u1", name, at, 8, 3, 3, 0, "x#1"))

    conditional("exchange", "hostile-acquisition", 5, 2, mercenary(0, (1, 1)))
    for other in (mercenary(0, (0, 4)), mercenary(1, (1, 1)), mercenary(0, (1, 1), "Treant")):
        b = battle(card)
        other(b)
        assert hit(declared(b, card)) == 5


def _mercenary_contract() -> None:
    """ "Target friendly Mercenary immediately moves up to 3 hexes and makes a 3-damage
    attack." (4 hexes): the unit the command names, along its `path`, then on its
    `target`; its own move and attack of the turn stay to be made (R-ADD-409)."""
    card = built("exchange", "mercenary-contract")
    b = battle(card, gap=4)  # seat 0 at [0, 3], seat 1 at [0, -1]
    arrange(b, UnitSummoned(0, "u1", "Mercenary", (0, 2), 8, 3, 3, 0, "x#1"))
    offered = [a.body for a in legal_actions(b.state, {0}) if a.body.get("unit") == "u1"
               and a.body["type"] == "play_card"]  # fmt: skip
    assert {"type": "play_card", "seat": 0, "card": "mercenary-contract#1", "unit": "u1",
            "path": [[0, 1], [0, 0]], "target": 1} in offered  # fmt: skip
    events = play(b, "mercenary-contract", unit="u1", path=[[0, 1], [0, 0]], target=1)
    assert one(events, UnitMoved).path == ((0, 1), (0, 0))
    assert one(events, UnitAttacked) == UnitAttacked(0, "u1", 1, 3, "mercenary-contract#1")
    assert one(events, PromptOpened).amount == 3
    u = b.state.units[0]
    assert (u.at, u.moved, u.attacked) == (Hex(0, 0), False, False)
    # Up to 3 hexes; a Mercenary of the player's; the enemy next to it is attacked.
    for extra, code in (
        ({"unit": "u1", "path": [[0, 1], [0, 0], [1, -1], [1, -2]]}, "path_too_long"),
        ({"unit": "u2"}, "no_such_unit"),
        ({}, "unit_required"),
        ({"unit": "u1", "path": [[0, 1], [0, 0]]}, "target_required"),
    ):
        c = battle(card, gap=4)
        arrange(c, UnitSummoned(0, "u1", "Mercenary", (0, 2), 8, 3, 3, 0, "x#1"))
        body = {"type": "play_card", "seat": 0, "card": "mercenary-contract#1", **extra}
        assert c.refuse(body).code == code, extra
    far = battle(card, gap=4)
    arrange(far, UnitSummoned(0, "u1", "Treant", (0, 2), 8, 3, 3, 0, "x#1"))
    body = {"type": "play_card", "seat": 0, "card": "mercenary-contract#1", "unit": "u1"}
    assert far.refuse(body).code == "not_that_unit"


def _contract_enforcement() -> None:
    """ "All friendly Mercenary units within range gain +2 damage and +2 Defense until end
    of round. Spend 1 Credit token to extend duration to 2 rounds." (4 hexes): every own
    Mercenary within 4 hexes, not one farther or of another name (R-ADD-408)."""
    card = built("exchange", "contract-enforcement")
    for spend, until in ((False, 1), (True, 2)):
        b = battle(card, gap=3)  # seat 1 at [0, 0]
        tokens(b, "credit", 1)
        arrange(
            b,
            UnitSummoned(0, "u1", "Mercenary", (0, 1), 8, 3, 3, 0, "x#1"),
            UnitSummoned(0, "u2", "Mercenary", (5, -5), 8, 3, 3, 0, "x#1"),
            UnitSummoned(0, "u3", "Treant", (1, 2), 8, 3, 3, 0, "x#1"),
        )
        events = play(b, "contract-enforcement", **({"spend": True} if spend else {}))
        boosted = one(events, UnitsBoosted)
        assert (boosted.units, boosted.damage, boosted.defence) == (("u1",), 2, 2)
        assert boosted.until_round == until and b.seat(0).tokens_of("credit") == (0 if spend else 1)
        # +2 damage: the Mercenary hits for 5.
        hit5 = b.do({"type": "unit_attack", "seat": 0, "unit": "u1", "target": 1})
        assert one(hit5, UnitAttacked).damage == 5
        b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 5, "drawn": [FILLER] * 5})
        # +2 Defense: the enemy's Maul (2 damage) takes none off it.
        _seat_one_turn(b)
        (strike,) = [a.body for a in legal_actions(b.state, {1})
                     if a.body["type"] == "strike_unit" and a.body["unit"] == "u1"]  # fmt: skip
        assert one(b.do(strike), UnitDamaged).amount == 0
        # "until end of round": it lapses with round 1, or with round 2 when extended.
        refill = [FILLER] * (6 - len(b.seat(1).hand))
        b.do({"type": "pass", "seat": 1, "faces": [6, 1], "drawn": refill})
        assert (b.state.round, b.state.units[0].bonus_damage) == (2, 2 if spend else 0)


SUMMONS_SCENARIOS.update({
    ("exchange", "hire-mercenary"): _hire_mercenary,
    ("ossuarium", "reanimate"): _reanimate,
    ("equipment_items", "world-tree-staff-forest-s-wrath"): _forest_s_wrath,
    ("exchange", "buyout-strike"): _buyout_strike,
    ("exchange", "hostile-acquisition"): _hostile_acquisition,
    ("exchange", "mercenary-contract"): _mercenary_contract,
    ("exchange", "contract-enforcement"): _contract_enforcement,
})  # fmt: skip
