"""The optional modules on the settlement page and over the API: XP and skills
(R-ADD-315, R-ADD-316), Flesh Bargains (R-ADD-317), faction relationships (R-ADD-320):
the GM's forms while a phase is open, refusals as form errors and 4xx naming the rule,
and the page in words."""

from __future__ import annotations

from typing import Any

import pytest

from campaigns.between import relationships, skills, soulstone
from campaigns.selectors import campaign_state

from .builders import demo_campaign, finish, start_mission
from .test_campaigns_api import client_for as api_client
from .test_pages_campaign import client_for
from .test_pages_settlement import command_id, do, page
from .test_pages_words import PYTHON_WORDS, SNAKE_KEY, _Text

pytestmark = pytest.mark.django_db

MODULES = {"version": "pc-1", "modules": ["xp_skills", "flesh_bargains", "faction_relationships"]}


@pytest.fixture
def world() -> Any:
    dc = demo_campaign(campaign_rules=MODULES)
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    gm = client_for(dc.gm)
    assert gm.post(do(dc, "open"), {"mission": str(mission.id)}).status_code == 302
    return dc, str(mission.id)


def words(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    text = " ".join(parser.text)
    return PYTHON_WORDS.findall(text) + SNAKE_KEY.findall(text)


def test_the_gm_awards_xp_and_records_relationships_on_the_page(world: Any) -> None:
    dc, mid = world
    gm = client_for(dc.gm)
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="xp"') == 2  # both pilots flew the mission
    assert 'data-command="relationship"' in html and "Faction relationships" in html
    assert "modules Faction relationships, Flesh Bargains, XP and skills" in html
    assert words(html) == []
    ann = str(dc.pilots[0].id)
    r = gm.post(
        do(dc, "xp"),
        {
            "mission": mid,
            "command_id": command_id(html),
            "pilot": ann,
            "result": "victory",
            "bonuses": ["boss-defeated", "no-allied-lost"],
            "faces": "",
        },
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    state = campaign_state(campaign=dc.campaign)
    assert skills.pilot_skills(state.settlement, ann).xp == 175
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="xp"') == 1 and 'data-xp="175"' in html
    assert "next skill at 200" in html
    r = gm.post(do(dc, "xp"), {"mission": mid, "pilot": ann, "result": "victory"})
    assert r.status_code == 400 and "R-ADD-315" in r.content.decode()
    r = gm.post(
        do(dc, "relationship"),
        {"mission": mid, "faction": "church", "cause": "donate-credits"},
    )
    body = r.content.decode()
    assert r.status_code == 400 and "Credits" in body and "R-ADD-321" in body
    assert words(body) == []
    r = gm.post(
        do(dc, "relationship"),
        {"mission": mid, "faction": "church", "cause": "faction-mission-won"},
    )
    assert r.status_code == 302
    html = gm.get(page(dc)).content.decode()
    assert 'data-faction="church"' in html and "<strong>+1</strong> Cordial" in html
    history = gm.get(f"/campaigns/{dc.campaign.id}/").content.decode()
    assert "XP +175 to 175" in history and "Relationship with church +1 to +1" in history
    assert words(history) == []
    sheet = gm.get(f"/campaigns/{dc.campaign.id}/pilots/{ann}/").content.decode()
    assert "XP 175 (R-ADD-315)" in sheet


def test_module_commands_over_the_api(world: Any) -> None:
    dc, mid = world
    url = f"/api/campaigns/{dc.campaign.id}/settlement/commands"
    gm = api_client(dc.gm)
    ann = str(dc.pilots[0].id)
    r = gm.post(
        url,
        {"command": "xp", "mission": mid, "pilot": ann, "result": "won", "faces": []},
        format="json",
    )
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "result"
    assert "R-ADD-315" in str(r.json())
    r = gm.post(
        url,
        {"command": "bargain", "mission": mid, "pilot": ann, "bargain": "", "faces": []},
        format="json",
    )
    assert r.status_code == 422 and r.json()["code"] == "no_bargain_offer"
    r = gm.post(
        url,
        {"command": "relationship", "mission": mid, "faction": "draconid", "cause": "kill-members"},
        format="json",
    )
    assert r.status_code == 201, r.json()
    rows = {x["id"]: x for x in r.json()["settlement"]["relationships"]}
    assert (rows["draconid"]["value"], rows["draconid"]["standing"]) == (-1, "Suspicious")
    pilot = r.json()["settlement"]["pilots"][0]
    assert pilot["xp"] == {"xp": 0, "next_skill_at": 200, "skills": []}
    assert pilot["bargains"]["offer_at"] is None
    state = campaign_state(campaign=dc.campaign)
    assert relationships.relationships(state.settlement).value("draconid") == -1


def test_a_campaign_without_the_modules_refuses_them() -> None:
    dc = demo_campaign(campaign_rules={"version": "pc-1"})
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    gm = client_for(dc.gm)
    mid = str(mission.id)
    gm.post(do(dc, "open"), {"mission": mid})
    html = gm.get(page(dc)).content.decode()
    assert 'data-command="xp"' not in html and "Faction relationships" not in html
    url = f"/api/campaigns/{dc.campaign.id}/settlement/commands"
    r = api_client(dc.gm).post(
        url,
        {"command": "xp", "mission": mid, "pilot": str(dc.pilots[0].id), "result": "victory"},
        format="json",
    )
    assert r.status_code == 422 and r.json()["code"] == "module_off"
    assert "XP and skills" in r.json()["message"]
    ledger = api_client(dc.gm).get(f"/api/campaigns/{dc.campaign.id}/settlement").json()
    assert ledger["relationships"] is None and ledger["pilots"][0]["xp"] is None


def test_the_gm_records_soulstone_energy_on_the_page() -> None:
    dc = demo_campaign(campaign_rules={"version": "pc-1", "modules": ["soulstone_energy"]})
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    gm = client_for(dc.gm)
    mid = str(mission.id)
    gm.post(do(dc, "open"), {"mission": mid})
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="energy"') == 2 and "<strong>80</strong>/100 Healthy" in html
    assert words(html) == []
    build = str(dc.builds[0].id)
    r = gm.post(
        do(dc, "energy"),
        {"mission": mid, "build": build, "costs": ["standard"], "repeat_overheating": "2"},
    )
    assert r.status_code == 302, r.content.decode()[:2000]
    state = campaign_state(campaign=dc.campaign)
    assert soulstone.energy(state, build) == 80 - 2 - 3 * 2
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="energy"') == 1 and "<strong>72</strong>/100 Healthy" in html
    r = gm.post(do(dc, "energy"), {"mission": mid, "build": build, "overcharge": "20"})
    assert r.status_code == 400 and "R-ADD-322" in r.content.decode()
    r = api_client(dc.gm).post(
        f"/api/campaigns/{dc.campaign.id}/settlement/commands",
        {"command": "energy", "mission": mid, "build": str(dc.builds[1].id), "costs": ["heavy"]},
        format="json",
    )
    assert r.status_code == 201, r.json()
    caskets = {c["build"]: c for c in r.json()["settlement"]["caskets"]}
    assert caskets[str(dc.builds[1].id)]["energy"] == 75


def test_departure_and_arrival_events_on_the_page() -> None:
    dc = demo_campaign(campaign_rules={"version": "pc-1"})
    mission, battle = start_mission(dc, seed=3, name="Ember Road")
    finish(battle, dc.gm, seed=3)
    gm = client_for(dc.gm)
    mid = str(mission.id)
    gm.post(do(dc, "open"), {"mission": mid})
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="travel"') == 2
    r = gm.post(do(dc, "travel"), {"mission": mid, "kind": "departure", "faces": "1 6"})
    assert r.status_code == 302, r.content.decode()[:2000]
    html = gm.get(page(dc)).content.decode()
    assert html.count('data-command="travel"') == 1
    assert 'data-travel="departure"' in html and "Departure event: Nothing Special." in html
    assert words(html) == []
    r = gm.post(do(dc, "travel"), {"mission": mid, "kind": "departure", "faces": "2 2"})
    assert r.status_code == 400 and "R-ADD-324" in r.content.decode()
    r = gm.post(do(dc, "travel"), {"mission": mid, "kind": "arrival", "faces": "7 1"})
    assert r.status_code == 400 and "d6 shows 1 to 6, not 7" in r.content.decode()
