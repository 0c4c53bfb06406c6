"""Issue 14, after the battle: a mission's review page shows the outcome as the campaign
applied it (R-PLT-5) and the GM's adjustments since, by reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from campaigns import selectors, services

from .builders import demo_campaign, finish, make_users, start_mission
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> Any:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=3, name="Cinder Road")
    finish(battle, dc.gm)
    return dc, mission


def url(dc: Any, mission: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/missions/{mission.id}/"


def test_mission_page_access_gm_member_outsider(played: Any) -> None:
    dc, mission = played
    (outsider,) = make_users("outsider")
    assert client_for(dc.gm).get(url(dc, mission)).status_code == 200
    assert client_for(dc.bob).get(url(dc, mission)).status_code == 200
    assert client_for(outsider).get(url(dc, mission)).status_code == 404
    assert Client().get(url(dc, mission))["Location"].startswith("/accounts/login/")
    other = f"/campaigns/{dc.campaign.id}/missions/{dc.pilots[0].id}/"
    assert client_for(dc.gm).get(other).status_code == 404


def test_mission_page_shows_the_applied_outcome_and_later_adjustments(played: Any) -> None:
    dc, mission = played
    pid = str(dc.pilots[0].id)
    services.pilot_scar_add(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pid, scar="Ash lung", reason="Smoke"
    )
    body = client_for(dc.ann).get(url(dc, mission)).content.decode()
    state = selectors.campaign_state(campaign=dc.campaign)
    assert "in round" in body and 'data-type="MissionCompleted"' in body
    kept = sum(len(p.wounds) for p in state.pilots.values())
    assert body.count('data-type="PilotWounded"') == kept
    assert 'data-adjustment="ScarGained"' in body and "<td>Smoke</td>" in body
    assert f"/campaigns/{dc.campaign.id}/pilots/{pid}/" in body
    campaign_page = client_for(dc.ann).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert url(dc, mission) in campaign_page
