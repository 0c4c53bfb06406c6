"""The one codec: domain events to stored rows and back, for every registered stream type."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, ClassVar

import pytest

from battles.codec import BATTLE_EVENTS
from campaigns.codec import CAMPAIGN_EVENTS
from penance_site.eventstore import codec
from penance_site.eventstore.codec import DecodeError, EventCodec
from penance_site.eventstore.records import NewEvent, RecordedEvent, StreamRef


@dataclass(frozen=True, slots=True)
class Counted:
    SCHEMA_VERSION: ClassVar[int] = 3
    total: int
    steps: tuple[tuple[str, int], ...]
    extra: dict[str, Any]


def recorded(stream_type: str, type_: str, version: int, payload: dict[str, Any]) -> RecordedEvent:
    return RecordedEvent(
        1, StreamRef(stream_type, "s"), 1, type_, version, payload, {}, "c", datetime.now(UTC), ""
    )


def test_an_event_encodes_to_json_values_and_decodes_to_the_same_event() -> None:
    c = EventCodec("counter", [Counted])
    event = Counted(3, (("a", 1), ("b", 2)), {"nested": [1, 2]})
    new = c.encode(event)
    assert new == NewEvent(
        "Counted", {"total": 3, "steps": [["a", 1], ["b", 2]], "extra": event.extra}, 3
    )
    assert c.decode_record(new.type, new.schema_version, new.payload) == event


def test_older_schema_versions_are_upcast_in_a_chain() -> None:
    upcasters = {
        ("Counted", 1): lambda p: {**p, "steps": []},
        ("Counted", 2): lambda p: {**p, "extra": {}},
    }
    c = EventCodec("counter", [Counted], upcasters)
    assert c.decode_record("Counted", 1, {"total": 5}) == Counted(5, (), {})


def test_a_missing_upcaster_is_an_error_naming_the_step() -> None:
    c = EventCodec("counter", [Counted], {("Counted", 1): lambda p: {**p, "steps": []}})
    with pytest.raises(DecodeError, match="no upcaster from Counted v2 to v3") as info:
        c.decode_record("Counted", 1, {"total": 5})
    assert info.value.field == "schema_version"


def test_unknown_types_wrong_fields_and_future_versions_are_refused() -> None:
    c = EventCodec("counter", [Counted])
    with pytest.raises(DecodeError, match="unknown counter event type 'Teleported'"):
        c.decode_record("Teleported", 1, {})
    with pytest.raises(DecodeError, match=r"missing \['steps'\], unknown \['stray'\]"):
        c.decode_record("Counted", 3, {"total": 1, "extra": {}, "stray": 0})
    with pytest.raises(DecodeError, match=r"schema versions 1\.\.3"):
        c.decode_record("Counted", 4, {})


def test_an_event_of_another_domain_is_not_encoded() -> None:
    with pytest.raises(TypeError, match="not a registered counter event type"):
        EventCodec("counter", [Counted]).encode(object())


def test_rows_decode_by_their_stream_type_through_the_registry() -> None:
    battle_row = recorded("battle", "TurnEnded", 1, {"seat": 1})
    campaign_row = recorded("campaign", "PlayerJoined", 1, {"player": "ann"})
    assert codec.decode(battle_row) == BATTLE_EVENTS.decode(battle_row)
    assert codec.decode(campaign_row).player == "ann"
    with pytest.raises(DecodeError, match="is not a battle stream"):
        BATTLE_EVENTS.decode(campaign_row)
    assert codec.codec_for("campaign") is CAMPAIGN_EVENTS


def test_a_stream_type_registers_once() -> None:
    with pytest.raises(ValueError, match="already has a codec"):
        codec.register("battle", [])
    with pytest.raises(LookupError, match="no codec"):
        codec.codec_for("tournament")


def test_fold_decodes_and_evolves_in_order() -> None:
    c = EventCodec("counter", [Counted])
    rows = [
        recorded("counter", "Counted", 3, {"total": n, "steps": [], "extra": {}}) for n in (1, 2, 4)
    ]

    def evolve(state: int | None, event: Counted) -> int:
        return (state or 0) * 10 + event.total

    assert c.fold(evolve, rows) == 124
    assert c.fold(evolve, rows[1:], 1) == 124
    assert c.fold(evolve, []) is None
