"""The turn's flow: rounds, initiative, Refresh, strain, the ends of turns and the winner."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Event, public


@public
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int


@public
@dataclass(frozen=True, slots=True)
class InitiativeRolled(Event):
    """Every roll, re-rolls of ties included, as (seat, face) per throw; then the order (R-TRN-2)."""

    throws: tuple[tuple[tuple[int, int], ...], ...]
    order: tuple[int, ...]


@public
@dataclass(frozen=True, slots=True)
class TurnStarted(Event):
    seat: int


@public
@dataclass(frozen=True, slots=True)
class SpRestored(Event):
    """SP set to this turn's maximum; `lines` itemise it as (label, value, rule) (R-TRN-3)."""

    seat: int
    sp_max: int
    lines: tuple[tuple[str, int, str], ...]


@public
@dataclass(frozen=True, slots=True)
class StrainChecked(Event):
    """The Refresh heat check (R-TRN-4); its consequences follow as their own events."""

    seat: int
    heat: int
    roll: int | None
    total: int | None
    outcome: str


@public
@dataclass(frozen=True, slots=True)
class SpDrained(Event):
    seat: int
    amount: int
    rule: str


@public
@dataclass(frozen=True, slots=True)
class TurnEnded(Event):
    seat: int


@public
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    round: int


@public
@dataclass(frozen=True, slots=True)
class BattleWon(Event):
    """The battle is over; `side` None is a draw (every casket defeated) (R-TRN-8)."""

    side: str | None
    reason: str
    rule: str
