"""Cards in play that act on their own: triggers on what happens (R-ADD-139), allies' zones at
the start of a turn (R-ADD-129), and what a casket's destruction sets off (R-ADD-68, R-ADD-148)."""

from __future__ import annotations

from collections.abc import Iterable

from ...cards import (
    CardDef,
    DuelEffect,
    Effect,
    MarkEffect,
    TriggerEffect,
    ZoneEffect,
)
from ...hexes import Hex
from .. import events as ev
from . import effects as resolvers
from .tx import _Tx


def _resolve_at_once(tx: _Tx, seat: int, card: CardDef, effects: Iterable[Effect]) -> None:
    """`effects` of `card` resolved for `seat` at once, as no play of a card: with no target,
    path, facing, discards or choices, and no attack of their own."""
    for effect in effects:
        resolvers._effect(resolvers.Resolving(tx, seat, card, skip_attack=True), effect)


def _triggers(
    tx: _Tx,
    seat: int,
    on: str,
    times: int = 1,
    about: int | None = None,
    killer: int | None = None,
    played: str | None = None,
) -> None:
    """Run the `on` triggers of the passives `seat` has in play (R-ADD-68); `about` is the
    destroyed casket for casket_destroyed, `killer` the seat whose attack destroyed it
    (R-ADD-131); `played` the card id card_played watches for (R-ADD-361)."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    for instance in c.in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if not isinstance(effect, TriggerEffect) or effect.on != on:
                continue
            if on == "card_played" and played not in effect.cards:
                continue
            if about is not None:
                gone = tx.seat(about)
                if (
                    (effect.within and c.at.distance(gone.at) > effect.within)
                    or (effect.enemy_only and gone.side == c.side)
                    or (effect.ally_only and gone.side != c.side)
                    or (effect.by_owner and killer != seat)
                ):
                    continue
            for _ in range(times):
                if not effect.stacks:  # R-ADD-139: held once until an attack spends it
                    if instance in tx.seat(seat).held_bonuses:
                        break
                    tx.emit(ev.BonusHeld(seat, instance))
                _resolve_at_once(tx, seat, card, effect.then)


def _zones(tx: _Tx, seat: int) -> None:
    """R-ADD-129: the allies' zones `seat` starts its turn in, in the order made."""
    c = tx.seat(seat)
    for owner, instance, q, r in tx.state.zones:
        card = tx.state.card(instance)
        if owner == seat or tx.seat(owner).side != c.side or not c.in_battle:
            continue
        for zone in (e for e in card.effects if isinstance(e, ZoneEffect)):
            if c.at.distance(Hex(q, r)) <= zone.radius:
                _resolve_at_once(tx, seat, card, zone.then)


def _lift_curses(tx: _Tx, killer: int, killed: int) -> None:
    """R-ADD-421: "Curse removed when target kills a Wyrd unit": the cursed casket's
    attack destroyed (R-ADD-131) a casket of the curse's faction: one whose setup names
    it (R-ADD-121), or the casket that laid the curse with that faction's card."""
    gone = tx.seat(killed)
    for by, source in tx.seat(killer).curses:
        curse = tx.state.curse(source)
        if curse is not None and (gone.faction == curse.lifted_by or by == killed):
            tx.emit(ev.CurseLifted(killer, killed, source))


def _destroyed(tx: _Tx, seat: int) -> None:
    """R-ADD-68: every other casket's passives that watch for a destruction nearby; and
    R-ADD-148: the effects of every mark on the destroyed casket. R-ADD-131: a casket
    destroyed while an attack on it resolves was destroyed by that attacker."""
    a = tx.state.attack
    killer = a.attacker if a is not None and a.target == seat else None
    for other in tx.state.seats:
        if other.seat != seat:
            _triggers(tx, other.seat, "casket_destroyed", about=seat, killer=killer)
    if killer is not None:
        _lift_curses(tx, killer, seat)
    for other in tx.state.seats:
        if other.marked == seat and other.mark_source is not None and other.in_battle:
            card = tx.state.card(other.mark_source)
            for effect in card.effects:
                if isinstance(effect, MarkEffect):
                    _resolve_at_once(tx, other.seat, card, effect.then)
    for other in tx.state.seats:  # R-ADD-174: "if you kill target" in the duel
        challenger = other.duel_challenger == other.seat and other.duel_with == seat
        if challenger and other.in_battle and seat in other.kills and other.duel_source:
            card = tx.state.card(other.duel_source)
            for effect in card.effects:
                if isinstance(effect, DuelEffect):
                    _resolve_at_once(tx, other.seat, card, effect.then)
