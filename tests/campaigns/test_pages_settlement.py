"""The settlement page: the ledger for the campaign's people, the phase as the GM's
wizard, refusals as form errors, a form sent twice recorded once (R-ADD-230…251)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from campaigns.selectors import campaign_state

from .builders import PC_1, demo_campaign, finish, make_users, start_mission
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def world() -> Any:
    dc = demo_campaign(campaign_rules=PC_1)
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    return dc, str(mission.id)


def page(dc: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/settlement/"


def do(dc: Any, command: str) -> str:
    return f"/campaigns/{dc.campaign.id}/settlement/do/{command}"


def command_id(html: str) -> str:
    found = re.search(r'name="command_id" value="([0-9a-f]+)"', html)
    assert found
    return found.group(1)


def test_access_gm_member_outsider_anonymous(world: Any) -> None:
    dc, _ = world
    (eve,) = make_users("eve")
    gm = client_for(dc.gm).get(page(dc))
    assert gm.status_code == 200 and 'data-command="open"' in gm.content.decode()
    member = client_for(dc.ann).get(page(dc))
    assert member.status_code == 200 and "data-command" not in member.content.decode()
    assert 'data-resource="credits"' in member.content.decode()
    assert client_for(eve).get(page(dc)).status_code == 404
    assert Client().get(page(dc)).status_code == 302  # to the login page
    assert client_for(dc.ann).post(do(dc, "open"), {"mission": world[1]}).status_code == 403


def test_a_plt1_campaign_has_no_settlement_page() -> None:
    dc = demo_campaign()
    assert client_for(dc.gm).get(page(dc)).status_code == 404
    assert (
        "settlement"
        not in client_for(dc.gm).get(f"/campaigns/{dc.campaign.id}/").content.decode().lower()
    )


def test_the_gm_walks_the_phase_and_a_resent_form_records_once(world: Any) -> None:
    dc, mid = world
    gm = client_for(dc.gm)
    html = gm.get(page(dc)).content.decode()
    cid = command_id(html)
    assert gm.post(do(dc, "open"), {"mission": mid, "command_id": cid}).status_code == 302
    version = campaign_state(campaign=dc.campaign).version
    assert gm.post(do(dc, "open"), {"mission": mid, "command_id": cid}).status_code == 302
    assert campaign_state(campaign=dc.campaign).version == version  # sent twice, recorded once
    assert gm.post(do(dc, "recruit"), {"mission": mid}).status_code == 302
    assert 'data-recruit="1"' in gm.get(page(dc)).content.decode()
    steps = [
        ("casualties", {}),
        ("rewards", {"success": "on", "objectives": "primary", "enemies_minion": "1"}),
        ("salvage", {"faces": "4 2"}),
        ("pilots", {}),
        ("income", {}),
        ("event", {"faces": "30"}),
    ]
    for command, fields in steps:
        html = gm.get(page(dc)).content.decode()
        assert f'data-command="{command}"' in html, command
        r = gm.post(do(dc, command), {"mission": mid, "command_id": command_id(html), **fields})
        assert r.status_code == 302, r.content.decode()[:2000]
    state = campaign_state(campaign=dc.campaign)
    assert state.settlement.scrap >= 2 and state.settlement.credits >= 100 - 45
    html = gm.get(page(dc)).content.decode()
    r = gm.post(
        do(dc, "action"),
        {
            "mission": mid,
            "command_id": command_id(html),
            "player": "ann",
            "action": "build",
            "detail": "arsenal",
        },
    )
    assert r.status_code == 400
    body = r.content.decode()
    assert "requires" in body or "population 20" in body
    assert "R-ADD-231" in body
    r = gm.post(do(dc, "event"), {"mission": mid, "faces": "30"})
    assert (
        r.status_code == 400
        and "step_out_of_order" not in body
        and "R-ADD-249" in r.content.decode()
    )
    r = gm.post(
        do(dc, "action"),
        {"mission": mid, "player": "ann", "action": "rest", "pilot": str(dc.pilots[0].id)},
    )
    assert r.status_code == 302
    html = gm.get(page(dc)).content.decode()
    assert (
        gm.post(
            do(dc, "finish_actions"), {"mission": mid, "command_id": command_id(html) + "-end"}
        ).status_code
        == 302
    )
    html = gm.get(page(dc)).content.decode()
    assert (
        gm.post(do(dc, "care"), {"mission": mid, "command_id": command_id(html)}).status_code == 302
    )
    html = gm.get(page(dc)).content.decode()
    assert 'data-command="offer"' in html
    assert gm.post(do(dc, "offer"), {"mission": mid, "count": "2"}).status_code == 302
    html = gm.get(page(dc)).content.decode()
    assert html.count('name="offer"') == 2 and 'data-command="offer"' not in html
    r = gm.post(
        do(dc, "select"),
        {
            "mission": mid,
            "command_id": command_id(html),
            "offer": "offer-2",
            "name": "The Drowned Chapel",
        },
    )
    assert r.status_code == 302
    state = campaign_state(campaign=dc.campaign)
    assert state.settlement.phase(mid).closed
    assert [m.name for m in state.missions][-1] == "The Drowned Chapel"  # the GM's name wins
    assert len(state.settlement.phase(mid).offers) == 2
    html = gm.get(page(dc)).content.decode()
    assert "No settlement phase is due" in html
    history = gm.get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert "dice revealed" in history and "Roll phase-1 #0" in history
    assert 'data-note="between"' in html and "Grit check roll 1d6" in html
    second = state.missions[-1].id
    wizard = gm.get(f"/campaigns/{dc.campaign.id}/missions/{second}/start/").content.decode()
    assert wizard.count('data-note="between"') >= len(
        state.pilots
    )  # the GM sees them at deployment
    own = html.split('<div class="settlement">', 1)[1]
    assert "<style" not in own and " style=" not in own and "<script" not in own


def test_a_face_outside_its_die_is_a_form_error(world: Any) -> None:
    dc, mid = world
    gm = client_for(dc.gm)
    gm.post(do(dc, "open"), {"mission": mid})
    gm.post(do(dc, "casualties"), {"mission": mid})
    gm.post(do(dc, "rewards"), {"mission": mid})
    r = gm.post(do(dc, "salvage"), {"mission": mid, "faces": "7"})
    assert r.status_code == 400
    assert "d6 shows 1 to 6, not 7" in r.content.decode()
    r = gm.post(do(dc, "salvage"), {"mission": mid, "faces": "x"})
    assert r.status_code == 400 and "faces" in r.content.decode()
