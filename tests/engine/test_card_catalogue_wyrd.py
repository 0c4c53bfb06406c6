"""Scenarios for wyrd-conclave cards brought to the engine in card round 2 (R-ADD-420
onwards), played through decide/evolve with the helpers of test_card_catalogue.py. Each
scenario quotes the text it checks; `test_every_automated_entry_has_a_scenario_below`
counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import (
    AttackEnded,
    CardsDiscarded,
    CardsRecovered,
    DamageReduced,
    DamageTaken,
    Event,
    PromptOpened,
    TokensChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef
from battles.engine.errors import RuleViolation

from .battle_builder import Battle, of_type, one
from .test_card_catalogue import arrange, battle, built, run_scenario, tokens

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


@pytest.mark.parametrize("key", sorted(WYRD_SCENARIOS), ids=lambda k: f"{k[0]}/{k[1]}")
def test_wyrd_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, WYRD_SCENARIOS[key])
