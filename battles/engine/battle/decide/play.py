"""Actions in a turn: checks of turn and cost, moves, vents, playing a card, limits, token holds and spends, triggers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Literal

from ...arcs import rotation_cost
from ...cards import (
    AllyMoveEffect,
    AreaAttackEffect,
    CardDef,
    DiscardForEffect,
    DuelEffect,
    FreePassageEffect,
    GainTokensEffect,
    MarkEffect,
    SelfDamageEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TaintCounterEffect,
    TriggerEffect,
    ZoneEffect,
)
from ...errors import RuleViolation
from ...hexes import Hex
from ...movement import validate_path
from .. import events as ev
from ..commands import (
    Attack,
    Command,
    Move,
    Pass,
    Pay,
    PlayCard,
    Rotate,
    Vent,
    Withdraw,
)
from ..state import (
    SETUP,
    CasketState,
)
from . import attacking, conditions, flow, harm, moves, piles
from . import effects as resolvers
from .tx import VENT_COST, VENT_HEAT, _Tx


def _check_turn(tx: _Tx, command: Command) -> CasketState:
    s = tx.state
    if s.phase == SETUP:
        raise RuleViolation(
            "setup_not_finished", "every player keeps a hand or mulligans first", "R-TRN-1"
        )
    if s.prompts:
        p = s.prompts[0]
        raise RuleViolation(
            "prompt_pending",
            f"the battle waits for seat {p.seat} to answer a {p.kind} prompt",
            p.rule,
        )
    if s.active != command.seat:
        raise RuleViolation(
            "not_your_turn", f"It is seat {s.active}'s turn, not seat {command.seat}'s", "R-TRN-5"
        )
    return tx.seat(command.seat)


def _check_card_kind(c: CasketState, card: CardDef) -> None:
    # Seed 002 "Component Destroyed": the arms take their card types with them.
    if card.kind == "primary_weapon" and "right_arm" in c.destroyed:
        raise RuleViolation(
            "right_arm_destroyed", "right arm destroyed: no Primary Weapon cards", "R-DMG-7"
        )
    if card.kind == "secondary" and "left_arm" in c.destroyed:
        raise RuleViolation(
            "left_arm_destroyed", "left arm destroyed: no Secondary Equipment cards", "R-DMG-7"
        )


def _pay(tx: _Tx, c: CasketState, cost: int, pay: Pay | None, exclude: Sequence[str] = ()) -> None:
    """Check and pay SP: up to twice the maximum, each SP beyond it paid with a card (R-TRN-3)."""
    after = c.sp_spent + cost
    if after > c.sp_limit:
        raise RuleViolation(
            "sp_exceeded",
            f"costs {cost} SP; seat {c.seat} has spent {c.sp_spent} of at most "
            f"{c.sp_limit} this turn (twice the maximum {c.sp_max}"
            + (f", and {c.sp_gained} gained)" if c.sp_gained else ")"),
            "R-TRN-3",
        )
    cards = c.overspend_cards(cost)
    given = (len(pay.hand) + pay.deck) if pay else 0
    if given != cards:
        raise RuleViolation(
            "overspend_payment",
            f"costs {cost} SP with {max(0, c.sp_left)} left: pay {cards} card(s) in 'pay' "
            f"(hand ids and/or a count from the deck), not {given}",
            "R-TRN-3",
        )
    if not cards or pay is None:
        return
    hand_ok = [x for x in c.hand if x not in exclude]
    hand = piles._hand_cards(replace(c, hand=tuple(hand_ok)), pay.hand, "pay.hand", "R-TRN-3")
    if pay.deck > len(c.deck):
        raise RuleViolation(
            "deck_too_small", f"pay.deck: the deck holds {len(c.deck)} card(s)", "R-TRN-3"
        )
    deck = tx.take(c.deck, pay.deck, "overspend from the deck", "R-TRN-3")
    tx.emit(ev.OverspendPaid(c.seat, cards, hand, deck))


def _act(tx: _Tx, command: Command) -> None:
    c = _check_turn(tx, command)
    seat = command.seat
    if isinstance(command, Pass):
        flow._end_turn(tx, seat)
    elif isinstance(command, Withdraw):
        if c.acted or c.sp_spent or c.moved or c.free_rotation_used:
            raise RuleViolation(
                "withdraw_at_start_of_turn",
                "a casket withdraws at the start of its own turn, before it acts",
                "R-TRN-9",
            )
        tx.emit(ev.CasketWithdrew(seat, "R-TRN-9"))
    elif isinstance(command, Move):
        if c.rooted_turns:
            raise RuleViolation(
                "immobilised",
                "a card has rooted this casket: it cannot move this turn",
                "R-ADD-111",
            )
        if "immobilised" in c.statuses:
            raise RuleViolation("immobilised", "an immobilised casket cannot move", "R-ADD-17")
        if any(w.immobile for w in c.wards):
            raise RuleViolation("immobilised", "a card keeps the casket immobile", "R-ADD-93")
        if command.free:
            _free_move(tx, c, command)
            return
        # R-ADD-113: an enemy card's "movement costs +N SP", per hex this turn
        cost = _path_cost(tx, c, command.path) + c.move_cost * len(command.path)
        _pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketMoved(seat, tuple((h.q, h.r) for h in command.path), cost))
        moves._entered(tx, seat, c.at, command.path)  # R-ADD-165
    elif isinstance(command, Rotate):
        if command.facing == c.facing:
            raise RuleViolation("no_rotation", f"already facing {c.facing}", "R-ARC-5")
        cost = rotation_cost(c.facing, command.facing, not c.free_rotation_used)
        _pay(tx, c, cost, command.pay)
        tx.emit(ev.CasketRotated(seat, command.facing, cost, not c.free_rotation_used))
    elif isinstance(command, Vent):
        if c.heat == 0:
            raise RuleViolation("no_heat", "no Heat to vent", "R-ADD-19")
        _pay(tx, c, VENT_COST, command.pay)
        tx.emit(ev.HeatVented(seat, VENT_COST, min(VENT_HEAT, c.heat)))
    elif isinstance(command, Attack):
        attacking._attack(tx, c, command)
    elif isinstance(command, PlayCard):
        _play_card(tx, c, command)
    else:  # pragma: no cover - parse_command produces no other type
        raise RuleViolation("unknown_command", f"{command.NAME} is not an action", None)


def _free_move(tx: _Tx, c: CasketState, command: Move) -> None:
    """R-ADD-69: the move a card granted: up to its hexes, each step legal, no SP."""
    if not c.free_move or c.free_move_source is None:
        raise RuleViolation("no_free_move", "no card granted a move this turn", "R-ADD-69")
    if command.pay is not None:
        raise RuleViolation("free_move_paid", "a granted move costs no SP: no 'pay'", "R-ADD-69")
    if c.free_move_split and c.free_move_stage == 1:
        raise RuleViolation(
            "free_move_after_attack",
            "the rest of this move comes after an attack: attack first",
            "R-ADD-109",
        )
    if len(command.path) > c.free_move:
        raise RuleViolation(
            "path_too_long", f"the granted move is at most {c.free_move} hex(es)", "R-ADD-69"
        )
    _path_cost(tx, c, command.path)
    hexes = tuple((h.q, h.r) for h in command.path)
    tx.emit(ev.CasketMoved(c.seat, hexes, 0, c.free_move_source))
    moves._entered(tx, c.seat, c.at, command.path)  # R-ADD-165


def _path_cost(tx: _Tx, c: CasketState, path: Sequence[object]) -> int:
    s = tx.state
    moves._not_barred(tx, c, path)
    # R-ADD-136: "move through enemy-occupied hexes … ignore terrain costs".
    free = any(isinstance(e, FreePassageEffect) for x in c.in_play for e in s.card(x).effects)
    allies, enemies = s.ally_hexes(c), s.enemy_hexes(c)
    return validate_path(
        s.board,
        c.at,
        path,  # type: ignore[arg-type]
        allies=[*allies, *enemies] if free else allies,
        enemies=() if free else enemies,
        legs_destroyed="legs" in c.destroyed,
        require_sight=True,
        ignore_terrain=free,
    )


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
    _check_card_kind(c, card)
    _check_limit(tx.seat(seat), card)
    _check_token_cost(tx, seat, card)
    _check_spend(tx, seat, card, command.spend)
    _pay(tx, c, card.sp_cost, command.pay, exclude=[instance, *command.discard])
    tx.emit(
        ev.CardPlayed(seat, instance, card.sp_cost, card.manual, card.text if card.manual else "")
    )
    _pay_tokens(tx, seat, card)
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


def _triggers(
    tx: _Tx, seat: int, on: str, times: int = 1, about: int | None = None, killer: int | None = None
) -> None:
    """Run the `on` triggers of the passives `seat` has in play (R-ADD-68); `about` is the
    destroyed casket for casket_destroyed, `killer` the seat whose attack destroyed it
    (R-ADD-131)."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    for instance in c.in_play:
        card = tx.state.card(instance)
        for effect in card.effects:
            if not isinstance(effect, TriggerEffect) or effect.on != on:
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
                for inner in effect.then:
                    resolvers._effect(tx, seat, card, inner, None, (), None, (), {}, True)


def _zones(tx: _Tx, seat: int) -> None:
    """R-ADD-129: the allies' zones `seat` starts its turn in, in the order made."""
    c = tx.seat(seat)
    for owner, instance, q, r in tx.state.zones:
        card = tx.state.card(instance)
        if owner == seat or tx.seat(owner).side != c.side or not c.in_battle:
            continue
        for zone in (e for e in card.effects if isinstance(e, ZoneEffect)):
            if c.at.distance(Hex(q, r)) <= zone.radius:
                for inner in zone.then:
                    resolvers._effect(tx, seat, card, inner, None, (), None, (), {}, True)


def _destroyed(tx: _Tx, seat: int) -> None:
    """R-ADD-68: every other casket's passives that watch for a destruction nearby; and
    R-ADD-148: the effects of every mark on the destroyed casket. R-ADD-131: a casket
    destroyed while an attack on it resolves was destroyed by that attacker."""
    a = tx.state.attack
    killer = a.attacker if a is not None and a.target == seat else None
    for other in tx.state.seats:
        if other.seat != seat:
            _triggers(tx, other.seat, "casket_destroyed", about=seat, killer=killer)
    for other in tx.state.seats:
        if other.marked == seat and other.mark_source is not None and other.in_battle:
            card = tx.state.card(other.mark_source)
            for effect in card.effects:
                if isinstance(effect, MarkEffect):
                    for inner in effect.then:
                        resolvers._effect(tx, other.seat, card, inner, None, (), None, (), {}, True)
    for other in tx.state.seats:  # R-ADD-174: "if you kill target" in the duel
        challenger = other.duel_challenger == other.seat and other.duel_with == seat
        if challenger and other.in_battle and seat in other.kills and other.duel_source:
            card = tx.state.card(other.duel_source)
            for effect in card.effects:
                if isinstance(effect, DuelEffect):
                    for inner in effect.then:
                        resolvers._effect(tx, other.seat, card, inner, None, (), None, (), {}, True)


def _check_limit(c: CasketState, card: CardDef) -> None:
    """R-ADD-63: "once per turn / round / mission" (a mission's battle)."""
    limit = card.limit
    if limit is None:
        return
    if c.limited_plays.count(f"{limit.per}:{card.id}") >= limit.n:
        raise RuleViolation(
            "use_limit_reached",
            f"{card.name} may be played {limit.n} time(s) per {limit.per}",
            "R-ADD-63",
        )


def _check_token_cost(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-133: a card printed with a cost in tokens needs them to be played."""
    cost = card.token_cost
    if cost is not None and tx.seat(seat).tokens_of(cost.pool) < cost.n:
        have = tx.seat(seat).tokens_of(cost.pool)
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} costs {cost.n} {cost.pool} token(s); seat {seat} holds {have}",
            "R-ADD-133",
        )


def _pay_tokens(tx: _Tx, seat: int, card: CardDef) -> None:
    """R-ADD-133: the printed token cost, paid as the card is played (checked before)."""
    cost = card.token_cost
    if cost is not None:
        have = tx.seat(seat).tokens_of(cost.pool)
        tx.emit(ev.TokensChanged(seat, cost.pool, -cost.n, have - cost.n, card.id))


def _check_holds(tx: _Tx, seat: int, card: CardDef, pool: str, n: int | Literal["all"]) -> None:
    """R-ADD-61: a spend of `n` tokens of `pool` (all of them: at least 1) is refused,
    naming what the seat holds, when the seat holds fewer."""
    have = tx.seat(seat).tokens_of(pool)
    if have < (1 if n == "all" else n):
        raise RuleViolation(
            "not_enough_tokens",
            f"{card.name} spends {n} {pool} token(s); seat {seat} holds {have}",
            "R-ADD-61",
        )


def _check_spend(tx: _Tx, seat: int, card: CardDef, spend: bool) -> None:
    """R-ADD-61: `spend` only for a card that spends tokens, and only with the tokens;
    a card that does nothing without its spend needs it."""
    costs = [e for e in card.effects if isinstance(e, SpendTokensEffect)]
    counters = [e for e in card.effects if isinstance(e, TaintCounterEffect)]
    taint = bool(counters) or any(isinstance(e, SpendTaintEffect) for e in card.effects)
    avoid = [e for e in card.effects if isinstance(e, SelfDamageEffect)]
    for e2 in avoid if spend else []:  # R-ADD-130: buying off the card's self-damage
        _check_holds(tx, seat, card, e2.avoid_pool, e2.avoid_n)
    if spend and not costs and any(isinstance(e, DiscardForEffect) for e in card.effects):
        return  # R-ADD-152: an optional discard; its cards are checked as it is paid
    if spend and not costs and not taint and not avoid:
        raise RuleViolation(
            "unused_argument", f"{card.name} has no effect that uses 'spend'", "R-ADD-61"
        )
    for t in counters if spend else []:  # R-ADD-130: the pilot's Taint, not a token pool
        if tx.seat(seat).taint < t.n:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {t.n} Taint; seat {seat}'s pilot has {tx.seat(seat).taint}",
                "R-ADD-130",
            )
    for e in costs:
        if e.required and not spend:
            raise RuleViolation(
                "spend_required",
                f"{card.name} does nothing without spending {e.n} {e.pool} token(s): "
                "send 'spend': true",
                "R-ADD-61",
            )
        if spend:
            _check_holds(tx, seat, card, e.pool, e.n)


def _check_taint_spend(
    tx: _Tx, seat: int, card: CardDef, spend: bool, taint_from: str | None, target: int | None
) -> None:
    """R-ADD-145: `taint_from` only for a spend of "yours or target's" Taint, made; the
    pilot who pays holds the Taint ("all" needs at least 1)."""
    costs = [e for e in card.effects if isinstance(e, SpendTaintEffect)]
    either = any(e.whose == "either" for e in costs)
    if taint_from is not None and not (spend and either):
        raise RuleViolation(
            "unused_argument",
            f"{card.name} spends no one's Taint but its pilot's: 'taint_from' needs "
            "'spend': true on a card that spends yours or the target's",
            "R-ADD-145",
        )
    if not spend:
        return
    payer = target if taint_from == "target" and target is not None else seat
    for e in costs:
        have = tx.seat(payer).taint
        need = 1 if e.n == "all" else e.n
        if have < need:
            raise RuleViolation(
                "not_enough_taint",
                f"{card.name} spends {e.n} Taint; seat {payer}'s pilot has {have}",
                "R-ADD-145",
            )


def _spend_taint(tx: _Tx, payer: int, card: CardDef, effect: SpendTaintEffect) -> int:
    """Remove the spent Taint from the paying pilot (checked by `_check_taint_spend`); the
    Taint spent (R-ADD-145)."""
    have = tx.seat(payer).taint
    n = have if effect.n == "all" else effect.n
    harm._change_taint(tx, payer, -n, card.id)
    return n


def _spend_tokens(tx: _Tx, seat: int, card: CardDef, effect: SpendTokensEffect) -> int:
    """Spend the tokens (checked by `_check_spend`); the number spent."""
    have = tx.seat(seat).tokens_of(effect.pool)
    n = have if effect.n == "all" else effect.n
    tx.emit(ev.TokensChanged(seat, effect.pool, -n, have - n, card.id))
    return n


def _gain_tokens(tx: _Tx, seat: int, effect: GainTokensEffect, source: str) -> None:
    """R-ADD-61: a pool never holds more than its cap; a gain at the cap gains nothing."""
    have = tx.seat(seat).tokens_of(effect.pool)
    gained = min(effect.n, max(0, effect.cap - have))
    if gained:
        tx.emit(ev.TokensChanged(seat, effect.pool, gained, have + gained, source))


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
) -> None:
    used = {"path": False, "facing": False, "discard": False, "target": False}
    for effect in card.effects:
        if isinstance(effect, AllyMoveEffect):  # R-ADD-126: the command's own field
            toward = seat if attack_target is None else attack_target
            conditions._ally_moves(tx, seat, card, effect, target, ally_paths, toward)
            used["target"] = used["target"] or not effect.every
            ally_paths = ()
            continue
        resolvers._effect(
            tx,
            seat,
            card,
            effect,
            target,
            path,
            facing,
            discard,
            used,
            skip_attack,
            spend,
            attack_target=attack_target,
        )
    for name, value in (
        ("path", path),
        ("facing", facing),
        ("discard", discard),
        ("target", target),
        ("ally_paths", ally_paths),
    ):
        if value not in (None, (), []) and not used[name]:
            raise RuleViolation(
                "unused_argument", f"{card.name} has no effect that uses '{name}'", "R-ADD-14"
            )
