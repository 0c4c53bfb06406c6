"""Scenarios for the catalogue entries of the optional v3 cards (`v3_optional.<name>`,
R-ADD-53), played through decide/evolve like those of test_card_catalogue.py, whose
helpers they use; each card is built from its own database entry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle.events import CardsDiscarded, CardsRecovered, TaintChanged

from .battle_builder import FILLER, one
from .test_card_catalogue import AUTOMATED, arrange, battle, built, play, run_scenario

TAINT = "v3_optional.taint_exploitation"
REALCARDS_SCENARIOS: dict[tuple[str, str], Callable[[], object]] = {}


def _regeneration_purge() -> None:
    """ "Recover 2 cards from discard pile. Remove 1 Taint Marker.": the two newest cards of
    the discard pile back to the hand (R-ADD-62), and the pilot's Taint one lower, never
    below 0 (R-ADD-66)."""
    card = built(TAINT, "regeneration-purges-taint")
    for taint, left in ((2, 1), (0, 0)):
        b = battle(card)
        if taint:
            b.do({"type": "adjust_taint", "seat": 0, "taint": taint, "reason": "arranged"})
        junk = tuple(x for x in b.seat(0).hand if x.startswith(FILLER))[:2]
        arrange(b, CardsDiscarded(0, junk, (), "arranged", "R-ADD-14"))
        events = play(b, "regeneration-purges-taint")
        assert set(one(events, CardsRecovered).cards) == set(junk)
        assert set(junk) <= set(b.seat(0).hand)
        assert b.seat(0).taint == left
        if taint:
            assert one(events, TaintChanged).source == "regeneration-purges-taint"


REALCARDS_SCENARIOS.update({
    (TAINT, "regeneration-purges-taint"): _regeneration_purge,
})  # fmt: skip


@pytest.mark.parametrize("key", sorted(REALCARDS_SCENARIOS), ids="/".join)
def test_realcards_scenario(key: tuple[str, str]) -> None:
    assert key in AUTOMATED
    run_scenario(key, REALCARDS_SCENARIOS[key])
