"""What a viewer may see of a battle: the GM sees everything; a seat's player sees their
own hand; nobody sees a deck's order or another seat's hand while the battle runs
(R-ADD-28). After the battle everything is open, for replays."""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping
from typing import Any

from .events import EVENT_TYPES, UNDECLARED
from .snapshot import state_to_dict
from .state import BattleState


def public_payload(
    type_: str, payload: Mapping[str, Any], seats: Collection[int], *, full: bool
) -> dict[str, Any]:
    """`payload` as a viewer holding `seats` may see it; `full` (GM, or a finished battle)
    sees all. Everyone else gets what the event class declares (`Event.SHOWN`): an
    undeclared or unknown type shows only its seat (hidden information is private by
    default, R-ADD-28).

    >>> public_payload("DeckShuffled", {"seat": 0, "order": ["a#1", "b#1"]}, {1}, full=False)
    {'seat': 0, 'order': None, 'cards': 2}
    >>> public_payload("CardsDrawn", {"seat": 0, "cards": ["a#1"]}, {0}, full=False)
    {'seat': 0, 'cards': ['a#1']}
    >>> public_payload("NoSuchEvent", {"seat": 1, "cards": ["a#1"]}, {0}, full=False)
    {'seat': 1}
    """
    if full:
        return dict(payload)
    cls = EVENT_TYPES.get(type_)
    shown = cls.shown() if cls is not None else UNDECLARED
    return shown.redact(payload, seats)


def state_view(state: BattleState, seats: Collection[int], *, full: bool) -> dict[str, Any]:
    """The state as JSON for a viewer: derived figures added, hidden zones as counts.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> from battles.engine.battle.evolve import replay
    >>> v = state_view(replay(create("b", demo_setup())), {0}, full=False)
    >>> v["seats"][1]["hand"], len(v["seats"][0]["hand"]), v["seats"][0]["deck"]
    (None, 6, None)
    >>> v["seats"][1]["damage_pile"], v["seats"][1]["damage_pile_count"], v["seats"][1]["hp"]
    ([], 0, 24)
    >>> v["units"]
    []
    """
    d = state_to_dict(state, with_setup=False)
    d["active"] = state.active
    # Summoned units, on the board for everyone to see (R-ADD-400).
    d["units"] = [dataclasses.asdict(u) for u in state.units]
    d["over"] = state.over
    for c, out in zip(state.seats, d["seats"], strict=True):
        out["sp_left"] = c.sp_left
        out["sp_limit"] = c.sp_limit
        out["total_component_damage"] = c.total_component_damage
        # HP (R-DMG-9) and the damage pile, face up for everyone (R-DMG-8).
        out["hp"] = c.hp
        out["in_battle"] = c.in_battle
        for zone in ("deck", "hand", "discard", "damage_pile", "in_play", "removed", "wound_deck"):
            out[f"{zone}_count"] = len(getattr(c, zone))
        if not full:
            out["deck"] = None
            out["wound_deck"] = None
            if c.seat not in seats:
                out["hand"] = None
    return d
