"""`evolve(state, event) -> state`: pure, never validates, never rolls.

Every decision was made by `decide` and every random outcome is inside the event,
so replaying a battle is a fold of this function over its events.

The handlers live in one module per concept (`flow`, `piles`, `moves`, `attacks`, `harm`,
`statuses`, `units`), each with its `HANDLERS`; `_HANDLERS` merges them and an import-time check
makes its keys exactly the event types.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import events as ev
from ..state import SETUP, BattleState
from ..state import with_changes as replace
from . import attacks, flow, harm, moves, piles, statuses, units
from .common import Handler

_GROUPS = (flow, piles, moves, attacks, harm, statuses, units)
_HANDLERS: dict[type[ev.Event], Handler] = {
    event: handler for group in _GROUPS for event, handler in group.HANDLERS.items()
}
assert sum(len(group.HANDLERS) for group in _GROUPS) == len(_HANDLERS), (
    "an event has handlers in two evolve modules"
)
assert set(_HANDLERS) == set(ev.EVENT_TYPES.values()), (
    "event types without a handler in one evolve module's HANDLERS (evolve/<concept>.py), "
    "or handlers of no type in events.EVENT_TYPES: "
    f"{sorted(c.__name__ for c in set(_HANDLERS) ^ set(ev.EVENT_TYPES.values()))}"
)


def evolve(state: BattleState | None, event: ev.Event) -> BattleState:
    """The state after one more event; `state` is None only before BattleCreated.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.setup import parse_setup
    >>> s = evolve(None, ev.BattleCreated("b1", parse_setup(demo_setup()), "1.0.0"))
    >>> s.version, s.phase, len(s.seats[0].deck)
    (1, 'setup', 30)
    """
    handler = _HANDLERS[type(event)]
    if state is None and not isinstance(event, ev.BattleCreated):
        raise ValueError(f"a battle's first event is BattleCreated, not {event.type}")
    new = handler(state, event)
    version = (0 if state is None else state.version) + 1
    if new is state:
        return replace(new, version=version)
    # `new` was built for this event alone and nobody holds it yet: set its version in
    # place rather than copying the whole state once more (replay's hot path).
    object.__setattr__(new, "version", version)
    return new


def replay(events: Iterable[ev.Event], state: BattleState | None = None) -> BattleState:
    """Fold `events` over `state` (None: from the beginning).

    >>> replay([])
    Traceback (most recent call last):
    ...
    ValueError: no events to replay
    """
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("no events to replay")
    return state


__all__ = ["SETUP", "evolve", "replay"]
