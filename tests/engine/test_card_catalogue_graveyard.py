"""Scenarios for the catalogue entries that take cards back from the Damage Graveyard or
answer lethal damage with hit points (the second card round, R-ADD-440 to R-ADD-449),
played through decide/evolve with the helpers of test_card_catalogue.py; each card is built
from its own database entry, and each scenario quotes the text it checks.
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from battles.engine.battle.events import CardPlayed, CardsRestored, DamageTaken
from battles.sentences import Names, describe, plain

from .battle_builder import of_type, one
from .test_card_catalogue import arrange, battle, built, play, run_scenario

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


@pytest.mark.parametrize("key", sorted(GRAVEYARD_SCENARIOS), ids="/".join)
def test_graveyard_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, GRAVEYARD_SCENARIOS[key])
