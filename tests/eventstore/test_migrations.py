"""The event store's move into its own app migrates an existing database cleanly.

A fresh database is migrated to the head the project had before the move (battles
0003 and campaigns 0001, the tables created by battles), events are written as that
code wrote them, then the database migrates forward (the move, and the transaction
id readers page by): no row moves, the digest chain still verifies, old events read
as transaction 0, and the table is still append-only. It runs in a subprocess on a database of its own (a
SQLite file, or a scratch database on the PostgreSQL server of DATABASE_URL), so the
test database is never migrated backwards.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import django
django.setup()
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder

call_command("migrate", "battles", "0003_battle_seat_watcher", verbosity=0)
call_command("migrate", "campaigns", "0001_catalogue_and_campaigns", verbosity=0)
applied = set(MigrationRecorder.Migration.objects.values_list("app", "name"))
assert ("eventstore", "0001_initial") not in applied, applied
assert ("battles", "0004_eventstore_models_moved") not in applied, applied

from datetime import UTC, datetime

from penance_site.eventstore.records import canonical_json, event_digest
from penance_site.eventstore.store import StreamRef, append, NewEvent, read_all, verify

# Rows as the code of the old head wrote them (its columns, its digest chain).
stream = StreamRef("battle", "before-the-move")
previous, moment = "", datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
for version, (type_, payload, command_id) in enumerate(
    [("A", {"n": 1}, "m-1"), ("B", {"n": [2, 3]}, "m-2"), ("C", {}, "m-2")], start=1
):
    metadata = {"command_id": command_id}
    previous = event_digest(
        previous_digest=previous, version=version, type=type_, schema_version=1,
        payload=payload, metadata=metadata, command_id=command_id, recorded_at=moment,
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO eventstore_event (stream_type, stream_id, version, type, "
            "schema_version, payload, metadata, command_id, recorded_at, digest) "
            "VALUES (%s, %s, %s, %s, 1, %s, %s, %s, %s, %s)",
            [stream.type, stream.id, version, type_, canonical_json(payload),
             canonical_json(metadata), command_id,
             connection.ops.adapt_datetimefield_value(moment), previous],
        )
before = previous

call_command("migrate", verbosity=0)
applied = set(MigrationRecorder.Migration.objects.values_list("app", "name"))
assert ("eventstore", "0001_initial") in applied, applied
assert ("battles", "0004_eventstore_models_moved") in applied, applied

report = verify(stream)
assert report.ok and report.checked == 3 and report.head_digest == before, report
assert [e.transaction for e in read_all()] == [0, 0, 0]
append(stream=stream, expected_version=3, events=[NewEvent("D", {})], command_id="m-3")
assert verify(stream).checked == 4
try:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE eventstore_event SET type = 'Z'")
except Exception as exc:
    assert "append-only" in str(exc), exc
else:
    raise AssertionError("the events table took an UPDATE after the move")
print("migrated-cleanly")
"""


@pytest.fixture
def scratch_database_url(tmp_path: Path) -> Iterator[str]:
    """A database of the test run's own vendor that nothing else uses."""
    if connection.vendor == "sqlite":
        yield f"sqlite:///{tmp_path / 'before-the-move.sqlite3'}"
        return
    import psycopg

    base = os.environ["DATABASE_URL"]
    name = f"penance_migrations_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(base, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield base.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(base, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_database_at_the_old_head_with_events_migrates_forward_and_verifies(
    scratch_database_url: str,
) -> None:
    env = {**os.environ, "DATABASE_URL": scratch_database_url}
    env.pop("REDIS_URL", None)
    env.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert done.stdout.strip().endswith("migrated-cleanly")
