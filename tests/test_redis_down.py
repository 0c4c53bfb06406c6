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
from tests.campaigns import builders
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
    django_capture_on_commit_callbacks, dead_broker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=9)
    started: list[float] = []
    real_execute = builders.battle_command_execute

    def timed_execute(**kwargs: object) -> object:  # fast_forward's one real command
        started.append(time.monotonic())
        return real_execute(**kwargs)

    monkeypatch.setattr(builders, "battle_command_execute", timed_execute)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        fast_forward(battle, dc.gm)
    # From the ending command's start to after its on-commit send, as in a request.
    elapsed = time.monotonic() - started[-1]
    # One send of the outcome (the campaign's callback); the battle's own callbacks (the live
    # announcement and the bot's turn) ran too, and the whole still took under a second.
    sends = [c for c in callbacks if c.__module__ == "campaigns.services"]
    assert len(started) == 1 and len(sends) == 1
    # Before the broker settings the send alone took ~6 s (kombu retried the connection).
    assert elapsed < 1.0, f"the ending command took {elapsed:.2f} s"
    row = OutcomeOutbox.objects.get(battle=battle)
    assert (row.sent_at, row.applied_at, row.attempts) == (None, None, 1)
    assert "111" in row.last_error or "refused" in row.last_error.lower()
    assert Mission.objects.get(id=mission.id).status == "in_progress"


@pytest.mark.django_db
@override_settings(CACHES=DEAD_CACHE, REDIS_URL=DEAD_REDIS)
def test_every_kind_of_endpoint_answers_while_redis_is_down(
    client: Client, django_user_model: type
) -> None:
    user = django_user_model.objects.create_user(username="ann", password="right-horse-42")
    token = client.post(
        "/api/auth/token",
        data={"username": "ann", "password": "right-horse-42"},
        content_type="application/json",
    )
    assert token.status_code == 200, token.content
    client.force_login(user)
    for url in ("/api/battles/", "/api/campaigns/", "/api/rules/", "/api/cards/", "/health/"):
        assert client.get(url).status_code == 200, url
