"""Scenarios for the catalogue entries of issue 17's combos group: cards that needed the
vocabulary of several first-wave groups at once (several attacks or areas with Bleed or
pushes; enhancements of the next ranged attack whose hit gives the target Heat or purges
its Taint; R-ADD-180 onwards). Played through decide/evolve with the helpers of
test_card_catalogue.py and test_card_catalogue_area.py;
`test_every_automated_entry_has_a_scenario_below` (in test_card_catalogue.py) counts these
scenarios with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from battles.engine.battle import EVENT_TYPES, UPCASTERS
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    AttackEnhanced,
    BleedApplied,
    BuffGained,
    CasketPushed,
    CasketRotated,
    HeatChanged,
    RotationGranted,
    SpGained,
    SpPenaltyImposed,
    TaintChanged,
)
from battles.engine.battle.snapshot import state_from_dict, state_to_dict
from battles.engine.cards import (
    AfterAttackEffect,
    AreaAttackEffect,
    AttackBonusEffect,
    CardDef,
    Condition,
    EnhanceNextAttackEffect,
    GiveHeatEffect,
    TaintEffect,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    arrange,
    attack,
    battle,
    built,
    declared,
    hit,
    ignored,
    play,
    reactive,
    resolve_hit,
    run_scenario,
)
from .test_card_catalogue_allies import VESTIGE, Other, _field, _play, _refused
from .test_card_catalogue_area import (
    MISS,
    ROUND,
    again,
    aimed,
    attacks,
    blast,
    field,
    hits,
    played_once,
    strike,
)
from .test_card_catalogue_buffs import GUN, ITEMS, _pass, _ranged_enhancement

COMBOS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


# --- several attacks or an area, each hit with its Bleed or push (R-ADD-80, R-ADD-81, R-ADD-84) --


def _leaf_blade_flurry() -> None:
    """ "Attack twice for 2 damage each (total 4 damage). Each hit applies Bleed 1. Rapid
    strikes.": two attacks (R-ADD-80), each hit one Bleed counter (R-ADD-65, R-ADD-110); a
    miss applies none."""
    again("elves", "leaf-blade-flurry", [2, 2])
    card = built("elves", "leaf-blade-flurry")
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, hits(2, 2))
    assert [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, 1), (1, 1)]
    assert b.seat(1).bleed == 2
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, [MISS, *hits(2)])
    assert [e.outcome for e in of_type(events, AttackEnded)] == ["miss", "hit"]
    assert b.seat(1).bleed == 1


def _swarm_of_thorns() -> None:
    """ "Deal 3 damage to target + 2 damage to adjacent enemies, all affected Bleed 1": a
    blast around the target (R-ADD-84); each enemy hit gains one Bleed counter (R-ADD-81's
    "all affected", R-ADD-110); the enemy two hexes beyond and the ally are not caught."""
    b, events = blast("equipment_items", "world-tree-staff-swarm-of-thorns", 3, 3, 2)
    assert [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, 1), (2, 1)]
    assert (b.seat(1).bleed, b.seat(2).bleed, b.seat(3).bleed, b.seat(4).bleed) == (1, 1, 0, 0)


def _thunderclap() -> None:
    """ "Deal 2 damage to all adjacent enemies, push 1 hex": each enemy hit is pushed one
    hex straight away from the attacker (R-ADD-81, R-ADD-100); a missed one stays."""
    card = built("equipment_items", "stormcaller-s-grimoire-thunderclap")
    b = field(card, [ROUND["N"], ROUND["SE"], ((0, 0), 4)])  # the third two hexes away
    events = strike(b, card, 1, hits(2, 2))
    assert attacks(events) == [(1, 2), (2, 2)]
    played_once(b, events, card)
    pushed = {e.seat: e.path for e in of_type(events, CasketPushed)}
    assert set(pushed) == {1, 2} and all(len(p) == 1 for p in pushed.values())
    assert [b.seat(n).at.distance(b.seat(0).at) for n in (1, 2)] == [2, 2]
    b = field(card, [ROUND["N"], ROUND["SE"]])
    events = strike(b, card, 1, [MISS, *hits(2)])
    assert [e.seat for e in of_type(events, CasketPushed)] == [2]
    assert b.seat(1).at.distance(b.seat(0).at) == 1


def _earthshaker() -> None:
    """ "Deal 4 damage to primary, 2 damage + push to adjacent enemies": the primary target
    is not pushed; each other adjacent enemy hit is pushed 1 hex away (R-ADD-81, R-ADD-100,
    R-ADD-187; "push" names no distance: one hex, the least a push is)."""
    card = built("equipment_items", "warhammer-earthshaker")
    b = field(card, [ROUND["N"], ROUND["SE"], ROUND["NW"]])
    events = strike(b, card, 1, [*hits(4, 2), MISS])
    assert attacks(events) == [(1, 4), (2, 2), (3, 2)]
    assert [d.further for d in of_type(events, AttackDeclared)] == [False, True, True]
    assert [(e.seat, len(e.path)) for e in of_type(events, CasketPushed)] == [(2, 1)]
    assert [b.seat(n).at.distance(b.seat(0).at) for n in (1, 2, 3)] == [1, 2, 1]


def _whirlwind_slash() -> None:
    """ "Deal 4 damage to target and all adjacent enemies. Rotate once after attacking.": an
    attack on each adjacent enemy (R-ADD-81); once it ends, the turn's free 60° rotation
    (R-ARC-5), spent before the attack, is there again for one more turn at no SP
    (R-ADD-189); a further one costs SP as usual."""
    card = built("equipment_items", "nomads-whirlwind-slash")
    b = field(card, [ROUND["N"], ROUND["SE"]])
    turned = b.do({"type": "rotate", "seat": 0, "facing": 2})
    assert one(turned, CasketRotated).cost == 0 and b.seat(0).free_rotation_used
    events = strike(b, card, 1, hits(4, 4))
    assert attacks(events) == [(1, 4), (2, 4)]
    assert one(events, RotationGranted).source == card.id
    assert not b.seat(0).free_rotation_used
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 1}), CasketRotated).cost == 0
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 2}), CasketRotated).cost == 1
    # Not rotated before: the turn's own free rotation is still the one after the attack.
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, [MISS])
    assert not of_type(events, RotationGranted)
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 2}), CasketRotated).cost == 0


def _thornwhip() -> None:
    """ "Deal 3 damage, Bleed 1, pull target 1 hex toward you": on a hit the target gains a
    Bleed counter and is pulled one hex nearer (R-ADD-65, R-ADD-100, R-ADD-110); a miss does
    neither."""
    card = built("equipment_items", "druid-s-tome-thornwhip")
    b = field(card, [((0, 0), 4)])  # 3 hexes N
    events = strike(b, card, 1, hits(3))
    assert attacks(events) == [(1, 3)]
    assert b.seat(1).bleed == 1
    assert [e.path for e in of_type(events, CasketPushed)] == [((0, 1),)]
    assert b.seat(1).at.distance(b.seat(0).at) == 2
    b = field(card, [((0, 0), 4)])
    events = strike(b, card, 1, [MISS])
    assert b.seat(1).bleed == 0 and not of_type(events, CasketPushed)


def _concussion_blast() -> None:
    """ "Deal 3 damage to all enemies within 2 hexes, push 1 hex, targets lose 1 SP next
    turn. Remove this card from game after use.": a blast of radius 2 around the target
    (R-ADD-84); each enemy hit is pushed away from the thrower (R-ADD-100) and loses 1 SP
    next turn (R-ADD-65); the card then leaves the game (R-ADD-70)."""
    b, events = blast("equipment_items", "alchemical-grenades-concussion-blast", 2, 3, 3, within=2)
    assert [(e.seat, e.amount) for e in of_type(events, SpPenaltyImposed)] == [
        (1, 1), (2, 1), (3, 1),
    ]  # fmt: skip
    assert sorted(e.seat for e in of_type(events, CasketPushed)) == [1, 2, 3]
    assert b.seat(0).removed == ("alchemical-grenades-concussion-blast#1",)
    assert b.seat(4).sp_penalty == 0  # the ally is not caught


def _sunburst() -> None:
    """ "Deal 4 damage to target + 2 damage to adjacent enemies, +2 damage vs corrupted": a
    blast around the target (R-ADD-84); each of its attacks against an enemy whose pilot has
    Taint (R-ADD-140) deals 2 more, read for that enemy as the card is played (R-ADD-186)."""
    card = built("equipment_items", "divine-scepter-sunburst")
    layout = [((0, 0), 4), ((1, -1), 4), ((0, -2), 4)]  # the target 3 N, one beside, one beyond
    for corrupted, expected in (((), [4, 2]), ((2,), [4, 4]), ((1,), [6, 2]), ((1, 2), [6, 4])):
        b = field(card, layout, [((-1, 0), 4)])
        for n in corrupted:
            _corrupt(b, n)
        plan = aimed(b, card, [(1, "3-6", expected[0]), (2, "2-7", expected[1])])
        events = strike(b, card, 1, plan)
        assert attacks(events) == [(1, expected[0]), (2, expected[1])], corrupted


COMBOS_SCENARIOS.update({
    ("elves", "leaf-blade-flurry"): _leaf_blade_flurry,
    ("equipment_items", "divine-scepter-sunburst"): _sunburst,
    ("equipment_items", "world-tree-staff-swarm-of-thorns"): _swarm_of_thorns,
    ("equipment_items", "stormcaller-s-grimoire-thunderclap"): _thunderclap,
    ("equipment_items", "warhammer-earthshaker"): _earthshaker,
    ("equipment_items", "nomads-whirlwind-slash"): _whirlwind_slash,
    ("equipment_items", "druid-s-tome-thornwhip"): _thornwhip,
    ("equipment_items", "alchemical-grenades-concussion-blast"): _concussion_blast,
})  # fmt: skip


# --- R-ADD-180: enhancements that carry bonuses and hit effects to the attack --------------------


def _corrupt(b: Battle, seat: int = 1) -> None:
    """The target's pilot has 1 Taint: corrupted (R-ADD-140)."""
    arrange(b, TaintChanged(seat, 1, 1, "arranged"))


def _heat_round(cid: str, damage: int, heat: int) -> None:
    """The next ranged attack gets +`damage` (R-ADD-90); its hit gives the target `heat`
    Heat (R-ADD-143, R-ADD-180); a miss spends the enhancement and gives none."""
    _ranged_enhancement(cid, damage, 0)
    card = built(ITEMS, cid)
    b = battle(card, hand=("gun",), version="2.1")
    play(b, cid)
    events = resolve_hit(b, GUN, 2 + damage, kill=False)
    assert one(events, AttackDeclared).enhanced_by == (card.id,)
    changed = [e for e in of_type(events, HeatChanged) if e.seat == 1]
    assert [(e.amount, e.reason) for e in changed] == [(heat, card.name)]
    assert b.seat(1).heat == heat and b.seat(0).heat == 0
    b = battle(card, hand=("gun",))
    play(b, cid)
    events = attack(b, GUN)  # faces 1 + 1: a miss
    assert one(events, AttackEnded).outcome == "miss"
    assert b.seat(1).heat == 0 and b.seat(0).enhancements == ()


def _flame_round() -> None:
    """ "Enhance your next ranged attack: +2 damage, target gains 2 Heat. Discard after
    use." """
    _heat_round("incendiary-ammunition-flame-round", 2, 2)


def _burning_trace() -> None:
    """ "Enhance your next ranged attack: Target gains 3 Heat. Discard after use." """
    _heat_round("incendiary-ammunition-burning-trace", 0, 3)


def _blessed_round(cid: str, damage: int, corrupted: int) -> Battle:
    """ "+N damage (+M vs corrupted)": +N, or +M in all against a target whose pilot has
    Taint as the enhanced attack is declared (R-ADD-140, R-ADD-180)."""
    card = built(ITEMS, cid)
    clean = battle(card, hand=("gun",))
    play(clean, cid)
    assert hit(declared(clean, GUN)) == 2 + damage
    b = battle(card, hand=("gun",))
    play(b, cid)
    _corrupt(b)
    d = declared(b, GUN)
    assert hit(d) == 2 + corrupted
    assert [e.damage for e in of_type(b.events, BuffGained) if e.source == card.id] == [
        damage,
        corrupted - damage,
    ]
    b = battle(card, hand=("gun",), version="2.1")
    play(b, cid)
    _corrupt(b)
    resolve_hit(b, GUN, 2 + corrupted, kill=False)
    return b


def _consecrated_shot() -> None:
    """ "Enhance your next ranged attack: +2 damage (+4 vs corrupted), purge 1 Taint from
    target. Discard after use.": the purge follows the hit (R-ADD-65), so it never takes the
    bonus away; a clean target gets +2 only and nothing to purge."""
    cid = "blessed-ammunition-consecrated-shot"
    b = _blessed_round(cid, 2, 4)
    assert b.seat(1).taint == 0
    clean = battle(built(ITEMS, cid), hand=("gun",), version="2.1")
    play(clean, cid)
    events = resolve_hit(clean, GUN, 4, kill=False)
    assert not [e for e in of_type(events, TaintChanged) if e.seat == 1]


def _sanctified_round() -> None:
    """ "Enhance your next ranged attack: +1 damage (+3 vs corrupted). Discard after use.":
    no purge: the corrupted target keeps its Taint."""
    b = _blessed_round("blessed-ammunition-sanctified-round", 1, 3)
    assert b.seat(1).taint == 1


def _divine_bolt() -> None:
    """ "Enhance your next ranged attack: +3 damage (+6 vs corrupted), purge all Taint from
    target, you remove 1 Taint. Discard after use.": the player's Taint goes as the card is
    played (R-ADD-66); the hit purges all the target's Taint, 12 as well as 1 (R-ADD-184)."""
    cid = "blessed-ammunition-divine-bolt"
    b = _blessed_round(cid, 3, 6)
    assert b.seat(1).taint == 0
    card = built(ITEMS, cid)
    b = battle(card, hand=("gun",), version="2.1")
    arrange(b, TaintChanged(0, 2, 2, "arranged"), TaintChanged(1, 12, 12, "arranged"))
    play(b, cid)
    assert b.seat(0).taint == 1  # "you remove 1 Taint", as played
    resolve_hit(b, GUN, 2 + 6, kill=False)
    assert b.seat(1).taint == 0
    b = battle(card, hand=("gun",))
    arrange(b, TaintChanged(1, 3, 3, "arranged"))
    play(b, cid)
    attack(b, GUN)  # a miss purges nothing
    assert b.seat(1).taint == 3


def _reality_piercer() -> None:
    """ "Enhance your next ranged attack: +4 damage, ignore all Defense/Armor, teleport
    target 1 hex, gain 2 Taint. Discard after use.": the Taint is the player's as the card
    is played (R-ADD-66); the shot gets +4 and cancels every block (R-ADD-60, R-ADD-90); its
    hit sends the target to an adjacent hex a d6 names (R-ADD-108, R-ADD-180); a miss moves
    nobody."""
    cid = "void-tipped-bolts-reality-piercer"
    card = built(ITEMS, cid)
    b = battle(card, hand=("gun",), version="2.1", gap=2)
    play(b, cid)
    assert b.seat(0).taint == 2
    shot = b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                 "component": "chassis", "faces": [3, 3, *[4] * 6]})  # fmt: skip
    d = one(shot, AttackDeclared)
    assert (hit(d), ignored(d)) == (6, MAX_DAMAGE)
    events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 6,
                   "drawn": [FILLER] * 6, "faces": [1]})  # fmt: skip
    pushed = one(events, CasketPushed)
    assert (pushed.seat, pushed.path, pushed.rule) == (1, ((0, 0),), "R-ADD-108")  # 1: N
    b = battle(card, hand=("gun",), gap=2)
    play(b, cid)
    assert not of_type(attack(b, GUN), CasketPushed)  # a miss (1 + 1)


COMBOS_SCENARIOS.update({
    ("equipment_items", "void-tipped-bolts-reality-piercer"): _reality_piercer,
    ("equipment_items", "blessed-ammunition-divine-bolt"): _divine_bolt,
    ("equipment_items", "incendiary-ammunition-flame-round"): _flame_round,
    ("equipment_items", "incendiary-ammunition-burning-trace"): _burning_trace,
    ("equipment_items", "blessed-ammunition-consecrated-shot"): _consecrated_shot,
    ("equipment_items", "blessed-ammunition-sanctified-round"): _sanctified_round,
})  # fmt: skip


def _gun_blast(card: CardDef) -> Battle:
    """Seat 0 at [0, 3] facing N holds `card` and the test's Gun (Ranged 1-6, 2 damage) and
    acts first; enemy 1 three hexes N, enemy 2 beside it (NE), enemy 3 two hexes beyond it,
    ally 4 beside it (NW), all facing S (the layout of the area tests' blasts)."""
    others = [((0, 0), "them"), ((1, -1), "them"), ((0, -2), "them"), ((-1, 0), "us")]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="us"),
         "deck": deck(**{card.id: 2, "gun": 1})},
        *({**seat(1 + i, at=at, facing=4, side=side), "deck": deck()}
          for i, (at, side) in enumerate(others)),
    ]  # fmt: skip
    doc = {
        "name": "Shell yard",
        "board": {"name": "Shell yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], CARDS["gun"], card.as_dict()],
        "seats": seats,
    }  # fmt: skip
    hands = [[card.id, "gun", *[FILLER] * 4], *[[FILLER] * 6] * len(others)]
    b = start(doc, hands, initiative=(6, 1, 2, 3, 4))
    assert b.state.active == 0
    return b


def _shell(cid: str, damage: int, each: int) -> Battle:
    """The enhanced Gun shot (+`damage`), then an attack of `each` on the enemy beside its
    target, made from the shooter (R-ADD-84, R-ADD-182); the enemy two hexes beyond and the
    ally are not caught."""
    card = built(ITEMS, cid)
    b = _gun_blast(card)
    play(b, cid)
    plan = aimed(b, GUN, [(1, "1-6", 2 + damage), (2, "1-7", each)])
    events = strike(b, GUN, 1, plan)
    assert attacks(events) == [(1, 2 + damage), (2, each)]
    # The blast's attack is the card's further attack: no enhancement of its own (R-ADD-80).
    assert [d.enhanced_by for d in of_type(events, AttackDeclared)] == [(card.id,), ()]
    assert b.seat(0).enhancements == () and b.state.follow_ups == ()
    return b


def _inferno_shot() -> None:
    """ "Enhance your next ranged attack: +3 damage, target gains 3 Heat, ignites adjacent
    enemies for 1 damage. Discard after use.": the target's Heat waits for the enhanced
    attack's hit (R-ADD-143, R-ADD-180); the enemies beside the target are attacked for 1
    (R-ADD-182) and gain no Heat."""
    b = _shell("incendiary-ammunition-inferno-shot", 3, 1)
    assert [b.seat(n).heat for n in (0, 1, 2, 3, 4)] == [0, 3, 0, 0, 0]


def _fragmentation_round() -> None:
    """ "Enhance your next ranged attack: +2 damage, deal 3 damage to all adjacent enemies,
    gain 1 Heat. Discard after use.": the Heat is the player's, as the card is played
    (R-ADD-14); the 3 damage goes to the enemies beside the target (R-ADD-182)."""
    b = _shell("shrapnel-shells-fragmentation-round", 2, 3)
    assert [b.seat(n).heat for n in (0, 1, 2)] == [1, 0, 0]


def _scatter_shot() -> None:
    """ "Enhance your next ranged attack: Deal damage to target and all adjacent enemies.
    Discard after use.": the enemy beside the target takes an attack of the Gun's own
    printed damage, 2 (R-ADD-182); the shot itself gets nothing more."""
    _shell("shrapnel-shells-scatter-shot", 0, 2)


def _bleed_shards() -> None:
    """ "Enhance your next ranged attack: Target and adjacent enemies gain Bleed 1. Discard
    after use.": on the shot's hit, its target and each enemy beside it gain a Bleed counter
    (R-ADD-110, R-ADD-180, R-ADD-182), without attacks of their own; the ally beside it and
    the enemy two hexes beyond gain none; a miss gives none."""
    cid = "shrapnel-shells-bleed-shards"
    card = built(ITEMS, cid)
    b = _gun_blast(card)
    play(b, cid)
    events = strike(b, GUN, 1, aimed(b, GUN, [(1, "1-6", 2)]))
    assert attacks(events) == [(1, 2)]
    assert [(e.seat, e.amount) for e in of_type(events, BleedApplied)] == [(1, 1), (2, 1)]
    assert [b.seat(n).bleed for n in (1, 2, 3, 4)] == [1, 1, 0, 0]
    b = _gun_blast(card)
    play(b, cid)
    events = strike(b, GUN, 1, [MISS])
    assert not of_type(events, BleedApplied) and b.seat(0).enhancements == ()


COMBOS_SCENARIOS.update({
    ("equipment_items", "shrapnel-shells-bleed-shards"): _bleed_shards,
    ("equipment_items", "shrapnel-shells-scatter-shot"): _scatter_shot,
    ("equipment_items", "incendiary-ammunition-inferno-shot"): _inferno_shot,
    ("equipment_items", "shrapnel-shells-fragmentation-round"): _fragmentation_round,
})  # fmt: skip


# --- R-ADD-183: a reactive card's "next attack this turn" ----------------------------------------


def _parry() -> None:
    """ "Reduce damage by 2, next attack this turn +1 damage": played against seat 1's
    attack (R-REA-1), the reduction comes off that attack's damage (R-ADD-58) and the +1
    waits for the player's next attack, in its own next turn (R-ADD-183); unused, it lapses
    as that turn ends."""
    reactive(ITEMS, "longsword-parry", 2, 0)
    card = built(ITEMS, "longsword-parry")
    for attacks_next_turn in (True, False):
        b = battle(card, first=1, hand=("gun",))
        b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
              "component": "chassis", "faces": [3, 2]})  # fmt: skip
        events = b.do({"type": "play_reactive", "seat": 0, "card": "longsword-parry#1",
                       "faces": [4, 4]})  # fmt: skip
        assert one(events, AttackEnhanced).source == "longsword-parry"
        _pass(b, 1)  # seat 1's turn ends: the parry's +1 still waits
        assert b.state.active == 0 and len(b.seat(0).enhancements) == 1
        if attacks_next_turn:
            assert hit(declared(b, GUN)) == 3  # the Gun's 2, +1
            assert b.seat(0).enhancements == ()
        else:
            _pass(b, 0, faces=[6, 1])  # the round ends: a new initiative roll (R-TRN-2)
            assert b.seat(0).enhancements == ()  # lapsed with the player's own turn


COMBOS_SCENARIOS.update({
    ("equipment_items", "longsword-parry"): _parry,
})  # fmt: skip


# --- an enemy hindered, the allies of a faction buffed (R-ADD-65, R-ADD-120, R-ADD-121) ---------


def _primal_roar() -> None:
    """ "Target enemy has -1 to their next attack roll. All Vestige allies within 4 hexes gain
    +1 damage on their next attack. Intimidation and inspiration.": the enemy the command
    names within 4 hexes is hindered (R-ADD-65); each ally within 4 hexes whose setup names
    the Vestige Bloodlines gains the +1 (R-ADD-120, R-ADD-121, R-ADD-185), not an ally of
    another faction or none, nor one farther away, nor the player's own casket."""
    cid = "primal-roar"
    card = built(VESTIGE, cid)
    others: list[Other] = [((1, 3), "pack", VESTIGE), ((-5, 3), "pack", VESTIGE),
                           ((-1, 3), "pack", "church"), ((1, 2), "pack", None)]  # fmt: skip
    b = _field(card, others)
    _play(b, cid, target=1)
    assert b.seat(1).buff_to_hit == 1  # +1 on the target number of its next attack
    assert [b.seat(n).buff_damage for n in (0, 2, 3, 4, 5)] == [0, 1, 0, 0, 0]
    far = _field(card, [((0, 8), "prey", None)])
    assert _refused(far, cid, target=2)[1] == "R-RNG-2"  # out of the card's 4 hexes
    assert _refused(_field(card, others), cid)[0] == "target_required"


COMBOS_SCENARIOS.update({
    ("vestige-bloodlines", "primal-roar"): _primal_roar,
})  # fmt: skip


# --- R-ADD-188: a condition on the cards the card drew -------------------------------------------


def _magazine_yard(card: CardDef) -> Battle:
    """Seat 0 holds `card`; its deck holds the test's Gun (Ranged 1-6) twice, a Pistol
    (Ranged 1-4) and a Blade (Melee), the rest filler; seat 1 two hexes N."""
    cards = [CARDS[FILLER], CARDS["gun"], CARDS["pistol"], CARDS["blade"], card.as_dict()]
    seats = [
        {**seat(0, at=(0, 3), facing=1), "deck": deck(**{card.id: 1, "gun": 2, "pistol": 1,
                                                         "blade": 1})},
        {**seat(1, at=(0, 1), facing=4), "deck": deck()},
    ]  # fmt: skip
    doc = {
        "name": "Magazine yard",
        "board": {"name": "Magazine yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": cards, "seats": seats,
    }  # fmt: skip
    return start(doc, [[card.id, *[FILLER] * 5], [FILLER] * 6])


def _extra_magazine() -> None:
    """ "Draw 2 cards. If both are ranged attacks, gain +1 SP.": read once the 2 cards are
    drawn (R-ADD-188): two ranged attack cards (R-ADD-90's test: an attack whose range is not
    Melee) give 1 SP more this turn (R-ADD-95); a Melee attack or a card without an attack
    among them gives none."""
    cid = "ammunition-bandolier-extra-magazine"
    card = built(ITEMS, cid)
    for drawn, gained in ((["gun", "pistol"], 1), (["gun", "gun"], 1), (["gun", "blade"], 0),
                          (["gun", FILLER], 0)):  # fmt: skip
        b = _magazine_yard(card)
        left = b.seat(0).sp_left
        events = play(b, cid, drawn=drawn)
        assert [x.split("#")[0] for x in b.seat(0).hand[-2:]] == drawn
        assert [e.amount for e in of_type(events, SpGained)] == ([1] if gained else []), drawn
        assert b.seat(0).sp_left == left - card.sp_cost + gained


COMBOS_SCENARIOS.update({
    ("equipment_items", "ammunition-bandolier-extra-magazine"): _extra_magazine,
})  # fmt: skip


def test_an_enhancement_carries_only_bonuses_and_hit_effects() -> None:
    """R-ADD-180: `then` holds attack bonuses and after-attack effects, for an enhancement
    one attack spends; a bad one names the field."""
    heat = AfterAttackEffect("hit", (GiveHeatEffect(2),))
    with pytest.raises(InvalidInput) as bad:
        EnhanceNextAttackEffect("ranged", then=(TaintEffect(1),))
    assert bad.value.field == "enhance_next_attack.then[0]" and "R-ADD-180" in str(bad.value)
    with pytest.raises(InvalidInput) as every:
        EnhanceNextAttackEffect("ranged", this_turn=True, every=True, then=(heat,))
    assert every.value.field == "enhance_next_attack.then"
    with pytest.raises(InvalidInput) as parsed:
        effect_from_dict({"kind": "enhance_next_attack", "then": {"kind": "draw"}}, "e")
    assert parsed.value.field == "e.then"
    with pytest.raises(InvalidInput) as around:
        EnhanceNextAttackEffect("ranged", then=(AreaAttackEffect(3),))
    assert around.value.field == "enhance_next_attack.then[0].around"
    assert "R-ADD-182" in str(around.value)
    with pytest.raises(InvalidInput) as each:
        effect_from_dict({"kind": "attack_bonus", "to_hit": -1, "each_attack": True}, "e")
    assert each.value.field == "e.each_attack" and "R-ADD-186" in str(each.value)
    further = AfterAttackEffect("hit", (GiveHeatEffect(1),), attacks="further")
    assert effect_from_dict(further.as_dict()) == further
    with pytest.raises(InvalidInput) as which:
        effect_from_dict({"kind": "after_attack", "on": "hit", "then": [{"kind": "draw", "n": 1}],
                          "attacks": "first"}, "e")  # fmt: skip
    assert which.value.field == "e.attacks"
    with pytest.raises(InvalidInput) as drew:
        Condition("card_drew_ranged_at_least")  # how many of the drawn cards? (R-ADD-188)
    assert drew.value.field == "condition.n"
    with pytest.raises(InvalidInput) as steps:
        effect_from_dict({"kind": "grant_rotation", "steps": 2}, "e")  # once, 60° (R-ADD-189)
    assert steps.value.field == "e.steps"
    with pytest.raises(InvalidInput) as amount:
        AreaAttackEffect(2, around="target", damage_of_attack=True)
    assert amount.value.field == "area_attack.damage" and "R-ADD-182" in str(amount.value)
    shards = effect_from_dict({"kind": "bleed", "n": 1, "adjacent": True})
    assert effect_from_dict(shards.as_dict()) == shards
    with pytest.raises(InvalidInput) as purge:
        effect_from_dict({"kind": "taint", "amount": 1, "purge_all": True}, "e")
    assert purge.value.field == "e.purge_all" and "R-ADD-184" in str(purge.value)
    purge_all = TaintEffect(-1, "target", purge_all=True)
    assert effect_from_dict(purge_all.as_dict()) == purge_all
    bonus = AttackBonusEffect(2, condition=Condition("target_taint_at_least", 1))
    effect = EnhanceNextAttackEffect("ranged", damage=1, then=(bonus, heat))
    assert effect_from_dict(effect.as_dict()) == effect


def test_the_attack_keeps_its_enhancing_cards_through_a_snapshot() -> None:
    """R-ADD-180: the attack waiting for the defender's discard still knows which hit
    effects it carries once its state is stored and read back."""
    cid = "incendiary-ammunition-flame-round"
    b = battle(built(ITEMS, cid), hand=("gun",), version="2.1")
    play(b, cid)
    b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1, "component": "chassis",
          "faces": [3, 2, 4, 4, 4, 4]})  # fmt: skip
    assert b.state.attack is not None and b.state.attack.enhanced_by == (cid,)
    assert state_from_dict(state_to_dict(b.state), b.state) == b.state


@pytest.mark.parametrize("key", sorted(COMBOS_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_combo_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, COMBOS_SCENARIOS[key])


def test_an_attack_stored_before_the_combos_fields_still_decodes() -> None:
    """AttackDeclared v1 (before R-ADD-180 and R-ADD-187) is upcast: no enhancing cards, not
    a further attack; a v2 payload keeps what it says."""
    from penance_site.eventstore.codec import EventCodec

    codec = EventCodec("combos-test", EVENT_TYPES.values(), UPCASTERS)
    b = battle(built(ITEMS, "incendiary-ammunition-flame-round"), hand=("gun",))
    play(b, "incendiary-ammunition-flame-round")
    d = declared(b, GUN)
    type_, version, payload = codec.to_record(d)
    assert (type_, version, payload["enhanced_by"]) == (
        "AttackDeclared",
        2,
        ["incendiary-ammunition-flame-round"],
    )
    assert codec.decode_record(type_, version, payload) == d
    old = {k: v for k, v in payload.items() if k not in ("enhanced_by", "further")}
    assert codec.decode_record(type_, 1, old) == replace(d, enhanced_by=())
