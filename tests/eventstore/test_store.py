"""The event store: append-only in the database, optimistic concurrency, idempotent
commands, gap-free position paging and a verifiable digest chain.

Runs on whichever database DATABASE_URL names; CI runs it on PostgreSQL and SQLite.
"""

from __future__ import annotations

import threading
import uuid
from collections import Counter

import pytest
from django.db import DatabaseError, connection, connections, transaction

from penance_site.eventstore import sql as eventstore_sql
from penance_site.eventstore.models import AppendOnlyError, Event
from penance_site.eventstore.store import (
    START,
    Checkpoint,
    CommandIdReused,
    ConcurrencyError,
    NewEvent,
    StreamRef,
    append,
    read_all,
    read_stream,
    snapshot_load,
    snapshot_store,
    stream_version,
    verify,
)


def new_stream(kind: str = "test") -> StreamRef:
    return StreamRef(kind, uuid.uuid4().hex)


def three_events(n: int = 0) -> list[NewEvent]:
    return [NewEvent(f"Thing{i}Happened", {"n": n, "i": i}) for i in range(3)]


def cmd() -> str:
    return uuid.uuid4().hex


# --- append and read --------------------------------------------------------------


@pytest.mark.django_db
def test_append_numbers_versions_contiguously_from_one() -> None:
    stream = new_stream()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    second = append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    assert [e.version for e in first.events + second.events] == [1, 2, 3, 4, 5, 6]
    assert second.version == 6
    assert stream_version(stream) == 6
    positions = [e.position for e in read_stream(stream)]
    assert positions == sorted(positions) and len(set(positions)) == 6


@pytest.mark.django_db
def test_append_stores_metadata_with_command_id() -> None:
    stream = new_stream()
    command_id = cmd()
    result = append(
        stream=stream,
        expected_version=0,
        events=[NewEvent("BattleStarted", {"x": 1})],
        command_id=command_id,
        metadata={"actor": 7, "causation": None, "rules_version": "2.0"},
    )
    stored = read_stream(stream)[0]
    assert stored.metadata["actor"] == 7
    assert stored.metadata["rules_version"] == "2.0"
    assert stored.metadata["command_id"] == command_id == stored.command_id
    assert stored.digest == result.events[0].digest


@pytest.mark.django_db
def test_stale_expected_version_raises_and_writes_nothing() -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    with pytest.raises(ConcurrencyError) as err:
        append(stream=stream, expected_version=1, events=three_events(9), command_id=cmd())
    assert (err.value.expected, err.value.actual) == (1, 3)
    assert [e.payload["n"] for e in read_stream(stream)] == [0, 0, 0]


@pytest.mark.django_db
def test_expected_version_ahead_of_stream_is_a_conflict() -> None:
    with pytest.raises(ConcurrencyError):
        append(stream=new_stream(), expected_version=5, events=three_events(), command_id=cmd())


@pytest.mark.django_db
def test_same_command_id_and_content_writes_once_and_returns_original() -> None:
    stream = new_stream()
    command_id = cmd()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    again = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    assert again.duplicate and not first.duplicate
    assert again.events == first.events
    assert stream_version(stream) == 3


@pytest.mark.django_db
def test_same_command_id_with_other_content_fails_and_writes_nothing() -> None:
    stream = new_stream()
    command_id = cmd()
    append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    with pytest.raises(CommandIdReused) as refused:
        append(stream=stream, expected_version=3, events=three_events(2), command_id=command_id)
    assert "version 1" in str(refused.value)
    assert stream_version(stream) == 3


@pytest.mark.django_db
def test_a_command_id_is_scoped_to_its_stream() -> None:
    """Issue 15: reusing a command id in another stream is a new command there, and the
    refusal of a reuse names no other stream."""
    stream, other = new_stream(), new_stream()
    command_id = cmd()
    append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    there = append(stream=other, expected_version=0, events=three_events(), command_id=command_id)
    assert not there.duplicate and {e.stream for e in there.events} == {other}
    with pytest.raises(CommandIdReused) as refused:
        append(stream=other, expected_version=3, events=three_events(1), command_id=command_id)
    assert stream.id not in str(refused.value)


@pytest.mark.django_db
def test_fingerprint_decides_sameness_when_given() -> None:
    # A battle command retried by a client re-rolls dice, so its events differ;
    # the command's own fingerprint is what identifies the retry.
    stream = new_stream()
    command_id = cmd()
    first = append(
        stream=stream,
        expected_version=0,
        events=three_events(1),
        command_id=command_id,
        fingerprint="attack-abc",
    )
    again = append(
        stream=stream,
        expected_version=0,
        events=three_events(2),
        command_id=command_id,
        fingerprint="attack-abc",
    )
    assert again.duplicate and again.events == first.events


@pytest.mark.django_db
def test_invalid_append_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="command_id"):
        append(stream=new_stream(), expected_version=0, events=three_events(), command_id="")
    with pytest.raises(ValueError, match="stream"):
        append(
            stream=StreamRef("", "x"), expected_version=0, events=three_events(), command_id=cmd()
        )
    with pytest.raises(ValueError, match="expected_version"):
        append(stream=new_stream(), expected_version=-1, events=three_events(), command_id=cmd())


# --- append-only, in Python and in the database -------------------------------------


@pytest.mark.django_db
def test_orm_refuses_to_change_or_delete_events() -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    row = Event.objects.filter(stream_id=stream.id).first()
    assert row is not None
    row.payload = {"n": 666}
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(stream_id=stream.id).update(type="Forged")
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(stream_id=stream.id).delete()


def _raw(sql: str, params: list[object] | None = None) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE eventstore_event SET payload = '{\"n\": 666}' WHERE stream_id = %s",
        "UPDATE eventstore_event SET version = version + 100 WHERE stream_id = %s",
        "DELETE FROM eventstore_event WHERE stream_id = %s",
    ],
)
def test_raw_sql_update_and_delete_fail_and_leave_the_row(statement: str) -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    before = [(e.version, e.payload, e.digest) for e in read_stream(stream)]
    with pytest.raises(DatabaseError, match="append-only"):
        _raw(statement, [stream.id])
    assert [(e.version, e.payload, e.digest) for e in read_stream(stream)] == before


@pytest.mark.django_db
def test_raw_sql_truncate_fails_and_leaves_the_rows() -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    # SQLite has no TRUNCATE; an unqualified DELETE is its truncate (and the
    # truncate optimisation is off when a DELETE trigger exists).
    sql = (
        "TRUNCATE eventstore_event"
        if connection.vendor == "postgresql"
        else "DELETE FROM eventstore_event"
    )
    with pytest.raises(DatabaseError, match="append-only"):
        _raw(sql)
    assert len(read_stream(stream)) == 3


@pytest.mark.django_db
def test_triggers_fire_even_in_replica_mode() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("session_replication_role exists only on PostgreSQL")
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    with (
        pytest.raises(DatabaseError, match="append-only"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute("DELETE FROM eventstore_event WHERE stream_id = %s", [stream.id])
    assert len(read_stream(stream)) == 3


# --- verify ------------------------------------------------------------------------


@pytest.mark.django_db
def test_verify_accepts_an_untouched_stream() -> None:
    stream = new_stream()
    for n in range(3):
        append(stream=stream, expected_version=3 * n, events=three_events(n), command_id=cmd())
    report = verify(stream)
    assert report.ok and report.checked == 9 and report.first_broken_version is None
    assert report.head_digest == read_stream(stream)[-1].digest


def _tamper(sql: str, params: list[object]) -> None:
    """Change an event as the database owner would: disable the trigger, write, restore."""
    vendor = connection.vendor
    with connection.cursor() as cursor:
        for statement in eventstore_sql.drop_statements(vendor):
            cursor.execute(statement)
        cursor.execute(sql, params)
        for statement in eventstore_sql.create_statements(vendor):
            cursor.execute(statement)


@pytest.mark.django_db
def test_verify_reports_a_payload_altered_behind_the_stores_back_at_its_version() -> None:
    stream = new_stream()
    for n in range(4):
        append(stream=stream, expected_version=3 * n, events=three_events(n), command_id=cmd())
    _tamper(
        "UPDATE eventstore_event SET payload = %s WHERE stream_id = %s AND version = 8",
        ['{"n": 2, "i": 99}', stream.id],
    )
    report = verify(stream)
    assert not report.ok
    assert report.first_broken_version == 8
    assert report.checked == 7


@pytest.mark.django_db
def test_verify_reports_a_deleted_event_as_a_missing_version() -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    _tamper("DELETE FROM eventstore_event WHERE stream_id = %s AND version = 2", [stream.id])
    report = verify(stream)
    assert (report.ok, report.first_broken_version) == (False, 2)
    # The triggers are back in force after the tampering.
    with pytest.raises(DatabaseError):
        _raw("DELETE FROM eventstore_event WHERE stream_id = %s", [stream.id])


# --- snapshots -----------------------------------------------------------------------


@pytest.mark.django_db
def test_snapshot_load_returns_latest_at_or_before_for_the_engine_version() -> None:
    stream = new_stream()
    for version in (100, 200, 300):
        snapshot_store(stream=stream, version=version, engine_version="e1", state={"v": version})
    snapshot_store(stream=stream, version=400, engine_version="e2", state={"v": 400})
    snapshot_store(stream=stream, version=200, engine_version="e1", state={"v": "ignored"})
    latest = snapshot_load(stream=stream, engine_version="e1")
    assert latest is not None and latest.version == 300
    mid = snapshot_load(stream=stream, engine_version="e1", at_or_before=250)
    assert mid is not None and mid.state == {"v": 200}
    assert snapshot_load(stream=stream, engine_version="e1", at_or_before=50) is None
    assert snapshot_load(stream=stream, engine_version="e3") is None


# --- concurrency: real connections, real commits -----------------------------------------


def _in_thread(fn, *args):  # type: ignore[no-untyped-def]
    def run() -> None:
        try:
            fn(*args)
        finally:
            connections.close_all()

    return threading.Thread(target=run)


def test_eight_writers_on_one_stream_get_contiguous_versions_and_losers_conflict(
    committed_db: None,
) -> None:
    stream = new_stream("race")
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    outcomes: list[tuple[str, int]] = []
    lock = threading.Lock()
    barrier = threading.Barrier(8)

    def writer(n: int) -> None:
        for round_ in range(5):
            seen = stream_version(stream)
            barrier.wait(timeout=30)
            try:
                append(
                    stream=stream,
                    expected_version=seen,
                    events=[NewEvent("Wrote", {"writer": n, "round": round_, "seen": seen})],
                    command_id=cmd(),
                )
                result = "won"
            except ConcurrencyError:
                result = "lost"
            with lock:
                outcomes.append((result, seen))

    threads = [_in_thread(writer, n) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads)

    events = read_stream(stream)
    wins = [o for o in outcomes if o[0] == "won"]
    assert len(outcomes) == 40
    assert [e.version for e in events] == list(range(1, 4 + len(wins)))
    # Every winner appended right after the version it read; no two won on one read.
    written = [e for e in events if e.type == "Wrote"]
    assert all(e.version == e.payload["seen"] + 1 for e in written)
    assert len({e.payload["seen"] for e in written}) == len(written)
    # Each round has exactly one winner among the writers that read the same version.
    per_seen = Counter(seen for result, seen in wins)
    assert all(count == 1 for count in per_seen.values())
    assert verify(stream).ok


def test_a_paging_reader_sees_every_event_once_during_concurrent_appends(
    committed_db: None,
) -> None:
    kind = "page" + uuid.uuid4().hex[:8]
    streams = [StreamRef(kind, f"s{i}") for i in range(20)]
    per_stream = 6
    done = threading.Event()
    seen: list[tuple[str, int]] = []

    def writer(stream: StreamRef) -> None:
        for version in range(per_stream):
            append(
                stream=stream,
                expected_version=version,
                events=[NewEvent("Paged", {"v": version + 1})],
                command_id=cmd(),
            )

    def reader() -> None:
        checkpoint = START
        while True:
            finished = done.is_set()
            batch = read_all(after=checkpoint, limit=7, stream_type=kind)
            for e in batch:
                seen.append((e.stream.id, e.version))
                checkpoint = Checkpoint.of(e)
            if finished and not batch:
                return

    writers = [_in_thread(writer, s) for s in streams]
    reader_thread = _in_thread(reader)
    reader_thread.start()
    for t in writers:
        t.start()
    for t in writers:
        t.join(timeout=120)
    done.set()
    reader_thread.join(timeout=60)
    assert not reader_thread.is_alive()

    expected = {(s.id, v) for s in streams for v in range(1, per_stream + 1)}
    assert len(seen) == len(expected)
    assert set(seen) == expected


@pytest.mark.postgres
def test_a_reader_waits_for_an_older_transaction_in_flight_and_never_skips_it(
    committed_db: None,
) -> None:
    """Issue 16: appends to different streams run in parallel, so a transaction that
    began first (A) can commit its event at a higher position after a younger one (B)
    committed. A reader must not move past B while A is in flight, and must then see A's
    event before B's (docs/ARCHITECTURE.md)."""
    if connection.vendor != "postgresql":
        pytest.skip("one writer at a time on SQLite: nothing runs in parallel")
    kind = "inflight" + uuid.uuid4().hex[:8]
    a_began, b_done, a_appended, reader_done = (threading.Event() for _ in range(4))
    positions: dict[str, int] = {}

    def older() -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_current_xact_id()")  # A's id: older than B's
            a_began.set()
            assert b_done.wait(30)
            result = append(
                stream=StreamRef(kind, "a"),
                expected_version=0,
                events=three_events()[:1],
                command_id=cmd(),
            )
            positions["a"] = result.events[0].position
            a_appended.set()
            assert reader_done.wait(30)

    def younger() -> None:
        assert a_began.wait(30)
        result = append(
            stream=StreamRef(kind, "b"),
            expected_version=0,
            events=three_events()[:1],
            command_id=cmd(),
        )
        positions["b"] = result.events[0].position
        b_done.set()

    threads = [_in_thread(older), _in_thread(younger)]
    for t in threads:
        t.start()
    assert a_appended.wait(30)
    # B has committed and A holds a lower transaction id: B's event must wait for A.
    assert read_all(stream_type=kind) == []
    reader_done.set()
    for t in threads:
        t.join(timeout=30)
    assert positions["a"] > positions["b"]  # A's position is the later one
    seen = read_all(stream_type=kind)
    assert [e.stream.id for e in seen] == ["a", "b"]
    assert read_all(after=Checkpoint.of(seen[0]), stream_type=kind) == seen[1:]


@pytest.fixture
def reaction_on(monkeypatch: pytest.MonkeyPatch):
    """Register a reaction for one test's stream type; the registry is restored after."""
    from penance_site.eventstore import store

    monkeypatch.setattr(store, "_REACTIONS", {k: list(v) for k, v in store._REACTIONS.items()})

    def register(stream_type, reaction) -> None:
        store.react_to_appends(stream_type, reaction)
        store.react_to_appends(stream_type, reaction)  # twice: kept once

    return register


@pytest.mark.django_db
def test_a_reaction_sees_each_append_of_its_stream_type_once(reaction_on) -> None:
    seen: list[tuple[str, list[int]]] = []
    reaction_on(
        "reacted", lambda stream, events: seen.append((stream.id, [e.version for e in events]))
    )
    stream, other = new_stream("reacted"), new_stream("ignored")
    command = cmd()
    append(stream=stream, expected_version=0, events=three_events(), command_id=command)
    append(stream=stream, expected_version=0, events=three_events(), command_id=command)  # retry
    append(stream=other, expected_version=0, events=three_events(), command_id=cmd())
    assert seen == [(stream.id, [1, 2, 3])]


@pytest.mark.django_db
def test_a_failing_reaction_rolls_the_append_back(reaction_on) -> None:
    def refuse(stream: StreamRef, events: object) -> None:
        raise RuntimeError("the follower failed")

    reaction_on("reacted", refuse)
    stream = new_stream("reacted")
    # As a service calls it: inside the service's transaction, which the error rolls back.
    with pytest.raises(RuntimeError, match="the follower failed"), transaction.atomic():
        append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    assert stream_version(stream) == 0


# --- the one-round-trip append: a guessed head that the database checks (issue 16) ----------


@pytest.mark.django_db
def test_a_wrong_guess_of_the_head_writes_the_true_chain() -> None:
    from penance_site.eventstore import store

    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    store._HEADS[str(stream)] = (3, "not-the-head-digest")
    append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    assert verify(stream).ok and verify(stream).checked == 6


@pytest.mark.django_db
def test_a_guess_behind_another_writer_is_a_conflict_and_writes_nothing() -> None:
    from penance_site.eventstore import store

    stream = new_stream()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    # As if another process had appended the second command: this one still guesses 3.
    store._HEADS[str(stream)] = (3, first.events[-1].digest)
    with pytest.raises(ConcurrencyError):
        append(stream=stream, expected_version=3, events=three_events(2), command_id=cmd())
    assert stream_version(stream) == 6 and verify(stream).ok


@pytest.mark.django_db
def test_a_retry_whose_head_guess_holds_still_answers_the_original() -> None:
    from penance_site.eventstore import store

    stream = new_stream()
    command_id = cmd()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    store._HEADS[str(stream)] = (0, "")
    again = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    assert again.duplicate and again.events == first.events
    assert stream_version(stream) == 3


@pytest.mark.django_db
def test_a_rolled_back_append_leaves_no_guess_that_can_write() -> None:
    stream = new_stream()
    append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    with pytest.raises(RuntimeError), transaction.atomic():
        append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
        raise RuntimeError("the service failed after the append")
    with pytest.raises(ConcurrencyError):
        append(stream=stream, expected_version=6, events=three_events(2), command_id=cmd())
    append(stream=stream, expected_version=3, events=three_events(3), command_id=cmd())
    assert verify(stream).ok and verify(stream).checked == 6


@pytest.mark.django_db
def test_an_append_inside_a_transaction_is_one_round_trip_when_the_guess_holds() -> None:
    """Issue 16, cost per append: inside the caller's transaction (no savepoint of its own)
    the usual append is one statement batch on PostgreSQL: lock, and insert if the head
    is as guessed. SQLite, local, reads the head first."""
    from django.test.utils import CaptureQueriesContext

    stream = new_stream()
    one = 1 if connection.vendor == "postgresql" else 2
    with CaptureQueriesContext(connection) as queries:  # a new stream: its head is none
        append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    assert len(queries) == one
    with CaptureQueriesContext(connection) as queries:  # this process's last append
        append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    assert len(queries) == one
    assert not any("SAVEPOINT" in q["sql"] for q in queries)


# --- an append outside any transaction (issue 16: one statement in autocommit) -----------


def _statements_seen(seen: list[tuple[str, bool]]):  # type: ignore[no-untyped-def]
    """An execute wrapper recording each statement and whether it ran in autocommit (as a
    transaction of its own) rather than inside a transaction block."""

    def wrapper(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        seen.append((sql, connection.get_autocommit()))
        return execute(sql, params, many, context)

    return wrapper


def _version_seen_by_another_connection(stream: StreamRef) -> int:
    found: list[int] = []
    thread = _in_thread(lambda: found.append(stream_version(stream)))
    thread.start()
    thread.join(timeout=30)
    return found[0]


@pytest.mark.postgres
def test_an_append_outside_a_transaction_is_one_autocommit_statement_when_the_guess_holds(
    committed_db: None,
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite appends in a BEGIN IMMEDIATE transaction")
    stream = new_stream()
    seen: list[tuple[str, bool]] = []
    with connection.execute_wrapper(_statements_seen(seen)):
        append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
        append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    assert [autocommit for _, autocommit in seen] == [True, True]
    assert all(eventstore_sql.APPEND_FUNCTION in statement for statement, _ in seen)
    assert _version_seen_by_another_connection(stream) == 6  # committed
    assert verify(stream).ok and verify(stream).checked == 6


def test_outside_a_transaction_a_wrong_guess_writes_the_true_chain_and_a_stale_one_nothing(
    committed_db: None,
) -> None:
    from penance_site.eventstore import store

    stream = new_stream()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    store._HEADS[str(stream)] = (3, "not-the-head-digest")
    append(stream=stream, expected_version=3, events=three_events(1), command_id=cmd())
    assert verify(stream).ok and verify(stream).checked == 6
    store._HEADS[str(stream)] = (3, first.events[-1].digest)  # as if another process wrote
    with pytest.raises(ConcurrencyError):
        append(stream=stream, expected_version=3, events=three_events(2), command_id=cmd())
    assert _version_seen_by_another_connection(stream) == 6 and verify(stream).ok


def test_outside_a_transaction_a_retry_answers_the_original_and_a_reused_id_writes_nothing(
    committed_db: None,
) -> None:
    stream = new_stream()
    command_id = cmd()
    first = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    again = append(stream=stream, expected_version=0, events=three_events(), command_id=command_id)
    assert again.duplicate and again.events == first.events
    # The guess of the head holds (3) and the id is used: the database refuses the insert.
    with pytest.raises(CommandIdReused):
        append(stream=stream, expected_version=3, events=three_events(9), command_id=command_id)
    assert _version_seen_by_another_connection(stream) == 3


def test_a_failing_reaction_rolls_back_an_append_made_outside_a_transaction(
    committed_db: None, reaction_on
) -> None:
    """A reaction writes in the append's transaction, so with reactions registered the
    append is never a bare autocommit statement: the events go when the reaction fails."""

    def refuse(stream: StreamRef, events: object) -> None:
        raise RuntimeError("the follower failed")

    kind = "reacted" + uuid.uuid4().hex[:8]
    reaction_on(kind, refuse)
    stream = new_stream(kind)
    with pytest.raises(RuntimeError, match="the follower failed"):
        append(stream=stream, expected_version=0, events=three_events(), command_id=cmd())
    assert _version_seen_by_another_connection(stream) == 0


@pytest.mark.postgres
@pytest.mark.django_db
def test_the_command_id_probe_is_served_by_the_command_index_without_statistics() -> None:
    """Issue 16: filtered on stream and command id together, a planner without statistics
    (a generic plan, as PL/pgSQL keeps) read the stream's whole version index and filtered
    it, so each append cost more as its stream grew. The probe looks the id up alone."""
    if connection.vendor != "postgresql":
        pytest.skip("the probe is PostgreSQL's")
    stream = new_stream()
    for n in range(3):  # a 3,000-event stream
        events = [NewEvent("Thing", {"n": n, "i": i}) for i in range(1000)]
        append(stream=stream, expected_version=1000 * n, events=events, command_id=cmd())
    probe = eventstore_sql.command_used_pg("$1", "$2", "$3")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL plan_cache_mode = force_generic_plan")
        cursor.execute(f"PREPARE probe(varchar, varchar, varchar) AS SELECT {probe}")
        cursor.execute("EXPLAIN EXECUTE probe(%s, %s, %s)", [cmd(), stream.type, stream.id])
        plan = "\n".join(row[0] for row in cursor.fetchall())
        cursor.execute("DEALLOCATE probe")
        cursor.execute(
            "SELECT prosrc FROM pg_proc WHERE proname = %s", [eventstore_sql.APPEND_FUNCTION]
        )
        (function_body,) = cursor.fetchone()
    assert "eventstore_command_idx" in plan and "eventstore_stream_version" not in plan, plan
    assert eventstore_sql.command_used_pg("p_command_id", "p_stream_type", "p_stream_id") in (
        function_body
    )


@pytest.mark.django_db
def test_payloads_with_quotes_backslashes_and_array_syntax_are_stored_exactly() -> None:
    """The one-call append passes each command's payloads as one array literal (issue 16):
    whatever text the JSON holds comes back unchanged, and the digest chain holds."""
    stream = new_stream()
    odd = [
        {"text": 'say "hi", then \\ leave', "braces": "{a,b}", "nul": "\\u0000"},
        {"text": '\\"}', "unicode": "Ünïcødé ✝", "newline": "a\nb\tc", "empty": ""},
        {"list": [1, "2", None, {"x": ["{", "}"]}], "space": "  padded  "},
    ]
    events = [NewEvent("Odd", payload) for payload in odd]
    append(stream=stream, expected_version=0, events=events, command_id=cmd())
    append(stream=stream, expected_version=3, events=events, command_id='c"m\\d{1,2}')
    assert [e.payload for e in read_stream(stream)] == odd * 2
    assert read_stream(stream)[-1].command_id == 'c"m\\d{1,2}'
    assert verify(stream).ok and verify(stream).checked == 6
