"""Battle engine scenarios: setup, initiative, SP, Heat, movement and the turn's phases.

Each test plays a small battle (tests/engine/battle_builder.py) through `decide` and
`evolve` as the API would, one behaviour per test, and cites the ruling or the seed
passage (seed 002, Turn Structure) it checks. Attacks are in test_battle_attacks.py,
card effects in test_battle_cards.py, table dice, GM commands and records in
test_battle_control.py.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from battles.engine.battle.events import (
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CasketDefeated,
    CasketMoved,
    CasketRotated,
    ComponentDamaged,
    DamageTaken,
    DeckReshuffled,
    DeckShuffled,
    Event,
    HeatChanged,
    HeatVented,
    InitiativeRolled,
    MulliganTaken,
    OverspendPaid,
    PromptOpened,
    SpDrained,
    SpRestored,
    StrainChecked,
    SurvivalRolled,
    WoundDeckShuffled,
    WoundFlipped,
)
from battles.engine.errors import InvalidInput

from .battle_builder import FILLER, Battle, deck, of_type, one, seat, setup, start, types

SIX = [FILLER] * 6


def three_seats() -> dict[str, Any]:
    """Three caskets on three sides, none adjacent to another."""
    return setup(
        seats=[
            seat(0, at=(0, 0), facing=1),
            seat(1, at=(0, -2), facing=4),
            seat(2, at=(2, 0), facing=6),
        ]
    )


# --- setup (R-TRN-1, R-PLT-1, R-PLT-2) ---------------------------------------------------------


def test_creation_shuffles_each_30_card_deck_and_deals_a_6_card_hand() -> None:
    """R-TRN-1, seed 002 Setup 1–2: shuffle the 30-card deck, draw 6."""
    b = Battle.create(setup(mode="digital", seed=11))
    for n in (0, 1):
        shuffled = [e for e in of_type(b.events, DeckShuffled) if e.seat == n]
        assert len(shuffled) == 1 and shuffled[0].known and len(shuffled[0].order) == 30
        dealt = [e for e in of_type(b.events, CardsDrawn) if e.seat == n]
        assert [d.cards for d in dealt] == [shuffled[0].order[:6]]
        c = b.seat(n)
        assert c.hand == shuffled[0].order[:6] and c.deck == shuffled[0].order[6:]
    assert [(p.seat, p.kind) for p in b.state.prompts] == [(0, "mulligan"), (1, "mulligan")]


def test_table_creation_deals_nothing_until_keep_hand_reports_the_six_cards() -> None:
    """R-TRN-1 at a table (R-ADD-18): the table draws the hand, the command reports it."""
    b = Battle.create(setup())
    assert b.seat(0).hand == () and len(b.seat(0).deck) == 30
    new = b.do({"type": "keep_hand", "seat": 0, "drawn": ["blade", "blade", *[FILLER] * 4]})
    assert types(new) == ["CardsDrawn", "HandKept", "PromptClosed"]
    assert one(new, CardsDrawn).cards == (
        "blade#1",
        "blade#2",
        "chaff#1",
        "chaff#2",
        "chaff#3",
        "chaff#4",
    )
    assert len(b.seat(0).deck) == 24


def test_keep_hand_reporting_fewer_than_six_cards_is_refused() -> None:
    """R-TRN-1: the opening hand is 6 cards; each must be reported (cards_not_reported)."""
    b = Battle.create(setup())
    err = b.refuse({"type": "keep_hand", "seat": 0, "drawn": [FILLER] * 5})
    assert (err.code, err.rule) == ("cards_not_reported", "R-TRN-1")


def test_mulligan_returns_the_hand_reshuffles_and_deals_six_new_cards() -> None:
    """R-TRN-1, seed 002 Setup 3: shuffle the hand back into the deck, draw 6 new cards."""
    b = Battle.create(setup(mode="digital", seed=3))
    old_hand, old_deck = b.seat(0).hand, b.seat(0).deck
    new = b.do({"type": "mulligan", "seat": 0})
    assert types(new) == ["MulliganTaken", "DeckShuffled", "CardsDrawn", "PromptClosed"]
    assert one(new, MulliganTaken).returned == old_hand
    shuffle = one(new, DeckShuffled)
    assert shuffle.reason == "mulligan" and sorted(shuffle.order) == sorted(old_hand + old_deck)
    assert b.seat(0).hand == shuffle.order[:6] and len(b.seat(0).deck) == 24


def test_table_mulligan_deals_the_new_hand_the_table_reports() -> None:
    """R-TRN-1 at a table: the first hand was never reported, so only the new one is."""
    b = Battle.create(setup())
    new = b.do({"type": "mulligan", "seat": 0, "drawn": ["blade"] * 6})
    assert one(new, MulliganTaken).returned == ()
    assert b.seat(0).hand == tuple(f"blade#{n}" for n in range(1, 7))


def test_only_one_mulligan_is_allowed() -> None:
    """R-TRN-1, seed 002 Setup 3: "(once only)"."""
    b = Battle.create(setup(mode="digital", seed=3))
    b.do({"type": "mulligan", "seat": 0})
    err = b.refuse({"type": "mulligan", "seat": 0})
    assert (err.code, err.rule) == ("no_such_prompt", "R-TRN-1")
    assert b.refuse({"type": "keep_hand", "seat": 0}).code == "no_such_prompt"


def test_wound_deck_holds_5_minor_3_severe_and_2_trauma_cards() -> None:
    """R-PLT-1, seed 002 Setup 4: a 10-card pilot wound deck."""
    b = Battle.create(setup())
    for e in of_type(b.events, WoundDeckShuffled):
        assert len(set(e.order)) == 10 and e.face_up == ()
        assert Counter(w.split("-")[0] for w in e.order) == {"minor": 5, "severe": 3, "trauma": 2}


def test_carried_wounds_start_face_up_and_out_of_the_wound_deck() -> None:
    """R-PLT-2: severe and trauma wounds carried in are face up and count toward the 10."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, carried_wounds=["severe-2", "trauma-1"]),
            seat(1, at=(0, -1), facing=4),
        ]
    )
    c = Battle.create(doc).seat(0)
    assert c.wounds == ("severe-2", "trauma-1")
    assert len(c.wound_deck) == 8 and not {"severe-2", "trauma-1"} & set(c.wound_deck)


def test_a_minor_wound_cannot_be_carried_into_a_battle() -> None:
    """R-PLT-2: only severe and trauma wounds outlast a mission."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, carried_wounds=["minor-1"]),
            seat(1, at=(0, -1), facing=4),
        ]
    )
    with pytest.raises(InvalidInput) as info:
        Battle.create(doc)
    assert info.value.field == "seats[0].pilot.carried_wounds[0]"
    assert info.value.rule == "R-PLT-2"


def test_a_deck_of_29_cards_is_refused() -> None:
    """R-TRN-1, R-ADD-15: a casket deck holds exactly 30 cards."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, rows=[{"card": "blade", "count": 29}]),
            seat(1, at=(0, -1), facing=4),
        ]
    )
    with pytest.raises(InvalidInput) as info:
        Battle.create(doc)
    assert info.value.field.startswith("seats[0].deck") and info.value.rule == "R-TRN-1"


def test_the_last_keep_hand_starts_round_one_with_its_initiative_faces() -> None:
    """R-TRN-1 then R-TRN-2: setup ends when every seat has kept or mulliganed."""
    b = Battle.create(setup())
    first = b.do({"type": "keep_hand", "seat": 0, "drawn": SIX})
    assert "RoundStarted" not in types(first) and b.state.phase == "setup"
    err = b.refuse({"type": "keep_hand", "seat": 1, "drawn": SIX})
    assert (err.code, err.rule) == ("wrong_dice_count", "R-TRN-2")
    last = b.do({"type": "keep_hand", "seat": 1, "drawn": SIX, "faces": [6, 1]})
    assert types(last) == [
        "CardsDrawn",
        "HandKept",
        "PromptClosed",
        "RoundStarted",
        "InitiativeRolled",
        "TurnStarted",
        "SpRestored",
    ]
    assert (b.state.round, b.state.phase, b.state.active) == (1, "action", 0)


def test_no_action_before_every_hand_is_decided() -> None:
    """R-TRN-1: the rounds begin after setup."""
    b = Battle.create(setup())
    err = b.refuse({"type": "rotate", "seat": 0, "facing": 2})
    assert (err.code, err.rule) == ("setup_not_finished", "R-TRN-1")


# --- initiative (R-TRN-2) ----------------------------------------------------------------------


def test_the_highest_initiative_roll_acts_first() -> None:
    """R-TRN-2, seed 002 Initiative Phase: "Highest roll acts first"."""
    b = start(setup(), initiative=(2, 5))
    assert one(b.events, InitiativeRolled).order == (1, 0)
    assert b.state.active == 1


def test_initiative_ties_re_roll_among_the_tied_highest_only() -> None:
    """R-TRN-2: players tied for the highest re-roll among themselves."""
    b = start(three_seats(), initiative=(5, 5, 2, 3, 6))
    rolled = one(b.events, InitiativeRolled)
    assert rolled.throws == (((0, 5), (1, 5), (2, 2)), ((0, 3), (1, 6)))
    assert rolled.order == (1, 2, 0)


def test_initiative_re_rolls_until_one_player_is_highest() -> None:
    """R-TRN-2: "until one is highest" — a re-roll can tie again."""
    b = start(three_seats(), initiative=(4, 4, 1, 2, 2, 6, 3))
    rolled = one(b.events, InitiativeRolled)
    assert len(rolled.throws) == 3 and rolled.order == (0, 1, 2)


def test_turns_go_clockwise_in_seating_order_from_the_first_player() -> None:
    """R-TRN-2: turns go clockwise (the seating order fixed at setup)."""
    b = start(three_seats(), initiative=(1, 2, 6))
    assert one(b.events, InitiativeRolled).order == (2, 0, 1)


def test_a_defeated_casket_rolls_no_initiative_and_takes_no_turn() -> None:
    """R-TRN-2, R-TRN-8: only caskets still in the battle roll and act.

    Seat 1 is marked defeated in a state folded from real events (defeat by play is
    covered by the draw and pilot-death scenarios)."""
    b = start(
        setup(
            seats=[
                seat(0, at=(0, 0), facing=1, side="red"),
                seat(1, at=(0, -2), facing=4, side="blue"),
                seat(2, at=(2, 0), facing=6, side="blue"),
            ]
        ),
        initiative=(6, 2, 1),
    )
    b.state = replace(b.state, seats=(b.seat(0), replace(b.seat(1), defeated=True), b.seat(2)))
    assert types(b.do({"type": "pass", "seat": 0}))[-2:] == ["TurnStarted", "SpRestored"]
    assert b.state.active == 2
    new = b.do({"type": "pass", "seat": 2, "faces": [1, 6]})
    rolled = one(new, InitiativeRolled)
    assert (rolled.throws, rolled.order) == ((((0, 1), (2, 6)),), (2, 0))


def test_initiative_is_rolled_again_at_the_start_of_each_round() -> None:
    """R-TRN-2, seed 002 "Start new round (roll initiative again)"."""
    b = start(setup())
    b.do({"type": "pass", "seat": 0})
    new = b.do({"type": "pass", "seat": 1, "faces": [1, 6]})
    assert types(new)[:5] == [
        "TurnEnded",
        "RoundEnded",
        "RoundStarted",
        "InitiativeRolled",
        "TurnStarted",
    ]
    assert (b.state.round, b.state.order, b.state.active) == (2, (1, 0), 1)


# --- SP (R-TRN-3) ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("casket_class", "sp"), [("scout", 6), ("assault", 5), ("heavy", 4), ("fortress", 3)]
)
def test_sp_maximum_follows_the_casket_class(casket_class: str, sp: int) -> None:
    """R-TRN-3, seed 002 Refresh 1.1: scout 6, assault 5, heavy 4, fortress 3."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, casket_class=casket_class),
            seat(1, at=(0, -1), facing=4),
        ]
    )
    b = start(doc)
    restored = one(b.events, SpRestored)
    assert restored.sp_max == sp and restored.lines == ((f"{casket_class} casket", sp, "R-TRN-3"),)
    assert b.seat(0).sp_left == sp


def test_a_pilot_sp_modifier_changes_the_maximum() -> None:
    """R-TRN-3: pilot modifiers (leg-skimmed +1)."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, casket_class="heavy", sp_modifier=1),
            seat(1, at=(0, -1), facing=4),
        ]
    )
    restored = one(start(doc).events, SpRestored)
    assert restored.sp_max == 5 and ("pilot", 1, "R-TRN-3") in restored.lines


def test_a_destroyed_chassis_lowers_the_sp_maximum_by_one() -> None:
    """R-TRN-3 and seed 002 component table: chassis destroyed, permanent −1 SP maximum."""
    b = start(setup())
    b.do(
        {
            "type": "adjust_component_damage",
            "seat": 0,
            "component": "chassis",
            "amount": 3,
            "reason": "test",
        }
    )
    b.do({"type": "pass", "seat": 0})
    new = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    restored = next(e for e in of_type(new, SpRestored) if e.seat == 0)
    assert restored.sp_max == 4 and ("chassis destroyed", -1, "R-TRN-3") in restored.lines


# --- overspend (R-TRN-3) -----------------------------------------------------------------------


def _spend_all_sp(b: Battle) -> None:
    """Seat 0 (assault, 5 SP) walks back and forth five hexes: every free SP spent."""
    for n in range(5):
        b.do({"type": "move", "seat": 0, "path": [[0, 1]] if n % 2 == 0 else [[0, 0]]})
    assert b.seat(0).sp_left == 0 and b.seat(0).at.r == 1


def test_spending_beyond_the_maximum_needs_a_payment() -> None:
    """R-TRN-3, seed 002 1.1b: every SP beyond the maximum costs 1 card."""
    b = start(setup())
    _spend_all_sp(b)
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 0]]})
    assert (err.code, err.rule) == ("overspend_payment", "R-TRN-3")


def test_overspend_paid_from_hand_discards_the_card() -> None:
    """R-TRN-3: the card comes from hand (the player's choice) and goes to the discard pile."""
    b = start(setup())
    _spend_all_sp(b)
    new = b.do({"type": "move", "seat": 0, "path": [[0, 0]], "pay": {"hand": [FILLER]}})
    paid = one(new, OverspendPaid)
    assert (paid.sp, paid.from_hand, paid.from_deck) == (1, ("chaff#1",), ())
    assert "chaff#1" in b.seat(0).discard and b.seat(0).sp_spent == 6


def test_overspend_paid_from_the_deck_takes_the_card_the_table_reports() -> None:
    """R-TRN-3: or from the top of the deck; at a table the command reports the card."""
    b = start(setup())
    _spend_all_sp(b)
    new = b.do(
        {"type": "move", "seat": 0, "path": [[0, 0]], "pay": {"deck": 1}, "drawn": ["blade"]}
    )
    assert one(new, OverspendPaid).from_deck == ("blade#1",)
    assert "blade#1" in b.seat(0).discard and "blade#1" not in b.seat(0).deck


def test_overspend_payment_must_match_the_sp_beyond_the_maximum() -> None:
    """R-TRN-3: one card per SP beyond the maximum, no more."""
    b = start(setup())
    _spend_all_sp(b)
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 0]], "pay": {"hand": [FILLER, FILLER]}})
    assert (err.code, err.rule) == ("overspend_payment", "R-TRN-3")


def test_overspend_is_capped_at_twice_the_maximum() -> None:
    """R-TRN-3, seed 002 1.1b: "UP TO DOUBLE your SP maximum per turn"."""
    b = start(setup())
    _spend_all_sp(b)
    for n in range(5):
        path = [[0, 0]] if n % 2 == 0 else [[0, 1]]
        b.do({"type": "move", "seat": 0, "path": path, "pay": {"hand": [FILLER]}})
    assert b.seat(0).sp_spent == 10
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 1]], "pay": {"hand": [FILLER]}})
    assert (err.code, err.rule) == ("sp_exceeded", "R-TRN-3")


# --- the heat check at Refresh (R-TRN-4) -------------------------------------------------------


def _heat_check(heat: int, faces: list[int]) -> tuple[Battle, list[Event]]:
    """Seat 1 starts its turn at `heat`; seat 0's pass carries the faces of its Refresh."""
    b = start(setup())
    b.do({"type": "adjust_heat", "seat": 1, "heat": heat, "reason": "test"})
    return b, b.do({"type": "pass", "seat": 0, "faces": faces})


@pytest.mark.parametrize(
    ("heat", "faces", "total", "outcome"),
    [
        (5, [1], 6, "sp_drain"),
        (7, [1], 8, "sp_drain"),
        (5, [4], 9, "system_damage"),
        (9, [2], 11, "system_damage"),
        (6, [6, 1], 12, "critical_failure"),
        (9, [6, 1], 15, "critical_failure"),
    ],
)
def test_strain_roll_at_5_to_9_heat_follows_the_strain_table(
    heat: int, faces: list[int], total: int, outcome: str
) -> None:
    """R-TRN-4, seed 002 Strain Table: strain = 1d6 + Heat; 6–8, 9–11, 12+ (R-ADD-6)."""
    _, new = _heat_check(heat, faces)
    checked = one(new, StrainChecked)
    assert (checked.seat, checked.heat, checked.roll, checked.total, checked.outcome) == (
        1,
        heat,
        faces[0],
        total,
        outcome,
    )


def test_no_heat_check_below_5_heat() -> None:
    """R-TRN-4, seed 002 1.2: 0–4 Heat is the safe zone, no roll."""
    _, new = _heat_check(4, [])
    assert not of_type(new, StrainChecked)


def test_strain_sp_drain_lowers_this_turns_sp() -> None:
    """R-TRN-4: 6–8, −1 SP this turn."""
    b, new = _heat_check(5, [1])
    assert one(new, SpDrained).amount == 1
    assert b.seat(1).sp_max == 4


def test_strain_system_damage_asks_for_two_discards_without_a_component() -> None:
    """R-TRN-4: 9–11, take 2 damage (R-DMG-6 with no component)."""
    b, new = _heat_check(5, [4])
    prompt = one(new, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.component) == (
        1,
        "take_damage",
        2,
        None,
    )
    taken = b.do(
        {"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 1, "drawn": ["blade"]}
    )
    assert [d.component for d in of_type(taken, DamageTaken)] == [None, None]
    assert not of_type(taken, ComponentDamaged)
    assert b.state.prompts == () and b.state.active == 1


def test_strain_critical_failure_damages_a_rolled_component() -> None:
    """R-TRN-4: 12+, roll 1d6 (1 right arm, 2 left arm, 3–4 legs, 5 head, 6 chassis)."""
    b, new = _heat_check(8, [4, 3])
    assert b.seat(1).damage_of("legs") == 1
    damaged = one(new, ComponentDamaged)
    assert (damaged.seat, damaged.component, damaged.amount, damaged.rule) == (
        1,
        "legs",
        1,
        "R-TRN-4",
    )


def test_at_10_heat_there_is_no_strain_roll_only_critical_failure() -> None:
    """R-TRN-4, seed 002 Heat Zones: "Critical (10+ Heat): Auto-fail Strain roll"."""
    b, new = _heat_check(10, [6])
    checked = one(new, StrainChecked)
    assert (checked.roll, checked.total, checked.outcome) == (None, None, "critical_failure")
    assert one(new, ComponentDamaged).component == "chassis"
    assert b.seat(1).damage_of("chassis") == 1


# --- movement (R-TRN-5, R-LOS-5, R-MOV-*) ------------------------------------------------------


def test_moving_costs_one_sp_per_hex() -> None:
    """R-TRN-5, R-MOV-1: 1 SP per clear hex; R-HIT-2 counts the hexes moved."""
    b = start(setup())
    new = b.do({"type": "move", "seat": 0, "path": [[0, 1], [0, 2]]})
    assert one(new, CasketMoved).cost == 2
    c = b.seat(0)
    assert (c.at.q, c.at.r, c.sp_spent, c.moved) == (0, 2, 2, 2)


def test_difficult_terrain_costs_two_sp_per_hex() -> None:
    """R-TRN-5, R-BRD-3: forest is difficult, +1 SP."""
    b = start(setup(terrain=[(0, 1, "forest")]))
    assert one(b.do({"type": "move", "seat": 0, "path": [[0, 1]]}), CasketMoved).cost == 2


def test_destroyed_legs_add_one_sp_per_hex() -> None:
    """R-TRN-5, R-MOV-1, seed 002 component table: Legs, +1 SP per hex."""
    b = start(setup())
    b.do(
        {
            "type": "adjust_component_damage",
            "seat": 0,
            "component": "legs",
            "amount": 3,
            "reason": "test",
        }
    )
    assert one(b.do({"type": "move", "seat": 0, "path": [[0, 1]]}), CasketMoved).cost == 2


def test_moving_through_an_enemy_is_refused() -> None:
    """R-TRN-5, R-MOV-2: never through enemies."""
    b = start(setup())
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, -1], [0, -2]]})
    assert (err.code, err.rule) == ("enemy_in_path", "R-MOV-2")


def test_moving_into_a_wall_is_refused() -> None:
    """R-TRN-5, R-BRD-3: walls are impassable."""
    b = start(setup(terrain=[(0, 1, "wall")]))
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 1]]})
    assert (err.code, err.rule) == ("impassable", "R-MOV-2")


def test_moving_through_an_ally_is_allowed_but_not_stopping_there() -> None:
    """R-TRN-5, R-MOV-2: through allies, never ending on an occupied hex."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, side="red"),
            seat(1, at=(0, -2), facing=4, side="blue"),
            seat(2, at=(0, 1), facing=1, side="red"),
        ]
    )
    b = start(doc, initiative=(6, 1, 1))
    err = b.refuse({"type": "move", "seat": 0, "path": [[0, 1]]})
    assert (err.code, err.rule) == ("occupied_destination", "R-MOV-2")
    b.do({"type": "move", "seat": 0, "path": [[0, 1], [0, 2]]})
    assert (b.seat(0).at.q, b.seat(0).at.r) == (0, 2)


def test_a_move_destination_must_be_in_sight_from_the_start() -> None:
    """R-LOS-5: the destination must be in LOS; going round a corner takes more moves."""
    b = start(setup(terrain=[(0, 1, "wall")]))
    err = b.refuse({"type": "move", "seat": 0, "path": [[1, 0], [1, 1], [0, 2]]})
    assert (err.code, err.rule) == ("destination_not_in_sight", "R-LOS-5")
    for step in ([1, 0], [1, 1], [0, 2]):  # each destination seen from where it starts
        b.do({"type": "move", "seat": 0, "path": [step]})
    assert (b.seat(0).at.q, b.seat(0).at.r, b.seat(0).sp_spent) == (0, 2, 3)


def test_only_the_active_seat_may_act() -> None:
    """R-TRN-5: actions belong to the player whose turn it is."""
    b = start(setup())
    err = b.refuse({"type": "move", "seat": 1, "path": [[0, -2]]})
    assert (err.code, err.rule) == ("not_your_turn", "R-TRN-5")


# --- rotation (R-ARC-5) and venting (R-ADD-19) -------------------------------------------------


def test_the_first_60_degree_turn_is_free() -> None:
    """R-ARC-5, seed 002 Rotation: free once per turn."""
    b = start(setup())
    rotated = one(b.do({"type": "rotate", "seat": 0, "facing": 2}), CasketRotated)
    assert (rotated.cost, rotated.free_used) == (0, True)
    assert b.seat(0).facing == 2 and b.seat(0).sp_spent == 0


def test_each_further_60_degree_turn_costs_one_sp() -> None:
    """R-ARC-5: one 60° turn per turn is free; each further 60° costs 1 SP."""
    b = start(setup())
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 3}), CasketRotated).cost == 1
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 5}), CasketRotated).cost == 2
    assert b.seat(0).sp_spent == 3


def test_a_half_turn_costs_two_sp_after_the_free_60_degrees() -> None:
    """R-ARC-5, seed 000: "Rotate 3 hex-sides = 1 free + 2 SP"."""
    b = start(setup())
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 4}), CasketRotated).cost == 2


def test_the_free_rotation_returns_next_turn() -> None:
    """R-ARC-5: one free turn per turn."""
    b = start(setup())
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    b.do({"type": "pass", "seat": 0})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 3}), CasketRotated).cost == 0


def test_venting_costs_two_sp_and_removes_three_heat() -> None:
    """R-ADD-19, seed 002 Common Actions: Vent Heat, 2 SP, remove 3 Heat."""
    b = start(setup())
    b.do({"type": "adjust_heat", "seat": 0, "heat": 5, "reason": "test"})
    vented = one(b.do({"type": "vent", "seat": 0}), HeatVented)
    assert (vented.cost, vented.removed) == (2, 3)
    assert (b.seat(0).heat, b.seat(0).sp_spent) == (2, 2)


def test_venting_never_takes_heat_below_zero() -> None:
    """R-ADD-19: remove up to 3 Heat."""
    b = start(setup())
    b.do({"type": "adjust_heat", "seat": 0, "heat": 2, "reason": "test"})
    assert one(b.do({"type": "vent", "seat": 0}), HeatVented).removed == 2
    assert b.seat(0).heat == 0


def test_venting_without_heat_is_refused() -> None:
    """R-ADD-19: nothing to vent."""
    err = start(setup()).refuse({"type": "vent", "seat": 0})
    assert (err.code, err.rule) == ("no_heat", "R-ADD-19")


# --- draw (R-TRN-6) ----------------------------------------------------------------------------


def test_the_draw_phase_refills_the_hand_to_six() -> None:
    """R-TRN-6, seed 002 Draw Phase: draw until the hand is 6."""
    b = start(setup())
    b.do({"type": "play_card", "seat": 0, "card": FILLER})
    b.do({"type": "play_card", "seat": 0, "card": FILLER})
    new = b.do({"type": "pass", "seat": 0, "drawn": ["blade", FILLER]})
    drawn = one(new, CardsDrawn)
    assert (drawn.cards, drawn.reason, drawn.rule) == (
        ("blade#1", "chaff#7"),
        "draw phase",
        "R-TRN-6",
    )
    assert len(b.seat(0).hand) == 6


def _deck_emptied() -> Battle:
    """Seat 0 executes seat 1 for 24: seat 1's whole deck goes to its discard pile (R-DMG-5)."""
    doc = setup(
        seats=[
            seat(0, at=(0, 0), facing=1, rows=deck(ruin=1)),
            seat(1, at=(0, -1), facing=4, rows=deck()),
        ]
    )
    b = start(doc, hands=[["ruin", *[FILLER] * 5], SIX])
    b.do({"type": "attack", "seat": 0, "card": "ruin", "target": 1, "component": "legs",
          "faces": [5, 5], "drawn": [FILLER] * 24})  # fmt: skip
    assert b.seat(1).deck == () and len(b.seat(1).discard) == 24
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    return b


def test_an_empty_deck_at_draw_reshuffles_the_discard_pile_with_a_damage_card() -> None:
    """R-TRN-6, seed 002 3.2: shuffle the discard pile into a new deck, add 1 Damage card."""
    b = _deck_emptied()
    b.do({"type": "play_card", "seat": 1, "card": FILLER})
    new = b.do({"type": "pass", "seat": 1, "drawn": ["damage"], "faces": [6, 1]})
    reshuffled = one(new, DeckReshuffled)
    assert reshuffled.damage_card == "damage#1" and not reshuffled.known
    assert len(reshuffled.order) == 26 and "damage#1" in reshuffled.order
    assert one(new, CardsDrawn).cards == ("damage#1",)
    assert b.seat(1).discard == () and len(b.seat(1).deck) == 25 and b.seat(1).damage_cards == 1


def test_a_damage_card_plays_for_0_sp_and_does_nothing() -> None:
    """R-TRN-6, seed 002: "Blank cards that do nothing when played"."""
    b = _deck_emptied()
    b.do({"type": "play_card", "seat": 1, "card": FILLER})
    b.do({"type": "pass", "seat": 1, "drawn": ["damage"], "faces": [1, 6]})
    new = b.do({"type": "play_card", "seat": 1, "card": "damage"})
    assert types(new) == ["CardPlayed", "CardResolved"]
    assert one(new, CardPlayed).cost == 0 and "damage#1" in b.seat(1).discard


def _deck_and_discard_empty() -> Battle:
    """Seat 0 holds 5 cards; its deck and discard pile are empty, the rest out of play.

    By play this takes dozens of turns (every reshuffle adds a card), so the state is
    folded from real events and then edited; every card stays in exactly one zone.
    """
    b = start(setup())
    c = b.seat(0)
    emptied = replace(c, hand=c.hand[:5], deck=(), discard=(), removed=c.deck + c.hand[5:])
    b.state = replace(b.state, seats=(emptied, b.seat(1)))
    return b


def test_drawing_with_empty_deck_and_discard_defeats_the_casket() -> None:
    """R-TRN-6, seed 002 3.3: deck and discard both empty, the casket is defeated."""
    b = _deck_and_discard_empty()
    new = b.do({"type": "pass", "seat": 0, "faces": [5]})
    defeated = one(new, CasketDefeated)
    assert (defeated.seat, defeated.rule) == (0, "R-TRN-6")
    assert b.seat(0).defeated and b.state.active == 1


def test_a_defeated_casket_pilot_takes_two_wounds_on_a_survival_roll_of_1_to_3() -> None:
    """R-PLT-3: casket defeat, roll 1d6, on 1–3 the pilot takes 2 wounds."""
    b = _deck_and_discard_empty()
    new = b.do({"type": "pass", "seat": 0, "faces": [3], "drawn": ["minor", "severe"]})
    survival = one(new, SurvivalRolled)
    assert (survival.face, survival.wounds) == (3, 2)
    flips = of_type(new, WoundFlipped)
    assert [(w.wound.split("-")[0], w.rule) for w in flips] == [
        ("minor", "R-PLT-3"),
        ("severe", "R-PLT-3"),
    ]
    assert len(b.seat(0).wounds) == 2


def test_a_survival_roll_of_4_to_6_spares_the_pilot() -> None:
    """R-PLT-3: only 1–3 wounds the pilot."""
    b = _deck_and_discard_empty()
    new = b.do({"type": "pass", "seat": 0, "faces": [4]})
    assert one(new, SurvivalRolled).wounds == 0 and not of_type(new, WoundFlipped)


def test_victory_goes_to_the_last_side_standing_at_round_end() -> None:
    """R-TRN-8, seed 002 Round End: victory is checked when all players have acted."""
    b = _deck_and_discard_empty()
    b.do({"type": "pass", "seat": 0, "faces": [6]})
    assert not b.state.over
    new = b.do({"type": "pass", "seat": 1})
    assert types(new)[-2:] == ["RoundEnded", "BattleWon"]
    assert (b.state.over, b.state.winner) == (True, "side1")
    err = b.refuse({"type": "pass", "seat": 1})
    assert (err.code, err.rule) == ("battle_over", "R-TRN-8")


# --- end of turn (R-TRN-5, R-TRN-7) ------------------------------------------------------------


def test_ending_a_turn_in_water_removes_two_heat() -> None:
    """R-TRN-7, R-BRD-3: −2 Heat at the end of a turn spent in water."""
    b = start(setup(terrain=[(0, 0, "water")]))
    b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "test"})
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    changed = one(b.do({"type": "pass", "seat": 0}), HeatChanged)
    assert (changed.amount, changed.heat, changed.rule) == (-2, 2, "R-TRN-7")


def test_a_turn_without_actions_removes_one_heat() -> None:
    """R-TRN-5, seed 002 Removing Heat: pass entire turn without acting, remove 1 Heat."""
    b = start(setup())
    b.do({"type": "adjust_heat", "seat": 0, "heat": 3, "reason": "test"})
    changed = one(b.do({"type": "pass", "seat": 0}), HeatChanged)
    assert (changed.amount, changed.heat, changed.rule) == (-1, 2, "R-TRN-5")


def test_a_turn_with_an_action_keeps_its_heat() -> None:
    """R-TRN-5: only a turn in which the player did nothing removes Heat."""
    b = start(setup())
    b.do({"type": "adjust_heat", "seat": 0, "heat": 3, "reason": "test"})
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    assert not of_type(b.do({"type": "pass", "seat": 0}), HeatChanged)
    assert b.seat(0).heat == 3


def test_water_and_an_idle_turn_both_cool_the_casket() -> None:
    """R-TRN-7 and R-TRN-5 are separate end-of-turn effects."""
    b = start(setup(terrain=[(0, 0, "water")]))
    b.do({"type": "adjust_heat", "seat": 0, "heat": 4, "reason": "test"})
    changes = of_type(b.do({"type": "pass", "seat": 0}), HeatChanged)
    assert [(c.amount, c.rule) for c in changes] == [(-2, "R-TRN-7"), (-1, "R-TRN-5")]
    assert b.seat(0).heat == 1


def test_a_hand_over_six_at_the_end_of_the_turn_prompts_a_discard_down() -> None:
    """R-TRN-7, seed 002 4.2: discard down to 6, choosing which cards."""
    doc = setup(
        seats=[seat(0, at=(0, 0), facing=1, rows=deck(insight=2)), seat(1, at=(0, -1), facing=4)]
    )
    b = start(doc, hands=[["insight", *[FILLER] * 5], SIX])
    b.do({"type": "play_card", "seat": 0, "card": "insight", "drawn": [FILLER, FILLER]})
    new = b.do({"type": "pass", "seat": 0})
    prompt = one(new, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        0,
        "discard_down",
        1,
        "R-TRN-7",
    )
    assert "TurnEnded" not in types(new) and b.state.phase == "end"
    err = b.refuse({"type": "discard_down", "seat": 0, "cards": [FILLER, FILLER]})
    assert (err.code, err.rule) == ("wrong_discard_count", "R-TRN-7")
    done = b.do({"type": "discard_down", "seat": 0, "cards": ["chaff#2"]})
    assert one(done, CardsDiscarded).from_hand == ("chaff#2",)
    assert types(done)[2:4] == ["TurnEnded", "TurnStarted"]
    assert len(b.seat(0).hand) == 6 and b.state.active == 1
