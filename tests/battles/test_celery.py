"""Celery: tasks are autodiscovered; with REDIS_URL a real worker runs them through Redis."""

from __future__ import annotations

import uuid

import pytest
from django.conf import settings

from battles.tasks import health_ping
from penance_site.celery import app


def test_health_task_is_autodiscovered() -> None:
    app.loader.import_default_modules()
    assert "battles.health_ping" in app.tasks


@pytest.mark.skipif(bool(settings.REDIS_URL), reason="eager mode applies only without REDIS_URL")
def test_without_redis_tasks_run_eagerly_in_process() -> None:
    assert app.conf.task_always_eager
    assert health_ping.delay("eager").get(timeout=1) == "pong:eager"


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI always sets it)")
def test_real_worker_runs_health_task_through_redis() -> None:
    from celery.contrib.testing.worker import start_worker

    assert not app.conf.task_always_eager
    assert app.conf.broker_url == settings.REDIS_URL
    token = uuid.uuid4().hex
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        result = health_ping.delay(token)
        assert result.get(timeout=20) == f"pong:{token}"
