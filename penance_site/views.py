"""Site pages that belong to no app: the home page and the health check."""

from __future__ import annotations

import logging
from functools import lru_cache
from pathlib import Path

import redis
from django.conf import settings
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"redis": bool(settings.REDIS_URL)})


logger = logging.getLogger(__name__)

FAVICON = Path(__file__).resolve().parent / "static" / "favicon.ico"


@lru_cache(maxsize=1)
def _favicon_bytes() -> bytes:
    return FAVICON.read_bytes()


@require_GET
def favicon(request: HttpRequest) -> HttpResponse:
    """`/favicon.ico`, which browsers and tools ask for whatever the page's <link rel=icon>
    says: the same hexagon as favicon.svg, so no page logs a 404 for it."""
    response = HttpResponse(_favicon_bytes(), content_type="image/x-icon")
    response["Cache-Control"] = "public, max-age=86400"
    return response


def _redis_status() -> str:
    if not settings.REDIS_URL:
        return "not configured"
    try:
        client = redis.Redis.from_url(
            settings.REDIS_URL, socket_connect_timeout=0.5, socket_timeout=0.5
        )
        try:
            client.ping()
        finally:
            client.close()
    except redis.RedisError as exc:
        logger.warning("health: redis down: %s", exc)
        return "down"
    return "ok"


@require_GET
def health(request: HttpRequest) -> JsonResponse:
    """The database round trip and Redis. 200 while the database answers: the site works
    without Redis (throttles fail open, battle outcomes wait in the outbox), so Redis
    being down is reported, not an outage; 503 when the database does not answer."""
    database = "ok"
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # the point is to report any failure, not crash
        logger.error("health: database down: %s", exc)
        database = "down"
    body = {"ok": database == "ok", "database": database, "redis": _redis_status()}
    return JsonResponse(body, status=200 if database == "ok" else 503)
