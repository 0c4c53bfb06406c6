"""A watcher's stream carries the watchers' frame and log lines (battles.streams
`_WatcherPush`, pages.watcher_fragments): the very bytes a watcher's fetch gets, made
once per process and version for every watcher's stream, never a seat's or the GM's
view (R-ADD-28); a seat's and the GM's streams keep the plain version. A page that is
behind (opening, reconnect, a version the database cannot show yet) gets the plain
version and fetches, as before."""

from __future__ import annotations

import asyncio
import json
import threading
import time
import uuid
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.test import AsyncClient, Client

from battles import live, streams
from tests.battles.api_calls import send, version
from tests.battles.test_live_stream import THREADED, acting, chunks, hang_up
from tests.battles.test_live_updates import make_clients, new_battle


@pytest.fixture
def clients(django_user_model: type[User], db: None) -> dict[str, Client]:
    out = make_clients(django_user_model)
    for client in out.values():
        client.defaults.update(THREADED)
    return out


@pytest.fixture
def bid(clients: dict[str, Client]) -> str:
    return new_battle(clients)


def fetched(client: Client, bid: str, after: int, at: int) -> tuple[bytes, bytes]:
    """What a watcher's page fetched on a new version: the frame at `at` (htmx) and the
    log lines after `after`."""
    frame = client.get(f"/battles/{bid}/replay/?at={at}", HTTP_HX_REQUEST="true")
    lines = client.get(f"/battles/{bid}/replay/log?after={after}")
    assert frame.status_code == 200 and lines.status_code == 200
    return bytes(frame.content), bytes(lines.content)


def pushed(message: str) -> dict[str, Any]:
    """The fragments message's fields (one `id`, one `event`, one `data` line)."""
    head, event, data, *rest = message.split("\n")
    assert head.startswith("id: ") and event == "event: fragments", message[:200]
    assert data.startswith("data: ") and rest == ["", ""], "one data line, then the end"
    out: dict[str, Any] = json.loads(data[len("data: ") :])
    assert out["version"] == int(head[len("id: ") :])
    return out


def command(clients: dict[str, Client], bid: str, capture: Any) -> int:
    with capture(execute=True):
        who, body = acting(clients, bid)
        assert send(clients[who], bid, body).status_code == 201
    return version(bid)


def test_a_watchers_stream_carries_the_bytes_a_watchers_fetch_gets(
    clients: dict[str, Client], bid: str, django_capture_on_commit_callbacks: Any
) -> None:
    # Inside the test's transaction nothing is kept (autocommit reads only): the stream's
    # fragments and the fetched ones are rendered apart, and still the same bytes.
    head = version(bid)
    response = clients["watcher"].get(f"/api/battles/{bid}/stream?after={head}")
    stream = chunks(response)
    assert next(stream) == "retry: 1000\n\n"
    for _ in range(3):
        new = command(clients, bid, django_capture_on_commit_callbacks)
        data = pushed(next(stream))
        assert (data["version"], data["after"]) == (new, head)
        frame, lines = fetched(clients["watcher"], bid, head, new)
        assert data["frame"].encode() == frame
        assert data["log"].encode() == lines
        assert f'data-line="{new}"'.encode() in lines and b"data-step" in frame
        # A watcher's view: no hand strip, no play panel, no controls.
        assert b"data-hand" not in frame and b"data-play" not in frame
        head = new
    hang_up(response)


@pytest.mark.parametrize("who", ["alice", "bob", "gm"])
def test_a_seat_or_the_gm_hears_the_version_alone(
    clients: dict[str, Client], bid: str, who: str, django_capture_on_commit_callbacks: Any
) -> None:
    head = version(bid)
    response = clients[who].get(f"/api/battles/{bid}/stream?after={head}")
    stream = chunks(response)
    next(stream)
    made = streams.PUSH.made
    for _ in range(2):
        new = command(clients, bid, django_capture_on_commit_callbacks)
        # Nothing but the version: no fragment of the watchers, nothing of another seat.
        assert next(stream) == f"id: {new}\nevent: version\ndata: {new}\n\n"
    assert streams.PUSH.made == made
    hang_up(response)


def test_a_page_behind_gets_the_plain_version_and_fetches(
    clients: dict[str, Client], bid: str, django_capture_on_commit_callbacks: Any
) -> None:
    head = version(bid)
    # A reconnect from an older version: the head, plain (the page catches up by fetching).
    response = clients["watcher"].get(f"/api/battles/{bid}/stream", HTTP_LAST_EVENT_ID="1")
    stream = chunks(response)
    assert next(stream) == "retry: 1000\n\n"
    assert next(stream) == f"id: {head}\nevent: version\ndata: {head}\n\n"
    # Then live versions come with their fragments, from the version sent.
    new = command(clients, bid, django_capture_on_commit_callbacks)
    data = pushed(next(stream))
    assert (data["version"], data["after"]) == (new, head)
    # An announcement the database cannot show (here: a version no command made): plain.
    live.publish(bid, new + 5)
    assert next(stream) == f"id: {new + 5}\nevent: version\ndata: {new + 5}\n\n"
    hang_up(response)


def test_a_command_reaches_fifty_watchers_streams_and_a_players_promptly(
    committed_db: None,
) -> None:
    """Fifty watchers' streams and a player's in one event loop (as one uvicorn worker
    holds them): a command committed by another thread reaches all of them within a
    generous bound, the fifty with the same fragments, made once (single flight) in the
    loop's shared threads; the player's with the plain version. Not a timing benchmark:
    the bound only catches a stream stuck behind a lock, a thread or a lost wake-up."""
    prefix = f"push-{uuid.uuid4().hex[:8]}-"
    users = get_user_model()
    clients = make_clients(users, prefix)  # type: ignore[arg-type]
    bid = new_battle(clients, prefix)
    head = version(bid)
    watcher = users.objects.get(username=prefix + "watcher")
    player = users.objects.get(username=prefix + "bob")
    streams.PUSH.made = 0

    async def open_stream(user: Any) -> Any:
        client = AsyncClient()
        await client.aforce_login(user)
        response = await client.get(f"/api/battles/{bid}/stream?after={head}")
        assert response.status_code == 200
        content = response.streaming_content
        assert await anext(content) == b"retry: 1000\n\n"
        return content

    async def first(content: Any) -> tuple[str, float]:
        got = await asyncio.wait_for(anext(content), 5)
        return got.decode() if isinstance(got, bytes) else got, time.monotonic()

    async def run() -> tuple[list[tuple[str, float]], float]:
        contents = [await open_stream(watcher) for _ in range(50)]
        contents.append(await open_stream(player))
        assert live.BROKER.open >= 51
        sent: list[float] = []

        def play() -> None:
            who, body = acting(clients, bid)
            sent.append(time.monotonic())
            assert send(clients[who], bid, body).status_code == 201  # commits: announces

        thread = threading.Thread(target=play)
        thread.start()
        try:
            heard = await asyncio.gather(*(first(c) for c in contents))
        finally:
            for content in contents:
                await content.aclose()
        await asyncio.to_thread(thread.join)
        return heard, sent[0]

    heard, started = async_to_sync(run)()
    new = version(bid)
    assert new > head
    messages = [m for m, _ in heard]
    assert messages[-1] == f"id: {new}\nevent: version\ndata: {new}\n\n"  # the player
    assert len(set(messages[:50])) == 1  # one message for the fifty watchers
    data = pushed(messages[0])
    assert (data["version"], data["after"]) == (new, head)
    assert streams.PUSH.made == 1  # rendered or read once, not fifty times
    assert max(t for _, t in heard) - started < 5
    # The same bytes a watcher's fetch gets now (from the cache the push filled).
    assert (data["frame"].encode(), data["log"].encode()) == fetched(
        clients["watcher"], bid, head, new
    )
    assert live.BROKER.open == 0


# --- what could hold a version back until the heartbeat (docs/PERFORMANCE.md) --------------------


def test_a_stuck_rendering_costs_a_watcher_a_fetch_and_the_player_nothing(
    committed_db: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fragments' task stuck (a slow database or cache): each watcher's stream waits at
    most PUSH_WAIT and then sends the plain version (its page fetches); a player's stream,
    which never waits on the fragments, hears at once. No stream waits for another's."""
    prefix = f"stuck-{uuid.uuid4().hex[:8]}-"
    users = get_user_model()
    clients = make_clients(users, prefix)  # type: ignore[arg-type]
    bid = new_battle(clients, prefix)
    head = version(bid)
    release = threading.Event()

    def stuck(battle: Any, after: int, new: int) -> str | None:
        release.wait(30)
        return None

    monkeypatch.setattr(streams, "_watcher_message", stuck)
    monkeypatch.setattr(streams, "PUSH_WAIT", 0.5)

    people = {name: users.objects.get(username=prefix + name) for name in ("watcher", "bob")}

    async def open_stream(username: str) -> Any:
        client = AsyncClient()
        await client.aforce_login(people[username])
        response = await client.get(f"/api/battles/{bid}/stream?after={head}")
        content = response.streaming_content
        assert await anext(content) == b"retry: 1000\n\n"
        return content

    async def first(content: Any) -> tuple[str, float]:
        got = await asyncio.wait_for(anext(content), 5)
        return got.decode() if isinstance(got, bytes) else got, time.monotonic()

    async def run() -> tuple[list[tuple[str, float]], float]:
        contents = [await open_stream("watcher") for _ in range(5)]
        contents.append(await open_stream("bob"))
        started = time.monotonic()
        threading.Timer(0.05, lambda: live.publish(bid, head + 1)).start()
        try:
            heard = await asyncio.gather(*(first(c) for c in contents))
        finally:
            release.set()
            for content in contents:
                await content.aclose()
        return heard, started

    try:
        heard, started = async_to_sync(run)()
    finally:
        release.set()
    plain = f"id: {head + 1}\nevent: version\ndata: {head + 1}\n\n"
    assert [m for m, _ in heard] == [plain] * 6
    player_took = heard[-1][1] - started
    watchers_took = [t - started for _, t in heard[:5]]
    assert player_took < 0.45  # not behind the watchers' wait (PUSH_WAIT 0.5 s)
    assert all(0.5 <= t < 5 for t in watchers_took), watchers_took


def test_a_missed_announcement_is_read_from_the_database_at_once_on_a_recheck(
    clients: dict[str, Client], bid: str, django_capture_on_commit_callbacks: Any
) -> None:
    """What the Redis listener does when it (re)subscribes: announcements published while
    it was away are lost, so every open stream reads its head then, rather than at its
    heartbeat (15 s later at worst: the "14 s" delay class)."""
    head = version(bid)
    response = clients["alice"].get(f"/api/battles/{bid}/stream?after={head}")
    stream = chunks(response)
    next(stream)
    with django_capture_on_commit_callbacks(execute=False):  # appended, never announced
        who, body = acting(clients, bid)
        assert send(clients[who], bid, body).status_code == 201
    new = version(bid)
    threading.Timer(0.1, live.BROKER.recheck_all).start()
    started = time.monotonic()
    assert next(stream) == f"id: {new}\nevent: version\ndata: {new}\n\n"  # no heartbeat line
    assert time.monotonic() - started < 5  # the heartbeat is 15 s
    hang_up(response)


def test_a_failed_publish_is_tried_again_not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    import redis

    sent: list[tuple[str, str]] = []
    fails = [redis.TimeoutError("slow"), redis.ConnectionError("restarting")]

    class Flaky:
        def publish(self, channel: str, message: str) -> None:
            if fails:
                raise fails.pop(0)
            sent.append((channel, message))

    monkeypatch.setattr(live, "_publisher", Flaky())
    monkeypatch.setattr(live, "REPUBLISH_DELAYS", (0.01, 0.01, 0.01))
    live._publish_redis("redis://unused", "b1", 7)
    deadline = time.monotonic() + 5
    while not sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [(live.CHANNEL, "b1 7")]


def test_a_process_reads_the_fragments_another_one_is_making(committed_db: None) -> None:
    """Both web processes hear of a version at once: the one that did not take the mark
    waits for the other's fragments in the cache instead of rendering them again."""
    from django.core.cache import cache

    from battles import pages
    from battles.models import Battle

    prefix = f"mark-{uuid.uuid4().hex[:8]}-"
    clients = make_clients(get_user_model(), prefix)  # type: ignore[arg-type]
    bid = new_battle(clients, prefix)
    head = version(bid)
    keys = [
        pages.watcher_fragment_key(fragment="frame", battle_id=bid, step=head, head=head),
        pages.watcher_fragment_key(fragment="log", battle_id=bid, step=head - 1, head=head),
    ]
    cache.add(f"{keys[0]}:{head - 1}:making", 1, 5)  # another process took it
    made = {keys[0]: b"<the other process's frame>", keys[1]: b"<its log lines>"}
    threading.Timer(0.2, lambda: cache.set_many(made, 60)).start()
    battle = Battle.objects.get(pk=bid)
    assert pages.watcher_fragments(battle=battle, after=head - 1, head=head) == (
        made[keys[0]],
        made[keys[1]],
    )
