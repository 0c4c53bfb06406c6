"""Pushed live updates: which battle streams moved, told to every open page at once.

An append to a battle's stream is announced after its transaction commits, as the
battle's id and its new version and nothing else: a page that learns of a version asks
`…/updates?after=N` for the events as it may see them (R-ADD-28), so no hidden
information crosses the announcement (docs/FRONTEND.md "Live updates").

- Within one process, the `Broker` hands the version to every open stream of the battle
  (`battles.streams`): threads (runserver, WSGI) wait on a threading.Event, ASGI streams
  on an asyncio.Event woken through their own event loop.
- Across processes (several web workers, several hosts), with REDIS_URL set, the version
  is also published on one Redis pub/sub channel; each process that holds open streams
  listens to it (redis.asyncio, in one daemon thread) and hands what it hears to its
  Broker. Without REDIS_URL (the embedded default: one process) the Broker is all.

Versions only grow, so a stream keeps the newest one announced: a burst of commands
wakes a page once, and an announcement heard twice (published locally and heard back
from Redis) changes nothing. A lost announcement (Redis restarting) is caught up by the
stream's heartbeat, which reads the stream's head from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import transaction

from penance_site.eventstore.store import RecordedEvent, StreamRef

log = logging.getLogger(__name__)

CHANNEL = "penance:battle-versions"
# Streams one process holds open at most (PENANCE_LIVE_MAX_STREAMS, the setting else the
# environment variable); one more is refused (503) and its page polls.
DEFAULT_MAX_STREAMS = 200


class Subscription:
    """One open stream's mailbox: the newest version announced for its battle, and the
    event its reader waits on (asyncio when the reader runs in an event loop)."""

    def __init__(self, battle_id: str, loop: asyncio.AbstractEventLoop | None) -> None:
        self.battle_id = battle_id
        self.version = 0
        self.closed = False
        # Set when announcements may have been missed (the Redis listener was away): the
        # stream reads the head from the database now rather than at its next heartbeat.
        self.recheck = False
        self._loop = loop
        self._async_event = asyncio.Event() if loop is not None else None
        self._thread_event = threading.Event()

    def notify(self, version: int | None) -> None:
        """Record `version` (None: the process is shutting down) and wake the reader. The
        version is set before the wake, so a reader that reads it after waking sees it."""
        if version is None:
            self.closed = True
        elif version > self.version:
            self.version = version
        else:
            return
        self._wake()

    def notify_recheck(self) -> None:
        """Wake the reader to read the head from the database (announcements missed)."""
        self.recheck = True
        self._wake()

    def _wake(self) -> None:
        if self._loop is not None and self._async_event is not None:
            # A closed loop (RuntimeError) is a stream already gone.
            with contextlib.suppress(RuntimeError):
                self._loop.call_soon_threadsafe(self._async_event.set)
        else:
            self._thread_event.set()

    async def wait(self, timeout: float) -> None:
        """Until notified or `timeout` seconds (in the subscriber's event loop)."""
        assert self._async_event is not None
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._async_event.wait(), timeout)
        self._async_event.clear()

    def wait_blocking(self, timeout: float) -> None:
        """Until notified or `timeout` seconds (in the subscriber's thread)."""
        self._thread_event.wait(timeout)
        self._thread_event.clear()


class Broker:
    """The process's open streams by battle; thread-safe. `limit` bounds how many."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._streams: dict[str, set[Subscription]] = {}
        self._open = 0

    def subscribe(
        self, battle_id: str, loop: asyncio.AbstractEventLoop | None = None
    ) -> Subscription | None:
        """A new subscription, or None when the process already holds `limit` streams."""
        with self._lock:
            if self._open >= self.limit:
                return None
            sub = Subscription(battle_id, loop)
            self._streams.setdefault(battle_id, set()).add(sub)
            self._open += 1
            return sub

    def unsubscribe(self, sub: Subscription) -> None:
        with self._lock:
            subs = self._streams.get(sub.battle_id)
            if subs is None or sub not in subs:
                return
            subs.discard(sub)
            self._open -= 1
            if not subs:
                del self._streams[sub.battle_id]

    def deliver(self, battle_id: str, version: int) -> None:
        with self._lock:
            for sub in self._streams.get(battle_id, ()):
                sub.notify(version)

    def recheck_all(self) -> None:
        """Every open stream reads its battle's head now: announcements published while
        this process's Redis listener was not subscribed (starting, reconnecting) were
        missed, and would otherwise wait for each stream's heartbeat (up to 15 s)."""
        with self._lock:
            for subs in self._streams.values():
                for sub in subs:
                    sub.notify_recheck()

    def close_all(self) -> None:
        """End every open stream (the server is shutting down): each page reconnects,
        to another process, and catches up from its Last-Event-ID."""
        with self._lock:
            for subs in self._streams.values():
                for sub in subs:
                    sub.notify(None)

    @property
    def open(self) -> int:
        with self._lock:
            return self._open


BROKER = Broker(
    int(
        getattr(settings, "PENANCE_LIVE_MAX_STREAMS", None)
        or os.environ.get("PENANCE_LIVE_MAX_STREAMS")
        or DEFAULT_MAX_STREAMS
    )
)


# --- across processes: Redis pub/sub -------------------------------------------------------------

_publisher: Any = None
_publisher_lock = threading.Lock()
_listener_pid: int | None = None
_listener_lock = threading.Lock()


def _redis_url() -> str | None:
    url = getattr(settings, "REDIS_URL", None)
    return str(url) if url else None


# When a PUBLISH fails (Redis slow or restarting), it is tried again from a timer thread
# after these delays (s), not dropped: the other processes' pages would otherwise hear of
# the version only at their stream's next heartbeat, up to PENANCE_LIVE_HEARTBEAT (15 s)
# later. Versions only grow and a stream keeps the newest, so one heard twice is harmless.
REPUBLISH_DELAYS = (0.2, 0.5, 1.0, 2.0, 4.0)
# A PUBLISH slower than this is logged (bench/live.py --server-log counts them).
SLOW_PUBLISH = 0.25


def _publish_redis(url: str, battle_id: str, version: int, attempt: int = 0) -> None:
    """PUBLISH the announcement; Redis down costs one quick failed attempt, logged, and a
    later try from a timer thread (REPUBLISH_DELAYS); after the last the other processes'
    pages catch up at their next heartbeat."""
    global _publisher
    import redis

    started = time.monotonic()
    try:
        with _publisher_lock:
            if _publisher is None:
                # Not redis-py's own retries (three, each up to the socket timeout, in the
                # command's request): the timer below retries without holding the answer.
                _publisher = redis.Redis.from_url(
                    url, socket_connect_timeout=0.5, socket_timeout=0.5, retry=None
                )
            client = _publisher
        client.publish(CHANNEL, f"{battle_id} {version}")
    except redis.RedisError as exc:
        if attempt < len(REPUBLISH_DELAYS):
            log.warning(
                "live: could not publish %s v%s to Redis (%s); trying again in %s s",
                battle_id,
                version,
                exc,
                REPUBLISH_DELAYS[attempt],
            )
            timer = threading.Timer(
                REPUBLISH_DELAYS[attempt],
                _publish_redis,
                args=(url, battle_id, version, attempt + 1),
            )
            timer.daemon = True
            timer.start()
        else:
            log.warning(
                "live: gave up publishing %s v%s to Redis (%s): the other processes' pages "
                "catch up at their heartbeat",
                battle_id,
                version,
                exc,
            )
        return
    took = time.monotonic() - started
    if took > SLOW_PUBLISH:
        log.warning("live: publishing %s v%s to Redis took %.2f s", battle_id, version, took)


def publish(battle_id: str, version: int) -> None:
    """Announce that the battle's stream reached `version`: to this process's streams at
    once, and to the other processes' through Redis when there is one."""
    BROKER.deliver(battle_id, version)
    url = _redis_url()
    if url:
        _publish_redis(url, battle_id, version)


def _heard(data: bytes | str) -> None:
    text = data.decode() if isinstance(data, bytes) else data
    battle_id, _, version = text.partition(" ")
    if version.isdigit():
        BROKER.deliver(battle_id, int(version))


async def _listen(url: str) -> None:
    """Hand every announcement on the channel to this process's Broker, for ever,
    reconnecting a second after Redis goes away."""
    import redis.asyncio as aioredis

    while True:
        try:
            client = aioredis.Redis.from_url(
                url, socket_connect_timeout=2, health_check_interval=30
            )
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(CHANNEL)
                # Subscribed (again): whatever was published before this, while the
                # listener started or reconnected, was missed; every open stream reads
                # its head now rather than at its heartbeat.
                BROKER.recheck_all()
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        _heard(message["data"])
        except Exception as exc:  # any failure of the connection: start again
            log.warning("live: Redis listener lost its connection: %s", exc)
        await asyncio.sleep(1)


def ensure_listener() -> None:
    """Start this process's Redis listener (once per process, forks included) when the
    site has REDIS_URL; nothing otherwise."""
    global _listener_pid
    url = _redis_url()
    if not url:
        return
    with _listener_lock:
        if _listener_pid == os.getpid():
            return
        _listener_pid = os.getpid()
        thread = threading.Thread(
            target=asyncio.run, args=(_listen(url),), name="live-redis-listener", daemon=True
        )
        thread.start()


# --- the hook on the event store -----------------------------------------------------------------


def battle_appended(stream: StreamRef, events: Sequence[RecordedEvent]) -> None:
    """An append to a battle's stream (eventstore `react_to_appends`, inside its
    transaction): announce the new version once the transaction commits, and let the
    bot take its turn if the battle now waits on it (battles.bots)."""
    if not events:
        return
    battle_id, version = stream.id, events[-1].version
    transaction.on_commit(lambda: publish(battle_id, version), robust=True)
    from battles.bots import bot_turn_schedule

    bot_turn_schedule(battle_id=battle_id, version=version)
