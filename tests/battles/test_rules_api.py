"""The rules calculator endpoints (FORMATS.md): shapes, anonymous access, throttling,
and a clear 400 naming the field for every kind of bad input — never a 500."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import rules_api

BOARD = {"shape": {"kind": "hexagon", "radius": 8}}
FORMATS_TO_HIT = {
    "board": BOARD,
    "attacker": {"at": [0, 0], "facing": 1, "moved": 0, "heat": 0, "destroyed": [], "statuses": []},
    "target": {"at": [0, -5], "facing": 1, "shield": "left", "moved_last_turn": 2, "statuses": []},
    "others": [[0, -2]],
    "weapon": {"range": "8", "damage": 4},
    "rules": {"version": "2.0", "options": {}},
}


@pytest.fixture(autouse=True)
def fresh_throttle() -> Iterator[None]:
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def unthrottled(monkeypatch: pytest.MonkeyPatch) -> None:
    for throttle in (rules_api.RulesAnonThrottle, rules_api.RulesUserThrottle):
        monkeypatch.setattr(throttle, "THROTTLE_RATES", {throttle.scope: "100000/minute"})


def post(client: Client, url: str, body: Any) -> Any:
    data = body if isinstance(body, str | bytes) else json.dumps(body)
    return client.post(f"/api/rules/{url}", data=data, content_type="application/json")


def errors(response: Any) -> list[dict[str, Any]]:
    assert response.status_code == 400, response.content
    return response.json()["errors"]


# --- answers ----------------------------------------------------------------------------------


def test_rules_index_lists_versions_options_and_rulings(client: Client) -> None:
    body = client.get("/api/rules/").json()
    options = body["versions"]["2.0"]["options"]
    assert options["defense_die"] == {
        "default": "default",
        "allowed": ["default", "v1"],
        "rule": "R-DMG-2",
        "description": options["defense_die"]["description"],
    }
    assert body["rulings"]["R-LOS-4"]
    assert body["terrain_defaults"]["wall"]["blocks_los"] is True
    assert body["limits"] == {
        "max_board_hexes": 10_000,
        "max_rectangle_side": 120,
        "max_others": 200,
        "max_sp": 40,
    }


def test_formats_to_hit_example_answers_exactly_as_documented(client: Client) -> None:
    """FORMATS.md `POST /api/rules/to-hit`: rear shot at 5 hexes past a casket, 6+."""
    body = post(client, "to-hit", FORMATS_TO_HIT).json()
    assert body["possible"] is True and body["refusal"] is None
    assert (body["distance"], body["band"], body["side"], body["side_name"]) == (
        5,
        "medium",
        4,
        "rear",
    )
    assert body["target_number"] == 6
    assert body["modifiers"] == [
        {"key": "base", "value": 5, "label": "Base to-hit", "rule": "R-HIT-1"},
        {"key": "range", "value": 1, "label": "Medium range (5 hexes)", "rule": "R-RNG-1"},
        {
            "key": "defender_movement",
            "value": 1,
            "label": "Target moved 2 hexes",
            "rule": "R-HIT-2",
        },
        {"key": "side", "value": -2, "label": "Rear (side 4)", "rule": "R-ARC-2"},
        {"key": "cover", "value": 1, "label": "Light cover: casket at [0,-2]", "rule": "R-COV-1"},
    ]
    assert sum(m["value"] for m in body["modifiers"]) == body["target_number"]
    assert body["damage"]["base"] == 4
    assert body["damage"]["modifiers"][0]["value"] == 3
    assert body["damage"]["modifiers"][0]["rule"] == "R-ARC-2"
    assert body["defense_modifier"] == -3
    assert body["reactive_allowed"] is False and body["shield_cards_allowed"] is False
    assert body["dice"] == {"count": 2, "keep": "all"}
    assert body["odds"] == {
        "hit": "5/12",
        "strong_or_better": "5/18",
        "critical_or_better": "1/12",
        "execution": "1/36",
        "catastrophic": "1/36",
        "hit_float": 0.4167,
    }


def test_refused_shot_still_explains_itself(client: Client) -> None:
    """R-LOS-2: a wall on the line refuses the shot with code, message and rule, but the
    distance, LOS and modifiers are still answered."""
    body = dict(FORMATS_TO_HIT)
    body["board"] = {**BOARD, "hexes": [{"q": 0, "r": -3, "terrain": "wall"}]}
    answer = post(client, "to-hit", body).json()
    assert answer["possible"] is False
    assert answer["refusal"]["code"] == "no_line_of_sight"
    assert answer["refusal"]["rule"] == "R-LOS-2"
    assert answer["los"]["blocked_by"] == [0, -3]
    assert answer["target_number"] == 6 and answer["odds"] is None


def test_line_of_sight_answers_formats_shape(client: Client) -> None:
    """FORMATS.md line-of-sight answer; the document's own example line is illustrative: the
    exact line from [0,0] to [3,-2] crosses [1,-1] and [2,-1] and touches no vertex."""
    body = post(
        client,
        "line-of-sight",
        {
            "board": BOARD,
            "from": [0, 0],
            "to": [3, -2],
            "others": [[1, -1]],
            "rules": {"version": "2.0", "options": {}},
        },
    ).json()
    assert body["clear"] is True and body["distance"] == 3 and body["divided"] is False
    assert body["line"] == [[[1, -1]], [[2, -1]]]
    assert body["cover"] == "light"
    assert body["cover_sources"][0] == {
        "at": [1, -1],
        "kind": "casket",
        "cover": "light",
        "rule": "R-COV-1",
    }


def test_visibility_lists_every_visible_hex(client: Client) -> None:
    board = {
        "shape": {"kind": "hexagon", "radius": 2},
        "hexes": [{"q": 0, "r": -1, "terrain": "wall"}],
    }
    body = post(client, "visibility", {"board": board, "from": [0, 0]}).json()
    assert [0, -2] not in body["visible"]  # behind the wall (R-LOS-2)
    assert [0, -1] in body["visible"] and [0, 0] in body["visible"]  # R-LOS-1
    # [1,-2] and [-1,-1] lie on 30° diagonals that run along an edge of the wall hex:
    # the divided line is blocked because the defender chooses the worse side (R-LOS-4).
    assert [1, -2] not in body["visible"] and [-1, -1] not in body["visible"]
    assert body["count"] == len(body["visible"]) == 16


def test_reachable_gives_cost_and_path_and_avoids_enemies(client: Client) -> None:
    board = {
        "shape": {"kind": "hexagon", "radius": 3},
        "hexes": [{"q": 0, "r": -1, "terrain": "forest"}],
    }
    body = post(
        client, "reachable", {"board": board, "from": [0, 0], "sp": 2, "enemies": [[1, 0]]}
    ).json()
    by_hex = {tuple(r["to"]): r for r in body["reachable"]}
    assert by_hex[(0, -1)]["cost"] == 2  # R-MOV-1: difficult terrain
    assert (1, 0) not in by_hex  # R-MOV-2: never onto an enemy
    assert all(r["cost"] <= 2 and r["path"][-1] == r["to"] for r in body["reachable"])


def test_rules_endpoints_need_no_login_and_are_in_the_schema(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    for path in ("line-of-sight", "to-hit", "visibility", "reachable"):
        operation = schema["paths"][f"/api/rules/{path}"]["post"]
        assert operation["security"] == [{}] or "security" not in schema or operation
        content = operation["requestBody"]["content"]["application/json"]
        assert content.get("examples"), f"{path} has no example"
    assert "/api/rules/" in schema["paths"]


def test_rules_are_throttled(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_api.RulesAnonThrottle, "THROTTLE_RATES", {"rules_anon": "3/minute"})
    codes = [client.get("/api/rules/").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]


# --- bad input: 400 naming the field --------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "body", "field"),
    [
        ("line-of-sight", {"board": BOARD, "from": [0, 0]}, "to"),
        ("line-of-sight", {"board": BOARD, "from": [0, 0], "to": [0, 99]}, "to"),
        ("line-of-sight", {"board": BOARD, "from": "a1", "to": [0, 1]}, "from"),
        ("line-of-sight", {"board": BOARD, "from": [0, True], "to": [0, 1]}, "from"),
        ("line-of-sight", {"board": BOARD, "from": [0, 0], "to": [0, 1], "colour": 1}, "colour"),
        (
            "line-of-sight",
            {"board": BOARD, "from": [0, 0], "to": [0, 1], "others": [[50, 0]]},
            "others[0]",
        ),
        (
            "line-of-sight",
            {
                "board": {**BOARD, "hexes": [{"q": 1, "r": 0, "terrain": "lava"}]},
                "from": [0, 0],
                "to": [0, 1],
            },
            "board.hexes[0].terrain",
        ),
        (
            "line-of-sight",
            {
                "board": {**BOARD, "hexes": [{"q": 1, "r": 0, "level": 3}]},
                "from": [0, 0],
                "to": [0, 1],
            },
            "board.hexes[0].level",
        ),
        (
            "line-of-sight",
            {
                "board": {**BOARD, "hexes": [{"q": 1, "r": 0}, {"q": 1, "r": 0}]},
                "from": [0, 0],
                "to": [0, 1],
            },
            "board.hexes[1]",
        ),
        (
            "line-of-sight",
            {"board": {"shape": {"kind": "hexagon", "radius": 500}}, "from": [0, 0], "to": [0, 1]},
            "board.shape.radius",
        ),
        (
            "line-of-sight",
            {
                "board": {"shape": {"kind": "rectangle", "width": 100, "height": 101}},
                "from": [0, 0],
                "to": [0, 1],
            },
            "board.shape",
        ),
        (
            "line-of-sight",
            {
                "board": {"shape": {"kind": "rectangle", "width": 5, "height": 500}},
                "from": [0, 0],
                "to": [0, 1],
            },
            "board.shape.height",
        ),
        (
            "line-of-sight",
            {"board": {"shape": {"kind": "square"}}, "from": [0, 0], "to": [0, 1]},
            "board.shape.kind",
        ),
        (
            "line-of-sight",
            {"board": BOARD, "from": [0, 0], "to": [0, 1], "rules": {"options": {"foo": True}}},
            "rules.options.foo",
        ),
        (
            "to-hit",
            {**FORMATS_TO_HIT, "rules": {"options": {"defense_die": "v9"}}},
            "rules.options.defense_die",
        ),
        ("to-hit", {**FORMATS_TO_HIT, "weapon": {"range": "far", "damage": 4}}, "weapon.range"),
        ("to-hit", {**FORMATS_TO_HIT, "weapon": {"range": "8", "damage": "4"}}, "weapon.damage"),
        ("to-hit", {**FORMATS_TO_HIT, "weapon": {"card": "no-such-card"}}, "weapon.card"),
        ("to-hit", {**FORMATS_TO_HIT, "attacker": {"at": [0, 0], "facing": 7}}, "attacker.facing"),
        (
            "to-hit",
            {**FORMATS_TO_HIT, "target": {"at": [0, -5], "facing": 1, "shield": "both"}},
            "target.shield",
        ),
        (
            "to-hit",
            {**FORMATS_TO_HIT, "attacker": {"at": [0, 0], "facing": 1, "destroyed": ["tail"]}},
            "attacker.destroyed[0]",
        ),
        ("reachable", {"board": BOARD, "from": [0, 0], "sp": -1}, "sp"),
        ("reachable", {"board": BOARD, "from": [0, 0], "sp": 1000}, "sp"),
        ("visibility", {"board": BOARD}, "from"),
    ],
)
def test_bad_input_gets_400_naming_the_field(
    client: Client, url: str, body: dict[str, Any], field: str
) -> None:
    fields = [e["field"] for e in errors(post(client, url, body))]
    assert field in fields


def test_malformed_json_is_a_400(client: Client) -> None:
    assert errors(post(client, "to-hit", b"{not json"))[0]["message"].startswith("JSON parse")


def test_a_list_instead_of_an_object_is_a_400(client: Client) -> None:
    assert errors(post(client, "line-of-sight", [1, 2]))


# --- fuzz: whatever arrives, the answer is 200 or 400 -----------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-50, 50) | st.text(max_size=5),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(["q", "r", "at", "kind", "radius", "x"]), children, max_size=3
        )
    ),
    max_leaves=10,
)


def _mutate(base: dict[str, Any], key: str, value: Any) -> dict[str, Any]:
    return {**base, key: value}


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    url=st.sampled_from(["line-of-sight", "to-hit", "visibility", "reachable"]),
    key=st.sampled_from(
        ["board", "from", "to", "attacker", "target", "weapon", "others", "sp", "rules", "enemies"]
    ),
    value=json_values,
)
def test_fuzzed_bodies_never_cause_a_500(
    client: Client, unthrottled: None, url: str, key: str, value: Any
) -> None:
    base: dict[str, Any] = {
        "line-of-sight": {"board": BOARD, "from": [0, 0], "to": [2, -1]},
        "to-hit": FORMATS_TO_HIT,
        "visibility": {"board": BOARD, "from": [0, 0]},
        "reachable": {"board": BOARD, "from": [0, 0], "sp": 3},
    }[url]
    response = post(client, url, _mutate(base, key, value))
    assert response.status_code in (200, 400), response.content
