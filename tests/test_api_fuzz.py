"""Generated bodies on the main write endpoints, as a signed-in user: never a 500, and
every 4xx in the API's error shape (penance_site/api.py). Bounded: a few hundred
examples in all, well under a minute on two cores."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import rules_api
from battles.engine.demo import demo_board, demo_setup
from tests.campaigns.builders import DemoCampaign, demo_campaign

pytestmark = [pytest.mark.django_db, pytest.mark.fuzz]

# Text a database cannot store, and the usual trouble, next to ordinary text.
texts = st.one_of(
    st.text(max_size=12),
    st.sampled_from(["\x00", "a\ud800", "\udfff", "", " ", "x" * 300, "R-ADD-1", "0"]),
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)


# Bodies no JSON encoder writes: broken, empty, nested thousands deep.
raw_bodies = st.sampled_from(
    ["", "{", "nul\x00", "[" * 3000 + "]" * 3000, '{"a":' * 3000 + "1" + "}" * 3000, "1e999999"]
)


def valid_bodies(dc: DemoCampaign, battle: str, version: int) -> dict[str, Any]:
    board = {"shape": {"kind": "hexagon", "radius": 3}, "hexes": []}
    build = {"name": "B", "casket_class": "scout", "shield": "left", "deck": [], "player": "ann"}
    return {
        "/api/battles/": demo_setup(),
        f"/api/battles/{battle}/commands": {
            "command_id": uuid.uuid4().hex,
            "expected_version": version,
            "type": "pass",
            "seat": 0,
        },
        "/api/campaigns/": {"name": "C", "private": True},
        f"/api/campaigns/{dc.campaign.id}/missions": {"name": "M"},
        f"/api/campaigns/{dc.campaign.id}/builds": build,
        f"/api/campaigns/{dc.campaign.id}/builds/{dc.builds[0].id}/repair": {"reason": "r"},
        "/api/rules/to-hit": {"board": demo_board(), "attacker": {}, "target": {}},
        "/api/rules/line-of-sight": {"board": board, "from": [0, 0], "to": [1, 0]},
        "/api/rules/reachable": {"board": board, "from": [0, 0], "sp": 2, "require_sight": True},
    }


def assert_error_shape(response: Any) -> None:
    assert response.status_code < 500, response.content
    if response.status_code < 400:
        return
    body = response.json()
    if response.status_code == 400:
        assert set(body) == {"errors"} and body["errors"], body
        assert all(set(e) == {"field", "message", "rule"} for e in body["errors"]), body
    elif response.status_code == 409:  # a stale version or a reused command id
        assert {"code", "message"} <= set(body), body
    else:
        assert set(body) == {"code", "message", "rule"}, body


@pytest.fixture
def world(monkeypatch: pytest.MonkeyPatch) -> tuple[Client, dict[str, Any]]:
    for throttle in (rules_api.RulesAnonThrottle, rules_api.RulesUserThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {throttle.scope: "1000000/minute"})
    dc = demo_campaign()
    get_user_model().objects.create_user(username="player")  # demo_setup's seat 1
    client = Client()
    client.force_login(dc.gm)
    created = client.post("/api/battles/", json.dumps(demo_setup()), "application/json")
    assert created.status_code == 201, created.content
    return client, valid_bodies(dc, created.json()["id"], created.json()["version"])


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_generated_bodies_never_cause_a_500_and_every_4xx_has_the_error_shape(
    world: tuple[Client, dict[str, Any]], data: st.DataObject
) -> None:
    client, bodies = world
    url = data.draw(st.sampled_from(sorted(bodies)), label="url")
    base = bodies[url]
    how = data.draw(st.sampled_from(["replace", "add", "whole", "raw"]), label="how")
    if how == "raw":
        text = data.draw(raw_bodies, label="raw")
        assert_error_shape(client.post(url, text, "application/json"))
        return
    if how == "whole":
        body: Any = data.draw(json_values, label="body")
    else:
        key = data.draw(st.sampled_from(sorted(base)) if how == "replace" else texts, label="key")
        body = {**base, key: data.draw(json_values, label="value")}
    response = client.post(url, json.dumps(body), "application/json")
    assert_error_shape(response)
