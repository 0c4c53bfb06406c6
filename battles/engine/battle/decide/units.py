"""Summoned units (R-ADD-400 to R-ADD-405): a unit placed on a free hex, its move and its
melee attack in its owner's turn, and a casket's attack card used against it."""

from __future__ import annotations

from collections.abc import Sequence

from ...arcs import in_firing_arc
from ...cards import CardDef, SummonEffect, UnitBoostEffect, UnitOrderEffect
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
    """R-ADD-401: once a turn, up to its movement."""
    unit = _own_unit(tx, c.seat, command.unit)
    if unit.moved:
        raise RuleViolation(
            "unit_moved", f"unit {unit.id} has made its move this turn", "R-ADD-401"
        )
    _check_path(tx, c, unit, command.path, unit.movement)
    tx.emit(ev.UnitMoved(c.seat, unit.id, tuple((h.q, h.r) for h in command.path)))


def _check_path(tx: _Tx, c: CasketState, unit: Unit, path: Sequence[Hex], budget: int) -> None:
    """R-ADD-401: each step as a casket's (R-MOV-2, R-MOV-3, R-LOS-5): through its own
    side's caskets and units, never an enemy's; the path's cost within `budget` hexes."""
    s = tx.state
    allies = [c.at, *(h for h in s.ally_hexes(c) if h != unit.at)]
    cost = validate_path(s.board, unit.at, path, allies=allies, enemies=s.blocking_hexes(c))
    if cost > budget:
        raise RuleViolation(
            "path_too_long",
            f"unit {unit.id} ({unit.name}) moves {budget} hex(es) here; this path costs {cost}",
            "R-ADD-401",
        )


def _unit_attack(tx: _Tx, c: CasketState, command: UnitAttack) -> None:
    """R-ADD-401: once a turn, an adjacent enemy casket, for its printed damage."""
    unit = _own_unit(tx, c.seat, command.unit)
    if unit.attacked:
        raise RuleViolation(
            "unit_attacked", f"unit {unit.id} has made its attack this turn", "R-ADD-401"
        )
    _hit(tx, c, unit, command.target, unit.attack_damage, None)


def _hit(
    tx: _Tx, c: CasketState, unit: Unit, target: int, damage: int, by_card: str | None
) -> None:
    """R-ADD-401: a unit's melee attack on an adjacent enemy casket: a hit of `damage`, no
    roll, taken as damage without an attack (R-DMG-6, the defender's split)."""
    if not 0 <= target < len(tx.state.seats):
        raise RuleViolation("no_such_seat", f"no seat {target}", "R-ADD-401")
    d = tx.seat(target)
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
    if damage <= 0:
        raise RuleViolation("no_damage", f"unit {unit.id} deals no damage", "R-ADD-401")
    tx.emit(ev.UnitAttacked(c.seat, unit.id, d.seat, damage, by_card))
    resolution._inflict(tx, d.seat, damage, None, f"{unit.name} ({unit.id}) hits")


def _named_unit(
    tx: _Tx, c: CasketState, card: CardDef, unit_id: str | None, name: str, within: int
) -> Unit:
    """R-ADD-409: "target friendly Mercenary": the player's unit of that name within the
    card's range of its casket, named by the command's `unit`."""
    if unit_id is None:
        raise RuleViolation(
            "unit_required", f"{card.name} names one of your {name} units in 'unit'", "R-ADD-409"
        )
    unit = _own_unit(tx, c.seat, unit_id)
    if unit.name != name or unit.at.distance(c.at) > within:
        raise RuleViolation(
            "not_that_unit",
            f"{card.name} orders one of your {name} units within {within} hexes; "
            f"{unit.id} is a {unit.name} {unit.at.distance(c.at)} hexes away",
            "R-ADD-409",
        )
    return unit


def _order(
    tx: _Tx,
    c: CasketState,
    card: CardDef,
    source: str,
    effect: UnitOrderEffect,
    unit_id: str | None,
    path: Sequence[Hex],
    target: int | None,
) -> None:
    """R-ADD-409: "Target friendly Mercenary immediately moves up to 3 hexes and makes a
    3-damage attack": the unit the command names moves along `path` (none: it stays), then
    attacks `target`, which the command must name when an enemy stands next to it; neither
    spends the unit's own move or attack of the turn."""
    unit = _named_unit(tx, c, card, unit_id, effect.unit, effect.within)
    if path:
        _check_path(tx, c, unit, path, effect.move)
        tx.emit(ev.UnitMoved(c.seat, unit.id, tuple((h.q, h.r) for h in path), source))
        moved = tx.state.unit(unit.id)
        assert moved is not None
        unit = moved
    if target is None:
        s = tx.state
        if any(x.in_battle and x.side != c.side and x.at.distance(unit.at) == 1 for x in s.seats):
            raise RuleViolation(
                "target_required",
                f"{card.name}'s unit makes its attack: name the enemy next to it as 'target'",
                "R-ADD-409",
            )
        return
    _hit(tx, c, unit, target, effect.damage + unit.bonus_damage, source)


def _boost(tx: _Tx, c: CasketState, source: str, effect: UnitBoostEffect) -> None:
    """R-ADD-408: "All friendly Mercenary units within range gain +2 damage and +2 Defense
    until end of round": every unit of the player's of that name within the range, now."""
    chosen = tuple(
        u.id
        for u in tx.state.units
        if u.owner == c.seat and u.name == effect.unit and u.at.distance(c.at) <= effect.within
    )
    if chosen:
        until = tx.state.round + effect.rounds - 1
        tx.emit(ev.UnitsBoosted(c.seat, chosen, effect.damage, effect.defence, until, source))


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
    amount = max(0, attack.damage - unit.total_defence)
    tx.emit(ev.UnitDamaged(c.seat, unit.id, amount, max(0, unit.hp - amount), instance))
    tx.emit(ev.CardResolved(c.seat, instance))
