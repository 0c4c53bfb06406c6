"""Celery tasks of the battles app. Tasks take ids, call one service, are idempotent."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="battles.health_ping")
def health_ping(token: str) -> str:
    """Answers `pong:<token>`: proves a worker picks up tasks and returns results."""
    return f"pong:{token}"
