"""Issue 14: the pilot sheet: wound deck for the next battle (R-PLT-2), scars, Taint over
time, the career with replay links, GM adjustments; printable on one page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from campaigns import selectors, services

from .builders import demo_campaign, finish, make_users, start_mission
from .test_pages_campaign import client_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


def sheet(dc: Any, pilot: int = 0) -> str:
    return f"/campaigns/{dc.campaign.id}/pilots/{dc.pilots[pilot].id}/"


def test_pilot_sheet_access_gm_member_outsider_anonymous(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    assert client_for(dc.gm).get(sheet(dc)).status_code == 200
    assert client_for(dc.ann).get(sheet(dc)).status_code == 200
    assert client_for(dc.bob).get(sheet(dc)).status_code == 200  # players read everything
    assert client_for(outsider).get(sheet(dc)).status_code == 404
    assert Client().get(sheet(dc))["Location"].startswith("/accounts/login/")


def test_unknown_pilot_is_404(dc: Any) -> None:
    url = f"/campaigns/{dc.campaign.id}/pilots/{dc.builds[0].id}/"
    assert client_for(dc.gm).get(url).status_code == 404


def test_campaign_page_links_each_pilot_to_their_sheet(dc: Any) -> None:
    body = client_for(dc.ann).get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert sheet(dc, 0) in body and sheet(dc, 1) in body


def test_after_a_battle_the_sheet_shows_carried_wounds_face_up_and_replay_links(dc: Any) -> None:
    _, battle = start_mission(dc, seed=3, name="Cinder Road")
    finish(battle, dc.gm)
    state = services.campaign_state(campaign=dc.campaign)
    for i, pilot in enumerate(dc.pilots):
        body = client_for(dc.gm).get(sheet(dc, i)).content.decode()
        carried = set(state.pilots[str(pilot.id)].carried_wounds)
        up = set(re.findall(r'data-wound="([a-z]+-\d)" data-face="up"', body))
        down = set(re.findall(r'data-wound="([a-z]+-\d)" data-face="down"', body))
        assert up == carried and len(up | down) == 10 and not up & down
        assert f"{len(carried)} of 10 wound cards start face up" in body
        steps = re.findall(rf'href="/battles/{battle.id}/replay/\?at=(\d+)"', body)
        assert steps, "every career step links to the replay at that step"
        career = selectors.pilot_career(campaign=dc.campaign, pilot_id=str(pilot.id))
        battle_versions = [str(e["version"]) for e in career["events"] if e["source"] == "battle"]
        assert steps == battle_versions
        assert f'data-battle="{battle.id}"' in body


def test_taint_over_time_is_a_data_table_for_the_chart(dc: Any) -> None:
    pid = str(dc.pilots[0].id)
    services.pilot_taint_adjust(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pid, delta=3, reason="a"
    )
    services.pilot_taint_adjust(
        campaign=dc.campaign, actor=dc.gm, pilot_id=pid, delta=-1, reason="b"
    )
    body = client_for(dc.ann).get(sheet(dc)).content.decode()
    table = re.search(r'<table data-chart="taint">.*?</table>', body, re.S)
    assert table is not None
    assert re.findall(r'data-taint="(\d+)"', table.group(0)) == ["0", "3", "2"]


def test_sheet_prints_on_one_page_via_media_print(dc: Any) -> None:
    body = client_for(dc.ann).get(sheet(dc)).content.decode()
    # The print rules live in the campaign pages' stylesheet (no inline style: CSP).
    assert "/static/campaigns/campaigns.css" in body
    css = Path(str(finders.find("campaigns/campaigns.css"))).read_text(encoding="utf-8")
    sheet_rules = css[css.index("/* The pilot sheet") :]
    assert "@media print" in sheet_rules and "@page" in sheet_rules
    assert 'class="screen-only' in body  # the long lists stay off paper


def test_gm_adjusts_a_pilot_with_post_redirect_get(dc: Any) -> None:
    gm = client_for(dc.gm)
    r = gm.post(f"{sheet(dc)}adjust/scar", {"scar": "Burnt hand", "reason": "Mission 0 fire"})
    assert r.status_code == 302 and r["Location"] == f"{sheet(dc)}#adjust-scar"
    r = gm.post(f"{sheet(dc)}adjust/taint", {"delta": "2", "reason": "Heresy"})
    assert r.status_code == 302
    body = gm.get(sheet(dc)).content.decode()
    assert "Burnt hand" in body
    assert services.campaign_state(campaign=dc.campaign).pilots[str(dc.pilots[0].id)].taint == 2


@pytest.mark.parametrize(
    ("kind", "form", "field", "rule"),
    [
        ("taint", {"delta": "x", "reason": "r"}, "delta", "R-PLT-4"),
        ("taint", {"delta": "-5", "reason": "r"}, None, "R-PLT-4"),
        ("taint", {"delta": "1", "reason": ""}, "reason", "R-PLT-4"),
        ("treat_trauma", {"wound": "severe-1", "reason": "r"}, None, "R-PLT-1"),
        ("sp_modifier", {"sp_modifier": "7", "reason": "r"}, "sp_modifier", "R-TRN-3"),
    ],
)
def test_refused_adjustments_are_400_and_change_nothing(
    dc: Any, kind: str, form: dict[str, str], field: str | None, rule: str
) -> None:
    before = services.campaign_state(campaign=dc.campaign).version
    r = client_for(dc.gm).post(f"{sheet(dc)}adjust/{kind}", form)
    assert r.status_code == 400
    body = r.content.decode()
    assert rule in body and "Nothing was changed" in body
    if field:
        assert f"<strong>{field}</strong>" in body
    assert services.campaign_state(campaign=dc.campaign).version == before


def test_players_cannot_adjust_and_outsiders_get_404(dc: Any) -> None:
    (outsider,) = make_users("outsider")
    form = {"delta": "5", "reason": "self-serving"}
    assert client_for(dc.ann).post(f"{sheet(dc)}adjust/taint", form).status_code == 403
    assert client_for(outsider).post(f"{sheet(dc)}adjust/taint", form).status_code == 404
    assert services.campaign_state(campaign=dc.campaign).pilots[str(dc.pilots[0].id)].taint == 0
    assert 'id="adjust-taint"' not in client_for(dc.ann).get(sheet(dc)).content.decode()
