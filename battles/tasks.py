"""Celery tasks of the battles app. Tasks take ids, call one service, are idempotent."""

from __future__ import annotations

from celery import shared_task

from battles.bots import BOT_TASK, bot_turn_play


@shared_task(name="battles.health_ping")
def health_ping(token: str) -> str:
    """Answers `pong:<token>`: proves a worker picks up tasks and returns results."""
    return f"pong:{token}"


@shared_task(name=BOT_TASK)
def bot_turn(battle_id: str, version: int) -> int | None:
    """The bot's action in the battle at `version` (battles.bots): the new version, or None
    when the battle moved on or does not wait on the bot. Sent on commit; a repeated or
    late task is a no-op (R-ADD-215)."""
    return bot_turn_play(battle_id=battle_id, version=version)
