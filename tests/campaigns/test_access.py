"""One access check for the campaigns API and the campaign pages (campaigns/access.py,
R-ADD-31): the same user gets the same status, and the same refusal text, from both."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from .builders import demo_campaign, make_users

pytestmark = pytest.mark.django_db


def page_as(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def api_as(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user=user)
    return client


def shown(response: Any) -> str:
    return html.unescape(response.content.decode())


def test_an_outsider_gets_404_for_a_private_campaign_and_403_for_a_public_one() -> None:
    dc = demo_campaign()
    (outsider,) = make_users("outsider")
    api, page = f"/api/campaigns/{dc.campaign.id}/", f"/campaigns/{dc.campaign.id}/"
    refused = api_as(outsider).get(api)
    assert refused.status_code == 404 and refused.json()["message"] == "no such campaign"
    assert page_as(outsider).get(page).status_code == 404
    dc.campaign.private = False
    dc.campaign.save()
    refused = api_as(outsider).get(api)
    assert refused.status_code == 403
    message = refused.json()["message"]
    assert message == "you are not the GM or a player of this campaign"
    answer = page_as(outsider).get(page)
    assert answer.status_code == 403 and message in shown(answer)


def test_a_player_is_refused_the_gms_changes_and_other_players_builds_alike() -> None:
    dc = demo_campaign()
    c = f"campaigns/{dc.campaign.id}"
    refused = api_as(dc.ann).post(f"/api/{c}/missions", {"name": "M"}, format="json")
    assert refused.status_code == 403
    assert refused.json() == {
        "code": "permission_denied",
        "message": "only the campaign's GM plans missions (R-ADD-31)",
        "rule": "R-ADD-31",
    }
    answer = page_as(dc.ann).post(f"/{c}/do/plan_mission", {"name": "M"})
    assert answer.status_code == 403
    assert "only the campaign's GM may do this (R-ADD-31)" in shown(answer)

    build = next(b for b in dc.builds if b.player != dc.ann)
    refused = api_as(dc.ann).post(f"/api/{c}/builds/{build.id}/revisions", {}, format="json")
    assert refused.status_code == 403
    message = refused.json()["message"]
    assert message == "players revise only their own builds (R-ADD-31)"
    answer = page_as(dc.ann).get(f"/{c}/builds/{build.id}/edit/")
    assert answer.status_code == 403 and message in shown(answer)
