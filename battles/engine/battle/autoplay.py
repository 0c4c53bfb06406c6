"""A simple greedy player that drives a battle through legal actions only.

It serves the demo battles (`load_demo`), the benchmarks and the tests that need a
battle played to its end. It never bypasses the rules: every command it sends is
one `legal_actions` listed and `decide` accepted.

>>> from battles.engine.demo import demo_setup
>>> from battles.engine.battle.decide import create
>>> events = create("b", demo_setup(seed=2))
>>> more = play(events, commands=20, seed=2)
>>> len(more.events) > 0 and len(more.bodies) == 20
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from ..arcs import in_firing_arc
from ..hexes import Hex
from .commands import parse_command
from .decide import decide
from .events import Event
from .evolve import evolve, replay
from .legal import LegalAction, legal_actions
from .stalemate import stalemate
from .state import BattleState


@dataclass
class Played:
    """What `play` did: the command bodies sent, the events they caused, the final state."""

    bodies: list[dict[str, Any]] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    state: BattleState | None = None


def _expected(action: LegalAction) -> float:
    p = action.preview or {}
    odds = p.get("odds") or {}
    hit = float(odds.get("hit_percent", 0.0))
    damage = (p.get("damage") or {}).get("by_result", {}).get("hit", 0)
    return hit * (1 + float(damage))


def choose(state: BattleState, actions: list[LegalAction], rng: random.Random) -> dict[str, Any]:
    """The greedy choice: answer prompts defensively, attack when the odds are best, close
    to a distance one of its weapons reaches, turn to face the enemy (R-ARC-3), play a
    utility card now and then, otherwise pass. It never withdraws: it plays to win."""
    by_type: dict[str, list[LegalAction]] = {}
    for a in actions:
        by_type.setdefault(a.body["type"], []).append(a)
    for kind in ("play_reactive", "keep_hand", "take_damage", "discard_down"):
        if kind in by_type:
            return by_type[kind][0].body
    # Playing every seat, the autoplayer is the GM too: it confirms a stalemate the engine
    # found and ends the battle in a draw (R-ADD-40, R-TRN-9).
    reason = stalemate(state)
    if reason is not None:
        return {"type": "end_battle", "side": None, "reason": reason}
    attacks = by_type.get("attack", [])
    # Overspending on an attack costs cards from the deck to the discard pile, not HP
    # (R-TRN-3, R-DMG-8): worth it when no attack is free.
    free = [a for a in attacks if "pay" not in a.body]
    if free or attacks:
        return max(free or attacks, key=_expected).body
    if state.active is None:
        return actions[0].body
    me = state.seats[state.active]
    enemies = [c for c in state.seats if c.side != me.side and c.in_battle]
    nearest = min(enemies, key=lambda c: me.at.distance(c.at)) if enemies else me
    if enemies:
        target = nearest
        gap = me.at.distance(target.at)
        # Close to the reach of the shortest weapon in hand.
        reaches = [
            card.attack.range.low
            for card in (state.card(x) for x in me.hand)
            if card.attack is not None
        ]
        want = min(reaches, default=2)
        moves = [a for a in by_type.get("move", []) if "pay" not in a.body]

        def after(a: LegalAction) -> int:
            return abs(Hex(*a.body["path"][-1]).distance(target.at) - want)

        better = [a for a in moves if after(a) < abs(gap - want)]
        if better:
            return min(better, key=after).body
    # Manual cards too: a demo table resolves their text by hand.
    cards = [a for a in by_type.get("play_card", []) if "pay" not in a.body]
    if cards and rng.random() < 0.7:
        return rng.choice(cards).body
    rotations = [a for a in by_type.get("rotate", []) if "pay" not in a.body]
    if rotations and not me.free_rotation_used:
        # Face the nearest enemy when it is out of the firing arc (R-ARC-3); else turn
        # at random, which keeps a standoff from repeating itself.
        facing = [
            a for a in rotations if enemies and in_firing_arc(me.at, a.body["facing"], nearest.at)
        ]
        if facing and not in_firing_arc(me.at, me.facing, nearest.at):
            return facing[0].body
        return rng.choice(rotations).body
    for kind in ("pass", "no_reactive"):
        if kind in by_type:
            return by_type[kind][0].body
    return actions[0].body


def greedy_commands(
    state: BattleState,
    *,
    seed: int = 0,
    chooser: Callable[[BattleState, list[LegalAction], random.Random], dict[str, Any]] = choose,
) -> Iterator[tuple[dict[str, Any], list[Event], BattleState]]:
    """The autoplayer's commands one at a time until the battle is over: each command's
    body, the events `decide` gave it and the state after them.

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> body, events, after = next(greedy_commands(replay(create("b", demo_setup(seed=2)))))
    >>> after.version == replay(create("b", demo_setup(seed=2))).version + len(events)
    True
    """
    rng = random.Random(seed)
    while not state.over:
        body = chooser(state, list(legal_actions(state)), rng)
        events = decide(state, parse_command(body))
        for event in events:
            state = evolve(state, event)
        yield body, events, state


def play(
    events: list[Event],
    *,
    commands: int,
    seed: int = 0,
    chooser: Callable[[BattleState, list[LegalAction], random.Random], dict[str, Any]] = choose,
) -> Played:
    """Send up to `commands` commands to the battle `events` describe, or until it is over."""
    start = replay(events)
    out = Played(state=start)
    for body, new, state in islice(greedy_commands(start, seed=seed, chooser=chooser), commands):
        out.bodies.append(body)
        out.events.extend(new)
        out.state = state
    return out
