"""Summoned units (R-ADD-400 to R-ADD-405): a unit placed on a free hex, its move and its
melee attack in its owner's turn, and a casket's attack card used against it."""

from __future__ import annotations

from ...arcs import in_firing_arc
from ...cards import CardDef, SummonEffect
from ...errors import RuleViolation
from ...hexes import Hex
from ...los import line_of_sight
from ...movement import validate_path
from .. import events as ev
from ..commands import StrikeUnit, UnitAttack, UnitMove
from ..state import BattleState, CasketState, Unit
from . import costs, piles, resolution, targeting
from .tx import _Tx


def free_hexes(state: BattleState, around: Hex, within: int) -> list[Hex]:
    """The hexes a unit may be summoned on within `within` of `around`, nearest first (then
    by q and r): on the board, not impassable, no casket in the battle and no unit on it
    (R-ADD-400).

    >>> from battles.engine.demo import demo_setup
    >>> from battles.engine.battle.decide import create
    >>> from battles.engine.battle.evolve import replay
    >>> s = replay(create("b", demo_setup()))
    >>> h = free_hexes(s, s.seats[0].at, 1)
    >>> len(h) <= 6 and all(x.distance(s.seats[0].at) == 1 for x in h)
    True
    """
    taken = {c.at for c in state.seats if c.in_battle} | {u.at for u in state.units}
    return sorted(
        (
            h
            for h in state.board.cells
            if 0 < h.distance(around) <= within
            and h not in taken
            and not state.board.terrain_at(h).impassable
        ),
        key=lambda h: (h.distance(around), h.q, h.r),
    )


def _summon(
    tx: _Tx, seat: int, source: str, card: CardDef, effect: SummonEffect, place: Hex | None
) -> None:
    """R-ADD-400: the card's unit on `place`, a free hex within its range of the player's
    casket, or, with none named, on the nearest such hex; a card's `limit` of such units
    at once is checked first."""
    s = tx.state
    c = tx.seat(seat)
    mine = [u for u in s.units if u.owner == seat and u.name == effect.name]
    if effect.limit and len(mine) >= effect.limit:
        raise RuleViolation(
            "summon_limit",
            f"{card.name}: at most {effect.limit} {effect.name} unit(s) at once; "
            f"{len(mine)} on the board",
            "R-ADD-400",
        )
    free = free_hexes(s, c.at, effect.within)
    if place is None:
        if not free:
            raise RuleViolation(
                "no_free_hex",
                f"{card.name}: no free hex within {effect.within} of the casket",
                "R-ADD-400",
            )
        place = free[0]
    elif place not in free:
        raise RuleViolation(
            "summon_hex",
            f"{card.name} summons on a free hex within {effect.within} of the casket: "
            f"[{place.q}, {place.r}] is not one",
            "R-ADD-400",
        )
    tx.emit(
        ev.UnitSummoned(
            seat,
            f"u{s.units_summoned + 1}",
            effect.name,
            (place.q, place.r),
            effect.hp,
            effect.movement,
            effect.damage,
            effect.defence,
            source,
        )
    )


def _own_unit(tx: _Tx, seat: int, unit_id: str) -> Unit:
    unit = tx.state.unit(unit_id)
    if unit is None or unit.owner != seat:
        raise RuleViolation(
            "no_such_unit", f"seat {seat} has no unit {unit_id!r} on the board", "R-ADD-400"
        )
    return unit


def _unit_move(tx: _Tx, c: CasketState, command: UnitMove) -> None:
    """R-ADD-401: once a turn, up to its movement; each step as a casket's (R-MOV-2,
    R-MOV-3, R-LOS-5): through its own side's caskets and units, never an enemy's."""
    s = tx.state
    unit = _own_unit(tx, c.seat, command.unit)
    if unit.moved:
        raise RuleViolation(
            "unit_moved", f"unit {unit.id} has made its move this turn", "R-ADD-401"
        )
    allies = [c.at, *(h for h in s.ally_hexes(c) if h != unit.at)]
    cost = validate_path(s.board, unit.at, command.path, allies=allies, enemies=s.blocking_hexes(c))
    if cost > unit.movement:
        raise RuleViolation(
            "path_too_long",
            f"unit {unit.id} ({unit.name}) moves {unit.movement} hex(es) a turn; "
            f"this path costs {cost}",
            "R-ADD-401",
        )
    tx.emit(ev.UnitMoved(c.seat, unit.id, tuple((h.q, h.r) for h in command.path)))


def _unit_attack(tx: _Tx, c: CasketState, command: UnitAttack) -> None:
    """R-ADD-401: once a turn, an adjacent enemy casket, for its printed damage: a hit, no
    roll, taken as damage without an attack (R-DMG-6, the defender's split)."""
    unit = _own_unit(tx, c.seat, command.unit)
    if unit.attacked:
        raise RuleViolation(
            "unit_attacked", f"unit {unit.id} has made its attack this turn", "R-ADD-401"
        )
    if not 0 <= command.target < len(tx.state.seats):
        raise RuleViolation("no_such_seat", f"no seat {command.target}", "R-ADD-401")
    d = tx.seat(command.target)
    if d.side == c.side or not d.in_battle:
        raise RuleViolation(
            "not_an_enemy", f"seat {d.seat} is not an enemy in the battle", "R-ADD-401"
        )
    if unit.at.distance(d.at) != 1:
        raise RuleViolation(
            "out_of_range",
            f"unit {unit.id} attacks in melee: seat {d.seat} is "
            f"{unit.at.distance(d.at)} hexes away",
            "R-ADD-401",
        )
    if d.untargetable == "all":  # a unit's attack is melee: "ranged" lets it through
        raise RuleViolation(
            "untargetable", f"a card keeps seat {d.seat} from being targeted", "R-ADD-155"
        )
    if unit.damage <= 0:
        raise RuleViolation("no_damage", f"unit {unit.id} deals no damage", "R-ADD-401")
    tx.emit(ev.UnitAttacked(c.seat, unit.id, d.seat, unit.damage))
    resolution._inflict(tx, d.seat, unit.damage, None, f"{unit.name} ({unit.id}) hits")


def _strike_unit(tx: _Tx, c: CasketState, command: StrikeUnit) -> None:
    """R-ADD-404: an attack card from the hand against an enemy's unit within its printed
    range, in sight (and in the firing arc when ranged, R-ARC-3): its printed damage less
    the unit's Defense, no roll; its SP and token costs paid; its other effects, which
    name caskets, do nothing."""
    s = tx.state
    unit = s.unit(command.unit)
    if unit is None or s.seats[unit.owner].side == c.side:
        raise RuleViolation(
            "no_such_unit", f"no enemy unit {command.unit!r} on the board", "R-ADD-404"
        )
    instance = piles._hand_cards(c, [command.card], "card", "R-TRN-5")[0]
    card = s.card(instance)
    attack = card.attack
    if attack is None or card.kind == "reactive":
        raise RuleViolation(
            "not_an_attack", f"{card.name} is not an attack card of the own turn", "R-ADD-404"
        )
    if c.no_attacks:
        raise RuleViolation("no_attacks", "a card keeps this casket from attacking", "R-ADD-115")
    costs._check_card_kind(c, card)
    costs._check_limit(c, card)
    costs._check_token_cost(tx, c.seat, card)
    distance = c.at.distance(unit.at)
    if not attack.range.contains(distance):
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {attack.range.text}; unit {unit.id} is {distance} hexes away",
            "R-RNG-2",
        )
    others = [x.at for x in s.seats if x.in_battle and x.seat != c.seat]
    if not line_of_sight(s.board, c.at, unit.at, others).clear:
        raise RuleViolation("no_line_of_sight", f"unit {unit.id} is not in sight", "R-LOS-1")
    if targeting._ranged(card) and not in_firing_arc(c.at, c.facing, unit.at):
        raise RuleViolation("out_of_arc", f"unit {unit.id} is outside the firing arc", "R-ARC-3")
    costs._pay(tx, c, card.sp_cost, command.pay, exclude=[instance])
    tx.emit(ev.CardPlayed(c.seat, instance, card.sp_cost, False))
    costs._pay_tokens(tx, c.seat, card)
    amount = max(0, attack.damage - unit.defence)
    tx.emit(ev.UnitDamaged(c.seat, unit.id, amount, max(0, unit.hp - amount), instance))
    tx.emit(ev.CardResolved(c.seat, instance))
