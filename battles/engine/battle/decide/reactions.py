"""Reactive cards: the reactive window, covers, dodges and the reactive play (R-REA-1)."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    CardDef,
    CoverEffect,
    DefenceEffect,
    DeflectEffect,
    DrawEffect,
    Effect,
    EnhanceNextAttackEffect,
    GainTokensEffect,
    HeatEffect,
    LastingBonusEffect,
    MoveCostEffect,
    MoveEffect,
    OfferMissEffect,
    RecoverEffect,
    ReduceIncomingEffect,
    SpendTaintEffect,
    SpendTokensEffect,
    TaintCounterEffect,
    TaintEffect,
    UnlessSpentEffect,
    WardEffect,
    WhenEffect,
    WindowEffect,
)
from ...errors import RuleViolation
from ...hexes import Hex
from .. import events as ev
from ..commands import (
    PlayReactive,
)
from ..state import (
    card_id,
)
from . import attacking, conditions, harm, hits, moves, piles, play, prompts
from . import effects as resolvers
from .tx import _Tx


def _reactive_ok(tx: _Tx, card: CardDef, seat: int | None = None) -> bool:
    """Whether `card` may answer the attack now, played by `seat` (default: the attacked
    casket; an ally covering it, R-ADD-122, pays from its own pool)."""
    a = tx.state.attack
    cost = card.token_cost
    payer = a.target if a is not None and seat is None else seat
    return (
        a is not None
        and payer is not None
        and card.kind == "reactive"
        and a.reactive_allowed
        and (a.shield_allowed or not card.shield)
        and _in_window(tx, card)
        # R-ADD-133: a card printed with a token cost only with the player's tokens
        and (cost is None or tx.seat(payer).tokens_of(cost.pool) >= cost.n)
    )


def _in_window(tx: _Tx, card: CardDef) -> bool:
    """R-ADD-58: "Play when attacked in melee" answers only an attack with a Melee card."""
    a = tx.state.attack
    if a is None or not any(isinstance(e, WindowEffect) for e in card.effects):
        return True
    weapon = tx.state.card(a.card).attack
    return weapon is not None and weapon.range.melee


def _play_reactive(tx: _Tx, command: PlayReactive) -> None:
    seat = command.seat
    pledged = [x for x in tx.seat(seat).in_play if tx.state.card(x).pledge]
    a = tx.state.attack
    if command.card in pledged and a is not None and seat != a.target:
        instance = command.card  # R-ADD-122: a cover waiting in play, not in the hand
    else:
        instance = piles._hand_cards(tx.seat(seat), [command.card], "card", "R-REA-1")[0]
    card = tx.state.card(instance)
    if card.kind != "reactive" and not card.pledge:
        raise RuleViolation(
            "not_reactive", f"{card.name} is not a reactive card: not now", "R-REA-1"
        )
    if card.shield and not _reactive_ok(tx, card, seat):
        raise RuleViolation(
            "shield_side_only",
            f"{card.name} is a shield card: only against attacks on a shield side",
            "R-REA-2",
        )
    if not _in_window(tx, card):
        raise RuleViolation(
            "outside_window", f"{card.name} answers only attacks made in melee", "R-ADD-58"
        )
    assert a is not None
    cover = _cover_of(card)
    if seat != a.target:  # an ally's window: only a card that takes the damage (R-ADD-122)
        if cover is None:
            raise RuleViolation(
                "not_a_cover_card",
                f"{card.name} does not take an ally's damage: only such a card answers for "
                f"seat {a.target}",
                "R-ADD-122",
            )
        distance = tx.seat(seat).at.distance(tx.seat(a.target).at)
        if distance > cover.within:
            raise RuleViolation(
                "out_of_range",
                f"{card.name} covers an ally within {cover.within} hexes; seat {a.target} is "
                f"{distance} hexes away",
                "R-ADD-122",
            )
    elif cover is not None:
        raise RuleViolation(
            "cover_for_an_ally",
            f"{card.name} takes an ally's damage, not the attacked casket's own",
            "R-ADD-122",
        )
    play._check_limit(tx.seat(seat), card)
    play._check_token_cost(tx, seat, card)
    play._check_spend(tx, seat, card, command.spend)
    play._check_taint_spend(tx, seat, card, command.spend, None, None)
    bought: list[SpendTokensEffect | SpendTaintEffect] = []
    if command.spend:
        bought = [e for e in card.effects if isinstance(e, SpendTokensEffect | SpendTaintEffect)]
    # R-ADD-59: a reactive card's conditions read the defender's state as it is played.
    held = [
        e
        for e in card.effects
        if isinstance(e, WhenEffect) and conditions._holds(tx, seat, e.condition, None)
    ]
    extra: list[Effect] = [x for e in bought for x in e.then] + [x for e in held for x in e.then]
    if not command.spend:  # R-ADD-151: what a spend would have replaced
        extra += [x for e in card.effects if isinstance(e, UnlessSpentEffect) for x in e.then]
    effects = [*card.effects, *extra]
    # R-ADD-125: a deflection takes its damage off as a reduction does.
    reduction = sum(
        e.amount for e in effects if isinstance(e, ReduceIncomingEffect | DeflectEffect)
    )
    dodge = _dodge(tx, seat, card, command.path)
    if cover is not None:
        if dodge:
            raise RuleViolation(
                "unused_argument", f"{card.name} covers an ally: no 'path'", "R-ADD-107"
            )
        tx.emit(ev.AttackCovered(seat, a.target, instance, reduction))
    else:
        tx.emit(ev.ReactivePlayed(seat, instance, reduction, dodge))
    play._pay_tokens(tx, seat, card)
    for taint in (
        [e for e in card.effects if isinstance(e, TaintCounterEffect)] if command.spend else []
    ):
        # R-ADD-130: "Spend 1 Taint: deal 4 damage instead" (checked in `_check_spend`)
        harm._change_taint(tx, seat, -taint.n, card.id)
        tx.emit(ev.CounterRaised(seat, taint.counter, card.id))
    for spent in bought:
        if isinstance(spent, SpendTaintEffect):
            play._spend_taint(tx, seat, card, spent)  # R-ADD-145: the defender's own pilot's
        else:
            play._spend_tokens(tx, seat, card, spent)
    for effect in effects:
        if isinstance(effect, HeatEffect):
            harm._change_heat(tx, seat, effect.amount, card.name, "R-REA-1")
        elif isinstance(effect, DrawEffect):
            piles._draw(tx, seat, effect.n, card.name)
        elif isinstance(effect, GainTokensEffect):
            play._gain_tokens(tx, seat, effect, card.id)
        elif isinstance(effect, RecoverEffect):
            piles._recover(tx, seat, effect.n, card.name)
        elif isinstance(effect, TaintEffect) and effect.target == "self":
            harm._change_taint(tx, seat, effect.change(tx.seat(seat).taint), card.id)
        elif isinstance(effect, MoveCostEffect):  # R-ADD-113: on the attacker
            assert tx.state.attack is not None
            tx.emit(ev.MoveCostRaised(tx.state.attack.attacker, effect.amount, card.id))
        elif isinstance(effect, LastingBonusEffect):
            attacking._lasting_bonus(tx, seat, effect, card.id)
        elif isinstance(effect, EnhanceNextAttackEffect):
            # R-ADD-183: "next attack this turn" on a reactive card waits for the owner's
            # next attack, in its own next turn, and lapses as that turn ends.
            attacking._enhance(tx, seat, card, effect)
        elif isinstance(effect, WardEffect):  # R-ADD-271: for the attacks after this one
            resolvers._effect(tx, seat, card, effect, None, (), None, (), {}, True)
    tx.emit(ev.PromptClosed(seat, "reactive"))
    if cover is not None:
        _reactive_window(tx)  # the attacked casket may still play its own (R-ADD-122)
        return
    # R-ADD-159: "offer bargain: miss this attack, give me N tokens": the attacker, when it
    # holds them, chooses before the defence roll.
    offer = next((e for e in card.effects if isinstance(e, OfferMissEffect)), None)
    if offer is not None and tx.seat(a.attacker).tokens_of(offer.pool) >= offer.n:
        reason = (
            f"{card.name}: give {offer.n} {offer.pool} token(s) to seat {seat} and the attack "
            "misses, or refuse and it hits"
        )
        prompts._open_prompt(tx, a.attacker, "siphon", offer.n, None, "R-ADD-159", reason)
        return
    hits._roll_defence(tx)


def _reactive_defence(tx: _Tx, instance: str | None) -> int:
    """R-ADD-98: the automatic blocks a reactive card adds to the attack it answers."""
    if instance is None:
        return 0
    return sum(e.amount for e in tx.state.card(instance).effects if isinstance(e, DefenceEffect))


def _dodge(tx: _Tx, seat: int, card: CardDef, path: Sequence[Hex]) -> tuple[tuple[int, int], ...]:
    """R-ADD-107: the move a reactive card makes once the attack it answers has ended,
    declared with the card: up to its hexes, each step legal from where the casket
    stands now (R-TRN-5, R-LOS-5); empty: no move ("up to")."""
    move = next((e for e in card.effects if isinstance(e, MoveEffect)), None)
    if not path:
        return ()
    if move is None:
        raise RuleViolation("unused_argument", f"{card.name} makes no move: no 'path'", "R-ADD-107")
    if len(path) > move.hexes:
        raise RuleViolation(
            "path_too_long", f"{card.name} moves at most {move.hexes} hex(es)", "R-ADD-107"
        )
    play._path_cost(tx, tx.seat(seat), path)
    return tuple((h.q, h.r) for h in path)


def _dodged(tx: _Tx, seat: int, card: str, path: tuple[tuple[int, int], ...]) -> None:
    """R-ADD-107: the declared dodge, as the attack ends; a casket destroyed or pushed
    since (R-ADD-100), whose path is no longer legal from where it stands, stays."""
    c = tx.seat(seat)
    if not c.in_battle:
        return
    try:
        play._path_cost(tx, c, [Hex(q, r) for q, r in path])
    except RuleViolation:
        return
    tx.emit(ev.CasketMoved(seat, path, 0, card_id(card)))
    moves._entered(tx, seat, c.at, [Hex(q, r) for q, r in path])  # R-ADD-165


def _reactive_minimum(tx: _Tx, instance: str | None) -> int:
    """R-ADD-58: the least damage a reactive card's "(minimum 1)" reduction leaves."""
    if instance is None:
        return 0
    effects = tx.state.card(instance).effects
    spends = SpendTokensEffect | WhenEffect | SpendTaintEffect
    inner = [x for e in effects if isinstance(e, spends) for x in e.then]
    return max(
        (e.minimum for e in (*effects, *inner) if isinstance(e, ReduceIncomingEffect)), default=0
    )


def _cover_of(card: CardDef) -> CoverEffect | None:
    return next((e for e in card.effects if isinstance(e, CoverEffect)), None)


def _coverers(tx: _Tx) -> list[int]:
    """R-ADD-122: the allies of the attacked casket that may still cover it, in seat order:
    in the battle, not yet asked, holding a cover card that reaches it."""
    a = tx.state.attack
    assert a is not None
    if a.covered_by is not None:
        return []
    t = tx.seat(a.target)
    out = []
    for x in conditions._allies(tx, a.target, None):
        if x.seat in a.cover_declined:
            continue
        for instance in (*x.hand, *x.in_play):
            card = tx.state.card(instance)
            cover = _cover_of(card)
            ready = _reactive_ok(tx, card, x.seat) if instance in x.hand else card.pledge
            if cover and ready and a.reactive_allowed and x.at.distance(t.at) <= cover.within:
                out.append(x.seat)
                break
    return out


def _reactive_window(tx: _Tx) -> None:
    """After a hit: first each ally that could take the damage (R-ADD-122), then the
    attacked casket's own reactive card (R-REA-1), then the defence roll."""
    a = tx.state.attack
    assert a is not None
    coverers = _coverers(tx)
    if coverers:
        reason = f"play a card that takes seat {a.target}'s damage, or none"
        prompts._open_prompt(tx, coverers[0], "reactive", 0, a.component, "R-ADD-122", reason)
        return
    defender = tx.seat(a.target)
    eligible = any(
        _reactive_ok(tx, card) and _cover_of(card) is None
        for card in (tx.state.card(x) for x in defender.hand)
    )
    if eligible:
        prompts._open_prompt(
            tx,
            defender.seat,
            "reactive",
            0,
            a.component,
            "R-REA-1",
            "play one reactive card or none",
        )
    else:
        hits._roll_defence(tx)


def _reactive_declined(tx: _Tx, seat: int) -> None:
    """An ally that declined to cover leaves the window to the next one (R-ADD-122); the
    attacked casket's declining leads to the defence roll (R-REA-1)."""
    tx.emit(ev.ReactiveDeclined(seat))
    a = tx.state.attack
    if a is not None and seat != a.target:
        _reactive_window(tx)
    else:
        hits._roll_defence(tx)
