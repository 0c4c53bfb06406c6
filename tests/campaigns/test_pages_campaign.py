"""Issue 14: "My campaigns" and the campaign page, for the GM, a player and an outsider."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from battles.sentences import wound_name
from campaigns import services
from campaigns.models import Campaign, CampaignPlayer, Mission, OutcomeOutbox, Pilot

from .builders import demo_campaign, finish, make_users, start_mission

pytestmark = pytest.mark.django_db


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def dc() -> Any:
    return demo_campaign()


@pytest.fixture
def outsider() -> Any:
    return make_users("outsider")[0]


def page(dc: Any) -> str:
    return f"/campaigns/{dc.campaign.id}/"


# --- my campaigns ---------------------------------------------------------------------------------


def test_my_campaigns_lists_the_campaigns_a_user_runs_or_plays(dc: Any, outsider: Any) -> None:
    gm = client_for(dc.gm).get("/campaigns/")
    assert gm.status_code == 200
    assert "Ashes" in gm.content.decode() and "GM" in gm.content.decode()
    ann = client_for(dc.ann).get("/campaigns/").content.decode()
    assert "Ashes" in ann and "player" in ann
    assert "Ashes" not in client_for(outsider).get("/campaigns/").content.decode()


def test_pages_send_anonymous_users_to_log_in(dc: Any) -> None:
    for url in ("/campaigns/", page(dc)):
        response = Client().get(url)
        assert response.status_code == 302
        assert response["Location"].startswith("/accounts/login/")


def test_creating_a_campaign_makes_the_user_its_gm_with_the_chosen_ruleset(outsider: Any) -> None:
    response = client_for(outsider).post(
        "/campaigns/",
        {
            "name": "Embers",
            "private": "on",
            "rules_version": "2.0",
            "option_taint_exploitation": "true",
            "option_round_limit": "",
        },
    )
    campaign = Campaign.objects.get(name="Embers")
    assert response.status_code == 302 and response["Location"] == f"/campaigns/{campaign.id}/"
    assert campaign.gm == outsider and campaign.private
    state = services.campaign_state(campaign=campaign)
    assert state.rules["version"] == "2.0"
    assert state.rules["options"]["taint_exploitation"] is True


@pytest.mark.parametrize(
    ("form", "field", "rule"),
    [
        ({"name": ""}, "name", ""),
        ({"name": "X", "option_round_limit": "0"}, "rules.options.round_limit", "R-TRN-9"),
        ({"name": "X", "rules_version": "1.0"}, "rules.version", ""),
    ],
)
def test_a_refused_campaign_form_is_a_400_naming_the_field_and_rule(
    outsider: Any, form: dict[str, str], field: str, rule: str
) -> None:
    response = client_for(outsider).post("/campaigns/", form)
    assert response.status_code == 400
    body = response.content.decode()
    assert f"<strong>{field}</strong>" in body and rule in body
    assert not Campaign.objects.exists()


# --- the campaign page ----------------------------------------------------------------------------


def test_campaign_page_access_gm_player_outsider(dc: Any, outsider: Any) -> None:
    assert client_for(dc.gm).get(page(dc)).status_code == 200
    assert client_for(dc.ann).get(page(dc)).status_code == 200
    assert client_for(outsider).get(page(dc)).status_code == 404
    dc.campaign.private = False
    dc.campaign.save()
    assert client_for(outsider).get(page(dc)).status_code == 403


def test_campaign_page_shows_roster_caskets_and_missions(dc: Any) -> None:
    _, battle = start_mission(dc, seed=3, name="Cinder Road")
    body = client_for(dc.ann).get(page(dc)).content.decode()
    assert "Sister Ophelia Vance" in body and "Brother Malachai Thorne" in body
    assert "Penitent Scout" in body and "version 1" in body
    assert 'id="mission-1"' in body and "Cinder Road" in body and "in progress" in body
    assert f"/battles/{battle.id}/replay/" in body


def test_campaign_page_shows_the_ruleset_in_words_linked_to_the_glossary(dc: Any) -> None:
    body = client_for(dc.ann).get(page(dc)).content.decode()
    assert "Dice-pool advantage</a>: off" in body
    assert 'href="/rules/#option-dice_pool_advantage"' in body
    # Keys and Python values stay out of the words (OPTION_WORDS).
    assert "dice_pool_advantage False" not in body and "side_table" not in body
    assert 'id="option-dice_pool_advantage"' in Client().get("/rules/").content.decode()


def test_finished_mission_shows_outcome_and_links_wounds_to_their_mission(dc: Any) -> None:
    mission, battle = start_mission(dc, seed=3, name="Cinder Road")
    finish(battle, dc.gm)
    mission.refresh_from_db()
    assert mission.status == Mission.Status.COMPLETED
    body = client_for(dc.bob).get(page(dc)).content.decode()
    assert "Outcome:" in body and "in round" in body
    state = services.campaign_state(campaign=dc.campaign)
    wounds = [w for p in state.pilots.values() for w in p.wounds]
    for w in wounds:
        # The wound in words ("severe wound no. 3"), which names its kind.
        assert f'{wound_name(w.wound)} from <a href="#mission-1">mission 1</a>' in body
        assert w.kind in wound_name(w.wound)


def test_campaign_page_gm_adjustments_are_marked_in_the_history(dc: Any) -> None:
    pilot = dc.pilots[0]
    services.pilot_taint_adjust(
        campaign=dc.campaign, actor=dc.gm, pilot_id=str(pilot.id), delta=2, reason="Heresy"
    )
    body = client_for(dc.ann).get(page(dc)).content.decode()
    rows = re.findall(r'<tr data-version="\d+" data-adjustment="true">.*?</tr>', body, re.S)
    assert len(rows) == 1
    assert "GM adjustment" in rows[0] and "Taint +2 to 2: Heresy" in rows[0]


def test_pending_outcomes_are_shown_to_the_gm_only_with_why(dc: Any) -> None:
    mission, battle = start_mission(dc, seed=3)
    OutcomeOutbox.objects.create(
        battle_id=battle.id, mission=mission, attempts=2, last_error="ConnectionError: no broker"
    )
    gm = client_for(dc.gm).get(page(dc)).content.decode()
    assert f'data-outbox="{battle.id}"' in gm and "ConnectionError: no broker" in gm
    ann = client_for(dc.ann).get(page(dc)).content.decode()
    assert "data-outbox" not in ann and "outbox" not in ann


def test_gm_forms_add_player_enlist_and_plan_with_post_redirect_get(dc: Any) -> None:
    (cid,) = make_users("cid")
    gm = client_for(dc.gm)
    r = gm.post(f"{page(dc)}do/add_player", {"username": "cid"})
    assert r.status_code == 302 and r["Location"] == f"{page(dc)}#add-player"
    assert CampaignPlayer.objects.filter(campaign=dc.campaign, user=cid).exists()
    r = gm.post(
        f"{page(dc)}do/enlist_pilot",
        {"player": "cid", "name": "Sister Cid", "faction": "", "sp_modifier": "1"},
    )
    assert r.status_code == 302
    assert Pilot.objects.filter(campaign=dc.campaign, name="Sister Cid").exists()
    r = gm.post(f"{page(dc)}do/plan_mission", {"name": "Ash Fields"})
    assert r.status_code == 302
    assert Mission.objects.get(campaign=dc.campaign, number=1).name == "Ash Fields"


@pytest.mark.parametrize(
    ("action", "form", "field", "rule"),
    [
        (
            "enlist_pilot",
            {"player": "ann", "name": "X", "sp_modifier": "9"},
            "sp_modifier",
            "R-TRN-3",
        ),
        (
            "enlist_pilot",
            {"player": "ann", "name": "X", "sp_modifier": "lots"},
            "sp_modifier",
            "R-TRN-3",
        ),
        ("enlist_pilot", {"player": "nobody", "name": "X"}, None, "R-ADD-31"),
        ("add_player", {"username": "gm"}, None, "R-ADD-31"),
        ("add_player", {"username": "ghost"}, "username", ""),
        ("plan_mission", {"name": "   "}, "name", ""),
    ],
)
def test_refused_gm_forms_rerender_with_400_and_change_nothing(
    dc: Any, action: str, form: dict[str, str], field: str | None, rule: str
) -> None:
    before = services.campaign_state(campaign=dc.campaign).version
    response = client_for(dc.gm).post(f"{page(dc)}do/{action}", form)
    assert response.status_code == 400
    body = response.content.decode()
    assert "Nothing was changed" in body and rule in body
    if field:
        assert f"<strong>{field}</strong>" in body
    assert services.campaign_state(campaign=dc.campaign).version == before


def test_players_and_outsiders_cannot_use_gm_forms(dc: Any, outsider: Any) -> None:
    r = client_for(dc.ann).post(f"{page(dc)}do/plan_mission", {"name": "Mine"})
    assert r.status_code == 403
    r = client_for(outsider).post(f"{page(dc)}do/plan_mission", {"name": "Mine"})
    assert r.status_code == 404
    r = Client().post(f"{page(dc)}do/plan_mission", {"name": "Mine"})
    assert r.status_code == 302
    assert not Mission.objects.filter(campaign=dc.campaign).exists()


def test_gm_forms_need_csrf(dc: Any) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(dc.gm)
    assert client.post(f"{page(dc)}do/plan_mission", {"name": "M"}).status_code == 403
    assert 'name="csrfmiddlewaretoken"' in client.get(page(dc)).content.decode()


def test_a_refused_campaign_form_keeps_the_choices(outsider: Any) -> None:
    form = {"name": "", "option_taint_exploitation": "true", "option_round_limit": "12"}
    body = client_for(outsider).post("/campaigns/", form).content.decode()
    # The chosen value is kept; the options read in words (on/off), not as JSON booleans.
    assert '<option value="true" selected>on</option>' in body
    assert (
        'name="option_round_limit" placeholder="none or a whole number ≥ 1" inputmode="numeric" value="12"'
        in body
    )


def test_a_nul_character_in_any_field_is_a_400_naming_it(dc: Any) -> None:
    """PostgreSQL stores no NUL in text: refused before any service sees it."""
    pid = dc.pilots[0].id
    cases = [
        ("/campaigns/", {"name": "A\x00"}, "name"),
        (f"{page(dc)}do/plan_mission", {"name": "M\x00"}, "name"),
        (f"{page(dc)}pilots/{pid}/adjust/scar", {"scar": "x\x00", "reason": "r"}, "scar"),
        (f"{page(dc)}builds/new/", {"name": "B", "q": "\x00", "action": "filter"}, "q"),
    ]
    before = services.campaign_state(campaign=dc.campaign).version
    for url, data, field in cases:
        r = client_for(dc.gm).post(url, data)
        assert r.status_code == 400, url
        assert f"<strong>{field}</strong>: must not contain NUL characters" in r.content.decode()
    assert client_for(dc.gm).get(f"{page(dc)}builds/new/", {"q": "\x00"}).status_code == 400
    assert services.campaign_state(campaign=dc.campaign).version == before
    assert Campaign.objects.count() == 1
