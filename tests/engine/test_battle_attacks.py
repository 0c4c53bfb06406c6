"""Battle engine scenarios: an attack from declaration to the last discard.

R-HIT-* (to-hit and results), R-REA-* (reactive cards), R-DMG-* (defence dice, taking
damage, components, EXECUTION), R-PLT-* (wounds) and seed 002's "Resolution (With Dice
System)", "Component Damage Tracking" and "Pilot Wound System". Table dice throughout:
every command reports its faces in the order the engine rolls them (component roll,
attack dice, defence dice) and the cards it takes from a pile (`drawn`).

Layout: seat 0 attacks from [0, 0]; seat 1 stands adjacent at [0, -1]. Seat 0 is due
south of seat 1, so seat 1's facing picks the side the attack comes from (R-ARC-1):
facing 4 side 1, 3 side 2, 2 side 3, 1 side 4, 6 side 5, 5 side 6.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    AttackRolled,
    BattleWon,
    CasketDefeated,
    ComponentDamaged,
    ComponentDestroyed,
    DamageTaken,
    DeckReshuffled,
    DefenceRolled,
    HeatChanged,
    PilotKilled,
    PromptOpened,
    ReactivePlayed,
    WeaponJammed,
    WoundFlipped,
)
from battles.engine.board import parse_board
from battles.engine.hexes import Hex
from battles.engine.ruleset import Ruleset
from battles.engine.tohit import Attacker, Target, Weapon, parse_range, to_hit

from .battle_builder import FILLER, Battle, deck, of_type, one, seat, setup, start, types

ROWS = deck(blade=6, gun=2, pistol=3, ward=2, steam=1, pavise=2)
SIDE_FACING = {1: 4, 2: 3, 3: 2, 4: 1, 5: 6, 6: 5}  # seat 1's facing for each attack side
BLOOD = 4  # a defence face that neither blocks nor does anything else (R-DMG-2)


def hand(*cards: str) -> list[str]:
    """A reported opening hand: `cards` and filler up to 6."""
    return [*cards, *[FILLER] * (6 - len(cards))]


def duel(
    attacker_hand: Sequence[str] = (),
    defender_hand: Sequence[str] = (),
    *,
    side: int = 1,
    shield: str = "left",
    attacker_at: tuple[int, int] = (0, 0),
    defender_at: tuple[int, int] = (0, -1),
    attacker_rows: list[dict[str, Any]] | None = None,
    defender_rows: list[dict[str, Any]] | None = None,
    carried_wounds: Sequence[str] = (),
    options: dict[str, Any] | None = None,
    version: str = "2.0",
) -> Battle:
    """Seat 0's turn, seat 1 attacked from `side`; both hands as given."""
    doc = setup(
        options=options,
        version=version,
        seats=[
            seat(0, at=attacker_at, facing=1, rows=attacker_rows or ROWS),
            seat(
                1,
                at=defender_at,
                facing=SIDE_FACING[side],
                shield=shield,
                rows=defender_rows or ROWS,
                carried_wounds=carried_wounds,
            ),
        ],
    )
    return start(doc, hands=[hand(*attacker_hand), hand(*defender_hand)])


def attack(b: Battle, faces: list[int], card: str = "blade", **extra: Any) -> list[Any]:
    body = {"type": "attack", "seat": 0, "card": card, "target": 1, "component": "legs"}
    return b.do({**body, "faces": faces, **extra})


def adjust(b: Battle, seat_n: int, component: str, amount: int) -> None:
    b.do({"type": "adjust_component_damage", "seat": seat_n, "component": component,
          "amount": amount, "reason": "scenario"})  # fmt: skip


# --- declaration and the attack roll (R-HIT-*) -------------------------------------------------


def test_an_attack_is_declared_with_the_rules_engines_to_hit_number() -> None:
    """R-HIT-1, R-HIT-2: base 5 + 1 for the attacker's move; the answer is itemised."""
    b = duel(["gun"], attacker_at=(0, 1), defender_at=(0, -2))
    b.do({"type": "move", "seat": 0, "path": [[0, 0]]})
    declared = one(attack(b, [1, 1], card="gun"), AttackDeclared)
    assert declared.target_number == 6
    assert [(m["key"], m["value"]) for m in declared.to_hit["modifiers"]] == [
        ("base", 5),
        ("attacker_movement", 1),
    ]
    expected = to_hit(
        parse_board(b.state.setup["board"]),
        Attacker(Hex(0, 0), 1, moved=1),
        Target(Hex(0, -2), 4),
        Weapon(parse_range("1-6"), 2, "Gun"),
        enemies=[Hex(0, -2)],
        rules=Ruleset(),
    )
    assert declared.to_hit == expected.as_dict()


def test_the_defenders_movement_last_turn_counts_against_the_attacker() -> None:
    """R-HIT-2: defender, hexes moved in its most recent turn."""
    b = duel(["gun"], attacker_at=(0, 1), defender_at=(0, -2))
    b.do({"type": "pass", "seat": 0})
    b.do({"type": "move", "seat": 1, "path": [[0, -3]]})
    b.do({"type": "move", "seat": 1, "path": [[0, -2]]})  # 2 hexes, back at range 2
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    declared = one(attack(b, [1, 1], card="gun"), AttackDeclared)
    assert ("defender_movement", 1) in [
        (m["key"], m["value"]) for m in declared.to_hit["modifiers"]
    ]
    assert declared.target_number == 6


def test_a_destroyed_head_makes_ranged_attacks_harder() -> None:
    """R-HIT-1, seed 002 component table: Head destroyed, +1 to ranged attacks (R-ADD-3)."""
    b = duel(["gun"])
    adjust(b, 0, "head", 3)
    declared = one(attack(b, [1, 1], card="gun"), AttackDeclared)
    assert ("head_destroyed", 1) in [(m["key"], m["value"]) for m in declared.to_hit["modifiers"]]


def test_a_missed_attack_discards_the_card_and_does_nothing_else() -> None:
    """R-HIT-4: a total below the target number misses."""
    b = duel(["blade"], ["ward"])
    new = attack(b, [1, 2])
    assert types(new) == ["CardPlayed", "AttackDeclared", "AttackRolled", "AttackEnded"]
    rolled = one(new, AttackRolled)
    assert (rolled.total, rolled.grade, rolled.damage) == (3, "miss", 0)
    assert one(new, AttackEnded).outcome == "miss"
    assert "blade#1" in b.seat(0).discard and b.seat(0).sp_spent == 2
    assert b.state.attack is None and b.state.prompts == ()


@pytest.mark.parametrize("face", [1, 2, 3, 4, 5, 6])
def test_an_attack_naming_no_component_rolls_for_it_first(face: int) -> None:
    """R-DMG-6: the component is rolled (1 right arm, 2 left arm, 3–4 legs, 5 head, 6 chassis)."""
    b = duel(["blade"])
    new = b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "faces": [face, 1, 1]})
    declared = one(new, AttackDeclared)
    expected = ("right_arm", "left_arm", "legs", "legs", "head", "chassis")[face - 1]
    assert (declared.component_roll, declared.component) == (face, expected)
    assert one(new, AttackRolled).faces == (1, 1)


@pytest.mark.parametrize(
    ("faces", "grade", "damage"),
    [([2, 3], "hit", 3), ([3, 4], "strong", 4), ([4, 4], "strong", 4), ([5, 4], "critical", 5)],
)
def test_the_attack_result_grades_the_damage(faces: list[int], grade: str, damage: int) -> None:
    """R-HIT-4 grades, R-DMG-1: strong +1, critical +2 on the card's 3 damage."""
    b = duel(["blade"])
    new = attack(b, [*faces, *[BLOOD] * damage])
    rolled = one(new, AttackRolled)
    assert (rolled.grade, rolled.damage) == (grade, damage)
    assert len(one(new, DefenceRolled).faces) == damage


# --- reactive cards (R-REA-*) ------------------------------------------------------------------


def test_a_hit_opens_a_reactive_prompt_for_a_defender_holding_a_reactive_card() -> None:
    """R-REA-1, seed 002 Resolution step 4: if hit, the defender may play a reactive card."""
    b = duel(["blade"], ["ward"])
    new = attack(b, [3, 3])
    prompt = one(new, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.rule) == (1, "reactive", "R-REA-1")
    assert "DefenceRolled" not in types(new)
    assert b.state.attack is not None and b.state.attack.grade == "hit"


def test_while_a_prompt_is_open_the_attacker_cannot_act() -> None:
    """R-REA-1: the reactive window comes before the defence dice; the turn waits."""
    b = duel(["blade"], ["ward"])
    attack(b, [3, 3])
    err = b.refuse({"type": "pass", "seat": 0})
    assert (err.code, err.rule) == ("prompt_pending", "R-REA-1")
    assert b.refuse({"type": "no_reactive", "seat": 0}).code == "no_such_prompt"


def test_a_defender_without_reactive_cards_gets_no_prompt() -> None:
    """Seed 002: "If you have no reactive cards in hand, you cannot respond"."""
    b = duel(["blade"], [])
    new = attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    assert "ReactiveDeclined" not in types(new)
    assert one(new, DefenceRolled).faces == (BLOOD,) * 3


def test_declining_the_reactive_rolls_one_defence_die_per_point_of_damage() -> None:
    """R-DMG-2, R-DMG-3: SHIELD and ABSORB block, BLOOD does not; damage − blocks."""
    b = duel(["blade"], ["ward"])
    attack(b, [3, 3])
    err = b.refuse({"type": "no_reactive", "seat": 1, "faces": [1, 3]})
    assert (err.code, err.rule) == ("wrong_dice_count", "R-DMG-2")
    new = b.do({"type": "no_reactive", "seat": 1, "faces": [1, 3, BLOOD]})
    rolled = one(new, DefenceRolled)
    assert (rolled.faces, rolled.blocks, rolled.final_damage) == ((1, 3, BLOOD), 2, 1)


def test_a_reactive_card_reduces_the_damage() -> None:
    """R-REA-1, seed 002 Reactive Cards: a reactive card reduces the damage."""
    b = duel(["blade"], ["ward"])
    attack(b, [3, 3])
    new = b.do({"type": "play_reactive", "seat": 1, "card": "ward", "faces": [BLOOD] * 3})
    assert one(new, ReactivePlayed).reduction == 1
    rolled = one(new, DefenceRolled)
    assert (rolled.reduction_applied, rolled.final_damage) == (1, 2)


def test_pierce_voids_the_reactive_card_which_is_still_spent() -> None:
    """R-DMG-4: PIERCE, the reactive card played against this attack has no effect."""
    b = duel(["blade"], ["ward"])
    attack(b, [3, 3])
    new = b.do({"type": "play_reactive", "seat": 1, "card": "ward", "faces": [5, BLOOD, BLOOD]})
    rolled = one(new, DefenceRolled)
    assert (rolled.pierce, rolled.reduction_applied, rolled.final_damage) == (True, 0, 3)
    b.do({"type": "take_damage", "seat": 1, "hand": [FILLER] * 3, "deck": 0})
    assert "ward#1" in b.seat(1).discard and "ward#1" not in b.seat(1).hand


def test_a_reactive_card_with_heat_heats_the_defender() -> None:
    """R-REA-1 with the card's own effect: 2 less damage, gain 1 Heat."""
    b = duel(["blade"], ["steam"])
    attack(b, [3, 3])
    new = b.do({"type": "play_reactive", "seat": 1, "card": "steam", "faces": [BLOOD] * 3})
    assert one(new, HeatChanged).heat == 1
    assert one(new, DefenceRolled).final_damage == 1


def test_a_reactive_card_that_cancels_all_damage_asks_for_no_discards() -> None:
    """R-DMG-3, R-DMG-6: final damage 0, nothing to discard; the attack ends as a hit."""
    b = duel(["blade"], ["pavise"])
    attack(b, [3, 3])
    new = b.do({"type": "play_reactive", "seat": 1, "card": "pavise", "faces": [BLOOD] * 3})
    assert one(new, DefenceRolled).final_damage == 0
    assert "PromptOpened" not in types(new)
    assert one(new, AttackEnded).outcome == "hit" and b.state.attack is None


@pytest.mark.parametrize("side", [3, 4, 5])
def test_no_reactive_card_against_an_attack_from_a_flank_or_the_rear(side: int) -> None:
    """R-REA-2, R-ARC-2: none against attacks from sides 3, 4, 5."""
    damage = {3: 5, 4: 6, 5: 5}[side]  # R-ARC-2 side damage +2, +3, +2
    b = duel(["blade"], ["ward", "pavise"], side=side)
    new = attack(b, [3, 3, *[BLOOD] * damage])
    declared = one(new, AttackDeclared)
    assert (declared.side, declared.reactive_allowed) == (side, False)
    assert "PromptOpened" in types(new) and one(new, PromptOpened).kind == "take_damage"
    assert one(new, DefenceRolled).final_damage == damage


def test_side_defence_cancels_rolled_blocks() -> None:
    """R-DMG-3, R-ARC-2: rear defence −3 cancels three blocks."""
    b = duel(["blade"], side=4)
    new = attack(b, [3, 3, 1, 1, 1, BLOOD, BLOOD, BLOOD])
    assert one(new, AttackDeclared).defence_modifier == -3
    rolled = one(new, DefenceRolled)
    assert (rolled.blocks, rolled.final_damage) == (0, 6)


@pytest.mark.parametrize(
    ("shield", "side", "allowed"),
    [
        ("left", 1, True),
        ("left", 6, True),
        ("left", 2, False),
        ("right", 2, True),
        ("right", 6, False),
    ],
)
def test_shield_reactive_cards_only_from_shield_sides(
    shield: str, side: int, allowed: bool
) -> None:
    """R-REA-2: shield cards only from shield sides (left: 6 and 1; right: 2 and 1)."""
    b = duel(["blade"], ["ward", "pavise"], side=side, shield=shield)
    attack(b, [4, 4])
    assert b.state.prompts[0].kind == "reactive"  # the ward is always allowed here
    body = {"type": "play_reactive", "seat": 1, "card": "pavise", "faces": [BLOOD] * 4}
    if allowed:
        assert one(b.do(body), ReactivePlayed).reduction == 3
    else:
        err = b.refuse(body)
        assert (err.code, err.rule) == ("shield_side_only", "R-REA-2")


def test_no_reactive_prompt_when_only_a_shield_card_is_held_off_the_shield_sides() -> None:
    """R-REA-2: a shield card cannot answer an attack on the weapon side, so no window opens."""
    b = duel(["blade"], ["pavise"], side=2)
    new = attack(b, [3, 3, *[BLOOD] * 4])
    assert [p.kind for p in of_type(new, PromptOpened)] == ["take_damage"]


def test_heat_defence_faces_heat_the_defender() -> None:
    """R-DMG-4: HEAT, +1 Heat to the defender per face."""
    b = duel(["blade"])
    new = attack(b, [3, 3, 6, 6, BLOOD])
    assert one(new, DefenceRolled).heat == 2
    assert one(new, HeatChanged).seat == 1 and b.seat(1).heat == 2


def test_v1_critical_defence_faces_damage_the_targeted_component() -> None:
    """R-DMG-4 with option defense_die v1 (R-DMG-2): CRITICAL, +1 Component Damage per face."""
    b = duel(["blade"], options={"defense_die": "v1"})
    new = attack(b, [3, 3, 6, 6, 3])
    assert one(new, DefenceRolled).component_damage == 2
    damaged = one(new, ComponentDamaged)
    assert (damaged.component, damaged.amount, damaged.rule) == ("legs", 2, "R-DMG-4")


# --- taking damage (R-DMG-6) -------------------------------------------------------------------


def test_the_defender_is_asked_to_discard_the_final_damage() -> None:
    """R-DMG-6, seed 002 Resolution step 6: discard final damage from hand/deck."""
    b = duel(["blade"])
    new = attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    prompt = one(new, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.component) == (
        1,
        "take_damage",
        3,
        "legs",
    )
    err = b.refuse(
        {"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 1, "drawn": [FILLER]}
    )
    assert (err.code, err.rule) == ("wrong_damage_split", "R-DMG-6")


def test_damage_discards_split_between_hand_and_deck_go_to_the_discard_pile() -> None:
    """R-DMG-6: any split between hand and the top of the deck; they go to the discard pile."""
    b = duel(["blade"])
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 2,
                "drawn": [FILLER, FILLER]})  # fmt: skip
    taken = of_type(new, DamageTaken)
    assert [(t.from_hand, t.from_deck) for t in taken] == [
        (("chaff#1",), ()),
        ((), ("chaff#7", "chaff#8")),
    ]
    assert set(b.seat(1).discard) == {"chaff#1", "chaff#7", "chaff#8"}
    assert one(new, AttackEnded).outcome == "hit" and not of_type(new, ComponentDamaged)


def test_primary_weapons_discarded_for_damage_damage_the_targeted_component() -> None:
    """R-DMG-6, seed 002 Component Damage Tracking: each Primary Weapon card = 1 damage."""
    b = duel(["blade"], ["blade", "pistol"])
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade", "pistol"], "deck": 1,
                "drawn": ["gun"]})  # fmt: skip
    assert [t.primary_weapons for t in of_type(new, DamageTaken)] == [1, 1]
    damaged = one(new, ComponentDamaged)
    assert (damaged.component, damaged.amount, damaged.total, damaged.rule) == (
        "legs",
        2,
        2,
        "R-DMG-6",
    )
    assert b.seat(1).damage_of("legs") == 2


def test_damage_beyond_an_empty_deck_reshuffles_the_discard_pile_first() -> None:
    """R-DMG-6: with the deck empty the discard pile is reshuffled as at draw time (R-TRN-6)."""
    b = duel(["ruin", "blade"], attacker_rows=deck(ruin=1, blade=2), defender_rows=deck())
    b.do({"type": "attack", "seat": 0, "card": "ruin", "target": 1, "component": "head",
          "faces": [5, 5], "drawn": [FILLER] * 24})  # fmt: skip
    assert b.seat(1).deck == ()
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 3, "drawn": [FILLER] * 3})
    assert types(new) == ["PromptClosed", "DeckReshuffled", "DamageTaken", "AttackEnded"]
    assert one(new, DeckReshuffled).damage_card == "damage#1"
    assert len(b.seat(1).deck) == 22 and len(b.seat(1).discard) == 3


def test_a_component_is_destroyed_at_3_damage() -> None:
    """R-DMG-7: destroyed at 3 Component Damage (seed 002)."""
    b = duel(["blade"], ["blade"])
    adjust(b, 1, "legs", 2)
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade", FILLER, FILLER], "deck": 0})
    destroyed = one(new, ComponentDestroyed)
    assert (destroyed.component, destroyed.discarded, destroyed.rule) == ("legs", (), "R-DMG-7")
    assert b.seat(1).destroyed == ("legs",)


def test_a_destroyed_right_arm_discards_every_primary_weapon_in_hand() -> None:
    """Seed 002 component table: Right Arm, discard all Primary Weapon cards from hand."""
    b = duel(["blade"], ["blade", "blade", "gun", "pistol"])
    adjust(b, 1, "right_arm", 2)
    b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "right_arm",
          "faces": [3, 3, BLOOD, BLOOD, BLOOD]})  # fmt: skip
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade", FILLER, FILLER], "deck": 0})
    destroyed = one(new, ComponentDestroyed)
    assert destroyed.component == "right_arm"
    assert destroyed.discarded == ("blade#2", "gun#1")
    assert b.seat(1).hand == ("pistol#1",)


def test_a_destroyed_left_arm_discards_every_secondary_card_in_hand() -> None:
    """Seed 002 component table: Left Arm, discard all Secondary Equipment cards from hand."""
    b = duel(["blade"], ["blade", "pistol", "pistol"])
    adjust(b, 1, "left_arm", 2)
    b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "left_arm",
          "faces": [3, 3, BLOOD, BLOOD, BLOOD]})  # fmt: skip
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade", FILLER, FILLER], "deck": 0})
    assert one(new, ComponentDestroyed).discarded == ("pistol#1", "pistol#2")


def test_a_destroyed_right_arm_cannot_play_primary_weapons() -> None:
    """R-DMG-7, seed 002: Right Arm destroyed, cannot play Primary Weapon cards."""
    b = duel(["blade"])
    adjust(b, 0, "right_arm", 3)
    err = b.refuse({"type": "attack", "seat": 0, "card": "blade", "target": 1, "faces": [3, 3, 3]})
    assert (err.code, err.rule) == ("right_arm_destroyed", "R-DMG-7")


def test_a_destroyed_left_arm_cannot_play_secondary_cards() -> None:
    """R-DMG-7, seed 002: Left Arm destroyed, cannot play Secondary Equipment cards."""
    b = duel(["pistol"])
    adjust(b, 0, "left_arm", 3)
    err = b.refuse({"type": "attack", "seat": 0, "card": "pistol", "target": 1, "faces": [3, 3, 3]})
    assert (err.code, err.rule) == ("left_arm_destroyed", "R-DMG-7")


def test_neural_feedback_wounds_the_pilot_when_component_damage_reaches_5() -> None:
    """R-DMG-7, seed 002 Pilot Wound System 2: 5 total Component Damage, 1 wound."""
    b = duel(["blade"], ["blade"])
    adjust(b, 1, "head", 2)
    adjust(b, 1, "chassis", 2)
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade"], "deck": 2,
                "drawn": [FILLER, FILLER, "minor"]})  # fmt: skip
    flipped = one(new, WoundFlipped)
    assert (flipped.seat, flipped.reason, flipped.rule) == (1, "neural feedback", "R-DMG-7")
    assert flipped.wound.startswith("minor-") and b.seat(1).wounds == (flipped.wound,)
    assert len(b.seat(1).wound_deck) == 9


def test_neural_feedback_wounds_once_per_multiple_of_5_reached() -> None:
    """R-DMG-7: "and again at 10, 15 …": 4 → 10 in one hit is two wounds."""
    b = duel(["blade"], ["blade"] * 5, side=4)
    adjust(b, 1, "head", 2)
    adjust(b, 1, "chassis", 2)
    attack(b, [3, 3, *[BLOOD] * 6])
    new = b.do({"type": "take_damage", "seat": 1, "hand": ["blade"] * 5, "deck": 1,
                "drawn": ["blade", "severe", "trauma"]})  # fmt: skip
    assert one(new, ComponentDamaged).total == 6
    assert [w.wound.split("-")[0] for w in of_type(new, WoundFlipped)] == ["severe", "trauma"]


def test_the_tenth_wound_kills_the_pilot_and_defeats_the_casket() -> None:
    """R-PLT-1: all 10 wounds face up kills the pilot; seed 002: the casket becomes inert."""
    carried = ["severe-1", "severe-2", "severe-3", "trauma-1", "trauma-2"]  # R-PLT-2
    b = duel(
        ["ruin"],
        ["blade"] * 6,
        attacker_rows=deck(ruin=1),
        defender_rows=deck(blade=30),
        carried_wounds=carried,
    )
    adjust(b, 1, "head", 1)
    new = b.do({"type": "attack", "seat": 0, "card": "ruin", "target": 1, "component": "chassis",
                "faces": [5, 5], "drawn": ["blade"] * 24 + ["minor"] * 5})  # fmt: skip
    assert len(of_type(new, WoundFlipped)) == 5
    assert one(new, PilotKilled).rule == "R-PLT-1"
    assert one(new, CasketDefeated).seat == 1
    c = b.seat(1)
    assert (c.pilot_dead, c.defeated, len(c.wounds), c.wound_deck) == (True, True, 10, ())


def test_a_side_whose_last_casket_fell_loses_at_the_end_of_the_round() -> None:
    """R-TRN-8: the last side with an undefeated casket wins, checked at round end."""
    carried = ["severe-1", "severe-2", "severe-3", "trauma-1", "trauma-2"]
    b = duel(
        ["ruin"],
        ["blade"] * 6,
        attacker_rows=deck(ruin=1),
        defender_rows=deck(blade=30),
        carried_wounds=carried,
    )
    adjust(b, 1, "head", 1)
    b.do({"type": "attack", "seat": 0, "card": "ruin", "target": 1, "component": "chassis",
          "faces": [5, 5], "drawn": ["blade"] * 24 + ["minor"] * 5})  # fmt: skip
    assert not b.state.over
    new = b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert types(new)[-3:] == ["TurnEnded", "RoundEnded", "BattleWon"]
    won = one(new, BattleWon)
    assert (won.side, won.rule, b.state.winner, b.state.over) == ("side0", "R-TRN-8", "side0", True)


# --- EXECUTION and CATASTROPHIC FAILURE (R-HIT-4, R-DMG-5) -------------------------------------


def test_execution_skips_defence_and_reactive_and_destroys_the_component() -> None:
    """R-DMG-5: no defence dice, no reactive card, full damage from the deck, component
    destroyed at once."""
    b = duel(["blade"], ["ward", "pavise"])
    new = b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "head",
                "faces": [5, 5], "drawn": [FILLER] * 3})  # fmt: skip
    assert types(new) == [
        "CardPlayed",
        "AttackDeclared",
        "AttackRolled",
        "ComponentDestroyed",
        "DamageTaken",
        "AttackEnded",
    ]
    rolled = one(new, AttackRolled)
    assert (rolled.total, rolled.grade, rolled.damage) == (10, "execution", 3)
    taken = one(new, DamageTaken)
    assert taken.from_hand == () and len(taken.from_deck) == 3
    assert b.seat(1).destroyed == ("head",) and len(b.seat(1).hand) == 6


def test_execution_primary_weapons_from_the_deck_still_damage_the_component() -> None:
    """R-DMG-5 with R-DMG-6: the deck's Primary Weapon cards add Component Damage."""
    b = duel(["blade"])
    new = b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
                "faces": [5, 5], "drawn": ["blade", "gun", FILLER]})  # fmt: skip
    assert one(new, ComponentDamaged).total == 2
    assert len(of_type(new, ComponentDestroyed)) == 1  # destroyed once, by the EXECUTION


def test_catastrophic_failure_jams_the_weapon() -> None:
    """R-HIT-4, seed 001: two JAMs; discard Primary Weapons from hand, +2 Heat."""
    b = duel(["blade", "blade", "gun", "pistol"], ["ward"])
    new = attack(b, [6, 6])
    assert types(new) == [
        "CardPlayed",
        "AttackDeclared",
        "AttackRolled",
        "WeaponJammed",
        "AttackEnded",
    ]
    assert one(new, AttackRolled).grade == "catastrophic"
    jammed = one(new, WeaponJammed)
    assert (jammed.discarded, jammed.heat) == (("blade#2", "gun#1"), 2)
    assert b.seat(0).heat == 2 and "pistol#1" in b.seat(0).hand
    assert one(new, AttackEnded).outcome == "catastrophic" and b.state.prompts == ()


def test_after_a_catastrophic_failure_the_next_attack_deals_2_less_damage() -> None:
    """R-DMG-1: a catastrophic failure gives −2 to the attacker's next attack."""
    b = duel(["blade", "pistol"])
    attack(b, [6, 6])
    declared = one(attack(b, [1, 1], card="pistol"), AttackDeclared)
    assert dict(declared.damage_by_grade)["hit"] == 0  # pistol 2 − 2
    assert ("weapon_jammed", -2, "R-DMG-1") in [
        (m["key"], m["value"], m["rule"]) for m in declared.to_hit["damage"]["modifiers"]
    ]
    assert b.seat(0).jam_penalty == 0  # spent by that attack


def test_the_jam_penalty_lasts_into_the_next_turn() -> None:
    """R-DMG-1: "the attacker's next attack this turn or next turn"."""
    b = duel(["blade", "pistol"])
    attack(b, [6, 6])
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    declared = one(attack(b, [1, 1], card="pistol"), AttackDeclared)
    assert dict(declared.damage_by_grade)["hit"] == 0


def test_the_jam_penalty_lapses_after_the_next_turn() -> None:
    """R-DMG-1: no attack this turn or next turn, and the −2 is gone."""
    b = duel(["blade", "pistol"])
    attack(b, [6, 6])
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.seat(0).jam_penalty == -2
    b.do({"type": "pass", "seat": 0})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.seat(0).jam_penalty == 0
    declared = one(attack(b, [1, 1], card="pistol"), AttackDeclared)
    assert dict(declared.damage_by_grade)["hit"] == 2
