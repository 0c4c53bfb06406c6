"""Scenarios for the catalogue entries of issue 17's triggers group: thorns (R-ADD-130),
destruction triggers, killing blows and lasting bonuses (R-ADD-131), an enemy's "moved
this turn" (R-ADD-132) and costs printed in tokens (R-ADD-133), played through
decide/evolve with the helpers of test_card_catalogue.py. Each scenario quotes the text it
checks; `test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    BonusHeld,
    BuffGained,
    CardsDiscarded,
    CardsDrawn,
    CardsRecovered,
    ComponentDamaged,
    ComponentDamagePrevented,
    ComponentDestroyed,
    DamageReduced,
    DamageTaken,
    DefenceRaised,
    DefenceRolled,
    Event,
    LastingBonusGained,
    MoveGranted,
    PromptOpened,
    SelfDamageDue,
    SpBoosted,
    StrainChecked,
    ThornsRaised,
    TokensChanged,
)
from battles.engine.battle.state import card_id
from battles.engine.cards import (
    CardDef,
    DrawEffect,
    LastingBonusEffect,
    ThornsEffect,
    TokenCostEffect,
    TriggerEffect,
    card_from_dict,
    effect_from_dict,
)
from battles.engine.errors import InvalidInput

from .battle_builder import CARDS, FILLER, Battle, deck, of_type, one, seat, start
from .test_card_catalogue import (
    ENTRIES,
    Attack,
    _next_own_turn,
    arrange,
    attack,
    battle,
    built,
    check_attack,
    declared,
    hit,
    ignored,
    play,
    reactive,
    resolve_hit,
    run_scenario,
    tokens,
)

TRIGGERS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _seat1_attacks(b: Battle, card: str, faces: tuple[int, ...] = (1, 1)) -> list[Event]:
    """Seat 1 attacks seat 0 (named component); (1, 1) misses (R-HIT-4)."""
    return b.do({"type": "attack", "seat": 1, "card": card, "target": 0,
                 "component": "chassis", "faces": list(faces)})  # fmt: skip


def _thorns_prompt(events: list[Event], damage: int) -> None:
    """The attacker is asked to discard `damage` cards once its attack has ended."""
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", damage)
    assert "R-ADD-130" in prompt.reason
    assert events.index(prompt) > [e.type for e in events].index("AttackEnded")


def _take(b: Battle, n: int) -> None:
    hp = b.seat(1).hp
    b.do({"type": "take_damage", "seat": 1, "hand": [], "deck": n, "drawn": [FILLER] * n})
    assert b.seat(1).hp == hp - n  # ruleset 2.1: onto the damage pile (R-DMG-8)


def _thorns(
    section: str, cid: str, damage: int, *, melee_only: bool, defence: int = 0, once: bool = False
) -> None:
    card = built(section, cid)
    b = battle(card, opponent=("gun",), version="2.1")
    raised = one(play(b, cid), ThornsRaised)
    assert (raised.damage, raised.melee_only) == (damage, melee_only)
    assert (raised.until == "next_attack") == once
    if once:  # "Remove this card from game after triggered" (R-ADD-70, R-ADD-130)
        assert f"{cid}#1" in b.seat(0).removed and f"{cid}#1" not in b.seat(0).discard
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    # A melee attack that misses: the thorns still bite once it has ended.
    events = _seat1_attacks(b, "test-maul#1")
    d = one(events, AttackDeclared)
    assert d.defence_modifier - int(d.to_hit["defense_modifier"]) == defence  # R-ADD-64
    _thorns_prompt(events, damage)
    _take(b, damage)
    # A ranged attack (the Gun, Range 1-6, from the adjacent hex).
    events = _seat1_attacks(b, "gun#1")
    if melee_only or once:  # "in melee" only; the trap is spent
        assert not of_type(events, PromptOpened)
    else:
        _thorns_prompt(events, damage)
        _take(b, damage)
    # Round 2: seat 0's next turn starts and "until your next turn" lapses.
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul", FILLER], "faces": [6, 1]})
    assert b.state.active == 0
    c = b.seat(0)
    assert (c.thorns, c.thorns_melee, c.thorns_once, c.defence_bonus) == (0, 0, 0, 0)


def _glyph_trap_waits() -> None:
    """ "Next enemy that attacks you takes 4 damage.": the trap waits past the owner's next
    turn for the first attack on it (R-ADD-130)."""
    card = built("equipment_items", "runic-charges-glyph-trap")
    b = battle(card, version="2.1")
    play(b, "runic-charges-glyph-trap")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
    assert b.state.active == 0 and b.seat(0).thorns_once == 4
    b.do({"type": "pass", "seat": 0})
    _thorns_prompt(_seat1_attacks(b, "test-maul#1"), 4)


def _glyph_trap() -> None:
    """ "Next enemy that attacks you takes 4 damage. Remove this card from game after
    triggered.\""""
    _thorns("equipment_items", "runic-charges-glyph-trap", 4, melee_only=False, once=True)
    _glyph_trap_waits()


def _thorn_barrier() -> None:
    """ "Deal 2 damage to next attacker.": a reactive card (its keywords), so the attacker of
    the attack it answers takes 2 once that attack has ended (R-ADD-58, R-ADD-130), played
    for 0 SP (R-ADD-67)."""
    card = built("equipment", "thorn-barrier")
    assert card.kind == "reactive"
    b = battle(card, first=1, version="2.1")
    _seat1_attacks(b, "test-maul#1", (3, 2))
    events = b.do({"type": "play_reactive", "seat": 0, "card": "thorn-barrier#1", "faces": [1, 1]})
    assert one(events, DefenceRolled).final_damage == 0  # two SHIELD faces
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", 2)
    assert b.seat(0).sp_spent == 0


TRIGGERS_SCENARIOS.update({
    ("equipment", "thorn-barrier"): _thorn_barrier,
    ("equipment", "emberguard"): lambda: _thorns("equipment", "emberguard", 1, melee_only=True),
    ("equipment_items", "emberguard"): lambda: _thorns(
        "equipment_items", "emberguard", 1, melee_only=True),
    ("equipment_items", "greatsword-defensive-sweep"): lambda: _thorns(
        "equipment_items", "greatsword-defensive-sweep", 2, melee_only=True, defence=1),
    ("equipment_items", "stormcaller-s-grimoire-storm-shield"): lambda: _thorns(
        "equipment_items", "stormcaller-s-grimoire-storm-shield", 1, melee_only=False, defence=1),
    ("equipment_items", "warding-talisman-deflection-field"): lambda: _thorns(
        "equipment_items", "warding-talisman-deflection-field", 1, melee_only=False, defence=2),
    ("equipment_items", "runic-charges-glyph-trap"): _glyph_trap,
})  # fmt: skip


# --- the new effect kinds' validation -----------------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"kind": "thorns", "damage": 0}, "effect.damage"),
        ({"kind": "thorns", "damage": 1, "until": "forever"}, "effect.until"),
        ({"kind": "thorns", "damage": 1, "melee_only": 1}, "effect.melee_only"),
        ({"kind": "thorns", "damage": 1, "melee_only": True, "until": "next_attack"},
         "effect.melee_only"),
        ({"kind": "lasting_bonus", "damage": 0}, "effect.damage"),
        ({"kind": "token_cost", "pool": "gold", "n": 1}, "effect.pool"),
        ({"kind": "token_cost", "pool": "forge", "n": 0}, "effect.n"),
        ({"kind": "trigger", "on": "casket_destroyed", "then": [{"kind": "draw", "n": 1}]},
         "effect.within"),
        ({"kind": "trigger", "on": "casket_destroyed", "within": 3, "enemy_only": True,
          "ally_only": True, "then": [{"kind": "draw", "n": 1}]}, "effect.ally_only"),
        ({"kind": "trigger", "on": "start_of_turn", "by_owner": True,
          "then": [{"kind": "draw", "n": 1}]}, "effect.within"),
        ({"kind": "trigger", "on": "start_of_turn", "stacks": False,
          "then": [{"kind": "draw", "n": 1}]}, "effect.stacks"),
        ({"kind": "sp_boost", "amount": 0}, "effect.amount"),
        ({"kind": "buff_this_turn"}, "effect"),
        ({"kind": "heat_capacity", "heat": 10}, "effect.heat"),
        ({"kind": "taint_counter", "n": 1, "counter": 0}, "effect.counter"),
        ({"kind": "self_damage", "amount": 2, "avoid_pool": "gold", "avoid_n": 2},
         "effect.avoid_pool"),
        ({"kind": "trigger", "on": "damage_taken", "then": [{"kind": "draw", "n": 1}]},
         "effect.then[0]"),
        ({"kind": "trigger", "on": "end_of_turn", "ally_only": "yes",
          "then": [{"kind": "draw", "n": 1}]}, "effect.ally_only"),
    ],
)  # fmt: skip
def test_a_bad_field_of_a_triggers_effect_is_named(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidInput) as err:
        effect_from_dict(doc)
    assert err.value.field == field


def test_the_triggers_effects_read_back_what_they_write() -> None:
    for effect in (
        ThornsEffect(2, melee_only=True),
        ThornsEffect(4, until="next_attack"),
        LastingBonusEffect(1),
        TokenCostEffect("metamorph", 1),
        TriggerEffect("casket_destroyed", (DrawEffect(2),), ally_only=True),
        TriggerEffect("casket_destroyed", (DrawEffect(2),), within=6, by_owner=True),
        TriggerEffect("casket_destroyed", (DrawEffect(1),), enemy_only=True),  # R-ADD-442
    ):
        assert effect_from_dict(effect.as_dict()) == effect


def test_a_card_of_the_triggers_group_loads_only_from_its_recorded_text() -> None:
    assert ENTRIES[("equipment", "emberguard")].automated
    assert card_from_dict(CARDS["gun"]).attack is not None


# --- R-ADD-131: destructions, killing blows, lasting bonuses ----------------------------------


def _field(card: CardDef, others: list[tuple[tuple[int, int], str]], *hand: str) -> Battle:
    """Ruleset 2.1. Seat 0 ("penitents", at [0, 3] facing N) holds `card` and `hand` and acts
    first; seat 1 ("foes") stands adjacent, north; `others` are further seats (hex, side),
    acting in seat order after them (R-TRN-2)."""
    cards = [CARDS[FILLER], card.as_dict(), *(CARDS[h] for h in hand)]
    seats = [
        {**seat(0, at=(0, 3), facing=1, side="penitents"),
         "deck": deck(**{card.id: 1, **{h: 1 for h in hand}})},
        {**seat(1, at=(0, 2), facing=4, side="foes"), "deck": deck()},
        *({**seat(2 + i, at=at, facing=1, side=side), "deck": deck()}
          for i, (at, side) in enumerate(others)),
    ]  # fmt: skip
    doc = {
        "name": "Field", "board": {"name": "Field", "shape": {"kind": "hexagon", "radius": 8}, "hexes": []},
        "rules": {"version": "2.1", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": cards, "seats": seats,
    }  # fmt: skip
    hands = [[card.id, *hand, *[FILLER] * (5 - len(hand))], *[[FILLER] * 6] * (len(seats) - 1)]
    b = start(doc, hands, initiative=(6, *range(1, len(seats))))
    assert b.state.active == 0
    return b


def _strain_kills(b: Battle) -> list[Event]:
    """Seat 2 (1 HP, 6 Heat) rolls 3 on its strain roll as its turn starts: 9, 2 damage
    without an attack (R-TRN-4), and it is defeated (R-DMG-9; survival face 4). Seats 0
    (who played a card) and 1 pass before it."""
    arrange(b, DamageTaken(2, (), b.seat(2).deck[:-1], 0, None))
    assert b.seat(2).hp == 1
    b.do({"type": "adjust_heat", "seat": 2, "heat": 6, "reason": "arranged"})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    events = b.do({"type": "pass", "seat": 1, "faces": [3]})
    last = b.seat(2).deck[0].split("#")[0]
    events += b.do({"type": "take_damage", "seat": 2, "hand": [], "deck": 2,
                    "drawn": [last], "faces": [4, 6, 1]})  # fmt: skip
    assert b.seat(2).defeated
    return events


def _righteous_fury() -> None:
    """ "Each time an allied Casket is destroyed this mission, gain +1 damage to all attacks
    permanently for the rest of the mission (stacks).": an ally at any distance; an enemy's
    destruction gives nothing (R-ADD-131)."""
    card = built("church", "righteous-fury")
    b = _field(card, [((6, -3), "penitents")], "gun")
    play(b, "righteous-fury")
    events = _strain_kills(b)  # the ally, 6 hexes away
    gained = one(events, LastingBonusGained)
    assert (gained.seat, gained.damage, gained.total) == (0, 1, 1)
    # Round 2: seat 0 first; the Gun's 2 damage is 3 now, and stays so.
    assert b.state.active == 0
    d = one(b.do({"type": "attack", "seat": 0, "card": "gun#1", "target": 1,
                  "component": "chassis", "faces": [1, 1]}), AttackDeclared)  # fmt: skip
    assert hit(d) == 3
    assert "R-ADD-131" in str(d.to_hit)
    # An enemy destroyed: nothing.
    b = _field(card, [((6, -3), "foes")], "gun")
    play(b, "righteous-fury")
    assert not of_type(_strain_kills(b), LastingBonusGained)
    assert b.seat(0).lasting_damage == 0


def _war_profiteer() -> None:
    """ "Passive: When ANY Casket (enemy, ally, or neutral) is destroyed within 6 hexes of
    you, gain 2 Credit tokens. **Bonus:** Gain 3 Credits instead if you dealt the killing
    blow.": strain damage has no killer (R-ADD-131)."""
    card = built("exchange", "war-profiteer")
    for side, at, gained in (
        ("penitents", (6, -3), 2),
        ("foes", (6, -3), 2),
        ("foes", (7, -4), 0),  # 7 hexes away
    ):
        b = _field(card, [(at, side)])
        play(b, "war-profiteer")
        _strain_kills(b)
        assert b.seat(0).tokens_of("credit") == gained, (side, at)
    # The owner's own attack destroys the target: 3.
    b = battle(card, hand=("gun",), version="2.1")
    play(b, "war-profiteer")
    resolve_hit(b, card_from_dict(CARDS["gun"]), 2, kill=True)
    assert b.seat(0).tokens_of("credit") == 3


def _opportunist() -> None:
    """ "Passive: Attacks against enemies who moved this turn deal +2 damage.": an enemy's
    "this turn" is its most recent turn, as R-HIT-2 counts it (R-ADD-132)."""
    card = built("nomads", "opportunist")
    gun = card_from_dict(CARDS["gun"])
    for moved, damage in ((False, 2), (True, 4)):
        b = battle(card, hand=("gun",), gap=2, first=1)
        if moved:
            b.do({"type": "move", "seat": 1, "path": [[0, 2]]})
        b.do({"type": "pass", "seat": 1})
        play(b, "opportunist")
        assert hit(declared(b, gun)) == damage, moved


TRIGGERS_SCENARIOS.update({
    ("church", "righteous-fury"): _righteous_fury,
    ("exchange", "war-profiteer"): _war_profiteer,
    ("nomads", "opportunist"): _opportunist,
})  # fmt: skip


# --- R-ADD-133: costs printed in tokens --------------------------------------------------------


def _maul_on_seat0(b: Battle, n: int = 1, offered: bool = True) -> list[Event]:
    """Seat 1 hits seat 0 with a Melee 2 attack; when no reactive card is offered, the
    defence dice roll at once (two BLOOD faces: no blocks)."""
    return _seat1_attacks(b, f"test-maul#{n}", (3, 2) if offered else (3, 2, 4, 4))


def _exoskeleton_molt() -> None:
    """ "Play when you take damage. Reduce damage by 3 (minimum 1). Recover 2 cards from
    discard pile (shedding damaged tissue). Generate 1 Heat. Once per round." Printed cost:
    1 Metamorph token (R-ADD-133)."""
    card = built("emergent", "exoskeleton-molt")
    assert (card.kind, card.sp_cost) == ("reactive", 0)
    poor = battle(card, first=1)
    events = _maul_on_seat0(poor, offered=False)  # no token: the card is not offered
    assert [p.kind for p in of_type(events, PromptOpened)] == ["take_damage"]
    assert one(events, DefenceRolled).reduction_applied == 0
    b = battle(card, first=1, hand=("exoskeleton-molt",), opponent=("gun",))
    tokens(b, "metamorph", 1)
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    _maul_on_seat0(b)
    events = b.do({"type": "play_reactive", "seat": 0, "card": "exoskeleton-molt#1",
                   "faces": [4, 4]})  # fmt: skip
    rolled = one(events, DefenceRolled)
    assert (rolled.reduction_applied, rolled.final_damage) == (3, 1)
    spent = one(events, TokensChanged)
    assert (spent.pool, spent.amount, spent.total) == ("metamorph", -1, 0)
    assert one(events, CardsRecovered).cards and set(junk) <= set(b.seat(0).hand)
    assert b.seat(0).heat == 1
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 1, "drawn": [FILLER]})
    # Once per round: the second copy is refused against the next attack.
    tokens(b, "metamorph", 1)
    assert of_type(_seat1_attacks(b, "gun#1", (3, 2)), PromptOpened)
    err = b.refuse({"type": "play_reactive", "seat": 0, "card": "exoskeleton-molt#2",
                    "faces": [4, 4]})  # fmt: skip
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")


def _adaptive_evolution() -> None:
    """ "Play when you take damage. Immediately gain 1 mutation counter. Each mutation
    counter gives +1 to all attack damage permanently this mission (stacks infinitely)."
    Printed cost: 2 Biomass tokens (R-ADD-133, R-ADD-131)."""
    card = built("vestige-bloodlines", "adaptive-evolution")
    assert (card.kind, card.sp_cost) == ("reactive", 0)
    b = battle(card, first=1, hand=("gun",))
    tokens(b, "biomass", 1)
    events = _maul_on_seat0(b, offered=False)  # one token is not enough
    assert [p.kind for p in of_type(events, PromptOpened)] == ["take_damage"]
    b = battle(card, first=1, hand=("gun",))
    tokens(b, "biomass", 3)
    _maul_on_seat0(b)
    events = b.do({"type": "play_reactive", "seat": 0, "card": "adaptive-evolution#1",
                   "faces": [1, 1]})  # fmt: skip
    assert one(events, LastingBonusGained).total == 1
    assert b.seat(0).tokens_of("biomass") == 1
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"]})
    assert b.state.active == 0
    assert hit(declared(b, card_from_dict(CARDS["gun"]))) == 3


TRIGGERS_SCENARIOS.update({
    ("emergent", "exoskeleton-molt"): _exoskeleton_molt,
    ("vestige-bloodlines", "adaptive-evolution"): _adaptive_evolution,
})  # fmt: skip


# --- R-ADD-134 to R-ADD-137: SP, turn and round triggers, damage reduction ---------------------


def _flagellants_zeal() -> None:
    """ "Gain 5 SP immediately. Can only be used once per mission. Gain 2 Heat.": 5 SP to
    spend this turn, not doubled by overspending (R-ADD-135), once per battle (R-ADD-63)."""
    card = built("church", "flagellants-zeal")
    b = battle(card, hand=("flagellants-zeal",))
    c = b.seat(0)
    assert (c.sp_left, c.sp_limit) == (5, 10)  # an assault casket (R-TRN-3)
    gained = one(play(b, "flagellants-zeal"), SpBoosted)
    assert (gained.amount, gained.maximum) == (5, False)
    c = b.seat(0)
    assert (c.sp_left, c.sp_limit, c.heat, c.overspend_cards(10)) == (10, 15, 2, 0)
    assert c.overspend_cards(11) == 1  # the 11th SP is beyond the maximum and the gain
    err = b.refuse({"type": "play_card", "seat": 0, "card": "flagellants-zeal#2"})
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")
    _next_own_turn(b)
    assert (b.seat(0).sp_left, b.seat(0).sp_gained) == (5, 0)  # for that turn only
    err = b.refuse({"type": "play_card", "seat": 0, "card": "flagellants-zeal#2"})
    assert err.code == "use_limit_reached"  # "once per mission": the battle


def _survivors_instinct() -> None:
    """ "Passive: When your deck has 15 or fewer cards, gain +1 SP maximum.": read as each
    own turn starts (R-ADD-135, R-ADD-137); seat 0 draws 1 card before then."""
    card = built("nomads", "survivors-instinct")
    for left, sp_max in ((17, 5), (16, 6)):
        b = battle(card)
        play(b, "survivors-instinct")
        arrange(b, DamageTaken(0, (), b.seat(0).deck[:-left], 0, None))
        events = _next_own_turn(b)
        assert len(b.seat(0).deck) == left - 1
        assert b.seat(0).sp_max == sp_max, left
        assert bool(of_type(events, SpBoosted)) == (sp_max == 6)
        assert b.seat(0).sp_limit == 2 * sp_max  # a maximum: overspending doubles it


def _photosynthesis() -> None:
    """ "At end of your turn, if you did NOT attack this turn, recover 1 card from discard
    pile and remove 1 Heat." (R-ADD-134)"""
    card = built("elves", "photosynthesis")
    for attacks in (False, True):
        b = battle(card, hand=("gun",))
        b.do({"type": "adjust_heat", "seat": 0, "heat": 2, "reason": "arranged"})
        play(b, "photosynthesis")
        junk = next(x for x in b.seat(0).hand if x.startswith(FILLER))
        arrange(b, CardsDiscarded(0, (junk,), (), "arranged", "R-ADD-14"))
        if attacks:
            attack(b, card_from_dict(CARDS["gun"]))  # a miss still is an attack
        drawn = [FILLER] * (6 - len(b.seat(0).hand))
        events = b.do({"type": "pass", "seat": 0, "drawn": drawn})
        assert bool(of_type(events, CardsRecovered)) == (not attacks)
        assert (junk in b.seat(0).hand) == (not attacks)
        assert b.seat(0).heat == (2 if attacks else 1), attacks


def _eternal_vigil() -> None:
    """ "Passive: At the end of each round, if no enemies are within 3 hexes, recover 1
    card from discard." (R-ADD-137)"""
    card = built("elves", "eternal-vigil")
    for gap, recovered in ((3, False), (4, True)):
        b = battle(card, gap=gap)
        play(b, "eternal-vigil")
        junk = next(x for x in b.seat(0).hand if x.startswith(FILLER))
        arrange(b, CardsDiscarded(0, (junk,), (), "arranged", "R-ADD-14"))
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * 2})
        assert junk not in b.seat(0).hand  # not at the end of the own turn
        events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # the round ends
        assert bool(of_type(events, CardsRecovered)) == recovered, gap
        if recovered:
            assert [e.type for e in events].index("CardsRecovered") < [
                e.type for e in events
            ].index("RoundEnded")


def _dwarven_bulwark() -> None:
    """ "Passive: Reduce all damage you take by 1.": an attack's 2 damage after the dice
    is 1 (R-ADD-136)."""
    card = built("dwarves", "dwarven-bulwark")
    for played, amount in ((False, 2), (True, 1)):
        b = battle(card)
        if played:
            play(b, "dwarven-bulwark")
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
        events = _seat1_attacks(b, "test-maul#1", (3, 2, 4, 4))  # two BLOOD faces
        assert one(events, DefenceRolled).final_damage == 2
        prompt = one(events, PromptOpened)
        assert (prompt.seat, prompt.kind, prompt.amount) == (0, "take_damage", amount)
        reduced = of_type(events, DamageReduced)
        assert [(r.amount, r.source) for r in reduced] == (
            [(1, "dwarven-bulwark")] if played else []
        )


TRIGGERS_SCENARIOS.update({
    ("church", "flagellants-zeal"): _flagellants_zeal,
    ("nomads", "survivors-instinct"): _survivors_instinct,
    ("elves", "photosynthesis"): _photosynthesis,
    ("elves", "eternal-vigil"): _eternal_vigil,
    ("dwarves", "dwarven-bulwark"): _dwarven_bulwark,
})  # fmt: skip


# --- R-ADD-138 -----------------------------------------------------------------------------------


def _faith_armor() -> None:
    """ "Once per turn, when you would take damage, reduce that damage by 2. Works even at 0
    SP.": a reactive card against an attack (R-ADD-138), once in each turn (R-ADD-63)."""
    b = reactive("church", "faith-armor", 2, 0)
    assert b.seat(0).sp_spent == 0
    card = built("church", "faith-armor")
    b = battle(card, first=1, hand=("faith-armor",), opponent=("gun",))
    _maul_on_seat0(b)
    rolled = one(
        b.do({"type": "play_reactive", "seat": 0, "card": "faith-armor#1", "faces": [4, 4]}),
        DefenceRolled,
    )
    assert (rolled.reduction_applied, rolled.final_damage) == (2, 0)
    _seat1_attacks(b, "gun#1", (3, 2))  # the same turn: the second copy is refused
    err = b.refuse({"type": "play_reactive", "seat": 0, "card": "faith-armor#2", "faces": [4, 4]})
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")
    b.do({"type": "no_reactive", "seat": 0, "faces": [1, 1]})  # two SHIELD faces
    # Seat 1's next turn (round 2, seat 1 first): a new turn, a new play.
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul", FILLER]})
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [1, 6]})
    assert b.state.active == 1
    _maul_on_seat0(b, 2)
    events = b.do({"type": "play_reactive", "seat": 0, "card": "faith-armor#2", "faces": [4, 4]})
    assert one(events, DefenceRolled).reduction_applied == 2


def _corpse_shield() -> None:
    """ "Passive: When an enemy within 3 hexes is destroyed, gain +3 Defense until end of
    your next turn." (R-ADD-68, R-ADD-138)"""
    card = built("ossuarium", "corpse-shield")
    for gap, raised in ((3, 3), (4, 0)):
        b = battle(card, gap=gap, hand=("gun",), version="2.1")
        play(b, "corpse-shield")
        roll = (3, 2) if gap < 4 else (4, 2)  # medium range from 4 hexes (R-RNG-1)
        events = resolve_hit(b, card_from_dict(CARDS["gun"]), 2, kill=True, roll=roll)
        assert sum(e.amount for e in of_type(events, DefenceRaised)) == raised, gap
        assert b.seat(0).defence_bonus == raised


TRIGGERS_SCENARIOS.update({
    ("church", "faith-armor"): _faith_armor,
    ("ossuarium", "corpse-shield"): _corpse_shield,
})  # fmt: skip


# --- R-ADD-139 -----------------------------------------------------------------------------------


def _blood_offering() -> None:
    """ "Discard 1 card from top of your deck (self-harm). Your next attack this turn: +2
    damage, ignores 1 Defense, and -1 to target number (easier to hit). LIMIT: 1 per turn.\""""
    card = built("church", "blood-offering")
    gun = card_from_dict(CARDS["gun"])
    plain = declared(battle(card, hand=("gun",)), gun)
    b = battle(card, hand=("gun", "blood-offering"))
    top = b.seat(0).deck[0]
    events = play(b, "blood-offering", drawn=[card_id(top)])
    assert one(events, CardsDiscarded).from_deck == (top,) and top in b.seat(0).discard
    err = b.refuse({"type": "play_card", "seat": 0, "card": "blood-offering#2"})
    assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")
    d = declared(b, gun)
    assert (hit(d), d.target_number, ignored(d)) == (
        hit(plain) + 2,
        plain.target_number - 1,
        ignored(plain) + 1,
    )
    # Unspent, the bonus lapses when the turn ends; a later attack has none of it.
    b = battle(card, hand=("gun",))
    play(b, "blood-offering", drawn=[card_id(b.seat(0).deck[0])])
    assert b.seat(0).buff_damage == 2
    _next_own_turn(b)
    c = b.seat(0)
    assert (c.buff_damage, c.buff_to_hit, c.buff_ignore_defence) == (0, 0, 0)
    assert hit(declared(b, gun)) == hit(plain)


def _penance_rune() -> None:
    """ "Whenever you discard cards (via Blood Offering, self-harm, etc), gain +1 accuracy
    on your next attack (reduce target number by 1).": once per discarding card (R-ADD-139);
    damage is not the casket's own discard."""
    card = built("church", "penance-rune")
    gun = card_from_dict(CARDS["gun"])
    plain = declared(battle(card, hand=("gun",)), gun).target_number
    b = battle(card, hand=("gun", "cull", "purge"))
    play(b, "penance-rune")
    play(b, "cull", drawn=[FILLER] * 2)  # discards 2 from the deck: one trigger
    assert b.seat(0).buff_to_hit == -1
    junk = next(x for x in b.seat(0).hand if x.startswith(FILLER))
    play(b, "purge", discard=[junk])
    assert declared(b, gun).target_number == plain - 2
    # Damage discards are not the casket's own.
    b = battle(card, first=1)
    b.do({"type": "pass", "seat": 1})
    play(b, "penance-rune")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER], "faces": [1, 6]})
    _maul_on_seat0(b, 1, offered=False)
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(0).buff_to_hit == 0


TRIGGERS_SCENARIOS.update({
    ("church", "blood-offering"): _blood_offering,
    ("church", "penance-rune"): _penance_rune,
})  # fmt: skip


def _ghost_step() -> None:
    """ "After making an attack, move up to 2 hexes (free action).": played in the own turn
    once the casket has attacked, a granted move at no SP (R-ADD-134, R-ADD-69)."""
    card = built("nomads", "ghost-step")
    assert card.kind == "other"
    b = battle(card, hand=("gun",))
    assert not of_type(play(b, "ghost-step"), MoveGranted)  # no attack yet: nothing
    assert b.seat(0).free_move == 0
    b = battle(card, hand=("gun",))
    attack(b, card_from_dict(CARDS["gun"]))  # a miss is an attack made
    granted = one(play(b, "ghost-step"), MoveGranted)
    assert (granted.hexes, granted.source) == (2, "ghost-step")
    spent = b.seat(0).sp_spent
    b.do({"type": "move", "seat": 0, "path": [[0, 4], [0, 5]], "free": True})
    assert (b.seat(0).at.q, b.seat(0).at.r, b.seat(0).sp_spent) == (0, 5, spent)


TRIGGERS_SCENARIOS[("nomads", "ghost-step")] = _ghost_step


def _ironborn_resilience() -> None:
    """ "Passive: The first Component Damage you take each round is ignored.": the first
    point in a round, not the second; a new round, a new first (R-ADD-136)."""
    card = built("dwarves", "ironborn-resilience")
    b = battle(card, hand=("gun", "blade"), opponent=("gun",))
    play(b, "ironborn-resilience")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})

    def hit_and_discard(weapon: str, attacker_card: str) -> list[Event]:
        # Two BLOOD faces: 2 damage; seat 0 discards a Primary Weapon card and one from the
        # deck, so the named component (chassis) takes 1 Component Damage (R-DMG-6).
        _seat1_attacks(b, attacker_card, (3, 2, 4, 4))
        return b.do({"type": "take_damage", "seat": 0, "hand": [weapon], "deck": 1,
                     "drawn": [FILLER]})  # fmt: skip

    events = hit_and_discard("gun#1", "test-maul#1")
    prevented = one(events, ComponentDamagePrevented)
    assert (prevented.component, prevented.amount) == ("chassis", 1)
    assert b.seat(0).damage_of("chassis") == 0
    events = hit_and_discard("blade#1", "gun#1")  # the same round: taken
    assert not of_type(events, ComponentDamagePrevented)
    assert b.seat(0).damage_of("chassis") == 1
    # Round 2: the strain roll's critical failure (10 Heat) is the round's first: ignored.
    b.do({"type": "adjust_heat", "seat": 0, "heat": 10, "reason": "arranged"})
    events = b.do({"type": "pass", "seat": 1, "drawn": ["test-maul", FILLER],
                   "faces": [6, 1, 3]})  # fmt: skip
    assert one(events, ComponentDamagePrevented).component == "legs"
    assert b.seat(0).damage_of("legs") == 0


TRIGGERS_SCENARIOS[("dwarves", "ironborn-resilience")] = _ironborn_resilience


def _verdant_regeneration() -> None:
    """ "At the start of each round, recover 1 card from discard pile. If you have Living
    Seal equipped, recover 2 cards instead.": no Living Seal exists to carry (R-ADD-137);
    the recovery comes once the round's initiative is rolled, before its first turn."""
    card = built("elves", "verdant-regeneration")
    b = battle(card, first=1)
    b.do({"type": "pass", "seat": 1})
    play(b, "verdant-regeneration")
    junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
    arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * 3, "faces": [6, 1]})
    names = [e.type for e in events]
    assert one(events, CardsRecovered).cards == (junk[1],)  # one card, the newest
    assert names.index("InitiativeRolled") < names.index("CardsRecovered")
    assert names.index("CardsRecovered") < names.index("TurnStarted")


TRIGGERS_SCENARIOS[("elves", "verdant-regeneration")] = _verdant_regeneration


def _compound_vision() -> None:
    """ "Passive: You can see in 360° (cannot be flanked). Attacks against you from behind
    do not gain bonuses.": an attack from the rear is judged as from the front (R-ADD-136)."""
    card = built("emergent", "compound-vision")
    sides = []
    for played in (False, True):
        b = battle(card)
        if played:
            play(b, "compound-vision")
            assert "compound-vision#1" in b.seat(0).in_play
        b.do({"type": "rotate", "seat": 0, "facing": 4})  # its back to seat 1, north of it
        b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
        d = one(_seat1_attacks(b, "test-maul#1"), AttackDeclared)
        sides.append((d.side, hit(d), d.reactive_allowed))
    assert sides == [(4, 2 + 3, False), (1, 2, True)]  # rear +3 damage (R-ARC-2), front


def test_an_unflankable_defender_takes_the_front_on_a_sector_boundary() -> None:
    """R-ADD-136: between the front and the weapon side, never the shield side."""
    from battles.engine.arcs import attack_side
    from battles.engine.battle.decide import _facing_for
    from battles.engine.hexes import Hex

    card = built("emergent", "compound-vision")
    b = battle(card)
    play(b, "compound-vision")
    s = b.state
    d = s.seats[0]
    for shield, attacker, facing in (
        ("left", Hex(1, 1), 1),  # [0, 3] + (1, -2): the vertex between N (1) and NE (2)
        ("right", Hex(1, 1), 2),
        ("left", Hex(-1, 2), 6),  # [0, 3] + (-1, -1): between NW (6) and N (1), wrapping
        ("right", Hex(-1, 2), 1),
    ):
        assert _facing_for(s, replace(d, shield=shield), attacker) == facing, (shield, attacker)
        assert attack_side(d.at, facing, attacker, shield) == 1  # the defender's choice


TRIGGERS_SCENARIOS[("emergent", "compound-vision")] = _compound_vision


def _molten_core_plating() -> None:
    """ "You can have up to 12 Heat before overheating (instead of 10).": at 10 Heat the
    strain check rolls (1 + 10 = 11: System Damage, 2 damage) instead of failing
    critically; at 12 it fails without a roll (R-TRN-4, R-ADD-136)."""
    card = built("dwarves", "molten-core-plating")
    for played, heat, faces, outcome in (
        # A turn without actions sheds 1 Heat (R-TRN-5): 11 is 10 when the turn starts, and
        # fails without a roll; 3: the legs (R-TRN-4).
        (False, 11, (3,), "critical_failure"),
        (True, 10, (1,), "system_damage"),
        (True, 12, (3,), "critical_failure"),
    ):
        b = battle(card)
        if played:
            play(b, "molten-core-plating")
            assert "molten-core-plating#1" in b.seat(0).in_play
        b.do({"type": "adjust_heat", "seat": 0, "heat": heat, "reason": "arranged"})
        checked = one(_next_own_turn(b, faces), StrainChecked)
        rolled = played and heat < 12
        assert (checked.outcome, checked.roll is not None) == (outcome, rolled), (played, heat)
        assert checked.heat == (10 if heat == 11 else heat)


TRIGGERS_SCENARIOS[("dwarves", "molten-core-plating")] = _molten_core_plating


def _scrapper() -> None:
    """ "When you destroy an enemy Casket, immediately draw 2 cards and recover 2 cards
    from discard.": played in the own turn once its attack has destroyed one, once a turn
    (R-ADD-131)."""
    card = built("nomads", "scrapper")
    gun = card_from_dict(CARDS["gun"])
    for kill in (False, True):
        b = battle(card, hand=("gun", "scrapper"), version="2.1")
        junk = next(x for x in b.seat(0).hand if x.startswith(FILLER))
        arrange(b, CardsDiscarded(0, (junk,), (), "arranged", "R-ADD-14"))
        resolve_hit(b, gun, 2, kill=kill)
        hand = len(b.seat(0).hand)
        events = play(b, "scrapper", drawn=[FILLER] * 2) if kill else play(b, "scrapper")
        assert len(of_type(events, CardsDrawn)) == kill
        recovered = of_type(events, CardsRecovered)
        assert [e.cards for e in recovered] == ([("gun#1", junk)] if kill else [])
        assert len(b.seat(0).hand) == hand - 1 + (4 if kill else 0)
        err = b.refuse({"type": "play_card", "seat": 0, "card": "scrapper#2"})
        assert (err.code, err.rule) == ("use_limit_reached", "R-ADD-63")


TRIGGERS_SCENARIOS[("nomads", "scrapper")] = _scrapper


def _crushing_blow() -> None:
    """ "4 damage. Destroy 1 Component on Crit.": a critical hit (9, R-HIT-4) destroys the
    targeted component as the attack ends; a strong hit (8) does not (R-ADD-131)."""
    check_attack("equipment", "crushing-blow-dmg", Attack(1, 4))
    card = built("equipment", "crushing-blow-dmg")
    for faces, grade, destroyed in (((4, 4), "strong", False), ((5, 4), "critical", True)):
        b = battle(card)
        damage = 4 + (1 if grade == "strong" else 2)  # R-DMG-1
        events = attack(b, card, faces=[*faces, *[1] * damage])  # all SHIELD: no damage
        assert one(events, DefenceRolled).final_damage == 0
        gone = of_type(events, ComponentDestroyed)
        assert [(e.seat, e.component) for e in gone] == ([(1, "chassis")] if destroyed else [])
        assert ("chassis" in b.seat(1).destroyed) == destroyed, grade
        names = [e.type for e in events]
        if destroyed:
            assert names.index("ComponentDestroyed") < names.index("AttackEnded")


TRIGGERS_SCENARIOS[("equipment", "crushing-blow-dmg")] = _crushing_blow


def _woods(card: CardDef) -> Battle:
    """Seat 0 at [0, 3] facing N holds `card`; seat 1, an enemy, stands north of it at
    [0, 2]; [1, 2] is forest (difficult, 2 SP, R-BRD-3). Seat 0 acts first."""
    doc = {
        "name": "Woods",
        "board": {"name": "Woods", "shape": {"kind": "hexagon", "radius": 8},
                  "hexes": [{"q": 1, "r": 2, "terrain": "forest"}]},
        "rules": {"version": "2.0", "options": {}}, "dice": {"mode": "table"}, "policy": "prompt",
        "cards": [CARDS[FILLER], card.as_dict()],
        "seats": [{**seat(0, at=(0, 3), facing=1), "deck": deck(**{card.id: 1})},
                  {**seat(1, at=(0, 2), facing=4), "deck": deck()}],
    }  # fmt: skip
    return start(doc, [[card.id, *[FILLER] * 5], [FILLER] * 6], initiative=(6, 1))


def _impossible_geometry() -> None:
    """ "Passive: You may move through enemy-occupied hexes (they see a different you,
    illusion). You may ignore terrain costs (you don't walk, you *step between*). Your
    movement does not provoke reactions.": through the enemy at 1 SP a hex, never ending on
    it; the forest costs 1 (R-ADD-136)."""
    card = built("wyrd-conclave", "impossible-geometry")
    b = _woods(card)
    through = {"type": "move", "seat": 0, "path": [[0, 2], [0, 1]]}
    assert b.refuse(through).code == "enemy_in_path"  # not yet in play (R-MOV-2)
    play(b, "impossible-geometry")
    assert b.refuse({"type": "move", "seat": 0, "path": [[0, 2]]}).code == "occupied_destination"
    b.do(through)
    assert (b.seat(0).at.q, b.seat(0).at.r, b.seat(0).sp_spent) == (0, 1, 2)
    b = _woods(card)
    play(b, "impossible-geometry")
    b.do({"type": "move", "seat": 0, "path": [[1, 2]]})  # forest: 1 SP, not 2
    assert b.seat(0).sp_spent == 1
    b = _woods(card)
    b.do({"type": "move", "seat": 0, "path": [[1, 2]]})
    assert b.seat(0).sp_spent == 2  # without the card


TRIGGERS_SCENARIOS[("wyrd-conclave", "impossible-geometry")] = _impossible_geometry


def _void_reflection(section: str) -> None:
    """ "Play when attacked in melee. Deal 2 damage to attacker. Spend 1 Taint: Deal 4
    damage instead.": the spend is the player's, from the pilot's Taint (R-ADD-130)."""
    card = built(section, "void-reflection")
    for taint, spend, counter in ((0, False, 2), (2, True, 4)):
        b = battle(card, first=1, version="2.1")
        if taint:
            b.do({"type": "adjust_taint", "seat": 0, "taint": taint, "reason": "arranged"})
        _maul_on_seat0(b)
        answer: dict[str, Any] = {"type": "play_reactive", "seat": 0,
                                  "card": "void-reflection#1", "faces": [1, 1]}  # fmt: skip
        if spend:
            answer["spend"] = True
        events = b.do(answer)
        prompt = one(events, PromptOpened)
        assert (prompt.seat, prompt.kind, prompt.amount) == (1, "take_damage", counter)
        assert b.seat(0).taint == taint - (1 if spend else 0)
    # Without Taint the spend is refused; against a ranged attack the card is not offered.
    b = battle(card, first=1)
    _maul_on_seat0(b)
    err = b.refuse({"type": "play_reactive", "seat": 0, "card": "void-reflection#1",
                    "faces": [1, 1], "spend": True})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_taint", "R-ADD-130")
    b = battle(card, first=1, opponent=("gun",))
    events = _seat1_attacks(b, "gun#1", (3, 2, 4, 4))
    assert [p.kind for p in of_type(events, PromptOpened)] == ["take_damage"]


TRIGGERS_SCENARIOS.update({
    ("equipment", "void-reflection"): lambda: _void_reflection("equipment"),
    ("equipment_items", "void-reflection"): lambda: _void_reflection("equipment_items"),
})  # fmt: skip


def _paradox_blade() -> None:
    """ "Deal 6 damage. You also take 2 damage (paradox hurts you too). Spend 2 Bargain
    tokens to negate self-damage (offload cost to another reality).": the 2 once the attack
    has ended, a miss too, unless bought off (R-ADD-130)."""
    check_attack("wyrd-conclave", "paradox-blade", Attack(1, 6))
    card = built("wyrd-conclave", "paradox-blade")
    b = battle(card)
    events = attack(b, card)  # a miss
    due = one(events, SelfDamageDue)
    assert (due.seat, due.amount) == (0, 2)
    prompt = one(events, PromptOpened)
    assert (prompt.seat, prompt.kind, prompt.amount) == (0, "take_damage", 2)
    assert events.index(prompt) > [e.type for e in events].index("AttackEnded")
    b = battle(card)
    tokens(b, "bargain", 3)
    events = attack(b, card, spend=True)
    assert not of_type(events, SelfDamageDue) and not of_type(events, PromptOpened)
    assert b.seat(0).tokens_of("bargain") == 1
    b = battle(card)
    tokens(b, "bargain", 1)
    err = b.refuse({"type": "attack", "seat": 0, "card": "paradox-blade#1", "target": 1,
                    "spend": True, "component": "chassis", "faces": [1, 1]})  # fmt: skip
    assert (err.code, err.rule) == ("not_enough_tokens", "R-ADD-61")


TRIGGERS_SCENARIOS[("wyrd-conclave", "paradox-blade")] = _paradox_blade


def _ancestral_wrath() -> None:
    """ "Passive: When you take Component Damage, your next attack deals +3 damage. This
    bonus is consumed after one attack.": two points at once give +3, not +6; the next
    attack spends it (R-ADD-139)."""
    card = built("dwarves", "ancestral-wrath")
    b = battle(card, hand=("gun", "blade", "pistol"))
    play(b, "ancestral-wrath")
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER]})
    _seat1_attacks(b, "test-maul#1", (3, 2, 4, 4))  # 2 damage, no blocks
    # Two Primary Weapon cards discarded: 2 Component Damage to the chassis (R-DMG-6).
    events = b.do({"type": "take_damage", "seat": 0, "hand": ["gun#1", "blade#1"], "deck": 0})
    assert one(events, ComponentDamaged).amount == 2
    assert [e.damage for e in of_type(events, BuffGained)] == [3]
    assert one(events, BonusHeld).source == "ancestral-wrath#1"
    assert b.seat(0).buff_damage == 3
    b.do({"type": "pass", "seat": 1, "drawn": ["test-maul"], "faces": [6, 1]})
    assert b.state.active == 0
    assert hit(declared(b, card_from_dict(CARDS["pistol"]))) == 2 + 3
    assert b.seat(0).held_bonuses == () and b.seat(0).buff_damage == 0


TRIGGERS_SCENARIOS[("dwarves", "ancestral-wrath")] = _ancestral_wrath


def _nomads_riposte() -> None:
    """ "Play when attacked in melee. After taking damage, immediately counterattack for 3
    damage.": counter-damage 3 once the attack has ended, only when it left damage to take
    (R-ADD-130)."""
    card = built("equipment_items", "nomads-riposte")
    assert card.kind == "reactive"
    for faces, took, counter in (([4, 4], 2, 3), ([1, 1], 0, 0)):  # BLOOD, or SHIELD faces
        b = battle(card, first=1, version="2.1")
        _maul_on_seat0(b)
        events = b.do({"type": "play_reactive", "seat": 0, "card": "nomads-riposte#1",
                       "faces": faces})  # fmt: skip
        assert one(events, DefenceRolled).final_damage == took
        if took:
            b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": took,
                  "drawn": [FILLER] * took})  # fmt: skip
        prompts = [p for p in of_type(b.events, PromptOpened) if p.kind == "take_damage"]
        assert [(p.seat, p.amount) for p in prompts if p.seat == 1] == (
            [(1, counter)] if counter else []
        ), faces


TRIGGERS_SCENARIOS[("equipment_items", "nomads-riposte")] = _nomads_riposte


@pytest.mark.parametrize("key", sorted(TRIGGERS_SCENARIOS), ids="/".join)
def test_triggers_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, TRIGGERS_SCENARIOS[key])
