"""Scenarios for the catalogue entries that spend Taint on a card without an attack
(R-ADD-290), reduce an attack's damage before its defence roll (R-ADD-291) and wait for
the next spell of a school (R-ADD-292), played through decide/evolve like those of
test_card_catalogue.py, whose helpers they use. Each card is built from its own database
entry (`built`); its printed text is quoted beside what it checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    AttackRolled,
    CardsDiscarded,
    CasketMoved,
    CasketTeleported,
    DefenceRerolled,
    DefenceRerollOffered,
    DefenceRolled,
    ReactivePlayed,
    TaintChanged,
    TargetBonusGained,
    TokensChanged,
    WoundFlipped,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    MAUL,
    arrange,
    battle,
    built,
    hit,
    play,
    run_scenario,
)

SPENDS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}
TAINT = "v3_optional.taint_exploitation"


def _taint(b: Battle, seat: int, n: int) -> None:
    b.do({"type": "adjust_taint", "seat": seat, "taint": n, "reason": "arranged"})


def _tainted_fury() -> None:
    """ "Spend 2 Taint Markers: Your next attack this turn deals +2 damage. Gain 1 Heat.":
    the spend is the card's price (R-ADD-290); the +2 waits for the next attack of the turn
    and lapses with it (R-ADD-90)."""
    card = built(TAINT, "tainted-fury")
    b = battle(card, hand=("blade",))
    _taint(b, 0, 3)
    events = play(b, "tainted-fury", spend=True)
    assert one(events, TaintChanged).amount == -2 and b.seat(0).taint == 1
    assert b.seat(0).heat == 1 and b.seat(0).sp_spent == 0
    d = one(b.do({"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert hit(d) == 3 + 2
    # Without the spend, or without the Taint, the card is refused.
    poor = battle(card)
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "tainted-fury#1"})
    assert (err.code, err.rule) == ("spend_required", "R-ADD-290")
    _taint(poor, 0, 1)
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "tainted-fury#1", "spend": True})
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-145")
    # "this turn": unused, it is gone when the turn ends.
    late = battle(card)
    _taint(late, 0, 2)
    play(late, "tainted-fury", spend=True)
    assert late.seat(0).enhancements
    late.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert not late.seat(0).enhancements


def _void_step() -> None:
    """ "Spend 1 Taint Marker: Move 2 hexes (costs 0 SP). Gain 1 Heat." (R-ADD-290)"""
    card = built(TAINT, "void-step")
    b = battle(card, gap=4)
    _taint(b, 0, 1)
    events = play(b, "void-step", spend=True, path=[[1, 2], [1, 1]])
    assert one(events, CasketMoved).path == ((1, 2), (1, 1))
    assert (b.seat(0).taint, b.seat(0).heat, b.seat(0).sp_spent) == (0, 1, 0)
    far = battle(card, gap=4)
    _taint(far, 0, 1)
    err = far.refuse({"type": "play_card", "seat": 0, "card": "void-step#1", "spend": True,
                      "path": [[1, 2], [1, 1], [1, 0]]})  # fmt: skip
    assert err.code
    free = battle(card, gap=4)
    err = free.refuse({"type": "play_card", "seat": 0, "card": "void-step#1",
                       "path": [[1, 2], [1, 1]]})  # fmt: skip
    assert (err.code, err.rule) == ("spend_required", "R-ADD-290")


def _ignore_pain() -> None:
    """ "Spend 3 Taint Markers: Reduce next damage taken by 3 (before Defense roll). Gain 1
    Heat.": played as a reactive card against the attack (R-REA-1), the 3 come off before
    the defence dice, so the roll has one die per point left (R-DMG-2, R-ADD-291)."""
    card = built(TAINT, "ignore-pain")
    # A strong hit of 4 leaves 1 die: a PIERCE face on it finds the reduction made already.
    for faces, damage, face in (([3, 2], 3, 4), ([4, 4], 4, 5)):
        b = battle(card, first=1, opponent=("blade",))
        _taint(b, 0, 4)
        b.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
              "component": "chassis", "faces": faces})  # fmt: skip
        assert [p.kind for p in b.state.prompts] == ["reactive"]
        left = damage - 3
        answer: dict[str, Any] = {"type": "play_reactive", "seat": 0, "card": "ignore-pain#1",
                                  "spend": True, "faces": [face] * left}  # fmt: skip
        events = b.do(answer)
        assert one(events, ReactivePlayed).reduction == 3
        rolled = one(events, DefenceRolled)
        assert (len(rolled.faces), rolled.final_damage, rolled.reduction_applied) == (left, left, 3)
        assert rolled.pierce == (face == 5)
        assert (b.seat(0).taint, b.seat(0).heat) == (1, 1)
    # No spend, no card: its price is the Taint (R-ADD-290).
    b = battle(card, first=1, opponent=("blade",))
    b.do({"type": "attack", "seat": 1, "card": "blade#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    err = b.refuse({"type": "play_reactive", "seat": 0, "card": "ignore-pain#1", "faces": [4] * 3})
    assert (err.code, err.rule) == ("spend_required", "R-ADD-290")


def _with_spells(
    card: CardDef, *spells: CardDef, gap: int = 3, hexes: tuple[dict[str, Any], ...] = ()
) -> Battle:
    """Seat 0 at [0, 3] holds `card`, the spells and a gun (a ranged attack of no school),
    seat 1 is `gap` hexes north, the board has `hexes`; seat 0 acts first (like `battle`,
    with real cards in hand)."""
    ids = [card.id, *(x.id for x in spells), "gun"]
    doc: dict[str, Any] = {
        "name": "Spell yard", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8},
                                        "hexes": list(hexes)},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt",
        "cards": [CARDS[FILLER], MAUL, CARDS["gun"], card.as_dict(), *(x.as_dict() for x in spells)],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(**{i: 1 for i in ids})},
            {**seat(1, at=(0, 3 - gap), facing=4), "deck": deck(**{"test-maul": 2})},
        ],
    }  # fmt: skip
    made = {h["terrain"] for h in hexes} & {"lava", "fire_wall"}
    if made:  # the kinds cards make, named by the board (R-ADD-160)
        doc["board"]["terrain_kinds"] = {k: {} for k in sorted(made)}
    b = Battle.create(doc)
    b.do({"type": "keep_hand", "seat": 0, "drawn": ids + [FILLER] * (6 - len(ids))})
    b.do({"type": "keep_hand", "seat": 1, "drawn": ["test-maul"] + [FILLER] * 5, "faces": [6, 1]})
    return b


def _shoot(b: Battle, instance: str) -> int:
    """Seat 0 attacks seat 1 with `instance` (a missing roll): the hit's damage declared."""
    d = one(b.do({"type": "attack", "seat": 0, "card": instance, "target": 1,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    return hit(d)


def _next_spell(cid: str, school: str, spell: str, other: str, heat: int) -> None:
    """ "…, next <school> spell +1 damage": the +1 waits for the owner's next attack made
    with a card of that item school (R-ADD-292); an attack with a card of no school or of
    another school neither gets nor spends it. The card's own Heat is `heat`."""
    card = built("equipment_items", cid)
    mine, theirs = built("equipment_items", spell), built("equipment_items", other)
    assert f"school: {school}" in mine.keywords and f"school: {school}" not in theirs.keywords
    b = _with_spells(card, mine, theirs)
    b.do({"type": "adjust_heat", "seat": 0, "heat": 3, "reason": "arranged"})
    play(b, cid)
    assert b.seat(0).heat == 3 + heat
    assert _shoot(b, "gun#1") == 2  # no school
    assert _shoot(b, f"{other}#1") == theirs.damage  # another school
    assert _shoot(b, f"{spell}#1") == (mine.damage or 0) + 1
    assert not b.seat(0).enhancements


def _heat_absorption() -> None:
    """ "Remove 2 Heat, next fire spell +1 damage" (Pyromancer's Grimoire, school Fire)."""
    _next_spell("pyromancer-s-grimoire-heat-absorption", "fire",
                "pyromancer-s-grimoire-fireball", "shock-rod-static-jolt", -2)  # fmt: skip


def _charge() -> None:
    """ "Gain 1 Heat, next lightning spell +1 damage" (Shock Rod, school Lightning)."""
    _next_spell("shock-rod-charge", "lightning", "shock-rod-static-jolt",
                "pyromancer-s-grimoire-fireball", 1)  # fmt: skip


def _magma_veins() -> None:
    """ "Teleport to any Lava Terrain hex within 8 hexes. Draw 2 cards. Generate 1 Heat."
    for 3 Forge tokens (R-ADD-133): the destination is a lava hex, no other (R-ADD-293),
    within 8 (R-ADD-102)."""
    card = built("crucible", "magma-veins")
    lava = ({"q": 3, "r": -2, "terrain": "lava"}, {"q": -1, "r": -5, "terrain": "lava"})
    b = _with_spells(card, hexes=lava)
    arrange(b, TokensChanged(0, "forge", 3, 3, "arranged"))
    hand = len(b.seat(0).hand)
    events = play(b, "magma-veins", path=[[3, -2]], drawn=[FILLER] * 2)
    assert one(events, CasketTeleported).at == (3, -2)
    assert (b.seat(0).tokens_of("forge"), b.seat(0).heat) == (0, 1)
    assert len(b.seat(0).hand) == hand - 1 + 2
    for path, code in (([[2, -2]], "not_onto_terrain"), ([[-1, -5]], "too_far")):
        other = _with_spells(card, hexes=lava)
        arrange(other, TokensChanged(0, "forge", 3, 3, "arranged"))
        err = other.refuse({"type": "play_card", "seat": 0, "card": "magma-veins#1",
                            "path": path, "drawn": [FILLER] * 2})  # fmt: skip
        assert err.code == code
    poor = _with_spells(card, hexes=lava)
    arrange(poor, TokensChanged(0, "forge", 2, 2, "arranged"))
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "magma-veins#1",
                       "path": [[3, -2]], "drawn": [FILLER] * 2})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-133")


def _heat_spike() -> None:
    """ "Spend 1 enemy Taint Marker: Target gains +1 Heat immediately." (printed range
    "Target"): any enemy in the battle, however far, pays with its own Taint (R-ADD-294)."""
    card = built(TAINT, "heat-spike")
    b = battle(card, gap=8)
    _taint(b, 1, 2)
    events = play(b, "heat-spike", spend=True, target=1)
    assert one(events, TaintChanged).seat == 1 and b.seat(1).taint == 1
    assert (b.seat(1).heat, b.seat(0).heat, b.seat(0).taint) == (1, 0, 0)
    for extra, code in (({}, "spend_required"), ({"spend": True}, "target_required"),
                        ({"spend": True, "target": 0}, "not_an_enemy")):  # fmt: skip
        other = battle(card, gap=8)
        _taint(other, 1, 2)
        _taint(other, 0, 2)
        err = other.refuse({"type": "play_card", "seat": 0, "card": "heat-spike#1", **extra})
        assert err.code == code, extra
    clean = battle(card, gap=8)
    _taint(clean, 0, 3)  # the own Taint does not pay for it
    err = clean.refuse({"type": "play_card", "seat": 0, "card": "heat-spike#1", "spend": True,
                        "target": 1})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-145")


def _taint_overload() -> None:
    """ "Spend 5 enemy Taint Markers: Target immediately flips 1 Pilot Wound card (neural
    feedback).": the enemy's 5 Taint go and its pilot flips one wound (R-PLT-1, R-ADD-294)."""
    card = built(TAINT, "taint-overload")
    b = battle(card, gap=6)
    _taint(b, 1, 6)
    deck = len(b.seat(1).wound_deck)
    events = play(b, "taint-overload", spend=True, target=1, drawn=["severe-1"])  # a table
    flipped = one(events, WoundFlipped)
    assert (flipped.seat, flipped.wound) == (1, "severe-1") and b.seat(1).wounds == ("severe-1",)
    assert (len(b.seat(1).wound_deck), b.seat(1).taint) == (deck - 1, 1)
    assert not b.seat(0).wounds
    poor = battle(card, gap=6)
    _taint(poor, 1, 4)
    err = poor.refuse({"type": "play_card", "seat": 0, "card": "taint-overload#1",
                       "spend": True, "target": 1, "drawn": ["severe-1"]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-145")


def _exposed_weakness() -> None:
    """ "Spend 1 enemy Taint Marker: Gain Advantage on your next attack against that enemy
    (roll 3 Attack Dice, take 2 highest).": the enemy's Taint pays (R-ADD-294); its next
    attack on that enemy rolls 3 dice and keeps 2 (R-HIT-6), and spends it (R-ADD-295)."""
    card = built(TAINT, "exposed-weakness")
    b = battle(card, hand=("gun",), gap=3)
    _taint(b, 1, 1)
    events = play(b, "exposed-weakness", spend=True, target=1)
    assert (one(events, TargetBonusGained).advantage, b.seat(1).taint) == (1, 0)
    shot = {"type": "attack", "seat": 0, "card": "gun#1", "target": 1, "component": "chassis"}
    events = b.do({**shot, "faces": [1, 1, 5, 4, 4]})  # 1 + 5 kept: a hit; 2 defence dice
    assert one(events, AttackDeclared).to_hit["dice"] == {"count": 3, "keep": "highest"}
    assert (one(events, AttackRolled).total, one(events, AttackRolled).grade) == (6, "hit")
    assert not b.seat(0).advantage_against  # spent by that attack
    plain = battle(card, hand=("gun",), gap=3)
    d = one(plain.do({**shot, "faces": [1, 1]}), AttackDeclared)
    assert d.to_hit["dice"] == {"count": 2, "keep": "all"}


def _decay_aura() -> None:
    """ "Enemies within 3 hexes gain +1 Taint per turn (passive corruption radiation).": the
    card stays in play; each enemy within 3 hexes as its own turn starts gains 1 Taint
    (R-ADD-296), one farther away none."""
    card = built(TAINT, "decay-aura")
    for gap, gained in ((3, 1), (4, 0)):
        b = battle(card, gap=gap)
        play(b, "decay-aura")
        assert b.seat(0).in_play == ("decay-aura#1",) and b.seat(1).taint == 0
        events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
        assert b.state.active == 1 and b.seat(1).taint == gained
        assert [e.seat for e in of_type(events, TaintChanged)] == [1] * gained


def _flagellants_zeal_taint() -> None:
    """ "Discard 3 cards (self-harm), gain 2 Taint Markers. Gain +2 SP this turn only
    (temporary burst).": the 3 cards come off the top of the deck as the Church's other
    self-harm does (R-ADD-297), the own pilot gains 2 Taint and 2 SP more this turn."""
    card = built(TAINT, "flagellants-zeal-taint")
    b = battle(card)
    deck, hand, sp = len(b.seat(0).deck), len(b.seat(0).hand), b.seat(0).sp_left
    events = play(b, "flagellants-zeal-taint", drawn=[FILLER] * 3)
    assert len(one(events, CardsDiscarded).from_deck) == 3
    assert (len(b.seat(0).deck), len(b.seat(0).hand)) == (deck - 3, hand - 1)
    assert b.seat(0).taint == 2 and b.seat(0).sp_left == sp - card.sp_cost + 2
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2: seat 0 first again
    assert b.state.active == 0 and b.seat(0).sp_left == sp  # "this turn only"


def _swarm(card: CardDef, allies: list[tuple[tuple[int, int], str | None]]) -> Battle:
    """Seat 0 (side "swarm", at [0, 3]) holds `card` and acts first; seat 1, an enemy, is
    far north; `allies` are more seats of side "swarm" (hex, faction or None)."""
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="swarm"), "deck": deck(**{card.id: 1})},
        {**seat(1, at=(0, -5), facing=4, side="prey"), "deck": deck()},
    ]
    for i, (at, faction) in enumerate(allies):
        s = {**seat(2 + i, at=at, facing=1, side="swarm"), "deck": deck()}
        if faction is not None:  # R-ADD-121: the setup names the casket's faction
            s["casket"] = {**s["casket"], "faction": faction}
        seats.append(s)
    doc = {
        "name": "Hive", "board": {"name": "Hive", "shape": {"kind": "hexagon", "radius": 8},
                                  "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], card.as_dict()], "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *[FILLER] * 5], *[[FILLER] * 6] * (len(seats) - 1)]
    return start(doc, hands, initiative=(6, *range(1, len(seats))))


def _swarm_intelligence() -> None:
    """ "Passive: Gain +1 Metamorph token at the start of each round. If 3+ allied Emergent
    Syndicate Caskets are within 4 hexes, gain +2 tokens instead.": allies whose setup
    names the faction (R-ADD-121), counted as each round starts (R-ADD-137)."""
    card = built("emergent", "swarm-intelligence")
    near = [((1, 3), "emergent"), ((-1, 3), "emergent"), ((0, 0), "emergent")]
    for allies, gained in (
        (near, 2),
        ([*near[:2], ((0, 0), None)], 1),  # an ally of no named faction is not counted
        ([*near[:2], ((0, -2), "emergent")], 1),  # 5 hexes away: beyond the 4
    ):
        b = _swarm(card, allies)
        play(b, "swarm-intelligence")
        assert b.seat(0).tokens_of("metamorph") == 0
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
        for other in range(1, len(b.state.seats) - 1):
            b.do({"type": "pass", "seat": other})
        last = len(b.state.seats) - 1
        b.do({"type": "pass", "seat": last, "faces": [6, *range(1, last + 1)]})  # round 2
        assert b.state.round == 2 and b.seat(0).tokens_of("metamorph") == gained, allies


def _living_forge() -> None:
    """ "Passive: At the start of your turn, if you are standing in Lava Terrain (or within 1
    hex of fire), gain 1 Forge token. **Bonus:** Gain 2 Forge tokens instead if you are
    standing directly in lava.": fire is lava or a fire wall, in the own hex or next to it
    (R-ADD-298)."""
    card = built("crucible", "living-forge")
    for hexes, gained in (
        ([{"q": 0, "r": 3, "terrain": "lava"}], 2),  # standing in lava
        ([{"q": 0, "r": 4, "terrain": "lava"}], 1),  # lava next to the casket
        ([{"q": 1, "r": 3, "terrain": "fire_wall"}], 1),  # a fire wall next to it
        ([{"q": 0, "r": 5, "terrain": "lava"}], 0),  # 2 hexes away
    ):
        b = _with_spells(card, gap=3, hexes=tuple(hexes))
        play(b, "living-forge")
        assert b.seat(0).in_play == ("living-forge#1",)
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
        b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2: seat 0's turn starts
        assert b.state.active == 0 and b.seat(0).tokens_of("forge") == gained, hexes


def _force_reroll() -> None:
    """ "Spend 2 enemy Taint Markers: Force target to reroll up to 2 successful Defense
    Dice." (taint-exploitation.md: "After target rolls Defense Dice, before applying
    damage"): held by the attacker, it answers its own attack's defence roll; the attacker
    picks up to 2 blocking dice, the enemy's 2 Taint pay, the dice are rolled again and the
    new roll is applied (R-ADD-294, R-ADD-412)."""
    card = built(TAINT, "force-reroll")
    shot = {"type": "attack", "seat": 0, "card": "gun#1", "target": 1, "component": "chassis"}

    def armed(taint: int = 3) -> Battle:
        b = battle(card, hand=("gun",), gap=3)
        _taint(b, 1, taint)
        return b

    b = armed()
    # The reactive card is the attacker's: it is never played in the own turn.
    err = b.refuse({"type": "play_card", "seat": 0, "card": "force-reroll#1", "spend": True,
                    "target": 1})  # fmt: skip
    assert err.code == "reactive_in_own_turn"
    events = b.do({**shot, "faces": [1, 5, 1, 3]})  # a hit; SHIELD and ABSORB block both
    offer = one(events, DefenceRerollOffered)
    assert (offer.seat, offer.target, offer.faces, offer.blocking) == (0, 1, (1, 3), (1, 2))
    assert not of_type(events, DefenceRolled)  # the roll waits: no damage yet
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind) == (0, "defence_reroll")
    force = {"type": "play_reactive", "seat": 0, "card": "force-reroll#1", "spend": True}
    bodies = [a.body for a in legal_actions(b.state)]
    assert bodies == [
        {"type": "no_reactive", "seat": 0},
        *({**force, "dice": dice} for dice in ([1], [2], [1, 2])),
    ]
    events = b.do({**force, "dice": [1, 2], "faces": [4, 4]})
    rerolled = one(events, DefenceRerolled)
    assert (rerolled.dice, rerolled.faces, rerolled.card) == ((1, 2), (4, 4), "force-reroll#1")
    rolled = one(events, DefenceRolled)
    assert (rolled.faces, rolled.blocks, rolled.final_damage) == ((4, 4), 0, 2)
    assert b.seat(1).taint == 1 and one(events, TaintChanged).amount == -2
    assert "force-reroll#1" in b.seat(0).discard and "force-reroll#1" not in b.seat(0).hand
    # Up to 2, of the dice that blocked: one die alone; a BLOOD die cannot be named.
    b = armed()
    b.do({**shot, "faces": [1, 5, 1, 4]})  # SHIELD blocks, BLOOD does not
    for extra, code in (({"dice": [2]}, "wrong_dice"), ({"dice": [1], "spend": False},
                        "spend_required"), ({}, "wrong_dice")):  # fmt: skip
        err = b.refuse({**force, "faces": [4], **extra})
        assert err.code == code, extra
    events = b.do({**force, "dice": [1], "faces": [2]})
    assert one(events, DefenceRolled).faces == (2, 4)  # SHIELD again: 1 damage
    assert one(events, DefenceRolled).final_damage == 1 and b.seat(1).taint == 1
    # Letting the roll stand keeps the card and the Taint.
    b = armed()
    b.do({**shot, "faces": [1, 5, 1, 3]})
    events = b.do({"type": "no_reactive", "seat": 0})
    assert one(events, DefenceRolled).final_damage == 0 and not of_type(events, DefenceRerolled)
    assert "force-reroll#1" in b.seat(0).hand and b.seat(1).taint == 3
    # No blocking die, or an enemy with less than 2 Taint: no answer is asked.
    for taint, faces in ((3, [1, 5, 4, 4]), (1, [1, 5, 1, 3])):
        b = armed(taint)
        events = b.do({**shot, "faces": faces})
        assert not of_type(events, DefenceRerollOffered) and one(events, DefenceRolled)


SPENDS_SCENARIOS.update({
    (TAINT, "tainted-fury"): _tainted_fury,
    (TAINT, "void-step"): _void_step,
    (TAINT, "ignore-pain"): _ignore_pain,
    ("equipment_items", "pyromancer-s-grimoire-heat-absorption"): _heat_absorption,
    ("equipment_items", "shock-rod-charge"): _charge,
    ("crucible", "magma-veins"): _magma_veins,
    (TAINT, "heat-spike"): _heat_spike,
    (TAINT, "taint-overload"): _taint_overload,
    (TAINT, "exposed-weakness"): _exposed_weakness,
    (TAINT, "force-reroll"): _force_reroll,
    (TAINT, "decay-aura"): _decay_aura,
    (TAINT, "flagellants-zeal-taint"): _flagellants_zeal_taint,
    ("emergent", "swarm-intelligence"): _swarm_intelligence,
    ("crucible", "living-forge"): _living_forge,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(SPENDS_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_spend_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, SPENDS_SCENARIOS[key])
