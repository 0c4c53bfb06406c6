"""Scenarios for the catalogue entries of issue 17's "states" group: cards whose text
depends on a state or condition of the battle (corrupted enemies, Heat given to another
casket, Taint spent, caskets destroyed this round, ...). Played through decide/evolve with
the helpers of test_card_catalogue.py; `test_every_automated_entry_has_a_scenario_below`
(there) counts the scenarios of this file too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.commands import command_body, parse_command
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CasketDefeated,
    CasketWithdrew,
    DamageTaken,
    DefenceRolled,
    EnemyMarked,
    Event,
    HeatChanged,
    SeedsPlanted,
    StatusApplied,
    TaintChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef, card_from_dict, effect_from_dict
from battles.engine.errors import InvalidInput
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start, types
from .test_card_catalogue import (
    AUTOMATED,
    Attack,
    arrange,
    attack,
    battle,
    built,
    check_attack,
    declared,
    hit,
    resolve_hit,
    run_scenario,
)

STATES_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _heat(b: Battle, seat_: int, heat: int) -> None:
    b.do({"type": "adjust_heat", "seat": seat_, "heat": heat, "reason": "arranged"})


def _taint(b: Battle, seat_: int, taint: int) -> None:
    b.do({"type": "adjust_taint", "seat": seat_, "taint": taint, "reason": "arranged"})


def _hp(b: Battle, hp: int) -> None:
    """Seat 1 down to `hp` HP (R-DMG-9): deck cards discarded to the damage pile (2.1)."""
    arrange(b, DamageTaken(1, (), b.seat(1).deck[: b.seat(1).hp - hp], 0, None))
    assert b.seat(1).hp == hp


def _with_seats(
    card: CardDef,
    others: list[tuple[tuple[int, int], str]],
    hexes: tuple[tuple[int, int, str], ...] = (),
) -> Battle:
    """Seat 0 ("near", at [0, 3] facing N) holds `card` and acts first; seat 1 ("far")
    stands adjacent, north, facing S; `others` are further seats (hex, side); `hexes`
    are (q, r, terrain) cells of the board."""
    cards = [CARDS[FILLER], card.as_dict()]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="near"), "deck": deck(**{card.id: 2})},
        {**seat(1, at=(0, 2), facing=4, side="far"), "deck": deck()},
        *(
            {**seat(2 + i, at=at, facing=1, side=side), "deck": deck()}
            for i, (at, side) in enumerate(others)
        ),
    ]
    doc = {
        "name": "States yard", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8},
                                         "hexes": [{"q": q, "r": r, "terrain": t} for q, r, t in hexes],
                                         "terrain_kinds": {t: {} for _, _, t in hexes if t == "lava"}},
        "rules": {"version": "2.1", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *[FILLER] * 5], *[[FILLER] * 6] * (len(seats) - 1)]
    b = start(doc, hands, initiative=(6, *range(1, len(seats))))
    assert b.state.active == 0
    return b


# --- R-ADD-273: a condition printed after the card's own Heat counts it ---------------------


def _forge_hammer_smash() -> None:
    """ "Deal 6 damage. This attack ignores armor. Generate 2 Heat. If you have 3+ Heat,
    deal 8 damage instead.": in printed order the card's own 2 Heat comes first and counts
    toward its 3+ (R-ADD-273), so a casket at 1 Heat deals 8 and ends at 3; at 0 Heat, 6."""
    b = check_attack("dwarves", "forge-hammer-smash", Attack(1, 6, MAX_DAMAGE))
    assert b.seat(0).heat >= 2  # the card's Heat (a missing roll may add the jam's)
    card = built("dwarves", "forge-hammer-smash")
    for heat, damage in ((0, 6), (1, 8), (2, 8), (3, 8)):
        b = battle(card)
        if heat:
            _heat(b, 0, heat)
        events = attack(b, card, faces=[1, 2])
        assert hit(one(events, AttackDeclared)) == damage, heat
        assert b.seat(0).heat == heat + 2


def _warhammer_forge_fury() -> None:
    """ "Deal 3 damage + 1 per Heat you have (max +6), remove all Heat": the Heat as the
    card is played (R-ADD-59), all of it removed once the attack ends (R-ADD-65)."""
    card = built("equipment_items", "warhammer-forge-fury")
    for heat, damage in ((0, 3), (1, 4), (4, 7), (6, 9), (8, 9)):
        b = battle(card)
        if heat:
            _heat(b, 0, heat)
        events = attack(b, card, faces=[1, 2])
        assert hit(one(events, AttackDeclared)) == damage, heat
        assert b.seat(0).heat == 0


# --- R-ADD-140: corrupted enemies are those whose pilot has Taint ------------------------------


def _vs_corrupted(cid: str, reach: int, base: int, bonus: int) -> Battle:
    card = built("equipment_items", cid)
    check_attack("equipment_items", cid, Attack(reach, base))
    b = battle(card, gap=reach, version="2.1")
    _taint(b, 1, 1)
    assert hit(declared(b, card)) == base + bonus
    return b


def _blessed_talisman_holy_smite() -> None:
    """ "Deal 1 damage, +1 damage vs corrupted enemies": a target whose pilot has Taint
    (R-ADD-140)."""
    _vs_corrupted("blessed-talisman-holy-smite", 4, 1, 1)


def _codex_of_light_radiant_bolt() -> None:
    """ "Deal 3 damage, +2 damage vs corrupted enemies" (R-ADD-140)."""
    _vs_corrupted("codex-of-light-radiant-bolt", 6, 3, 2)


def _holy_water_flask() -> None:
    """ "Deal 3 damage (+5 vs corrupted), purge 2 Taint from target. Remove this card from
    game after use.": the purge follows the hit (R-ADD-65), the card leaves (R-ADD-70)."""
    _vs_corrupted("holy-water-vials-holy-water-flask", 3, 3, 5)
    card = built("equipment_items", "holy-water-vials-holy-water-flask")
    b = battle(card, version="2.1")
    _taint(b, 1, 3)
    events = resolve_hit(b, card, 8, kill=False)
    assert one(events, TaintChanged).amount == -2 and b.seat(1).taint == 1
    assert b.seat(0).removed == (f"{card.id}#1",)
    missed = battle(card, version="2.1")
    _taint(missed, 1, 3)
    attack(missed, card, faces=[1, 2])
    assert missed.seat(1).taint == 3 and missed.seat(0).removed == (f"{card.id}#1",)


def _blessed_vial() -> None:
    """ "Deal 2 damage (+4 vs corrupted). Remove this card from game after use." """
    b = _vs_corrupted("holy-water-vials-blessed-vial", 3, 2, 4)
    assert b.seat(0).removed == ("holy-water-vials-blessed-vial#1",)


# --- R-ADD-141: damage only under a condition ----------------------------------------------------


def _greatsword_execute() -> None:
    """ "Deal 6 damage if target has 10 HP or less": 0 otherwise (R-ADD-141)."""
    card = built("equipment_items", "greatsword-execute")
    for hp, damage in ((11, 0), (10, 6)):
        b = battle(card, version="2.1")
        _hp(b, hp)
        assert hit(declared(b, card)) == damage, hp


def _opportunist_strike() -> None:
    """ "8 damage if target moved this turn.": the target's most recent turn (R-ADD-141,
    R-HIT-2), 0 damage otherwise."""
    card = built("equipment", "opportunist-strike")
    assert hit(declared(battle(card), card)) == 0
    b = battle(card, gap=2, first=1)
    b.do({"type": "move", "seat": 1, "path": [[0, 2]]})
    b.do({"type": "pass", "seat": 1})
    assert hit(declared(b, card)) == 8


# --- R-ADD-142: Pack Instinct "(+1 ally adjacent)" -----------------------------------------------


def _rending_bite() -> None:
    """ "Deal 4 damage. If you have Pack Instinct active (+1 ally adjacent), deal 5 damage
    instead.": another casket of the own side adjacent to the attacker (R-ADD-142)."""
    card = built("equipment", "rending-bite")
    check_attack("equipment", "rending-bite", Attack(1, 4))
    for others, damage in (
        ([((1, 3), "near")], 5),  # an adjacent ally
        ([((2, 3), "near")], 4),  # two hexes away
        ([((1, 3), "far")], 4),  # an adjacent enemy is no pack
    ):
        b = _with_seats(card, others)
        assert hit(declared(b, card)) == damage, others


STATES_SCENARIOS.update({
    ("dwarves", "forge-hammer-smash"): _forge_hammer_smash,
    ("equipment_items", "warhammer-forge-fury"): _warhammer_forge_fury,
    ("equipment_items", "blessed-talisman-holy-smite"): _blessed_talisman_holy_smite,
    ("equipment_items", "codex-of-light-radiant-bolt"): _codex_of_light_radiant_bolt,
    ("equipment_items", "holy-water-vials-holy-water-flask"): _holy_water_flask,
    ("equipment_items", "holy-water-vials-blessed-vial"): _blessed_vial,
    ("equipment_items", "greatsword-execute"): _greatsword_execute,
    ("equipment", "opportunist-strike"): _opportunist_strike,
    ("equipment", "rending-bite"): _rending_bite,
})  # fmt: skip


# --- R-ADD-143: Heat given to another casket -----------------------------------------------------


def _nearest(card: CardDef) -> int:
    assert card.range is not None
    return card.range.low


def _target_heat(cid: str, reach: int, damage: int, given: int, own: int) -> None:
    """The target gains `given` Heat on a hit only; the attacker's own Heat is `own`."""
    card = built("equipment_items", cid)
    missed = check_attack("equipment_items", cid, Attack(reach, damage))
    assert missed.seat(1).heat == 0  # a missing roll gives the target nothing
    b = battle(card, gap=_nearest(card), version="2.1")
    _heat(b, 0, 1)  # so that "you remove 1 Heat" shows
    events = resolve_hit(b, card, damage, kill=False)
    heat = [e for e in of_type(events, HeatChanged) if e.seat == 1]
    assert [(e.amount, e.rule) for e in heat] == [(given, "R-ADD-143")]
    assert (b.seat(1).heat, b.seat(0).heat) == (given, 1 + own)


def _ember_bolt() -> None:
    """ "Deal 2 damage, target gains 1 Heat": on a hit (R-ADD-143)."""
    _target_heat("flame-wand-ember-bolt", 4, 2, 1, 0)


def _ignite() -> None:
    """ "Deal 1 damage, target gains 2 Heat" (R-ADD-143)."""
    _target_heat("flame-wand-ignite", 3, 1, 2, 0)


def _immolation() -> None:
    """ "Deal 5 damage, target gains 3 Heat, you gain 2 Heat": the own 2 as the card is
    played, the target's 3 on the hit (R-ADD-143)."""
    _target_heat("pyromancer-s-grimoire-immolation", 5, 5, 3, 2)


def _holy_fire() -> None:
    """ "Deal 4 damage, target gains 2 Heat, you remove 1 Heat" (R-ADD-143)."""
    _target_heat("divine-scepter-holy-fire", 6, 4, 2, -1)


def _flame_shield() -> None:
    """ "Reduce damage by 1, attacker gains 1 Heat": reactive (R-REA-1), the Heat given
    once the attack has ended; a PIERCE face voids the card (R-DMG-4, R-ADD-143)."""
    cid = "flame-wand-flame-shield"
    for faces, final, heat in (([4, 4], 1, 1), ([5, 4], 2, 0)):
        b = battle(built("equipment_items", cid), first=1, version="2.1")
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        events = b.do({"type": "play_reactive", "seat": 0, "card": f"{cid}#1", "faces": faces})
        assert one(events, DefenceRolled).final_damage == final
        assert b.seat(1).heat == 0  # not before the attack ends
        events = b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": final,
                       "drawn": [FILLER] * final})  # fmt: skip
        assert b.seat(1).heat == heat, faces
        assert (one(events, AttackEnded) is not None) and b.state.attack is None


STATES_SCENARIOS.update({
    ("equipment_items", "flame-wand-ember-bolt"): _ember_bolt,
    ("equipment_items", "flame-wand-ignite"): _ignite,
    ("equipment_items", "pyromancer-s-grimoire-immolation"): _immolation,
    ("equipment_items", "divine-scepter-holy-fire"): _holy_fire,
    ("equipment_items", "flame-wand-flame-shield"): _flame_shield,
})  # fmt: skip


# --- R-ADD-144: conditions of the round, the turn and the mission ------------------------------


def _hp_of(b: Battle, seat_: int, hp: int) -> None:
    c = b.seat(seat_)
    arrange(b, DamageTaken(seat_, (), c.deck[: c.hp - hp], 0, None))


def _holy_smite() -> None:
    """ "Deal 5 damage. If you've discarded cards this turn (via Blood Offering or other
    effects), deal 7 damage instead.": a discard in the own turn; damage taken is none
    (R-ADD-144)."""
    card = built("church", "holy-smite")
    check_attack("church", "holy-smite", Attack(1, 5))
    b = battle(card, hand=("purge",))
    b.do({"type": "play_card", "seat": 0, "card": "purge#1", "discard": [FILLER]})
    assert b.seat(0).discarded_this_turn
    assert hit(declared(b, card)) == 7
    hurt = battle(card, version="2.1")
    _hp_of(hurt, 0, hurt.seat(0).hp - 1)
    assert hit(declared(hurt, card)) == 5


def _killed_by(b: Battle, killer: int, victim: int) -> None:
    """Seat `killer`'s attack defeats seat `victim` (folded: the scenario's turn order has
    no room for it; `test_an_attack_that_defeats_its_target_is_the_attackers_kill` plays
    one through decide)."""
    weapon = b.seat(killer).hand[0]
    arrange(
        b,
        CardPlayed(killer, weapon, 0, False, ""),
        AttackDeclared(killer, victim, weapon, "chassis", None, 5, 1, (("hit", 2),), 0,
                       False, False, {}),
        CasketDefeated(victim, "arranged", "R-TRN-8"),
        AttackEnded(killer, weapon, "hit"),
    )  # fmt: skip


def _judgment_strike() -> None:
    """ "Deal 4 damage. If target has killed an ally this mission, deal 6 damage instead
    (vengeance).": a casket of the attacker's side its attacks defeated (R-ADD-144)."""
    card = built("church", "judgment-strike")
    check_attack("church", "judgment-strike", Attack(1, 4))
    for victim, damage in (("near", 6), ("far", 4)):
        b = _with_seats(card, [((0, 0), victim)])
        _killed_by(b, 1, 2)
        assert b.seat(1).kills == (2,)
        assert hit(declared(b, card)) == damage, victim


def _righteous_slash() -> None:
    """ "Deal 4 damage. +1 if target damaged this round.": cards lost to damage this
    round, not discards (R-ADD-144)."""
    card = built("equipment", "righteous-slash")
    check_attack("equipment", "righteous-slash", Attack(1, 4))
    b = battle(card)
    _hp_of(b, 1, b.seat(1).hp - 1)
    assert b.seat(1).damaged_round == b.state.round == 1
    assert hit(declared(b, card)) == 5
    b = battle(card)
    arrange(b, CardsDiscarded(1, (), b.seat(1).deck[:1], "arranged", "R-ADD-14"))
    assert hit(declared(b, card)) == 4


def _ember_strike() -> None:
    """ "Deal 5 damage. If you are standing in or adjacent to lava terrain, deal 6 damage
    instead.": the own hex or a neighbour (R-ADD-144)."""
    card = built("equipment", "ember-strike")
    check_attack("equipment", "ember-strike", Attack(1, 5))
    assert hit(declared(battle(card, lava=True), card)) == 6  # standing in it
    for lava, damage in (((1, 3), 6), ((2, 3), 5)):
        b = _with_seats(card, [], hexes=((*lava, "lava"),))
        assert hit(declared(b, card)) == damage, lava


def _junk(b: Battle, n: int) -> tuple[str, ...]:
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:n]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    return junk


def _corpse_harvest(section: str, damage: int) -> None:
    """ "Deal N damage. If any Casket was destroyed this round within 6 hexes, recover 3
    cards from discard pile.": either side's casket, where it fell (R-ADD-144)."""
    card = built(section, "corpse-harvest")
    check_attack(section, "corpse-harvest", Attack(1, damage))
    for at, side, recovered in (((0, -3), "near", 3), ((3, 0), "far", 3), ((0, -4), "far", 0)):
        b = _with_seats(card, [(at, side)])
        junk = _junk(b, 3)
        arrange(b, CasketDefeated(2, "arranged", "R-TRN-8"))
        assert b.seat(2).defeated_round == 1
        events = attack(b, card)
        assert hit(one(events, AttackDeclared)) == damage
        back = [c for e in of_type(events, CardsRecovered) for c in e.cards]
        assert sorted(back) == sorted(junk[:recovered]), (at, side)
    b = _with_seats(card, [((0, -3), "far")])
    _junk(b, 3)
    arrange(b, CasketWithdrew(2, "R-TRN-9"))  # a withdrawal destroys nothing
    assert not of_type(attack(b, card), CardsRecovered)


def _corpse_fuel_siphon(section: str) -> None:
    """ "If a Casket was destroyed within 3 hexes this round, recover 2 cards from discard
    pile and draw 1 card." (R-ADD-144)"""
    card = built(section, "corpse-fuel-siphon")
    for at, more in (((0, 0), True), ((0, -1), False)):
        b = _with_seats(card, [(at, "far")])
        junk = _junk(b, 2)
        arrange(b, CasketDefeated(2, "arranged", "R-TRN-8"))
        hand = len(b.seat(0).hand)
        body: dict[str, Any] = {"type": "play_card", "seat": 0, "card": f"{card.id}#1"}
        if more:
            body["drawn"] = [FILLER]
        events = b.do(body)
        assert bool(of_type(events, CardsRecovered)) == bool(of_type(events, CardsDrawn)) == more
        assert len(b.seat(0).hand) == hand - 1 + (3 if more else 0), at
        assert (set(junk) <= set(b.seat(0).hand)) == more


def _call_lightning() -> None:
    """ "Deal 4 damage, if target is in open terrain (no cover), deal 6 damage instead":
    the cover of the attack's line of sight (R-COV-1, R-ADD-144)."""
    card = built("equipment_items", "tempest-scepter-call-lightning")
    assert hit(declared(battle(card, gap=4), card)) == 6
    assert hit(declared(battle(card, gap=4, cover=True), card)) == 4


STATES_SCENARIOS.update({
    ("church", "holy-smite"): _holy_smite,
    ("church", "judgment-strike"): _judgment_strike,
    ("equipment", "righteous-slash"): _righteous_slash,
    ("equipment", "ember-strike"): _ember_strike,
    ("equipment", "corpse-harvest"): lambda: _corpse_harvest("equipment", 2),
    ("equipment_items", "corpse-harvest"): lambda: _corpse_harvest("equipment_items", 3),
    ("equipment", "corpse-fuel-siphon"): lambda: _corpse_fuel_siphon("equipment"),
    ("equipment_items", "corpse-fuel-siphon"): lambda: _corpse_fuel_siphon("equipment_items"),
    ("equipment_items", "tempest-scepter-call-lightning"): _call_lightning,
})  # fmt: skip


def test_an_attack_that_defeats_its_target_is_the_attackers_kill() -> None:
    """R-ADD-144: the kill is recorded by decide/evolve, with the round of the defeat."""
    card = built("church", "judgment-strike")
    b = battle(card, version="2.1")
    resolve_hit(b, card, 4, kill=True)
    assert (b.seat(0).kills, b.seat(1).defeated_round, b.seat(1).damaged_round) == ((1,), 1, 1)
    spared = battle(card, version="2.1")
    resolve_hit(spared, card, 4, kill=False)
    assert (spared.seat(0).kills, spared.seat(1).defeated_round) == ((), 0)


def test_the_discard_flag_is_the_own_turns() -> None:
    """R-ADD-144: a discard in another casket's turn does not count, and the flag lapses
    when the casket's next turn starts."""
    card = built("church", "holy-smite")
    b = battle(card, hand=("purge",))
    arrange(b, CardsDiscarded(1, (), b.seat(1).deck[:1], "arranged", "R-ADD-14"))
    assert not b.seat(1).discarded_this_turn  # seat 0's turn
    b.do({"type": "play_card", "seat": 0, "card": "purge#1", "discard": [FILLER]})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER, FILLER]})
    assert b.seat(0).discarded_this_turn
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.state.active == 0 and not b.seat(0).discarded_this_turn


# --- R-ADD-145: spending Taint -------------------------------------------------------------------


def _taint_attack(b: Battle, card: CardDef, **extra: Any) -> list[Event]:
    return attack(b, card, spend=True, **extra)


def _reality_rend(section: str) -> None:
    """ "Deal 5 damage. Spend 2 Taint (yours or target's): Deal 7 damage instead.": the
    player's choice of pilot, paid as the card is played (R-ADD-145)."""
    card = built(section, "reality-rend")
    check_attack(section, "reality-rend", Attack(1, 5))
    for whose, extra in ((0, {}), (0, {"taint_from": "self"}), (1, {"taint_from": "target"})):
        b = battle(card)
        _taint(b, whose, 3)
        events = _taint_attack(b, card, **extra)
        assert hit(one(events, AttackDeclared)) == 7
        spent = one(events, TaintChanged)
        assert (spent.seat, spent.amount, b.seat(whose).taint) == (whose, -2, 1), extra
        assert b.seat(1 - whose).taint == 0
    poor = battle(card)
    _taint(poor, 0, 1)
    _taint(poor, 1, 5)  # the target's Taint is not the attacker's
    err = poor.refuse({"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": 1,
                       "spend": True, "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-145")
    err = poor.refuse({"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": 1,
                       "taint_from": "target", "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert (err.code, err.rule) == ("unused_argument", "R-ADD-145")


def _unraveling(section: str) -> None:
    """ "Deal 6 damage. Spend all Taint on target (yours or theirs): +2 damage per Taint
    spent." (R-ADD-145)"""
    card = built(section, "unraveling")
    check_attack(section, "unraveling", Attack(1, 6))
    for whose, extra in ((0, {}), (1, {"taint_from": "target"})):
        b = battle(card)
        _taint(b, whose, 3)
        events = _taint_attack(b, card, **extra)
        assert hit(one(events, AttackDeclared)) == 12 and b.seat(whose).taint == 0
    clean = battle(card)
    err = clean.refuse({"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": 1,
                        "spend": True, "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert err.code == "not_enough_taint"  # "all" needs at least 1


def _reality_shift(section: str) -> None:
    """ "Play when targeted by attack. Reduce damage by 3 (minimum 1). Spend 1 Taint:
    Reduce by 4 instead.": the defender's own pilot's Taint (R-ADD-145); a Melee 2 hit
    stays at 1 either way (R-ADD-58), so the reduction itself is checked."""
    card = built(section, "reality-shift")
    for taint, spend, total in ((0, False, 3), (2, True, 4)):
        b = battle(card, first=1)
        if taint:
            _taint(b, 0, taint)
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        body: dict[str, Any] = {"type": "play_reactive", "seat": 0, "card": f"{card.id}#1",
                                "faces": [4, 4]}  # fmt: skip
        if spend:
            body["spend"] = True
        rolled = one(b.do(body), DefenceRolled)
        assert (rolled.reduction_applied, rolled.final_damage) == (total, 1)
        assert b.seat(0).taint == taint - spend
    b = battle(card, first=1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    err = b.refuse({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1", "spend": True,
                    "faces": [4, 4]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-145")


STATES_SCENARIOS.update({
    ("equipment", "reality-rend"): lambda: _reality_rend("equipment"),
    ("equipment_items", "reality-rend"): lambda: _reality_rend("equipment_items"),
    ("equipment", "unraveling"): lambda: _unraveling("equipment"),
    ("equipment_items", "unraveling"): lambda: _unraveling("equipment_items"),
    ("equipment", "reality-shift"): lambda: _reality_shift("equipment"),
    ("equipment_items", "reality-shift"): lambda: _reality_shift("equipment_items"),
})  # fmt: skip


def test_legal_actions_offer_each_pilots_taint_spend() -> None:
    """R-ADD-145: the attack without the spend, with the own Taint, and with the target's,
    each only when that pilot has the Taint."""
    card = built("equipment", "reality-rend")
    b = battle(card)
    _taint(b, 1, 2)
    bodies = [a.body for a in legal_actions(b.state, [0]) if a.body.get("card") == f"{card.id}#1"]
    spends = sorted((x.get("spend", False), x.get("taint_from", "")) for x in bodies)
    assert spends == [(False, ""), (True, "target")]
    _taint(b, 0, 2)
    bodies = [a.body for a in legal_actions(b.state, [0]) if a.body.get("card") == f"{card.id}#1"]
    assert len(bodies) == 3


# --- R-ADD-146: the attack's side, slow/freeze, open terrain ----------------------------------


def _longsword_thrust() -> None:
    """ "Deal 3 damage, +2 damage if attacking from front arc": side 1 of the side table
    (R-ARC-2, R-ADD-146); from the rear, the side's own +3 only."""
    card = built("equipment_items", "longsword-thrust")
    d = declared(battle(card), card)
    assert (d.side, hit(d)) == (1, 5)
    b = battle(card)
    b.do({"type": "relocate", "seat": 1, "at": [0, 2], "facing": 1, "reason": "arranged"})
    d = declared(b, card)
    assert (d.side, hit(d)) == (4, 3 + 3)


def _shatter() -> None:
    """ "If target has any slow/freeze effects, deal 7 damage, else deal 3 damage": the
    immobilised status (R-ADD-146)."""
    card = built("equipment_items", "winter-s-heart-staff-shatter")
    check_attack("equipment_items", "winter-s-heart-staff-shatter", Attack(6, 3))
    b = battle(card, gap=3)
    arrange(b, StatusApplied(1, "immobilised", "arranged"))
    assert hit(declared(b, card)) == 7
    b = battle(card, gap=3)
    arrange(b, StatusApplied(1, "stunned", "arranged"))
    assert hit(declared(b, card)) == 3


def _photosynthesis() -> None:
    """ "If in sunlight/open terrain, recover 3 cards from discard pile": the own hex gives
    no cover (R-ADD-146)."""
    card = built("equipment_items", "druid-s-tome-photosynthesis")
    for terrain, n in (("clear", 3), ("water", 3), ("forest", 0)):
        b = _with_seats(card, [], hexes=((0, 3, terrain),))
        junk = _junk(b, 3)
        events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1"})
        back = [c for e in of_type(events, CardsRecovered) for c in e.cards]
        assert sorted(back) == sorted(junk[:n]), terrain


STATES_SCENARIOS.update({
    ("equipment_items", "longsword-thrust"): _longsword_thrust,
    ("equipment_items", "winter-s-heart-staff-shatter"): _shatter,
    ("equipment_items", "druid-s-tome-photosynthesis"): _photosynthesis,
})  # fmt: skip


# --- R-ADD-147: seeds on an area, "at start of round" --------------------------------------------


def _wild_growth() -> None:
    """ "Add 1 Thornvine seed to all hexes within 2 hexes of you. Passive: At start of
    round, gain +1 Thornvine seed in your hex.": 19 hexes seeded as it is played, and the
    card stays in play; the next round's start adds one in the own hex (R-ADD-147, R-ADD-137)."""
    card = built("elves", "wild-growth")
    b = battle(card)
    arrange(b, SeedsPlanted((0, 2), 4, 4, "arranged"))  # a full hex stays at 4
    events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1"})
    assert len(of_type(events, SeedsPlanted)) == 18
    seeds = {(q, r): n for q, r, n in b.state.seeds}
    assert len(seeds) == 19 and seeds[(0, 2)] == 4 and seeds[(0, 3)] == 1
    assert seeds.get((0, 0)) is None and seeds[(2, 1)] == 1  # 3 hexes away / 2 hexes away
    assert f"{card.id}#1" in b.seat(0).in_play
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2 starts
    planted = one(events, SeedsPlanted)
    assert (planted.at, planted.total) == ((0, 3), 2)
    # R-ADD-137: round triggers fire once the initiative is rolled, before the first turn.
    order = types(events)
    assert (
        order.index("InitiativeRolled") < order.index("SeedsPlanted") < order.index("TurnStarted")
    )


STATES_SCENARIOS.update({
    ("elves", "wild-growth"): _wild_growth,
})  # fmt: skip


# --- R-ADD-148: marks ----------------------------------------------------------------------------


def _death_mark() -> None:
    """ "Mark target enemy. When the marked enemy is destroyed, gain +2 bonus Soul Shards
    (5 total instead of 3). Lasts until enemy dies or you mark a different target.": the
    command's target, within range 1-6; its destruction gives the marker 2 Soul Shards
    (R-ADD-148)."""
    card = built("ossuarium", "death-mark")
    gun = card_from_dict(CARDS["gun"])
    for marked, shards in ((True, 2), (False, 0)):
        b = battle(card, hand=("gun",), version="2.1")
        if marked:
            events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1})
            assert one(events, EnemyMarked) == EnemyMarked(0, 1, "death-mark")
            assert b.seat(0).marked == 1
        resolve_hit(b, gun, 2, kill=True)
        assert b.seat(0).tokens_of("soul_shard") == shards, marked
    b = battle(card, hand=("gun",), version="2.1")
    b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1})
    arrange(b, EnemyMarked(0, 0, "death-mark"))  # another mark replaces it
    resolve_hit(b, gun, 2, kill=True)
    assert b.seat(0).tokens_of("soul_shard") == 0
    far = battle(card, gap=7)
    err = far.refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    err = battle(card).refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1"})
    assert err.code == "target_required"


STATES_SCENARIOS.update({
    ("ossuarium", "death-mark"): _death_mark,
})  # fmt: skip


# --- R-ADD-149: Prey -----------------------------------------------------------------------------


def _predators_mark() -> None:
    """ "Mark 1 visible enemy as "Prey". Your attacks against Prey deal +2 damage. You can
    track Prey through concealment/smoke. When Prey is destroyed, recover 3 cards from
    discard pile. Mark lasts until Prey dies or end of mission.": +2 on every attack on
    the Prey, its obscured line cancelled, 3 cards back at its destruction (R-ADD-149)."""
    card = built("vestige-bloodlines", "predators-mark")
    gun = card_from_dict(CARDS["gun"])
    b = battle(card, hand=("gun",), version="2.1")
    plain = declared(battle(card, hand=("gun",)), gun)
    junk = _junk(b, 3)
    events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1})
    assert one(events, EnemyMarked).target == 1
    arrange(b, StatusApplied(1, "obscured", "arranged"))
    newest = tuple(reversed(b.seat(0).discard))[:3]  # R-ADD-62: the card itself, 2 junk
    assert f"{card.id}#1" in newest and len(set(newest) & set(junk)) == 2
    events = resolve_hit(b, gun, 4, kill=True)
    d = one(events, AttackDeclared)
    assert hit(d) == hit(plain) + 2 and d.target_number == plain.target_number
    back = [c for e in of_type(events, CardsRecovered) for c in e.cards]
    assert sorted(back) == sorted(newest)
    # Not visible: a wall between them (R-LOS-2).
    walled = _walled(card)
    err = walled.refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1})
    assert (err.code, err.rule) == ("no_line_of_sight", "R-ADD-149")


def _walled(card: CardDef) -> Battle:
    """Seat 1 three hexes north of seat 0 with a wall between them."""
    b = _with_seats(card, [], hexes=((0, 1, "wall"),))
    b.do({"type": "relocate", "seat": 1, "at": [0, 0], "facing": 4, "reason": "arranged"})
    return b


def _tracking_scent() -> None:
    """ "Draw 2 cards. If you have a Prey marked, draw 3 cards instead. Enhanced senses
    guide the hunt.": while the mark is in the battle (R-ADD-149)."""
    card = built("vestige-bloodlines", "tracking-scent")
    for mark, drawn in ((None, 2), (1, 3)):
        b = _with_seats(card, [((3, 0), "far")])
        if mark is not None:
            arrange(b, EnemyMarked(0, mark, "predators-mark"))
        events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                       "drawn": [FILLER] * drawn})  # fmt: skip
        assert sum(len(e.cards) for e in of_type(events, CardsDrawn)) == drawn
    b = _with_seats(card, [((3, 0), "far")])
    arrange(b, EnemyMarked(0, 2, "predators-mark"), CasketDefeated(2, "arranged", "R-TRN-8"))
    events = b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1",
                   "drawn": [FILLER] * 2})  # fmt: skip
    assert sum(len(e.cards) for e in of_type(events, CardsDrawn)) == 2


STATES_SCENARIOS.update({
    ("vestige-bloodlines", "predators-mark"): _predators_mark,
    ("vestige-bloodlines", "tracking-scent"): _tracking_scent,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(STATES_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_states_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, STATES_SCENARIOS[key])


# --- the new effect kinds' own checks --------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field", "rule"),
    [
        ({"kind": "give_heat", "amount": 0}, "e.amount", "R-ADD-143"),
        ({"kind": "give_heat", "amount": 1, "to": "self"}, "e.to", None),
        (
            {"kind": "after_attack", "on": "hit",
             "then": [{"kind": "give_heat", "amount": 1, "to": "attacker"}]},
            "e.then[0].to",
            "R-ADD-143",
        ),
        ({"kind": "spend_taint", "n": 0, "damage_per_taint": 1}, "e.n", "R-ADD-145"),
        ({"kind": "spend_taint", "n": 1, "whose": "target", "damage_per_taint": 1}, "e.whose", None),
        ({"kind": "spend_taint", "n": "all"}, "e", "R-ADD-145"),
        ({"kind": "spend_taint", "n": 1, "then": [{"kind": "draw", "n": 1}]}, "e.then[0]", "R-ADD-290"),
        ({"kind": "condition_typo"}, "e.kind", None),
        ({"kind": "seed_area", "n": 5, "within": 1}, "e.n", "R-ADD-66"),
        ({"kind": "seed_area", "n": 1, "within": -1}, "e.within", "R-ADD-147"),
        ({"kind": "mark", "then": [{"kind": "move", "hexes": 1}]}, "e.then[0]", "R-ADD-65"),
        ({"kind": "mark", "then": [{"kind": "draw", "n": 1}], "damage": 11}, "e.damage", "R-ADD-148"),
        ({"kind": "mark", "then": [{"kind": "draw", "n": 1}], "visible": 1}, "e.visible", None),
    ],
)  # fmt: skip
def test_a_bad_states_effect_names_its_field(doc: dict[str, Any], field: str, rule: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "e")
    assert (err.value.field, err.value.rule) == (field, rule)


def test_heat_for_the_target_waits_for_the_hit_and_for_the_attacker_needs_a_reactive() -> None:
    """R-ADD-143: a top-level give_heat is a reactive card's gift to the attacker."""
    base = {"id": "x", "name": "X", "sp_cost": 1, "automated": True, "text": "x"}
    with pytest.raises(InvalidInput) as err:
        card_from_dict({**base, "kind": "reactive",
                        "effects": [{"kind": "give_heat", "amount": 1}]})  # fmt: skip
    assert (err.value.field, err.value.rule) == ("card.effects[0].to", "R-ADD-143")
    with pytest.raises(InvalidInput) as err:
        card_from_dict({**base, "kind": "other",
                        "effects": [{"kind": "give_heat", "amount": 1, "to": "attacker"}]})  # fmt: skip
    assert (err.value.field, err.value.rule) == ("card.effects[0]", "R-REA-1")


def test_a_taint_spend_of_the_targets_needs_an_attack_and_taint_from_a_known_pilot() -> None:
    """R-ADD-145: "yours or target's" is an attack card's; the command names 'self' or
    'target'."""
    with pytest.raises(InvalidInput) as err:
        card_from_dict({"id": "x", "name": "X", "sp_cost": 1, "automated": True, "kind": "other",
                        "effects": [{"kind": "spend_taint", "n": 1, "whose": "either",
                                     "then": [{"kind": "attack_bonus", "damage": 1}]}]})  # fmt: skip
    assert (err.value.field, err.value.rule) == ("card.effects[0]", "R-ADD-59")
    with pytest.raises(InvalidInput) as err:
        parse_command({"type": "attack", "seat": 0, "card": "x#1", "target": 1,
                       "taint_from": "theirs"})  # fmt: skip
    assert (err.value.field, err.value.rule) == ("taint_from", "R-ADD-145")
    body = {"type": "attack", "seat": 0, "card": "x#1", "target": 1, "spend": True,
            "taint_from": "target"}  # fmt: skip
    assert command_body(parse_command(body)) == body


@pytest.mark.parametrize(
    ("condition", "field"),
    [
        ({"test": "near_terrain"}, "e.condition.terrain"),
        ({"test": "destroyed_within_this_round"}, "e.condition.within"),
        ({"test": "discarded_this_turn", "n": 1}, "e.condition.n"),
        ({"test": "target_without_cover", "within": 2}, "e.condition.within"),
        ({"test": "attack_side_is", "n": 7}, "e.condition.n"),
        ({"test": "target_immobilised", "n": 1}, "e.condition.n"),
        ({"test": "own_mark_in_battle", "n": 1}, "e.condition.n"),
    ],
)
def test_a_bad_round_or_turn_condition_names_its_field(
    condition: dict[str, Any], field: str
) -> None:
    """R-ADD-144's conditions validate as the others do (R-ADD-59)."""
    with pytest.raises(InvalidInput) as err:
        effect_from_dict({"kind": "attack_bonus", "damage": 1, "condition": condition}, "e")
    assert err.value.field == field
