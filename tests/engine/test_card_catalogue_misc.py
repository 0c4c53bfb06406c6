"""Scenarios for the catalogue entries of issue 17's "misc" group (R-ADD-150 to R-ADD-159):
thrown weapons, "OR: spend tokens" alternatives, discards made as part of an attack,
recovering a named card. Played through decide/evolve with the helpers of
test_card_catalogue.py; `test_every_automated_entry_has_a_scenario_below` (there) counts
these scenarios with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.commands import Attack as AttackCommand
from battles.engine.battle.commands import command_body, parse_command
from battles.engine.battle.events import (
    AttackDeclared,
    AttackEnded,
    CardsDiscarded,
    CardsDrawn,
    CardsLookedAt,
    CardsRecovered,
    CasketDefeated,
    CasketMoved,
    DeckArranged,
    DefenceRaised,
    DefenceRolled,
    HandRevealed,
    HitBargainedAway,
    HitDamageBargained,
    PromptOpened,
    TargetBonusGained,
    TokensChanged,
    TurnSkipped,
    UltimatumAnswered,
    UntargetableEnded,
    UntargetableGained,
    WreckScavenged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.view import public_payload
from battles.engine.cards import CardDef, card_from_dict, effect_from_dict
from battles.engine.errors import InvalidInput
from battles.engine.tohit import MAX_DAMAGE

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    AUTOMATED,
    Attack,
    arrange,
    attack,
    battle,
    built,
    check_attack,
    hit,
    ignored,
    play,
    run_scenario,
    spend,
    tokens,
)

MISC_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


# --- R-ADD-150: thrown weapons ------------------------------------------------------------------


def _throw(cid: str, reach: int, damage: int) -> None:
    """ "Deal N damage, discard this card": a plain attack at the printed range whose card
    goes to the discard pile as any played card does (R-ADD-150), where the item's
    "Recover 1 discarded Hand Axe card" finds it; it is not removed from the game."""
    b = check_attack("equipment_items", cid, Attack(reach, damage))
    assert f"{cid}#1" in b.seat(0).discard and not b.seat(0).removed
    card = built("equipment_items", cid)
    assert [e.kind for e in card.effects] == ["attack"]
    assert b.seat(0).discard.count(f"{cid}#1") == 1


MISC_SCENARIOS.update({
    ("equipment_items", "hand-axe-throw"): lambda: _throw("hand-axe-throw", 3, 3),
    ("equipment_items", "spear-javelin-throw"): lambda: _throw("spear-javelin-throw", 5, 5),
})  # fmt: skip


# --- R-ADD-151: "OR: spend tokens" alternatives --------------------------------------------


def _or_spend(cid: str, pool: str, n: int, bonus: int, *, ignore_all: bool = False) -> None:
    """ "Deal 4 damage. Gain 1 <pool>. OR: Spend N <pool> to deal … instead": without the
    spend, 4 damage and the gain; with it, the stronger attack and no gain (R-ADD-151);
    the spend needs the tokens (R-ADD-61)."""
    spend("equipment_items", cid, 4, pool, n, bonus)
    card = built("equipment_items", cid)
    b = battle(card)
    d = one(attack(b, card), AttackDeclared)  # a miss: the gain came as the card was played
    assert (hit(d), ignored(d), b.seat(0).tokens_of(pool)) == (4, 0, 1)
    b = battle(card)
    tokens(b, pool, n)
    events = attack(b, card, spend=True)
    d = one(events, AttackDeclared)
    assert [e.amount for e in of_type(events, TokensChanged)] == [-n]  # spent, nothing gained
    assert (hit(d), b.seat(0).tokens_of(pool)) == (4 + bonus, 0)
    assert ignored(d) == (MAX_DAMAGE if ignore_all else 0)


MISC_SCENARIOS.update({
    # "Deal 4 damage. Gain 1 Credit. OR: Spend 3 Credits to deal 7 damage instead."
    ("equipment_items", "contract-blade"): lambda: _or_spend("contract-blade", "credit", 3, 3),
    # "Deal 4 damage. Gain 1 Credit. OR: Spend 2 Credits to deal 6 damage and ignore Defense."
    ("equipment_items", "calculated-assault"): lambda: _or_spend(
        "calculated-assault", "credit", 2, 2, ignore_all=True
    ),
    # "Deal 4 damage. Gain 1 Biomass. OR: Spend 3 Biomass to deal 7 damage instead."
    ("equipment_items", "savage-claw"): lambda: _or_spend("savage-claw", "biomass", 3, 3),
})  # fmt: skip


# --- R-ADD-152: discards made as part of an attack --------------------------------------------


def _discard_for_damage(section: str, cid: str, ignore: int) -> None:
    """ "Deal 6 damage. [Ignore 2 Defense.] Discard 1 card to deal +2 damage": optional,
    paid with `spend: true`, a hand card named in `discard` or the deck's top card;
    the bonus is this attack's (R-ADD-152)."""
    card = built(section, cid)
    b = battle(card)
    d = one(attack(b, card), AttackDeclared)
    assert (hit(d), ignored(d)) == (6, ignore) and not of_type(b.events, CardsDiscarded)
    # From the hand.
    b = battle(card)
    hand = len(b.seat(0).hand)
    events = attack(b, card, spend=True, discard=[FILLER])
    gone = one(events, CardsDiscarded)
    assert (gone.from_hand, gone.from_deck, gone.rule) == ((f"{FILLER}#1",), (), "R-ADD-152")
    assert events.index(gone) < events.index(one(events, AttackDeclared))
    d = one(events, AttackDeclared)
    assert (hit(d), ignored(d), len(b.seat(0).hand)) == (8, ignore, hand - 2)
    assert f"{FILLER}#1" in b.seat(0).discard and not b.seat(0).damage_pile
    # From the top of the deck (the table reports the card, R-ADD-18).
    b = battle(card)
    deck = len(b.seat(0).deck)
    events = attack(b, card, spend=True, drawn=[FILLER])
    gone = one(events, CardsDiscarded)
    assert (gone.from_hand, len(gone.from_deck)) == ((), 1) and len(b.seat(0).deck) == deck - 1
    assert hit(one(events, AttackDeclared)) == 8
    # Naming cards without paying, or more cards than the cost, is refused.
    body = {"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip
    err = battle(card).refuse({**body, "discard": [FILLER]})
    assert (err.code, err.rule) == ("unused_argument", "R-ADD-14")
    err = battle(card).refuse({**body, "spend": True, "discard": [FILLER, FILLER]})
    assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-152")


MISC_SCENARIOS.update({
    # "Deal 6 damage. Ignore 2 Defense. Discard 1 card to deal +2 damage (total 8)."
    ("church", "crusaders-wrath"): lambda: _discard_for_damage("church", "crusaders-wrath", 2),
    # "6 damage. Discard 1 card for +2 damage."
    ("equipment", "penitents-wrath"): lambda: _discard_for_damage("equipment", "penitents-wrath", 0),
})  # fmt: skip


def _discard_and_move(section: str, cid: str, damage: int) -> None:
    """ "Deal N damage. Discard 1 card. Move (up to) 1 hex (after attack).": the discard is
    the hand card named in `discard`, or the deck's top card, paid as the card is played
    (R-ADD-152, R-ADD-27); the move is a free move of 1 hex once the attack has ended, hit
    or miss (R-ADD-69, R-ADD-154)."""
    card = built(section, cid)
    b = battle(card)
    events = attack(b, card, discard=[FILLER])
    gone = one(events, CardsDiscarded)
    assert (gone.from_hand, gone.from_deck) == ((f"{FILLER}#1",), ())
    assert events.index(gone) < events.index(one(events, AttackDeclared))
    assert hit(one(events, AttackDeclared)) == damage and b.seat(0).free_move == 1
    moved = one(b.do({"type": "move", "seat": 0, "path": [[0, 4]], "free": True}), CasketMoved)
    assert (moved.cost, moved.by_card) == (0, cid)
    b = battle(card)
    events = attack(b, card, drawn=[FILLER])  # no hand card named: the deck's top card
    assert len(one(events, CardsDiscarded).from_deck) == 1
    err = battle(card).refuse({"type": "attack", "seat": 0, "card": f"{cid}#1", "target": 1,
                               "component": "chassis", "faces": [1, 1],
                               "discard": [FILLER, FILLER]})  # fmt: skip
    assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-14")


MISC_SCENARIOS.update({
    # "Deal 6 damage. Discard 1 card. Move up to 1 hex after attack."
    ("nomads", "reckless-slash"): lambda: _discard_and_move("nomads", "reckless-slash", 6),
    # "9 damage. Discard 1, move 1 hex."
    ("equipment", "desperate-gambit-atk"): lambda: _discard_and_move(
        "equipment", "desperate-gambit-atk", 9
    ),
})  # fmt: skip


# --- R-ADD-153: recovering a named card -----------------------------------------------------


def _axe_battle() -> Battle:
    """Seat 0 holds the Hand Axe's Throw and Retrieve, seat 1 stands 3 hexes north: in
    range of the Throw (Ranged 1-3); seat 0 acts first."""
    axe = [built("equipment_items", c) for c in ("hand-axe-throw", "hand-axe-retrieve")]
    doc = {
        "name": "Axe yard", "board": {"name": "Axe yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], *(c.as_dict() for c in axe)],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(**{c.id: 1 for c in axe})},
            {**seat(1, at=(0, 0), facing=4), "deck": deck()},
        ],
    }  # fmt: skip
    return start(doc, [[*(c.id for c in axe), *[FILLER] * 4], [FILLER] * 6])


def _hand_axe_retrieve() -> None:
    """ "Recover 1 discarded Hand Axe card from discard pile": the newest Hand Axe card of
    the discard pile, passing over newer cards that are not the item's; none there,
    nothing (R-ADD-153)."""
    b = _axe_battle()
    assert not of_type(play(b, "hand-axe-retrieve"), CardsRecovered)  # nothing to recover
    b = _axe_battle()
    b.do({"type": "attack", "seat": 0, "card": "hand-axe-throw#1", "target": 1,
          "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert "hand-axe-throw#1" in b.seat(0).discard
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))  # newer than the axe
    back = one(play(b, "hand-axe-retrieve"), CardsRecovered)
    assert back.cards == ("hand-axe-throw#1",) and "hand-axe-throw#1" in b.seat(0).hand
    assert set(junk) <= set(b.seat(0).discard)


MISC_SCENARIOS.update({
    ("equipment_items", "hand-axe-retrieve"): _hand_axe_retrieve,
})  # fmt: skip


# --- R-ADD-155: untargetable until the next turn ---------------------------------------------


def _enemy_attack(b: Battle, card: str) -> dict[str, Any]:
    return {"type": "attack", "seat": 1, "card": f"{card}#1", "target": 0,
            "component": "chassis", "faces": [1, 1]}  # fmt: skip


def _enemy_targets(b: Battle) -> set[str]:
    """The cards seat 1's legal actions attack seat 0 with."""
    return {
        a.body["card"].split("#")[0]
        for a in legal_actions(b.state)
        if a.body["type"] == "attack" and a.body["target"] == 0
    }


def _shimmer_veil() -> None:
    """ "Become invisible (cannot be targeted by attacks) until your next turn. You may
    still move and attack (but attacking breaks invisibility). Spend 1 Bargain token to
    stay invisible even after attacking." (R-ADD-155)"""
    card = built("wyrd-conclave", "shimmer-veil")
    b = battle(card, opponent=("gun",))
    gained = one(play(b, "shimmer-veil"), UntargetableGained)
    assert gained == UntargetableGained(0, "all", True, "shimmer-veil")
    b.do({"type": "move", "seat": 0, "path": [[0, 4]]})  # moving does not break it
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert b.state.active == 1 and _enemy_targets(b) == set()
    for weapon in ("test-maul", "gun"):
        err = b.refuse(_enemy_attack(b, weapon))
        assert (err.code, err.rule) == ("untargetable", "R-ADD-155")
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2: seat 0's turn starts
    assert b.state.active == 0 and b.seat(0).untargetable == ""  # lapsed
    # Attacking breaks it ...
    b = battle(card, hand=("gun",), opponent=("gun",))
    play(b, "shimmer-veil")
    events = b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    ended = one(events, UntargetableEnded)
    assert events.index(ended) < events.index(one(events, AttackDeclared))
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER, FILLER]})
    assert _enemy_targets(b) == {"test-maul", "gun"}
    # ... unless a Bargain token was spent.
    b = battle(card, hand=("gun",), opponent=("gun",))
    tokens(b, "bargain", 1)
    events = play(b, "shimmer-veil", spend=True)
    assert [e.until_attack for e in of_type(events, UntargetableGained)] == [True, False]
    assert b.seat(0).tokens_of("bargain") == 0
    events = b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                   "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert not of_type(events, UntargetableEnded)
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER, FILLER]})
    assert _enemy_targets(b) == set()


def _void_grimoire_shadow_form() -> None:
    """ "+2 Defense until next turn, cannot be targeted by ranged attacks, gain 1 Taint":
    a Melee attack still may, an attack with a card that is not Melee may not, even
    adjacent (R-ADD-155, R-ADD-64)."""
    card = built("equipment_items", "void-grimoire-shadow-form")
    b = battle(card, opponent=("gun",))
    events = play(b, "void-grimoire-shadow-form")
    assert one(events, DefenceRaised).amount == 2 and b.seat(0).taint == 1
    assert one(events, UntargetableGained).against == "ranged"
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert _enemy_targets(b) == {"test-maul"}
    err = b.refuse(_enemy_attack(b, "gun"))
    assert (err.code, err.rule) == ("untargetable", "R-ADD-155")
    d = one(b.do(_enemy_attack(b, "test-maul")), AttackDeclared)
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == 2


MISC_SCENARIOS.update({
    ("wyrd-conclave", "shimmer-veil"): _shimmer_veil,
    ("equipment_items", "void-grimoire-shadow-form"): _void_grimoire_shadow_form,
})  # fmt: skip


# --- R-ADD-156: looking at a hand, a bonus against one target --------------------------------


def _tactical_scanner() -> None:
    """ "Look at target enemy's hand. Your next attack vs that target +2 damage.": an enemy
    within Ranged 1-6; its hand is recorded, hidden from other seats (R-ADD-28); the bonus
    waits for an attack on that target and is spent by it (R-ADD-156)."""
    cid = "tactical-scanner-enemy-analysis"
    card = built("equipment_items", cid)
    b = battle(card, hand=("gun",), gap=6, opponent=("gun",))
    err = b.refuse({"type": "play_card", "seat": 0, "card": f"{cid}#1"})
    assert (err.code, err.rule) == ("target_required", "R-RNG-2")
    events = play(b, cid, target=1)
    shown = one(events, HandRevealed)
    assert (shown.seat, shown.target, shown.cards) == (0, 1, b.seat(1).hand)
    assert "gun#1" in shown.cards and "test-maul#1" in shown.cards
    payload = {"seat": 0, "target": 1, "cards": list(shown.cards), "source": cid}
    assert public_payload("HandRevealed", payload, {0}, full=False)["cards"] == list(shown.cards)
    assert public_payload("HandRevealed", payload, {1}, full=False)["cards"] == list(shown.cards)
    hidden = public_payload("HandRevealed", payload, {2}, full=False)["cards"]
    assert hidden == [None] * len(shown.cards)
    assert one(events, TargetBonusGained) == TargetBonusGained(0, 1, 2, cid)
    d = one(b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert hit(d) == 4 and b.seat(0).bonus_against == ()  # the Gun's 2, +2, spent
    far = battle(card, gap=7)
    err = far.refuse({"type": "play_card", "seat": 0, "card": f"{cid}#1", "target": 1})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")


def _three_seats(card: CardDef) -> Battle:
    """Seat 0 ("a", holding `card` and a Gun) acts first; enemies seat 1 (adjacent, north)
    and seat 2 (2 hexes north-east, facing it), both of side "b"."""
    doc = {
        "name": "Yard", "board": {"name": "Yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], CARDS["gun"], card.as_dict()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1, side="a"), "deck": deck(**{card.id: 1, "gun": 2})},
            {**seat(1, at=(0, 2), facing=4, side="b"), "deck": deck()},
            {**seat(2, at=(2, 1), facing=5, side="b"), "deck": deck()},
        ],
    }  # fmt: skip
    return start(doc, [[card.id, "gun", "gun", *[FILLER] * 3], [FILLER] * 6, [FILLER] * 6],
                 initiative=(6, 1, 2))  # fmt: skip


def _tactical_scanner_marks_one_target() -> None:
    """The bonus is for "that target" only: an attack on another enemy leaves the mark."""
    cid = "tactical-scanner-enemy-analysis"
    b = _three_seats(built("equipment_items", cid))
    play(b, cid, target=1)
    other = one(b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 2,
                      "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert hit(other) == 2 and b.seat(0).bonus_against == ((1, 2, cid),)
    marked = one(b.do({"type": "attack", "seat": 0, "card": "gun#2", "target": 1,
                       "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert hit(marked) == 4 and b.seat(0).bonus_against == ()


MISC_SCENARIOS.update({
    ("equipment_items", "tactical-scanner-enemy-analysis"): lambda: (
        _tactical_scanner(), _tactical_scanner_marks_one_target()
    ),
})  # fmt: skip


# --- R-ADD-157: arranging the top of the own deck --------------------------------------------


def _digital_with(card: CardDef) -> tuple[Battle, str]:
    """A seeded digital battle (R-ADD-18) past setup, seat 0 to act, holding `card`: the
    battle and the card's instance in the hand."""
    doc = {
        "name": "Compass yard", "board": {"name": "Compass yard", "shape": {"kind": "hexagon", "radius": 4}, "hexes": []},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "digital", "seed": 11},
        "policy": "prompt", "cards": [CARDS[FILLER], card.as_dict()],
        "seats": [
            {**seat(0, at=(0, 3), facing=1), "deck": deck(**{card.id: 15})},
            {**seat(1, at=(0, -3), facing=4), "deck": deck()},
        ],
    }  # fmt: skip
    b = Battle.create(doc)
    b.do({"type": "keep_hand", "seat": 0})
    b.do({"type": "keep_hand", "seat": 1})
    if b.state.active == 1:
        b.do({"type": "pass", "seat": 1})
    assert b.state.active == 0
    return b, next(x for x in b.seat(0).hand if x.startswith(card.id))


def _ancient_compass() -> None:
    """ "Look at top 3 cards of your deck, arrange them in any order.": the player sees the
    3 cards (only that seat and the GM do) and names their new order, top first; the rest
    of the deck stays (R-ADD-157)."""
    cid = "ancient-compass-true-path"
    card = built("equipment_items", cid)
    b, instance = _digital_with(card)
    deck = b.seat(0).deck
    events = b.do({"type": "play_card", "seat": 0, "card": instance})
    assert one(events, CardsLookedAt) == CardsLookedAt(0, deck[:3], cid)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (0, "arrange", 3, "R-ADD-157")
    assert b.refuse({"type": "pass", "seat": 0}).code == "prompt_pending"
    err = b.refuse({"type": "arrange", "seat": 0, "cards": list(deck[:2])})
    assert (err.code, err.rule) == ("wrong_arrange_count", "R-ADD-157")
    err = b.refuse({"type": "arrange", "seat": 0, "cards": [deck[0], deck[1], deck[3]]})
    assert (err.code, err.rule) == ("not_looked_at", "R-ADD-157")
    new = [deck[2], deck[0], deck[1]]
    events = b.do({"type": "arrange", "seat": 0, "cards": new})
    assert one(events, DeckArranged) == DeckArranged(0, tuple(new))
    assert b.seat(0).deck == (*new, *deck[3:]) and b.state.prompts == ()
    payload = {"seat": 0, "cards": list(deck[:3]), "source": cid}
    assert public_payload("CardsLookedAt", payload, {1}, full=False)["cards"] == [None] * 3
    assert public_payload("CardsLookedAt", payload, {0}, full=False)["cards"] == list(deck[:3])
    hidden = public_payload("DeckArranged", {"seat": 0, "order": new}, {1}, full=False)
    assert hidden["order"] == [None] * 3
    # The answers the legal actions offer are accepted.
    b, instance = _digital_with(card)
    b.do({"type": "play_card", "seat": 0, "card": instance})
    offered = [a.body for a in legal_actions(b.state)]
    assert {o["type"] for o in offered} == {"arrange"} and len(offered) == 2
    b.do(offered[1])
    # At a table the engine never knows the deck's order (R-ADD-18): nothing to record.
    t = battle(card)
    events = play(t, cid)
    assert not of_type(events, CardsLookedAt) and t.state.prompts == ()


def _market_forecast() -> None:
    """ "Look at top 3 cards of your deck. Rearrange them in any order. Spend 1 Credit
    token to draw 1 additional card.": the spend is the arrangement's answer, so the draw
    takes the card put on top (R-ADD-157, R-ADD-61)."""
    cid = "market-forecast"
    card = built("exchange", cid)
    b, instance = _digital_with(card)
    err = b.refuse({"type": "play_card", "seat": 0, "card": instance, "spend": True})
    assert (err.code, err.rule) == ("unused_argument", "R-ADD-61")  # spent in the answer
    deck = b.seat(0).deck
    play_body = {"type": "play_card", "seat": 0, "card": instance}
    assert one(b.do(play_body), PromptOpened).kind == "arrange"
    new = [deck[1], deck[2], deck[0]]
    err = b.refuse({"type": "arrange", "seat": 0, "cards": new, "spend": True})
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-61")
    tokens(b, "credit", 1)
    hand = len(b.seat(0).hand)
    events = b.do({"type": "arrange", "seat": 0, "cards": new, "spend": True})
    assert one(events, DeckArranged).order == tuple(new)
    assert one(events, TokensChanged).amount == -1 and b.seat(0).tokens_of("credit") == 0
    assert one(events, CardsDrawn).cards == (deck[1],)  # the card put on top
    assert len(b.seat(0).hand) == hand + 1 and b.seat(0).deck[:2] == (deck[2], deck[0])
    # Without the spend: arranged, nothing drawn.
    b, instance = _digital_with(card)
    b.do({"type": "play_card", "seat": 0, "card": instance})
    events = b.do({"type": "arrange", "seat": 0, "cards": list(b.seat(0).deck[:3])})
    assert not of_type(events, CardsDrawn) and not of_type(events, TokensChanged)
    # At a table: no cards to name, only the spend to say (R-ADD-18).
    t = battle(card)
    tokens(t, "credit", 1)
    prompt = one(play(t, cid), PromptOpened)
    assert (prompt.kind, prompt.amount) == ("arrange", 0)
    offered = [a.body for a in legal_actions(t.state)]
    assert {"type": "arrange", "seat": 0, "cards": [], "spend": True} in offered
    events = t.do({"type": "arrange", "seat": 0, "cards": [], "spend": True, "drawn": [FILLER]})
    drawn = one(events, CardsDrawn).cards
    assert len(drawn) == 1 and drawn[0].startswith(FILLER) and t.seat(0).tokens_of("credit") == 0


MISC_SCENARIOS.update({
    ("equipment_items", "ancient-compass-true-path"): _ancient_compass,
    ("exchange", "market-forecast"): _market_forecast,
})  # fmt: skip


# --- R-ADD-158: wrecks -------------------------------------------------------------------------


def _scavenge_wreckage() -> None:
    """ "Target a destroyed enemy wreck within 4 hexes. Gain 3 Soul Shards. That wreck is
    removed from play (cannot be scavenged again).": a defeated enemy's seat, within
    Ranged 1-4, scavenged once (R-ADD-158)."""
    cid = "scavenge-wreckage"
    card = built("ossuarium", cid)
    b = battle(card, gap=4)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1", "target": 1}
    err = b.refuse(body)  # seat 1 still fights: no wreck
    assert (err.code, err.rule) == ("not_a_wreck", "R-ADD-158")
    err = b.refuse({**body, "target": None})
    assert (err.code, err.rule) == ("target_required", "R-ADD-158")
    arrange(b, CasketDefeated(1, "arranged", "R-DMG-9"))
    events = b.do(body)
    assert one(events, WreckScavenged) == WreckScavenged(0, 1, cid)
    assert b.seat(0).tokens_of("soul_shard") == 3 and b.seat(1).wreck_removed
    arrange(b, CardsRecovered(0, (f"{cid}#1",), "arranged"))  # the card again, in hand
    err = b.refuse(body)
    assert (err.code, err.rule) == ("not_a_wreck", "R-ADD-158")
    far = battle(card, gap=5)
    arrange(far, CasketDefeated(1, "arranged", "R-DMG-9"))
    err = far.refuse(body)
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    offered = [a.body for a in legal_actions(far.state) if a.body.get("card") == f"{cid}#1"]
    assert offered == []  # too far: nothing offered
    near = battle(card, gap=2)
    arrange(near, CasketDefeated(1, "arranged", "R-DMG-9"))
    offered = [a.body for a in legal_actions(near.state) if a.body.get("card") == f"{cid}#1"]
    assert [o["target"] for o in offered] == [1]


MISC_SCENARIOS.update({
    ("ossuarium", "scavenge-wreckage"): _scavenge_wreckage,
})  # fmt: skip


# --- R-ADD-159: the enemy's choice; a skipped turn -------------------------------------------


def _economic_leverage() -> None:
    """ "Target enemy must choose: [1] Take 4 damage immediately, OR [2] Skip their next
    turn.": the target's player answers; the damage is taken without an attack, the skipped
    turn starts and ends at once (R-ADD-159)."""
    cid = "economic-leverage"
    card = built("exchange", cid)
    body = {"type": "play_card", "seat": 0, "card": f"{cid}#1", "target": 1}
    err = battle(card, gap=7).refuse(body)
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    err = battle(card).refuse({**body, "target": None})
    assert (err.code, err.rule) == ("target_required", "R-RNG-2")
    # [1] The damage, now: the chooser splits it (R-DMG-6), onto the damage pile (R-DMG-8).
    b = battle(card, gap=6, version="2.1")
    prompt = one(b.do(body), PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        1,
        "ultimatum",
        4,
        "R-ADD-159",
    )
    assert b.refuse({"type": "pass", "seat": 0}).code == "prompt_pending"
    err = b.refuse({"type": "choose", "seat": 0, "option": "damage"})
    assert err.code == "no_such_prompt"
    assert {a.body["option"] for a in legal_actions(b.state)} == {"damage", "skip_turn"}
    events = b.do({"type": "choose", "seat": 1, "option": "damage"})
    assert one(events, UltimatumAnswered) == UltimatumAnswered(1, "damage")
    damage = one(events, PromptOpened)
    assert (damage.seat, damage.kind, damage.amount, damage.component) == (
        1,
        "take_damage",
        4,
        None,
    )
    hp = b.seat(1).hp
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 4, "drawn": [FILLER] * 4})
    assert b.seat(1).hp == hp - 4 and len(b.seat(1).damage_pile) == 4
    assert b.state.active == 0 and b.state.prompts == () and not b.seat(1).skip_next_turn
    # [2] The next turn skipped: no SP, no draw, no actions; round 2 follows at once.
    b = battle(card, gap=6)
    b.do(body)
    b.do({"type": "choose", "seat": 1, "option": "skip_turn"})
    assert b.seat(1).skip_next_turn and b.state.active == 0
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [6, 1]})
    assert one(events, TurnSkipped) == TurnSkipped(1)
    after = events[events.index(one(events, TurnSkipped)) :]
    assert not [
        e for e in after if getattr(e, "seat", None) == 1 and e.type in ("SpRestored", "CardsDrawn")
    ]
    assert b.state.round == 2 and b.state.active == 0 and not b.seat(1).skip_next_turn


def _fae_bargain() -> None:
    """ "Deal 5 damage. Enemy may discard 2 cards from hand to reduce damage to 2.": on a
    hit the target chooses, before its reactive window; the cards given up go to the
    discard pile and the hit deals 2 before the defence dice (R-ADD-159)."""
    cid = "fae-bargain"
    check_attack("wyrd-conclave", cid, Attack(8, 5))  # a miss: no bargain
    card = built("wyrd-conclave", cid)
    for accept in (True, False):
        b = battle(card, gap=3)
        events = attack(b, card, faces=[3, 2])  # target number 5: a hit for 5
        prompt = one(events, PromptOpened)
        assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
            1,
            "bargain",
            2,
            "R-ADD-159",
        )
        assert {a.body["option"] for a in legal_actions(b.state)} == {"discard", "decline"}
        err = b.refuse({"type": "choose", "seat": 1, "option": "skip_turn"})
        assert (err.code, err.rule) == ("wrong_option", "R-ADD-159")
        answer = {"type": "choose", "seat": 1, "option": "discard", "cards": [FILLER]}
        err = b.refuse({**answer, "faces": [4, 4]})
        assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-159")
        if accept:
            events = b.do({**answer, "cards": [FILLER, FILLER], "faces": [4, 4]})
            gone = one(events, CardsDiscarded)
            assert (len(gone.from_hand), gone.rule) == (2, "R-ADD-159")
            assert one(events, HitDamageBargained) == HitDamageBargained(1, 2, cid)
            assert len(b.seat(1).discard) == 2 and len(b.seat(1).hand) == 4
        else:
            events = b.do({"type": "choose", "seat": 1, "option": "decline", "faces": [4] * 5})
            assert not of_type(events, HitDamageBargained)
        rolled = one(events, DefenceRolled)
        assert rolled.final_damage == (2 if accept else 5)


def _bargain_siphon() -> None:
    """ "Play when enemy attacks you. Offer bargain: "Miss this attack, give me 2 Bargain
    tokens." Enemy chooses. If they give tokens, attack misses. If they refuse, attack hits
    normally.": the attacker is asked only when it holds the tokens (R-ADD-159)."""
    cid = "bargain-siphon"
    card = built("wyrd-conclave", cid)
    assert card.kind == "reactive"
    maul = {"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
            "component": "chassis", "faces": [3, 2]}  # fmt: skip
    answer = {"type": "play_reactive", "seat": 0, "card": f"{cid}#1"}
    for option in ("pay", "decline", None):
        b = battle(card, first=1)
        if option is not None:
            arrange(b, TokensChanged(1, "bargain", 2, 2, "arranged"))
        b.do(maul)
        if option is None:  # nothing to pay with: the hit stands, the dice are rolled
            events = b.do({**answer, "faces": [4, 4]})
            assert not [e for e in events if e.type == "PromptOpened" and e.kind == "siphon"]
            assert one(events, DefenceRolled).final_damage == 2
            continue
        prompt = one(b.do(answer), PromptOpened)
        assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
            1,
            "siphon",
            2,
            "R-ADD-159",
        )
        assert {a.body["option"] for a in legal_actions(b.state)} == {"pay", "decline"}
        err = b.refuse({"type": "choose", "seat": 1, "option": "damage"})
        assert (err.code, err.rule) == ("wrong_option", "R-ADD-159")
        if option == "pay":
            events = b.do({"type": "choose", "seat": 1, "option": "pay"})
            assert one(events, HitBargainedAway) == HitBargainedAway(1, cid)
            assert one(events, AttackEnded).outcome == "miss" and not of_type(events, DefenceRolled)
            assert (b.seat(1).tokens_of("bargain"), b.seat(0).tokens_of("bargain")) == (0, 2)
            assert b.state.attack is None and f"{cid}#1" in b.seat(0).discard
        else:
            events = b.do({"type": "choose", "seat": 1, "option": "decline", "faces": [4, 4]})
            assert one(events, DefenceRolled).final_damage == 2 and not of_type(
                events, HitBargainedAway
            )
            assert b.seat(1).tokens_of("bargain") == 2


MISC_SCENARIOS.update({
    ("wyrd-conclave", "bargain-siphon"): _bargain_siphon,
    ("exchange", "economic-leverage"): _economic_leverage,
    ("wyrd-conclave", "fae-bargain"): _fae_bargain,
})  # fmt: skip


# --- the new effect kinds' validation -------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field", "rule"),
    [
        ({"kind": "unless_spent", "then": []}, "e.then", None),
        ({"kind": "unless_spent", "then": [{"kind": "move", "hexes": 1}]}, "e.then[0]", "R-ADD-65"),
        ({"kind": "discard_for", "n": 0, "then": [{"kind": "draw", "n": 1}]}, "e.n", "R-ADD-152"),
        ({"kind": "discard_for", "n": 1, "then": [{"kind": "attack", "range": "Melee", "damage": 2}]},
         "e.then[0]", "R-ADD-65"),
        ({"kind": "recover_named", "cards": []}, "e.cards", "R-ADD-153"),
        ({"kind": "recover_named", "cards": ["hand-axe-throw", "Hand Axe"]}, "e.cards[1]", "R-ADD-153"),
        ({"kind": "recover_named", "cards": ["hand-axe-throw"], "n": 0}, "e.n", "R-ADD-62"),
        ({"kind": "recover_named", "cards": "hand-axe-throw"}, "e.cards", "R-ADD-153"),
        ({"kind": "untargetable", "against": "melee"}, "e.against", None),
        ({"kind": "bonus_against", "damage": -1}, "e.damage", "R-DMG-1"),
        ({"kind": "bonus_against", "damage": 0}, "e", "R-ADD-156"),
        ({"kind": "arrange_top", "n": 1}, "e.n", "R-ADD-157"),
        ({"kind": "ultimatum", "damage": 0}, "e.damage", "R-ADD-159"),
        ({"kind": "damage_bargain", "cards": 0, "damage": 2}, "e.cards", "R-ADD-159"),
        ({"kind": "offer_miss", "pool": "gold", "n": 2}, "e.pool", None),
        ({"kind": "arrange_top", "n": 3, "then": [{"kind": "move", "hexes": 1}]}, "e.then[0]", "R-ADD-65"),
        ({"kind": "scavenge_wreck", "then": [{"kind": "move", "hexes": 1}]}, "e.then[0]", "R-ADD-65"),
        ({"kind": "look_at_hand", "cards": 3}, "e.cards", None),
        ({"kind": "untargetable", "until_attack": 1}, "e.until_attack", None),
    ],
)  # fmt: skip
def test_a_bad_field_of_a_misc_effect_names_its_path(
    doc: dict[str, Any], field: str, rule: str | None
) -> None:
    with pytest.raises(InvalidInput) as info:
        effect_from_dict(doc, "e")
    assert (info.value.field, info.value.rule) == (field, rule)


def _card(*effects: dict[str, Any]) -> dict[str, Any]:
    attack = {"kind": "attack", "range": "Melee", "damage": 4}
    return {"id": "test-or", "name": "Test Or", "kind": "other", "sp_cost": 1, "range": "Melee",
            "damage": 4, "automated": True, "effects": [attack, *effects]}  # fmt: skip


GAIN = {"kind": "gain_tokens", "pool": "credit", "n": 1}
BONUS = {"kind": "attack_bonus", "damage": 2, "to_hit": 0}


@pytest.mark.parametrize(
    ("effects", "field", "rule"),
    [
        # "OR" needs the spend it is the alternative of (R-ADD-151).
        ([{"kind": "unless_spent", "then": [GAIN]}], "card.effects[1]", "R-ADD-151"),
        # One optional cost per card, and one effect naming cards in `discard` (R-ADD-152).
        ([{"kind": "spend_tokens", "pool": "credit", "n": 1, "then": [BONUS]},
          {"kind": "discard_for", "n": 1, "then": [BONUS]}], "card.effects[2]", "R-ADD-152"),
        ([{"kind": "discard_for", "n": 1, "then": [BONUS]},
          {"kind": "discard_for", "n": 1, "then": [BONUS]}], "card.effects[2]", "R-ADD-152"),
        ([{"kind": "discard", "n": 1, "source": "choice"},
          {"kind": "discard_for", "n": 1, "then": [BONUS]}], "card.effects[2]", "R-ADD-152"),
    ],
)  # fmt: skip
def test_cards_refuse_misc_effects_that_cannot_work(
    effects: list[dict[str, Any]], field: str, rule: str
) -> None:
    with pytest.raises(InvalidInput) as info:
        card_from_dict(_card(*effects))
    assert (info.value.field, info.value.rule) == (field, rule)


def test_an_attack_bonus_bought_with_a_discard_needs_the_card_s_attack() -> None:
    """R-ADD-59: the bonus of an optional discard is its attack's."""
    doc = {**_card(), "effects": [{"kind": "discard_for", "n": 1, "then": [BONUS]}],
           "range": None, "damage": None}  # fmt: skip
    with pytest.raises(InvalidInput) as info:
        card_from_dict(doc)
    assert (info.value.field, info.value.rule) == ("card.effects[0]", "R-ADD-59")


def test_an_attack_command_carries_its_discard_and_round_trips() -> None:
    body = {"type": "attack", "seat": 0, "card": "x#1", "target": 1, "spend": True,
            "discard": ["chaff"]}  # fmt: skip
    command = parse_command(body)
    assert isinstance(command, AttackCommand) and command.discard == ("chaff",)
    assert command_body(command) == body
    with pytest.raises(InvalidInput) as info:
        parse_command({**body, "discard": "chaff"})
    assert info.value.field == "discard"


def test_a_choose_command_names_one_of_the_ultimatum_s_options() -> None:
    """R-ADD-159: the answer to an `ultimatum` prompt."""
    body = {"type": "choose", "seat": 1, "option": "skip_turn"}
    assert command_body(parse_command(body)) == body
    with pytest.raises(InvalidInput) as info:
        parse_command({**body, "option": "both"})
    assert (info.value.field, info.value.rule) == ("option", "R-ADD-159")
    bargain = {"type": "choose", "seat": 1, "option": "discard", "cards": ["chaff", "chaff"]}
    assert command_body(parse_command(bargain)) == bargain


def test_an_arrange_command_names_the_cards_in_their_new_order() -> None:
    """R-ADD-157: the answer to an `arrange` prompt."""
    body = {"type": "arrange", "seat": 1, "cards": ["b#2", "a#1"]}
    command = parse_command(body)
    assert command_body(command) == body
    with pytest.raises(InvalidInput) as info:
        parse_command({"type": "arrange", "seat": 1})
    assert info.value.field == "cards"


@pytest.mark.parametrize("key", sorted(MISC_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_catalogued_misc_card_does_what_its_text_says(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, MISC_SCENARIOS[key])
