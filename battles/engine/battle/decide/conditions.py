"""Conditions a card names (`_holds`), marks, and the allies and enemies an effect reaches."""

from __future__ import annotations

from ...arcs import attack_side, candidate_sides, choose_side_row
from ...cards import (
    FIRE_TERRAIN,
    AllyEffect,
    AllyMoveEffect,
    CardDef,
    Condition,
    MarkEffect,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...los import line_of_sight
from .. import events as ev
from ..state import (
    CasketState,
)
from . import targeting
from .tx import REAR, REAR_SIDES, _Tx


def _holds(tx: _Tx, seat: int, condition: Condition | None, target: int | None) -> bool:
    """Whether an attack bonus's condition holds now (R-ADD-59)."""
    if condition is None:
        return True
    c = tx.seat(seat)
    t = tx.seat(target) if target is not None else None
    test, n = condition.test, condition.n
    if test == "own_heat_at_least":
        return c.heat >= n
    if test == "own_tokens_at_least":
        assert condition.pool is not None
        return c.tokens_of(condition.pool) >= n
    if test == "own_component_damage_at_least":
        return c.total_component_damage >= n
    if test == "moved_this_turn":
        return c.moved > 0
    if test == "standing_in":
        return tx.state.board.terrain_at(c.at).name == condition.terrain
    if test in ("card_moved_at_least", "card_moved_through"):
        # R-ADD-106: the card's own move, made in this command before its attack (R-ADD-104).
        path = [
            h
            for e in tx.events
            if isinstance(e, ev.CasketMoved) and e.seat == seat and e.by_card is not None
            for h in e.path
        ]
        if test == "card_moved_at_least":
            return len(path) >= n
        board = tx.state.board
        return any(board.terrain_at(Hex(*h)).name == condition.terrain for h in path)
    if test == "card_drew_ranged_at_least":
        # R-ADD-188: the cards this card drew, in this command, that are ranged attack cards.
        drawn = [
            x for e in tx.events if isinstance(e, ev.CardsDrawn) and e.seat == seat for x in e.cards
        ]
        return sum(1 for x in drawn if targeting._ranged(tx.state.card(x))) >= n
    if test == "enemies_within_at_least":  # R-ADD-75: enemy caskets in the battle
        enemies = [x for x in tx.state.seats if x.side != c.side and x.in_battle]
        return sum(1 for x in enemies if x.at.distance(c.at) <= condition.within) >= n
    if test == "not_attacked_this_turn":  # R-ADD-134
        return not c.attacked
    if test == "attacked_this_turn":  # R-ADD-134
        return c.attacked
    if test == "destroyed_enemy_this_turn":  # R-ADD-131
        return c.destroyed_enemy
    if test == "own_deck_at_most":  # R-ADD-137: the deck only, as R-ADD-74 counts it
        return len(c.deck) <= n
    if test == "no_enemy_within":  # R-ADD-137: enemy caskets in the battle
        enemies = [x for x in tx.state.seats if x.side != c.side and x.in_battle]
        return all(x.at.distance(c.at) > condition.within for x in enemies)
    if test == "own_adjacent_allies_at_least":  # R-ADD-74: own side, in the battle
        allies = [x for x in tx.state.seats if x.side == c.side and x.seat != seat]
        return sum(1 for x in allies if x.in_battle and x.at.distance(c.at) == 1) >= n
    if test == "destroyed_within_this_round":  # R-ADD-144: any side's, where it fell
        return any(
            x.defeated_round == tx.state.round and x.at.distance(c.at) <= condition.within
            for x in tx.state.seats
            if x.defeated and x.seat != seat
        )
    if test == "discarded_this_turn":  # R-ADD-144
        return c.discarded_this_turn
    if test == "near_terrain":  # R-ADD-144: the own hex or one next to it
        board = tx.state.board
        near = (c.at, *(h for h in c.at.neighbours() if h in board))
        return any(board.terrain_at(h).name == condition.terrain for h in near)
    if test == "near_fire":  # R-ADD-298: lava or a fire wall, in the own hex or next to it
        board = tx.state.board
        near = (c.at, *(h for h in c.at.neighbours() if h in board))
        return any(board.terrain_at(h).name in FIRE_TERRAIN for h in near)
    if test == "own_mark_in_battle":  # R-ADD-149
        return c.marked is not None and tx.seat(c.marked).in_battle
    if test == "own_in_duel":  # R-ADD-174: a duel whose other casket is still in it
        return c.duel_with is not None and tx.seat(c.duel_with).in_battle
    if test == "own_form":  # R-ADD-170: taken this round; "metamorph" is any form
        held = c.form if c.form_round == tx.state.round else ""
        return bool(held) and condition.form in ("metamorph", held)
    if test == "standing_in_open":  # R-ADD-146: the own hex's terrain gives no cover
        return tx.state.board.terrain_at(c.at).cover == "none"
    # R-ADD-121: the allies of the faction the text names, near the casket or the target.
    allied = [x.at for x in _allies(tx, seat, condition.faction)]
    if test == "allies_within_at_least":
        return sum(1 for at in allied if at.distance(c.at) <= condition.within) >= n
    if t is None:  # pragma: no cover - attack bonuses sit on attack cards (CardDef)
        return False
    if test == "attack_side_is":  # R-ADD-146: the side R-ARC-1 picks, as the to-hit does
        melee_facing = str(tx.state.ruleset.option("melee_facing"))
        sides = candidate_sides(t.at, t.facing, c.at)
        return choose_side_row(sides, t.shield, c.at.distance(t.at), melee_facing).side == n
    if test == "target_cowards_mark":  # R-ADD-174
        return t.cowards_mark > 0
    if test == "target_immobilised":  # R-ADD-146: "slow/freeze effects"
        return "immobilised" in t.statuses
    if test == "target_damaged_this_round":  # R-ADD-144
        return t.damaged_round == tx.state.round
    if test == "target_killed_an_ally":  # R-ADD-144: by its attacks, of the own side
        return any(tx.seat(k).side == c.side for k in t.kills)
    if test == "target_without_cover":  # R-ADD-144: no cover on the attack's line (R-COV-1)
        others = [x.at for x in tx.state.seats if x.seat not in (seat, t.seat) and x.in_battle]
        return line_of_sight(tx.state.board, c.at, t.at, others).cover == "none"
    if test == "allies_near_target_at_least":
        return sum(1 for at in allied if at.distance(t.at) <= condition.within) >= n
    if test == "own_units_near_target_at_least":  # R-ADD-407: the player's own units
        units = tx.state.units
        name, within = condition.unit, condition.within
        mine = [u for u in units if u.owner == seat and u.name == name]
        return sum(1 for u in mine if u.at.distance(t.at) <= within) >= n
    if test == "pack_of_bloodline":  # R-ADD-380: a pure pack around the target
        pack = [x for x in _allies(tx, seat, None) if x.at.distance(t.at) <= condition.within]
        return len(pack) >= n and all(x.bloodline == condition.bloodline for x in pack)
    if test == "target_hp_at_most":
        return t.hp <= n
    if test == "target_moved_last_turn":
        return t.moved_last_turn > 0
    if test == "from_rear":  # R-ADD-98: the side of R-ARC-1, the defender's choice included
        return attack_side(t.at, t.facing, c.at, t.shield) == REAR
    if test == "target_deck_at_most":  # R-ADD-74: the deck only, not the discard pile
        return len(t.deck) <= n
    if test == "target_bleed_at_least":  # R-ADD-110
        return t.bleed >= n
    if test == "target_adjacent_allies_at_least":  # R-ADD-119: the attacker's other allies
        allies = [x for x in tx.state.seats if x.side == c.side and x.seat != seat]
        return sum(1 for x in allies if x.in_battle and x.at.distance(t.at) == 1) >= n
    return t.taint >= n  # target_taint_at_least


def _mark_on(tx: _Tx, seat: int, target: int) -> tuple[CardDef, MarkEffect] | None:
    """The mark effect of `seat`'s mark when `target` is that mark (R-ADD-148)."""
    c = tx.seat(seat)
    if c.marked != target or c.mark_source is None:
        return None
    card = tx.state.card(c.mark_source)
    return next(((card, e) for e in card.effects if isinstance(e, MarkEffect)), None)


def _mark_riders(
    tx: _Tx, seat: int, card: CardDef, target: int, source: CardDef, mark: MarkEffect
) -> None:
    """R-ADD-149: "+N damage against Prey", and tracking cancels the Prey's obscured line
    of the to-hit answer (R-COV-4) by an equal bonus; under option dice_pool_advantage its
    disadvantage die stays, as cover's does (R-ADD-60)."""
    if mark.damage:
        tx.emit(ev.BuffGained(seat, mark.damage, 0, 0, 0, source.id))
    if mark.tracks and not tx.state.ruleset.option("dice_pool_advantage"):
        answer = targeting.attack_answer(tx.state, seat, card, target)
        obscured = sum(m.value for m in answer.modifiers if m.key == "obscured")
        if obscured:
            tx.emit(ev.BuffGained(seat, 0, -obscured, 0, 0, source.id))


def _allies(tx: _Tx, seat: int, faction: str | None) -> list[CasketState]:
    """The allies of `seat`: the other caskets of its side still in the battle (R-ADD-74),
    only those whose setup names `faction` when one is given (R-ADD-121)."""
    c = tx.seat(seat)
    return [
        x
        for x in tx.state.seats
        if x.side == c.side
        and x.seat != seat
        and x.in_battle
        and (faction is None or x.faction == faction)
    ]


def _ally_targets(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: AllyEffect | AllyMoveEffect,
    target: int | None,
) -> list[int]:
    """The caskets an ally effect acts on (R-ADD-120): every ally in reach, or the one the
    command's `target` names (the own casket only where the text says "self or")."""
    c = tx.seat(seat)
    if effect.every:
        near = [
            x for x in _allies(tx, seat, effect.faction) if c.at.distance(x.at) <= effect.within
        ]
        if isinstance(effect, AllyEffect) and effect.behind:  # R-ADD-127: the rear sides
            near = [x for x in near if set(candidate_sides(c.at, c.facing, x.at)) <= REAR_SIDES]
        if isinstance(effect, AllyEffect) and effect.bloodline is not None:  # R-ADD-344
            near = [x for x in near if x.bloodline == effect.bloodline]
        return [x.seat for x in near]
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation(
            "target_required", f"{card.name} needs an ally as 'target'", "R-ADD-120"
        )
    if target == seat and isinstance(effect, AllyEffect) and effect.self_allowed:
        return [seat]
    if target not in [x.seat for x in _allies(tx, seat, None)]:
        raise RuleViolation(
            "not_an_ally", f"seat {target} is not an ally of seat {seat} in the battle", "R-ADD-120"
        )
    t = tx.seat(target)
    if effect.faction is not None and t.faction != effect.faction:
        raise RuleViolation(
            "not_of_faction",
            f"{card.name} acts on a {effect.faction} ally; seat {target}'s setup names "
            f"{t.faction or 'no faction'}",
            "R-ADD-121",
        )
    if c.at.distance(t.at) > effect.within:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches allies within {effect.within} hexes; seat {target} is "
            f"{c.at.distance(t.at)} hexes away",
            "R-ADD-120",
        )
    return [target]


def _within_reach(card: CardDef, at: Hex, there: Hex, what: str) -> None:
    """`there`, where `what` stands, lies within `card`'s printed range of `at` (R-RNG-2)."""
    reach = card.range
    if reach is None or not reach.low <= at.distance(there) <= reach.high:
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {reach.text if reach else 'no one'}; {what} is "
            f"{at.distance(there)} hexes away",
            "R-RNG-2",
        )


def _enemy_in_range(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """The command's `target` for a card acting on an enemy: in the battle, on another
    side, within the card's printed range (R-RNG-2, R-ADD-65)."""
    enemy = _enemy_anywhere(tx, seat, card, target)
    _within_reach(card, tx.seat(seat).at, tx.seat(enemy).at, f"seat {enemy}")
    return enemy


def _enemy_anywhere(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """The command's `target` for a card that prints no range: any enemy in the battle,
    neither distance nor sight limiting it (R-ADD-385, as R-ADD-294)."""
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation("target_required", f"{card.name} needs an enemy as 'target'", "R-RNG-2")
    c, t = tx.seat(seat), tx.seat(target)
    if t.side == c.side or not t.in_battle:
        raise RuleViolation(
            "not_an_enemy", f"seat {target} is not an enemy in the battle", "R-TRN-8"
        )
    return target


def _wreck_in_range(tx: _Tx, seat: int, card: CardDef, target: int | None) -> int:
    """R-ADD-158: the command's `target`, a defeated enemy casket whose wreck (its last
    hex) lies within the card's printed range and is still in play."""
    if target is None or not 0 <= target < len(tx.state.seats):
        raise RuleViolation(
            "target_required",
            f"{card.name} needs a destroyed enemy's wreck as 'target'",
            "R-ADD-158",
        )
    c, w = tx.seat(seat), tx.seat(target)
    if w.side == c.side or not w.defeated or w.wreck_removed:
        raise RuleViolation(
            "not_a_wreck",
            f"seat {target} is not a destroyed enemy's wreck still in play",
            "R-ADD-158",
        )
    _within_reach(card, c.at, w.at, f"the wreck of seat {target}")
    return target
