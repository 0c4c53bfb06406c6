"""Tokens a card says persist across missions (Bargain Struck's Bargain tokens, R-ADD-306)
reach the campaign through the battle's outcome exactly once, start the next battle and
show on the pilot sheet."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import TestCase

from battles.codec import BATTLE_EVENTS
from battles.engine.battle import events as bev
from battles.selectors import battle_state_at, battle_stream
from campaigns import domain, services
from campaigns.codec import CAMPAIGN_EVENTS
from campaigns.models import Mission
from campaigns.selectors import campaign_state, campaign_stream
from penance_site.eventstore.store import NewEvent, append, read_stream
from tests.campaigns.builders import demo_campaign, fast_forward, seats, start_mission
from tests.campaigns.test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


def _gain(battle: Any, gm: Any, seat: int, total: int) -> None:
    """The seat gains Bargain tokens as Bargain Struck's start-of-turn trigger records it
    (R-ADD-61): a TokensChanged in the battle's own stream."""
    before = battle_state_at(battle=battle)
    held = before.seats[seat].tokens_of("bargain")
    event = bev.TokensChanged(seat, "bargain", total - held, total, "bargain-struck")
    type_, schema, payload = BATTLE_EVENTS.to_record(event)
    append(
        stream=battle_stream(battle=battle),
        expected_version=before.version,
        events=[NewEvent(type_, payload, schema)],
        command_id=f"gain-{battle.id.hex}-{total}",
        metadata={"actor": gm.username, "adjustment": False},
    )


def _end(battle: Any, gm: Any, seed: int) -> None:
    with TestCase.captureOnCommitCallbacks(execute=False):
        fast_forward(battle, gm, seed=seed)


def _carried(dc: Any) -> list[domain.TokensCarried]:
    events = map(CAMPAIGN_EVENTS.decode, read_stream(campaign_stream(campaign=dc.campaign)))
    return [e for e in events if isinstance(e, domain.TokensCarried)]


def test_bargain_tokens_reach_the_campaign_once_and_start_the_next_battle() -> None:
    dc = demo_campaign()
    ann = str(dc.pilots[0].id)
    mission, battle = start_mission(dc, seed=3)
    _gain(battle, dc.gm, seat=0, total=3)
    _end(battle, dc.gm, seed=3)
    assert services.campaign_outcome_apply(battle_id=str(battle.id))
    # A second delivery writes nothing (R-PLT-5).
    assert not services.campaign_outcome_apply(battle_id=str(battle.id))
    carried = _carried(dc)
    assert [(e.pilot_id, e.pool, e.count, e.mission_id) for e in carried] == [
        (ann, "bargain", 3, str(mission.id))
    ]
    state = campaign_state(campaign=dc.campaign)
    assert state.pilots[ann].tokens == (("bargain", 3),)
    assert state.pilots[str(dc.pilots[1].id)].tokens == ()

    sheet = client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/pilots/{ann}/")
    assert 'Bargain tokens <strong id="tokens-1">3</strong>' in sheet.content.decode()
    review = client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert "keeps 3 Bargain tokens from mission 1" in review

    # The next battle starts Ann's casket with them; spending two leaves one for the campaign.
    second = services.mission_plan(campaign=dc.campaign, actor=dc.gm, name="Second")
    battle2 = services.mission_start(
        mission=second,
        actor=dc.gm,
        board=battle_state_at(battle=battle).setup["board"],
        dice={"mode": "digital", "seed": 4},
        policy="auto",
        seats=seats(dc),
    )
    start = battle_state_at(battle=battle2)
    assert start.setup["seats"][0]["pilot"]["tokens"] == {"bargain": 3}
    assert "tokens" not in start.setup["seats"][1]["pilot"]
    assert start.seats[0].tokens_of("bargain") == 3
    _gain(battle2, dc.gm, seat=0, total=1)
    _end(battle2, dc.gm, seed=4)
    services.campaign_outcome_apply(battle_id=str(battle2.id))
    assert [e.count for e in _carried(dc)] == [3, 1]
    assert campaign_state(campaign=dc.campaign).pilots[ann].tokens == (("bargain", 1),)
    assert services.campaign_rows_check(campaign=dc.campaign) == []
    assert Mission.objects.get(id=second.id).status == "completed"


def test_a_battle_that_leaves_the_tokens_as_they_were_writes_nothing() -> None:
    dc = demo_campaign()
    _, battle = start_mission(dc, seed=3)
    _end(battle, dc.gm, seed=3)
    services.campaign_outcome_apply(battle_id=str(battle.id))
    assert _carried(dc) == []
