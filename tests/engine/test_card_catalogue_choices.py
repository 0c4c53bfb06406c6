"""Scenarios for the catalogue entries of issue-28's second round that the player decides
as the card is played (an amount of tokens, a hex, a second target) or that read a
sentence by a ruling of R-ADD-388 to R-ADD-399, played through decide/evolve with the
helpers of test_card_catalogue.py. Each scenario quotes the text it checks;
`test_every_automated_entry_has_a_scenario_below` counts them with the others.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import CardsDiscarded, CardsRecovered, TokensChanged

from .battle_builder import FILLER, of_type, one
from .test_card_catalogue import arrange, battle, built, play, run_scenario, tokens

VESTIGE = "vestige-bloodlines"
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


@pytest.mark.parametrize("key", sorted(CHOICES_SCENARIOS), ids="/".join)
def test_choices_scenario(key: tuple[str, str]) -> None:
    run_scenario(key, CHOICES_SCENARIOS[key])
