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


def _free_move_gone(state: BattleState, n: int) -> BattleState:
    """Seat `n` has no free move left (R-ADD-69: used; R-ADD-344: its round ended)."""
    return _seat(
        state,
        n,
        free_move=0,
        free_move_source=None,
        free_move_split=False,
        free_move_stage=0,
    )


# A handler takes the state (None only before BattleCreated) and the one event type it is
# registered for, and returns the state after it.
Handler = Callable[[Any, Any], BattleState]
