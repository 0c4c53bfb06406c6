"""The turn's flow: rounds, initiative, Refresh, strain, the ends of turns and the winner."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Event, Shown


@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("round",))
    round: int


@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Every roll, re-rolls of ties included, as (seat, face) per throw; then the order (R-TRN-2)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("throws", "order"))
    throws: tuple[tuple[tuple[int, int], ...], ...]
    order: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat",))
    seat: int


@dataclass(frozen=True, slots=True)
class SpRestored(Event):
    """SP set to this turn's maximum; `lines` itemise it as (label, value, rule) (R-TRN-3)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "sp_max", "lines"))
    seat: int
    sp_max: int
    lines: tuple[tuple[str, int, str], ...]


@dataclass(frozen=True, slots=True)
class StrainChecked(Event):
    """The Refresh heat check (R-TRN-4); its consequences follow as their own events."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "heat", "roll", "total", "outcome"))
    seat: int
    heat: int
    roll: int | None
    total: int | None
    outcome: str


@dataclass(frozen=True, slots=True)
class SpDrained(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat", "amount", "rule"))
    seat: int
    amount: int
    rule: str


@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("seat",))
    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    SHOWN: ClassVar[Shown] = Shown(everyone=("round",))
    round: int


@dataclass(frozen=True, slots=True)
class BattleWon(Event):
    """The battle is over; `side` None is a draw (every casket defeated) (R-TRN-8)."""

    SHOWN: ClassVar[Shown] = Shown(everyone=("side", "reason", "rule"))
    side: str | None
    reason: str
    rule: str
