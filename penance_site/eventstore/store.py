"""The event store: append-only streams of events with a global position.

Battles and campaigns keep their history here as streams named by a type and
an id. The rules for writers (docs/ARCHITECTURE.md explains why):

- `append` writes all events of one command in one transaction, with the
  version the writer last read (optimistic concurrency) and a command id
  (idempotent retries);
- appends to one stream are serialised (a transaction-scoped advisory lock per
  stream on PostgreSQL, SQLite's single writer); appends to different streams
  run in parallel on PostgreSQL. Each event records the id of the transaction
  that wrote it, and `read_all` pages in (transaction, position) order below the
  oldest transaction still in flight, so a reader never skips an event that
  commits later (docs/ARCHITECTURE.md);
- a command id is scoped to its stream: reusing it in another stream is simply a
  new command there;
- each event carries a SHA-256 digest chained to the previous event of its
  stream; `verify` recomputes the chain;
- a reaction registered for a stream type (`react_to_appends`) runs inside the
  append's transaction, so what it writes commits or rolls back with the events.
  That is how one app follows another's streams without the other knowing it
  (campaigns follow battles, docs/ARCHITECTURE.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import Q
from django.db.models.expressions import RawSQL
from django.utils import timezone

from .models import Event, Snapshot
from .records import (
    START,
    AppendResult,
    Checkpoint,
    NewEvent,
    RecordedEvent,
    StoredSnapshot,
    StreamRef,
    VerifyReport,
    canonical_json,
    chained_digest,
    command_fingerprint,
    encoded_command_fingerprint,
    encoded_event_digest,
    event_digest,
    format_timestamp,
)
from .sql import APPEND_FUNCTION, command_used_pg

__all__ = [
    "START",
    "AppendResult",
    "Checkpoint",
    "CommandIdReused",
    "ConcurrencyError",
    "EventStoreError",
    "NewEvent",
    "RecordedEvent",
    "StoredSnapshot",
    "StreamRef",
    "VerifyReport",
    "append",
    "canonical_json",
    "command_events",
    "command_fingerprint",
    "event_digest",
    "format_timestamp",
    "iter_stream",
    "react_to_appends",
    "read_all",
    "read_stream",
    "recorded_from_row",
    "snapshot_load",
    "snapshot_store",
    "stream_version",
    "verify",
]

MAX_EVENTS_PER_COMMAND = 1000


class EventStoreError(Exception):
    """Base class of the store's refusals."""


class ConcurrencyError(EventStoreError):
    """The stream moved on since the writer read it; nothing was written."""

    def __init__(self, stream: StreamRef, expected: int, actual: int) -> None:
        super().__init__(
            f"stream {stream} is at version {actual}, not the expected {expected}; "
            "read it again and retry"
        )
        self.stream = stream
        self.expected = expected
        self.actual = actual


class CommandIdReused(EventStoreError):
    """A command id was used before with other content; nothing was written. `version` is
    the first version that other command wrote (0 when not told)."""

    def __init__(self, message: str, *, version: int = 0) -> None:
        super().__init__(message)
        self.version = version


Reaction = Callable[[StreamRef, Sequence[RecordedEvent]], None]
_REACTIONS: dict[str, list[Reaction]] = {}


def react_to_appends(stream_type: str, reaction: Reaction) -> None:
    """Run `reaction(stream, events)` after every append of new events to a stream of this
    type, inside the append's transaction: what it writes commits with the events, and an
    exception it raises fails that transaction, so the events roll back with it. Registering the same reaction twice (an
    app's `ready()` run again) keeps one."""
    reactions = _REACTIONS.setdefault(stream_type, [])
    if reaction not in reactions:
        reactions.append(reaction)


def recorded_from_row(row: Event) -> RecordedEvent:
    return RecordedEvent(
        position=row.position,
        stream=StreamRef(row.stream_type, row.stream_id),
        version=row.version,
        type=row.type,
        schema_version=row.schema_version,
        payload=row.payload,
        metadata=row.metadata,
        command_id=row.command_id,
        recorded_at=row.recorded_at,
        digest=row.digest,
        transaction=row.transaction_id,
    )


# The oldest transaction that may still commit: every transaction below it is finished.
_PG_OLDEST_IN_FLIGHT = "pg_snapshot_xmin(pg_current_snapshot())::text::bigint"


_TABLE = Event._meta.db_table
# The head's version and digest (index probes of (stream_type, stream_id, version)), and
# whether this stream used the command id (command ids are scoped to their stream; few
# streams share one). On PostgreSQL the id is looked up by the command index alone and the
# stream checked afterwards (sql.COMMAND_USED_PG says why). On SQLite the unary `+` keeps
# the stream's columns out of the index choice: without it the planner probes the stream
# index and reads the whole stream for the id, so an append cost more the longer the
# battle (docs/PERFORMANCE.md, "One pass per command").
_HEAD_VERSION_DIGEST = (
    f"SELECT (SELECT version FROM {_TABLE} WHERE stream_type = %s AND stream_id = %s "
    "ORDER BY version DESC LIMIT 1), "
    f"(SELECT digest FROM {_TABLE} WHERE stream_type = %s AND stream_id = %s "
    "ORDER BY version DESC LIMIT 1), "
)
_HEAD_SQL = {
    "postgresql": _HEAD_VERSION_DIGEST + command_used_pg("%s", "%s", "%s"),
    "sqlite": _HEAD_VERSION_DIGEST + f"EXISTS (SELECT 1 FROM {_TABLE} WHERE command_id = %s "
    "AND +stream_type = %s AND +stream_id = %s)",
}
# The stream's own lock: appends to one stream queue, appends to others do not. A hash
# collision between two streams only makes them queue too; it never lets two writers of
# one stream through.
_PG_STREAM_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"
# The writing transaction's id, recorded on each event for readers (read_all).
_PG_TRANSACTION = "pg_current_xact_id()::text::bigint"
_COLUMNS = (
    "stream_type, stream_id, version, type, schema_version, payload, metadata, "
    "command_id, recorded_at, digest, transaction_id"
)


def _lock_and_read_head(stream: StreamRef, command_id: str) -> tuple[int, str, bool]:
    """Take the stream's lock, then read its head and whether it used the command id.

    SQLite transactions are IMMEDIATE (settings): the database's single writer lock
    is held already. On PostgreSQL the stream's advisory lock queues other writers of
    this stream until commit and nobody else (docs/ARCHITECTURE.md). Lock and read go
    in one round trip as two statements, so that the read's snapshot is taken after
    the lock (READ COMMITTED: a snapshot per statement) and sees every committed append.
    """
    params = [stream.type, stream.id] * 2 + [command_id, stream.type, stream.id]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"{_PG_STREAM_LOCK}; {_HEAD_SQL['postgresql']}", [str(stream), *params])
            cursor.cursor.nextset()
        else:
            cursor.execute(_HEAD_SQL["sqlite"], params)
        version, digest, used = cursor.fetchone()
    return version or 0, digest or "", bool(used)


def _values(count: int) -> str:
    """The VALUES list of `count` rows (placeholders and constant casts only)."""
    postgres = connection.vendor == "postgresql"
    json_cast = "::jsonb" if postgres else ""
    # SQLite has one writer at a time: commit order is position order, no id needed.
    transaction_id = _PG_TRANSACTION if postgres else "0"
    one = f"(%s, %s, %s, %s, %s, %s{json_cast}, %s{json_cast}, %s, %s, %s, {transaction_id})"
    return ", ".join([one] * count)


def _insert(rows: list[tuple[Any, ...]]) -> tuple[list[int], int]:
    """One multi-row INSERT … RETURNING position: the append's only write. Returns the
    positions in order and the writing transaction's id."""
    # Only table and column names are interpolated, all constants; values are parameters.
    sql = (
        f"INSERT INTO {_TABLE} ({_COLUMNS}) VALUES {_values(len(rows))} "
        "RETURNING position, transaction_id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [value for row in rows for value in row])
        returned = cursor.fetchall()
    # RETURNING order follows VALUES order on both databases, but do not rely on it.
    return sorted(p for p, _ in returned), returned[0][1]


def _insert_if_head(
    new: _NewRows, rows: list[tuple[Any, ...]], previous_digest: str
) -> tuple[list[int], int] | None:
    """PostgreSQL, one round trip: take the stream's lock, then insert the rows only if
    the stream's head is still (expected_version, previous_digest) and the stream never
    used the command id (sql.APPEND_FUNCTION). None (nothing written; the lock is held
    until the transaction ends) when it is not so.

    This is `append`'s usual path: the head comes from this process's last append to the
    stream (or is empty for a new stream), and the database checks it, so a wrong guess
    costs one more round trip and nothing else.
    """
    first = rows[0]
    params = [
        new.stream.type,
        new.stream.id,
        new.expected_version,
        previous_digest,
        new.command_id,
        _pg_array([row[3] for row in rows]),
        _pg_array([row[4] for row in rows]),
        _pg_array([row[5] for row in rows]),
        first[6],
        first[8],
        _pg_array([row[_DIGEST] for row in rows]),
    ]
    with connection.cursor() as cursor:
        cursor.execute(_APPEND_CALL, params)
        returned = cursor.fetchall()
    if not returned:
        return None
    return sorted(p for p, _ in returned), returned[0][1]


def _pg_array(values: Sequence[object]) -> str:
    """A PostgreSQL array literal of `values` as text, for a cast on the server (`::jsonb[]`
    and the like): every element double-quoted, with backslash and double quote escaped,
    which is all the array syntax needs for the text to come back unchanged. Passed as one
    string: psycopg's quoting of a list element by element (regular expressions in
    Python) was a third of an append's Python time (docs/PERFORMANCE.md)."""
    quoted = (str(v).replace("\\", "\\\\").replace('"', '\\"') for v in values)
    return "{" + ",".join(f'"{v}"' for v in quoted) + "}"


_APPEND_CALL = (
    f"SELECT out_position, out_transaction FROM {APPEND_FUNCTION}(%s, %s, %s, %s, %s, "
    "%s::varchar[], %s::smallint[], %s::jsonb[], %s::jsonb, %s, %s::varchar[])"
)


def _validate(
    stream: StreamRef, expected_version: int, events: Sequence[NewEvent], command_id: str
) -> None:
    if not stream.type or len(stream.type) > 40 or not stream.id or len(stream.id) > 64:
        raise ValueError("a stream needs a type (≤ 40 characters) and an id (≤ 64 characters)")
    if expected_version < 0:
        raise ValueError("expected_version is 0 for a new stream, else the last version read")
    if not command_id or len(command_id) > 64:
        raise ValueError("command_id must be 1 to 64 characters")
    if len(events) > MAX_EVENTS_PER_COMMAND:
        raise ValueError(f"at most {MAX_EVENTS_PER_COMMAND} events per command")


def append(
    *,
    stream: StreamRef,
    expected_version: int,
    events: Sequence[NewEvent],
    command_id: str,
    metadata: Mapping[str, Any] | None = None,
    fingerprint: str | None = None,
    recorded_at: datetime | None = None,
) -> AppendResult:
    """Append the events of one command to `stream` atomically.

    - `expected_version` is the stream version the command was decided on
      (0 for a new stream); if the stream has moved on, ConcurrencyError and
      nothing is written.
    - `command_id` makes retries safe: the same id with the same content
      (the `fingerprint`, by default a hash of stream, expected version and
      events) returns the original result and writes nothing; the same id with
      other content raises CommandIdReused.
    - `metadata` (actor, causation, rules version …) is stored on every event
      together with the command id.
    - `recorded_at` is for imports that must keep the original timestamps.

    Called inside a transaction (a service's), it runs in that transaction, without a
    savepoint of its own: a refusal writes nothing and leaves the transaction usable,
    and a database error fails the caller's transaction as a whole, which is what the
    caller's `atomic` rolls back anyway. That saves two round trips per command.

    Called outside one, it is a transaction of its own. On PostgreSQL, when this process
    guessed the head right and no reaction follows the stream's type, that transaction is
    one statement in autocommit: the function call that locks, checks and inserts
    (sql.APPEND_FUNCTION_CREATE) commits or fails as a whole, so no BEGIN and COMMIT of
    its own are needed (one round trip instead of three). Otherwise (a wrong guess, a
    used command id, reactions that must write in the same transaction, SQLite) it runs
    in `transaction.atomic()`.
    """
    _validate(stream, expected_version, events, command_id)
    new = _encode(stream, expected_version, events, command_id, metadata, fingerprint, recorded_at)
    if connection.in_atomic_block:
        return _append(new)
    if not _REACTIONS.get(stream.type) and connection.get_autocommit():
        appended = _append_at_guessed_head(new)
        if appended is not None:
            return appended
        with transaction.atomic():
            return _append(new, guess=False)
    with transaction.atomic():
        return _append(new)


def _encode(
    stream: StreamRef,
    expected_version: int,
    events: Sequence[NewEvent],
    command_id: str,
    metadata: Mapping[str, Any] | None,
    fingerprint: str | None,
    recorded_at: datetime | None,
) -> _NewRows:
    # Each payload is encoded once: the same canonical JSON is the stored column, and
    # goes into the fingerprint and the digest (records.encoded_*).
    payloads = [canonical_json(e.payload) for e in events]
    fingerprint = fingerprint or encoded_command_fingerprint(
        stream,
        expected_version,
        [(e.type, e.schema_version, p) for e, p in zip(events, payloads, strict=True)],
    )
    moment = recorded_at or timezone.now()
    meta = {**(metadata or {}), "command_id": command_id, "command_fingerprint": fingerprint}
    return _NewRows(stream, expected_version, events, payloads, command_id, meta, moment)


def _append_at_guessed_head(new: _NewRows) -> AppendResult | None:
    """PostgreSQL: the one-call append when this process's guess of the head says it can
    work (_insert_if_head); None when it cannot say or the database found otherwise."""
    head = (0, "") if new.expected_version == 0 else _HEADS.get(str(new.stream))
    if not (new.events and connection.vendor == "postgresql" and head):
        return None
    if head[0] != new.expected_version:
        return None
    rows = new.rows(head[1])
    inserted = _insert_if_head(new, rows, head[1])
    return None if inserted is None else _appended(new, rows, *inserted)


def _append(new: _NewRows, *, guess: bool = True) -> AppendResult:
    """The append inside a transaction: the guessed head's one call first (unless it was
    just tried), else the locked read and the checks in order."""
    if guess:
        appended = _append_at_guessed_head(new)
        if appended is not None:
            return appended
    # Another writer moved the stream, or the command id is used, or no guess: the slow
    # path says which, under the stream's lock (taken again: advisory locks nest).
    stream, command_id = new.stream, new.command_id
    current, previous_digest, command_used = _lock_and_read_head(stream, command_id)
    if command_used:
        earlier = command_events(stream, command_id)
        first = earlier[0]
        if first.metadata.get("command_fingerprint") == new.metadata["command_fingerprint"]:
            return AppendResult(events=earlier, version=earlier[-1].version, duplicate=True)
        raise CommandIdReused(
            f"command id {command_id!r} was already used in this stream for another command "
            f"(version {first.version}); use a new command id",
            version=first.version,
        )
    if current != new.expected_version:
        raise ConcurrencyError(stream, new.expected_version, current)
    if not new.events:
        return AppendResult(events=(), version=current)
    rows = new.rows(previous_digest)
    return _appended(new, rows, *_insert(rows))


@dataclass(frozen=True, slots=True)
class _NewRows:
    """One command's events, encoded once, ready to become rows after any head."""

    stream: StreamRef
    expected_version: int
    events: Sequence[NewEvent]
    payloads: list[str]
    command_id: str
    metadata: dict[str, Any]
    moment: datetime

    def digests(self, previous_digest: str) -> list[str]:
        metadata_json, timestamp = canonical_json(self.metadata), format_timestamp(self.moment)
        out: list[str] = []
        pairs = zip(self.events, self.payloads, strict=True)
        for offset, (e, payload_json) in enumerate(pairs, start=1):
            previous_digest = encoded_event_digest(
                previous_digest=previous_digest,
                version=self.expected_version + offset,
                type=e.type,
                schema_version=e.schema_version,
                payload_json=payload_json,
                metadata_json=metadata_json,
                command_id=self.command_id,
                timestamp=timestamp,
            )
            out.append(previous_digest)
        return out

    def rows(self, previous_digest: str) -> list[tuple[Any, ...]]:
        metadata_json = canonical_json(self.metadata)
        db_moment = connection.ops.adapt_datetimefield_value(self.moment)
        return [
            (
                self.stream.type,
                self.stream.id,
                self.expected_version + offset,
                e.type,
                e.schema_version,
                payload_json,
                metadata_json,
                self.command_id,
                db_moment,
                digest,
            )
            for offset, (e, payload_json, digest) in enumerate(
                zip(self.events, self.payloads, self.digests(previous_digest), strict=True),
                start=1,
            )
        ]


# The head (version, digest) each stream had after this process's last append to it. A
# guess only, never trusted: the insert it allows checks the head in the database.
_HEADS: dict[str, tuple[int, str]] = {}
_DIGEST = 9  # the digest's place in a row (_COLUMNS)
_HEADS_KEPT = 10_000


def _appended(
    new: _NewRows, rows: list[tuple[Any, ...]], positions: list[int], transaction_id: int
) -> AppendResult:
    digests = [row[_DIGEST] for row in rows]
    recorded = tuple(
        RecordedEvent(
            position=position,
            stream=new.stream,
            version=new.expected_version + offset,
            type=e.type,
            schema_version=e.schema_version,
            payload=dict(e.payload),
            metadata=new.metadata,
            command_id=new.command_id,
            recorded_at=new.moment,
            digest=digest,
            transaction=transaction_id,
        )
        for offset, (e, digest, position) in enumerate(
            zip(new.events, digests, positions, strict=True), start=1
        )
    )
    if len(_HEADS) >= _HEADS_KEPT:
        _HEADS.clear()
    _HEADS[str(new.stream)] = (recorded[-1].version, recorded[-1].digest)
    for reaction in _REACTIONS.get(new.stream.type, ()):
        reaction(new.stream, recorded)
    return AppendResult(events=recorded, version=recorded[-1].version)


def stream_version(stream: StreamRef) -> int:
    head = (
        Event.objects.filter(stream_type=stream.type, stream_id=stream.id)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
    )
    return head or 0


def read_stream(
    stream: StreamRef,
    *,
    after_version: int = 0,
    up_to_version: int | None = None,
    limit: int | None = None,
) -> list[RecordedEvent]:
    """Events of one stream in version order, after `after_version`, up to `up_to_version`."""
    qs = Event.objects.filter(
        stream_type=stream.type, stream_id=stream.id, version__gt=after_version
    )
    if up_to_version is not None:
        qs = qs.filter(version__lte=up_to_version)
    qs = qs.order_by("version")
    if limit is not None:
        qs = qs[:limit]
    return [recorded_from_row(e) for e in qs]


def iter_stream(
    stream: StreamRef, *, after_version: int = 0, batch: int = 2000
) -> Iterator[RecordedEvent]:
    """Every event of a stream in version order, fetched in batches."""
    while True:
        chunk = read_stream(stream, after_version=after_version, limit=batch)
        yield from chunk
        if len(chunk) < batch:
            return
        after_version = chunk[-1].version


def command_events(stream: StreamRef, command_id: str) -> tuple[RecordedEvent, ...]:
    """The events one command appended to `stream`, in version order (none if it did not).

    The query filters on the command id alone and the stream is checked here: filtering
    on stream and id together let PostgreSQL without fresh statistics scan the whole
    stream (67 ms at 100,000 events, docs/PERFORMANCE.md) instead of probing the command
    index, and an id is shared by few streams.
    """
    rows = Event.objects.filter(command_id=command_id).order_by(
        "stream_type", "stream_id", "version"
    )
    return tuple(
        recorded_from_row(e)
        for e in rows
        if (e.stream_type, e.stream_id) == (stream.type, stream.id)
    )


def read_all(
    *, after: Checkpoint = START, limit: int = 1000, stream_type: str | None = None
) -> list[RecordedEvent]:
    """Events of all streams in commit-safe order, after a checkpoint: the feed for
    projections and audits. Page on with `Checkpoint.of(last event)`.

    The order is (transaction, position). On PostgreSQL only events of transactions
    older than every transaction still in flight are returned: those transactions
    are finished, so no event can ever appear before the checkpoint of a page already
    read (docs/ARCHITECTURE.md). On SQLite (one writer) the transaction is 0 and the
    order is the position's.
    """
    if limit < 1:
        raise ValueError("limit must be at least 1")
    qs = Event.objects.filter(
        Q(transaction_id__gt=after.transaction)
        | Q(transaction_id=after.transaction, position__gt=after.position)
    )
    if connection.vendor == "postgresql":
        # A constant expression: no input reaches it.
        qs = qs.filter(transaction_id__lt=RawSQL(_PG_OLDEST_IN_FLIGHT, ()))  # noqa: S611
    if stream_type is not None:
        qs = qs.filter(stream_type=stream_type)
    return [recorded_from_row(e) for e in qs.order_by("transaction_id", "position")[:limit]]


def verify(stream: StreamRef) -> VerifyReport:
    """Recompute the digest chain of a stream and report the first broken event."""
    previous_digest = ""
    checked = 0
    expected_version = 1
    for event in iter_stream(stream):
        if event.version != expected_version:
            return VerifyReport(
                stream, False, checked, expected_version, f"version {expected_version} is missing"
            )
        digest = chained_digest(previous_digest, event)
        if digest != event.digest:
            return VerifyReport(
                stream,
                False,
                checked,
                event.version,
                "stored digest does not match the event's content and the chain before it",
            )
        previous_digest = digest
        checked += 1
        expected_version += 1
    return VerifyReport(stream, True, checked, head_digest=previous_digest or None)


@transaction.atomic
def snapshot_store(
    *, stream: StreamRef, version: int, engine_version: str, state: Mapping[str, Any]
) -> None:
    """Keep a fold of `stream` up to `version`. Storing the same snapshot twice is harmless."""
    Snapshot.objects.get_or_create(
        stream_type=stream.type,
        stream_id=stream.id,
        engine_version=engine_version,
        version=version,
        defaults={"state": dict(state)},
    )


def snapshot_load(
    *, stream: StreamRef, engine_version: str, at_or_before: int | None = None
) -> StoredSnapshot | None:
    """The latest snapshot of `stream` for this engine version, at or before a version."""
    qs = Snapshot.objects.filter(
        stream_type=stream.type, stream_id=stream.id, engine_version=engine_version
    )
    if at_or_before is not None:
        qs = qs.filter(version__lte=at_or_before)
    row = qs.order_by("-version").first()
    if row is None:
        return None
    return StoredSnapshot(stream, row.version, row.engine_version, row.state)
