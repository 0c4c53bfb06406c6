"""`GET /api/battles/<id>/updates?after=N` (issue 13, docs/FRONTEND.md "Live updates"): the
events after the page's version, filtered for the viewer as `…/events` filters them
(R-ADD-28), answered at once when there are some and otherwise after a wait that the
server bounds; any web process answers, from the store alone."""

from __future__ import annotations

import threading
import time
import uuid
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client, override_settings
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battles import battles_api, services
from battles.engine.demo import demo_setup
from battles.models import Battle
from tests.battles.api_calls import post, send, version

NAMES = ("gm", "alice", "bob", "watcher", "outsider")


def make_clients(model: type[User], prefix: str = "") -> dict[str, Client]:
    out = {"anonymous": Client()}
    for name in NAMES:
        c = Client()
        c.force_login(model.objects.create_user(username=prefix + name))
        out[name] = c
    return out


def new_battle(clients: dict[str, Client], prefix: str = "") -> str:
    """A demo battle run by `gm` (who plays no seat): alice plays seat 0, bob seat 1."""
    setup = demo_setup(players=(prefix + "alice", prefix + "bob"))
    response = post(clients["gm"], "/api/battles/", setup)
    assert response.status_code == 201, response.content
    bid = str(response.json()["id"])
    added = post(clients["gm"], f"/api/battles/{bid}/watchers", {"username": prefix + "watcher"})
    assert added.status_code == 201, added.content
    return bid


def updates(client: Client, bid: str, query: str, **extra: Any) -> Any:
    return client.get(f"/api/battles/{bid}/updates?{query}", **extra)


@pytest.fixture
def clients(django_user_model: type[User], db: None) -> dict[str, Client]:
    return make_clients(django_user_model)


@pytest.fixture
def bid(clients: dict[str, Client]) -> str:
    return new_battle(clients)


# --- answers at once ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_page_behind_gets_the_events_at_once_filtered_like_the_events_endpoint(
    clients: dict[str, Client], bid: str
) -> None:
    head = version(bid)
    for who in ("gm", "alice", "bob", "watcher"):
        live = updates(clients[who], bid, "after=0&wait=20")
        assert live.status_code == 200, live.content
        assert live["Cache-Control"] == "no-store"
        body = live.json()
        assert body["version"] == head and body["more"] is False
        assert body["poll_after_ms"] == 0 and body["waited_ms"] < 1000
        listed = clients[who].get(f"/api/battles/{bid}/events?after=0").json()["events"]
        assert body["events"] == listed
    # R-ADD-28: alice sees her own opening hand, not bob's, and no digests.
    drawn = {
        e["payload"]["seat"]: e["payload"]["cards"]
        for e in updates(clients["alice"], bid, "after=0").json()["events"]
        if e["type"] == "CardsDrawn"
    }
    assert None not in drawn[0] and set(drawn[1]) == {None}
    gm_events = updates(clients["gm"], bid, "after=0").json()["events"]
    assert all(e["digest"] for e in gm_events)


@pytest.mark.django_db
def test_a_page_that_was_offline_catches_up_in_pages(clients: dict[str, Client], bid: str) -> None:
    for _ in range(3):
        state = clients["gm"].get(f"/api/battles/{bid}/").json()["state"]
        sent = send(clients["gm"], bid, {"type": "pass", "seat": state["active"]})
        assert sent.status_code == 201, sent.content
    head = version(bid)
    seen: list[int] = []
    after = 5
    while True:
        body = updates(clients["watcher"], bid, f"after={after}&limit=4").json()
        seen += [e["version"] for e in body["events"]]
        assert body["version"] == head
        if not body["more"]:
            break
        after = body["events"][-1]["version"]
    assert seen == list(range(6, head + 1))


@pytest.mark.django_db
def test_nothing_new_answers_at_once_under_a_process_per_request_server(
    clients: dict[str, Client], bid: str
) -> None:
    """The test client, like gunicorn's sync workers, runs one request per process
    (`wsgi.multithread` false): the server does not hold it and says when to ask again."""
    started = time.monotonic()
    body = updates(clients["alice"], bid, f"after={version(bid)}&wait=20").json()
    assert time.monotonic() - started < 1
    assert body["events"] == [] and body["more"] is False
    assert body["version"] == version(bid)
    assert body["poll_after_ms"] == battles_api.LIVE_SHORT_POLL_AFTER_MS


@pytest.mark.django_db
@override_settings(PENANCE_LIVE_POLL_INTERVAL=0.05)
def test_a_threaded_server_holds_the_request_until_the_wait_ends(
    clients: dict[str, Client], bid: str
) -> None:
    started = time.monotonic()
    body = updates(
        clients["bob"], bid, f"after={version(bid)}&wait=1", **{"wsgi.multithread": True}
    ).json()
    waited = time.monotonic() - started
    assert 0.9 <= waited < 2, waited
    assert body["events"] == [] and body["poll_after_ms"] == 0
    assert body["waited_ms"] >= 900


@pytest.mark.django_db
@override_settings(PENANCE_LIVE_MAX_WAIT=1, PENANCE_LIVE_POLL_INTERVAL=0.05)
def test_the_setting_bounds_every_wait(clients: dict[str, Client], bid: str) -> None:
    started = time.monotonic()
    body = updates(clients["bob"], bid, f"after={version(bid)}&wait=20").json()
    assert time.monotonic() - started < 2
    assert body["events"] == []


@pytest.mark.django_db
@override_settings(PENANCE_LIVE_MAX_WAIT=10, PENANCE_LIVE_POLL_INTERVAL=0.05)
def test_a_waiting_request_answers_as_soon_as_a_command_lands(
    clients: dict[str, Client], bid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The wait looks at the store between sleeps; a command recorded meanwhile (here, during
    the second sleep) is answered at the next look, not at the end of the wait."""
    battle = Battle.objects.get(pk=bid)
    gm = User.objects.get(username="gm")
    real_sleep = time.sleep
    sleeps = []

    def sleep_then_play(seconds: float) -> None:
        sleeps.append(seconds)
        if len(sleeps) == 2:
            state = clients["gm"].get(f"/api/battles/{bid}/").json()["state"]
            services.battle_command_execute(
                battle=battle,
                actor=gm,
                command_id="while-waiting",
                expected_version=version(bid),
                body={"type": "pass", "seat": state["active"]},
            )
        real_sleep(seconds)

    monkeypatch.setattr(battles_api.time, "sleep", sleep_then_play)
    before = version(bid)
    body = updates(clients["alice"], bid, f"after={before}&wait=10").json()
    assert len(sleeps) == 2
    assert body["events"] and body["events"][0]["version"] == before + 1
    assert {e["command_id"] for e in body["events"]} == {"while-waiting"}
    assert body["version"] == version(bid) and body["poll_after_ms"] == 0


@override_settings(PENANCE_LIVE_MAX_WAIT=10, PENANCE_LIVE_POLL_INTERVAL=0.05)
def test_a_command_from_another_connection_wakes_the_wait(committed_db: None) -> None:
    """Two database connections, as two web processes have: one waits, the other commits.
    Committed for real, so fresh usernames (conftest `committed_db`); not the
    django_user_model fixture, which wraps the test in a transaction."""
    if connection.vendor == "sqlite":
        pytest.skip("SQLite serialises whole requests: the command would wait for the poll")
    prefix = uuid.uuid4().hex[:8]
    clients = make_clients(User, prefix=prefix)
    bid = new_battle(clients, prefix=prefix)
    before = version(bid)
    state = clients["gm"].get(f"/api/battles/{bid}/").json()["state"]

    battle = Battle.objects.get(pk=bid)
    gm = User.objects.get(username=prefix + "gm")

    def play_later() -> None:
        time.sleep(0.5)
        try:
            services.battle_command_execute(
                battle=battle,
                actor=gm,
                command_id="from-elsewhere",
                expected_version=before,
                body={"type": "pass", "seat": state["active"]},
            )
        finally:
            connection.close()

    thread = threading.Thread(target=play_later)
    thread.start()
    started = time.monotonic()
    body = updates(clients["bob"], bid, f"after={before}&wait=10").json()
    elapsed = time.monotonic() - started
    thread.join()
    assert body["events"] and body["events"][0]["version"] == before + 1
    assert elapsed < 2, elapsed


# --- bad input: 400 naming the parameter --------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("", "after"),
        ("after=-1", "after"),
        ("after=one", "after"),
        ("after=1.5", "after"),
        ("after=99999", "after"),
        ("after=0&wait=21", "wait"),
        ("after=0&wait=-1", "wait"),
        ("after=0&wait=nan", "wait"),
        ("after=0&limit=0", "limit"),
        ("after=0&limit=1001", "limit"),
    ],
)
def test_bad_parameters_are_a_400_naming_them(
    clients: dict[str, Client], bid: str, query: str, field: str
) -> None:
    response = updates(clients["alice"], bid, query)
    assert response.status_code == 400, response.content
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == [field]
    assert all(e["message"] for e in errors)


@pytest.mark.django_db
def test_a_version_past_the_stream_says_the_current_one(
    clients: dict[str, Client], bid: str
) -> None:
    response = updates(clients["alice"], bid, f"after={version(bid) + 1}")
    assert response.status_code == 400
    assert f"version {version(bid)}" in response.json()["errors"][0]["message"]


# --- who may ask ---------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("who", "status"),
    [("gm", 200), ("alice", 200), ("bob", 200), ("watcher", 200), ("outsider", 403)],
)
def test_owner_members_and_outsiders(
    clients: dict[str, Client], bid: str, who: str, status: int
) -> None:
    response = updates(clients[who], bid, "after=0&wait=0")
    assert response.status_code == status, response.content
    if status == 403:
        assert "events" not in response.json() and response.json()["code"]


@pytest.mark.django_db
def test_anonymous_is_401_and_an_unknown_battle_404(clients: dict[str, Client], bid: str) -> None:
    assert updates(clients["anonymous"], bid, "after=0").status_code == 401
    assert updates(clients["gm"], str(uuid.uuid4()), "after=0").status_code == 404


@pytest.mark.django_db
def test_the_schema_documents_the_endpoint(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    operation = schema["paths"]["/api/battles/{battle_id}/updates"]["get"]
    assert operation["operationId"] == "battles_updates"
    assert {p["name"] for p in operation["parameters"]} >= {"after", "wait", "limit"}
    output = schema["components"]["schemas"]["UpdatesOutput"]["properties"]
    assert {"version", "events", "more", "waited_ms", "poll_after_ms"} <= set(output)


@pytest.mark.django_db
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    params=st.dictionaries(
        st.sampled_from(["after", "wait", "limit", "x"]),
        st.one_of(
            st.integers(-(2**70), 2**70).map(str),
            st.text(max_size=8),
            st.sampled_from(["", "1e9", "nan", "inf", "0x10", " 3", "３", "\x00"]),
        ),
        max_size=4,
    )
)
def test_generated_parameters_are_never_a_500(
    clients: dict[str, Client], bid: str, params: dict[str, str]
) -> None:
    response = clients["alice"].get(f"/api/battles/{bid}/updates", params)
    assert response.status_code in (200, 400), response.content
    if response.status_code == 400:
        assert all(e["field"] in ("after", "wait", "limit") for e in response.json()["errors"])
