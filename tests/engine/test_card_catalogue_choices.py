"""Scenarios for the catalogue entries of issue-28's second round that the player decides
as the card is played (an amount of tokens, a hex, a second target) or that read a
sentence by a ruling of R-ADD-388 to R-ADD-399, played through decide/evolve with the
helpers of test_card_catalogue.py. Each scenario quotes the text it checks;
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from battles.engine.battle.commands import PlayCard, parse_command
from battles.engine.battle.events import (
    AttackCovered,
    AttackDeclared,
    CardLapsed,
    CardPlayed,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    CasketPushed,
    DamageReduced,
    DamageScheduled,
    Event,
    PromptOpened,
    ReactivePlayed,
    TokensChanged,
)
from battles.engine.battle.legal import legal_actions
from battles.engine.cards import DrawEffect, TokenCostEffect, card_from_dict, effect_from_dict
from battles.engine.errors import InvalidInput
from battles.engine.hexes import Hex
from battles.engine.tohit import MAX_DAMAGE
from battles.sentences import Names, describe, plain

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    arrange,
    battle,
    built,
    hit,
    ignored,
    play,
    run_scenario,
    tokens,
)
from .test_card_catalogue_allies import _covering, _field, _hit_seat_2, built_reactive
from .test_card_catalogue_area import aimed, strike

VESTIGE = "vestige-bloodlines"
EXCHANGE = "exchange"
ITEMS = "equipment_items"
CHOICES_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _regenerative_flesh() -> None:
    """ "Recover 2 cards from your discard pile. Spend Biomass to heal wounds.": the 2 most
    recently discarded cards come back to the hand (R-ADD-62); the second sentence prices
    nothing and is read as the reminder of what Biomass is for, so the card spends none
    of the casket's Biomass (R-ADD-388)."""
    card = built(VESTIGE, "regenerative-flesh")
    b = battle(card)
    tokens(b, "biomass", 4)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:3]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    events = play(b, card.id)
    assert set(one(events, CardsRecovered).cards) == set(junk[1:])  # the newest 2
    assert junk[0] in b.seat(0).discard and set(junk[1:]) <= set(b.seat(0).hand)
    assert not of_type(events, TokensChanged) and b.seat(0).tokens_of("biomass") == 4
    assert b.seat(0).sp_spent == 0  # printed cost 0


CHOICES_SCENARIOS[(VESTIGE, "regenerative-flesh")] = _regenerative_flesh


def _auction_bid() -> None:
    """ "Draw X cards (where X = Credits spent, max 5). Spend Credits to buy card
    advantage." (cost "X Credit tokens"): the player names X in the command (`tokens`),
    1 to 5 and no more than it holds; the card costs 0 SP, X Credit tokens are paid and X
    cards drawn (R-ADD-133, R-ADD-389)."""
    card = built(EXCHANGE, "auction-bid")
    assert card.sp_cost == 0 and card.token_cost == TokenCostEffect("credit", "x", most=5)
    b = battle(card)
    tokens(b, "credit", 4)
    body = {"type": "play_card", "seat": 0, "card": f"{card.id}#1"}
    offered = sorted(
        a.body["tokens"] for a in legal_actions(b.state, {0}) if a.body.get("card") == body["card"]
    )
    assert offered == [1, 2, 3, 4]  # every X it holds, up to 5
    err = b.refuse(body)  # X is named
    assert (err.code, err.rule) == ("tokens_required", "R-ADD-389") and "tokens" in str(err)
    err = b.refuse({**body, "tokens": 6})
    assert (err.code, err.rule) == ("too_many_tokens", "R-ADD-389")
    err = b.refuse({**body, "tokens": 5})  # holds 4
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-389")
    hand = len(b.seat(0).hand)
    events = b.do({**body, "tokens": 3, "drawn": [FILLER] * 3})
    assert one(events, CardPlayed).cost == 0 and b.seat(0).sp_spent == 0
    assert one(events, TokensChanged) == TokensChanged(0, "credit", -3, 1, card.id)
    assert len(one(events, CardsDrawn).cards) == 3
    assert len(b.seat(0).hand) == hand - 1 + 3 and b.seat(0).tokens_of("credit") == 1
    other = next(x for x in b.seat(0).hand if x.startswith(FILLER))
    err = b.refuse({**body, "card": other, "tokens": 1})  # X only for a cost of X tokens
    assert (err.code, err.rule) == ("not_an_x_cost", "R-ADD-389"), err


CHOICES_SCENARIOS[(EXCHANGE, "auction-bid")] = _auction_bid


def test_x_tokens_are_said_of_a_card_played_on_its_own() -> None:
    """R-ADD-389: X is the command's choice, so a cost of X tokens and its draw stand only
    on a card played with play_card, the draw one of the card's own effects."""
    assert effect_from_dict({"kind": "draw", "n": "x"}) == DrawEffect("x")
    base_body = {"type": "play_card", "seat": 0, "card": "auction-bid#1"}
    assert parse_command({**base_body, "tokens": 2}) == PlayCard(
        seat=0, faces=(), drawn=(), pay=None, card="auction-bid#1", tokens=2
    )
    for bad in (0, 100, True, "2"):
        with pytest.raises(InvalidInput, match="tokens") as err:
            parse_command({**base_body, "tokens": bad})
        assert err.value.rule == "R-ADD-389"
    with pytest.raises(InvalidInput, match=r"token_cost\.most"):
        TokenCostEffect("credit", "x")
    with pytest.raises(InvalidInput, match=r"token_cost\.most"):
        TokenCostEffect("credit", 2, most=5)
    base = {"id": "test-x", "name": "Test X", "sp_cost": 0, "heat": 0, "automated": True}
    x_cost = {"kind": "token_cost", "pool": "credit", "n": "x", "most": 5}
    for kind, effects in (
        ("other", [{"kind": "draw", "n": "x"}]),  # no cost of X tokens
        ("reactive", [x_cost, {"kind": "draw", "n": "x"}]),
        (
            "other",
            [
                x_cost,
                {"kind": "trigger", "on": "end_of_turn", "then": [{"kind": "draw", "n": "x"}]},
            ],
        ),
    ):
        with pytest.raises(InvalidInput) as err:
            card_from_dict({**base, "kind": kind, "effects": effects})
        assert err.value.rule == "R-ADD-389", (kind, effects)


RIFT = "abyssal-staff-dimensional-rift"


def _dimensional_rift() -> None:
    """ "Teleport target enemy to any hex within 6 hexes, gain 1 Taint": the enemy the
    command names (no range printed: any enemy) goes to the hex `path` names, within 6 of
    its own hex, free and passable; whatever lies between does not matter; the player
    gains 1 Taint (R-ADD-102, R-ADD-385, R-ADD-390)."""
    card = built(ITEMS, RIFT)
    b = battle(card, gap=1)  # seat 0 at [0, 3], seat 1 at [0, 2]
    body = {"type": "play_card", "seat": 0, "card": f"{RIFT}#1", "target": 1}
    offered = [a.body for a in legal_actions(b.state, {0}) if a.body.get("card") == body["card"]]
    assert offered and all(a["target"] == 1 and len(a["path"]) == 1 for a in offered)
    err = b.refuse({**body, "path": [[0, -5]]})  # 7 hexes from the enemy
    assert (err.code, err.rule) == ("too_far", "R-ADD-102")
    err = b.refuse({**body, "path": [[0, 3]]})  # the player's own hex
    assert err.rule == "R-ADD-102", err
    err = b.refuse({**body, "target": 0, "path": [[0, -3]]})
    assert (err.code, err.rule) == ("not_an_enemy", "R-TRN-8")
    err = b.refuse({k: v for k, v in body.items() if k != "target"} | {"path": [[0, -3]]})
    assert err.code == "target_required"
    err = b.refuse(body)
    assert (err.code, err.rule) == ("destination_required", "R-ADD-390")
    taint = b.seat(0).taint
    events = b.do({**body, "path": [[0, -4]]})  # 6 hexes from [0, 2]: the farthest
    pushed = one(events, CasketPushed)
    assert pushed == CasketPushed(1, ((0, -4),), 0, RIFT, "R-ADD-390")
    assert b.seat(1).at == Hex(0, -4) and b.seat(0).at == Hex(0, 3)
    assert b.seat(0).taint == taint + 1 and b.seat(1).moved == 0
    words = plain(
        describe("CasketPushed", dataclasses.asdict(pushed), Names({0: "Oak", 1: "Ash"}, {}, {}))
    )
    assert "Ash is teleported to" in words and "R-ADD-390" in words, words


CHOICES_SCENARIOS[(ITEMS, RIFT)] = _dimensional_rift


RESURRECTION = "inferno-staff-infernal-resurrection"


def _resurrection_battle(damage: int, version: str = "2.0") -> tuple[Battle, list[Event]]:
    """Seat 0 plays Infernal Resurrection in its turn (4 SP) and passes; `damage` is then
    dealt to it as its next turn starts (R-ADD-73), without an attack."""
    card = built(ITEMS, RESURRECTION)
    b = battle(card, version=version)
    events = play(b, card.id)
    assert one(events, CardPlayed).cost == 4 and f"{card.id}#1" in b.seat(0).in_play
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    arrange(b, DamageScheduled(0, damage, "arranged"))
    return b, b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first


def _infernal_resurrection() -> None:
    """ "When you would take fatal damage, negate it, gain 4 Heat, this card is removed
    from game" (typed Utility, cost 4): played in its owner's turn at its 4 SP, it waits in
    play; damage that would defeat the casket whatever its split (R-ADD-371) is negated
    whole, the pilot gains 4 Heat and the card goes to the removed cards; damage that
    would not defeat it is taken as usual and the card waits on (R-ADD-70, R-ADD-391)."""
    instance = f"{RESURRECTION}#1"
    b, events = _resurrection_battle(2)  # not lethal
    assert not of_type(events, DamageReduced) and instance in b.seat(0).in_play
    assert one(events, PromptOpened).kind == "take_damage"
    c, cool = b.seat(0), b.seat(0).heat
    lethal = len(c.hand) + len(c.deck) + len(c.discard) + 1  # 2.0: more than all its cards
    b, events = _resurrection_battle(lethal)
    assert one(events, DamageReduced) == DamageReduced(0, lethal, instance, "R-ADD-391")
    assert not [p for p in of_type(events, PromptOpened) if p.kind == "take_damage"]
    assert b.seat(0).in_battle and instance in b.seat(0).removed
    assert instance not in b.seat(0).in_play and instance not in b.seat(0).discard
    assert b.seat(0).heat == cool + 4  # the same turn's start, without the save: 4 less
    words = plain(describe("DamageReduced", dataclasses.asdict(one(events, DamageReduced)),
                           Names({0: "Oak"}, {}, {})))  # fmt: skip
    assert "all that would have defeated it" in words and "R-ADD-391" in words, words
    # Under 2.1 damage as large as all its cards is lethal (R-DMG-9); one less is not.
    b, events = _resurrection_battle(lethal - 1, "2.1")
    assert one(events, DamageReduced).amount == lethal - 1 and instance in b.seat(0).removed
    b, events = _resurrection_battle(lethal - 2, "2.1")
    assert not of_type(events, DamageReduced) and instance in b.seat(0).in_play


CHOICES_SCENARIOS[(ITEMS, RESURRECTION)] = _infernal_resurrection


LICH = "staff-of-the-grave-lich-form"


def _lich_form() -> None:
    """ "For 3 turns: You are immune to damage (but still take Damage cards), gain 3 Taint,
    remove this card from game after use": played in its owner's turn (5 SP), the pilot
    gains 3 Taint once; through that turn and the owner's next two, every damage it would
    take is negated whole (the enemies' turns between included); then the card leaves the
    game and damage is taken again (R-ADD-375, R-ADD-70, R-ADD-392)."""
    card = built(ITEMS, LICH)
    instance = f"{LICH}#1"
    b = battle(card)
    taint = b.seat(0).taint
    events = play(b, card.id)
    assert one(events, CardPlayed).cost == 5 and b.seat(0).taint == taint + 3
    assert b.seat(0).timed == ((instance, 3),)
    for turn in (1, 2, 3):
        events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
        lapsed = of_type(events, CardLapsed)
        if turn < 3:
            assert not lapsed and instance in b.seat(0).in_play, turn
        else:
            assert lapsed == [CardLapsed(0, instance, 3, True)]
            assert instance in b.seat(0).removed and instance not in b.seat(0).in_play
        arrange(b, DamageScheduled(0, 4, "arranged"))  # taken as seat 0's next turn starts
        events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # seat 0 first again
        prompts = [p.kind for p in of_type(events, PromptOpened)]
        if turn < 3:
            assert one(events, DamageReduced) == DamageReduced(0, 4, LICH), turn
            assert "take_damage" not in prompts, turn
        else:  # the card has left: the damage is taken
            assert not of_type(events, DamageReduced) and "take_damage" in prompts
    assert b.seat(0).taint == taint + 3  # gained once, as played


CHOICES_SCENARIOS[(ITEMS, LICH)] = _lich_form


VOLLEY = "armor-piercing-rounds-piercing-volley"


def _volley_yard(enemies: list[tuple[int, int]]) -> Battle:
    """Seat 0 at [0, 3] facing N holds Piercing Volley and the test's Gun (Ranged 1-6, 2
    damage) and acts first; one enemy seat per hex of `enemies`, facing S, the first the
    target; an ally on the line beyond the target at [0, -3]."""
    card = built(ITEMS, VOLLEY)
    others = [*((at, "them") for at in enemies), ((0, -3), "us")]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="us"), "deck": deck(**{card.id: 2, "gun": 1})},
        *(
            {**seat(1 + i, at=at, facing=4, side=side), "deck": deck()}
            for i, (at, side) in enumerate(others)
        ),
    ]
    doc = {
        "name": "Volley yard",
        "board": {"name": "Volley yard", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.0", "options": {}},
        "dice": {"mode": "table"},
        "policy": "prompt",
        "cards": [CARDS[FILLER], CARDS["gun"], card.as_dict()],
        "seats": seats,
    }
    hands = [[card.id, "gun", *[FILLER] * 4], *[[FILLER] * 6] * len(others)]
    b = start(doc, hands, initiative=(6, *range(1, len(others) + 1)))
    assert b.state.active == 0
    return b


def _piercing_volley() -> None:
    """ "Enhance your next ranged attack: +2 damage, Armor-Piercing, hits 2 targets in line.
    Discard after use.": the Gun's shot deals 2 + 2 ignoring all Defense (R-ADD-90,
    R-ADD-60), and the first enemy behind its target on the line from the shooter through
    the target (R-ADD-381), within the Gun's 6 hexes, is hit too, for the same 4 ignoring
    all Defense; an enemy before the target, a second one behind, one out of the Gun's
    reach and an ally are not (R-ADD-393)."""
    gun = card_from_dict(CARDS["gun"])
    # Target 3 N; enemies 1 and 2 hexes behind it on the line and one before it; the ally
    # 6 hexes N, behind them all.
    b = _volley_yard([(0, 0), (0, -1), (0, -2), (0, 2)])
    play(b, VOLLEY)
    events = strike(b, gun, 1, aimed(b, gun, [(1, "1-6", 4), (2, "1-6", 4)]))
    declared_ = of_type(events, AttackDeclared)
    assert [(d.target, hit(d)) for d in declared_] == [(1, 4), (2, 4)]
    assert [ignored(d) for d in declared_] == [MAX_DAMAGE] * 2
    assert VOLLEY + "#1" in b.seat(0).discard and b.seat(0).enhancements == ()
    # The one behind beyond the Gun's 6 hexes is not reached: the shot alone.
    b = _volley_yard([(0, -2), (0, -4)])
    play(b, VOLLEY)
    events = strike(b, gun, 1, aimed(b, gun, [(1, "1-6", 4)]))
    assert [d.target for d in of_type(events, AttackDeclared)] == [1]


CHOICES_SCENARIOS[(ITEMS, VOLLEY)] = _piercing_volley


INTERVENTION = "divine-scepter-divine-intervention"


def _divine_intervention() -> None:
    """ "Negate all damage from next attack targeting you or ally within 2 hexes" (typed
    Reactive): played in answer to the attack (R-REA-1), on an ally within 2 hexes through
    R-ADD-122's window, or on the player's own casket as its reactive card: the attack
    deals no damage to anyone; an ally 3 hexes away is not reached (R-ADD-394)."""
    card = built_reactive(ITEMS, INTERVENTION)
    instance = f"{INTERVENTION}#1"
    b = _covering(card, 2)
    damage = _hit_seat_2(b)
    prompt = b.state.prompts[0]
    assert (prompt.seat, prompt.kind, prompt.rule) == (0, "reactive", "R-ADD-122")
    hand = [len(b.seat(n).hand) + len(b.seat(n).deck) for n in (0, 2)]
    events = b.do({"type": "play_reactive", "seat": 0, "card": instance, "faces": [4] * damage})
    covered = one(events, AttackCovered)
    assert covered == AttackCovered(0, 2, instance, MAX_DAMAGE)
    words = plain(describe("AttackCovered", dataclasses.asdict(covered),
                           Names({0: "Oak", 2: "Elm"}, {}, {})))  # fmt: skip
    assert "negating all of it" in words, words
    assert b.state.attack is None and not b.state.prompts  # nothing to take
    assert [len(b.seat(n).hand) + len(b.seat(n).deck) for n in (0, 2)] == [hand[0] - 1, hand[1]]
    assert instance in b.seat(0).discard
    far = _covering(card, 3)
    _hit_seat_2(far, faces=(3, 2, *[4] * damage))
    assert [(p.seat, p.kind) for p in far.state.prompts] == [(2, "take_damage")]
    # Attacked itself: its own reactive card, and the attack deals nothing.
    b = _field(card, first=1)
    b.do({"type": "attack", "seat": 1, "card": "test-maul#1", "target": 0,
          "component": "chassis", "faces": [3, 2]})  # fmt: skip
    assert [(p.seat, p.kind, p.rule) for p in b.state.prompts] == [(0, "reactive", "R-REA-1")]
    cards = len(b.seat(0).deck)
    events = b.do({"type": "play_reactive", "seat": 0, "card": instance, "faces": [4, 4]})
    assert one(events, ReactivePlayed).reduction == MAX_DAMAGE
    assert b.state.attack is None and not b.state.prompts and len(b.seat(0).deck) == cards


CHOICES_SCENARIOS[(ITEMS, INTERVENTION)] = _divine_intervention


@pytest.mark.parametrize(
    ("doc", "field_name"),
    [
        ({"kind": "area_attack", "damage": 2, "plus": 2}, "e.plus"),
        ({"kind": "area_attack", "damage": 0, "damage_of_attack": True, "plus": -1}, "e.plus"),
        ({"kind": "area_attack", "damage": 2, "first_behind": True}, "e.first_behind"),
        (
            {"kind": "area_attack", "damage": 2, "around": "line", "pick": 1, "first_behind": True},
            "e.first_behind",
        ),
        ({"kind": "teleport", "hexes": 6, "whom": "ally"}, "e.whom"),
        ({"kind": "teleport", "hexes": 6, "whom": "enemy", "onto": "lava"}, "e.whom"),
    ],
)
def test_a_bad_field_of_these_readings_is_named(doc: dict[str, object], field_name: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc, "e")
    assert err.value.field == field_name


@pytest.mark.parametrize("key", sorted(CHOICES_SCENARIOS), ids="/".join)
def test_choices_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, CHOICES_SCENARIOS[key])
