"""Event schema evolution: stored events keep the schema they were written with.

When an event type's fields change, its class gets a higher `SCHEMA_VERSION` and an
upcaster is registered here that turns a payload of the old version into the next
one. Reading applies them in a chain, so a battle recorded years ago replays
through today's `evolve` (docs/BATTLES.md, issue 4 "Event schema evolution").

>>> upcast("TurnEnded", 1, {"seat": 0})
{'seat': 0}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..errors import InvalidInput

Payload = Mapping[str, Any]
Upcaster = Callable[[Payload], Payload]

# (event type, from schema version) -> upcaster to version + 1
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def register(type_: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register `fn` as the upcaster of `type_` payloads from `from_version` to the next."""

    def wrap(fn: Upcaster) -> Upcaster:
        key = (type_, from_version)
        if key in UPCASTERS:
            raise ValueError(f"an upcaster for {type_} v{from_version} is already registered")
        UPCASTERS[key] = fn
        return fn

    return wrap


def current_version(type_: str) -> int:
    from .events import EVENT_TYPES

    cls = EVENT_TYPES.get(type_)
    if cls is None:
        raise InvalidInput("type", f"unknown event type {type_!r}")
    return cls.SCHEMA_VERSION


def upcast(type_: str, schema_version: int, payload: Payload) -> Payload:
    """`payload` of `type_` at `schema_version`, brought to the current schema version."""
    target = current_version(type_)
    if not isinstance(schema_version, int) or not 1 <= schema_version <= target:
        raise InvalidInput(
            "schema_version",
            f"{type_} has schema versions 1..{target}; got {schema_version!r}",
        )
    version = schema_version
    while version < target:
        step = UPCASTERS.get((type_, version))
        if step is None:
            raise InvalidInput(
                "schema_version", f"no upcaster from {type_} v{version} to v{version + 1}"
            )
        payload = step(payload)
        version += 1
    return payload
