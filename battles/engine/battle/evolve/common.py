"""What every event handler uses: a seat changed, cards taken out of a zone."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ..state import (
    BattleState,
)
from ..state import with_changes as replace


def _without(zone: tuple[str, ...], cards: Iterable[str]) -> tuple[str, ...]:
    gone = list(cards)
    out = list(zone)
    for c in gone:
        out.remove(c)
    return tuple(out)


def _seat(state: BattleState, n: int, **changes: Any) -> BattleState:
    seats = list(state.seats)
    seats[n] = replace(seats[n], **changes)
    return replace(state, seats=tuple(seats))


# A handler takes the state (None only before BattleCreated) and the one event type it is
# registered for, and returns the state after it.
Handler = Callable[[Any, Any], BattleState]
