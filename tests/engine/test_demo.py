"""The demo cards, decks and battle setup (battles/engine/demo.py).

R-TRN-1 (30-card decks), R-REA-1/2 (reactive and shield cards), R-BRD-1/2/3 (the board,
distances and facings). The demo must be the project's own: no name or text may come
from the game's card database, which is only read from /work/shared when present.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from battles.engine.board import parse_board
from battles.engine.carddata.decks import validate_deck
from battles.engine.cards import (
    CARD_KINDS,
    AttackEffect,
    CardDef,
    HeatEffect,
    ReduceIncomingEffect,
    card_from_dict,
)
from battles.engine.demo import (
    DEMO_CARDS,
    DEMO_DECKS,
    demo_card,
    demo_deck,
    demo_setup,
)
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.ruleset import Ruleset, parse_ruleset
from battles.engine.tohit import parse_range

DATABASE = (
    Path(__file__).resolve().parents[3] / "shared" / "data" / "penance-card-database-v5.15b.json"
)


def _count(deck: str, test: Callable[[CardDef], bool]) -> int:
    return sum(count for card, count in demo_deck(deck) if test(card))


# --- cards -------------------------------------------------------------------------------------


def test_card_ids_are_unique_and_the_set_is_small() -> None:
    ids = [c.id for c in DEMO_CARDS]
    assert len(ids) == len(set(ids))
    assert 14 <= len(DEMO_CARDS) <= 20


@pytest.mark.parametrize("card", DEMO_CARDS, ids=lambda c: c.id)
def test_every_card_round_trips_through_json(card: CardDef) -> None:
    assert card_from_dict(json.loads(json.dumps(card.as_dict()))) == card


def test_exactly_two_cards_are_manual_and_they_tell_the_players_what_to_do() -> None:
    manual = [c for c in DEMO_CARDS if c.manual]
    assert len(manual) == 2
    assert all("players" in c.text.lower() for c in manual)


def test_automated_cards_heat_matches_their_heat_effects() -> None:
    for card in DEMO_CARDS:
        if card.automated:
            assert card.heat == sum(e.amount for e in card.effects if isinstance(e, HeatEffect))


def test_the_set_covers_the_brief() -> None:
    kinds = Counter(c.kind for c in DEMO_CARDS)
    assert set(kinds) <= set(CARD_KINDS)
    assert 3 <= kinds["primary_weapon"] <= 4
    effect_kinds = Counter(e.kind for c in DEMO_CARDS for e in c.effects)
    for kind in ("attack", "move", "rotate", "heat", "draw", "discard", "buff_next_attack"):
        assert effect_kinds[kind] >= 1, kind
    assert effect_kinds["status"] >= 1 and effect_kinds["roll_suffering"] >= 1
    weapons = [c for c in DEMO_CARDS if c.kind in ("primary_weapon", "secondary") and c.attack]
    assert {c.attack.range.high == 1 for c in weapons if c.attack} == {True, False}
    assert any(c.sp_cost == 0 and c.kind != "reactive" for c in DEMO_CARDS)
    assert any(
        c.sp_cost == 2 and c.effects == (HeatEffect(-3),) and c.heat == -3 for c in DEMO_CARDS
    )


def test_reactive_cards_reduce_1_2_and_3_one_from_the_shield_one_with_heat() -> None:
    """R-REA-1: 0 SP, reduce_incoming; R-REA-2: the shield card."""
    reactive = [c for c in DEMO_CARDS if c.kind == "reactive"]
    assert len(reactive) == 3
    assert all(c.sp_cost == 0 for c in reactive)
    amounts = sorted(
        e.amount for c in reactive for e in c.effects if isinstance(e, ReduceIncomingEffect)
    )
    assert amounts == [1, 2, 3]
    assert sum(c.shield for c in reactive) == 1
    assert not any(c.shield for c in DEMO_CARDS if c.kind != "reactive")
    assert any(c.heat > 0 for c in reactive)


def test_demo_card_finds_a_card_and_names_an_unknown_id() -> None:
    maul = demo_card("censer-maul")
    assert maul.attack == AttackEffect(parse_range("Melee"), 4)
    with pytest.raises(InvalidInput, match="'no-such-card'"):
        demo_card("no-such-card")


# --- decks -------------------------------------------------------------------------------------


@pytest.mark.parametrize("deck", sorted(DEMO_DECKS))
def test_deck_is_legal_under_r_trn_1(deck: str) -> None:
    assert validate_deck(demo_deck(deck), Ruleset()) == []
    assert sum(count for _, count in DEMO_DECKS[deck]) == 30


@pytest.mark.parametrize("deck", sorted(DEMO_DECKS))
def test_deck_has_enough_attacks_to_end_a_battle_and_reactive_cards(deck: str) -> None:
    assert _count(deck, lambda c: c.automated and c.attack is not None) >= 10
    assert _count(deck, lambda c: c.kind == "reactive") >= 4


def test_the_scout_shoots_and_the_heavy_fights_close() -> None:
    def ranged(c: CardDef) -> bool:
        return c.attack is not None and c.attack.range.high > 1

    def melee(c: CardDef) -> bool:
        return c.attack is not None and c.attack.range.high == 1

    assert _count("penitent-scout", ranged) > _count("penitent-scout", melee)
    assert _count("bastion-heavy", melee) > _count("bastion-heavy", ranged)
    assert _count("bastion-heavy", lambda c: c.kind == "reactive") > _count(
        "penitent-scout", lambda c: c.kind == "reactive"
    )


def test_unknown_deck_is_refused() -> None:
    with pytest.raises(InvalidInput, match="'no-such-deck'"):
        demo_deck("no-such-deck")


# --- the setup document ------------------------------------------------------------------------


def test_setup_is_plain_json_with_the_brief_shape() -> None:
    setup = demo_setup()
    assert json.loads(json.dumps(setup)) == setup
    assert set(setup) == {"name", "board", "rules", "dice", "policy", "cards", "seats"}
    assert setup["dice"] == {"mode": "digital", "seed": 7}
    assert setup["policy"] == "auto"
    assert parse_ruleset(setup["rules"]) == Ruleset()
    sides = [(s["side"], s["casket"]["class"], s["casket"]["shield"]) for s in setup["seats"]]
    assert sides == [("penitents", "scout", "left"), ("bastion", "heavy", "right")]
    for seat in setup["seats"]:
        assert set(seat) == {"player", "side", "casket", "deck", "pilot", "at", "facing"}
        assert seat["pilot"]["carried_wounds"] == [] and seat["pilot"]["sp_modifier"] == 0


def test_setup_takes_seed_and_players_and_is_fresh_each_call() -> None:
    setup = demo_setup(seed=None, players=("ann", "bob"))
    assert setup["dice"]["seed"] is None
    assert [s["player"] for s in setup["seats"]] == ["ann", "bob"]
    setup["cards"].clear()
    assert demo_setup()["cards"]


def test_every_deck_card_is_in_cards_and_parses() -> None:
    setup = demo_setup()
    cards = {doc["id"]: card_from_dict(doc) for doc in setup["cards"]}
    for seat in setup["seats"]:
        ids = [row["card"] for row in seat["deck"]]
        assert set(ids) <= set(cards)
        rows = [(cards[row["card"]], row["count"]) for row in seat["deck"]]
        assert validate_deck(rows, Ruleset()) == []
    used = {row["card"] for seat in setup["seats"] for row in seat["deck"]}
    assert set(cards) == used


def test_deployment_hexes_are_open_ground_6_to_10_apart_facing_each_other() -> None:
    """R-BRD-1 distance, R-BRD-2 facings (4 = S, 1 = N), R-BRD-3 passable terrain."""
    setup = demo_setup()
    board = parse_board(setup["board"])
    (a, fa), (b, fb) = ((Hex(*s["at"]), s["facing"]) for s in setup["seats"])
    for h in (a, b):
        assert h in board
        assert not board.terrain_at(h).impassable
        assert board.terrain_at(h).name == "clear"
    assert 6 <= a.distance(b) <= 10
    assert a.neighbour(fa).distance(b) == a.distance(b) - 1
    assert b.neighbour(fb).distance(a) == b.distance(a) - 1
    assert not board.terrain_at(Hex(0, 0)).impassable


def test_board_has_every_terrain_the_brief_asks_for() -> None:
    board = parse_board(demo_setup()["board"])
    names = {board.terrain_at(h).name for h in board.cells}
    assert {"clear", "forest", "rubble", "wall", "building", "water"} <= names
    # Mostly clear ground: the straight line between the caskets crosses nothing.
    assert all(board.terrain_at(Hex(0, r)).name == "clear" for r in range(-4, 5))


# --- originality -------------------------------------------------------------------------------


def _database_strings(node: Any, names: set[str], texts: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "name" and isinstance(value, str):
                names.add(value.strip().lower())
            _database_strings(value, names, texts)
    elif isinstance(node, list):
        for value in node:
            _database_strings(value, names, texts)
    elif isinstance(node, str):
        texts.add(node.lower())


def test_no_name_or_text_comes_from_the_card_database() -> None:
    if not DATABASE.exists():
        pytest.skip(f"{DATABASE} is not present")
    names: set[str] = set()
    texts: set[str] = set()
    _database_strings(json.loads(DATABASE.read_text(encoding="utf-8")), names, texts)
    assert len(names) > 100  # the walk really read the database
    for card in DEMO_CARDS:
        assert card.name.lower() not in names, card.id
        assert not any(card.text.lower() in t for t in texts), card.id
