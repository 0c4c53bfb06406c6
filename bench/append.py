"""Benchmark: commands per second through `eventstore.append` on PostgreSQL.

Each command appends 3 events, one transaction per command. Measured in the same run,
on the same PostgreSQL, interleaved (the bench prints what each loop sends):

- `append`: called outside any transaction, as a script or an import would; on the
  usual path it is one statement in autocommit (the function call that locks, checks
  the guessed head and the command id, and inserts): one round trip, one transaction;
- `append in atomic`: `with transaction.atomic(): append(...)`, as a service calls it:
  BEGIN, the function call, COMMIT;
- `raw INSERT`: plain psycopg, `with conn.transaction(): INSERT` of the same three rows
  (BEGIN, one multi-row INSERT, COMMIT), no lock, no version check, no idempotency
  lookup; the baseline of issue 2;
- `raw INSERT autocommit`: the same INSERT alone in autocommit: one round trip, the
  cheapest correct way to write the rows in one transaction;
- `raw lock+read+INSERT`: plain psycopg doing what `append`'s slow path does (BEGIN,
  the stream's lock, the head and command id read, the INSERT, COMMIT);
- the `eventsourcing` library (a common choice for event sourcing in Python): its
  `Application.save` of an aggregate with 3 new events, on its own tables in the same
  database (bench-only requirement: bench/requirements.txt).

Each loop computes the same digest chain in Python. One line per writer count; with 8
writers each writes its own stream, from 8 threads of this process. Run:

    .venv/bin/pip install -r bench/requirements.txt
    DATABASE_URL=postgres://root@127.0.0.1:5432/test .venv/bin/python bench/append.py

It creates and drops its own database (`<name>_bench_append`, bench/benchdb.py), so
no data is left behind.
Targets (issue 16): one writer at least as fast as the eventsourcing library and at
least 0.7 of raw INSERT; 8 writers on 8 streams at least 1.8 times one writer.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import multiprocessing
import os
import platform
import statistics
import sys
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "penance_site.settings")
os.environ.setdefault("DJANGO_SECRET_KEY", "bench-only-secret-key-0000000000000000000")

import django

django.setup()

import psycopg  # noqa: E402
from django.db import connection, connections, transaction  # noqa: E402

from bench.benchdb import throwaway_database  # noqa: E402
from penance_site.eventstore.store import (  # noqa: E402
    NewEvent,
    StreamRef,
    append,
    canonical_json,
    event_digest,
)

# How the writers run (--writers-as): as processes, each with its own connection, like the
# server's gunicorn and Celery workers, or as threads of this one process, where Python's
# GIL serialises the Python half of every append.
WRITERS_AS = "processes"


def start_line(parties: int) -> threading.Barrier:
    """The barrier every writer waits at before the clock starts (a process-shared one
    when the writers are processes)."""
    if WRITERS_AS == "processes":
        return multiprocessing.get_context("fork").Barrier(parties)  # type: ignore[return-value]
    return threading.Barrier(parties)


def timed(writer: Callable[[], None], writers: int, barrier: threading.Barrier) -> float:
    """Run `writers` writers of `writer` from one start line; writers per second of wall
    time. A writer that fails stops the bench (a dead writer would inflate the rate)."""
    if WRITERS_AS == "processes":
        # Forked children must not share the parent's database connections: close them
        # here, and each child opens its own.
        connections.close_all()
        context = multiprocessing.get_context("fork")

        def child() -> None:
            try:
                writer()
            except BaseException:
                barrier.abort()
                raise

        processes = [context.Process(target=child) for _ in range(writers)]
        for p in processes:
            p.start()
        with contextlib.suppress(threading.BrokenBarrierError):
            barrier.wait()
        start = time.perf_counter()
        for p in processes:
            p.join()
        if any(p.exitcode != 0 for p in processes):
            raise RuntimeError("a writer failed (its traceback is above)")
        return writers / (time.perf_counter() - start)

    failures: list[BaseException] = []

    def guarded() -> None:
        try:
            writer()
        except BaseException as exc:
            failures.append(exc)
            barrier.abort()
            raise

    threads = [threading.Thread(target=guarded) for _ in range(writers)]
    for t in threads:
        t.start()
    with contextlib.suppress(threading.BrokenBarrierError):
        barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    if failures:
        raise RuntimeError("a writer failed") from failures[0]
    return writers / (time.perf_counter() - start)


def events_for(i: int) -> list[NewEvent]:
    return [
        NewEvent("MoveDeclared", {"casket": "a", "to": [i % 7, -(i % 5)], "sp": 2}),
        NewEvent("CasketMoved", {"casket": "a", "path": [[1, 0], [2, 0]], "cost": 2}),
        NewEvent("SpSpent", {"casket": "a", "amount": 2, "left": 3}),
    ]


def run_append(writers: int, commands_per_writer: int, atomic: bool = False) -> float:
    """Commands/second through `append`, each writer on its own stream; with `atomic`,
    each append inside `transaction.atomic()` of its own, as a service makes it."""
    barrier = start_line(writers + 1)

    def writer() -> None:
        stream = StreamRef("bench", uuid.uuid4().hex)
        wrap = transaction.atomic if atomic else contextlib.nullcontext
        try:
            barrier.wait()
            for i in range(commands_per_writer):
                with wrap():
                    append(
                        stream=stream,
                        expected_version=3 * i,
                        events=events_for(i),
                        command_id=uuid.uuid4().hex,
                        metadata={"actor": 1, "rules_version": "2.0"},
                    )
        finally:
            connections.close_all()

    return timed(writer, writers, barrier) * commands_per_writer


INSERT = (
    "INSERT INTO eventstore_event (stream_type, stream_id, version, type, schema_version, "
    "payload, metadata, command_id, recorded_at, digest, transaction_id) VALUES "
    + ", ".join(
        [
            "(%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s, %s, %s, pg_current_xact_id()::text::bigint)"
        ]
        * 3
    )
)


HEAD = (
    "SELECT (SELECT version FROM eventstore_event WHERE stream_type = 'rawbench' AND "
    "stream_id = %s ORDER BY version DESC LIMIT 1), "
    "EXISTS (SELECT 1 FROM (SELECT stream_type, stream_id FROM eventstore_event "
    "WHERE command_id = %s OFFSET 0) used WHERE used.stream_type = 'rawbench' "
    "AND used.stream_id = %s)"
)


def run_raw(
    dsn: str,
    writers: int,
    commands_per_writer: int,
    same_protocol: bool = False,
    autocommit: bool = False,
) -> float:
    """Commands/second of plain psycopg INSERTs of the same rows, one transaction each:
    BEGIN, INSERT, COMMIT, or with `autocommit` the INSERT alone (a single statement is a
    transaction of its own).

    With `same_protocol`, each transaction also takes the stream's lock and reads the
    stream head and the command id, as `append`'s slow path does.
    """
    barrier = start_line(writers + 1)

    def writer() -> None:
        stream_id = uuid.uuid4().hex
        with psycopg.connect(dsn, autocommit=autocommit) as conn:
            barrier.wait()
            previous = ""
            for i in range(commands_per_writer):
                command_id = uuid.uuid4().hex
                now = datetime.now(UTC)
                meta = {"actor": 1, "rules_version": "2.0", "command_id": command_id}
                params: list[object] = []
                for offset, e in enumerate(events_for(i), start=1):
                    version = 3 * i + offset
                    digest = event_digest(
                        previous_digest=previous,
                        version=version,
                        type=e.type,
                        schema_version=1,
                        payload=e.payload,
                        metadata=meta,
                        command_id=command_id,
                        recorded_at=now,
                    )
                    previous = digest
                    params += [
                        "rawbench",
                        stream_id,
                        version,
                        e.type,
                        1,
                        canonical_json(e.payload),
                        canonical_json(meta),
                        command_id,
                        now,
                        digest,
                    ]
                if autocommit:
                    conn.execute(INSERT, params)
                    continue
                with conn.transaction():
                    if same_protocol:
                        # The statements append adds for correctness, without Django.
                        conn.execute(
                            "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))",
                            [f"rawbench/{stream_id}"],
                        )
                        conn.execute(HEAD, [stream_id, command_id, stream_id]).fetchone()
                    conn.execute(INSERT, params)

    return timed(writer, writers, barrier) * commands_per_writer


LOOPS = {
    "append": "outside a transaction: one autocommit statement (the append function)",
    "append in atomic": "transaction.atomic(): BEGIN, the append function, COMMIT",
    "raw INSERT": "psycopg conn.transaction(): BEGIN, one 3-row INSERT, COMMIT",
    "raw INSERT autocommit": "psycopg autocommit: the 3-row INSERT alone",
    "raw lock+read+INSERT": "psycopg: BEGIN, lock, head and command id read, INSERT, COMMIT",
    "eventsourcing save": "eventsourcing 9.5.6 Application.save of 3 new events",
}


def eventsourcing_app(
    dbname: str, settings_dict: dict[str, object], writers: int, create_table: bool = False
) -> object:
    """An eventsourcing Application on PostgreSQL, in the bench's database; its tables are
    made once, before any writer starts (writers making them at once collide)."""
    from eventsourcing.application import Application

    return Application(
        env={
            "PERSISTENCE_MODULE": "eventsourcing.postgres",
            "POSTGRES_DBNAME": dbname,
            "POSTGRES_HOST": str(settings_dict["HOST"] or "127.0.0.1"),
            "POSTGRES_PORT": str(settings_dict["PORT"] or 5432),
            "POSTGRES_USER": str(settings_dict["USER"] or "root"),
            "POSTGRES_PASSWORD": str(settings_dict["PASSWORD"] or ""),
            "POSTGRES_POOL_SIZE": str(writers),
            "POSTGRES_MAX_OVERFLOW": "0",
            "CREATE_TABLE": "y" if create_table else "n",
        }
    )


@functools.cache
def casket_aggregate() -> type:
    """The library's aggregate for the bench, defined once (it registers its topic)."""
    from eventsourcing.domain import Aggregate, event

    class Casket(Aggregate):
        @event("Registered")
        def __init__(self, name: str) -> None:
            self.name = name
            self.moves: list[object] = []

        @event("Moved")
        def move(self, payload: dict[str, object]) -> None:
            self.moves.append(payload)

    return Casket


def run_eventsourcing(
    app_for: Callable[[int], object], writers: int, commands_per_writer: int
) -> float:
    """Commands/second of the eventsourcing library: each command saves one aggregate with
    3 new events (one transaction), each writer its own aggregate. `app_for(n)` gives the
    library's Application for n writers: one shared by threads, or one per process (a
    forked child must not use its parent's connection pool)."""
    Casket = casket_aggregate()
    barrier = start_line(writers + 1)
    shared = app_for(writers) if WRITERS_AS == "threads" else None

    def writer() -> None:
        app = shared if shared is not None else app_for(1)
        casket = Casket("a")
        for e in events_for(0)[:2]:
            casket.move(dict(e.payload))
        barrier.wait()
        app.save(casket)  # type: ignore[attr-defined]
        for i in range(1, commands_per_writer):
            for e in events_for(i):
                casket.move(dict(e.payload))
            app.save(casket)  # type: ignore[attr-defined]
        if shared is None:
            app.close()  # type: ignore[attr-defined]

    try:
        return timed(writer, writers, barrier) * commands_per_writer
    finally:
        if shared is not None:
            shared.close()  # type: ignore[attr-defined]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=1500, help="commands per writer (1 writer)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--writers-as",
        choices=("processes", "threads"),
        default="processes",
        help="processes, each with its own connection, as the server's workers are; or "
        "threads of this one process, where the GIL serialises the Python half of each "
        "append",
    )
    args = parser.parse_args()
    global WRITERS_AS
    WRITERS_AS = args.writers_as
    if connection.vendor != "postgresql":
        sys.exit("bench/append.py measures PostgreSQL: set DATABASE_URL=postgres://…")

    with throwaway_database("append") as test_db:
        settings_dict = connection.settings_dict
        dsn = psycopg.conninfo.make_conninfo(
            dbname=test_db,
            user=settings_dict["USER"] or None,
            host=settings_dict["HOST"] or None,
            port=settings_dict["PORT"] or None,
            password=settings_dict["PASSWORD"] or None,
        )
        print(
            f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cores, "
            f"Python {platform.python_version()}, PostgreSQL {connection.pg_version}"
        )
        print(f"date: {datetime.now(UTC):%Y-%m-%d %H:%M} UTC; writers as {WRITERS_AS}")
        for name, what in LOOPS.items():
            print(f"  {name}: {what}")
        loops: dict[str, Callable[[int, int], float]] = {
            "append": run_append,
            "append in atomic": functools.partial(run_append, atomic=True),
            "raw INSERT": functools.partial(run_raw, dsn),
            "raw INSERT autocommit": functools.partial(run_raw, dsn, autocommit=True),
            "raw lock+read+INSERT": functools.partial(run_raw, dsn, same_protocol=True),
        }
        one_writer = 0.0
        eventsourcing_app(test_db, settings_dict, 1, create_table=True).close()  # type: ignore[attr-defined]
        for writers, per_writer in ((1, args.commands), (8, max(args.commands // 4, 50))):
            loops["eventsourcing save"] = functools.partial(
                run_eventsourcing, functools.partial(eventsourcing_app, test_db, settings_dict)
            )
            rates: dict[str, list[float]] = {name: [] for name in loops}
            for loop in loops.values():  # warm-up
                loop(writers, 50)
            for repeat in range(args.repeats):  # interleaved, so drift hits all alike
                order = list(loops.items())
                for name, loop in order if repeat % 2 == 0 else order[::-1]:
                    rates[name].append(loop(writers, per_writer))
            m = {name: statistics.median(values) for name, values in rates.items()}
            one_writer = one_writer or m["append"]
            print(
                f"{writers} writer(s), cmd/s, median of {args.repeats}: "
                + " | ".join(f"{name} {rate:.0f}" for name, rate in m.items())
            )
            print(
                f"  append / raw INSERT {m['append'] / m['raw INSERT']:.2f}, "
                f"/ raw INSERT autocommit {m['append'] / m['raw INSERT autocommit']:.2f}; "
                f"append in atomic / raw INSERT {m['append in atomic'] / m['raw INSERT']:.2f}; "
                f"append / eventsourcing {m['append'] / m['eventsourcing save']:.2f}; "
                f"append / 1 writer {m['append'] / one_writer:.2f}"
            )


if __name__ == "__main__":
    main()
