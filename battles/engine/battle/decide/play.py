"""A card played: its checks and payment, a wreck it queues, its effects resolved, and the
allies it moves (R-ADD-14, R-ADD-62)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    AllyMoveEffect,
    AreaAttackEffect,
    CardDef,
)
from ...errors import RuleViolation
from ...hexes import Hex
from .. import events as ev
from ..commands import (
    PlayCard,
)
from ..state import (
    CasketState,
)
from . import conditions, costs, passives, piles, resolution, targeting
from . import effects as resolvers
from .tx import _Tx


def _play_card(tx: _Tx, c: CasketState, command: PlayCard) -> None:
    seat = command.seat
    instance = piles._hand_cards(c, [command.card], "card", "R-TRN-5")[0]
    card = tx.state.card(instance)
    if card.kind == "reactive":
        raise RuleViolation(
            "reactive_in_own_turn",
            f"{card.name} is reactive: it answers an attack in an opponent's turn",
            "R-REA-1",
        )
    if card.attack is not None:
        raise RuleViolation(
            "use_attack", f"{card.name} attacks: send an attack command with a target", "R-HIT-1"
        )
    costs._check_card_kind(c, card)
    costs._check_limit(tx.seat(seat), card)
    costs._check_token_cost(tx, seat, card, command.tokens)
    costs._check_spend(tx, seat, card, command.spend)
    costs._check_taint_spend(tx, seat, card, command.spend, None, command.target)
    cost = targeting.card_cost(tx.state, seat, card)  # R-ADD-341
    costs._pay(tx, c, cost, command.pay, exclude=[instance, *command.discard])
    tx.emit(ev.CardPlayed(seat, instance, cost, card.manual, card.text if card.manual else ""))
    costs._pay_tokens(tx, seat, card, command.tokens)
    passives._triggers(tx, seat, "card_played", played=card.id)  # R-ADD-361
    target = command.target
    wreck = next(
        (e for e in card.effects if isinstance(e, AreaAttackEffect) and e.around == "wreck"), None
    )
    if wreck is not None:  # R-ADD-89: the command's target is the wreck, not an effect's
        _queue_wreck(tx, seat, instance, card, wreck, target)
        target = None
    _card_effects(
        tx,
        seat,
        card,
        target,
        command.path,
        command.facing,
        command.discard,
        spend=command.spend,
        ally_paths=command.ally_paths,
        tokens=command.tokens or 0,
        unit=command.unit,
    )
    # R-ADD-68: a passive stays in play; R-ADD-89: a card with attacks to make stays until
    # its last one has ended.
    if not card.passive and not any(f.card == instance for f in tx.state.follow_ups):
        tx.emit(ev.CardResolved(seat, instance))


def _queue_wreck(
    tx: _Tx, seat: int, instance: str, card: CardDef, effect: AreaAttackEffect, target: int | None
) -> None:
    """R-ADD-89: every casket within the area around a destroyed enemy (the command's
    `target`, within the card's printed range, distance only) is attacked as R-ADD-84 says."""
    c = tx.seat(seat)
    if target is None or not 0 <= target < len(tx.state.seats) or target == seat:
        raise RuleViolation(
            "target_required", f"{card.name} needs a destroyed enemy as 'target'", "R-ADD-89"
        )
    w = tx.seat(target)
    if w.side == c.side or not w.defeated:
        raise RuleViolation(
            "not_a_wreck", f"seat {target} is not a destroyed enemy on the board", "R-ADD-89"
        )
    printed = card.range
    distance = c.at.distance(w.at)
    if printed is None or not printed.contains(distance):
        raise RuleViolation(
            "out_of_range",
            f"{card.name} reaches {printed.text if printed else 'no one'}; seat {target} is "
            f"{distance} hexes away",
            "R-RNG-2",
        )
    reach = effect.reach(printed).text
    caught = [
        x.seat
        for x in tx.state.seats
        if x.in_battle
        and x.seat != seat
        and x.at.distance(w.at) <= effect.within
        and (effect.allies or x.side != c.side)
    ]
    if caught:
        attacks = tuple((x, reach, effect.damage) for x in caught)
        tx.emit(ev.AttacksQueued(seat, instance, attacks, None, None, "R-ADD-89"))


def _card_effects(
    tx: _Tx,
    seat: int,
    card: CardDef,
    target: int | None,
    path: Sequence[object],
    facing: int | None,
    discard: Sequence[str],
    *,
    skip_attack: bool = False,
    spend: bool = False,
    attack_target: int | None = None,
    ally_paths: Sequence[tuple[int, Sequence[Hex]]] = (),
    tokens: int = 0,
    unit: str | None = None,
) -> None:
    used = {"path": False, "facing": False, "discard": False, "target": False, "unit": False}
    resolving = resolvers.Resolving(
        tx,
        seat,
        card,
        target,
        path,
        facing,
        discard,
        used,
        skip_attack,
        spend,
        attack_target,
        tokens=tokens,
        unit=unit,
    )
    for effect in card.effects:
        if isinstance(effect, AllyMoveEffect):  # R-ADD-126: the command's own field
            toward = seat if attack_target is None else attack_target
            _ally_moves(tx, seat, card, effect, target, ally_paths, toward)
            used["target"] = used["target"] or not effect.every
            ally_paths = ()
            continue
        resolvers._effect(resolving, effect)
    for name, value in (
        ("path", path),
        ("facing", facing),
        ("discard", discard),
        ("target", target),
        ("ally_paths", ally_paths),
        ("unit", unit),
    ):
        if value not in (None, (), []) and not used[name]:
            raise RuleViolation(
                "unused_argument", f"{card.name} has no effect that uses '{name}'", "R-ADD-14"
            )


def _ally_moves(
    tx: _Tx,
    seat: int,
    card: CardDef,
    effect: AllyMoveEffect,
    target: int | None,
    paths: Sequence[tuple[int, Sequence[Hex]]],
    toward: int,
) -> None:
    """R-ADD-126: each ally the card may move, along the command's path for it (none: it
    stays), every step legal (R-TRN-5, R-LOS-5) and, "toward you" or "toward target",
    nearer seat `toward` (the player, or the attack's target)."""
    c = tx.seat(seat)
    goal = tx.seat(toward).at
    if effect.every:
        near = conditions._allies(tx, seat, effect.faction)
        movable = [x.seat for x in near if c.at.distance(x.at) <= effect.within]
    else:
        movable = conditions._ally_targets(tx, seat, card, effect, target)
    for ally, path in paths:
        if ally not in movable:
            raise RuleViolation(
                "not_moved_by_card",
                f"{card.name} moves {'allies' if effect.every else f'seat {target}'} within "
                f"{effect.within} hexes, not seat {ally}",
                "R-ADD-126",
            )
        if len(path) > effect.hexes:
            raise RuleViolation(
                "path_too_long",
                f"{card.name} moves an ally at most {effect.hexes} hex(es)",
                "R-ADD-126",
            )
        moving = tx.seat(ally)
        costs._path_cost(tx, moving, path)
        if effect.toward or effect.toward_target:
            here = moving.at
            for step in path:
                if step.distance(goal) >= here.distance(goal):
                    raise RuleViolation(
                        "not_toward",
                        f"{card.name} moves allies toward seat {toward}: {list(step)} is no nearer",
                        "R-ADD-126",
                    )
                here = step
        tx.emit(ev.AllyMoved(ally, tuple((h.q, h.r) for h in path), seat, card.id))
        resolution._entered(tx, ally, moving.at, path)  # R-ADD-165
    if effect.draw_per_ally and paths:  # "Draw 1 card for each ally that moves"
        piles._draw(tx, seat, effect.draw_per_ally * len(paths), card.name)
