"""The event store's values: pure Python, no Django, so that domain code and the codec
can name them without a database (the store's functions live in store.py).

A stream is named by a type and an id (`StreamRef`); a command's new events are
`NewEvent`s; what the store gives back are `RecordedEvent`s, each chained to the
previous event of its stream by a SHA-256 digest (docs/ARCHITECTURE.md).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from json.encoder import encode_basestring
from typing import Any


@dataclass(frozen=True, slots=True)
class StreamRef:
    type: str
    id: str

    def __str__(self) -> str:
        return f"{self.type}/{self.id}"


@dataclass(frozen=True, slots=True)
class NewEvent:
    type: str
    payload: Mapping[str, Any]
    schema_version: int = 1


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    position: int
    stream: StreamRef
    version: int
    type: str
    schema_version: int
    payload: dict[str, Any]
    metadata: dict[str, Any]
    command_id: str
    recorded_at: datetime
    digest: str
    # The writing transaction's id on PostgreSQL (0 on SQLite and for events written
    # before it was recorded): readers page in (transaction, position) order.
    transaction: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "stream_type": self.stream.type,
            "stream_id": self.stream.id,
            "version": self.version,
            "type": self.type,
            "schema_version": self.schema_version,
            "payload": self.payload,
            "metadata": self.metadata,
            "command_id": self.command_id,
            "recorded_at": format_timestamp(self.recorded_at),
            "digest": self.digest,
        }


@dataclass(frozen=True, slots=True, order=True)
class Checkpoint:
    """Where a reader of the whole store stands: after this transaction and position.

    >>> Checkpoint(7, 12) < Checkpoint(8, 3)
    True
    """

    transaction: int
    position: int

    @classmethod
    def of(cls, event: RecordedEvent) -> Checkpoint:
        return cls(event.transaction, event.position)


START = Checkpoint(0, 0)


@dataclass(frozen=True, slots=True)
class AppendResult:
    events: tuple[RecordedEvent, ...]
    version: int
    duplicate: bool = False


@dataclass(frozen=True, slots=True)
class VerifyReport:
    stream: StreamRef
    ok: bool
    checked: int
    first_broken_version: int | None = None
    reason: str | None = None
    head_digest: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "stream": str(self.stream),
            "ok": self.ok,
            "checked": self.checked,
            "first_broken_version": self.first_broken_version,
            "reason": self.reason,
            "head_digest": self.head_digest,
        }


@dataclass(frozen=True, slots=True)
class StoredSnapshot:
    stream: StreamRef
    version: int
    engine_version: str
    state: dict[str, Any] = field(default_factory=dict)


def canonical_json(value: Any) -> str:
    """One serialisation per value: sorted keys, no spaces, UTF-8 kept."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def format_timestamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def event_digest(
    *,
    previous_digest: str,
    version: int,
    type: str,
    schema_version: int,
    payload: Any,
    metadata: Any,
    command_id: str,
    recorded_at: datetime,
) -> str:
    """SHA-256 over the event's canonical form and the previous digest of its stream:
    canonical_json({previous, version, type, schema_version, payload, metadata,
    command_id, recorded_at}).

    The stream's own name is left out on purpose: an exported battle imported
    under a new id keeps the same chain, which is how an import is checked.
    """
    return encoded_event_digest(
        previous_digest=previous_digest,
        version=version,
        type=type,
        schema_version=schema_version,
        payload_json=canonical_json(payload),
        metadata_json=canonical_json(metadata),
        command_id=command_id,
        timestamp=format_timestamp(recorded_at),
    )


def encoded_event_digest(
    *,
    previous_digest: str,
    version: int,
    type: str,
    schema_version: int,
    payload_json: str,
    metadata_json: str,
    command_id: str,
    timestamp: str,
) -> str:
    """`event_digest` from the payload and metadata already in canonical JSON.

    An append writes those JSON texts to the table anyway; encoding them again for the
    digest would double its JSON work. The body is the text canonical_json writes for
    the whole object: its keys in sorted order, and canonical_json of a nested value is
    the same text inside as alone (tests/eventstore/test_records.py checks it).

    >>> encoded_event_digest(previous_digest="", version=1, type="A", schema_version=1,
    ...     payload_json="{}", metadata_json="{}", command_id="c",
    ...     timestamp="2026-01-31T12:00:00.000000Z") == event_digest(previous_digest="",
    ...     version=1, type="A", schema_version=1, payload={}, metadata={}, command_id="c",
    ...     recorded_at=datetime(2026, 1, 31, 12, tzinfo=UTC))
    True
    """
    body = (
        f'{{"command_id":{_text(command_id)},"metadata":{metadata_json},'
        f'"payload":{payload_json},"previous":{_text(previous_digest)},'
        f'"recorded_at":{_text(timestamp)},"schema_version":{_int(schema_version)},'
        f'"type":{_text(type)},"version":{_int(version)}}}'
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


# What json.dumps(ensure_ascii=False) writes for a string and for an int, without its
# general dispatch (an append digests every event).
_text = encode_basestring
_int = int.__repr__


def chained_digest(previous_digest: str, event: RecordedEvent) -> str:
    return event_digest(
        previous_digest=previous_digest,
        version=event.version,
        type=event.type,
        schema_version=event.schema_version,
        payload=event.payload,
        metadata=event.metadata,
        command_id=event.command_id,
        recorded_at=event.recorded_at,
    )


def command_fingerprint(
    stream: StreamRef, expected_version: int, events: Sequence[NewEvent]
) -> str:
    """What makes a retry the same command, by default: sha256 of canonical_json({stream,
    expected_version, events: [[type, schema_version, payload], …]})."""
    return encoded_command_fingerprint(
        stream,
        expected_version,
        [(e.type, e.schema_version, canonical_json(e.payload)) for e in events],
    )


def encoded_command_fingerprint(
    stream: StreamRef, expected_version: int, events: Sequence[tuple[str, int, str]]
) -> str:
    """`command_fingerprint` from each event's (type, schema_version, payload JSON)."""
    rows = ",".join(f"[{_text(t)},{_int(v)},{payload}]" for t, v, payload in events)
    body = (
        f'{{"events":[{rows}],"expected_version":{_int(expected_version)},'
        f'"stream":{_text(str(stream))}}}'
    )
    return hashlib.sha256(body.encode("utf-8")).hexdigest()
