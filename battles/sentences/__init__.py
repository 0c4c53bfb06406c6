"""Each battle event as a sentence for people: the writers are registered by event class
(one module per concept, as the events are), and every event class has one (checked as
this package is imported, and by tests/battles/test_pages.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle.events import EVENT_TYPES

# Importing the concept modules registers their sentences.
from . import actions, attacks, effects, gm, setup, turns, units  # noqa: F401
from .parts import (
    COMPONENT_NAMES,
    SENTENCES,
    Names,
    Part,
    Sentence,
    Writer,
    card_label,
    count,
    plain,
    sentence,
    t,
    wound_name,
)

_MISSING = set(EVENT_TYPES.values()) - set(SENTENCES)
assert not _MISSING, f"event types without a sentence: {sorted(c.__name__ for c in _MISSING)}"


def describe(type_: str, p: Mapping[str, Any], names: Names) -> Sentence:
    """One event as a sentence; `p` is the payload as the viewer may see it.

    >>> from battles.engine.cards import CardDef
    >>> n = Names({0: "Penitent Scout", 1: "Bastion Heavy"}, {0: "Ophelia"}, {})
    >>> plain(describe("CasketRotated", {"seat": 1, "facing": 2, "cost": 0, "free_used": True}, n))
    'Bastion Heavy turns to face NE (free turn, R-ARC-5)'
    >>> plain(describe("CardsDrawn", {"seat": 0, "cards": [None, None], "reason": "refresh",
    ...                               "rule": "R-TRN-6"}, n))
    'Penitent Scout draws 2 hidden cards (refresh, R-TRN-6)'
    """
    cls = EVENT_TYPES.get(type_)
    if cls is None or cls not in SENTENCES:
        raise KeyError(f"no sentence for event type {type_!r}")
    return SENTENCES[cls](p, names)


__all__ = [
    "COMPONENT_NAMES",
    "SENTENCES",
    "Names",
    "Part",
    "Sentence",
    "Writer",
    "card_label",
    "count",
    "describe",
    "plain",
    "sentence",
    "t",
    "wound_name",
]
