"""Resolvers of the resource effects: Heat, Taint, tokens, SP and the suffering roll."""

from __future__ import annotations

from typing import Any

from ....cards.effects import resources as fx
from ....errors import RuleViolation
from ... import events as ev
from .. import costs, harm, piles, resolution
from .base import Resolver, Resolving, resolved_elsewhere


def _sp_boost(ctx: Resolving, effect: fx.SpBoostEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.SpBoosted(seat, effect.amount, effect.maximum, card.id))


def _remove_taint_rolled(ctx: Resolving, effect: fx.RemoveTaintRolledEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
    total = sum((f + 1) // 2 for f in faces)
    tx.emit(ev.EffectRolled(seat, faces, total, card.id))
    removed = min(total, c.taint)  # R-ADD-82: Taint never goes below 0
    harm._change_taint(tx, seat, -removed, card.id)
    if removed and effect.recover_per:
        piles._recover(tx, seat, removed * effect.recover_per, card.name)


def _gain_sp(ctx: Resolving, effect: fx.GainSpEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.SpGained(seat, effect.amount, card.id))


def _forfeit_tokens(ctx: Resolving, effect: fx.ForfeitTokensEffect) -> None:
    # R-ADD-175: all of them, however many
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    have = c.tokens_of(effect.pool)
    if have:
        tx.emit(ev.TokensChanged(seat, effect.pool, -have, 0, card.id))


def _give_heat(ctx: Resolving, effect: fx.GiveHeatEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    # R-ADD-143: after a hit, the target's Heat; a reactive card's "attacker gains
    # N Heat" waits for the attack's end (`_end_attack`).
    to = attack_target if effect.to == "target" else None
    if to is not None and tx.seat(to).in_battle:
        harm._change_heat(tx, to, effect.amount, card.name, "R-ADD-143")


def _taint(ctx: Resolving, effect: fx.TaintEffect) -> None:
    tx, seat, card, attack_target = ctx.tx, ctx.seat, ctx.card, ctx.attack_target
    who = seat if effect.target == "self" else attack_target
    if who is not None:
        harm._change_taint(tx, who, effect.change(tx.seat(who).taint), card.id)


def _remove_heat_rolled(ctx: Resolving, effect: fx.RemoveHeatRolledEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    faces = tx.dice.d6(effect.d3, purpose=f"{card.name}: 1d3", rule="R-ADD-67")
    total = sum((f + 1) // 2 for f in faces)
    tx.emit(ev.EffectRolled(seat, faces, total, card.id))
    harm._change_heat(tx, seat, -total, card.name, "R-ADD-67")


def _spend_tokens(ctx: Resolving, effect: fx.SpendTokensEffect) -> None:
    # On an attack card `_attack_riders` spent them already.
    if ctx.spend and not ctx.skip_attack:
        n = costs._spend_tokens(ctx.tx, ctx.seat, ctx.card, effect)
        for _ in range(n if effect.per_token else 1):  # R-ADD-420: "for each token spent"
            for inner in effect.then:
                ctx.then(inner, skip_attack=False)


def _spend_taint(ctx: Resolving, effect: fx.SpendTaintEffect) -> None:
    # On an attack card `_attack_riders` spent it already, and a reactive card's play spends
    # it (R-ADD-145); a card without an attack spends it here and gets what it buys
    # (R-ADD-290).
    if ctx.spend and not ctx.skip_attack and ctx.card.attack is None:
        if effect.whose == "enemy":  # R-ADD-294: the enemy pays, and what it buys acts on it
            enemy = costs._taint_enemy(ctx.tx, ctx.seat, ctx.card, ctx.target)
            ctx.used["target"] = True
            costs._spend_taint(ctx.tx, enemy, ctx.card, effect)
            for inner in effect.then:
                ctx.then(inner, skip_attack=False, attack_target=enemy)
            return
        costs._spend_taint(ctx.tx, ctx.seat, ctx.card, effect)
        for inner in effect.then:
            ctx.then(inner, skip_attack=False)


def _flip_wound(ctx: Resolving, effect: fx.FlipWoundEffect) -> None:
    who = ctx.attack_target
    if who is None:
        return
    for _ in range(effect.n):
        harm._wound(ctx.tx, who, f"{ctx.card.name} (R-ADD-294)", "R-PLT-1")


def _gain_tokens(ctx: Resolving, effect: fx.GainTokensEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    costs._gain_tokens(tx, seat, effect, card.id)


def _heat(ctx: Resolving, effect: fx.HeatEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    harm._change_heat(tx, seat, effect.amount, card.name, "R-ADD-14")


def _roll_suffering(ctx: Resolving, effect: fx.RollSufferingEffect) -> None:
    tx, seat = ctx.tx, ctx.seat
    harm._suffering(tx, seat, effect.n)


def _sp_lock(ctx: Resolving, effect: fx.SpLockEffect) -> None:
    # R-ADD-343: the owner's next turns, the first locked
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.SpLocked(seat, effect.pattern(), card.id))


def _take_damage(ctx: Resolving, effect: fx.TakeDamageEffect) -> None:
    """R-ADD-431: the card's own price in damage, taken at once, split as the command names
    it (`discard`: the hand cards; the rest from the top of the deck, R-DMG-6), so the
    effects printed after it read the piles it leaves. The casket's wards and standing
    reductions act on it first (R-ADD-94, R-ADD-136); fewer points left take the hand cards
    in the order named. Lethal damage: a card in play negating it does (R-ADD-391); R-ADD-
    371's window, a prompt before a split is asked for, is not opened: the split is given."""
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    ctx.used["discard"] = True
    named = piles._hand_cards(tx.seat(seat), ctx.discard, "discard", "R-ADD-431")
    if len(named) > effect.amount:
        raise RuleViolation(
            "wrong_discard_count",
            f"{card.name}: at most {effect.amount} hand card(s) in 'discard' for its "
            f"{effect.amount} damage",
            "R-ADD-431",
        )
    amount = resolution._warded(tx, seat, effect.amount, None)
    amount = resolution._reduce_taken(tx, seat, amount)
    if amount <= 0 or not tx.seat(seat).in_battle:
        return
    if resolution._lethal(tx, seat, amount) and resolution._negated_as_lethal(tx, seat, amount):
        return
    hand = named[:amount]
    harm._take_damage(tx, seat, hand, amount - len(hand), None)


RESOLVERS: dict[type[Any], Resolver] = {
    fx.HeatEffect: _heat,
    fx.GiveHeatEffect: _give_heat,
    fx.RemoveHeatRolledEffect: _remove_heat_rolled,
    fx.HeatCapacityEffect: resolved_elsewhere,  # `flow._start_turn` reads the passive in play (R-ADD-136)
    fx.TaintEffect: _taint,
    fx.RemoveTaintRolledEffect: _remove_taint_rolled,
    fx.SpendTaintEffect: _spend_taint,
    fx.TaintCounterEffect: resolved_elsewhere,  # `reactions._play_reactive` and `costs._check_spend` spend the Taint as the reactive card is played (R-ADD-130)
    fx.GainTokensEffect: _gain_tokens,
    fx.SpendTokensEffect: _spend_tokens,
    fx.ForfeitTokensEffect: _forfeit_tokens,
    fx.DamageBargainEffect: resolved_elsewhere,  # `attacking._strike` opens the bargain prompt, `prompts._choose` answers it (R-ADD-159)
    fx.GainSpEffect: _gain_sp,
    fx.SpBoostEffect: _sp_boost,
    fx.SpLockEffect: _sp_lock,
    fx.TakeDamageEffect: _take_damage,
    fx.SelfDamageEffect: resolved_elsewhere,  # `_attack` records it, `_end_attack` deals it (R-ADD-130)
    fx.RollSufferingEffect: _roll_suffering,
    fx.FlipWoundEffect: _flip_wound,
    fx.TaintAuraEffect: resolved_elsewhere,  # `flow._start_turn` reads the passive in play of each enemy (R-ADD-296)
}
