"""Scenarios for the catalogue entries of issue 17's "area" group: several attacks from one
card (R-ADD-80), attacks on every casket of an area (R-ADD-81), rolled Taint (R-ADD-82)
and a discard on an attack card (R-ADD-83), played through decide/evolve with the helpers
of test_card_catalogue.py. Every attack of these scenarios is a table battle's: each
command carries the faces it rolls, and the defenders (front side, +0, R-ARC-2) answer
their take_damage prompts from the deck.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

import pytest

from battles.engine.battle.commands import parse_command
from battles.engine.battle.decide import attack_answer
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    AttacksQueued,
    BuffGained,
    CardPlayed,
    CardsDiscarded,
    CardsRecovered,
    CasketDefeated,
    DamageAuraRaised,
    DamageTaken,
    DefenceRaised,
    EffectRolled,
    Event,
    FollowUpTaken,
    HeatChanged,
    PromptOpened,
    Rooted,
    SpPenaltyImposed,
    TaintChanged,
    TerrainCreated,
    TokensChanged,
    TurnStarted,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.snapshot import state_from_dict, state_to_dict
from battles.engine.board import parse_board
from battles.engine.cards import (
    AreaAttackEffect,
    AttackEffect,
    CardDef,
    Condition,
    FollowUpEffect,
    RemoveTaintRolledEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.dice import attack_result
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.tohit import MAX_DAMAGE, parse_range

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    arrange,
    autoplayed,
    built,
    hit,
    ignored,
    run_scenario,
    tokens,
)

AREA_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

# Where the other caskets stand around the attacker (seat 0 at [0, 3] facing N), each
# facing it, so that every attack comes from the defender's front (side 1: +0 to hit,
# +0 damage, R-ARC-2) and a roll of 3 + 3 is a plain hit (6, R-HIT-4; 5 + 1 at medium
# range, R-RNG-1).
ROUND: dict[str, tuple[tuple[int, int], int]] = {
    "N": ((0, 2), 4),
    "NE": ((1, 2), 5),
    "SE": ((1, 3), 6),
    "SW": ((-1, 4), 2),
    "NW": ((-1, 3), 3),
}
HIT = (3, 3)
MISS = (1, 1)


def line(d: int) -> list[tuple[tuple[int, int], int]]:
    """Three hexes `d` away in the attacker's front 180° (R-ARC-3): N, NE and NW lines,
    each facing the attacker, nothing between."""
    return [((0, 3 - d), 4), ((d, 3 - d), 5), ((-d, 3), 3)]


def field(
    card: CardDef,
    enemies: Sequence[tuple[tuple[int, int], int]],
    allies: Sequence[tuple[tuple[int, int], int]] = (),
    *,
    version: str = "2.0",
) -> Battle:
    """Seat 0 (side "us", at [0, 3] facing N) holds `card` and acts first; then one seat per
    enemy (side "them") and per ally (side "us"), each (hex, facing)."""
    others = [(at, f, "them") for at, f in enemies] + [(at, f, "us") for at, f in allies]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="us"), "deck": deck(**{card.id: 2})},
        *(
            {**seat(1 + i, at=at, facing=f, side=side), "deck": deck()}
            for i, (at, f, side) in enumerate(others)
        ),
    ]
    doc = {
        "name": "Area yard",
        "board": {"name": "Area yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": version, "options": {}}, "dice": {"mode": "table"},
        "policy": "prompt", "cards": [CARDS[FILLER], card.as_dict()], "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *[FILLER] * 5], *[[FILLER] * 6] * len(others)]
    b = start(doc, hands, initiative=(6, *(1 + i % 5 for i in range(len(seats) - 1))))
    assert b.state.active == 0
    return b


def strike(
    b: Battle,
    card: CardDef,
    target: int,
    plan: Sequence[tuple[int, ...]],
    pre: Sequence[int] = (),
    **extra: Any,
) -> list[Event]:
    """Seat 0 attacks `target` with `card` (component named), then every defender takes its
    damage from the deck. `plan` holds each attack's faces in
    order: the attack roll, then one defence die per point of damage on a hit (4, BLOOD:
    no block, R-DMG-2). A hit opens a take_damage prompt, so the faces of the attacks after
    it travel with the answer to that prompt (R-ADD-80). `pre`: faces the card rolls as it
    is played, before its first attack (R-ADD-87)."""
    groups: list[list[int]] = [list(pre)]
    for faces in plan:
        groups[-1] += faces
        if len(faces) > 2:  # a hit: its prompt ends the command
            groups.append([])
    body = {"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": target,
            "component": "chassis", "faces": groups[0], **extra}  # fmt: skip
    events = b.do(body)
    for faces in groups[1:]:
        assert b.state.prompts, "every hit opens a take_damage prompt"
        p = b.state.prompts[0]
        assert p.kind == "take_damage"
        # From the deck: a defender whose hand runs out takes damage without a prompt.
        answer = {"type": "take_damage", "seat": p.seat, "hand": [], "deck": p.amount,
                  "drawn": [FILLER] * p.amount, "faces": faces}  # fmt: skip
        events += b.do(answer)
    assert not b.state.prompts and b.state.attack is None
    return events


def hits(*damages: int) -> list[tuple[int, ...]]:
    return [(*HIT, *[4] * d) for d in damages]


def attacks(events: Sequence[Event]) -> list[tuple[int, int]]:
    """(target, hit damage) of each attack declared."""
    return [(d.target, hit(d)) for d in of_type(events, AttackDeclared)]


def played_once(b: Battle, events: Sequence[Event], card: CardDef) -> None:
    """SP paid once, one CardPlayed; the card is discarded after its last attack (R-ADD-80)."""
    assert len(of_type(events, CardPlayed)) == 1
    assert b.seat(0).sp_spent == card.sp_cost
    assert f"{card.id}#1" in b.seat(0).discard and not b.seat(0).in_play
    ends = [i for i, e in enumerate(events) if isinstance(e, AttackEnded)]
    assert all(f"{card.id}#1" not in b.seat(0).in_play for _ in ends)
    assert b.state.follow_ups == ()


def reach(card: CardDef) -> int:
    """The distance these scenarios attack at: adjacent for Melee, else 2 or the minimum."""
    assert card.range is not None
    return 1 if card.range.melee else max(2, card.range.low)


# --- R-ADD-80: "attack twice", "three times", "same or different targets" ----------------------


def again(section: str, cid: str, damages: Sequence[int], heat: int = 0) -> None:
    """Each attack of the card is one of its own; unnamed, the further ones go to the first
    target; named in `also`, to another enemy (R-ADD-80)."""
    card = built(section, cid)
    d = reach(card)
    b = field(card, line(d)[:2])
    events = strike(b, card, 1, hits(*damages))
    assert attacks(events) == [(1, n) for n in damages]
    played_once(b, events, card)
    assert sum(e.amount for e in of_type(events, HeatChanged)) == heat
    b = field(card, line(d)[:2])
    events = strike(b, card, 1, hits(*damages), also=[2] * (len(damages) - 1))
    assert attacks(events) == [(1, damages[0]), *((2, n) for n in damages[1:])]
    # A miss ends that attack only: the next one is still made.
    b = field(card, line(d)[:2])
    events = strike(b, card, 1, [MISS, *hits(*damages[1:])])
    assert [e.outcome for e in of_type(events, AttackEnded)] == ["miss"] + ["hit"] * (
        len(damages) - 1
    )
    played_once(b, events, card)
    # Every named target must be one the attack could be made at now (R-ADD-80).
    far = field(card, [line(d)[0], ((0, -5), 4)])
    assert far.refuse(
        {"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1, "also": [2]}
    ).code in ("out_of_range", "out_of_arc")


def _twin_cuts() -> None:
    """ "Attack twice for 3 damage each." """
    again("equipment", "twin-cuts", (3, 3))


def _dagger_double_strike() -> None:
    """ "Deal 2 damage twice (two separate attacks)" """
    again("equipment_items", "dagger-double-strike", (2, 2))


def _rapid_fire() -> None:
    """ "Attack 3 times for 2 damage each." (4 hexes)"""
    again("equipment", "rapid-fire", (2, 2, 2))


def _rifle_burst_fire() -> None:
    """ "Deal 3 damage three times (same or different targets)" (Ranged 2-6)"""
    again("equipment_items", "rifle-burst-fire", (3, 3, 3))


def _flame_burst() -> None:
    """ "Deal 3 damage twice (same or different targets), gain 1 Heat" """
    again("equipment_items", "inferno-staff-flame-burst", (3, 3), heat=1)


def _multi_limb_barrage() -> None:
    """ "Attack three times with different limbs for 2 damage each (total 6). Can split
    damage among up to 3 adjacent targets." """
    again("emergent", "multi-limb-barrage", (2, 2, 2))
    card = built("emergent", "multi-limb-barrage")
    b = field(card, line(1))
    events = strike(b, card, 1, hits(2, 2, 2), also=[2, 3])
    assert attacks(events) == [(1, 2), (2, 2), (3, 2)]


def two_ranges(section: str, cid: str, damage: int) -> None:
    """A melee attack, then a ranged one within 4 hexes, at the same enemy unless another is
    named (R-ADD-80)."""
    card = built(section, cid)
    again(section, cid, (damage, damage))
    b = field(card, [line(1)[0], ((4, -1), 5)])  # the second enemy 4 hexes NE
    events = strike(b, card, 1, hits(damage, damage), also=[2])
    assert attacks(events) == [(1, damage), (2, damage)]
    b = field(card, [line(1)[0], ((5, -2), 5)])  # 5 hexes: out of the ranged reach
    assert b.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
                     "also": [2]}).code == "out_of_range"  # fmt: skip


def _equipment_dual_wield() -> None:
    """ "6 melee + 6 ranged." (Melee+4hex)"""
    two_ranges("equipment", "dual-wield", 6)


def _nomads_dual_wield() -> None:
    """ "Make two attacks: 3 damage melee to adjacent target, then 3 damage ranged to target
    within 4 hexes. Can target same enemy twice." """
    two_ranges("nomads", "dual-wield", 3)


def _frenzy() -> None:
    """ "Attack twice for 3 damage each against same target. Gain 1 Heat." """
    card = built("vestige-bloodlines", "frenzy")
    b = field(card, line(1)[:2])
    events = strike(b, card, 1, hits(3, 3))
    assert attacks(events) == [(1, 3), (1, 3)]
    assert b.seat(0).heat == 1
    played_once(b, events, card)
    refused = field(card, line(1)[:2]).refuse(
        {"type": "attack", "seat": 0, "card": "frenzy#1", "target": 1, "also": [2]}
    )
    assert (refused.code, refused.rule) == ("unused_argument", "R-ADD-80")


def others(section: str, cid: str, damages: Sequence[int]) -> None:
    """ "To N (different) targets": each further attack at an enemy named in `also` that
    this card attacks no other time; unnamed, not made (R-ADD-80)."""
    card = built(section, cid)
    d = reach(card)
    b = field(card, line(d)[:1])
    events = strike(b, card, 1, hits(damages[0]))
    assert attacks(events) == [(1, damages[0])]  # a lone enemy takes the first attack only
    played_once(b, events, card)
    b = field(card, line(d)[: len(damages)])
    also = list(range(2, len(damages) + 1))
    events = strike(b, card, 1, hits(*damages), also=also)
    assert attacks(events) == list(zip(range(1, len(damages) + 1), damages, strict=True))
    played_once(b, events, card)
    refused = field(card, line(d)[:2]).refuse(
        {"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1, "also": [1]}
    )
    assert (refused.code, refused.rule) == ("same_target_again", "R-ADD-80")


def _flurry_of_faith() -> None:
    """ "3 damage to 2 adjacent targets." """
    others("equipment", "flurry-of-faith", (3, 3))


def _volley() -> None:
    """ "3 damage to 3 targets." (6 hexes)"""
    others("equipment", "volley", (3, 3, 3))


def _warhammer_backswing() -> None:
    """ "Deal 3 damage twice (two targets)" """
    others("equipment_items", "warhammer-backswing", (3, 3))


def _longbow_volley() -> None:
    """ "Deal 3 damage to up to 3 targets" (Ranged 3-6)"""
    others("equipment_items", "longbow-volley", (3, 3, 3))


def _nomads_volley() -> None:
    """ "Attack 2 different targets within 3 hexes for 3 damage each." """
    others("equipment_items", "nomads-volley", (3, 3))
    card = built("equipment_items", "nomads-volley")
    b = field(card, [line(2)[0], line(4)[1]])  # the second one 4 hexes away
    assert b.refuse({"type": "attack", "seat": 0, "card": "nomads-volley#1", "target": 1,
                     "also": [2]}).code == "out_of_range"  # fmt: skip


def _mace_backswing() -> None:
    """ "Deal 3 damage to target, 2 damage to adjacent enemy": the second enemy adjacent to
    the attacker, the Melee card's reach (R-ADD-80)."""
    others("equipment_items", "mace-backswing", (3, 2))


def _ground_slam() -> None:
    """ "4 damage AoE to 3 adjacent hexes.": hexes of the attacker's choice, so up to three
    adjacent enemies named (R-ADD-80, R-ADD-81)."""
    others("equipment", "ground-slam", (4, 4, 4))


def _spear_sweep() -> None:
    """ "Deal 3 damage to up to 2 adjacent enemies" """
    others("equipment_items", "spear-sweep", (3, 3))


def _segmented_strike() -> None:
    """ "Deal 4 damage with primary limbs. If you have 2+ Metamorph tokens, make a second
    attack with additional arthropod limbs for 2 damage.": read as the card is played
    (R-ADD-59, R-ADD-80)."""
    card = built("emergent", "segmented-strike")
    for have, expected in ((1, [(1, 4)]), (2, [(1, 4), (1, 2)])):
        b = field(card, line(1)[:1])
        arrange(b, TokensChanged(0, "metamorph", have, have, "arranged"))
        events = strike(b, card, 1, hits(*(n for _, n in expected)))
        assert attacks(events) == expected, have
        played_once(b, events, card)


def _bloodthirsty_rend() -> None:
    """ "Deal 5 damage. If this kills the target, immediately make another attack against
    adjacent enemy for 3 damage. Chain kills.": at the enemy `also` names, only when the
    first attack defeated its target (R-ADD-65, R-ADD-80)."""
    card = built("vestige-bloodlines", "bloodthirsty-rend")
    b = field(card, line(1)[:2], version="2.1")
    events = strike(b, card, 1, hits(5), also=[2])
    assert attacks(events) == [(1, 5)]
    taken = one(events, FollowUpTaken)
    assert (taken.target, taken.made, taken.rule) == (2, False, "R-ADD-80")
    assert "did not defeat" in taken.reason
    played_once(b, events, card)
    # The target has 1 HP left (R-DMG-9): the hit defeats it (survival face 4), and the
    # second attack follows in the same answer.
    b = field(card, line(1)[:2], version="2.1")
    arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
    b.do({"type": "attack", "seat": 0, "card": "bloodthirsty-rend#1", "target": 1,
          "component": "chassis", "also": [2], "faces": [*HIT, *[4] * 5]})  # fmt: skip
    events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 5,
                   "drawn": [FILLER], "faces": [4, *HIT, 4, 4, 4]})  # fmt: skip
    assert b.seat(1).defeated
    assert attacks(events) == [(2, 3)]
    b.do({"type": "take_damage", "seat": 2, "hand": [FILLER] * 3, "deck": 0})
    assert f"{card.id}#1" in b.seat(0).discard
    # Unnamed, there is nobody to chain to.
    b = field(card, line(1)[:2], version="2.1")
    events = strike(b, card, 1, hits(5))
    assert not of_type(events, AttacksQueued)


AREA_SCENARIOS.update({
    ("equipment", "twin-cuts"): _twin_cuts,
    ("equipment_items", "dagger-double-strike"): _dagger_double_strike,
    ("equipment", "rapid-fire"): _rapid_fire,
    ("equipment_items", "rifle-burst-fire"): _rifle_burst_fire,
    ("equipment_items", "inferno-staff-flame-burst"): _flame_burst,
    ("emergent", "multi-limb-barrage"): _multi_limb_barrage,
    ("equipment", "dual-wield"): _equipment_dual_wield,
    ("nomads", "dual-wield"): _nomads_dual_wield,
    ("vestige-bloodlines", "frenzy"): _frenzy,
    ("equipment", "flurry-of-faith"): _flurry_of_faith,
    ("equipment", "volley"): _volley,
    ("equipment_items", "warhammer-backswing"): _warhammer_backswing,
    ("equipment_items", "longbow-volley"): _longbow_volley,
    ("equipment_items", "nomads-volley"): _nomads_volley,
    ("equipment_items", "mace-backswing"): _mace_backswing,
    ("equipment_items", "spear-sweep"): _spear_sweep,
    ("equipment", "ground-slam"): _ground_slam,
    ("emergent", "segmented-strike"): _segmented_strike,
    ("vestige-bloodlines", "bloodthirsty-rend"): _bloodthirsty_rend,
})  # fmt: skip


# --- R-ADD-81: every casket of an area ---------------------------------------------------------


def area(section: str, cid: str, primary: int, each: int, *, allies: bool = False) -> Battle:
    """Enemies N and SE of the attacker, one two hexes N, an ally SW: the target first,
    then every other adjacent enemy (and the ally only when `allies`), in seat order, each
    attacked on its own; the far enemy never (R-ADD-81)."""
    card = built(section, cid)
    b = field(card, [ROUND["N"], ROUND["SE"], ((0, 1), 4)], [ROUND["SW"]])
    caught = [(1, primary), (2, each)] + ([(4, each)] if allies else [])
    events = strike(b, card, 1, hits(*(n for _, n in caught)))
    assert attacks(events) == caught
    played_once(b, events, card)
    # Alone with its target, the card makes the one attack.
    b = field(card, [ROUND["N"]])
    events = strike(b, card, 1, hits(primary))
    assert attacks(events) == [(1, primary)]
    return b


def _chain_whip_sweep() -> None:
    """ "Deal 3 damage to all adjacent enemies" """
    area("equipment_items", "chain-whip-sweep", 3, 3)


def _halberd_defensive_sweep() -> None:
    """ "Deal 2 damage to all adjacent enemies" """
    area("equipment_items", "halberd-defensive-sweep", 2, 2)


def _burning_hands() -> None:
    """ "Deal 3 damage to all adjacent enemies, gain 1 Heat" """
    b = area("equipment_items", "pyromancer-s-grimoire-burning-hands", 3, 3)
    assert b.seat(0).heat == 1


def _greatsword_cleave() -> None:
    """ "Deal 4 damage to primary target, 2 damage to adjacent enemies" """
    area("equipment_items", "greatsword-cleave", 4, 2)


def _greatsword_spinning_slash() -> None:
    """ "Deal 4 damage to ALL adjacent hexes": the ally beside the attacker too (R-ADD-81)."""
    area("equipment_items", "greatsword-spinning-slash", 4, 4, allies=True)


def _frost_nova() -> None:
    """ "Deal 2 damage to all adjacent enemies, enemies lose 1 SP next turn": each enemy
    hit (R-ADD-65, R-ADD-81)."""
    area("equipment_items", "glacial-tome-frost-nova", 2, 2)
    card = built("equipment_items", "glacial-tome-frost-nova")
    b = field(card, [ROUND["N"], ROUND["SE"], ROUND["NW"]])
    events = strike(b, card, 1, [*hits(2), MISS, *hits(2)])
    assert [e.seat for e in of_type(events, SpPenaltyImposed)] == [1, 3]
    assert [e.amount for e in of_type(events, SpPenaltyImposed)] == [1, 1]


def _bone_scythe_reap() -> None:
    """ "Deal 3 damage to primary target and 2 damage to all adjacent enemies. For each
    enemy destroyed, gain 2 Soul Shards.": once per kill (R-ADD-65, R-ADD-81)."""
    area("ossuarium", "bone-scythe-reap", 3, 2)
    card = built("ossuarium", "bone-scythe-reap")
    b = field(card, [ROUND["N"], ROUND["SE"]], version="2.1")
    arrange(b, DamageTaken(2, (), b.seat(2).deck[:-1], 0, None))  # seat 2: 1 HP
    strike_events = b.do({"type": "attack", "seat": 0, "card": "bone-scythe-reap#1",
                          "target": 1, "component": "chassis", "faces": [*HIT, 4, 4, 4]})  # fmt: skip
    assert attacks(strike_events) == [(1, 3)]
    b.do({"type": "take_damage", "seat": 1, "hand": [FILLER] * 3, "deck": 0,
          "faces": [*HIT, 4, 4]})  # fmt: skip
    b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": 2, "drawn": [FILLER],
          "faces": [4]})  # fmt: skip
    assert b.seat(2).defeated and not b.seat(1).defeated
    assert b.seat(0).tokens_of("soul_shard") == 2


AREA_SCENARIOS.update({
    ("equipment_items", "chain-whip-sweep"): _chain_whip_sweep,
    ("equipment_items", "halberd-defensive-sweep"): _halberd_defensive_sweep,
    ("equipment_items", "pyromancer-s-grimoire-burning-hands"): _burning_hands,
    ("equipment_items", "greatsword-cleave"): _greatsword_cleave,
    ("equipment_items", "greatsword-spinning-slash"): _greatsword_spinning_slash,
    ("equipment_items", "glacial-tome-frost-nova"): _frost_nova,
    ("ossuarium", "bone-scythe-reap"): _bone_scythe_reap,
})  # fmt: skip


# --- R-ADD-84: blasts and arcs around the target ---------------------------------------------


def aimed(
    b: Battle, card: CardDef, expected: Sequence[tuple[int, str, int]]
) -> list[tuple[int, ...]]:
    """Faces that hit with each expected attack (seat, reach, printed damage): two attack
    faces adding up to its target number as the rules compute it now (R-HIT-1, R-HIT-4),
    then a BLOOD defence face per point of the damage that grade deals."""
    plan: list[tuple[int, ...]] = []
    for target, reach_text, damage in expected:
        answer = attack_answer(
            b.state, 0, card, target, AttackEffect(parse_range(reach_text), damage)
        )
        n = answer.target_number
        assert answer.possible, (target, answer.refusal)
        assert n is not None and n <= 9
        first = min(5, n - 1)
        roll = attack_result((first, n - first), n, answer.dice)
        assert roll.hit and roll.grade != "execution"
        plan.append((first, n - first, *[4] * answer.damage_for(roll.grade)))
    return plan


def base(d: AttackDeclared) -> int:
    """The printed damage the attack was declared with, before its R-DMG-1 modifiers."""
    return int(d.to_hit["damage"]["base"])


def blast(
    section: str,
    cid: str,
    gap: int,
    primary: int,
    each: int,
    *,
    within: int = 1,
    allies: bool = False,
) -> tuple[Battle, list[Event]]:
    """The target `gap` hexes N of the attacker; an enemy NE of it, an ally NW of it, an enemy
    two hexes beyond it: the target first, then every casket of the area around it
    (R-ADD-84), each attacked from the attacker with its own to-hit lines."""
    card = built(section, cid)
    assert card.range is not None
    d = gap
    b = field(card, [((0, 3 - d), 4), ((1, 2 - d), 4), ((0, 1 - d), 4)], [((-1, 3 - d), 4)])
    reach = f"{max(1, card.range.low - within)}-{card.range.high + within}"
    caught = [(1, card.range.text, primary), (2, reach, each)]
    if within >= 2:
        caught.append((3, reach, each))
    if allies:
        caught.append((4, reach, each))
    events = strike(b, card, 1, aimed(b, card, caught))
    assert [(x.target, base(x)) for x in of_type(events, AttackDeclared)] == [
        (t, n) for t, _, n in caught
    ]
    assert len(of_type(events, CardPlayed)) == 1 and not b.seat(0).in_play
    assert b.state.follow_ups == ()
    return b, events


def _firestorm() -> None:
    """ "Deal 4 damage to target + 2 damage to adjacent hexes, gain 2 Heat": the ally in an
    adjacent hex too (R-ADD-84)."""
    b, _ = blast("equipment_items", "inferno-staff-firestorm", 3, 4, 2, allies=True)
    assert b.seat(0).heat == 2


def _death_wave() -> None:
    """ "Deal 4 damage to target, 2 damage to all adjacent enemies" """
    blast("equipment_items", "staff-of-the-grave-death-wave", 3, 4, 2)


def _void_storm() -> None:
    """ "Deal 5 damage to target + 3 damage to adjacent enemies, all affected gain 1 Taint,
    you gain 2 Taint": each enemy hit gains 1 (R-ADD-65, R-ADD-66)."""
    b, events = blast("equipment_items", "abyssal-staff-void-storm", 3, 5, 3)
    assert [(e.seat, e.amount) for e in of_type(events, TaintChanged)] == [(0, 2), (1, 1), (2, 1)]
    assert (b.seat(0).taint, b.seat(1).taint, b.seat(2).taint, b.seat(3).taint) == (2, 1, 1, 0)


def _blizzard() -> None:
    """ "Deal 3 damage to target + 1 damage to all enemies within 2 hexes, all affected lose
    1 SP next turn": within 2 hexes of the target (R-ADD-84), each enemy hit (R-ADD-65)."""
    _, events = blast("equipment_items", "glacial-tome-blizzard", 4, 3, 1, within=2)
    assert [(e.seat, e.amount) for e in of_type(events, SpPenaltyImposed)] == [
        (1, 1), (2, 1), (3, 1),
    ]  # fmt: skip


def _frag_grenade() -> None:
    """ "Deal 4 damage to target hex and 2 damage to all adjacent hexes. Remove this card
    from game after use.": removed once its last attack has ended (R-ADD-70)."""
    b, _ = blast("equipment_items", "alchemical-grenades-frag-grenade", 2, 4, 2, allies=True)
    assert b.seat(0).removed == ("alchemical-grenades-frag-grenade#1",)
    assert "alchemical-grenades-frag-grenade#1" not in b.seat(0).discard


def _detonation_rune() -> None:
    """ "Deal 5 damage to target and all adjacent hexes, Armor-Piercing. Remove this card
    from game after use.": every attack of the card ignores all Defense (R-ADD-60,
    R-ADD-84), and the card leaves the game after the last (R-ADD-70)."""
    b, events = blast("equipment_items", "runic-charges-detonation-rune", 2, 5, 5, allies=True)
    assert [ignored(d) for d in of_type(events, AttackDeclared)] == [MAX_DAMAGE] * 3
    assert b.seat(0).removed == ("runic-charges-detonation-rune#1",)
    assert b.seat(0).buff_ignore_defence == 0  # each attack spent its own


def _corpse_explosion() -> None:
    """ "Deal 3 damage to target hex and all adjacent hexes." """
    blast("ossuarium", "corpse-explosion", 2, 3, 3, allies=True)


def arcs(section: str, cid: str, gap: int, damages: Sequence[int], near: int) -> None:
    """Further attacks at enemies `also` names within `near` hexes of the first target
    (R-ADD-84); unnamed, only the first attack."""
    card = built(section, cid)
    assert card.range is not None
    reach = f"{max(1, card.range.low - near)}-{card.range.high + near}"
    target = (0, 3 - gap)
    close = [((1, 2 - gap), 4), ((-1, 3 - gap), 4)][: len(damages) - 1]
    b = field(card, [(target, 4), *close])
    expected = [(1, card.range.text, damages[0])]
    expected += [(2 + i, reach, n) for i, n in enumerate(damages[1:])]
    events = strike(b, card, 1, aimed(b, card, expected), also=list(range(2, len(damages) + 1)))
    assert [(x.target, base(x)) for x in of_type(events, AttackDeclared)] == [
        (t, n) for t, _, n in expected
    ]
    b = field(card, [(target, 4), *close])
    events = strike(b, card, 1, aimed(b, card, expected[:1]))
    assert [x.target for x in of_type(events, AttackDeclared)] == [1]
    # An enemy further from the first target than the arc reaches cannot be named.
    b = field(card, [(target, 4), ((0, 3 - gap - near - 1), 4)])
    refused = b.refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
                        "also": [2]})  # fmt: skip
    assert (refused.code, refused.rule) == ("too_far_from_target", "R-ADD-84")


def _shock_rod_arc() -> None:
    """ "Deal 2 damage to target, 1 damage to adjacent enemy": adjacent to the target, the
    ranged card's reach (R-ADD-84)."""
    arcs("equipment_items", "shock-rod-arc", 2, (2, 1), 1)


def _chain_lightning() -> None:
    """ "Deal 3 damage to target, arcs to 2 additional enemies within 2 hexes (2 damage
    each)" """
    arcs("equipment_items", "stormcaller-s-grimoire-chain-lightning", 3, (3, 2, 2), 2)


AREA_SCENARIOS.update({
    ("equipment_items", "inferno-staff-firestorm"): _firestorm,
    ("equipment_items", "staff-of-the-grave-death-wave"): _death_wave,
    ("equipment_items", "abyssal-staff-void-storm"): _void_storm,
    ("equipment_items", "glacial-tome-blizzard"): _blizzard,
    ("equipment_items", "alchemical-grenades-frag-grenade"): _frag_grenade,
    ("ossuarium", "corpse-explosion"): _corpse_explosion,
    ("equipment_items", "runic-charges-detonation-rune"): _detonation_rune,
    ("equipment_items", "shock-rod-arc"): _shock_rod_arc,
    ("equipment_items", "stormcaller-s-grimoire-chain-lightning"): _chain_lightning,
})  # fmt: skip


def test_a_caught_casket_out_of_sight_is_passed_over() -> None:
    """R-ADD-84: a blast's attacks are the attacker's; one at a casket behind a wall is
    passed over with the refusal, and the card goes to the discard pile after the last."""
    card = built("equipment_items", "staff-of-the-grave-death-wave")
    cells = [{"q": 1, "r": 1, "terrain": "wall"}, {"q": 1, "r": 2, "terrain": "wall"}]
    b = field(card, [((0, 0), 4), ((1, -1), 4)])
    b.state = replace(b.state, board=parse_board({"shape": {"kind": "hexagon", "radius": 8},
                                                   "hexes": cells}))  # fmt: skip
    assert not attack_answer(b.state, 0, card, 2, AttackEffect(parse_range("2-7"), 2)).possible
    events = strike(b, card, 1, aimed(b, card, [(1, "3-6", 4)]))
    taken = one(events, FollowUpTaken)
    assert (taken.target, taken.made) == (2, False) and "R-LOS" in taken.reason
    assert "staff-of-the-grave-death-wave#1" in b.seat(0).discard


def _earthquake() -> None:
    """ "4 damage to all enemies within 2 hexes.": an aura (R-RNG-3, R-ADD-85): the enemy
    behind the caster and the one behind a wall are attacked too; the one 3 hexes away and
    the ally are not."""
    card = built("equipment", "earthquake")
    enemies = [((0, 2), 4), ((0, 5), 1), ((2, 1), 5), ((0, 0), 4)]
    b = field(card, enemies, [((-1, 4), 2)])
    walls = {
        "shape": {"kind": "hexagon", "radius": 8},
        "hexes": [{"q": 1, "r": 2, "terrain": "wall"}],
    }
    b.state = replace(b.state, board=parse_board(walls))
    # Any other card would be refused both: one is behind the caster, one behind the wall.
    reach = AttackEffect(parse_range("1-2"), 4)
    plain = CardDef(id="plain", name="Plain", kind="other", sp_cost=0, range=reach.range,
                    damage=4, effects=(reach,), automated=True)  # fmt: skip
    refusals = [attack_answer(b.state, 0, plain, n).refusal for n in (2, 3)]
    assert [r.code if r else None for r in refusals] == ["out_of_arc", "no_line_of_sight"]
    expected = [(1, "2", 4), (2, "1-2", 4), (3, "1-2", 4)]
    events = strike(b, card, 1, aimed(b, card, expected))
    assert [(x.target, base(x)) for x in of_type(events, AttackDeclared)] == [
        (1, 4), (2, 4), (3, 4),
    ]  # fmt: skip
    assert all(e.made for e in of_type(events, FollowUpTaken))
    assert "earthquake#1" in b.seat(0).discard
    # The first target may be behind the caster too, and legal actions offer it.
    b = field(card, [((0, 5), 1)])
    assert {"type": "attack", "seat": 0, "card": "earthquake#1", "target": 1} in [
        a.body for a in legal_actions(b.state)
    ]
    events = strike(b, card, 1, aimed(b, card, [(1, "2", 4)]))
    assert [x.target for x in of_type(events, AttackDeclared)] == [1]


AREA_SCENARIOS[("equipment", "earthquake")] = _earthquake


def _volcanic_tremor() -> None:
    """ "Create earthquake. All enemies in area take 2 damage and are knocked down (skip
    movement next turn). Create 1 Lava Terrain hex at center of area (remains for 3 turns).
    Summon the volcano's wrath." (range "4 hexes (area)", 2 Forge tokens): the area is the
    4 hexes around the caster (R-ADD-341), an aura attacking each enemy in it (R-ADD-85);
    each one hit cannot move in its next turn (R-ADD-111); the centre, the caster's own
    hex, is lava for the player's turn and its next two (R-ADD-161, R-ADD-410)."""
    card = built("crucible", "volcanic-tremor")
    enemies = [((0, 7), 1), ((0, 1), 4), ((0, -2), 4)]  # behind at 4; ahead at 2; at 5
    b = field(card, enemies, [((1, 2), 5)])  # an ally next to the caster
    poor = field(card, enemies, [((1, 2), 5)])
    err = poor.refuse({"type": "attack", "seat": 0, "card": "volcanic-tremor#1",
                       "target": 1, "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-133")
    tokens(b, "forge", 2)
    expected = [(1, "4", 2), (2, "1-4", 2)]
    events = strike(b, card, 1, aimed(b, card, expected))
    assert [(x.target, base(x)) for x in of_type(events, AttackDeclared)] == [(1, 2), (2, 2)]
    assert b.seat(0).tokens_of("forge") == 0
    assert [(r.seat, r.turns) for r in of_type(events, Rooted)] == [(1, 1), (2, 1)]
    assert [b.seat(n).rooted_turns for n in (1, 2, 3, 4)] == [1, 1, 0, 0]
    made = one(events, TerrainCreated)
    assert (made.seat, made.card, made.kind, made.hexes, made.turns) == (
        0, "volcanic-tremor", "lava", ((0, 3),), 3,
    )  # fmt: skip
    assert b.state.board.terrain_at(Hex(0, 3)).name == "lava"
    assert "volcanic-tremor#1" in b.seat(0).discard
    # A miss neither damages nor knocks down; the lava is made all the same.
    b = field(card, enemies[:1])
    tokens(b, "forge", 2)
    events = strike(b, card, 1, [MISS])
    assert not of_type(events, Rooted) and b.seat(1).rooted_turns == 0
    assert b.state.board.terrain_at(Hex(0, 3)).name == "lava"


AREA_SCENARIOS[("crucible", "volcanic-tremor")] = _volcanic_tremor


def _pheromone_glands() -> None:
    """ "Release confusion pheromones. All enemies in cone have -1 to their next attack
    roll. Chemical warfare." (3 hexes, cone): the caster's front sector, edges included, up
    to 3 hexes; enemies only (R-ADD-86)."""
    card = built("emergent", "pheromone-glands")
    inside = [((0, 2), 4), ((1, 1), 4), ((0, 0), 4)]  # ahead 1, on the edge 2, ahead 3
    outside = [((1, 2), 5), ((0, -1), 4)]  # beside the caster; 4 hexes ahead
    b = field(card, [*inside, *outside], [((-1, 2), 3)])  # an ally on the cone's edge
    events = b.do({"type": "play_card", "seat": 0, "card": "pheromone-glands#1"})
    gained = of_type(events, BuffGained)
    assert [(e.seat, e.to_hit, e.source) for e in gained] == [
        (1, 1, "pheromone-glands"), (2, 1, "pheromone-glands"), (3, 1, "pheromone-glands"),
    ]  # fmt: skip
    assert [b.seat(n).buff_to_hit for n in range(1, 7)] == [1, 1, 1, 0, 0, 0]
    assert "pheromone-glands#1" in b.seat(0).discard


AREA_SCENARIOS[("emergent", "pheromone-glands")] = _pheromone_glands


def _lightning_storm() -> None:
    """ "Deal 3 damage to target + 3 damage to 2 random enemies within 3 hexes": within 3
    hexes of the target; 2 of the 3 caught enemies drawn with d6s naming them in seat
    order, a face above those left re-rolled (R-ADD-87)."""
    card = built("equipment_items", "tempest-scepter-lightning-storm")
    target, near = ((0, 0), 4), [((1, -1), 4), ((0, -2), 4), ((-1, 0), 4)]
    far = ((0, -4), 4)  # 4 hexes from the target
    b = field(card, [target, *near, far])
    expected = [(1, "3-6", 3), (3, "1-9", 3), (4, "1-9", 3)]
    # 6: re-rolled; 2: the second of seats 2, 3, 4; 2: the second of seats 2, 4.
    events = strike(b, card, 1, aimed(b, card, expected), pre=(6, 2, 2))
    rolled = one(events, EffectRolled)
    assert (rolled.faces, rolled.total, rolled.source) == ((6, 2, 2), 2, card.id)
    assert [(x.target, base(x)) for x in of_type(events, AttackDeclared)] == [
        (1, 3), (3, 3), (4, 3),
    ]  # fmt: skip
    # Two caught: both attacked, nothing rolled.
    b = field(card, [target, *near[:2], far])
    expected = [(1, "3-6", 3), (2, "1-9", 3), (3, "1-9", 3)]
    events = strike(b, card, 1, aimed(b, card, expected))
    assert not of_type(events, EffectRolled)
    assert [x.target for x in of_type(events, AttackDeclared)] == [1, 2, 3]


AREA_SCENARIOS[("equipment_items", "tempest-scepter-lightning-storm")] = _lightning_storm


def _molten_armor() -> None:
    """ "+2 Defense until next turn, adjacent enemies take 1 damage at start of their
    turn": until the owner's next turn, an adjacent enemy takes 1 damage as its turn
    starts; one 2 hexes away does not, nor an ally (R-ADD-64, R-ADD-88)."""
    card = built("equipment_items", "inferno-staff-molten-armor")
    b = field(card, [ROUND["N"], ((2, 1), 5)], [ROUND["SW"]])
    events = b.do({"type": "play_card", "seat": 0, "card": "inferno-staff-molten-armor#1"})
    assert one(events, DefenceRaised) == DefenceRaised(0, 2, card.id)
    assert one(events, DamageAuraRaised) == DamageAuraRaised(0, 1, 1, card.id)
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})  # seat 1's turn starts
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 1)
    assert "R-ADD-88" in prompt.reason and "R-ADD-73" not in prompt.reason
    events = b.do({"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 0})
    assert len(one(events, DamageTaken).from_hand) == 1 and len(b.seat(1).hand) == 5
    events = b.do({"type": "pass", "seat": 1, "drawn": [FILLER]})  # seat 2, 2 hexes away
    assert b.state.active == 2 and not of_type(events, PromptOpened)
    events = b.do({"type": "pass", "seat": 2})  # seat 3, the ally
    assert b.state.active == 3 and not of_type(events, PromptOpened)
    # The owner's next turn ends it, with the Defense.
    arrange(b, TurnStarted(0))
    assert (b.seat(0).damage_aura, b.seat(0).defence_bonus) == (0, 0)


AREA_SCENARIOS[("equipment_items", "inferno-staff-molten-armor")] = _molten_armor


def _staff_corpse_explosion() -> None:
    """ "Target destroyed enemy explodes, deal 5 damage to all adjacent hexes": the
    command's target is a defeated enemy within 3-8 hexes; the enemy and the ally beside
    it are attacked, the enemy 3 hexes from it is not (R-ADD-89)."""
    card = built("equipment_items", "staff-of-the-grave-corpse-explosion")
    play = {"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1}
    b = field(card, [((0, 0), 4), ((1, -1), 4), ((0, -3), 4)], [((-1, 0), 4)])
    refused = b.refuse(play)  # seat 1 still fights
    assert (refused.code, refused.rule) == ("not_a_wreck", "R-ADD-89")
    arrange(b, CasketDefeated(1, "arranged", "R-DMG-9"))
    # No command names a component: each attack rolls its own first (6: chassis, R-DMG-6).
    plan = [(6, *faces) for faces in aimed(b, card, [(2, "2-9", 5), (4, "2-9", 5)])]
    events = b.do({**play, "faces": list(plan[0])})
    assert one(events, AttacksQueued).attacks == ((2, "2-9", 5), (4, "2-9", 5))
    assert f"{card.id}#1" in b.seat(0).in_play  # until its last attack has ended
    events += b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": 5,
                    "drawn": [FILLER] * 5, "faces": list(plan[1])})  # fmt: skip
    events += b.do({"type": "take_damage", "seat": 4, "hand": [], "deck": 5,
                    "drawn": [FILLER] * 5})  # fmt: skip
    declared = of_type(events, AttackDeclared)
    assert [(x.target, base(x), x.component) for x in declared] == [
        (2, 5, "chassis"), (4, 5, "chassis"),
    ]  # fmt: skip
    assert f"{card.id}#1" in b.seat(0).discard and not b.seat(0).in_play
    # Out of the printed range; nobody beside the wreck.
    far = field(card, [((0, -6), 4)])
    arrange(far, CasketDefeated(1, "arranged", "R-DMG-9"))
    assert far.refuse({**play, "target": 1}).code == "out_of_range"
    alone = field(card, [((0, 0), 4)])
    arrange(alone, CasketDefeated(1, "arranged", "R-DMG-9"))
    events = alone.do(play)
    assert not of_type(events, AttacksQueued) and f"{card.id}#1" in alone.seat(0).discard


AREA_SCENARIOS[("equipment_items", "staff-of-the-grave-corpse-explosion")] = _staff_corpse_explosion


# --- R-ADD-82, R-ADD-83 ------------------------------------------------------------------------


def taint_purge(section: str) -> None:
    """ "Remove 1d3 Taint from yourself. Recover 1 card from discard pile per Taint
    removed.": the d6 halved, rounded up; never below 0; per point removed (R-ADD-82)."""
    card = built(section, "taint-purge")
    for taint, face, removed in ((3, 5, 3), (3, 2, 1), (1, 6, 1), (0, 6, 0)):
        b = field(card, line(1)[:1])
        if taint:
            arrange(b, TaintChanged(0, taint, taint, "arranged"))
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:3]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
        events = b.do({"type": "play_card", "seat": 0, "card": "taint-purge#1", "faces": [face]})
        rolled = one(events, EffectRolled)
        assert (rolled.faces, rolled.total) == ((face,), (face + 1) // 2)
        assert b.seat(0).taint == taint - removed, (taint, face)
        back = [c for e in of_type(events, CardsRecovered) for c in e.cards]
        assert len(back) == removed and set(back) <= set(junk)


def _taint_purge_equipment() -> None:
    """ "Remove 1d3 Taint from yourself. Recover 1 card from discard pile per Taint
    removed." """
    taint_purge("equipment")


def _taint_purge_item() -> None:
    """ "Remove 1d3 Taint from yourself. Recover 1 card from discard pile per Taint
    removed." """
    taint_purge("equipment_items")


def _grave_pact() -> None:
    """ "Discard 3 cards. Deal 6 damage (2 damage per card discarded). If this destroys an
    enemy, gain 4 Soul Shards.": three from the top of the deck (R-ADD-83), then the
    attack; the Soul Shards only for a kill (R-ADD-65)."""
    card = built("ossuarium", "grave-pact")
    assert card.range == parse_range("1-6")
    for kill in (False, True):
        b = field(card, [line(4)[0]], version="2.1")
        if kill:
            arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
        deck_before = len(b.seat(0).deck)
        events = b.do({"type": "attack", "seat": 0, "card": "grave-pact#1", "target": 1,
                       "component": "chassis", "drawn": [FILLER] * 3,
                       "faces": [*HIT, *[4] * 6]})  # fmt: skip
        discarded = one(events, CardsDiscarded)
        assert (len(discarded.from_deck), len(b.seat(0).deck)) == (3, deck_before - 3)
        assert attacks(events) == [(1, 6)]
        answer: dict[str, Any] = {"type": "take_damage", "seat": 1, "hand": [FILLER] * 6,
                                  "deck": 0}  # fmt: skip
        if kill:
            answer = {**answer, "hand": [], "deck": 6, "drawn": [FILLER], "faces": [4]}
        b.do(answer)
        assert b.seat(1).defeated == kill
        assert b.seat(0).tokens_of("soul_shard") == (4 if kill else 0)


AREA_SCENARIOS.update({
    ("equipment", "taint-purge"): _taint_purge_equipment,
    ("equipment_items", "taint-purge"): _taint_purge_item,
    ("ossuarium", "grave-pact"): _grave_pact,
})  # fmt: skip


def _plasma_lance() -> None:
    """ "Deal 7 damage, Armor-Piercing, create line of lightning (hits all targets in
    straight line)": every enemy in the hexes a straight line from the attacker through the
    target passes through, out to the card's 10 hexes, is attacked too, before or beyond the
    target, each attack ignoring all Defense; an ally on the line, an enemy off it, and one
    in a hex the line only touches are not (R-ADD-60, R-ADD-81, R-ADD-381)."""
    card = built("equipment_items", "tempest-scepter-plasma-lance")
    # Along a direction: the target 6 hexes N, an enemy between, one beyond, one off the
    # line, an ally on it.
    enemies = [((0, -3), 4), ((0, 1), 4), ((0, -6), 4), ((1, -3), 4)]
    b = field(card, enemies, [((0, 0), 4)])
    expected = [(1, "5-10", 7), (2, "1-10", 7), (3, "1-10", 7)]
    events = strike(b, card, 1, aimed(b, card, expected))
    declared = of_type(events, AttackDeclared)
    assert [(x.target, base(x)) for x in declared] == [(1, 7), (2, 7), (3, 7)]
    assert [ignored(d) for d in declared] == [MAX_DAMAGE] * 3
    assert b.seat(0).buff_ignore_defence == 0
    # Off the six directions: the line from [0, 3] through [2, -3] crosses [1, 0] and
    # [3, -6], not [0, 1] beside it.
    b = field(card, [((2, -3), 4), ((1, 0), 4), ((0, 1), 4), ((3, -6), 4)])
    expected = [(1, "5-10", 7), (2, "1-10", 7), (4, "1-10", 7)]
    events = strike(b, card, 1, aimed(b, card, expected))
    assert [x.target for x in of_type(events, AttackDeclared)] == [1, 2, 4]
    # On a 30° diagonal the line runs along hex edges: it meets the centres of [1, 1] and
    # [5, -7], and only touches [1, 2] and [2, 0], whose caskets it spares (R-LOS-4).
    b = field(card, [((3, -3), 4), ((1, 1), 4), ((1, 2), 4), ((2, 0), 4), ((5, -7), 4)])
    expected = [(1, "5-10", 7), (2, "1-10", 7), (5, "1-10", 7)]
    events = strike(b, card, 1, aimed(b, card, expected))
    assert [x.target for x in of_type(events, AttackDeclared)] == [1, 2, 5]


AREA_SCENARIOS[("equipment_items", "tempest-scepter-plasma-lance")] = _plasma_lance


@pytest.mark.parametrize("key", sorted(AREA_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_area_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, AREA_SCENARIOS[key])


# --- the vocabulary's own checks ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field_name"),
    [
        ({"kind": "follow_up", "range": "Self", "damage": 3}, "e.range"),
        ({"kind": "follow_up", "range": "Melee", "damage": -1}, "e.damage"),
        ({"kind": "follow_up", "range": "Melee", "damage": 3, "target": "all"}, "e.target"),
        ({"kind": "follow_up", "range": "Melee", "damage": 3, "on": "hit"}, "e.on"),
        ({"kind": "follow_up", "range": "Melee", "damage": 3, "target": "same", "on": "kill"},
         "e.on"),
        ({"kind": "area_attack", "damage": 2, "within": 0}, "e.within"),
        ({"kind": "area_attack", "damage": -1}, "e.damage"),
        ({"kind": "area_attack", "damage": 2, "allies": 1}, "e.allies"),
        ({"kind": "area_attack", "damage": 2, "around": "hex"}, "e.around"),
        ({"kind": "area_attack", "damage": 2, "around": "target", "aura": True}, "e.aura"),
        ({"kind": "follow_up", "range": "1-5", "damage": 1, "near": 1}, "e.near"),
        ({"kind": "area_hinder", "to_hit": 0, "within": 3}, "e.to_hit"),
        ({"kind": "area_attack", "damage": 3, "pick": 7}, "e.pick"),
        ({"kind": "damage_aura", "amount": 0}, "e.amount"),
        ({"kind": "damage_aura", "amount": 1, "within": 0}, "e.within"),
        ({"kind": "area_hinder", "to_hit": 1, "within": 0}, "e.within"),
        ({"kind": "area_hinder", "to_hit": 1, "within": 3, "cone": "yes"}, "e.cone"),
        ({"kind": "remove_taint_rolled", "d3": 0}, "e.d3"),
        ({"kind": "remove_taint_rolled", "d3": 1, "recover_per": 9}, "e.recover_per"),
    ],
)  # fmt: skip
def test_a_bad_field_of_the_area_vocabulary_is_named(doc: dict[str, Any], field_name: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "e")
    assert err.value.field == field_name


def test_further_attacks_need_the_cards_own_attack() -> None:
    for effect in (FollowUpEffect(parse_range("Melee"), 2), AreaAttackEffect(2)):
        with pytest.raises(InvalidInput) as err:
            CardDef(id="x", name="X", kind="other", sp_cost=1, effects=(effect,), automated=True)
        assert (err.value.field, err.value.rule) == ("card.effects[0]", "R-ADD-59")


def test_a_kill_or_armor_piercing_further_attack_is_the_cards_only_one() -> None:
    """R-ADD-80: AttacksQueued says "after a kill" and "Armor-Piercing" of all the card's
    further attacks, so a card with either has no other."""
    first = AttackEffect(parse_range("Melee"), 3)
    for special in (
        FollowUpEffect(parse_range("Melee"), 3, "other", on="kill"),
        AreaAttackEffect(2, ignore_defence=True),
    ):
        with pytest.raises(InvalidInput) as err:
            CardDef(id="x", name="X", kind="other", sp_cost=1, range=first.range, damage=3,
                    effects=(first, special, FollowUpEffect(parse_range("Melee"), 2)),
                    automated=True)  # fmt: skip
        assert (err.value.field, err.value.rule) == ("card.effects", "R-ADD-80")


def test_the_attack_command_names_further_targets() -> None:
    body = {"type": "attack", "seat": 0, "card": "x#1", "target": 1, "also": [2, 3]}
    assert parse_command(body).also == (2, 3)  # type: ignore[attr-defined]
    with pytest.raises(InvalidInput) as err:
        parse_command({**body, "also": [1, True]})
    assert (err.value.field, err.value.rule) == ("also[1]", "R-ADD-80")


def test_a_target_out_of_the_battle_is_passed_over_and_the_state_survives_a_snapshot() -> None:
    """R-ADD-80: the queued attacks are state (snapshots keep them); one whose target is
    defeated by an earlier attack of the card is passed over with the reason."""
    card = built("equipment", "twin-cuts")
    b = field(card, line(1)[:1], version="2.1")
    arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
    b.do({"type": "attack", "seat": 0, "card": "twin-cuts#1", "target": 1,
          "component": "chassis", "faces": [*HIT, 4, 4, 4]})  # fmt: skip
    assert [f.target for f in b.state.follow_ups] == [1]
    assert state_from_dict(state_to_dict(b.state)) == b.state
    events = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 3, "drawn": [FILLER],
                   "faces": [4]})  # fmt: skip
    assert b.seat(1).defeated and not of_type(events, AttackDeclared)
    taken = one(events, FollowUpTaken)
    assert (taken.made, taken.reason) == (False, "seat 1 is out of the battle")
    assert "twin-cuts#1" in b.seat(0).discard and b.state.follow_ups == ()


def test_area_cards_play_through_legal_actions_in_a_crowd() -> None:
    """Four seats, two sides, decks of this group's cards, digital dice, either policy: the
    greedy player drives the battle through legal actions only, every further attack made
    or passed over, and the events replay to the same state."""

    picks = [
        ("equipment_items", "greatsword-spinning-slash"), ("equipment_items", "chain-whip-sweep"),
        ("equipment", "twin-cuts"), ("equipment", "volley"), ("vestige-bloodlines", "frenzy"),
        ("ossuarium", "bone-scythe-reap"), ("equipment_items", "rifle-burst-fire"),
        ("vestige-bloodlines", "bloodthirsty-rend"),
    ]  # fmt: skip
    cards = {cid: built(section, cid) for section, cid in picks}
    row = [{"card": cid, "count": 4 if i < 6 else 3} for i, cid in enumerate(cards)]
    for policy in ("auto", "prompt"):
        doc = {
            "name": "Crowd", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 3},
                                       "hexes": []},
            "rules": {"version": "2.1", "options": {}},
            "dice": {"mode": "digital", "seed": 5, "seed_public": True}, "policy": policy,
            "cards": [c.as_dict() for c in cards.values()],
            "seats": [
                {**seat(0, at=(0, 1), facing=1, side="a"), "deck": row},
                {**seat(1, at=(0, 0), facing=4, side="b"), "deck": row},
                {**seat(2, at=(1, 0), facing=5, side="a"), "deck": row},
                {**seat(3, at=(-1, 1), facing=2, side="b"), "deck": row},
            ],
        }  # fmt: skip
        events = autoplayed(f"crowd-{policy}", doc, seed=2, commands=600)
        assert of_type(events, AttacksQueued) and of_type(events, FollowUpTaken)


def test_the_vocabulary_round_trips() -> None:
    for effect in (
        FollowUpEffect(parse_range("2-6"), 3, "other", Condition("own_heat_at_least", 1)),
        AreaAttackEffect(4, allies=True),
        RemoveTaintRolledEffect(1, 1),
    ):
        assert effect_from_dict(effect.as_dict()) == effect
    assert card_from_dict(built("equipment", "volley").as_dict()) == built("equipment", "volley")


def test_legal_actions_offer_the_further_targets() -> None:
    """R-ADD-80: besides the plain attack, a body naming the other enemies in reach in
    `also`; every body listed is one `decide` accepts."""
    card = built("equipment", "volley")
    b = field(card, [*line(2), ((0, -4), 4)])  # three enemies 2 hexes away, one 7 away
    bodies = [a.body for a in legal_actions(b.state) if a.body["type"] == "attack"]
    assert {"type": "attack", "seat": 0, "card": "volley#1", "target": 1} in bodies
    assert {"type": "attack", "seat": 0, "card": "volley#1", "target": 1, "also": [2, 3]} in bodies
    assert all(4 not in x.get("also", ()) for x in bodies)  # out of the 6-hex reach
    lone = field(card, line(2)[:1])
    assert all("also" not in a.body for a in legal_actions(lone.state))
