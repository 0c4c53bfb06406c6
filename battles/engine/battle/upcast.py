"""Event schema evolution: stored events keep the schema they were written with.

When an event type's fields change, its class gets a higher `SCHEMA_VERSION` and an
upcaster is registered here that turns a payload of the old version into the next
one. The event store's codec (penance_site/eventstore/codec.py) applies them in a
chain when it reads, so a battle recorded years ago replays through today's
`evolve` (docs/BATTLES.md, "Event schema evolution").

>>> UPCASTERS.get(("TurnEnded", 1)) is None
True
>>> UPCASTERS[("AttackDeclared", 1)]({"attacker": 0})
{'attacker': 0, 'enhanced_by': [], 'further': False}
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

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


@register("AttackDeclared", 1)
def _attack_declared_v1(payload: Payload) -> Payload:
    """Combinations: an attack stored before R-ADD-180 and R-ADD-187 spent no
    enhancement carrying hit effects and was never told apart as a further attack."""
    return {**payload, "enhanced_by": [], "further": False}
