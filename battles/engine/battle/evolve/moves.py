"""Events of moves and the ground: moves, rotations, pushes, teleports, terrain, seeds, zones."""

from __future__ import annotations

from ...board import with_terrain
from ...hexes import Hex
from .. import events as ev
from ..state import (
    BattleState,
    PlacedTerrain,
)
from ..state import with_changes as replace
from .common import Handler, _free_move_gone, _seat


def _place_terrain(s: BattleState, placed: tuple[PlacedTerrain, ...]) -> BattleState:
    """R-ADD-160: the board is the setup's with the terrain still placed, the latest on top."""
    setup_board = s.setup_board or s.board
    board = with_terrain(setup_board, {Hex(p.q, p.r): p.kind for p in placed})
    return replace(
        s, placed_terrain=placed, board=board, setup_board=setup_board if placed else None
    )


def _terrain_created(s: BattleState, e: ev.TerrainCreated) -> BattleState:
    made = tuple(
        PlacedTerrain(q, r, e.kind, e.seat, e.card, e.until_round, e.turns, e.damage, e.hp)
        for q, r in e.hexes
    )
    return _place_terrain(s, (*s.placed_terrain, *made))


def _terrain_attacked(s: BattleState, e: ev.TerrainAttacked) -> BattleState:
    """R-ADD-382: the hex's latest terrain with hit points loses them; at 0 it is gone."""
    placed = list(s.placed_terrain)
    i = max(k for k, p in enumerate(placed) if (p.q, p.r) == e.at and p.hp)
    if e.left:
        placed[i] = replace(placed[i], hp=e.left)
    else:
        del placed[i]
    return _place_terrain(s, tuple(placed))


def _terrain_entered(s: BattleState, e: ev.TerrainEntered) -> BattleState:
    if e.kind != "mine":
        return s
    spent = (e.at[0], e.at[1], e.maker, e.card)  # R-ADD-165: a mine fires once
    return _place_terrain(
        s, tuple(p for p in s.placed_terrain if (p.q, p.r, p.seat, p.card) != spent)
    )


def _zone_created(s: BattleState, e: ev.ZoneCreated) -> BattleState:
    return replace(s, zones=(*s.zones, (e.seat, e.card, e.at[0], e.at[1])))


def _rotation_granted(s: BattleState, e: ev.RotationGranted) -> BattleState:
    return _seat(s, e.seat, free_rotation_used=False)  # R-ADD-189


def _ally_moved(s: BattleState, e: ev.AllyMoved) -> BattleState:
    # Not its own turn's movement: nothing R-HIT-2 or R-TRN-5 counts (R-ADD-126).
    q, r = e.path[-1]
    return _seat(s, e.seat, at=Hex(q, r))


def _moved(s: BattleState, e: ev.CasketMoved) -> BattleState:
    c = s.seats[e.seat]
    q, r = e.path[-1]
    s = _seat(
        s,
        e.seat,
        at=Hex(q, r),
        moved=c.moved + len(e.path),
        sp_spent=c.sp_spent + e.cost,
        acted=True,
    )
    if c.free_move and e.by_card is not None and e.by_card == c.free_move_source:
        left = c.free_move - len(e.path)
        if c.free_move_split and c.free_move_stage == 0 and left > 0:
            # R-ADD-109: the move before the attack; the rest waits for one.
            s = _seat(s, e.seat, free_move=left, free_move_stage=1)
        else:  # R-ADD-69: used
            s = _free_move_gone(s, e.seat)
    return s


def _rotated(s: BattleState, e: ev.CasketRotated) -> BattleState:
    c = s.seats[e.seat]
    return _seat(
        s,
        e.seat,
        facing=e.facing,
        sp_spent=c.sp_spent + e.cost,
        free_rotation_used=c.free_rotation_used or e.free_used,
        acted=True,
    )


def _seeds_planted(s: BattleState, e: ev.SeedsPlanted) -> BattleState:
    q, r = e.at
    others = tuple(x for x in s.seeds if (x[0], x[1]) != (q, r))
    return replace(s, seeds=(*others, (q, r, e.total)))


def _seeds_detonated(s: BattleState, e: ev.SeedsDetonated) -> BattleState:
    return replace(s, seeds=())


def _move_granted(s: BattleState, e: ev.MoveGranted) -> BattleState:
    return _seat(
        s,
        e.seat,
        free_move=e.hexes,
        free_move_source=e.source,
        free_move_split=e.split,
        free_move_stage=0,
    )


def _wreck_scavenged(s: BattleState, e: ev.WreckScavenged) -> BattleState:
    return _seat(s, e.wreck, wreck_removed=True)


def _relocated(s: BattleState, e: ev.CasketRelocated) -> BattleState:
    return _seat(s, e.seat, at=Hex(*e.at), facing=e.facing)


def _rooted(s: BattleState, e: ev.Rooted) -> BattleState:
    c = s.seats[e.seat]
    statuses = c.statuses if "immobilised" in c.statuses else (*c.statuses, "immobilised")
    return _seat(s, e.seat, rooted_turns=max(c.rooted_turns, e.turns), statuses=statuses)


def _move_cost(s: BattleState, e: ev.MoveCostRaised) -> BattleState:
    c = s.seats[e.seat]
    return _seat(s, e.seat, move_cost_next_turn=c.move_cost_next_turn + e.amount)


def _card_cost(s: BattleState, e: ev.CardCostRaised) -> BattleState:
    c = s.seats[e.seat]  # R-ADD-341: for its next turn
    return _seat(s, e.seat, card_cost_next_turn=c.card_cost_next_turn + e.amount)


def _sp_locked(s: BattleState, e: ev.SpLocked) -> BattleState:
    return _seat(s, e.seat, sp_locks=e.turns)  # R-ADD-343


def _pushed(s: BattleState, e: ev.CasketPushed) -> BattleState:
    """R-ADD-100: only the hex changes; a push is no move of the casket's own (R-HIT-2)."""
    if not e.path:
        return s
    q, r = e.path[-1]
    return _seat(s, e.seat, at=Hex(q, r))


def _teleported(s: BattleState, e: ev.CasketTeleported) -> BattleState:
    """R-ADD-102: the distance counts as hexes moved this turn (R-HIT-2)."""
    c = s.seats[e.seat]
    return _seat(s, e.seat, at=Hex(*e.at), moved=c.moved + e.hexes, acted=True)


HANDLERS: dict[type[ev.Event], Handler] = {
    ev.CasketMoved: _moved,
    ev.CasketRotated: _rotated,
    ev.MoveGranted: _move_granted,
    ev.SeedsPlanted: _seeds_planted,
    ev.SeedsDetonated: _seeds_detonated,
    ev.CasketRelocated: _relocated,
    ev.Rooted: _rooted,
    ev.MoveCostRaised: _move_cost,
    ev.CardCostRaised: _card_cost,
    ev.SpLocked: _sp_locked,
    ev.CasketPushed: _pushed,
    ev.CasketTeleported: _teleported,
    ev.WreckScavenged: _wreck_scavenged,
    ev.AllyMoved: _ally_moved,
    ev.ZoneCreated: _zone_created,
    ev.TerrainCreated: _terrain_created,
    ev.TerrainAttacked: _terrain_attacked,
    ev.TerrainEntered: _terrain_entered,
    ev.RotationGranted: _rotation_granted,
}
