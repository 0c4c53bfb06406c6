"""Redis down is not an outage: throttles fail open, ending a battle does not wait on the
broker (the outbox row stays pending for the sweep), /health/ says Redis is down.

"Down" is a Redis URL nothing listens on (port 1): connections are refused at once, as
they are when a Redis server stops. The shared Redis server is never touched.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.test import Client, override_settings

from campaigns.models import Mission, OutcomeOutbox
from penance_site.celery import app
from tests.campaigns.builders import demo_campaign, fast_forward, start_mission

DEAD_REDIS = "redis://127.0.0.1:1/0"
DEAD_CACHE = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": DEAD_REDIS,
        "OPTIONS": settings.CACHES["default"].get("OPTIONS", {}),
    }
}


@pytest.mark.django_db
@override_settings(CACHES=DEAD_CACHE, REDIS_URL=DEAD_REDIS)
def test_rules_calculator_answers_while_redis_is_down_and_logs_the_skipped_throttle(
    client: Client, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="penance_site.throttling"):
        started = time.monotonic()
        codes = [client.get("/api/rules/").status_code for _ in range(5)]
        elapsed = time.monotonic() - started
    assert codes == [200] * 5
    assert elapsed < 2.0
    assert any("cache unavailable" in r.getMessage() for r in caplog.records)


@pytest.fixture
def dead_broker() -> Iterator[None]:
    """The Celery app publishing to a refused Redis with the project's own broker settings
    (settings.py: CELERY_BROKER_TRANSPORT_OPTIONS, CELERY_BROKER_CONNECTION_TIMEOUT)."""
    saved = {k: app.conf[k] for k in ("broker_url", "task_always_eager")}

    def fresh_pools() -> None:  # connections and producers are pooled per broker URL
        app._pool = None
        app.amqp._producer_pool = None

    app.conf.update(broker_url=DEAD_REDIS, task_always_eager=False)
    fresh_pools()
    try:
        yield
    finally:
        app.conf.update(saved)
        fresh_pools()


@pytest.mark.django_db
def test_battle_end_with_redis_down_answers_at_once_and_leaves_the_outbox_pending(
    django_capture_on_commit_callbacks, dead_broker: None
) -> None:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=9)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        fast_forward(battle, dc.gm)
    assert len(callbacks) == 1  # the outcome's send, run after the ending command commits
    started = time.monotonic()
    callbacks[0]()
    elapsed = time.monotonic() - started
    # Before the broker settings it took ~6 s (kombu retried the connection).
    assert elapsed < 0.5, f"the send held the request {elapsed:.2f} s"
    row = OutcomeOutbox.objects.get(battle=battle)
    assert (row.sent_at, row.applied_at, row.attempts) == (None, None, 1)
    assert "111" in row.last_error or "refused" in row.last_error.lower()
    assert Mission.objects.get(id=mission.id).status == "in_progress"
