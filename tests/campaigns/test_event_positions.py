"""A campaign's events show their stream version; the store-wide position, which tells how
much happens on the whole site, is for staff only (R-ADD-204)."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.campaigns.builders import demo_campaign

pytestmark = pytest.mark.django_db


def _get(user: object, url: str) -> dict[str, object]:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    response = client.get(url)
    assert response.status_code == 200, response.content
    body: dict[str, object] = response.json()
    return body


def test_members_see_versions_and_staff_also_positions() -> None:
    dc = demo_campaign()
    events_url = f"/api/campaigns/{dc.campaign.id}/events"
    career_url = f"/api/campaigns/{dc.campaign.id}/pilots/{dc.pilots[0].id}/career"
    for member in (dc.gm, dc.ann):
        for url in (events_url, career_url):
            events = _get(member, url)["events"]
            assert events, url
            assert all("position" not in e for e in events)  # type: ignore[attr-defined]
            versions = [
                e["version"] for e in events if e.get("stream_type", "campaign") == "campaign"
            ]  # type: ignore[attr-defined]
            assert versions == sorted(versions) and versions[0] >= 1
    dc.gm.is_staff = True
    dc.gm.save()
    events = _get(dc.gm, events_url)["events"]
    positions = [e["position"] for e in events]  # type: ignore[attr-defined]
    assert positions == sorted(positions)
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))  # type: ignore[attr-defined]
