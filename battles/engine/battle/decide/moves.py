"""Moves a card makes: card moves, pushes, scatters, teleports and terrain made."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

from ...board import BATTLE_TERRAIN
from ...cards import (
    CardDef,
    MoveEffect,
    PushEffect,
    TeleportEffect,
    TerrainEffect,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...los import line_of_sight
from ...movement import forced_path, teleport_problem, validate_free_path
from .. import events as ev
from ..state import (
    CasketState,
)
from . import conditions, costs, resolution
from .tx import _Tx


def _card_move(
    tx: _Tx,
    c: CasketState,
    card: CardDef,
    effect: MoveEffect,
    path: Sequence[object],
    toward: Hex | None,
) -> None:
    """A card's move along `path`, at no SP beyond the card's (R-ADD-25): each step legal
    (R-TRN-5, R-LOS-5) unless it ignores terrain (R-ADD-103); straight (R-ADD-63); each
    step one hex nearer `toward`, the attack's target (R-ADD-104). A rooted casket makes
    none (R-ADD-111)."""
    if c.rooted_turns:
        raise RuleViolation(
            "immobilised", "a card has rooted this casket: it cannot move this turn", "R-ADD-111"
        )
    if len(path) > effect.hexes:
        raise RuleViolation(
            "path_too_long", f"{card.name} moves at most {effect.hexes} hex(es)", "R-ADD-25"
        )
    steps: tuple[Hex, ...] = tuple(path)  # type: ignore[arg-type]
    if effect.ignore_terrain:
        s = tx.state
        costs._not_barred(tx, c, steps)
        validate_free_path(
            s.board,
            c.at,
            steps,
            allies=s.ally_hexes(c),
            enemies=s.blocking_hexes(c),
            through_enemies=effect.through_enemies,
        )
    else:
        costs._path_cost(tx, c, steps)
    hexes = tuple((h.q, h.r) for h in steps)
    if effect.line:
        line = ((c.at.q, c.at.r), *hexes)
        turns = {(b[0] - a[0], b[1] - a[1]) for a, b in pairwise(line)}
        if len(turns) != 1:
            raise RuleViolation(
                "not_a_straight_line",
                f"{card.name} moves in a straight line: every step in one direction",
                "R-ADD-63",
            )
    if effect.toward:
        if toward is None:  # pragma: no cover - the catalogue puts toward on attack cards
            raise RuleViolation(
                "target_required", f"{card.name} moves toward a target", "R-ADD-104"
            )
        here = c.at
        for step in steps:
            if step.distance(toward) != here.distance(toward) - 1:
                raise RuleViolation(
                    "not_toward_target",
                    f"{card.name} moves toward its target: [{step.q}, {step.r}] is no nearer",
                    "R-ADD-104",
                )
            here = step
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, card.id))
    resolution._entered(tx, c.seat, c.at, steps)  # R-ADD-165


def _push(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: PushEffect,
    target: int | None,
    used: dict[str, bool],
    attack_target: int | None,
    ended: bool,
) -> None:
    """R-ADD-100: the attack's target after a hit, or the command's enemy on a card
    without an attack, is pushed (pulled) straight away from (toward) the own casket."""
    who = attack_target
    if who is None:  # a card without an attack: an enemy within its range
        who = conditions._enemy_in_range(tx, seat, card, target)
        used["target"] = True
    elif not ended:  # pragma: no cover - the catalogue puts an attack's push in after_attack
        raise RuleViolation("push_before_hit", f"{card.name} pushes after its hit", "R-ADD-100")
    d = tx.seat(who)
    if not d.in_battle:
        return  # destroyed by the hit: nothing is left to push
    path: tuple[Hex, ...] = ()
    if "anchored" not in d.statuses:  # R-ADD-101
        s = tx.state
        # R-ADD-403: a push stops at a unit as at a casket
        occupied = [x.at for x in s.seats if x.in_battle and x.seat != who] + s.unit_hexes()
        occupied += s.barred_for(d)  # R-ADD-163: a push stops at an enemy's sanctuary
        source = tx.seat(seat).at
        path = forced_path(
            s.board, source, d.at, effect.hexes, toward=effect.toward, occupied=occupied
        )
    tx.emit(ev.CasketPushed(who, tuple((h.q, h.r) for h in path), seat, card.id))
    resolution._entered(tx, who, d.at, path)  # R-ADD-165
    if effect.adjacent_damage and tx.seat(who).at.distance(tx.seat(seat).at) == 1:
        reason = f"{card.name}: ends adjacent (R-ADD-100)"
        resolution._inflict(tx, who, effect.adjacent_damage, None, reason)


def _scatter(tx: _Tx, seat: int, card: CardDef, who: int) -> None:
    """R-ADD-108: 1d6 names a direction; the target goes to that neighbour, or the first
    clockwise from it that is on the board, not impassable and empty; none: it stays."""
    d = tx.seat(who)
    if not d.in_battle:
        return
    face = tx.dice.d6(1, purpose=f"{card.name}: the direction", rule="R-ADD-108")[0]
    tx.emit(ev.EffectRolled(seat, (face,), face, card.id, "R-ADD-108"))
    s = tx.state
    # R-ADD-163: an enemy's sanctuary; R-ADD-403: a unit's hex
    occupied = {x.at for x in s.seats if x.in_battle} | set(s.barred_for(d)) | set(s.unit_hexes())
    path: tuple[tuple[int, int], ...] = ()
    for k in range(6):
        h = d.at.neighbour((face - 1 + k) % 6 + 1)
        if h in s.board and not s.board.terrain_at(h).impassable and h not in occupied:
            path = ((h.q, h.r),)
            break
    tx.emit(ev.CasketPushed(who, path, seat, card.id, "R-ADD-108"))
    resolution._entered(tx, who, d.at, [Hex(q, r) for q, r in path])  # R-ADD-165


def _destination(path: Sequence[object], teleport: str, rule: str) -> Hex:
    """The one hex a teleport's `path` names (R-ADD-102); `teleport` names the card and who it moves."""
    if len(path) != 1:
        raise RuleViolation(
            "destination_required",
            f"{teleport}: give 'path' as the one destination hex",
            rule,
        )
    destination: Hex = path[0]  # type: ignore[assignment]
    return destination


def _teleport(
    tx: _Tx, c: CasketState, card: CardDef, effect: TeleportEffect, path: Sequence[object]
) -> None:
    """R-ADD-102: the command's `path` is the one hex the casket teleports to."""
    destination = _destination(path, f"{card.name} teleports", "R-ADD-102")
    costs._not_barred(tx, c, path)
    s = tx.state
    # R-ADD-403: never onto a unit's hex
    occupied = [x.at for x in s.seats if x.in_battle and x.seat != c.seat] + s.unit_hexes()
    problem = teleport_problem(
        s.board,
        c.at,
        destination,
        effect.hexes,
        occupied=occupied,
        near_terrain=effect.near_terrain,
        onto=effect.onto,
    )
    if problem is not None:
        raise problem
    hexes = c.at.distance(destination)
    tx.emit(ev.CasketTeleported(c.seat, (destination.q, destination.r), hexes, card.id))
    resolution._entered(tx, c.seat, c.at, [destination])  # R-ADD-165


def _teleport_enemy(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: TeleportEffect,
    target: int | None,
    path: Sequence[object],
) -> None:
    """R-ADD-390: the enemy the command's `target` names (any enemy in the battle, as
    R-ADD-385's range-less cards) goes to the one hex `path` names, within `hexes` of its
    own hex, on the board, not impassable, not held by a casket nor barred to it
    (R-ADD-102, R-ADD-163); not its move (R-HIT-2), recorded as R-ADD-108's teleport."""
    enemy = conditions._enemy_anywhere(tx, seat, card, target)
    destination = _destination(path, f"{card.name} teleports seat {enemy}", "R-ADD-390")
    s, d = tx.state, tx.seat(enemy)
    occupied = [x.at for x in s.seats if x.in_battle and x.seat != enemy]
    occupied += s.barred_for(d)  # R-ADD-163: a zone it may not enter
    problem = teleport_problem(s.board, d.at, destination, effect.hexes, occupied=occupied)
    if problem is not None:
        raise problem
    tx.emit(ev.CasketPushed(enemy, ((destination.q, destination.r),), seat, card.id, "R-ADD-390"))
    resolution._entered(tx, enemy, d.at, [destination])  # R-ADD-165


def _terrain_hexes(
    tx: _Tx, c: CasketState, card: CardDef, effect: TerrainEffect, path: Sequence[object]
) -> list[Hex]:
    """R-ADD-162: the command's `path` names the hexes: the first within the card's printed
    range (no range: the own hex or an adjacent one) and in sight of the casket (R-LOS-1..4,
    caskets never block, R-LOS-3), each next one adjacent to one named before it."""
    hexes: list[Hex] = [h for h in path if isinstance(h, Hex)]
    if len(hexes) != effect.hexes or len(set(hexes)) != len(hexes):
        raise RuleViolation(
            "hexes_required",
            f"{card.name} makes {effect.hexes} hex(es) of {effect.terrain}: give 'path' as "
            f"{effect.hexes} different hex(es)",
            "R-ADD-162",
        )
    first = hexes[0]
    low, high = (card.range.low, card.range.high) if card.range is not None else (0, 1)
    if not low <= c.at.distance(first) <= high:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {low}..{high} hexes; [{first.q}, {first.r}] is "
            f"{c.at.distance(first)} away",
            "R-ADD-162",
        )
    if first != c.at and not line_of_sight(tx.state.board, c.at, first, []).clear:
        raise RuleViolation(
            "no_line_of_sight", f"{card.name}: [{first.q}, {first.r}] is out of sight", "R-ADD-162"
        )
    for i, h in enumerate(hexes[1:], start=1):
        if not any(h.distance(before) == 1 for before in hexes[:i]):
            raise RuleViolation(
                "hexes_not_adjacent",
                f"{card.name}: [{h.q}, {h.r}] touches none of the hexes named before it",
                "R-ADD-162",
            )
    return hexes


def _make_terrain(
    tx: _Tx, seat: int, card: CardDef, effect: TerrainEffect, hexes: Sequence[Hex]
) -> None:
    """R-ADD-160/161: the terrain made, on board hexes that are not impassable (a wall stays
    a wall), until the round's end, for N rounds, N of the player's turns, or the battle."""
    board = tx.state.board
    # R-ADD-166: a wall is never raised under a casket.
    walled = (board.kinds.get(effect.terrain) or BATTLE_TERRAIN[effect.terrain]).impassable
    # R-ADD-403: nor under a unit
    occupied = (
        {x.at for x in tx.state.seats if x.in_battle} | set(tx.state.unit_hexes())
        if walled
        else set()
    )
    for h in hexes:
        if h not in board or board.terrain_at(h).impassable or h in occupied:
            raise RuleViolation(
                "terrain_not_placeable",
                f"{card.name}: [{h.q}, {h.r}] is off the board, impassable or, for a wall, "
                "occupied",
                "R-ADD-162",
            )
    until_round, turns = 0, 0
    if effect.until == "end_of_round":
        until_round = tx.state.round
    elif effect.until == "rounds":  # the current round is the first of them
        until_round = tx.state.round + effect.n - 1
    elif effect.until == "turns":
        turns = effect.n
    placed = tuple((h.q, h.r) for h in hexes)
    tx.emit(
        ev.TerrainCreated(
            seat, card.id, effect.terrain, placed, until_round, turns, effect.damage, effect.hp
        )
    )
