"""Events of summoned units: summoned, moved, attacking, damaged and destroyed (R-ADD-400 to
R-ADD-404). Pure: the rules were checked when the events were decided."""

from __future__ import annotations

from .. import events as ev
from ..state import BattleState, Unit
from ..state import with_changes as replace
from .common import Handler


def _changed(s: BattleState, unit: str, **changes: object) -> BattleState:
    return replace(s, units=tuple(replace(u, **changes) if u.id == unit else u for u in s.units))


def _summoned(s: BattleState, e: ev.UnitSummoned) -> BattleState:
    q, r = e.at
    made = Unit(e.unit, e.seat, e.name, q, r, e.hp, e.movement, e.damage, e.defence, e.source)
    return replace(s, units=(*s.units, made), units_summoned=s.units_summoned + 1)


def _moved(s: BattleState, e: ev.UnitMoved) -> BattleState:
    q, r = e.path[-1]
    if e.by_card is not None:  # R-ADD-409: a card's order leaves its own move
        return _changed(s, e.unit, q=q, r=r)
    return _changed(s, e.unit, q=q, r=r, moved=True)


def _attacked(s: BattleState, e: ev.UnitAttacked) -> BattleState:
    if e.by_card is not None:  # R-ADD-409: a card's order leaves its own attack
        return s
    return _changed(s, e.unit, attacked=True)


def _boosted(s: BattleState, e: ev.UnitsBoosted) -> BattleState:
    # R-ADD-408: a later card's bonus replaces an earlier one's, never stacks with it
    for unit in e.units:
        s = _changed(
            s,
            unit,
            bonus_damage=e.damage,
            bonus_defence=e.defence,
            bonus_until_round=e.until_round,
        )
    return s


def _damaged(s: BattleState, e: ev.UnitDamaged) -> BattleState:
    if e.hp <= 0:  # R-ADD-404: destroyed, it leaves the board at once
        return replace(s, units=tuple(u for u in s.units if u.id != e.unit))
    return _changed(s, e.unit, hp=e.hp)


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.UnitSummoned: _summoned,
    ev.UnitMoved: _moved,
    ev.UnitAttacked: _attacked,
    ev.UnitDamaged: _damaged,
    ev.UnitsBoosted: _boosted,
}
