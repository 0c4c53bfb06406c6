"""Resolvers of the terrain effects: terrain made, seeds planted and detonated, wrecks scavenged."""

from __future__ import annotations

from typing import Any

from ....cards import MAX_SEEDS
from ....cards.effects import terrain as fx
from ... import events as ev
from .. import conditions, moves, resolution
from .base import Resolver, Resolving


def _scavenge_wreck(ctx: Resolving, effect: fx.ScavengeWreckEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    wreck = conditions._wreck_in_range(tx, seat, card, ctx.target)
    ctx.used["target"] = True
    tx.emit(ev.WreckScavenged(seat, wreck, card.id))
    for inner in effect.then:  # the wreck's gains: none of the command's arguments
        ctx.then(inner, target=None, path=(), facing=None, discard=())


def _terrain(ctx: Resolving, effect: fx.TerrainEffect) -> None:
    # Terrain a card makes (R-ADD-160 to R-ADD-162)
    tx, seat, card, path, used, attack_target, ended = (
        ctx.tx,
        ctx.seat,
        ctx.card,
        ctx.path,
        ctx.used,
        ctx.attack_target,
        ctx.ended,
    )
    c = tx.seat(seat)
    if effect.at == "area":  # R-ADD-274: one area, around the first target, made once
        a = tx.state.attack
        if attack_target is not None and ended and not (a is not None and a.further):
            centre, board = tx.seat(attack_target).at, tx.state.board
            area = sorted(
                h
                for h in board.cells
                if h.distance(centre) <= effect.within and not board.terrain_at(h).impassable
            )
            moves._make_terrain(tx, seat, card, effect, area)
        return
    if effect.at == "target":  # in `after_attack`: where the target stands as it ends
        if attack_target is not None and ended:
            moves._make_terrain(tx, seat, card, effect, [tx.seat(attack_target).at])
        return
    if effect.at == "self":
        moves._make_terrain(tx, seat, card, effect, [c.at])
        return
    moves._make_terrain(tx, seat, card, effect, moves._terrain_hexes(tx, c, card, effect, path))
    used["path"] = True


def _plant_seeds(ctx: Resolving, effect: fx.PlantSeedsEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        at = tx.seat(attack_target).at
        have = next((n for q, r, n in tx.state.seeds if (q, r) == (at.q, at.r)), 0)
        total = min(MAX_SEEDS, have + effect.n)
        if total > have:
            tx.emit(ev.SeedsPlanted((at.q, at.r), total - have, total, card.id))


def _seed_area(ctx: Resolving, effect: fx.SeedAreaEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    # R-ADD-147: every board hex within reach of the own casket, at most 4 a hex.
    counts = {(q, r): n for q, r, n in tx.state.seeds}
    area = sorted(h for h in tx.state.board.cells if h.distance(c.at) <= effect.within)
    for h in area:
        before = counts.get((h.q, h.r), 0)
        total = min(MAX_SEEDS, before + effect.n)
        if total > before:
            tx.emit(ev.SeedsPlanted((h.q, h.r), total - before, total, card.id))


def _detonate_seeds(ctx: Resolving, effect: fx.DetonateSeedsEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    seeded = tx.state.seeds
    if seeded:
        tx.emit(ev.SeedsDetonated(seeded, card.id))
        mine = tx.seat(seat)
        for q, r, n in seeded:
            for x in tx.state.seats:
                if x.in_battle and x.side != mine.side and (x.at.q, x.at.r) == (q, r):
                    damage = min(effect.max_per_hex, n * effect.per_seed)
                    resolution._inflict(tx, x.seat, damage, None, f"{card.name}: Thornvine seeds")


RESOLVERS: dict[type[Any], Resolver] = {
    fx.TerrainEffect: _terrain,
    fx.PlantSeedsEffect: _plant_seeds,
    fx.DetonateSeedsEffect: _detonate_seeds,
    fx.SeedAreaEffect: _seed_area,
    fx.ScavengeWreckEffect: _scavenge_wreck,
}
