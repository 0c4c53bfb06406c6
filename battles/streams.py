"""`GET /api/battles/<id>/stream`: a battle's new versions, pushed (server-sent events).

One long-lived response per open page (docs/FRONTEND.md "Live updates"). To the GM and
the players each message is `id: <version>` and `data: <version>` and nothing else: the
page then fetches its own frame and log lines (or `…/updates?after=N`) as it may see them
(R-ADD-28), so their stream carries no hidden information. To a watcher, a new version
comes as `event: fragments` with the watchers' frame at that version and their log lines
after the version sent before: the very bytes a watcher's fetch would get (pages.py
`watcher_fragments`, the same for every watcher: R-ADD-28, R-ADD-336), so fifty
watchers' pages make no request per version; each process renders or reads them once per
version and hands them to every watcher's stream (`_WatcherPush`). A reconnecting
EventSource sends `Last-Event-ID` and hears at once of any version past it, as a plain
version: a page that is behind catches up by fetching, as it always did. A comment line
every PENANCE_LIVE_HEARTBEAT seconds keeps proxies from closing the idle connection, and
with it the stream reads the battle's head from the database: an announcement lost in
transit (battles.live) is caught up then.

Who may listen is who may open the battle's page: its GM, players and watchers (403 for
anyone else, 404 for no such battle, 401 signed out); signed in by session (the page) or
by API token (`Authorization: Token …`).

Under ASGI (`make serve`: gunicorn with uvicorn workers) the stream is an async iterator
that holds no thread while it waits; under WSGI (runserver) a generator that holds one
thread per open page, which is fine for development; where each request holds a whole
process (gunicorn's sync workers) it answers 503 and the page polls. Each process holds at most
PENANCE_LIVE_MAX_STREAMS streams; one more gets a 503 and its page polls instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Iterator
from typing import Any, Generic, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET
from rest_framework.exceptions import AuthenticationFailed

from battles.live import BROKER, Subscription, ensure_listener
from battles.models import Battle
from battles.pages import watcher_fragments
from battles.selectors import battle_head_version, battle_role
from penance_site.accounts.tokens import HashedTokenAuthentication

log = logging.getLogger(__name__)

M = TypeVar("M")

DEFAULT_HEARTBEAT = 15.0
DEFAULT_SPREAD = 1.0
# How long a browser waits before reconnecting a dropped stream (the SSE `retry:` field).
RECONNECT_MS = 1000


def _refusal(status: int, code: str, message: str, field: str | None = None) -> JsonResponse:
    body: dict[str, Any] = {"code": code, "message": message, "rule": None}
    if field is not None:
        body["field"] = field
    return JsonResponse(body, status=status)


def _heartbeat() -> float:
    return float(getattr(settings, "PENANCE_LIVE_HEARTBEAT", DEFAULT_HEARTBEAT))


def _listener(
    request: HttpRequest, battle_id: uuid.UUID
) -> tuple[Battle | None, int, JsonResponse | None, str | None]:
    """Who asks and whether they may listen: the battle, its head version and the
    listener's role (battle_role), or the refusal. Run in the shared executor (not the request's own thread), so an open stream
    holds no database connection of its own while it waits."""
    user = request.user
    if not user.is_authenticated and "HTTP_AUTHORIZATION" in request.META:
        try:
            found = HashedTokenAuthentication().authenticate(request)  # type: ignore[arg-type]
        except AuthenticationFailed as exc:
            return None, 0, _refusal(401, "not_authenticated", str(exc.detail)), None
        if found:
            user = found[0]
    if not user.is_authenticated:
        return None, 0, _refusal(401, "not_authenticated", "sign in to follow a battle"), None
    battle = Battle.objects.filter(pk=battle_id).select_related("gm").first()
    if battle is None:
        return None, 0, _refusal(404, "not_found", "no battle has this id"), None
    role = battle_role(battle=battle, user=user)
    if role is None:
        message = "you are not the GM, a player or a watcher of this battle"
        return None, 0, _refusal(403, "permission_denied", message), None
    return battle, battle_head_version(battle=battle), None, role


def _after(request: HttpRequest) -> int | JsonResponse:
    """The version the page holds: `Last-Event-ID` (a reconnect) or `?after=`; 0 if none."""
    raw = request.headers.get("Last-Event-ID") or request.GET.get("after") or "0"
    field = "Last-Event-ID" if request.headers.get("Last-Event-ID") else "after"
    if not raw.isdigit() or len(raw) > 12:
        return _refusal(400, "invalid", "must be a whole number of at least 0", field)
    return int(raw)


def _shared(function: Any, asgi: bool = True) -> Any:
    """`function` run, under ASGI, in the event loop's shared thread pool (a few threads,
    each with its database connection) rather than the request's own thread, whose
    connection would stay open as long as the stream; under WSGI, in the request's thread
    (the view runs in a loop of its own there)."""
    return sync_to_async(function, thread_sensitive=not asgi)


def _spread(role: str | None) -> float:
    """Seconds over which a watcher's announcements are spread at random (the setting
    PENANCE_LIVE_WATCHER_SPREAD, the setting else the environment variable, 1 s by default); none for the GM and the players.

    Every open page asks `…/updates` when it hears of a version; fifty watchers asking at
    the same instant as the two players would queue the players' requests behind theirs
    (bench/live.py: the other player's page from 350 to 1,273 ms at p95 on two cores).
    Spread out, the watchers' requests leave the players' to go first, and a watcher
    sees the command half a second later on average (polling, they saw it after 668 ms
    at the median). Only a plain version is spread: a watcher's page that is given the
    fragments (`_WatcherPush`) asks nothing, and those wait only `_hold()`."""
    if role in ("gm", "player"):
        return 0.0
    setting = getattr(settings, "PENANCE_LIVE_WATCHER_SPREAD", None)
    if setting is None:
        setting = os.environ.get("PENANCE_LIVE_WATCHER_SPREAD") or DEFAULT_SPREAD
    return max(0.0, float(setting))


DEFAULT_HOLD = 0.3


def _hold() -> float:
    """Seconds the watchers' fragments wait before they are made (the setting
    PENANCE_LIVE_WATCHER_HOLD, else the environment variable; 0.3 s by default).

    The moment a command commits, its player's page fetches its own new frame and the
    other player's page its events; making the watchers' frame then (~20 ms of CPU, and
    fifty streams written) would put it in their way on a machine of two cores. Held back
    a moment, it is made after theirs: watchers see the command that much later (they
    saw it up to a second later when they fetched it, `_spread`), players not at all."""
    setting = getattr(settings, "PENANCE_LIVE_WATCHER_HOLD", None)
    if setting is None:
        setting = os.environ.get("PENANCE_LIVE_WATCHER_HOLD") or DEFAULT_HOLD
    return max(0.0, float(setting))


def _message(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


def _fragments_message(version: int, after: int, frame: bytes, lines: bytes) -> str:
    """A watcher's new version with its fragments, one `data:` line: JSON escapes every
    line break (and U+2028/9 with ensure_ascii), which SSE would otherwise split on."""
    data = {"version": version, "after": after, "frame": frame.decode(), "log": lines.decode()}
    return f"id: {version}\nevent: fragments\ndata: {json.dumps(data)}\n\n"


def _watcher_message(battle: Battle, after: int, head: int) -> str | None:
    """The fragments message from version `after` to `head`, or None (the page fetches)."""
    found = watcher_fragments(battle=battle, after=after, head=head)
    return None if found is None else _fragments_message(head, after, *found)


# How long a watcher's stream waits for its version's fragments before it sends the plain
# version instead (the page then fetches): a slow database or cache costs a request, never
# a stream stuck behind it.
PUSH_WAIT = 3.0


class _WatcherPush:
    """The watchers' fragments messages, made once per process and version and shared by
    every watcher's stream of the battle (single flight).

    After a command every watcher's stream of the battle wakes at once, all with the same
    (battle, version sent before, new version); the first to ask starts one task that
    reads the fragments from the site's cache, or renders and keeps them
    (`pages.watcher_fragments`), and the others await its future: fifty streams cost one
    cache round trip and one thread hop, not fifty. The task runs in the event loop's
    shared thread pool (`sync_to_async(thread_sensitive=False)`), not in a stream's own
    request thread nor Django's one sync thread, so it neither queues behind requests nor
    holds a thread per stream. Why not an async Redis client for the read: a miss (the
    first process to hear of a version) renders through the ORM, which is synchronous
    anyway, and a second client would have to copy Django's cache keys and pickling; with
    one read per version and process the thread hop costs well under a millisecond. The
    embedded default (no Redis: locmem cache, one process) takes the same path.

    The task first waits `_hold()` (0.3 s), so that the players' own requests after a
    command are served before the watchers' frame is rendered and written fifty times;
    across processes one renders and the others read its bytes from the cache
    (`pages.watcher_fragments`).

    The future is shielded: a page that goes away while it waits cancels only its own
    wait, never the task the other streams await; and a stream waits at most `PUSH_WAIT`
    seconds before it sends the plain version. The finished messages of the last few
    versions are kept, so a stream that wakes after the task ended does not start another.
    """

    KEEP = 32

    def __init__(self) -> None:
        self._lock = threading.Lock()  # one loop per process under uvicorn; tests run several
        self._pending: dict[tuple[int, str, int, int], asyncio.Future[str | None]] = {}
        self._done: OrderedDict[tuple[str, int, int], str] = OrderedDict()
        self._tasks: set[asyncio.Task[None]] = set()
        self.made = 0  # messages made (tests count them)

    async def message(self, battle: Battle, after: int, head: int) -> str | None:
        key = (str(battle.pk), after, head)
        loop = asyncio.get_running_loop()
        with self._lock:
            done = self._done.get(key)
            if done is not None:
                return done
            future = self._pending.get((id(loop), *key))
            if future is None:
                future = loop.create_future()
                self._pending[(id(loop), *key)] = future
                task = loop.create_task(self._make(loop, key, battle, future))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)
        try:
            return await asyncio.wait_for(asyncio.shield(future), PUSH_WAIT)
        except TimeoutError:
            log.warning("live: fragments of %s v%s took over %s s", key[0], head, PUSH_WAIT)
            return None

    async def _make(
        self,
        loop: asyncio.AbstractEventLoop,
        key: tuple[str, int, int],
        battle: Battle,
        future: asyncio.Future[str | None],
    ) -> None:
        message: str | None = None
        try:
            await asyncio.sleep(_hold())
            message = await sync_to_async(_watcher_message, thread_sensitive=False)(
                battle, key[1], key[2]
            )
        except Exception:  # the page fetches instead
            log.exception("live: could not make the fragments of %s v%s", key[0], key[2])
        with self._lock:
            self._pending.pop((id(loop), *key), None)
            if message is not None:
                self.made += 1
                self._done[key] = message
                while len(self._done) > self.KEEP:
                    self._done.popitem(last=False)
        if not future.done():
            future.set_result(message)


PUSH = _WatcherPush()


@require_GET
async def battle_stream(request: HttpRequest, battle_id: uuid.UUID) -> HttpResponseBase:
    after = _after(request)
    if isinstance(after, JsonResponse):
        return after
    asgi = isinstance(request, ASGIRequest)
    if not asgi and not request.META.get("wsgi.multithread"):
        # One request per process (gunicorn's sync workers): a stream would hold a whole
        # worker for as long as the page is open. The page polls instead.
        return _refusal(
            503, "streams_unavailable", "this server runs one request per process: poll …/updates"
        )
    ensure_listener()
    # Subscribe before reading the head: a version committed in between is then heard.
    sub = BROKER.subscribe(str(battle_id), asyncio.get_running_loop() if asgi else None)
    if sub is None:
        response = _refusal(
            503, "too_many_streams", "this server holds its most open streams: poll …/updates"
        )
        response["Retry-After"] = "30"
        return response
    try:
        listened: tuple[Battle | None, int, JsonResponse | None, str | None] = await _shared(
            _listener, asgi
        )(request, battle_id)
        battle, head, refusal, role = listened
    except BaseException:
        BROKER.unsubscribe(sub)
        raise
    if battle is None:
        BROKER.unsubscribe(sub)
        assert refusal is not None
        return refusal
    content: _AsyncStream | _ThreadStream = (
        _AsyncStream(sub, _async_events(sub, battle, after, head, role))
        if asgi
        else _ThreadStream(sub, _thread_events(sub, battle, after, head, role))
    )
    stream = StreamingHttpResponse(content, content_type="text/event-stream")
    stream["Cache-Control"] = "no-store"
    stream["X-Accel-Buffering"] = "no"  # a proxy must pass each message on at once
    return stream


class _Stream(Generic[M]):
    """The stream's messages for the server; `close` (the server's, when the page goes away)
    lets go of the subscription even when no message was ever read, which a bare
    generator's `finally` would not (it never started)."""

    def __init__(self, sub: Subscription, messages: M) -> None:
        self.sub = sub
        self.messages: M = messages

    def close(self) -> None:
        BROKER.unsubscribe(self.sub)


class _ThreadStream(_Stream[Iterator[str]]):
    """For a WSGI server."""

    def __iter__(self) -> Iterator[str]:
        return self.messages


class _AsyncStream(_Stream[AsyncIterator[str]]):
    """For an ASGI server (Django's handler calls `close` after the stream ends or the page
    disconnects)."""

    def __aiter__(self) -> AsyncIterator[str]:
        return self.messages


class _Feed:
    """What one stream sends, whichever server runs it: the reconnect delay and the head if
    the page is behind, then after each wait the heartbeat when one is due and the newest
    version when it is past the last one sent: to a watcher with its fragments when there
    are (`push_due`, `pushed`), else plain. The two loops below only wait their way."""

    def __init__(self, sub: Subscription, sent: int, role: str | None) -> None:
        self.sub = sub
        self.sent = sent
        self.spread = _spread(role)
        # Only a watcher's stream ever carries fragments, and only the watchers' ones: a
        # seat's or the GM's view (hidden cards, their controls) never crosses a stream
        # (R-ADD-336).
        self.pushes = role == "watcher"
        self.heartbeat = _heartbeat()
        self.checked = time.monotonic()

    def opening(self, head: int) -> list[str]:
        self.checked = time.monotonic()
        return [f"retry: {RECONNECT_MS}\n\n", *self._versions(head)]

    def head_due(self) -> bool:
        """The head is to be read from the database now: a heartbeat is due, or
        announcements may have been missed (`Subscription.recheck`: then silently, no
        heartbeat line)."""
        if self.sub.recheck:
            self.sub.recheck = False
            return True
        return time.monotonic() - self.checked >= self.heartbeat

    def push_due(self, head: int | None) -> tuple[int, int] | None:
        """(version sent, new version) when this watcher's next message may carry the
        fragments between them; None for a seat, the GM, nothing new, or a page that holds
        no version yet (it fetches the whole page's worth: the plain version)."""
        version = max(self.sub.version, head or 0)
        return (self.sent, version) if self.pushes and version > self.sent > 0 else None

    def pushed(self, head: int | None, version: int, message: str) -> list[str]:
        out = self._beat(head)
        self.sent = max(self.sent, version)
        return [*out, message]

    def delay(self, head: int | None) -> float:
        """How long to hold a due message back: a watcher's spread (`_spread`), else 0."""
        due = max(self.sub.version, head or 0) > self.sent
        return random.uniform(0, self.spread) if due and self.spread else 0.0

    def after_wait(self, head: int | None) -> list[str]:
        """The lines due after a wait; `head` is the database's, read when a heartbeat was."""
        return self._beat(head) + self._versions(max(self.sub.version, head or 0))

    def _beat(self, head: int | None) -> list[str]:
        if head is None or time.monotonic() - self.checked < self.heartbeat:
            return []
        self.checked = time.monotonic()
        return [": heartbeat\n\n"]

    def _versions(self, version: int) -> list[str]:
        if version <= self.sent:
            return []
        self.sent = version
        return [_message(version)]


async def _async_events(
    sub: Subscription, battle: Battle, sent: int, head: int, role: str | None
) -> AsyncIterator[str]:
    feed = _Feed(sub, sent, role)
    try:
        for line in feed.opening(head):
            yield line
        while True:
            await sub.wait(feed.heartbeat)
            if sub.closed:
                return
            read = _shared(battle_head_version)
            now = await read(battle=battle) if feed.head_due() else None
            push = feed.push_due(now)
            message = await PUSH.message(battle, *push) if push else None
            if push and message is not None:
                for line in feed.pushed(now, push[1], message):
                    yield line
                continue
            await asyncio.sleep(feed.delay(now))
            for line in feed.after_wait(now):
                yield line
    finally:
        BROKER.unsubscribe(sub)


def _thread_events(
    sub: Subscription, battle: Battle, sent: int, head: int, role: str | None
) -> Iterator[str]:
    """As `_async_events` for a threaded server (runserver: development), where each stream
    reads its fragments itself, from the site's cache after the first."""
    feed = _Feed(sub, sent, role)
    try:
        yield from feed.opening(head)
        while True:
            sub.wait_blocking(feed.heartbeat)
            if sub.closed:
                return
            now = battle_head_version(battle=battle) if feed.head_due() else None
            push = feed.push_due(now)
            message = None
            if push:
                try:
                    time.sleep(_hold())
                    message = _watcher_message(battle, *push)
                except Exception:  # the page fetches instead
                    log.exception("live: could not make the fragments of %s", battle.pk)
            if push and message is not None:
                yield from feed.pushed(now, push[1], message)
                continue
            time.sleep(feed.delay(now))
            yield from feed.after_wait(now)
    finally:
        BROKER.unsubscribe(sub)
