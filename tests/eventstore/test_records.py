"""The digest and fingerprint built from pre-encoded JSON are the canonical ones.

An append encodes each payload once and builds the digest's and the fingerprint's
text around it (records.encoded_*). These properties hold that text to the
definition: canonical_json of the whole object (docs/ARCHITECTURE.md "The digest
chain"), for any JSON payload and metadata, unicode and escapes included.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from penance_site.eventstore.records import (
    NewEvent,
    StreamRef,
    canonical_json,
    command_fingerprint,
    event_digest,
    format_timestamp,
)

text = st.text(max_size=12)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=20,
)
objects = st.dictionaries(text, json_values, max_size=5)


def by_definition(**fields: Any) -> str:
    body = canonical_json({**fields, "recorded_at": format_timestamp(fields["recorded_at"])})
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


@settings(max_examples=300, deadline=None)
@given(
    previous=text,
    version=st.integers(1, 10**6),
    type_=text,
    schema_version=st.integers(1, 50),
    payload=objects,
    metadata=objects,
    command_id=text,
    microsecond=st.integers(0, 999_999),
)
def test_the_digest_is_sha256_of_the_canonical_json_of_the_whole_event(
    previous: str,
    version: int,
    type_: str,
    schema_version: int,
    payload: dict[str, Any],
    metadata: dict[str, Any],
    command_id: str,
    microsecond: int,
) -> None:
    moment = datetime(2026, 11, 23, 6, 0, 0, microsecond, tzinfo=UTC)
    fields = {
        "previous": previous,
        "version": version,
        "type": type_,
        "schema_version": schema_version,
        "payload": payload,
        "metadata": metadata,
        "command_id": command_id,
        "recorded_at": moment,
    }
    assert event_digest(
        previous_digest=previous,
        version=version,
        type=type_,
        schema_version=schema_version,
        payload=payload,
        metadata=metadata,
        command_id=command_id,
        recorded_at=moment,
    ) == by_definition(**fields)


@settings(max_examples=200, deadline=None)
@given(
    stream_id=text.filter(bool),
    expected_version=st.integers(0, 10**6),
    events=st.lists(st.tuples(text, st.integers(1, 9), objects), max_size=4),
)
def test_the_fingerprint_is_sha256_of_the_canonical_json_of_the_command(
    stream_id: str, expected_version: int, events: list[tuple[str, int, dict[str, Any]]]
) -> None:
    stream = StreamRef("battle", stream_id)
    body = canonical_json(
        {
            "stream": str(stream),
            "expected_version": expected_version,
            "events": [[t, v, p] for t, v, p in events],
        }
    )
    expected = hashlib.sha256(body.encode("utf-8")).hexdigest()
    new = [NewEvent(t, p, v) for t, v, p in events]
    assert command_fingerprint(stream, expected_version, new) == expected
