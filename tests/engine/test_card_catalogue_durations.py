"""Scenarios for the catalogue entries of cards lasting "for N turns" (R-ADD-375): the card
stays in play through that many of its owner's turns, the one it is played in first, its
passives firing and its standing rules holding, and leaves play as the last of them ends.
Played through decide/evolve with the helpers of test_card_catalogue.py; each scenario
quotes the text it checks; `test_every_automated_entry_has_a_scenario_below` counts them
with the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from battles.engine.battle.events import (
    AttackDeclared,
    CardLapsed,
    CardsDiscarded,
    CardsRecovered,
    DamageNegated,
    DamageScheduled,
    PromptOpened,
)
from battles.engine.cards import card_from_dict
from battles.engine.errors import InvalidInput
from battles.sentences import Names, describe, plain

from .battle_builder import FILLER, of_type, one
from .test_card_catalogue import arrange, battle, built, play, run_scenario

ITEMS = "equipment_items"
DURATIONS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _wild_growth() -> None:
    """ "For 2 turns: At end of your turn, recover 2 cards from discard pile, cannot
    attack": two recoveries, at the end of the turn it is played in and of the owner's next
    turn; no attack in either; then the card goes to the discard pile and attacking is
    allowed again (R-ADD-375, R-ADD-68, R-ADD-62)."""
    card = built(ITEMS, "world-tree-staff-wild-growth")
    instance = f"{card.id}#1"
    b = battle(card, hand=("blade",))
    fillers = [x for x in b.seat(0).hand if x.startswith(FILLER)]
    arrange(b, CardsDiscarded(0, tuple(fillers[:2]), (), "arranged", "R-ADD-14"))
    play(b, card.id)
    assert instance in b.seat(0).in_play and b.seat(0).timed == ((instance, 2),)
    attack = {"type": "attack", "seat": 0, "card": "blade#1", "target": 1,
              "component": "chassis", "faces": [1, 1]}  # fmt: skip
    assert b.refuse(attack).code == "no_attacks"
    for turn in (1, 2):
        junk = tuple(x for x in b.seat(0).discard if x.startswith(FILLER))[-2:]
        drawn = [FILLER] * (6 - len(b.seat(0).hand))
        events = b.do({"type": "pass", "seat": 0, "drawn": drawn})
        assert set(one(events, CardsRecovered).cards) == set(junk), turn
        assert one(events, PromptOpened).kind == "discard_down"  # 6 + 2 recovered
        extra = [x for x in b.seat(0).hand if x.startswith(FILLER)][:2]
        events = b.do({"type": "discard_down", "seat": 0, "cards": extra})
        lapsed = of_type(events, CardLapsed)
        if turn == 1:  # the turn it was played in is the first of its 2
            assert not lapsed and b.seat(0).timed == ((instance, 1),)
            b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
            assert instance in b.seat(0).in_play
            err = b.refuse(attack)  # the standing rule, not the played turn's flag
            assert (err.code, err.rule) == ("no_attacks", "R-ADD-375")
        else:
            assert lapsed == [CardLapsed(0, instance, 2, False)]
            assert instance in b.seat(0).discard and instance not in b.seat(0).in_play
            assert b.seat(0).timed == ()
            words = plain(
                describe("CardLapsed", dataclasses.asdict(lapsed[0]), Names({0: "Oak"}, {}, {}))
            )
            assert "has lasted its 2 turns and goes to Oak's discard pile" in words, words
            assert "R-ADD-375" in words
    b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 3: it attacks again
    assert "blade#1" in b.seat(0).hand
    b.do(attack)
    assert b.seat(0).attacked


DURATIONS_SCENARIOS[(ITEMS, "world-tree-staff-wild-growth")] = _wild_growth


def _berserker_serum() -> None:
    """ "For 2 turns: All attacks +3 damage, ignore pain (first 3 damage each turn negated),
    gain 1 Heat per turn. Remove this card from game after use.": through the turn it is
    played in and the owner's next, each attack deals +3 (R-ADD-74), the first 3 damage of
    a turn are negated and the rest taken (R-ADD-376), 1 Heat at the end of each of the two
    turns; then it is removed from the game (R-ADD-375, R-ADD-70)."""
    card = built(ITEMS, "combat-stimulants-berserker-serum")
    instance = f"{card.id}#1"
    b = battle(card, hand=("blade", "gun"))

    def hit_damage(weapon: str) -> int:
        body = {"type": "attack", "seat": 0, "card": f"{weapon}#1", "target": 1,
                "component": "chassis", "faces": [1, 1]}  # fmt: skip
        d = one(b.do(body), AttackDeclared)
        return int(dict(d.damage_by_grade)["hit"])

    play(b, card.id)
    assert b.seat(0).timed == ((instance, 2),)
    assert hit_damage("gun") == 2 + 3  # "Ranged 1-6", 2 damage
    b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert b.seat(0).heat == 1 and instance in b.seat(0).in_play
    arrange(b, DamageScheduled(0, 5, "arranged"))  # taken as seat 0's next turn starts
    events = b.do({"type": "pass", "seat": 1, "faces": [6, 1]})  # round 2, seat 0 first
    assert one(events, DamageNegated) == DamageNegated(0, 3, instance, 3)
    prompt = one(events, PromptOpened)
    assert (prompt.kind, prompt.amount) == ("take_damage", 2)
    b.do({"type": "take_damage", "seat": 0, "hand": [], "deck": 2, "drawn": [FILLER] * 2})
    assert b.seat(0).turn_negated == ((instance, 3),)
    assert hit_damage("blade") == 3 + 3  # its second turn: "Melee", 3 damage
    events = b.do({"type": "pass", "seat": 0, "drawn": [FILLER] * (6 - len(b.seat(0).hand))})
    assert b.seat(0).heat == 2  # its second turn's Heat
    assert of_type(events, CardLapsed) == [CardLapsed(0, instance, 2, True)]
    assert instance in b.seat(0).removed and instance not in b.seat(0).in_play
    assert b.seat(0).turn_negated == () and b.seat(0).timed == ()


DURATIONS_SCENARIOS[(ITEMS, "combat-stimulants-berserker-serum")] = _berserker_serum


@pytest.mark.parametrize("key", sorted(DURATIONS_SCENARIOS), ids="/".join)
def test_durations_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, DURATIONS_SCENARIOS[key])


@pytest.mark.parametrize(
    ("kind", "effects"),
    [
        ("reactive", [{"kind": "for_turns", "turns": 2}, {"kind": "reduce_incoming", "amount": 1}]),
        ("other", [{"kind": "for_turns", "turns": 2}, {"kind": "for_turns", "turns": 1}]),
    ],
)
def test_a_duration_is_said_once_of_a_card_played_in_its_owners_turn(
    kind: str, effects: list[dict[str, object]]
) -> None:
    doc = {"id": "test-timed", "name": "Test Timed", "kind": kind, "sp_cost": 1,
           "heat": 0, "automated": True, "effects": effects}  # fmt: skip
    with pytest.raises(InvalidInput) as err:
        card_from_dict(doc)
    assert err.value.rule == "R-ADD-375"
