"""Ruleset 2.1 and ending a battle: R-DMG-8 (damage pile), R-DMG-9 (HP and defeat),
R-TRN-9 (withdraw, the GM ends a battle, option round_limit), and the stalemate the
engine reports for the GM to confirm (R-ADD-40)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from battles.engine.battle import stalemate
from battles.engine.battle.events import (
    BattleEnded,
    BattleWon,
    CasketDefeated,
    CasketWithdrew,
    DamageTaken,
    DeckReshuffled,
    SurvivalRolled,
    TaintOverloaded,
)
from battles.engine.battle.evolve import evolve

from .battle_builder import FILLER, Battle, of_type, one, seat, setup, start, types
from .test_battle_attacks import BLOOD, attack, duel

TAKE_THREE = {"type": "take_damage", "seat": 1, "hand": [FILLER], "deck": 2}


def hit_for_three(b: Battle) -> None:
    """Seat 0 hits seat 1 for 3 final damage; seat 1's take_damage prompt is open."""
    attack(b, [3, 3, BLOOD, BLOOD, BLOOD])


# --- R-DMG-8: the damage pile ------------------------------------------------------------------


def test_damage_from_hand_and_deck_goes_to_the_damage_pile_under_2_1_r_dmg_8() -> None:
    b = duel(["blade"], version="2.1")
    hit_for_three(b)
    new = b.do({**TAKE_THREE, "drawn": [FILLER, FILLER]})
    taken = of_type(new, DamageTaken)
    lost = [card for t in taken for card in (*t.from_hand, *t.from_deck)]
    assert len(lost) == 3
    assert set(b.seat(1).damage_pile) == set(lost)
    assert not set(lost) & set(b.seat(1).discard)
    assert b.seat(1).hp == 30 - 6 - 2  # deck and discard only (R-DMG-9)


def test_under_2_0_the_same_damage_goes_to_the_discard_pile() -> None:
    b = duel(["blade"])
    hit_for_three(b)
    b.do({**TAKE_THREE, "drawn": [FILLER, FILLER]})
    assert len(b.seat(1).discard) == 3 and b.seat(1).damage_pile == ()


def test_a_reshuffle_never_brings_damaged_cards_back_r_dmg_8() -> None:
    b = duel(["blade"], version="2.1")
    hit_for_three(b)
    b.do({**TAKE_THREE, "drawn": [FILLER, FILLER]})
    pile = b.seat(1).damage_pile
    c = b.seat(1)
    # The discard pile reshuffles into the deck (R-TRN-6); the damage pile stays apart.
    reshuffled = evolve(b.state, DeckReshuffled(1, (*c.discard, "damage#1"), "damage#1", False))
    after = reshuffled.seats[1]
    assert after.damage_pile == pile
    assert not set(pile) & set(after.deck)


def test_every_card_is_in_exactly_one_zone_with_the_damage_pile() -> None:
    b = duel(["blade"], version="2.1")
    hit_for_three(b)
    b.do({**TAKE_THREE, "drawn": [FILLER, FILLER]})
    cards = [x for zone in b.seat(1).zones().values() for x in zone]
    assert len(cards) == len(set(cards)) == 30


# --- R-DMG-9: HP and defeat --------------------------------------------------------------------


def one_card_left(b: Battle, seat_n: int) -> str:
    """Leave seat `seat_n` with a single card in its deck and none in its discard pile
    (the rest set aside as removed), as a long battle would; the card's id."""
    c = b.seat(seat_n)
    seats = list(b.state.seats)
    seats[seat_n] = replace(c, deck=c.deck[:1], discard=(), removed=c.deck[1:] + c.discard)
    b.state = replace(b.state, seats=tuple(seats))
    return c.deck[0].split("#")[0]


def test_a_casket_is_defeated_the_moment_deck_and_discard_are_empty_r_dmg_9() -> None:
    b = duel(["blade"], version="2.1")
    last = one_card_left(b, 1)
    attack(b, [3, 3, 1, 3, BLOOD])  # a hit, two blocks: 1 final damage (R-DMG-2)
    new = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 1, "drawn": [last],
                "faces": [6]})  # fmt: skip
    defeated = one(new, CasketDefeated)
    assert (defeated.seat, defeated.rule) == (1, "R-DMG-9")
    assert len(b.seat(1).hand) == 6  # cards in hand do not keep it in the battle
    assert one(new, SurvivalRolled).seat == 1  # its pilot rolls for survival (R-PLT-3)
    assert b.seat(1).defeated and not b.seat(1).in_battle


def test_under_2_0_an_empty_deck_and_discard_defeat_only_at_the_next_draw() -> None:
    b = duel(["blade"])
    last = one_card_left(b, 1)
    attack(b, [3, 3, 1, 3, BLOOD])
    new = b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 1, "drawn": [last]})
    assert not of_type(new, CasketDefeated) and not b.seat(1).defeated


# --- R-TRN-9: withdrawing, the GM's end, the round limit ---------------------------------------


def two_sides(**kwargs: Any) -> Battle:
    doc = setup(
        seats=[seat(0, at=(0, 0), facing=1), seat(1, at=(0, -2), facing=4)],
        version="2.1",
        **kwargs,
    )
    return start(doc)


def test_a_casket_withdraws_at_the_start_of_its_turn_undefeated_r_trn_9() -> None:
    b = two_sides()
    new = b.do({"type": "withdraw", "seat": 0})
    assert one(new, CasketWithdrew).rule == "R-TRN-9"
    assert not of_type(new, SurvivalRolled) and not of_type(new, CasketDefeated)
    assert b.seat(0).withdrawn and not b.seat(0).defeated and not b.seat(0).in_battle
    assert b.state.active == 1
    new = b.do({"type": "pass", "seat": 1})
    won = one(new, BattleWon)
    assert (won.side, b.state.over) == ("side1", True)


def test_a_casket_that_acted_this_turn_cannot_withdraw_r_trn_9() -> None:
    b = two_sides()
    b.do({"type": "rotate", "seat": 0, "facing": 2})
    err = b.refuse({"type": "withdraw", "seat": 0})
    assert (err.code, err.rule) == ("withdraw_at_start_of_turn", "R-TRN-9")


def test_the_gm_ends_the_battle_with_a_winner_or_a_draw_r_trn_9() -> None:
    b = two_sides()
    new = b.do({"type": "end_battle", "side": "side1", "reason": "objective held"})
    ended = one(new, BattleEnded)
    assert (ended.side, ended.rule, ended.reason) == ("side1", "R-TRN-9", "objective held")
    assert type(ended).ADJUSTMENT and b.state.over and b.state.winner == "side1"
    draw = two_sides()
    draw.do({"type": "end_battle", "side": None, "reason": "time at the table"})
    assert draw.state.over and draw.state.winner is None


def test_the_gm_cannot_end_a_battle_for_a_side_not_in_it() -> None:
    b = two_sides()
    err = b.refuse({"type": "end_battle", "side": "nobody", "reason": "typo"})
    assert (err.code, err.rule) == ("no_such_side", "R-TRN-9")


def test_a_round_limit_with_equal_hp_is_a_draw_r_trn_9() -> None:
    b = two_sides(options={"round_limit": 1})
    b.do({"type": "pass", "seat": 0, "drawn": []})
    new = b.do({"type": "pass", "seat": 1, "drawn": []})
    won = one(new, BattleWon)
    assert (won.side, won.rule) == (None, "R-TRN-9")
    assert "equal HP" in won.reason and b.state.over


def test_a_round_limit_goes_to_the_side_with_more_hp_r_trn_9() -> None:
    b = two_sides(options={"round_limit": 1})
    one_card_left(b, 0)
    b.do({"type": "pass", "seat": 0, "drawn": []})
    new = b.do({"type": "pass", "seat": 1, "drawn": []})
    won = one(new, BattleWon)
    assert (won.side, won.rule) == ("side1", "R-TRN-9")
    assert "RoundStarted" not in types(new)


def test_without_a_round_limit_the_next_round_starts() -> None:
    b = two_sides()
    b.do({"type": "pass", "seat": 0, "drawn": []})
    new = b.do({"type": "pass", "seat": 1, "drawn": [], "faces": [6, 1]})
    assert "RoundStarted" in types(new) and not b.state.over


# --- R-ADD-40: a stalemate, reported for the GM -------------------------------------------------


def test_hands_full_of_cards_nobody_can_play_are_a_stalemate_r_add_40() -> None:
    """Reactive cards wait for an attack; weapons of a destroyed arm cannot be played."""
    b = duel(version="2.1")
    assert stalemate(b.state) is None
    hands = [("ward#1", "ward#2", "steam#1", "pavise#1", "pavise#2", "blade#1"),
             tuple(f"blade#{i}" for i in range(1, 7))]  # fmt: skip
    seats = [
        replace(c, hand=hand, destroyed=("right_arm",))
        for c, hand in zip(b.state.seats, hands, strict=True)
    ]
    stuck = replace(b.state, seats=tuple(seats))
    assert "R-ADD-40" in (stalemate(stuck) or "")
    hot = replace(stuck, seats=(replace(stuck.seats[0], heat=5), stuck.seats[1]))
    assert stalemate(hot) is None  # a strain roll may still damage it (R-TRN-4)
    armed = replace(stuck, seats=(replace(stuck.seats[0], destroyed=()), stuck.seats[1]))
    assert stalemate(armed) is None  # seat 0 can still play its blade


# --- Taint in a battle (R-PLT-3, R-PLT-4, R-ADD-44) --------------------------------------------


def tainted(taint: int) -> Battle:
    doc = setup(seats=[seat(0, at=(0, 0), facing=1), seat(1, at=(0, -2), facing=4)], version="2.1")
    doc["seats"][0]["pilot"]["taint"] = taint
    return start(doc)


def test_a_battle_starts_with_the_pilots_campaign_taint_r_add_44() -> None:
    assert tainted(7).seat(0).taint == 7
    assert two_sides().seat(0).taint == 0


def test_taint_reaching_ten_overloads_the_pilot_r_plt_3() -> None:
    b = tainted(8)
    new = b.do({"type": "adjust_taint", "seat": 0, "taint": 10, "reason": "a profane relic",
                "faces": [2], "drawn": ["severe-1", "minor-1"]})  # fmt: skip
    overload = one(new, TaintOverloaded)
    assert (overload.seat, overload.taint, overload.face, overload.wounds) == (0, 10, 2, 2)
    assert len(b.seat(0).wounds) == 2 and b.seat(0).taint == 10
    again = b.do({"type": "adjust_taint", "seat": 0, "taint": 11, "reason": "more"})
    assert not of_type(again, TaintOverloaded)  # only when it rises to 10 from below


def test_a_high_overload_roll_wounds_nobody() -> None:
    b = tainted(9)
    new = b.do({"type": "adjust_taint", "seat": 0, "taint": 12, "reason": "relic",
                "faces": [5]})  # fmt: skip
    assert one(new, TaintOverloaded).wounds == 0 and b.seat(0).wounds == ()
