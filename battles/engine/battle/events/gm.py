"""The GM's controls: adjustments, reverts, and the dice secret revealed at the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Event, Shown, public


@public
@dataclass(frozen=True, slots=True)
class CasketWithdrew(Event):
    """The seat's player withdrew the casket at the start of its turn: it leaves the board,
    is not defeated, and its pilot makes no survival roll (R-TRN-9)."""

    seat: int
    rule: str


@public
@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The GM ended the battle: a winning side, or None for a draw, and why (R-TRN-9)."""

    ADJUSTMENT: ClassVar[bool] = True
    side: str | None
    reason: str
    rule: str


@public
@dataclass(frozen=True, slots=True)
class TaintAdjusted(Event):
    """The GM set the pilot's Taint, with a reason (R-PLT-4)."""

    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    taint: int
    reason: str


@public
@dataclass(frozen=True, slots=True)
class TaintOverloaded(Event):
    """Taint reached 10: the pilot rolled 1d6 and takes `wounds` (R-PLT-3, R-ADD-44)."""

    seat: int
    taint: int
    face: int
    wounds: int


@public
@dataclass(frozen=True, slots=True)
class HeatAdjusted(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    heat: int
    reason: str


@public
@dataclass(frozen=True, slots=True)
class ComponentDamageAdjusted(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    component: str
    amount: int
    total: int
    destroyed: bool
    reason: str


@public
@dataclass(frozen=True, slots=True)
class CasketRelocated(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    at: tuple[int, int]
    facing: int
    reason: str


@public
@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    card: str
    from_zone: str
    reason: str


@dataclass(frozen=True, slots=True)
class CommandReverted(Event):
    """Compensation for one earlier command: the state it left is replaced by the state
    before it (`state`, as state_to_dict wrote it). The reverted events stay in the log."""

    SHOWN: ClassVar[Shown] = Shown(
        everyone=("command_id", "from_version", "to_version", "reason"), nobody=("state",)
    )
    ADJUSTMENT: ClassVar[bool] = True
    command_id: str
    from_version: int
    to_version: int
    state: Mapping[str, Any]
    reason: str


@public
@dataclass(frozen=True, slots=True)
class DiceSecretRevealed(Event):
    """The battle's dice secret, in hex, recorded with the event that ends the battle: its
    SHA-256 is the commitment in BattleCreated's setup, and every roll and shuffle since
    creation derives from it (R-ADD-45)."""

    secret: str
