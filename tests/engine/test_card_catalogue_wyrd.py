"""Scenarios for wyrd-conclave cards brought to the engine in card round 2 (R-ADD-420
onwards), played through decide/evolve with the helpers of test_card_catalogue.py. Each
scenario quotes the text it checks; `test_every_automated_entry_has_a_scenario_below`
counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackEnded,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CasketCursed,
    CasketDefeated,
    CurseLifted,
    DamageLooped,
    DamageReduced,
    DamageTaken,
    Event,
    LoopArmed,
    LoopReleased,
    PromptOpened,
    TokensChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef
from battles.engine.errors import RuleViolation

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import MAUL, arrange, battle, built, run_scenario, tokens

# The ruin hits (3, 2) and every defence die, one per damage, is a 4: no block (R-DMG-2).
FACES = [3, 2, *[4] * 24]
WYRD_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _price_paid_field(card: CardDef, bargain: int) -> tuple[Battle, list[Event]]:
    """Ruleset 2.1, table dice. Seat 0 holds only `card` in hand, 2 cards in its deck and
    the rest of its cards (7) in its discard pile, and `bargain` Bargain tokens; seat 1,
    adjacent to the north, acts first and hits it with a 24-damage ruin: lethal whatever
    the split (R-ADD-371). The attack's events are returned."""
    b = battle(card, first=1, version="2.1", opponent=("ruin",))
    c = b.seat(0)
    hand = tuple(x for x in c.hand if not x.startswith(card.id))
    rest = c.deck[:-2]
    keep = 7 - len(hand)
    arrange(b, DamageTaken(0, (), rest[:-keep], 0, None))  # lost for good (R-DMG-8)
    arrange(b, CardsDiscarded(0, hand, rest[-keep:], "arranged", "R-ADD-62"))
    if bargain:
        tokens(b, "bargain", bargain)
    c = b.seat(0)
    assert c.hand == (f"{card.id}#1",) and len(c.deck) == 2 and len(c.discard) == 7
    events = b.do({"type": "attack", "seat": 1, "card": "ruin#1", "target": 0,
                   "component": "chassis", "faces": FACES})  # fmt: skip
    return b, events


def _price_paid() -> None:
    """ "Play when you would die (deck reaches 0). Instead, spend ALL Bargain tokens you
    have. For each token spent, recover 3 cards from discard pile. If you have 0 tokens,
    you die normally. Survival has a cost. Always.", cost "0 SP (but costs Bargain tokens
    retroactively)": R-ADD-371's window on damage that would defeat its holder, played at
    0 SP; "instead" of dying, none of that damage is taken, every Bargain token is spent
    and 3 cards per token come back from the discard pile to the hand (R-ADD-420). With
    no token the card is not offered and the casket dies normally."""
    card = built("wyrd-conclave", "price-paid")
    assert card.sp_cost == 0 and card.kind == "reactive"
    b, events = _price_paid_field(card, 2)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "lethal_damage", "R-ADD-371")
    assert prompt.amount >= 10 and not of_type(events, AttackEnded)
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"} in bodies
    discard = b.seat(0).discard
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    reduced = one(events, DamageReduced)
    assert (reduced.seat, reduced.amount, reduced.source) == (0, prompt.amount, card.id)
    spent = one(events, TokensChanged)
    assert (spent.seat, spent.pool, spent.amount, spent.total) == (0, "bargain", -2, 0)
    recovered = [x for e in of_type(events, CardsRecovered) for x in e.cards]
    assert sorted(recovered) == sorted(discard[-6:])  # 3 per token, the newest first
    assert not of_type(events, DamageTaken) and one(events, AttackEnded).outcome == "hit"
    c = b.seat(0)
    assert c.in_battle and len(c.deck) == 2 and len(c.hand) == 6 and not b.state.prompts
    # One token: 3 cards.
    b, _ = _price_paid_field(card, 1)
    events = b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})
    assert len([x for e in of_type(events, CardsRecovered) for x in e.cards]) == 3
    assert one(events, TokensChanged).amount == -1 and b.seat(0).in_battle
    # No token: no window, the damage is split as usual and defeats the casket.
    b, events = _price_paid_field(card, 0)
    assert one(events, PromptOpened).kind == "take_damage"
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert not [x for x in bodies if x["type"] == "play_reactive"]
    with pytest.raises(RuleViolation):
        b.do({"type": "play_reactive", "seat": 0, "card": f"{card.id}#1"})


WYRD_SCENARIOS[("wyrd-conclave", "price-paid")] = _price_paid


def _curse_field(card: CardDef, last_faction: str | None) -> Battle:
    """Ruleset 2.1, table dice. Seat 0 (side "pack", at [0, 3] facing N) holds `card`;
    seat 1 (side "prey", at [0, 2] facing S) holds the test's Maul; seats 2 and 3 are seat
    1's allies 3 and 4 hexes north of it; seat 4, of faction `last_faction`, is seat 0's
    ally next to seat 1, with 1 HP left. Seat 0 acts first, the others in seat order."""
    cards = [CARDS[FILLER], MAUL, card.as_dict()]

    def at(n: int, hex_: tuple[int, int], facing: int, side: str) -> dict[str, Any]:
        return seat(n, at=hex_, facing=facing, side=side)

    last = at(4, (-1, 3), 5, "pack")
    if last_faction is not None:
        last["casket"] = {**last["casket"], "faction": last_faction}
    seats = [
        {**at(0, (0, 3), 1, "pack"), "deck": deck(**{card.id: 2})},
        {**at(1, (0, 2), 4, "prey"), "deck": deck(**{"test-maul": 2})},
        {**at(2, (0, -1), 4, "prey"), "deck": deck()},
        {**at(3, (0, -2), 4, "prey"), "deck": deck()},
        {**last, "deck": deck()},
    ]
    doc = {
        "name": "Curse", "board": {"name": "Curse", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.1", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *[FILLER] * 5], ["test-maul", *[FILLER] * 5], *([FILLER] * 6,) * 3]
    b = start(doc, hands, initiative=(6, 5, 4, 3, 2))
    c4 = b.seat(4)
    arrange(b, DamageTaken(4, c4.hand, c4.deck[:-1], 0, None))  # 1 HP left (R-DMG-9)
    return b


def _curse(b: Battle, card: CardDef) -> list[Event]:
    """Seat 0 hits seat 1 with `card` (no blocks), which takes the 2 from its hand; then
    seat 0 passes. The attack's events are returned."""
    events = b.do({"type": "attack", "seat": 0, "card": f"{card.id}#1", "target": 1,
                   "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    taken = [x for x in b.seat(1).hand if x.startswith(FILLER)][:2]
    events += b.do({"type": "take_damage", "seat": 1, "hand": taken, "deck": 0})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    assert b.state.active == 1 and len(b.seat(1).hand) == 4
    return events


def _drawn_at_pass(b: Battle, who: int, hand_left: int, drawn: int) -> int:
    """Seat `who`, whose turn it is, keeps `hand_left` cards in hand and passes, its table
    reporting `drawn` cards for its Draw phase (any other number drawn is refused, R-ADD-18):
    the cards it drew."""
    c = b.seat(who)
    assert b.state.active == who
    arrange(b, CardsDiscarded(who, c.hand[hand_left:], (), "arranged", "R-ADD-62"))
    events = b.do({"type": "pass", "seat": who, "drawn": [FILLER] * drawn})
    return sum(len(e.cards) for e in of_type(events, CardsDrawn) if e.seat == who)


def _fae_curse() -> None:
    """ "Deal 2 damage. Place "Fae Curse" on target (lasts until removed). Cursed targets:
    Draw 1 fewer card each turn (hand size 5 instead of 6). All allies within 3 hexes of
    cursed target also draw 1 fewer card (curse spreads). Curse removed when target kills
    a Wyrd unit. Malevolence spreads.": the hit curses the target for the rest of the
    battle; its Draw phase, and that of each of its allies within 3 hexes, fills the hand
    to 5; an ally 4 hexes away draws to 6. The curse is lifted when the cursed casket's
    attack destroys a casket of the Wyrd Conclave (or the one that cursed it), not another
    (R-ADD-421)."""
    card = built("wyrd-conclave", "fae-curse")
    b = _curse_field(card, None)
    events = _curse(b, card)
    assert one(events, CasketCursed) == CasketCursed(1, 0, card.id)
    assert one(events, AttackEnded).outcome == "hit" and b.seat(1).curses == ((0, card.id),)
    assert _drawn_at_pass(b, 1, 4, 1) == 1  # to 5, not 6
    assert _drawn_at_pass(b, 2, 2, 3) == 3  # 3 hexes from the cursed ally: to 5
    assert _drawn_at_pass(b, 3, 2, 4) == 4  # 4 hexes away: to 6
    # Seat 1 destroys a Wyrd casket: the curse is lifted, and it draws to 6 again.
    b = _curse_field(card, "wyrd-conclave")
    _curse(b, card)
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 4,
                   "component": "chassis", "faces": [3, 2, *[4] * 6], "drawn": [FILLER]})  # fmt: skip
    assert one(events, CasketDefeated).seat == 4
    assert one(events, CurseLifted) == CurseLifted(1, 4, card.id) and not b.seat(1).curses
    assert _drawn_at_pass(b, 1, 3, 3) == 3  # to 6
    # A casket of another faction destroyed lifts nothing.
    b = _curse_field(card, "church")
    _curse(b, card)
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 4,
                   "component": "chassis", "faces": [3, 2, *[4] * 6], "drawn": [FILLER]})  # fmt: skip
    assert one(events, CasketDefeated).seat == 4 and not of_type(events, CurseLifted)
    assert _drawn_at_pass(b, 1, 3, 2) == 2  # to 5


WYRD_SCENARIOS[("wyrd-conclave", "fae-curse")] = _fae_curse


def _loop_field(card: CardDef, blade: CardDef) -> Battle:
    """Ruleset 2.1, table dice. Seat 0 (side "a", at [0, 3] facing N) holds `card` and
    `blade`; seat 1 (side "b", adjacent to the north, facing S) holds the test's Maul;
    seat 2 (side "b") stands 7 hexes north of seat 0. Seat 0 acts first."""
    cards = [CARDS[FILLER], MAUL, card.as_dict(), blade.as_dict()]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="a"), "deck": deck(**{card.id: 1, blade.id: 1})},
        {**seat(1, at=(0, 2), facing=4, side="b"), "deck": deck(**{"test-maul": 2})},
        {**seat(2, at=(0, -4), facing=4, side="b"), "deck": deck()},
    ]
    doc = {
        "name": "Loop", "board": {"name": "Loop", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.1", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, blade.id, *[FILLER] * 4], ["test-maul", *[FILLER] * 5], [FILLER] * 6]
    return start(doc, hands, initiative=(6, 5, 4))


def _pass(b: Battle, who: int, **extra: Any) -> list[Event]:
    drawn = [FILLER] * (6 - len(b.seat(who).hand))
    return b.do({"type": "pass", "seat": who, "drawn": drawn, **extra})


def _temporal_loop() -> None:
    """ "Next damage you take this turn is stored in temporal loop. At start of your next
    turn, choose 1 enemy within 6 hexes - they take that stored damage instead. Redirect
    pain through time.": played in its owner's turn, the next damage the casket would take
    in that turn (here Paradox Blade's "you also take 2 damage") is stored, not taken; as
    its next turn starts the player chooses (prompt `temporal_loop`) among the enemies
    within 6 hexes (not the one 7 away), and that enemy takes it as damage without an
    attack (R-ADD-422). Unused by the turn's end, the loop lapses."""
    card = built("wyrd-conclave", "temporal-loop")
    blade = built("wyrd-conclave", "paradox-blade")
    b = _loop_field(card, blade)
    assert one(b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1"}), LoopArmed)
    events = b.do({"type": "attack", "seat": 0, "card": f"{blade.id}#1", "target": 1,
                   "component": "chassis", "faces": [3, 2, *[4] * 6],
                   "pay": {"hand": [f"{FILLER}#1", f"{FILLER}#2"], "deck": 0}})  # fmt: skip
    taken = list(b.seat(1).hand[1:6])
    events += b.do({"type": "take_damage", "seat": 1, "hand": taken, "deck": 1, "drawn": [FILLER]})
    assert one(events, DamageLooped) == DamageLooped(0, 2, card.id)
    assert not [e for e in of_type(events, DamageTaken) if e.seat == 0]
    _pass(b, 0)
    _pass(b, 1)
    events = b.do({"type": "pass", "seat": 2, "faces": [6, 1, 1]})  # round 2: seat 0 first
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (0, "temporal_loop", 2)
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert bodies == [{"type": "choose", "seat": 0, "option": "seat_1"}]  # seat 2 is 7 away
    assert b.refuse({"type": "choose", "seat": 0, "option": "seat_2"}).code == "wrong_option"
    events = b.do({"type": "choose", "seat": 0, "option": "seat_1"})
    assert one(events, LoopReleased) == LoopReleased(0, 1, 2, card.id)
    damage = one(events, PromptOpened)
    assert (damage.seat, damage.kind, damage.amount) == (1, "take_damage", 2)
    assert not b.seat(0).loop_stored
    # Unused in its turn, the loop lapses: the enemy's attack next turn is taken.
    b = _loop_field(card, blade)
    b.do({"type": "play_card", "seat": 0, "card": f"{card.id}#1"})
    _pass(b, 0)
    assert not b.seat(0).loop_armed
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                   "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    assert not of_type(events, DamageLooped) and one(events, PromptOpened).kind == "take_damage"


WYRD_SCENARIOS[("wyrd-conclave", "temporal-loop")] = _temporal_loop


@pytest.mark.parametrize("key", sorted(WYRD_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_wyrd_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, WYRD_SCENARIOS[key])
