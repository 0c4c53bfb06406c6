"""The event base class, the bases of the events many card effects share, and the
declaration of who sees which of an event's fields.

Each event is a frozen dataclass whose fields are JSON values (tuples stand for
lists), so the event store's one codec (penance_site/eventstore/codec.py, registered
for battle streams in battles/codec.py) turns it into a stored row and back,
upcasting older schema versions with the upcasters of upcast.py.

Each event class declares, in `SHOWN`, which of its fields a viewer who may not see
everything (a player or a watcher while the battle runs, R-ADD-28) is given; a class
whose every field is public says so with `@public`. A field no declaration names is
withheld, and a class that declares nothing shows such a viewer only its type and its
seat: hidden information is private by default.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar


@dataclass(frozen=True, slots=True)
class Shown:
    """Who sees an event's fields while the battle runs (R-ADD-28).

    `everyone`: fields any viewer sees. `owners`: lists of hidden cards that only the
    seats named by the `owner_seats` fields see; another viewer gets as many Nones (how
    many cards is public, which ones is not). `nobody`: fields only the GM sees (a
    deck's order, a recorded state); another viewer gets None, and the length of the
    first under `count` when one is named.

    >>> s = Shown(everyone=("seat",), owners=("cards",))
    >>> s.redact({"seat": 0, "cards": ["a#1", "b#1"], "extra": 1}, {1})
    {'seat': 0, 'cards': [None, None]}
    >>> s.redact({"seat": 0, "cards": ["a#1"]}, {0})
    {'seat': 0, 'cards': ['a#1']}
    >>> Shown(everyone=("seat",), nobody=("order",), count="cards").redact(
    ...     {"seat": 0, "order": ["a#1", "b#1"]}, {0})
    {'seat': 0, 'order': None, 'cards': 2}
    """

    everyone: tuple[str, ...]
    owners: tuple[str, ...] = ()
    nobody: tuple[str, ...] = ()
    owner_seats: tuple[str, ...] = ("seat",)
    count: str | None = None

    @classmethod
    def secret_order(cls, *everyone: str) -> Shown:
        """A shuffled deck's declaration: its new `order` is the GM's alone, and another
        viewer learns how many `cards` it holds besides the fields `everyone` sees.

        >>> Shown.secret_order("seat").redact({"seat": 0, "order": ["a#1", "b#1"]}, {0})
        {'seat': 0, 'order': None, 'cards': 2}
        """
        return cls(everyone=everyone, nobody=("order",), count="cards")

    @property
    def fields(self) -> frozenset[str]:
        """Every field the declaration names."""
        return frozenset((*self.everyone, *self.owners, *self.nobody))

    def redact(self, payload: Mapping[str, Any], seats: Collection[int]) -> dict[str, Any]:
        """The payload as a viewer holding `seats` (and not seeing everything) may see it."""
        out = {k: payload[k] for k in self.everyone if k in payload}
        owner = any(payload.get(k) in seats for k in self.owner_seats)
        for k in self.owners:
            if k in payload:
                out[k] = list(payload[k]) if owner else [None] * len(payload[k])
        for k in self.nobody:
            if k in payload:
                out[k] = None
        if self.count is not None and self.nobody and self.nobody[0] in payload:
            out[self.count] = len(payload[self.nobody[0]])
        return out


# What an undeclared event shows a viewer who may not see everything: its seat alone.
UNDECLARED = Shown(everyone=("seat",))


@dataclass(frozen=True, slots=True)
class Event:
    SCHEMA_VERSION: ClassVar[int] = 1
    # GM adjustments are marked so an audit tells them from play.
    ADJUSTMENT: ClassVar[bool] = False
    # Each event class declares its own, or takes `public`'s every field
    # (tests/engine/test_event_visibility.py checks).
    SHOWN: ClassVar[Shown | None] = None

    @property
    def type(self) -> str:
        return type(self).__name__

    @classmethod
    def shown(cls) -> Shown:
        """The class's declaration, or UNDECLARED's seat alone."""
        return cls.SHOWN if cls.SHOWN is not None else UNDECLARED


# Card effects' events share their opening fields. A base's fields come first in the
# subclass's field list, hence in its stored payload: an event takes a base only when its
# own fields open with the base's, in the base's order.
@dataclass(frozen=True, slots=True)
class SourceOnSeat(Event):
    """What the card `source` (or the card instance in play) did to or for the casket at
    `seat`; the subclass's name says what, and the fields it adds follow these two."""

    seat: int
    source: str


@dataclass(frozen=True, slots=True)
class AmountOnSeat(Event):
    """`amount` of what the subclass's name says (damage, Defense, SP, a cost), for the
    casket at `seat`, because of the card `source`; the fields it adds follow these three."""

    seat: int
    amount: int
    source: str


_E = TypeVar("_E", bound=Event)


def public(cls: type[_E]) -> type[_E]:
    """Declare every field of the event class shown to everyone (R-ADD-28): its `SHOWN`
    names them all, in the order the class declares them. Goes above `@dataclass`.

    >>> @public
    ... @dataclass(frozen=True, slots=True)
    ... class Pinged(Event):
    ...     seat: int
    ...     at: tuple[int, int]
    >>> Pinged.SHOWN
    Shown(everyone=('seat', 'at'), owners=(), nobody=(), owner_seats=('seat',), count=None)
    """
    cls.SHOWN = Shown(everyone=tuple(f.name for f in fields(cls)))
    return cls
