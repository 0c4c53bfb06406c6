"""The GM's controls: adjustments, reverts, and the dice secret revealed at the end."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from .base import Event, Shown


@dataclass(frozen=True, slots=True)
class CasketWithdrew(Event):
    """The seat's player withdrew the casket at the start of its turn: it leaves the board,
    is not defeated, and its pilot makes no survival roll (R-TRN-9)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "rule"))
    seat: int
    rule: str


@dataclass(frozen=True, slots=True)
class BattleEnded(Event):
    """The GM ended the battle: a winning side, or None for a draw, and why (R-TRN-9)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("side", "reason", "rule"))
    ADJUSTMENT: ClassVar[bool] = True
    side: str | None
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class TaintAdjusted(Event):
    """The GM set the pilot's Taint, with a reason (R-PLT-4)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "taint", "reason"))
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    taint: int
    reason: str


@dataclass(frozen=True, slots=True)
class TaintOverloaded(Event):
    """Taint reached 10: the pilot rolled 1d6 and takes `wounds` (R-PLT-3, R-ADD-44)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "taint", "face", "wounds"))
    seat: int
    taint: int
    face: int
    wounds: int


@dataclass(frozen=True, slots=True)
class HeatAdjusted(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "heat", "reason"))
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    heat: int
    reason: str


@dataclass(frozen=True, slots=True)
class ComponentDamageAdjusted(Event):
    SHOWN: ClassVar[Shown] = Shown(
        everyone=("seat", "component", "amount", "total", "destroyed", "reason")
    )
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    component: str
    amount: int
    total: int
    destroyed: bool
    reason: str


@dataclass(frozen=True, slots=True)
class CasketRelocated(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "at", "facing", "reason"))
    ADJUSTMENT: ClassVar[bool] = True
    seat: int
    at: tuple[int, int]
    facing: int
    reason: str


@dataclass(frozen=True, slots=True)
class CardReturned(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "card", "from_zone", "reason"))
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


@dataclass(frozen=True, slots=True)
class DiceSecretRevealed(Event):
    """The battle's dice secret, in hex, recorded with the event that ends the battle: its
    SHA-256 is the commitment in BattleCreated's setup, and every roll and shuffle since
    creation derives from it (R-ADD-45)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("secret",))
    secret: str
