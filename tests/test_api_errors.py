"""Bad input is a 4xx in the API's error shape, never a 500, and changes nothing
(penance_site/api.py, penance_site/parsers.py): NUL and lone surrogates, deep nesting,
oversized bodies, wrong types, unbounded lists; 401/403/404/405/413/429 in one shape."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client, override_settings

from battles.engine.demo import demo_setup
from campaigns.models import Campaign
from penance_site.eventstore.models import Event
from tests.campaigns.builders import DemoCampaign, demo_campaign

pytestmark = pytest.mark.django_db

NUL = "a\x00b"
SURROGATE = '"a\\ud800b"'  # JSON text: a lone surrogate escape that json.loads accepts


def post(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json")


def errors_of(response: Any, status: int = 400) -> list[str | None]:
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) == {"errors"}
    assert all(set(e) == {"field", "message", "rule"} for e in body["errors"])
    return [e["field"] for e in body["errors"]]


def refusal_of(response: Any, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/json")
    body: dict[str, Any] = response.json()
    assert set(body) == {"code", "message", "rule"}
    return body


@pytest.fixture
def dc() -> DemoCampaign:
    return demo_campaign()


@pytest.fixture
def gm(dc: DemoCampaign, django_user_model: Any) -> Client:
    django_user_model.objects.create_user(username="player")  # demo_setup's seat 1
    client = Client()
    client.force_login(dc.gm)
    return client


def with_surrogate(body: dict[str, Any], key: str) -> str:
    """`body` as JSON text with `key`'s value replaced by a lone surrogate escape."""
    text = json.dumps({**body, key: "SURROGATE-HERE"})
    return text.replace('"SURROGATE-HERE"', SURROGATE)


# --- text no database stores ------------------------------------------------------------------


@pytest.mark.parametrize("bad", ["nul", "surrogate"])
def test_bad_text_in_a_battle_name_or_seat_player_is_400_and_stores_nothing(
    gm: Client, bad: str
) -> None:
    before = Event.objects.count()
    setup = demo_setup()
    named = json.dumps({**setup, "name": NUL}) if bad == "nul" else with_surrogate(setup, "name")
    assert errors_of(post(gm, "/api/battles/", named)) == ["name"]
    seats = [dict(s) for s in setup["seats"]]
    seats[1]["player"] = NUL if bad == "nul" else "SURROGATE-HERE"
    text = json.dumps({**setup, "seats": seats}).replace('"SURROGATE-HERE"', SURROGATE)
    assert errors_of(post(gm, "/api/battles/", text)) == ["seats[1].player"]
    assert Event.objects.count() == before


@pytest.mark.parametrize("bad", ["nul", "surrogate"])
def test_bad_text_in_campaign_mission_build_names_and_reasons_is_400_and_changes_nothing(
    dc: DemoCampaign, gm: Client, bad: str
) -> None:
    base = f"/api/campaigns/{dc.campaign.id}"
    build = {"name": "x", "casket_class": "scout", "shield": "left", "deck": [], "player": "ann"}
    cases = [
        ("/api/campaigns/", {"name": "x"}, "name"),
        (f"{base}/missions", {"name": "x"}, "name"),
        (f"{base}/builds", build, "name"),
        (f"{base}/builds/{dc.builds[0].id}/repair", {"reason": "x"}, "reason"),
    ]
    before = (Event.objects.count(), Campaign.objects.count())
    for url, body, field in cases:
        text = json.dumps({**body, field: NUL}) if bad == "nul" else with_surrogate(body, field)
        assert errors_of(post(gm, url, text)) == [field], url
    assert (Event.objects.count(), Campaign.objects.count()) == before


def test_bad_text_in_a_command_reason_is_400_and_appends_nothing(gm: Client) -> None:
    created = post(gm, "/api/battles/", demo_setup())
    assert created.status_code == 201, created.content
    bid, version = created.json()["id"], created.json()["version"]
    body = {"command_id": "c-1", "expected_version": version, "type": "pass", "reason": NUL}
    assert errors_of(post(gm, f"/api/battles/{bid}/commands", body)) == ["reason"]
    assert Event.objects.filter(stream_id=bid).count() == version


# --- shape of the body ------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/battles/", "/api/campaigns/", "/api/rules/to-hit"])
def test_json_nested_thousands_deep_is_400(gm: Client, url: str) -> None:
    for depth in (50, 5000):
        errors_of(post(gm, url, "[" * depth + "]" * depth))
        errors_of(post(gm, url, '{"name": ' + "[" * depth + "]" * depth + "}"))


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=4096)
@pytest.mark.parametrize("url", ["/api/battles/", "/api/campaigns/", "/api/rules/to-hit"])
def test_a_body_over_the_limit_is_413_saying_the_limit(gm: Client, url: str) -> None:
    before = Campaign.objects.count()
    body = refusal_of(post(gm, url, {"name": "x" * 5000}), 413)
    assert "4096" in body["message"]
    assert Campaign.objects.count() == before


def test_wrong_types_are_400_naming_the_field(dc: DemoCampaign, gm: Client) -> None:
    base = f"/api/campaigns/{dc.campaign.id}"
    assert errors_of(post(gm, "/api/campaigns/", {"name": 5})) == ["name"]
    assert errors_of(post(gm, f"{base}/missions", {"name": 5})) == ["name"]
    build = {"name": 5, "casket_class": "scout", "shield": "left", "deck": [], "player": "ann"}
    assert errors_of(post(gm, f"{base}/builds", build)) == ["name"]
    created = post(gm, "/api/battles/", demo_setup())
    bid, version = created.json()["id"], created.json()["version"]
    command = {"command_id": 12345, "expected_version": version, "type": "pass"}
    assert errors_of(post(gm, f"/api/battles/{bid}/commands", command)) == ["command_id"]
    reach = {"board": {"shape": {"kind": "hexagon", "radius": 3}, "hexes": []}, "from": [0, 0]}
    reach |= {"sp": 2, "require_sight": 0}
    assert errors_of(post(Client(), "/api/rules/reachable", reach)) == ["require_sight"]


def test_lists_past_their_documented_limits_are_400(dc: DemoCampaign, gm: Client) -> None:
    base = f"/api/campaigns/{dc.campaign.id}"
    build = {"name": "x", "casket_class": "scout", "shield": "left", "player": "ann"}
    too_much = {**build, "deck": [], "equipment": ["rope"] * 51}
    assert errors_of(post(gm, f"{base}/builds", too_much)) == ["equipment"]
    rows = [{"card": f"c{i}", "count": 1} for i in range(201)]
    assert "deck" in errors_of(post(gm, f"{base}/builds", {**build, "deck": rows}))
    hexes = [{"q": i, "r": 0, "terrain": "rubble"} for i in range(2001)]
    board = {"shape": {"kind": "hexagon", "radius": 3}, "hexes": hexes}
    los = {"board": board, "from": [0, 0], "to": [1, 0]}
    assert errors_of(post(Client(), "/api/rules/line-of-sight", los)) == ["board.hexes"]
    assert errors_of(post(gm, "/api/battles/", {**demo_setup(), "board": board})) == ["board.hexes"]


def test_the_schema_documents_the_list_limits(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    parts = schema["components"]["schemas"]
    assert parts["BuildInput"]["properties"]["equipment"]["maxItems"] == 50
    boards = [
        p["properties"]["board"] for p in parts.values() if "board" in p.get("properties", {})
    ]
    assert boards and all(b["properties"]["hexes"]["maxItems"] == 2000 for b in boards)


# --- one shape for every refusal -------------------------------------------------------------


def test_401_403_404_405_and_429_share_the_refusal_shape(
    dc: DemoCampaign, gm: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert refusal_of(Client().get("/api/campaigns/"), 401)["code"] == "not_authenticated"
    assert refusal_of(gm.get("/api/no-such-thing/"), 404)["code"] == "not_found"
    assert "/api/campaigns/ ?" in refusal_of(gm.get("/api/campaigns"), 404)["message"]
    assert refusal_of(Client().post("/api/nope", data="{}", content_type="x/y"), 404)
    assert refusal_of(gm.get("/api/campaigns/00000000-0000-0000-0000-000000000000/"), 404)
    assert refusal_of(gm.delete("/api/campaigns/"), 405)["code"] == "method_not_allowed"
    outsider = Client()
    outsider.force_login(dc.bob)
    created = post(gm, "/api/battles/", demo_setup())
    assert refusal_of(outsider.get(f"/api/battles/{created.json()['id']}/"), 403)

    from battles import rules_api

    monkeypatch.setattr(rules_api.RulesAnonThrottle, "THROTTLE_RATES", {"rules_anon": "1/minute"})
    from django.core.cache import cache

    cache.clear()
    Client().get("/api/rules/")
    assert refusal_of(Client().get("/api/rules/"), 429)["code"] == "throttled"
    cache.clear()


def test_a_session_post_without_the_csrf_token_is_403_in_the_refusal_shape(
    dc: DemoCampaign,
) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(dc.gm)
    before = Campaign.objects.count()
    body = refusal_of(post(client, "/api/campaigns/", {"name": "x"}), 403)
    assert "CSRF" in body["message"]
    assert Campaign.objects.count() == before
