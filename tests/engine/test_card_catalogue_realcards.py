"""Scenarios for the catalogue entries of the optional v3 cards (`v3_optional.<name>`,
R-ADD-53), played through decide/evolve like those of test_card_catalogue.py, whose
helpers they use; each card is built from its own database entry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle import battle_outcome
from battles.engine.battle.events import CardsDiscarded, CardsRecovered, TaintChanged

from .battle_builder import FILLER, one
from .test_card_catalogue import (
    AUTOMATED,
    arrange,
    battle,
    built,
    database,
    play,
    run_scenario,
)

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


def test_the_outcome_carries_the_taint_cards_applied_not_the_gm_s() -> None:
    """R-ADD-275: the battle's outcome gives each seat the net Taint its cards changed on
    its pilot (R-ADD-66); a GM adjustment is the GM's, made on the campaign directly."""
    card = built(TAINT, "regeneration-purges-taint")
    b = battle(card)
    b.do({"type": "adjust_taint", "seat": 0, "taint": 2, "reason": "arranged"})
    play(b, "regeneration-purges-taint")
    assert b.seat(0).taint == 1
    b.do({"type": "end_battle", "seat": 0, "side": None, "reason": "arranged"})
    seats = battle_outcome(b.events).seats
    assert [(s.seat, s.card_taint) for s in seats] == [(0, -1), (1, 0)]


def test_a_card_promising_what_the_campaign_does_not_carry_is_not_counted() -> None:
    """R-ADD-275: Bargain Struck plays automated (its start-of-turn Bargain token), but
    "Bargain tokens persist across missions" is not carried to the campaign: coverage does
    not count it as automated and says why."""
    from battles.engine.carddata.coverage import coverage_markdown, faction_coverage

    read = database()
    card = read.cards["bargain-struck"].card
    assert card.automated and not read.counted("bargain-struck")
    assert "persist across missions" in read.pending["bargain-struck"]
    table = coverage_markdown(read, source="db.json")
    line = next(x for x in table.splitlines() if x.startswith("| `bargain-struck`"))
    assert "not carried to the campaign yet (R-ADD-275)" in line
    wyrd = next(r for r in faction_coverage(read) if r.faction == "wyrd-conclave")
    ids = [i for i in read.cards if read.cards[i].card.automated and i not in read.pending]
    assert read.automated == len(ids) and wyrd.automated < wyrd.deck_cards
