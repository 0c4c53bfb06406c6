"""Reactive cards played (R-REA-1) and dodges; the reactive window itself is `resolution`'s."""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import (
    AllyDestroyedWindowEffect,
    CardDef,
    CounterEffect,
    DeflectEffect,
    DrawEffect,
    Effect,
    EnhanceNextAttackEffect,
    GainTokensEffect,
    HeatEffect,
    LastingBonusEffect,
    LethalWindowEffect,
    LowDeckWindowEffect,
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
)
from ...errors import RuleViolation
from ...hexes import Hex
from .. import events as ev
from ..commands import (
    NoReactive,
    PlayReactive,
)
from . import attacking, conditions, costs, harm, passives, piles, resolution
from .tx import _Tx


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
    if card.shield and not resolution._reactive_ok(tx, card, seat):
        raise RuleViolation(
            "shield_side_only",
            f"{card.name} is a shield card: only against attacks on a shield side",
            "R-REA-2",
        )
    if not resolution._in_window(tx, card):
        raise RuleViolation(
            "outside_window", f"{card.name} answers only attacks made in melee", "R-ADD-58"
        )
    assert a is not None
    cover = resolution._cover_of(card)
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
    elif cover is not None and not cover.self_too:  # R-ADD-394: "you or ally"
        raise RuleViolation(
            "cover_for_an_ally",
            f"{card.name} takes an ally's damage, not the attacked casket's own",
            "R-ADD-122",
        )
    costs._check_forbidden(tx.seat(seat), card)  # R-ADD-340
    costs._check_limit(tx.seat(seat), card)
    costs._check_token_cost(tx, seat, card)
    costs._check_spend(tx, seat, card, command.spend)
    costs._check_taint_spend(tx, seat, card, command.spend, None, None)
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
    if cover is not None and seat != a.target:
        if dodge:
            raise RuleViolation(
                "unused_argument", f"{card.name} covers an ally: no 'path'", "R-ADD-107"
            )
        tx.emit(ev.AttackCovered(seat, a.target, instance, reduction))
    else:
        tx.emit(ev.ReactivePlayed(seat, instance, reduction, dodge))
    costs._pay_tokens(tx, seat, card)
    for taint in (
        [e for e in card.effects if isinstance(e, TaintCounterEffect)] if command.spend else []
    ):
        # R-ADD-130: "Spend 1 Taint: deal 4 damage instead" (checked in `_check_spend`)
        harm._change_taint(tx, seat, -taint.n, card.id)
        tx.emit(ev.CounterRaised(seat, taint.counter, card.id))
    for held_counter in [x for e in held for x in e.then if isinstance(x, CounterEffect)]:
        # R-ADD-362: "if in Metamorph form, deal 3 damage instead": the counter-damage a
        # condition held as the card was played adds (R-ADD-59, R-ADD-170).
        tx.emit(ev.CounterRaised(seat, held_counter.damage, card.id))
    for spent in bought:
        if isinstance(spent, SpendTaintEffect):
            costs._spend_taint(tx, seat, card, spent)  # R-ADD-145: the defender's own pilot's
        else:
            costs._spend_tokens(tx, seat, card, spent)
    for effect in effects:
        if isinstance(effect, HeatEffect):
            harm._change_heat(tx, seat, effect.amount, card.name, "R-REA-1")
        elif isinstance(effect, DrawEffect):
            # a reactive card has no cost of X tokens to draw by (R-ADD-389)
            piles._draw(tx, seat, 0 if effect.n == "x" else effect.n, card.name)
        elif isinstance(effect, GainTokensEffect):
            costs._gain_tokens(tx, seat, effect, card.id)
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
            passives._resolve_at_once(tx, seat, card, [effect])
    tx.emit(ev.PromptClosed(seat, "reactive"))
    if cover is not None:
        resolution._reactive_window(tx)  # the attacked casket may still play its own (R-ADD-122)
        return
    # R-ADD-159: "offer bargain: miss this attack, give me N tokens": the attacker, when it
    # holds them, chooses before the defence roll.
    offer = next((e for e in card.effects if isinstance(e, OfferMissEffect)), None)
    if offer is not None and tx.seat(a.attacker).tokens_of(offer.pool) >= offer.n:
        reason = (
            f"{card.name}: give {offer.n} {offer.pool} token(s) to seat {seat} and the attack "
            "misses, or refuse and it hits"
        )
        resolution._open_prompt(tx, a.attacker, "siphon", offer.n, None, "R-ADD-159", reason)
        return
    resolution._roll_defence(tx)


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
    costs._path_cost(tx, tx.seat(seat), path)
    return tuple((h.q, h.r) for h in path)


def _window_card(
    tx: _Tx,
    command: PlayReactive,
    window: type[resolution.NoAttackWindow],
    answering: str,
    rule: str,
) -> tuple[str, CardDef]:
    """The card a window that is no attack is answered with (R-ADD-283, R-ADD-370,
    R-ADD-371): named by `card` alone (no 'spend' or 'path'), taken from the seat's hand,
    and carrying that window's effect; `answering` names the window in the refusals."""
    if command.spend or command.path:
        raise RuleViolation(
            "unused_argument", f"a card answering {answering}: no 'spend' or 'path'", rule
        )
    instance = piles._hand_cards(tx.seat(command.seat), [command.card], "card", rule)[0]
    card = tx.state.card(instance)
    if not any(isinstance(e, window) for e in card.effects):
        raise RuleViolation("outside_window", f"{card.name} does not answer {answering}", rule)
    return instance, card


def _play_at_no_cost(tx: _Tx, seat: int, instance: str, card: CardDef) -> None:
    """A window's card leaves the hand at 0 SP (R-ADD-283, R-ADD-370, R-ADD-371); a price
    printed in tokens is still checked and paid (R-ADD-133, R-ADD-366)."""
    costs._check_token_cost(tx, seat, card)
    tx.emit(ev.CardPlayed(seat, instance, 0, card.manual, card.text if card.manual else ""))
    costs._pay_tokens(tx, seat, card)


def _resolve_beside_window(
    tx: _Tx, seat: int, instance: str, card: CardDef, window: type[resolution.NoAttackWindow]
) -> None:
    """The rest of a window's card, at once: every effect but the window itself."""
    passives._resolve_at_once(
        tx, seat, card, (e for e in card.effects if not isinstance(e, window))
    )
    tx.emit(ev.CardResolved(seat, instance))


def _ally_destroyed(tx: _Tx, command: PlayReactive | NoReactive) -> None:
    """R-ADD-283: the answer to an ally's destruction: the card named, played from the hand
    at 0 SP, does the rest of its effects at once (recover, draw), or none is played. An
    attack whose damage destroyed the ally ends once no prompt is left (R-DMG-6)."""
    seat = command.seat
    tx.emit(ev.PromptClosed(seat, "ally_destroyed"))
    if isinstance(command, PlayReactive):
        window = AllyDestroyedWindowEffect
        instance, card = _window_card(tx, command, window, "an ally's destruction", "R-ADD-283")
        _play_at_no_cost(tx, seat, instance, card)
        _resolve_beside_window(tx, seat, instance, card, window)
    a = tx.state.attack
    if a is not None and a.final_damage is not None:
        resolution._after_damage(tx)


def _low_deck_windows(tx: _Tx, before: Sequence[int]) -> None:
    """R-ADD-370: each casket still in the battle whose deck went, in what was just
    decided, from more cards than a held card's threshold to that threshold or fewer may
    play that card now (a prompt of its own; policy `auto` plays no reactive card).
    `before` is each seat's deck size before it."""
    if tx.state.over or tx.state.policy == "auto":
        return
    for c in tx.state.seats:
        if not c.in_battle or c.seat >= len(before) or len(c.deck) >= before[c.seat]:
            continue
        if any(p.seat == c.seat and p.kind == "low_deck" for p in tx.state.prompts):
            continue
        crossed = [
            e.at_most
            for instance in resolution._window_cards(tx, c.seat, LowDeckWindowEffect)
            for e in tx.state.card(instance).effects
            if isinstance(e, LowDeckWindowEffect) and len(c.deck) <= e.at_most < before[c.seat]
        ]
        if crossed:
            reason = f"the deck is down to {len(c.deck)} card(s): play a card answering it, or none"
            tx.emit(ev.PromptOpened(c.seat, "low_deck", 0, None, "R-ADD-370", reason))


def _low_deck(tx: _Tx, command: PlayReactive | NoReactive) -> None:
    """R-ADD-370: the answer to the seat's own deck falling to a card's threshold: the card
    named, played from the hand at 0 SP, does the rest of its effects at once, or none is
    played."""
    seat = command.seat
    tx.emit(ev.PromptClosed(seat, "low_deck"))
    if isinstance(command, NoReactive):
        return
    instance, card = _window_card(tx, command, LowDeckWindowEffect, "a low deck", "R-ADD-370")
    costs._check_limit(tx.seat(seat), card)
    _play_at_no_cost(tx, seat, instance, card)
    _resolve_beside_window(tx, seat, instance, card, LowDeckWindowEffect)


def _lethal(
    tx: _Tx, command: PlayReactive | NoReactive, amount: int, component: str | None
) -> None:
    """R-ADD-371: the answer to lethal damage about to be taken: the card named, played
    from the hand at 0 SP, takes its `prevent` off the damage (the rest of its effects at
    once), or none is played; what damage is left is then split as usual (R-DMG-6)."""
    seat = command.seat
    tx.emit(ev.PromptClosed(seat, "lethal_damage"))
    if isinstance(command, PlayReactive):
        window = LethalWindowEffect
        instance, card = _window_card(tx, command, window, "lethal damage", "R-ADD-371")
        costs._check_limit(tx.seat(seat), card)
        _play_at_no_cost(tx, seat, instance, card)
        prevents = [e.prevent for e in card.effects if isinstance(e, window)]
        # R-ADD-441: "prevent it", the whole of the lethal damage
        cut = amount if "all" in prevents else min(amount, sum(n for n in prevents if n != "all"))
        tx.emit(ev.DamageReduced(seat, cut, card.id))
        amount -= cut
        _resolve_beside_window(tx, seat, instance, card, window)
    if amount <= 0 or not tx.seat(seat).in_battle:
        resolution._after_damage(tx)
        return
    reason = "the damage left after lethal damage was answered"
    resolution._split(tx, seat, amount, component, reason)
