"""Celery tasks of the campaigns app: they take ids, call one service, and are idempotent."""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task

from battles.engine.errors import RuleViolation

from .services import OUTCOME_TASK, campaign_outcome_apply, outcome_outbox_sweep


@shared_task(
    name=OUTCOME_TASK,
    acks_late=True,
    # Nobody waits for the answer: the campaign stream is the result. Without a result
    # backend, sending needs the broker alone (the outbox covers it being down).
    ignore_result=True,
    autoretry_for=(Exception,),
    dont_autoretry_for=(RuleViolation,),
    retry_backoff=2,
    retry_backoff_max=600,
    max_retries=10,
)
def apply_battle_outcome(battle_id: str) -> bool:
    """Apply a mission battle's outcome to its campaign (R-PLT-5). Delivered twice, it
    applies once: the service is idempotent by battle id. A failure rolls the whole
    application back, and the retry starts over."""
    return campaign_outcome_apply(battle_id=battle_id)


@shared_task(name="campaigns.sweep_outcome_outbox")
def sweep_outcome_outbox(older_than_seconds: int = 60) -> int:
    """Re-send the outcomes still pending (periodic, see CELERY_BEAT_SCHEDULE)."""
    return outcome_outbox_sweep(older_than=timedelta(seconds=older_than_seconds))
