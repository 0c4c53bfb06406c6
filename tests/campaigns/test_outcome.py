"""Battle to campaign, exactly once (R-PLT-5): the outbox row, the task, retries, the sweep."""

from __future__ import annotations

import subprocess
import time
import uuid
from datetime import timedelta

import pytest
from django.conf import settings

from battles.engine.errors import RuleViolation
from battles.selectors import battle_latest_command, battle_state_at
from battles.services import battle_command_execute
from campaigns import services
from campaigns.models import Mission, OutcomeOutbox
from campaigns.selectors import campaign_events, campaign_state
from campaigns.tasks import apply_battle_outcome
from tests.campaigns.builders import demo_campaign, fast_forward, finish, start_mission

# Seed 9 under the greedy autoplayer: ann's pilot (seat 0) takes her tenth wound and dies;
# bob's pilot (seat 1) ends with one severe wound, severe-3; bastion wins.
SEED = 9


def completed(campaign: object) -> list[object]:
    return [e for e in campaign_events(campaign=campaign) if e.type == "MissionCompleted"]


class Broker:
    """Stands in for Celery's broker: records what was sent and, like a worker, runs it."""

    def __init__(self, *, deliver: bool = True, up: bool = True) -> None:
        self.sent: list[str] = []
        self.deliver = deliver
        self.up = up

    def apply_async(self, args: list[str], **options: object) -> None:
        if not self.up:
            raise ConnectionRefusedError("broker down")
        self.sent.append(args[0])
        if self.deliver:
            apply_battle_outcome.apply(args=args, throw=True)


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch) -> Broker:
    fake = Broker()
    monkeypatch.setattr(apply_battle_outcome, "apply_async", fake.apply_async)
    return fake


@pytest.mark.django_db
def test_battle_end_writes_outbox_row_and_sends_the_task_on_commit(
    django_capture_on_commit_callbacks, broker: Broker
) -> None:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=SEED)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        fast_forward(battle, dc.gm)
    outbox = OutcomeOutbox.objects.get(battle=battle)
    assert outbox.mission == mission and outbox.applied_at is None
    assert broker.sent == []  # nothing leaves before the battle's transaction commits
    for callback in callbacks:
        callback()
    assert broker.sent == [str(battle.id)]
    outbox.refresh_from_db()
    assert outbox.sent_at is not None and outbox.applied_at is not None
    mission.refresh_from_db()
    assert mission.status == "completed"
    assert mission.winner == battle_state_at(battle=battle).winner  # the battle's, whichever
    assert len(completed(dc.campaign)) == 1
    assert services.campaign_rows_check(campaign=dc.campaign) == []


@pytest.mark.django_db
def test_outcome_delivered_twice_applies_once(
    django_capture_on_commit_callbacks, broker: Broker
) -> None:
    dc = demo_campaign()
    _, battle = start_mission(dc, seed=SEED)
    with django_capture_on_commit_callbacks(execute=True):
        fast_forward(battle, dc.gm)
    version = campaign_state(campaign=dc.campaign).version
    assert apply_battle_outcome.apply(args=[str(battle.id)]).get() is False
    assert services.campaign_outcome_apply(battle_id=str(battle.id)) is False
    assert campaign_state(campaign=dc.campaign).version == version
    assert len(completed(dc.campaign)) == 1


@pytest.mark.django_db
def test_task_failing_after_its_first_write_is_retried_and_applies_once(
    django_capture_on_commit_callbacks, monkeypatch: pytest.MonkeyPatch
) -> None:
    dc = demo_campaign()
    _, battle = start_mission(dc, seed=SEED)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        fast_forward(battle, dc.gm)
    # The outcome's send, not run: the task is run by hand below. (The battle's own
    # callbacks, live announcements and the bot's turn, are battles', not the campaign's.)
    sends = [c for c in callbacks if c.__module__ == "campaigns.services"]
    assert len(sends) == 1
    real_project = services._project
    calls = []

    def project_failing_once(*args: object, **kwargs: object) -> None:
        calls.append(1)
        if len(calls) == 1:
            # After the outcome's events were appended: the whole application must roll back.
            raise ConnectionError("worker lost the database after the first write")
        real_project(*args, **kwargs)

    monkeypatch.setattr(services, "_project", project_failing_once)
    # throw=False: let Celery handle the Retry (eagerly, in this process) as a worker would.
    result = apply_battle_outcome.apply(args=[str(battle.id)], throw=False)
    assert result.get() is True
    assert len(calls) == 2  # failed once, retried once
    assert len(completed(dc.campaign)) == 1
    events = campaign_events(campaign=dc.campaign)
    assert [e.command_id for e in events].count(f"outcome-{battle.id}") == len(
        [e for e in events if e.command_id == f"outcome-{battle.id}"]
    )
    assert OutcomeOutbox.objects.get(battle=battle).applied_at is not None
    assert services.campaign_rows_check(campaign=dc.campaign) == []


@pytest.mark.django_db
def test_broker_down_at_battle_end_leaves_outbox_pending_until_the_sweep(
    django_capture_on_commit_callbacks, broker: Broker
) -> None:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=SEED)
    broker.up = False
    with django_capture_on_commit_callbacks(execute=True):
        fast_forward(battle, dc.gm)  # the battle ends normally: the send fails quietly
    row = OutcomeOutbox.objects.get(battle=battle)
    assert (row.sent_at, row.applied_at, row.attempts) == (None, None, 1)
    assert "broker down" in row.last_error
    assert Mission.objects.get(id=mission.id).status == "in_progress"
    broker.up = True
    assert services.outcome_outbox_sweep() == 1
    assert Mission.objects.get(id=mission.id).status == "completed"
    assert services.outcome_outbox_sweep() == 0  # nothing pending any more
    assert len(completed(dc.campaign)) == 1


@pytest.mark.django_db
def test_sweep_resends_a_sent_outcome_that_never_arrived(
    django_capture_on_commit_callbacks, broker: Broker
) -> None:
    dc = demo_campaign()
    mission, battle = start_mission(dc, seed=SEED)
    broker.deliver = False  # accepted by the broker, then lost with its worker
    with django_capture_on_commit_callbacks(execute=True):
        fast_forward(battle, dc.gm)
    assert broker.sent == [str(battle.id)]
    assert services.outcome_outbox_sweep() == 0  # sent a moment ago: not yet overdue
    broker.deliver = True
    assert services.outcome_outbox_sweep(older_than=timedelta(0)) == 1
    assert Mission.objects.get(id=mission.id).status == "completed"
    assert len(completed(dc.campaign)) == 1


@pytest.mark.django_db
def test_mission_battle_cannot_be_reverted_once_it_has_ended() -> None:
    dc = demo_campaign()
    _, battle = start_mission(dc, seed=SEED)
    finish(battle, dc.gm)
    latest = battle_latest_command(battle=battle)
    state = battle_state_at(battle=battle)
    with pytest.raises(RuleViolation) as err:
        battle_command_execute(
            battle=battle,
            actor=dc.gm,
            command_id=f"revert-{uuid.uuid4().hex}",
            expected_version=state.version,
            body={"type": "revert", "command_id": latest[0], "reason": "misclick"},
        )
    assert (err.value.code, err.value.rule) == ("outcome_handed_over", "R-ADD-32")


def _redis_cli(*args: str) -> str:
    out = subprocess.run(
        ["redis-cli", "-h", "127.0.0.1", "-p", "6379", *args],
        capture_output=True,
        text=True,
        timeout=10,
    )
    return out.stdout.strip()


def _redis_start() -> None:
    subprocess.run(
        [
            "redis-server",
            "--daemonize",
            "yes",
            "--bind",
            "127.0.0.1",
            "--port",
            "6379",
            "--save",
            "",
            "--appendonly",
            "no",
        ],
        check=True,
        timeout=20,
    )
    for _ in range(100):
        if _redis_cli("ping") == "PONG":
            return
        time.sleep(0.1)
    raise AssertionError("Redis did not come back on 127.0.0.1:6379")


@pytest.mark.redis
@pytest.mark.skipif(not settings.REDIS_URL, reason="needs REDIS_URL (CI always sets it)")
def test_redis_down_at_battle_end_outbox_applies_after_redis_is_back(committed_db: None) -> None:
    from celery.contrib.testing.worker import start_worker

    from penance_site.celery import app

    assert settings.REDIS_URL.startswith("redis://127.0.0.1:6379"), "the test restarts this Redis"
    dc = demo_campaign(prefix=f"r{uuid.uuid4().hex[:8]}-")
    mission, battle = start_mission(dc, seed=SEED)
    assert _redis_cli("shutdown", "nosave") == "" and _redis_cli("ping") != "PONG"
    try:
        fast_forward(battle, dc.gm)  # the battle's final transaction commits with Redis down
        row = OutcomeOutbox.objects.get(battle=battle)
        assert row.applied_at is None and row.sent_at is None
        assert row.attempts == 1 and row.last_error
        assert Mission.objects.get(id=mission.id).status == "in_progress"
    finally:
        _redis_start()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        assert services.outcome_outbox_sweep(older_than=timedelta(0)) == 1
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if OutcomeOutbox.objects.get(battle=battle).applied_at is not None:
                break
            time.sleep(0.2)
    assert OutcomeOutbox.objects.get(battle=battle).applied_at is not None
    assert Mission.objects.get(id=mission.id).status == "completed"
    assert len(completed(dc.campaign)) == 1
