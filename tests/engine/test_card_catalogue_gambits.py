"""Scenarios for the catalogue entries of gambits and lasting buffs on the own casket and its
allies (the second round of the real cards: R-ADD-340 to R-ADD-349), played through
decide/evolve with the helpers of test_card_catalogue.py; each card is built from its own
database entry, and each scenario quotes the text it checks.
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    CardCostRaised,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsForbidden,
    CasketMoved,
    MoveGranted,
    PromptOpened,
    RoundEnded,
    SpDrained,
    SpLocked,
    TurnSkipped,
    UltimatumAnswered,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef
from battles.sentences import Names, describe, plain

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import MAUL, arrange, battle, built, play, run_scenario, tokens

GAMBITS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

VESTIGE, EXCHANGE, ITEMS = "vestige-bloodlines", "exchange", "equipment_items"
WYRD = "wyrd-conclave"


def duel(card: CardDef, mine: Sequence[CardDef] = (), *, gap: int = 1) -> Battle:
    """Seat 0 at [0, 3] facing N holds `card`, `mine` (cards built from their own database
    entries) and a Blade (Melee 3); seat 1, `gap` hexes north facing S, holds the test's
    Maul. Seat 0 acts first (R-TRN-2)."""
    own = [card, *(c for c in mine if c.id != card.id)]
    cards = [CARDS[FILLER], MAUL, CARDS["blade"], *(c.as_dict() for c in own)]
    doc = {
        "name": "Gambits", "board": {"name": "Gambits", "shape": {"kind": "hexagon", "radius": 8},
                                     "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards,
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(blade=1, **{c.id: 1 for c in own})},
            {**seat(1, at=(0, 3 - gap), facing=4), "deck": deck(**{"test-maul": 2})},
        ],
    }  # fmt: skip
    b = Battle.create(doc)
    hands = [[*(c.id for c in own), "blade"], ["test-maul"]]
    for i in (0, 1):
        body: dict[str, Any] = {"type": "keep_hand", "seat": i,
                                "drawn": hands[i] + [FILLER] * (6 - len(hands[i]))}  # fmt: skip
        if i == 1:
            body["faces"] = [6, 1]
        b.do(body)
    return b


def blade_hit(b: Battle) -> int:
    body = {"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    return int(dict(one(b.do(body), AttackDeclared).damage_by_grade)["hit"])


def _feral_rage() -> None:
    """ "Until end of your turn, your attacks deal +3 damage but you cannot use defense
    cards or movement cards. Gain 2 Heat.": every attack this turn deals +3 (R-ADD-96);
    until the turn ends no Defense card (Guardian's Defiance, printed "Defense") and no
    Movement card (Desperate Lunge, printed "movement") may be played, while the move
    action, no card, still may; the next turn they may again (R-ADD-340)."""
    card = built(VESTIGE, "feral-rage")
    lunge, defiance = (
        built("universal", "desperate-lunge"),
        built("universal", "guardians-defiance"),
    )
    assert lunge.classes == ("movement",) and defiance.classes == ("defense",)
    assert built("universal", "second-skin").classes == ("defense",)  # reactive (R-ADD-174)
    assert card.classes == () and built(VESTIGE, "leaping-pounce").classes == ()  # "Attack"
    b = duel(card, (lunge, defiance), gap=2)
    events = play(b, card.id)
    assert one(events, CardsForbidden) == CardsForbidden(0, ("defense", "movement"), card.id)
    assert b.seat(0).heat == 2
    words = plain(
        describe("CardsForbidden", dataclasses.asdict(one(events, CardsForbidden)), Names({0: "Fang"}, {}, {}))
    )  # fmt: skip
    assert "Fang cannot play defense or movement cards until the end of the turn" in words
    assert "R-ADD-340" in words
    for other in (lunge, defiance):
        err = b.refuse({"type": "play_card", "seat": 0, "card": f"{other.id}#1",
                        **({"path": [[0, 2]]} if other is lunge else {})})  # fmt: skip
        assert (err.code, err.rule) == ("card_class_forbidden", "R-ADD-340"), other.id
    assert one(b.do({"type": "move", "seat": 0, "path": [[0, 2]]}), CasketMoved)
    assert blade_hit(b) == 3 + 3  # the Blade, Melee 3
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert b.seat(0).forbidden_classes == ()
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
    assert "desperate-lunge#1" in b.seat(0).hand
    assert one(play(b, lunge.id, path=[[1, 2]]), CasketMoved)


GAMBITS_SCENARIOS[(VESTIGE, "feral-rage")] = _feral_rage


def _market_manipulation() -> None:
    """ "All enemies in area have +1 SP cost to all cards for 1 turn." (cost "2 Credit
    tokens", range "4 hexes (area)"): the tokens are its price (R-ADD-133); every enemy
    within 4 hexes pays 1 SP more for each card it plays in its next turn, a 0 SP card
    included, and the turn after pays the printed costs again; an enemy 5 hexes away pays
    nothing more (R-ADD-341)."""
    card = built(EXCHANGE, "market-manipulation")
    assert card.sp_cost == 0 and card.token_cost is not None
    far = battle(card, gap=5, opponent=("insight",))
    tokens(far, "credit", 2)
    assert not of_type(play(far, card.id), CardCostRaised)
    b = battle(card, gap=4, opponent=("insight", "pivot"))
    assert b.refuse({"type": "play_card", "seat": 0, "card": f"{card.id}#1"}).rule == "R-ADD-133"
    tokens(b, "credit", 2)
    events = play(b, card.id)
    assert one(events, CardCostRaised) == CardCostRaised(1, 1, card.id)
    assert b.seat(0).sp_spent == 0 and dict(b.seat(0).tokens).get("credit", 0) == 0
    words = plain(
        describe("CardCostRaised", dataclasses.asdict(one(events, CardCostRaised)), Names({1: "Mark"}, {}, {}))
    )  # fmt: skip
    assert "Mark's cards cost +1 SP each in their next turn" in words and "R-ADD-341" in words
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert b.seat(1).card_cost == 1  # its "1 turn"
    played = one(b.do({"type": "play_card", "seat": 1, "card": "insight#1",
                       "drawn": [FILLER, FILLER]}), CardPlayed)  # fmt: skip
    assert played.cost == 1 + 1 and b.seat(1).sp_spent == 2
    played = one(b.do({"type": "play_card", "seat": 1, "card": "pivot#1", "facing": 3}), CardPlayed)
    assert played.cost == 0 + 1 and b.seat(1).sp_spent == 3
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})
    assert b.seat(1).card_cost == 0 and b.seat(1).card_cost_next_turn == 0


GAMBITS_SCENARIOS[(EXCHANGE, "market-manipulation")] = _market_manipulation


def _frozen_time() -> None:
    """ "Target enemy skips their next turn (save: discard 2 cards to resist)" (no printed
    range): any enemy in the battle is the target (R-ADD-385); its player chooses: discard
    2 cards, hand cards named and the rest from the top of its deck (R-ADD-152), and its
    turn comes as usual, or skip its next turn (R-ADD-159's skipped turn); an enemy with
    fewer than 2 cards in hand and deck cannot resist (R-ADD-342)."""
    card = built(ITEMS, "winter-s-heart-staff-frozen-time")
    assert card.range is None and card.sp_cost == 3
    body = {"type": "play_card", "seat": 0, "card": f"{card.id}#1", "target": 1}
    err = battle(card).refuse({**body, "target": None})
    assert (err.code, err.rule) == ("target_required", "R-RNG-2")
    # The save: 1 hand card and the deck's top card.
    b = battle(card, gap=7)  # 7 hexes away: no range limits it
    prompt = one(b.do(body), PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (1, "save", 2, "R-ADD-342")
    assert {a.body["option"] for a in legal_actions(b.state)} == {"discard", "skip_turn"}
    err = b.refuse({"type": "choose", "seat": 1, "option": "damage"})
    assert (err.code, err.rule) == ("wrong_option", "R-ADD-342")
    top = b.seat(1).deck[0]
    events = b.do({"type": "choose", "seat": 1, "option": "discard", "cards": ["test-maul#1"],
                   "drawn": [top.split("#")[0]]})  # fmt: skip
    assert one(events, CardsDiscarded) == CardsDiscarded(
        1, ("test-maul#1",), (top,), "resisting", "R-ADD-342"
    )
    assert one(events, UltimatumAnswered) == UltimatumAnswered(1, "discard")
    words = plain(
        describe("UltimatumAnswered", {"seat": 1, "option": "discard"}, Names({1: "Rime"}, {}, {}))
    )
    assert "Rime chooses to discard cards to resist" in words, words
    assert not b.seat(1).skip_next_turn
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert not of_type(events, TurnSkipped) and b.state.active == 1
    # The skipped turn, chosen.
    b = battle(card, gap=3)
    b.do(body)
    b.do({"type": "choose", "seat": 1, "option": "skip_turn"})
    assert b.seat(1).skip_next_turn
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [6, 1]})
    assert one(events, TurnSkipped) == TurnSkipped(1)
    # No cards to resist with: skipped without a question.
    b = battle(card, gap=3)
    arrange(b, CardsDiscarded(1, b.seat(1).hand, b.seat(1).deck, "arranged", "R-ADD-14"))
    events = b.do(body)
    assert not of_type(events, PromptOpened)
    assert one(events, UltimatumAnswered) == UltimatumAnswered(1, "skip_turn")


GAMBITS_SCENARIOS[(ITEMS, "winter-s-heart-staff-frozen-time")] = _frozen_time


def _deal_with_the_devil() -> None:
    """ "Gain 5 Bargain tokens immediately. Draw 3 cards immediately. Next turn, you have 0
    SP (cannot act). Alternates each turn: Full SP, then 0 SP, then full SP, etc. Lasts 3
    turns total." (cost "0 SP (but costs future actions)"): 0 SP now (R-ADD-343); the
    owner's next three turns are locked, as usual, locked: a locked turn has 0 SP and no
    action but passing; the turn after them is as usual again."""
    card = built(WYRD, "deal-with-the-devil")
    assert card.sp_cost == 0
    b = battle(card, hand=("blade",))
    events = play(b, card.id, drawn=[FILLER] * 3)
    assert dict(b.seat(0).tokens)["bargain"] == 5 and len(one(events, CardsDrawn).cards) == 3
    assert one(events, SpLocked) == SpLocked(0, (True, False, True), card.id)
    words = plain(
        describe("SpLocked", dataclasses.asdict(one(events, SpLocked)), Names({0: "Vow"}, {}, {}))
    )
    assert "Vow has 0 SP and cannot act in their turn 1 from now and their turn 3" in words, words
    assert b.seat(0).sp_spent == 0
    b.do({"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
          "component": "chassis", "faces": [1, 1]})  # this turn: as usual  # fmt: skip
    move = {"type": "move", "seat": 0, "path": [[1, 2]]}
    for turn, locked in enumerate((True, False, True, False)):
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * max(0, 6 - len(b.seat(0).hand))})
        if b.state.prompts:  # 3 drawn: down to the hand size (R-TRN-7)
            extra = b.seat(0).hand[6:]
            b.do({"type": "discard_down", "seat": 0, "cards": list(extra)})
        events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # seat 0 first again
        assert b.state.active == 0 and b.seat(0).sp_locked == locked, turn
        drained = [e for e in of_type(events, SpDrained) if e.seat == 0]
        if locked:
            assert drained == [SpDrained(0, drained[0].amount, "R-ADD-343")] and drained[0].amount
            assert b.seat(0).sp_max == 0
            for body in (move, {"type": "play_card", "seat": 0, "card": "chaff#1"}):
                err = b.refuse({**body, "card": b.seat(0).hand[0]} if "card" in body else body)
                assert (err.code, err.rule) == ("cannot_act", "R-ADD-343"), turn
        else:
            assert not drained and b.seat(0).sp_max > 0
            b.do({**move, "path": [[1, 2]] if turn == 1 else [[0, 3]]})
    assert b.seat(0).sp_locks == ()


GAMBITS_SCENARIOS[(WYRD, "deal-with-the-devil")] = _deal_with_the_devil


def _alphas_command() -> None:
    """ "All allied Vestige Caskets within 4 hexes gain +1 damage and +1 movement until end
    of round. Bloodline Bonus (Fenmar): Fenmar allies gain +2 movement instead.": each
    Vestige ally within 4 hexes deals +1 with every attack until the round ends (R-ADD-370)
    and may move 1 hex at no SP in its turn this round, a Fenmar ally 2 (R-ADD-69); a
    casket of no faction, or 5 hexes away, gains nothing; unused, it lapses as the round
    ends (R-ADD-344)."""
    card = built(VESTIGE, "alphas-command")

    def casket(n: int, at: tuple[int, int], facing: int, side: str, kin: tuple[str, str] | None):
        s = seat(n, at=at, facing=facing, side=side)
        if kin is not None:
            s["casket"] = {**s["casket"], "faction": kin[0], "bloodline": kin[1]}
        return s

    seats = [
        {**casket(0, (0, 3), 1, "pack", (VESTIGE, "urtok")), "deck": deck(**{card.id: 1})},
        {**casket(1, (0, 2), 4, "prey", None), "deck": deck()},
        {**casket(2, (1, 2), 6, "pack", (VESTIGE, "urtok")), "deck": deck(blade=1)},
        {**casket(3, (5, 3), 1, "pack", (VESTIGE, "fenmar")), "deck": deck()},  # 5 hexes
        {**casket(4, (-1, 4), 1, "pack", None), "deck": deck()},  # no faction
        {**casket(5, (-1, 3), 1, "pack", (VESTIGE, "fenmar")), "deck": deck()},
    ]
    doc = {
        "name": "Pack", "board": {"name": "Pack", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], CARDS["blade"], card.as_dict()], "seats": seats,
    }  # fmt: skip
    fill = [FILLER] * 6
    hands = [[card.id, *fill[:5]], fill, ["blade", *fill[:5]], fill, fill, fill]
    faces = (5, 1, 4, 3, 2, 6)  # seat 5 first, then clockwise: 0, 1, 2, 3, 4 (R-TRN-2)
    b = start(doc, hands, initiative=faces)
    assert b.state.active == 5
    b.do({"type": "pass", "seat": 5})  # the Fenmar ally has had its turn this round
    events = play(b, card.id)
    assert sorted((e.seat, e.hexes) for e in of_type(events, MoveGranted)) == [
        (2, 1), (5, 1), (5, 2)]  # fmt: skip
    assert [b.seat(x).free_move for x in range(6)] == [0, 0, 1, 0, 0, 2]
    assert [bool(b.seat(x).enhancements) for x in range(6)] == [
        False,
        False,
        True,
        False,
        False,
        True,
    ]
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1})
    assert b.state.active == 2
    body = {"type": "attack", "seat": 2, "card": "blade#1", "target": 1,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    assert dict(one(b.do(body), AttackDeclared).damage_by_grade)["hit"] == 3 + 1
    moved = one(b.do({"type": "move", "seat": 2, "path": [[2, 1]], "free": True}), CasketMoved)
    assert moved.cost == 0 and b.seat(2).free_move == 0
    b.do({"type": "pass", "seat": 2, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 3})
    events = b.do({"type": "pass", "seat": 4, "faces": list(faces)})
    assert one(events, RoundEnded)
    assert b.seat(5).free_move == 0 and not b.seat(5).enhancements  # lapsed, unused
    assert b.state.active == 5
    err = b.refuse({"type": "move", "seat": 5, "path": [[-1, 2]], "free": True})
    assert (err.code, err.rule) == ("no_free_move", "R-ADD-69")


GAMBITS_SCENARIOS[(VESTIGE, "alphas-command")] = _alphas_command


@pytest.mark.parametrize("key", sorted(GAMBITS_SCENARIOS), ids="/".join)
def test_gambits_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, GAMBITS_SCENARIOS[key])
