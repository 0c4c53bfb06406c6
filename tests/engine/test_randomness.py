"""Dice sources for the two dice modes (docs/BATTLES.md "Randomness")."""

from __future__ import annotations

from collections import Counter

import pytest

from battles.engine.battle.randomness import SecretsDice, SeededDice, TableDice
from battles.engine.errors import RuleViolation


def test_seeded_dice_repeat_exactly_for_the_same_seed() -> None:
    a, b = SeededDice(42), SeededDice(42)
    cards = [f"c#{i}" for i in range(30)]
    assert a.shuffle(cards, purpose="deck") == b.shuffle(cards, purpose="deck")
    assert a.d6(20, purpose="x", rule="R-TRN-2") == b.d6(20, purpose="x", rule="R-TRN-2")
    assert SeededDice(1).shuffle(cards, purpose="deck") != SeededDice(2).shuffle(
        cards, purpose="deck"
    )


def test_secret_shuffle_is_a_permutation_and_faces_cover_one_to_six() -> None:
    cards = list(range(30))
    assert sorted(SecretsDice().shuffle(cards, purpose="deck")) == cards
    faces = Counter(SecretsDice().d6(600, purpose="x", rule="R-HIT-4"))
    assert set(faces) == {1, 2, 3, 4, 5, 6}


def test_table_dice_hand_out_reported_faces_in_order_r_hit_4() -> None:
    dice = TableDice([5, 5, 1, 2, 3])
    assert dice.d6(2, purpose="attack roll", rule="R-HIT-4") == (5, 5)
    assert dice.d6(3, purpose="defence roll", rule="R-DMG-2") == (1, 2, 3)
    assert dice.unused() == 0


@pytest.mark.parametrize("face", [0, 7, -1, True, "6", 2.0])
def test_table_dice_refuse_a_face_outside_one_to_six(face: object) -> None:
    with pytest.raises(RuleViolation) as err:
        TableDice([3, face])  # type: ignore[list-item]
    assert err.value.code == "invalid_die_face"


def test_table_dice_refuse_too_few_faces_citing_the_rolls_rule() -> None:
    dice = TableDice([3])
    with pytest.raises(RuleViolation) as err:
        dice.d6(2, purpose="attack roll", rule="R-HIT-4")
    assert (err.value.code, err.value.rule) == ("wrong_dice_count", "R-HIT-4")


def test_table_shuffle_takes_the_reported_order_and_refuses_other_cards() -> None:
    dice = TableDice([], orders=[["b#1", "a#1"], ["x#1"]])
    assert dice.shuffle(["a#1", "b#1"], purpose="reshuffle") == ("b#1", "a#1")
    with pytest.raises(RuleViolation) as err:
        dice.shuffle(["a#1"], purpose="reshuffle")
    assert err.value.code == "card_not_in_deck"
