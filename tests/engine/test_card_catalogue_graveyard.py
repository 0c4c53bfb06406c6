"""Scenarios for the catalogue entries that take cards back from the Damage Graveyard,
answer lethal damage with hit points, or gain and spend Scrap tokens (the second card
round, R-ADD-440 to R-ADD-449),
played through decide/evolve with the helpers of test_card_catalogue.py; each card is built
from its own database entry, and each scenario quotes the text it checks.
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from battles.engine.battle.events import (
    AttackEnded,
    CardPlayed,
    CardsDiscarded,
    CardsRecovered,
    CardsRestored,
    DamageReduced,
    DamageTaken,
    DamageUntilDiscards,
    Event,
    PromptOpened,
    TokensChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import CardDef
from battles.sentences import Names, describe, plain

from .battle_builder import FILLER, Battle, of_type, one
from .test_card_catalogue import (
    arrange,
    battle,
    built,
    play,
    resolve_hit,
    run_scenario,
    tokens,
)

GRAVEYARD_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

ITEMS = "equipment_items"
REANIMATE = "staff-of-the-grave-reanimate"


def _reanimate() -> None:
    """ "Recover 5 cards from your Damage Graveyard to discard pile, gain 2 Taint" (cost 4,
    no range): under ruleset 2.1 the rules' Damage Graveyard is the damage pile (R-DMG-8):
    the 5 cards most recently lost to damage go back to the discard pile, newest first, and
    count as hit points again (R-DMG-9); with fewer there, all of them; the pilot gains 2
    Taint. Under 2.0 there is no damage pile: nothing moves, the Taint still comes
    (R-ADD-440)."""
    card = built(ITEMS, REANIMATE)
    b = battle(card, version="2.1")
    c = b.seat(0)
    lost = c.deck[:7]  # the top 7 of its deck lost to damage, oldest first
    arrange(b, DamageTaken(0, (), lost, 0, None))
    assert b.seat(0).damage_pile == lost
    hp, taint = len(b.seat(0).deck) + len(b.seat(0).discard), b.seat(0).taint
    events = play(b, card.id)
    assert one(events, CardPlayed).cost == 4
    restored = one(events, CardsRestored)
    newest = tuple(reversed(lost))[:5]
    assert restored == CardsRestored(0, newest, card.name, "R-ADD-440")
    after = b.seat(0)
    assert after.damage_pile == lost[:2] and set(newest) <= set(after.discard)
    # the played card joins the discard pile too: HP = deck + discard (R-DMG-9)
    assert len(after.deck) + len(after.discard) == hp + 5 + 1
    assert after.taint == taint + 2
    words = plain(describe("CardsRestored", dataclasses.asdict(restored),
                           Names({0: "Oak"}, {}, {})))  # fmt: skip
    assert "out of the damage pile into the discard pile" in words and "R-ADD-440" in words
    # Fewer than 5 in the pile: all of them.
    b = battle(card, version="2.1")
    two = b.seat(0).deck[:2]
    arrange(b, DamageTaken(0, (), two, 0, None))
    assert one(play(b, card.id), CardsRestored).cards == tuple(reversed(two))
    assert b.seat(0).damage_pile == ()
    # Under 2.0 damage discards go to the discard pile already: nothing to recover.
    b = battle(card)
    arrange(b, DamageTaken(0, (), b.seat(0).deck[:3], 0, None))
    taint = b.seat(0).taint
    events = play(b, card.id)
    assert not of_type(events, CardsRestored) and b.seat(0).taint == taint + 2


GRAVEYARD_SCENARIOS[(ITEMS, REANIMATE)] = _reanimate


TRANSFUSION = "blood-vial-cache-emergency-transfusion"


def _lethal_field(card: CardDef, deck_left: int, *, lost_hand: bool = True) -> Battle:
    """Ruleset 2.1, table dice, seat 1 first. Seat 0 keeps `card` in hand (with the rest of
    its hand unless `lost_hand`), `deck_left` cards in its deck and none in its discard
    pile: the rest lost to damage, on the damage pile (R-DMG-8), oldest first."""
    b = battle(card, first=1, version="2.1")
    c = b.seat(0)
    hand = tuple(x for x in c.hand if not x.startswith(card.id)) if lost_hand else ()
    arrange(b, DamageTaken(0, hand, c.deck[:-deck_left], 0, None))
    assert len(b.seat(0).deck) == deck_left and not b.seat(0).discard
    return b


def _maul(b: Battle) -> list[Event]:
    """Seat 1 hits seat 0 with the maul for 2 (every defence die BLOOD: no block)."""
    return b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                 "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip


def _emergency_transfusion() -> None:
    """ "When you would take fatal damage, prevent it and set HP to 5 cards. Remove this
    card from game after use." (typed Reactive, 0 SP): R-ADD-371's window for damage that
    would defeat its holder whatever the split; played, the whole of that damage is
    prevented, and the casket's hit points (deck and discard pile, R-DMG-9), fewer than 5,
    are made 5 with the cards most recently lost to damage, out of the Damage Graveyard
    into the discard pile (R-ADD-440); the card leaves the game (R-ADD-70, R-ADD-441)."""
    card = built(ITEMS, TRANSFUSION)
    instance = f"{TRANSFUSION}#1"
    b = _lethal_field(card, 1)  # 1 card in hand + 1 in the deck: 2 damage is lethal
    pile = b.seat(0).damage_pile
    events = _maul(b)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (0, "lethal_damage", 2)
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "play_reactive", "seat": 0, "card": instance} in bodies
    events = b.do({"type": "play_reactive", "seat": 0, "card": instance})
    assert one(events, DamageReduced) == DamageReduced(0, 2, TRANSFUSION)
    assert not of_type(events, DamageTaken) and one(events, AttackEnded).outcome == "hit"
    restored = one(events, CardsRestored)
    assert restored == CardsRestored(0, tuple(reversed(pile))[:4], card.name, "R-ADD-441")
    c = b.seat(0)
    assert c.in_battle and len(c.deck) + len(c.discard) == 5  # HP set to 5 cards
    assert instance in c.removed and instance not in c.discard
    # Declined: the damage is split as usual and defeats the casket.
    b = _lethal_field(card, 1)
    _maul(b)
    assert one(b.do({"type": "no_reactive", "seat": 0}), PromptOpened).kind == "take_damage"
    b.do({"type": "take_damage", "seat": 0, "hand": [instance], "deck": 1,
          "drawn": [b.seat(0).deck[0].split("#")[0]], "faces": [4]})  # fmt: skip
    assert b.seat(0).defeated
    # Damage the hand can absorb is not fatal: no window.
    b = _lethal_field(card, 1, lost_hand=False)
    assert one(_maul(b), PromptOpened).kind == "take_damage"


GRAVEYARD_SCENARIOS[(ITEMS, TRANSFUSION)] = _emergency_transfusion


def _phylactery_field(shards: int) -> Battle:
    """Ruleset 2.1. Seat 0 plays Phylactery (0 SP) in its turn and passes; then, its hand
    and all but 1 card of its deck lost to damage and `shards` Soul Shards held, seat 1
    is to be hit with the maul for 2: lethal (R-DMG-9)."""
    card = built("ossuarium", PHYLACTERY)
    b = battle(card, version="2.1")
    events = play(b, card.id)
    assert one(events, CardPlayed).cost == 0 and f"{PHYLACTERY}#1" in b.seat(0).in_play
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    c = b.seat(0)
    arrange(b, DamageTaken(0, c.hand, c.deck[:-1], 0, None))
    tokens(b, "soul_shard", shards)
    assert not b.seat(0).hand and len(b.seat(0).deck) == 1 and not b.seat(0).discard
    return b


PHYLACTERY = "phylactery"


def _phylactery() -> None:
    """ "Passive: The first time you would be reduced to 0 HP, if you have 5+ Soul Shards,
    automatically spend 5 Shards to recover to 3 HP. Gain 5 Taint. Once per mission only.":
    played in its owner's turn, it waits in play; damage that would defeat the casket
    (R-ADD-371's lethal) finds it and, with 5 Soul Shards held, is negated whole, the 5
    Shards are spent, the casket's hit points (R-DMG-9) are brought to 3 with the cards
    most recently lost to damage (R-ADD-440) and the pilot gains 5 Taint; the card then
    leaves play for the discard pile, and plays once a battle (R-ADD-63, R-ADD-441).
    With 4 Shards nothing is saved."""
    instance = f"{PHYLACTERY}#1"
    b = _phylactery_field(5)
    taint = b.seat(0).taint
    events = _maul(b)
    assert one(events, DamageReduced) == DamageReduced(0, 2, instance, "R-ADD-391")
    assert b.seat(0).tokens_of("soul_shard") == 0
    assert len(one(events, CardsRestored).cards) == 2  # 1 in the deck + 2: 3 HP
    c = b.seat(0)
    assert c.in_battle and not c.defeated and instance in c.discard
    assert len(c.deck) + len(c.discard) == 3 + 1  # and the card itself, out of play
    assert c.taint == taint + 5 and f"battle:{PHYLACTERY}" in c.limited_plays
    b = _phylactery_field(4)
    drawn = [b.seat(0).deck[0].split("#")[0]]  # the table knows its deck order
    events = b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
                   "component": "chassis", "faces": [3, 2, 4, 4, 4], "drawn": drawn})  # fmt: skip
    assert not of_type(events, DamageReduced) and not of_type(events, CardsRestored)
    assert b.seat(0).defeated and b.seat(0).tokens_of("soul_shard") == 4


GRAVEYARD_SCENARIOS[("ossuarium", PHYLACTERY)] = _phylactery


SALVAGE = "scavenger-s-toolkit-field-salvage"
REPAIR = "scavenger-s-toolkit-improvised-repair"


def _gun_kill(b: Battle, drawn: list[str]) -> list[Event]:
    """Seat 0's gun hits seat 1, left with 1 HP, for 2: seat 1 is defeated (R-DMG-9,
    survival face 4); the table reports seat 1's lost card, then `drawn` (R-TRN-6)."""
    arrange(b, DamageTaken(1, (), b.seat(1).deck[:-1], 0, None))
    events = b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                   "component": "chassis", "faces": [3, 2, 4, 4]})  # fmt: skip
    lost = b.seat(1).deck[0].split("#")[0]
    events += b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2,
                    "drawn": [lost, *drawn], "faces": [4]})  # fmt: skip
    assert b.seat(1).defeated
    return events


def _field_salvage() -> None:
    """ "When enemy is destroyed, gain 1 Scrap token and draw 1 card." (cost 1, Self): the
    whole text a standing trigger, the card stays in play once played (R-ADD-68) and each
    enemy casket destroyed, at any distance (R-ADD-131), gives its owner 1 Scrap token, a
    battle token pool (R-ADD-61, R-ADD-442), and a draw (R-TRN-6); a card not in play
    gives nothing."""
    card = built(ITEMS, SALVAGE)
    for played in (True, False):
        b = battle(card, hand=("gun",), version="2.1")
        if played:
            assert one(play(b, card.id), CardPlayed).cost == 1
            assert f"{SALVAGE}#1" in b.seat(0).in_play
        hand = len(b.seat(0).hand)
        events = _gun_kill(b, drawn=[FILLER] if played else [])
        assert b.seat(0).tokens_of("scrap") == (1 if played else 0)
        assert len(b.seat(0).hand) == hand - 1 + (1 if played else 0)  # the gun played
        gained = [e for e in of_type(events, TokensChanged) if e.pool == "scrap"]
        assert gained == ([TokensChanged(0, "scrap", 1, 1, card.id)] if played else [])


GRAVEYARD_SCENARIOS[(ITEMS, SALVAGE)] = _field_salvage


def _improvised_repair() -> None:
    """ "Spend 1 Scrap token: Recover 3 cards from discard pile." (cost 2, Self): the spend
    is the card's price (R-ADD-61's `spend_required`); paid, the 3 newest cards of the
    discard pile go back to the hand (R-ADD-62). Without a Scrap token it cannot be played
    (`not_enough_tokens`); Field Salvage is what gains them (R-ADD-442)."""
    card = built(ITEMS, REPAIR)
    b = battle(card)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:4]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    body = {"type": "play_card", "seat": 0, "card": f"{REPAIR}#1", "spend": True}
    assert b.refuse(body).code == "not_enough_tokens"
    assert b.refuse({**body, "spend": False}).code == "spend_required"
    tokens(b, "scrap", 1)
    bodies = [a.body for a in legal_actions(b.state, [0])]
    assert body in bodies and {**body, "spend": False} not in bodies
    events = b.do(body)
    assert one(events, CardPlayed).cost == 2 and b.seat(0).tokens_of("scrap") == 0
    assert one(events, CardsRecovered).cards == tuple(reversed(junk))[:3]
    assert set(tuple(reversed(junk))[:3]) <= set(b.seat(0).hand)


GRAVEYARD_SCENARIOS[(ITEMS, REPAIR)] = _improvised_repair


PLAGUE = "staff-of-the-grave-plague"


def _plague_turn(b: Battle) -> list[PromptOpened]:
    """Seat 0 passes; seat 1's turn starts: the take_damage prompts it opens."""
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    return [p for p in of_type(events, PromptOpened) if p.kind == "take_damage"]


def _plague_next_round(b: Battle) -> None:
    drawn = [FILLER] * (6 - len(b.seat(1).hand))
    b.do({"type": "pass", "seat": 1, "faces": [6, 1], "drawn": drawn})
    assert b.state.active == 0


def _plague() -> None:
    """ "Deal 2 damage, ongoing: target takes 2 damage at start of their turn until they
    discard 3 cards total" (cost 4, Ranged 3-6): the hit gives the target 2 damage at the
    start of each of its turns (R-ADD-73's scheduled damage) until it has discarded 3
    cards since: a card's or a cost's discard, or cards paid for overspending, count;
    damage it takes does not (R-ADD-144, R-DMG-8), so the plague's own damage never ends
    it (R-ADD-443)."""
    card = built(ITEMS, PLAGUE)
    b = battle(card, gap=3, version="2.1")
    events = resolve_hit(b, card, 2, kill=False)
    assert one(events, DamageUntilDiscards) == DamageUntilDiscards(1, 2, 3, PLAGUE)
    assert b.seat(1).damage_until_discards == ((2, 3),)
    words = plain(describe("DamageUntilDiscards", dataclasses.asdict(one(events, DamageUntilDiscards)),
                           Names({1: "Ash"}, {}, {})))  # fmt: skip
    assert "2 damage at the start of each of their turns" in words and "3 cards" in words
    for _ in range(2):  # damage taken is no discard: it goes on
        prompts = _plague_turn(b)
        assert [(p.seat, p.amount) for p in prompts] == [(1, 2)]
        assert "R-ADD-73" in prompts[0].reason
        b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
        assert b.seat(1).damage_until_discards == ((2, 3),)
        _plague_next_round(b)
    hand = b.seat(1).hand
    arrange(b, CardsDiscarded(1, hand[:2], (), "arranged", "R-ADD-14"))
    assert b.seat(1).damage_until_discards == ((2, 1),)  # 2 of the 3 discarded
    prompts = _plague_turn(b)
    assert [(p.seat, p.amount) for p in prompts] == [(1, 2)]
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    arrange(b, CardsDiscarded(1, b.seat(1).hand[:1], (), "arranged", "R-ADD-14"))
    assert b.seat(1).damage_until_discards == ()  # the third: it ends
    _plague_next_round(b)
    assert _plague_turn(b) == []


GRAVEYARD_SCENARIOS[(ITEMS, PLAGUE)] = _plague


@pytest.mark.parametrize("key", sorted(GRAVEYARD_SCENARIOS), ids="/".join)
def test_graveyard_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, GRAVEYARD_SCENARIOS[key])
