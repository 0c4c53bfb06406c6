"""`GET /api/battles/<id>/stream`: a battle's new versions, pushed (server-sent events).

One long-lived response per open page (docs/FRONTEND.md "Live updates"). Each message is
`id: <version>` and `data: <version>` and nothing else: the page then asks
`…/updates?after=N` for the events as it may see them (R-ADD-28), so the stream carries
no hidden information. A reconnecting EventSource sends `Last-Event-ID` and hears at
once of any version past it. A comment line every PENANCE_LIVE_HEARTBEAT seconds keeps
proxies from closing the idle connection, and with it the stream reads the battle's head
from the database: an announcement lost in transit (battles.live) is caught up then.

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
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_GET
from rest_framework.exceptions import AuthenticationFailed

from battles.live import BROKER, Subscription, ensure_listener
from battles.models import Battle
from battles.selectors import battle_head_version, battle_role
from penance_site.accounts.tokens import HashedTokenAuthentication

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
    at the median)."""
    if role in ("gm", "player"):
        return 0.0
    setting = getattr(settings, "PENANCE_LIVE_WATCHER_SPREAD", None)
    if setting is None:
        setting = os.environ.get("PENANCE_LIVE_WATCHER_SPREAD") or DEFAULT_SPREAD
    return max(0.0, float(setting))


def _message(version: int) -> str:
    return f"id: {version}\nevent: version\ndata: {version}\n\n"


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
        _AsyncStream(sub, _async_events(sub, battle, after, head, _spread(role)))
        if asgi
        else _ThreadStream(sub, _thread_events(sub, battle, after, head, _spread(role)))
    )
    stream = StreamingHttpResponse(content, content_type="text/event-stream")
    stream["Cache-Control"] = "no-store"
    stream["X-Accel-Buffering"] = "no"  # a proxy must pass each message on at once
    return stream


class _ThreadStream:
    """The stream's messages for a WSGI server; `close` (the server's, when the page goes
    away) lets go of the subscription even when no message was ever read, which a bare
    generator's `finally` would not (it never started)."""

    def __init__(self, sub: Subscription, messages: Iterator[str]) -> None:
        self.sub = sub
        self.messages = messages

    def __iter__(self) -> Iterator[str]:
        return self.messages

    def close(self) -> None:
        BROKER.unsubscribe(self.sub)


class _AsyncStream:
    """As `_ThreadStream`, for an ASGI server (Django's handler calls `close` after the
    stream ends or the page disconnects)."""

    def __init__(self, sub: Subscription, messages: AsyncIterator[str]) -> None:
        self.sub = sub
        self.messages = messages

    def __aiter__(self) -> AsyncIterator[str]:
        return self.messages

    def close(self) -> None:
        BROKER.unsubscribe(self.sub)


class _Feed:
    """What one stream sends, whichever server runs it: the reconnect delay and the head if
    the page is behind, then after each wait the heartbeat when one is due and the newest
    version when it is past the last one sent. The two loops below only wait their way."""

    def __init__(self, sub: Subscription, sent: int, spread: float) -> None:
        self.sub = sub
        self.sent = sent
        self.spread = spread
        self.heartbeat = _heartbeat()
        self.checked = time.monotonic()

    def opening(self, head: int) -> list[str]:
        self.checked = time.monotonic()
        return [f"retry: {RECONNECT_MS}\n\n", *self._versions(head)]

    def heartbeat_due(self) -> bool:
        return time.monotonic() - self.checked >= self.heartbeat

    def delay(self, head: int | None) -> float:
        """How long to hold a due message back: a watcher's spread (`_spread`), else 0."""
        due = max(self.sub.version, head or 0) > self.sent
        return random.uniform(0, self.spread) if due and self.spread else 0.0

    def after_wait(self, head: int | None) -> list[str]:
        """The lines due after a wait; `head` is the database's, read when a heartbeat was."""
        out = []
        if head is not None:
            self.checked = time.monotonic()
            out.append(": heartbeat\n\n")
        return out + self._versions(max(self.sub.version, head or 0))

    def _versions(self, version: int) -> list[str]:
        if version <= self.sent:
            return []
        self.sent = version
        return [_message(version)]


async def _async_events(
    sub: Subscription, battle: Battle, sent: int, head: int, spread: float
) -> AsyncIterator[str]:
    feed = _Feed(sub, sent, spread)
    try:
        for line in feed.opening(head):
            yield line
        while True:
            await sub.wait(feed.heartbeat)
            if sub.closed:
                return
            read = _shared(battle_head_version)
            now = await read(battle=battle) if feed.heartbeat_due() else None
            await asyncio.sleep(feed.delay(now))
            for line in feed.after_wait(now):
                yield line
    finally:
        BROKER.unsubscribe(sub)


def _thread_events(
    sub: Subscription, battle: Battle, sent: int, head: int, spread: float
) -> Iterator[str]:
    feed = _Feed(sub, sent, spread)
    try:
        yield from feed.opening(head)
        while True:
            sub.wait_blocking(feed.heartbeat)
            if sub.closed:
                return
            now = battle_head_version(battle=battle) if feed.heartbeat_due() else None
            time.sleep(feed.delay(now))
            yield from feed.after_wait(now)
    finally:
        BROKER.unsubscribe(sub)
