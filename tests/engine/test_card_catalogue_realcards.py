"""Scenarios for the catalogue entries of the optional v3 cards (`v3_optional.<name>`,
R-ADD-53), played through decide/evolve like those of test_card_catalogue.py, whose
helpers they use; each card is built from its own database entry."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from battles.engine.battle import battle_outcome
from battles.engine.battle.events import CardsDiscarded, CardsRecovered, TaintChanged
from battles.engine.errors import InvalidInput

from .battle_builder import FILLER, Battle, one
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


def test_bargain_struck_counts_once_its_tokens_reach_the_campaign() -> None:
    """R-ADD-306: Bargain Struck's "Bargain tokens persist across missions" is carried
    (the outcome's tokens, the next setup's `pilot.tokens`), so coverage counts it as
    automated and names nothing pending; a card whose promise the campaign did not carry
    would stay uncounted (R-ADD-275)."""
    from battles.engine.carddata.coverage import coverage_markdown

    read = database()
    assert read.counted("bargain-struck") and read.pending == {}
    table = coverage_markdown(read, source="db.json")
    assert not any(x.startswith("| `bargain-struck`") for x in table.splitlines())
    ids = [i for i in read.cards if read.cards[i].card.automated]
    assert read.automated == len(ids)


def test_the_next_battle_starts_the_pilot_with_the_tokens_the_outcome_carried() -> None:
    """R-ADD-306: the setup's `pilot.tokens` (only pools a card says persist, within their
    maximum) is the casket's pool at the start; the outcome gives the count at the end."""
    card = built("wyrd-conclave", "bargain-struck")
    b = battle(card)
    doc = b.state.setup
    seat0 = {**doc["seats"][0], "pilot": {**doc["seats"][0]["pilot"], "tokens": {"bargain": 4}}}
    again = Battle.create({**doc, "seats": [seat0, *doc["seats"][1:]]})
    assert again.seat(0).tokens_of("bargain") == 4
    again.do({"type": "end_battle", "seat": 0, "side": None, "reason": "arranged"})
    assert [s.tokens for s in battle_outcome(again.events).seats] == [
        (("bargain", 4),),
        (("bargain", 0),),
    ]
    for tokens, field in (({"bargain": 11}, "bargain"), ({"fury": 1}, "fury")):
        bad = {**seat0, "pilot": {**seat0["pilot"], "tokens": tokens}}
        with pytest.raises(InvalidInput) as info:
            Battle.create({**doc, "seats": [bad, *doc["seats"][1:]]})
        assert (info.value.field, info.value.rule) == (
            f"seats[0].pilot.tokens.{field}",
            "R-ADD-306",
        )
