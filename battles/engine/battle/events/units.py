"""Summoned units: a unit a card put on the board, its moves and attacks, the damage it
takes (R-ADD-400 to R-ADD-404). Everything about a unit is on the board: every field is
everyone's to see."""

from __future__ import annotations

from dataclasses import dataclass

from .base import Event, public


@public
@dataclass(frozen=True, slots=True)
class UnitSummoned(Event):
    """Seat `seat`'s card `source` put unit `unit`, `name`, on hex `at` with its printed
    stats: `hp` (a counter, not a deck), `movement` hexes and `damage` a melee attack, and
    `defence` (R-ADD-400).

    >>> UnitSummoned(0, "u1", "Mercenary", (1, 0), 8, 3, 3, 0, "hire-mercenary#1").type
    'UnitSummoned'
    """

    seat: int
    unit: str
    name: str
    at: tuple[int, int]
    hp: int
    movement: int
    damage: int
    defence: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class UnitMoved(Event):
    """Seat `seat`'s unit `unit` moved along `path`: its move of the turn (R-ADD-401), or
    one the card `by_card` ordered, which leaves its own move to make (R-ADD-409)."""

    seat: int
    unit: str
    path: tuple[tuple[int, int], ...]
    by_card: str | None = None


@public
@dataclass(frozen=True, slots=True)
class UnitAttacked(Event):
    """Seat `seat`'s unit `unit` made its melee attack of the turn on seat `target`: a hit
    of `damage`, no roll; the casket takes it as damage without an attack (R-ADD-401); or
    one the card `by_card` ordered, which leaves its own attack to make (R-ADD-409)."""

    seat: int
    unit: str
    target: int
    damage: int
    by_card: str | None = None  # the card that ordered it (R-ADD-409)


@public
@dataclass(frozen=True, slots=True)
class UnitDamaged(Event):
    """Seat `seat`'s attack card `source` hit unit `unit` for `amount` after its Defense;
    `hp` is left, and at 0 the unit is destroyed and leaves the board (R-ADD-404)."""

    seat: int
    unit: str
    amount: int
    hp: int
    source: str


@public
@dataclass(frozen=True, slots=True)
class UnitsBoosted(Event):
    """Seat `seat`'s card `source` gave its units `units` +`damage` damage and +`defence`
    Defense until the end of round `until_round` (R-ADD-408).

    >>> UnitsBoosted(0, ("u1",), 2, 2, 1, "contract-enforcement#1").until_round
    1
    """

    seat: int
    units: tuple[str, ...]
    damage: int
    defence: int
    until_round: int
    source: str
