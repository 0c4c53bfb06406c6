"""Battle engine scenarios: playing cards and each effect of the card vocabulary.

R-ADD-14 (the engine runs a card's structured effects; a manual card's SP is paid and
it is discarded, the players apply the rest), R-TRN-5 (play a card for its SP), and
the vocabulary of battles/engine/cards/effects: move, rotate, heat, draw, discard,
buff_next_attack, status and roll_suffering (seed 001 §4, the suffering die).
"""

from __future__ import annotations

from collections.abc import Sequence

from battles.engine.battle.events import (
    AttackDeclared,
    BuffGained,
    CardPlayed,
    CardResolved,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CasketMoved,
    CasketRotated,
    Event,
    HeatChanged,
    StatusApplied,
    SufferingRolled,
)

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, setup, start, types

ROWS = deck(
    blade=3,
    stride=1,
    pivot=1,
    coolant=1,
    stoke=1,
    insight=1,
    purge=1,
    cull=1,
    sift=1,
    oil=1,
    aim=1,
    smoke=1,
    snare=1,
    scourge=1,
    rite=1,
    ward=1,
)


def play(*cards: str, opponent: Sequence[str] = ()) -> Battle:
    """Seat 0's turn holding `cards` (filler up to 6); seat 1 holds `opponent`."""
    doc = setup(
        seats=[seat(0, at=(0, 0), facing=1, rows=ROWS), seat(1, at=(0, -1), facing=4, rows=ROWS)]
    )
    hands = [[*cards, *[FILLER] * (6 - len(cards))], [*opponent, *[FILLER] * (6 - len(opponent))]]
    return start(doc, hands=hands)


def card(b: Battle, name: str, **extra: object) -> list[Event]:
    return b.do({"type": "play_card", "seat": 0, "card": name, **extra})


# --- playing a card ----------------------------------------------------------------------------


def test_a_played_card_costs_its_sp_and_goes_to_the_discard_pile() -> None:
    """R-TRN-5, seed 002 Action Phase: play cards from your hand (costs SP)."""
    b = play("insight")
    new = card(b, "insight", drawn=[FILLER, FILLER])
    assert types(new)[0] == "CardPlayed" and types(new)[-1] == "CardResolved"
    assert one(new, CardPlayed).cost == 1 and b.seat(0).sp_spent == 1
    assert "insight#1" in b.seat(0).discard and b.seat(0).in_play == ()


def test_a_manual_card_is_paid_discarded_and_flagged_with_its_text() -> None:
    """R-ADD-14: a manual card's SP is paid, it is discarded, the GM applies the rest."""
    b = play("rite")
    played = one(card(b, "rite"), CardPlayed)
    assert (played.manual, played.cost, played.text) == (True, 1, CARDS["rite"]["text"])
    assert b.seat(0).sp_spent == 1 and "rite#1" in b.seat(0).discard


def test_a_manual_card_still_runs_its_structured_effects() -> None:
    """R-ADD-14 (cards.py): the engine runs the structured part; the players the rest."""
    b = play("rite")
    assert one(card(b, "rite"), HeatChanged).heat == 1


def test_an_automated_card_is_not_flagged_manual() -> None:
    """R-ADD-14: automated cards carry no text for the players."""
    played = one(card(play("stoke"), "stoke"), CardPlayed)
    assert (played.manual, played.text) == (False, "")


# --- move and rotate ---------------------------------------------------------------------------


def test_a_move_effect_moves_without_sp_per_hex() -> None:
    """Vocabulary `move`: up to N hexes, each step legal (R-TRN-5, R-LOS-5); only the card's SP."""
    b = play("stride")
    moved = one(card(b, "stride", path=[[0, 1], [0, 2]]), CasketMoved)
    assert (moved.cost, moved.by_card, moved.path) == (0, "stride", ((0, 1), (0, 2)))
    c = b.seat(0)
    assert (c.at.r, c.sp_spent, c.moved) == (2, 1, 2)


def test_a_move_effect_refuses_a_longer_path() -> None:
    """Vocabulary `move` (R-ADD-25): at most the card's hexes."""
    err = play("stride").refuse({"type": "play_card", "seat": 0, "card": "stride",
                                 "path": [[0, 1], [0, 2], [0, 3]]})  # fmt: skip
    assert (err.code, err.rule) == ("path_too_long", "R-ADD-25")


def test_a_move_effect_needs_a_path() -> None:
    """Vocabulary `move` (R-ADD-25): the player names the path."""
    err = play("stride").refuse({"type": "play_card", "seat": 0, "card": "stride"})
    assert (err.code, err.rule) == ("path_required", "R-ADD-25")


def test_a_move_effect_obeys_the_movement_rules() -> None:
    """R-MOV-2: a card's move never goes through an enemy either."""
    err = play("stride").refuse({"type": "play_card", "seat": 0, "card": "stride",
                                 "path": [[0, -1], [0, -2]]})  # fmt: skip
    assert (err.code, err.rule) == ("enemy_in_path", "R-MOV-2")


def test_a_rotate_effect_turns_for_free_and_keeps_the_free_rotation() -> None:
    """Vocabulary `rotate` (R-ARC-5, R-ADD-16): the card's turn is not the free one."""
    b = play("pivot")
    rotated = one(card(b, "pivot", facing=2), CasketRotated)
    assert (rotated.facing, rotated.cost, rotated.free_used) == (2, 0, False)
    assert one(b.do({"type": "rotate", "seat": 0, "facing": 3}), CasketRotated).cost == 0


def test_a_rotate_effect_refuses_a_turn_beyond_its_steps() -> None:
    """R-ADD-16: a rotate effect turns 1–3 steps or any."""
    err = play("pivot").refuse({"type": "play_card", "seat": 0, "card": "pivot", "facing": 4})
    assert (err.code, err.rule) == ("rotation_too_far", "R-ADD-16")


def test_a_rotate_effect_needs_a_facing() -> None:
    """R-ARC-5: the player names the new facing."""
    err = play("pivot").refuse({"type": "play_card", "seat": 0, "card": "pivot"})
    assert (err.code, err.rule) == ("facing_required", "R-ARC-5")


# --- heat, draw, discard -----------------------------------------------------------------------


def test_a_heat_effect_adds_heat() -> None:
    """Vocabulary `heat`, seed 002 Gaining Heat: "Certain cards say Gain X Heat"."""
    b = play("stoke")
    changed = one(card(b, "stoke"), HeatChanged)
    assert (changed.amount, changed.heat, changed.reason) == (3, 3, "Stoke")
    assert b.seat(0).heat == 3


def test_a_negative_heat_effect_never_takes_heat_below_zero() -> None:
    """Vocabulary `heat`: Heat never drops below 0."""
    b = play("coolant")
    b.do({"type": "adjust_heat", "seat": 0, "heat": 1, "reason": "test"})
    changed = one(card(b, "coolant"), HeatChanged)
    assert (changed.amount, changed.heat) == (-1, 0)


def test_a_draw_effect_draws_the_cards_the_table_reports() -> None:
    """Vocabulary `draw` (R-TRN-6 draws one at a time)."""
    b = play("insight")
    drawn = one(card(b, "insight", drawn=["blade", FILLER]), CardsDrawn)
    assert (drawn.cards, drawn.reason) == (("blade#1", "chaff#6"), "Insight")
    assert len(b.seat(0).hand) == 7


def test_a_hand_discard_effect_discards_the_named_cards() -> None:
    """Vocabulary `discard` from hand."""
    b = play("purge", "blade")
    discarded = one(card(b, "purge", discard=["blade"]), CardsDiscarded)
    assert (discarded.from_hand, discarded.from_deck) == (("blade#1",), ())
    assert "blade#1" in b.seat(0).discard


def test_a_hand_discard_effect_needs_exactly_its_count() -> None:
    """Vocabulary `discard`: the card says how many (R-ADD-14)."""
    err = play("purge").refuse({"type": "play_card", "seat": 0, "card": "purge", "discard": []})
    assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-14")


def test_a_deck_discard_effect_discards_from_the_top_of_the_deck() -> None:
    """Vocabulary `discard` from the deck (self-harm, seed 002's Blood Offering)."""
    b = play("cull")
    discarded = one(card(b, "cull", drawn=["blade", FILLER]), CardsDiscarded)
    assert (discarded.from_hand, discarded.from_deck) == ((), ("blade#1", "chaff#6"))


def test_a_choice_discard_effect_splits_between_hand_and_deck() -> None:
    """Vocabulary `discard` source choice: named hand cards, the rest from the deck."""
    b = play("sift")
    discarded = one(card(b, "sift", discard=[FILLER], drawn=["blade"]), CardsDiscarded)
    assert (discarded.from_hand, discarded.from_deck) == (("chaff#1",), ("blade#1",))


def test_a_card_refuses_an_argument_it_has_no_effect_for() -> None:
    """R-ADD-14: only the card's effects run; an argument nothing uses is a mistake."""
    err = play("stoke").refuse({"type": "play_card", "seat": 0, "card": "stoke", "facing": 2})
    assert (err.code, err.rule) == ("unused_argument", "R-ADD-14")


# --- buffs and statuses ------------------------------------------------------------------------


def test_a_damage_buff_adds_to_the_next_attack_only() -> None:
    """Vocabulary `buff_next_attack`, R-DMG-1: card modifiers to damage."""
    b = play("oil", "blade", "blade")
    assert one(card(b, "oil"), BuffGained).damage == 2
    first = one(b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1,
                      "component": "legs", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert dict(first.damage_by_grade)["hit"] == 5
    assert ("card_buff", 2) in [(m["key"], m["value"]) for m in first.to_hit["damage"]["modifiers"]]
    second = one(b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1,
                       "component": "legs", "faces": [1, 1]}),
                 AttackDeclared)  # fmt: skip
    assert dict(second.damage_by_grade)["hit"] == 3


def test_a_to_hit_buff_changes_the_next_attacks_target_number() -> None:
    """Vocabulary `buff_next_attack`, R-HIT-1: card modifiers to the target number."""
    b = play("aim", "blade")
    card(b, "aim")
    declared = one(b.do({"type": "attack", "seat": 0, "card": "blade", "target": 1,
                         "component": "legs", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert declared.target_number == 3


def test_a_self_status_obscures_the_casket_against_attacks() -> None:
    """Vocabulary `status`, R-COV-4: obscured, +2 to hit it."""
    b = play("smoke", opponent=["blade"])
    applied = one(card(b, "smoke"), StatusApplied)
    assert (applied.seat, applied.status) == (0, "obscured")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    declared = one(b.do({"type": "attack", "seat": 1, "card": "blade", "target": 0,
                         "component": "legs", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert declared.target_number == 7


def test_a_status_ends_at_the_start_of_its_caskets_next_turn() -> None:
    """R-ADD-17: statuses last until the start of their casket's next turn."""
    b = play("smoke")
    card(b, "smoke")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert b.seat(0).statuses == ("obscured",)
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.seat(0).statuses == ()


def test_a_target_status_goes_on_the_named_seat() -> None:
    """Vocabulary `status` on a target (R-HIT-6 reads immobilised)."""
    b = play("snare")
    applied = one(card(b, "snare", target=1), StatusApplied)
    assert (applied.seat, applied.status, applied.source) == (1, "immobilised", "snare")


def test_a_target_status_needs_another_seat() -> None:
    """Vocabulary `status` on a target: the player names it."""
    err = play("snare").refuse({"type": "play_card", "seat": 0, "card": "snare", "target": 0})
    assert (err.code, err.rule) == ("target_required", "R-COV-4")


# --- the suffering die (seed 001 §4) -----------------------------------------------------------


def test_suffering_penance_discards_heats_and_buffs_the_next_attack() -> None:
    """Seed 001 suffering die face 4, PENANCE: discard 1 card, +1 Heat, +2 damage next attack."""
    b = play("scourge")
    new = card(b, "scourge", faces=[4], drawn=["blade"])
    assert one(new, SufferingRolled).faces == (4,)
    assert one(new, CardsDiscarded).from_deck == ("blade#1",)
    assert one(new, HeatChanged).heat == 1
    assert one(new, BuffGained).damage == 2


def test_suffering_divine_mercy_does_nothing() -> None:
    """Seed 001 suffering die face 1, DIVINE MERCY: no self-harm."""
    new = card(play("scourge"), "scourge", faces=[1])
    assert types(new) == ["CardPlayed", "SufferingRolled", "CardResolved"]


def test_suffering_zealots_fury_adds_damage_to_every_attack_this_turn() -> None:
    """Seed 001 suffering die face 3, ZEALOT'S FURY: +1 damage to all attacks this turn."""
    b = play("scourge", "blade", "blade")
    card(b, "scourge", faces=[3], drawn=[FILLER])
    for _ in range(2):
        body = {"type": "attack", "seat": 0, "card": "blade", "target": 1, "component": "legs",
                "faces": [1, 1]}  # fmt: skip
        assert dict(one(b.do(body), AttackDeclared).damage_by_grade)["hit"] == 4


def test_suffering_absolution_recovers_a_card_from_the_discard_pile() -> None:
    """Seed 001 suffering die face 6, ABSOLUTION: discard 1 card, recover 1 from discard."""
    b = play("scourge")
    new = card(b, "scourge", faces=[6], drawn=["blade"])
    recovered = one(new, CardsRecovered)
    assert recovered.cards == ("blade#1",) and "blade#1" in b.seat(0).hand
    assert of_type(new, CardResolved)


def snared(version: str) -> Battle:
    """Seat 0 immobilises seat 1 and ends its turn; seat 1's turn starts."""
    doc = setup(
        seats=[seat(0, at=(0, 0), facing=1, rows=ROWS), seat(1, at=(0, -2), facing=4, rows=ROWS)],
        version=version,
    )
    b = start(doc, hands=[["snare", *[FILLER] * 5], [FILLER] * 6])
    card(b, "snare", target=1)
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    return b


def test_an_enemys_immobilised_stops_the_next_move_and_lapses_after_that_turn_r_add_43() -> None:
    """R-ADD-43 (ruleset 2.1): it records who set it, lasts through the target's next turn
    and lapses when that turn ends."""
    b = snared("2.1")
    assert b.seat(1).immobilised_by == 0 and "immobilised" in b.seat(1).statuses
    err = b.refuse({"type": "move", "seat": 1, "path": [[0, -3]]})
    assert (err.code, err.rule) == ("immobilised", "R-ADD-17")
    b.do({"type": "pass", "seat": 1, "faces": [1, 6]})
    assert "immobilised" not in b.seat(1).statuses and b.seat(1).immobilised_by is None


def test_under_2_0_an_enemys_immobilised_lapsed_at_the_start_of_the_targets_turn() -> None:
    """2.0 battles replay as recorded: the status lapsed before it could stop a move."""
    b = snared("2.0")
    assert "immobilised" not in b.seat(1).statuses
    b.do({"type": "move", "seat": 1, "path": [[0, -3]]})
