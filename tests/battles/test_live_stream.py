"""`GET /api/battles/<id>/stream` (battles.streams, battles.live): a battle's new versions
pushed as server-sent events, only the version (the page fetches its own redacted events
from `…/updates`), to the battle's GM, players and watchers alone; announced after commit,
within one process by the broker and across processes through Redis."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import AsyncClient, Client

from battles import live, streams
from tests.battles.api_calls import send, version
from tests.battles.test_live_updates import make_clients, new_battle

# As a threaded server (runserver) says; the test client otherwise says one request per
# process, where the stream refuses (the last test of these says so).
THREADED = {"wsgi.multithread": True}


@pytest.fixture
def clients(django_user_model: type[User], db: None) -> dict[str, Client]:
    out = make_clients(django_user_model)
    for client in out.values():
        client.defaults.update(THREADED)
    return out


@pytest.fixture
def bid(clients: dict[str, Client]) -> str:
    return new_battle(clients)


def chunks(response: Any) -> Iterator[str]:
    for chunk in response.streaming_content:
        yield chunk.decode() if isinstance(chunk, bytes) else chunk


def hang_up(response: Any) -> None:
    """The page goes away: its stream ends and lets go of its subscription (as a server's
    close does; the test client's own close keeps the test's database connection)."""
    live.BROKER.close_all()
    for _ in chunks(response):  # what was already due, then the end
        pass
    assert live.BROKER.open == 0


def acting(clients: dict[str, Client], bid: str) -> tuple[str, dict[str, Any]]:
    """Whoever of alice and bob may act now, and one action of theirs (a pass if any)."""
    for who in ("alice", "bob"):
        actions = clients[who].get(f"/api/battles/{bid}/legal-actions").json()["actions"]
        bodies = [a["body"] for a in actions]
        if bodies:
            return who, next((b for b in bodies if b["type"] == "pass"), bodies[0])
    raise AssertionError("nobody may act")


@pytest.mark.parametrize("who", ["gm", "alice", "bob", "watcher"])
def test_the_battles_people_hear_its_head_at_once(
    clients: dict[str, Client], bid: str, who: str
) -> None:
    response = clients[who].get(f"/api/battles/{bid}/stream")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert response["Cache-Control"] == "no-store"
    stream = chunks(response)
    assert next(stream) == "retry: 1000\n\n"
    head = version(bid)
    assert next(stream) == f"id: {head}\nevent: version\ndata: {head}\n\n"
    hang_up(response)


@pytest.mark.parametrize(
    ("who", "status"), [("outsider", 403), ("anonymous", 401)], ids=["outsider", "signed-out"]
)
def test_nobody_else_listens(clients: dict[str, Client], bid: str, who: str, status: int) -> None:
    response = clients[who].get(f"/api/battles/{bid}/stream")
    assert response.status_code == status
    assert not getattr(response, "streaming", False)
    assert live.BROKER.open == 0  # the refused stream let go of its subscription


def test_a_server_of_one_request_per_process_refuses_streams(
    clients: dict[str, Client], bid: str
) -> None:
    """gunicorn's sync workers: a stream would hold a worker; the page polls instead."""
    response = clients["alice"].get(f"/api/battles/{bid}/stream", **{"wsgi.multithread": False})
    assert response.status_code == 503
    assert response.json()["code"] == "streams_unavailable"
    assert live.BROKER.open == 0


def test_no_such_battle_is_a_404(clients: dict[str, Client]) -> None:
    response = clients["alice"].get("/api/battles/00000000-0000-0000-0000-000000000000/stream")
    assert response.status_code == 404


def test_a_token_signs_in_too(
    clients: dict[str, Client], bid: str, django_user_model: type[User]
) -> None:
    from penance_site.accounts.tokens import api_token_create

    alice = django_user_model.objects.get(username="alice")
    _, token = api_token_create(user=alice, name="stream")
    response = Client(**THREADED).get(
        f"/api/battles/{bid}/stream", HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert response.status_code == 200
    hang_up(response)
    bad = Client(**THREADED).get(f"/api/battles/{bid}/stream", HTTP_AUTHORIZATION="Token nonsense")
    assert bad.status_code == 401


@pytest.mark.parametrize("header", ["HTTP_LAST_EVENT_ID", None])
def test_a_version_that_is_not_a_number_is_a_400_naming_its_field(
    clients: dict[str, Client], bid: str, header: str | None
) -> None:
    url = f"/api/battles/{bid}/stream"
    if header:
        response = clients["alice"].get(url, **{header: "seven"})
    else:
        response = clients["alice"].get(url + "?after=-1")
    assert response.status_code == 400
    assert response.json()["field"] == ("Last-Event-ID" if header else "after")


def test_a_reconnect_from_the_head_waits_and_then_hears_the_next_command(
    clients: dict[str, Client], bid: str, django_capture_on_commit_callbacks: Any
) -> None:
    head = version(bid)
    response = clients["bob"].get(f"/api/battles/{bid}/stream", HTTP_LAST_EVENT_ID=str(head))
    stream = chunks(response)
    assert next(stream) == "retry: 1000\n\n"  # nothing new: no version yet
    with django_capture_on_commit_callbacks(execute=True):
        who, body = acting(clients, bid)
        assert send(clients[who], bid, body).status_code == 201
    new = version(bid)
    assert new > head
    # The message is the version alone: no event, no card, nothing a seat hides.
    assert next(stream) == f"id: {new}\nevent: version\ndata: {new}\n\n"
    hang_up(response)
    assert live.BROKER.open == 0


def test_a_refused_command_announces_nothing(
    clients: dict[str, Client], bid: str, django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        who, body = acting(clients, bid)
        other = "bob" if who == "alice" else "alice"
        refused = send(clients[other], bid, body)  # not their seat
    assert refused.status_code == 403
    assert callbacks == []


def test_one_stream_too_many_is_a_503_and_the_page_polls(
    clients: dict[str, Client], bid: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live.BROKER, "limit", 1)
    first = clients["alice"].get(f"/api/battles/{bid}/stream")
    assert first.status_code == 200
    second = clients["bob"].get(f"/api/battles/{bid}/stream")
    assert second.status_code == 503
    assert second["Retry-After"] == "30"
    hang_up(first)
    assert clients["bob"].get(f"/api/battles/{bid}/updates?after=0").status_code == 200


def test_a_shutdown_ends_every_stream(clients: dict[str, Client], bid: str) -> None:
    response = clients["alice"].get(f"/api/battles/{bid}/stream")
    stream = chunks(response)
    next(stream), next(stream)
    threading.Timer(0.1, live.BROKER.close_all).start()
    started = time.monotonic()
    assert list(stream) == []  # the stream ends: the browser reconnects elsewhere
    assert time.monotonic() - started < 5
    assert live.BROKER.open == 0


@pytest.mark.parametrize(("who", "spread"), [("watcher", True), ("bob", False)])
def test_a_watchers_announcements_are_spread_the_players_are_not(
    clients: dict[str, Client],
    bid: str,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    who: str,
    spread: bool,
) -> None:
    settings.PENANCE_LIVE_WATCHER_SPREAD = 1.0
    monkeypatch.setattr(streams.random, "uniform", lambda low, high: high)  # the longest wait
    head = version(bid)
    response = clients[who].get(f"/api/battles/{bid}/stream?after={head}")
    stream = chunks(response)
    next(stream)
    live.publish(bid, head + 1)
    started = time.monotonic()
    assert next(stream).startswith(f"id: {head + 1}\n")
    took = time.monotonic() - started
    assert (took >= 1.0) == spread
    hang_up(response)


def test_a_heartbeat_keeps_the_connection_and_reads_the_head(
    clients: dict[str, Client], bid: str, settings: Any
) -> None:
    settings.PENANCE_LIVE_HEARTBEAT = 0.05
    head = version(bid)
    response = clients["alice"].get(f"/api/battles/{bid}/stream?after={head - 1}")
    stream = chunks(response)
    assert next(stream) == "retry: 1000\n\n"
    assert next(stream).startswith(f"id: {head}\n")
    assert next(stream) == ": heartbeat\n\n"
    hang_up(response)


def test_under_asgi_the_stream_waits_in_the_event_loop(committed_db: None) -> None:
    # Committed rows (not the `db` fixture's transaction): the stream reads from the event
    # loop's shared threads, each with its own connection.
    prefix = f"asgi-{uuid.uuid4().hex[:8]}-"
    users = get_user_model()
    clients = make_clients(users, prefix)  # type: ignore[arg-type]
    bid = new_battle(clients, prefix)
    alice = users.objects.get(username=prefix + "alice")

    async def listen() -> list[str]:
        client = AsyncClient()
        await client.aforce_login(alice)
        response = await client.get(f"/api/battles/{bid}/stream")
        assert response.status_code == 200
        got: list[str] = []
        content = response.streaming_content
        got.append(await anext(content))
        got.append(await anext(content))
        # Another thread commits a command meanwhile (a request in another worker thread).
        threading.Timer(0.2, lambda: live.publish(bid, 999)).start()
        got.append(await anext(content))
        await content.aclose()
        return [g.decode() if isinstance(g, bytes) else g for g in got]

    got = async_to_sync(listen)()
    head = version(bid)
    assert got == [
        "retry: 1000\n\n",
        f"id: {head}\nevent: version\ndata: {head}\n\n",
        "id: 999\nevent: version\ndata: 999\n\n",
    ]
    assert live.BROKER.open == 0


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL")
def test_with_redis_another_process_announcement_reaches_this_ones_streams(
    clients: dict[str, Client], bid: str
) -> None:
    """What another web process publishes (here: straight to Redis, as its `publish` does)
    reaches the streams this process holds, through its listener."""
    import redis

    response = clients["alice"].get(f"/api/battles/{bid}/stream")
    stream = chunks(response)
    next(stream), next(stream)
    publisher = redis.Redis.from_url(settings.REDIS_URL)
    deadline = time.monotonic() + 10
    while publisher.pubsub_numsub(live.CHANNEL)[0][1] == 0:  # the listener subscribed
        assert time.monotonic() < deadline, "the Redis listener never subscribed"
        time.sleep(0.05)
    publisher.publish(live.CHANNEL, f"{bid} 4242")
    assert next(stream) == "id: 4242\nevent: version\ndata: 4242\n\n"
    hang_up(response)
