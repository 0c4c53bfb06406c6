"""Battle streams in the event store: their name and their events' codec.

The engine defines the events and their upcasters and knows nothing of storage;
this module registers them with the store's one codec (penance_site/eventstore),
so every read and write of a battle stream encodes and decodes the same way.
"""

from __future__ import annotations

from battles.engine.battle import EVENT_TYPES, UPCASTERS
from penance_site.eventstore import codec

STREAM_TYPE = "battle"

BATTLE_EVENTS = codec.register(STREAM_TYPE, EVENT_TYPES.values(), UPCASTERS)
