"""What a finished battle leaves behind, as one typed value (R-TRN-8, R-PLT-5).

A campaign applies a battle's outcome to its pilots and caskets; it reads this value,
built from the battle's own events, instead of digging in stored payloads.

>>> from battles.engine.battle.decide import create
>>> from battles.engine.demo import demo_setup
>>> battle_outcome(create("b1", demo_setup(seed=3)))
Traceback (most recent call last):
...
battles.engine.errors.RuleViolation: battle b1 has not ended; its outcome waits (R-PLT-5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..dice import COMPONENTS
from ..errors import RuleViolation
from . import events as ev
from .evolve import replay
from .state import PERSISTENT_TOKENS

# The event that closes a battle's stream: after it, the battle is over (R-TRN-8).
FINAL_EVENT_TYPES = frozenset({"BattleWon", "BattleEnded"})


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """One seat at the battle's end: the pilot's face-up wounds (carried ones first,
    R-PLT-2), whether they died, the casket's fate, the damage cards it lost and its
    Component Damage by component (R-DMG-7)."""

    seat: int
    player: str
    side: str
    pilot: str
    wounds: tuple[str, ...]
    pilot_dead: bool
    defeated: bool
    withdrawn: bool  # left the battle at the start of its turn, not defeated (R-TRN-9)
    damage_taken: int
    component_damage: tuple[tuple[str, int], ...]
    # R-ADD-275: the Taint cards changed on this seat's pilot in the battle (R-ADD-66), net:
    # the campaign's pilot takes it over once, with the outcome.
    card_taint: int = 0
    # R-ADD-305: the severe wounds a Grit check eased (they count as minor this mission)
    # and the Grit checks rolled (the campaign spends a one-check bonus once one was).
    eased_wounds: tuple[str, ...] = ()
    grit_checks: int = 0
    # R-ADD-306: every persistent token pool (PERSISTENT_TOKENS) and the count the seat
    # holds at the end, 0 included (tokens spent in the battle are gone for the campaign).
    tokens: tuple[tuple[str, int], ...] = ()
    # R-ADD-411: Grit the pilot gained in the battle ("gain +1 Grit permanently"), which
    # the campaign's pilot takes over once, with the outcome.
    grit_gained: int = 0


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    battle_id: str
    winner: str  # the winning side; "" for a draw
    result: str  # why the battle ended
    round: int
    seats: tuple[SeatOutcome, ...]
    component_threshold: int  # R-DMG-7: damage at which a component is destroyed
    taint_exploitation: bool  # ruleset options a campaign applies (R-PLT-4, R-PLT-5)
    persistent_component_damage: bool


def ends_battle(event_type: str) -> bool:
    """Whether an event of this type closes its battle's stream.

    >>> ends_battle("BattleWon"), ends_battle("BattleEnded"), ends_battle("TurnEnded")
    (True, True, False)
    """
    return event_type in FINAL_EVENT_TYPES


def battle_outcome(events: Sequence[ev.Event]) -> BattleOutcome:
    """The outcome of the battle these events (all of them, in order) recorded; a battle
    still running has none (RuleViolation `battle_not_over`, R-PLT-5)."""
    state = replay(events)
    if not state.over:
        raise RuleViolation(
            "battle_not_over",
            f"battle {state.battle_id} has not ended; its outcome waits",
            "R-PLT-5",
        )
    taken = [0] * len(state.seats)
    tainted = [0] * len(state.seats)
    for e in events:
        if isinstance(e, ev.DamageTaken):
            taken[e.seat] += len(e.from_hand) + len(e.from_deck)
        elif isinstance(e, ev.TaintChanged):  # a card's, not a GM adjustment (R-ADD-66)
            tainted[e.seat] += e.amount
    return BattleOutcome(
        battle_id=state.battle_id,
        winner=state.winner or "",
        result=state.result or "",
        round=state.round,
        seats=tuple(
            SeatOutcome(
                seat=c.seat,
                player=c.player,
                side=c.side,
                pilot=c.pilot,
                wounds=c.wounds,
                pilot_dead=c.pilot_dead,
                defeated=c.defeated,
                withdrawn=c.withdrawn,
                damage_taken=taken[c.seat],
                component_damage=tuple(zip(COMPONENTS, c.component_damage, strict=True)),
                card_taint=tainted[c.seat],
                eased_wounds=c.eased_wounds,
                grit_checks=c.grit_checks,
                grit_gained=c.grit_gained,
                tokens=tuple((pool, c.tokens_of(pool)) for pool in PERSISTENT_TOKENS),
            )
            for c in state.seats
        ),
        component_threshold=int(state.ruleset.option("component_threshold")),
        taint_exploitation=bool(state.ruleset.option("taint_exploitation")),
        persistent_component_damage=bool(state.ruleset.option("persistent_component_damage")),
    )
