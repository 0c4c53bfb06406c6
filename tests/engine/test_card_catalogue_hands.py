"""Scenarios for the catalogue entries that pick from an enemy's hand after looking at it
(R-ADD-385, R-ADD-386) and for a reactive card preventing a whole Component Damage
(R-ADD-387), played through decide/evolve with the helpers of test_card_catalogue.py. Each
scenario quotes the text it checks; `test_every_automated_entry_has_a_scenario_below`
counts them with the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

import pytest

from battles.engine.battle.autoplay import choose
from battles.engine.battle.events import (
    AttackEnded,
    CardsDiscarded,
    CardsRecovered,
    CardsStolen,
    ComponentDamaged,
    ComponentDamagePrevented,
    Event,
    HandRevealed,
    PromptClosed,
    PromptOpened,
    TokensChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.battle.view import public_payload
from battles.engine.cards import LookAtHandEffect, PreventComponentDamageEffect, effect_from_dict
from battles.engine.errors import InvalidInput

from .battle_builder import FILLER, Battle, of_type, one
from .test_card_catalogue import arrange, battle, built, play, run_scenario, tokens

HANDS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}

SCAN = "targeting-sigil-weak-point-scan"


def _scan_battle(gap: int = 1) -> Battle:
    """Seat 0 holds Weak Point Scan; seat 1, `gap` hexes away, holds a Gun among its cards."""
    return battle(built("equipment_items", SCAN), gap=gap, opponent=("gun",))


def _weak_point_scan() -> None:
    """ "Look at target's hand, choose 1 card to discard": any enemy in the battle (no
    printed range, R-ADD-385), its hand seen by the two seats only (R-ADD-28); the
    player, not the target, picks the card the target discards."""
    b = _scan_battle(gap=9)  # far beyond any printed range: the card prints none
    err = b.refuse({"type": "play_card", "seat": 0, "card": f"{SCAN}#1"})
    assert (err.code, err.rule) == ("target_required", "R-RNG-2")
    err = b.refuse({"type": "play_card", "seat": 0, "card": f"{SCAN}#1", "target": 0})
    assert err.code == "not_an_enemy"
    hand = b.seat(1).hand
    assert "gun#1" in hand
    events = play(b, SCAN, target=1)
    shown = one(events, HandRevealed)
    assert (shown.seat, shown.target, shown.cards) == (0, 1, hand)
    payload = {"seat": 0, "target": 1, "cards": list(hand), "source": SCAN}
    assert public_payload("HandRevealed", payload, {1}, full=False)["cards"] == list(hand)
    assert public_payload("HandRevealed", payload, {2}, full=False)["cards"] == [None] * len(hand)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        0,
        "hand_pick",
        1,
        "R-ADD-385",
    )
    # The target may not answer it, nor may the player name a card of another hand.
    err = b.refuse({"type": "choose", "seat": 1, "option": "pick", "cards": ["gun#1"]})
    assert err.code == "no_such_prompt"
    own = next(x for x in b.seat(0).hand if x not in hand)
    err = b.refuse({"type": "choose", "seat": 0, "option": "pick", "cards": [own]})
    assert (err.code, err.rule) == ("card_not_in_hand", "R-ADD-385")
    err = b.refuse({"type": "choose", "seat": 0, "option": "pick", "cards": list(hand[:2])})
    assert (err.code, err.rule) == ("wrong_discard_count", "R-ADD-385")
    err = b.refuse({"type": "choose", "seat": 0, "option": "keep"})
    assert (err.code, err.rule) == ("wrong_option", "R-ADD-385")
    picks = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "choose", "seat": 0, "option": "pick", "cards": [hand[-1]]} in picks
    assert all(p["type"] == "choose" for p in picks)
    events = b.do({"type": "choose", "seat": 0, "option": "pick", "cards": ["gun"]})
    assert one(events, PromptClosed) == PromptClosed(0, "hand_pick")
    lost = one(events, CardsDiscarded)
    assert lost == CardsDiscarded(1, ("gun#1",), (), "Weak Point Scan", "R-ADD-385")
    assert "gun#1" not in b.seat(1).hand and b.seat(1).discard[-1] == "gun#1"
    assert len(b.seat(1).hand) == len(hand) - 1 and not b.state.prompts


def _weak_point_scan_empty_hand() -> None:
    """An empty hand is looked at and loses nothing: no prompt opens (R-ADD-385)."""
    b = _scan_battle()
    arrange(b, CardsDiscarded(1, b.seat(1).hand, (), "arranged", "R-TRN-7"))
    events = play(b, SCAN, target=1)
    assert one(events, HandRevealed).cards == () and not b.state.prompts
    assert not [e for e in events if isinstance(e, PromptOpened | CardsDiscarded)]


def _weak_point_scan_bot() -> None:
    """The autoplayer answers the prompt with a pick of the hand looked at (R-ADD-385)."""
    b = _scan_battle()
    hand = b.seat(1).hand
    play(b, SCAN, target=1)
    body = choose(b.state, list(legal_actions(b.state, [0])), random.Random(0))
    assert body["option"] == "pick" and body["cards"][0] in hand
    assert one(b.do(body), CardsDiscarded).seat == 1


HANDS_SCENARIOS[("equipment_items", SCAN)] = lambda: (
    _weak_point_scan(),
    _weak_point_scan_empty_hand(),
    _weak_point_scan_bot(),
)


ESPIONAGE = "corporate-espionage"


def _espionage_battle(credits: int) -> Battle:
    """Seat 0 holds Corporate Espionage and a Gun, and `credits` Credit tokens; seat 1,
    adjacent, holds a Gun of its own (both numbered gun#1)."""
    b = battle(built("exchange", ESPIONAGE), hand=("gun",), opponent=("gun",))
    if credits:
        tokens(b, "credit", credits)
    return b


def _corporate_espionage() -> None:
    """ "Look at target enemy's hand (see all their cards). Spend 2 Credit tokens to steal
    1 card from their hand and add it to yours.": the spend is decided after the look;
    the stolen card is the thief's own from then on, which only the two seats see
    (R-ADD-28, R-ADD-386)."""
    far = battle(built("exchange", ESPIONAGE), gap=7)
    err = far.refuse({"type": "play_card", "seat": 0, "card": f"{ESPIONAGE}#1", "target": 1})
    assert (err.code, err.rule) == ("out_of_range", "R-RNG-2")
    b = _espionage_battle(3)
    hand = b.seat(1).hand
    assert "gun#1" in hand and "gun#1" in b.seat(0).hand
    events = play(b, ESPIONAGE, target=1)
    assert one(events, HandRevealed).cards == hand
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount, prompt.rule) == (
        0,
        "hand_pick",
        1,
        "R-ADD-386",
    )
    picks = [a.body for a in legal_actions(b.state, [0])]
    assert {"type": "choose", "seat": 0, "option": "decline"} in picks
    assert {"type": "choose", "seat": 0, "option": "pick", "cards": [hand[-1]]} in picks
    err = b.refuse({"type": "choose", "seat": 0, "option": "decline", "cards": ["gun#1"]})
    assert err.code == "unused_argument"
    events = b.do({"type": "choose", "seat": 0, "option": "pick", "cards": ["gun#1"]})
    assert one(events, TokensChanged) == TokensChanged(0, "credit", -2, 1, ESPIONAGE)
    # The thief holds a gun#1 already: the stolen Gun is numbered anew.
    stolen = one(events, CardsStolen)
    assert stolen == CardsStolen(0, 1, ("gun#1",), ("gun#2",), ESPIONAGE)
    assert "gun#1" not in b.seat(1).hand and len(b.seat(1).hand) == len(hand) - 1
    assert b.seat(0).hand[-1] == "gun#2" and b.seat(0).tokens_of("credit") == 1
    payload = {
        "seat": 0,
        "target": 1,
        "cards": ["gun#1"],
        "as_cards": ["gun#2"],
        "source": ESPIONAGE,
    }
    for viewer in ({0}, {1}):
        assert public_payload("CardsStolen", payload, viewer, full=False)["cards"] == ["gun#1"]
    other = public_payload("CardsStolen", payload, {2}, full=False)
    assert other == {
        "seat": 0,
        "target": 1,
        "source": ESPIONAGE,
        "cards": [None],
        "as_cards": [None],
    }
    # Its own card now: the thief attacks with it, and it goes to the thief's discard pile.
    attacked = b.do({"type": "attack", "seat": 0, "card": "gun#2", "target": 1,
                     "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert one(attacked, AttackEnded) and b.seat(0).discard[-1] == "gun#2"


def _corporate_espionage_declined() -> None:
    """Declining the spend takes nothing and spends nothing; a seat without the 2 tokens
    only looks (R-ADD-61, R-ADD-386)."""
    b = _espionage_battle(2)
    hand = b.seat(1).hand
    play(b, ESPIONAGE, target=1)
    events = b.do({"type": "choose", "seat": 0, "option": "decline"})
    assert events == [PromptClosed(0, "hand_pick")]
    assert b.seat(1).hand == hand and b.seat(0).tokens_of("credit") == 2
    poor = _espionage_battle(1)
    events = play(poor, ESPIONAGE, target=1)
    assert one(events, HandRevealed) and not poor.state.prompts
    assert not [e for e in events if isinstance(e, PromptOpened | CardsStolen)]
    # The bot takes the first pick offered, the newest card of that hand.
    bot = _espionage_battle(2)
    newest = bot.seat(1).hand[-1]
    play(bot, ESPIONAGE, target=1)
    body = choose(bot.state, list(legal_actions(bot.state, [0])), random.Random(0))
    assert (body["option"], body["cards"]) == ("pick", [newest])
    assert one(bot.do(body), CardsStolen).cards == (newest,)


HANDS_SCENARIOS[("exchange", ESPIONAGE)] = lambda: (
    _corporate_espionage(),
    _corporate_espionage_declined(),
)


WELD = "emergency-repair-kit-emergency-weld"


def _welded(played: bool, weapons: int, faces: tuple[int, int]) -> tuple[Battle, list[Event]]:
    """Seat 1 hits seat 0's chassis with a Melee 2 attack; seat 0 answers with Emergency
    Weld (or no reactive card), rolls `faces` for defence (4, 4: BLOOD, no block; 5:
    PIERCE, R-DMG-2, R-DMG-4) and takes the 2 damage discarding `weapons` Primary Weapon
    cards from its hand (R-DMG-6: 1 Component Damage each). Seat 0's discard pile holds 4
    cards before the attack."""
    b = battle(built("equipment_items", WELD), first=1, hand=("blade", "gun"))
    arrange(b, CardsDiscarded(0, (), tuple(b.seat(0).deck[:4]), "arranged", "R-TRN-7"))
    assert len(b.seat(0).discard) == 4
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [p.kind for p in b.state.prompts] == ["reactive"]
    answer = {"type": "play_reactive", "seat": 0, "card": f"{WELD}#1"} if played else {
        "type": "no_reactive", "seat": 0}  # fmt: skip
    events = b.do({**answer, "faces": list(faces)})
    blades = ["blade#1", "gun#1"][:weapons]
    events += b.do({"type": "take_damage", "seat": 0, "hand": blades, "deck": 2 - weapons,
                    "drawn": [FILLER] * (2 - weapons)})  # fmt: skip
    assert b.state.attack is None
    return b, events


def _emergency_weld() -> None:
    """ "When you would take Component Damage, prevent it. Recover 3 cards from discard.
    Remove this card from game after use.": in answer to an attack (R-ADD-281), the first
    Component Damage it deals is prevented whole, once; 3 cards come back as it is played;
    then it leaves the game (R-ADD-70, R-ADD-387)."""
    for played, weapons, faces, prevented, taken in (
        (False, 1, (4, 4), 0, 1),
        (True, 0, (4, 4), 0, 0),  # no Component Damage: nothing to prevent
        (True, 1, (4, 4), 1, 0),
        (True, 2, (4, 4), 2, 0),  # both Primary Weapon cards: one Component Damage of 2
        (True, 2, (5, 4), 0, 2),  # PIERCE voids it
    ):
        b, events = _welded(played, weapons, faces)
        key = (played, weapons, faces)
        cut = of_type(events, ComponentDamagePrevented)
        assert [(e.component, e.amount, e.source, e.rule) for e in cut] == (
            [("chassis", prevented, f"{WELD}#1", "R-ADD-281")] if prevented else []
        ), key
        assert sum(e.amount for e in of_type(events, ComponentDamaged)) == taken, key
        recovered = of_type(events, CardsRecovered)
        assert [len(e.cards) for e in recovered] == ([3] if played else []), key
        assert (f"{WELD}#1" in b.seat(0).removed) == played, key
        assert f"{WELD}#1" not in b.seat(0).discard, key


HANDS_SCENARIOS[("equipment_items", WELD)] = _emergency_weld


def test_the_pick_option_round_trips_and_is_bounded() -> None:
    assert effect_from_dict({"kind": "look_at_hand", "discard": 1}) == LookAtHandEffect(1)
    assert effect_from_dict({"kind": "look_at_hand"}) == LookAtHandEffect()
    with pytest.raises(InvalidInput, match=r"look_at_hand\.discard"):
        LookAtHandEffect(7)
    steal = {"kind": "look_at_hand", "steal": 1, "pool": "credit", "price": 2}
    assert effect_from_dict(steal) == LookAtHandEffect(steal=1, pool="credit", price=2)
    whole = {"kind": "prevent_component_damage", "n": "all"}
    assert effect_from_dict(whole) == PreventComponentDamageEffect("all")
    with pytest.raises(InvalidInput, match=r"look_at_hand\.price"):
        LookAtHandEffect(discard=1, pool="credit", price=2)
    with pytest.raises(InvalidInput, match=r"look_at_hand\.pool"):
        LookAtHandEffect(steal=1, pool="gold", price=2)


@pytest.mark.parametrize("key", sorted(HANDS_SCENARIOS), ids="/".join)
def test_hands_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, HANDS_SCENARIOS[key])


def test_policy_auto_discards_the_newest_card_and_steals_nothing() -> None:
    """Policy `auto` answers at once: Weak Point Scan's target discards the newest card of
    its hand (R-ADD-385); Corporate Espionage spends nothing and takes nothing (R-ADD-386)."""
    b = _scan_battle()
    b.state = replace(b.state, policy="auto")
    newest = b.seat(1).hand[-1]
    events = play(b, SCAN, target=1)
    assert not [e for e in events if isinstance(e, PromptOpened | PromptClosed)]
    assert one(events, CardsDiscarded) == CardsDiscarded(
        1, (newest,), (), "Weak Point Scan", "R-ADD-385"
    )
    spy = _espionage_battle(2)
    spy.state = replace(spy.state, policy="auto")
    hand = spy.seat(1).hand
    events = play(spy, ESPIONAGE, target=1)
    assert not [e for e in events if isinstance(e, PromptOpened | CardsStolen | TokensChanged)]
    assert spy.seat(1).hand == hand and spy.seat(0).tokens_of("credit") == 2
