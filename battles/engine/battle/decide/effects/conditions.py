"""Resolvers of the condition effects: statuses, hindrances, bleeding, marks, forms, duels, ultimatums."""

from __future__ import annotations

from typing import Any

from ....arcs import candidate_sides
from ....cards import SP_ALL
from ....cards.effects import conditions as fx
from ....errors import RuleViolation
from ....los import line_of_sight
from ... import events as ev
from .. import conditions, prompts, resolution
from .base import Resolver, Resolving, affected_enemy, resolved_elsewhere


def _area_hinder(ctx: Resolving, effect: fx.AreaHinderEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    for x in tx.state.seats:
        near = 1 <= x.at.distance(c.at) <= effect.within
        if not (x.in_battle and x.side != c.side and near):
            continue
        # R-ADD-86: the cone is the caster's front sector, its edges included (R-ARC-1).
        if effect.cone and 1 not in candidate_sides(c.at, c.facing, x.at):
            continue
        tx.emit(ev.BuffGained(x.seat, 0, effect.to_hit, 0, 0, card.id))


def _card_cost(ctx: Resolving, effect: fx.CardCostEffect) -> None:
    # R-ADD-341: every enemy within the printed area, for its next turn
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    c = tx.seat(seat)
    for x in tx.state.seats:
        if x.in_battle and x.side != c.side and 1 <= x.at.distance(c.at) <= effect.within:
            tx.emit(ev.CardCostRaised(x.seat, effect.amount, card.id))


def _duel(ctx: Resolving, effect: fx.DuelEffect) -> None:
    tx, seat, card, target, used = ctx.tx, ctx.seat, ctx.card, ctx.target, ctx.used
    prompts._challenge(tx, seat, card, target)
    used["target"] = True


def _bar_reactives(ctx: Resolving, effect: fx.BarReactivesEffect) -> None:
    # R-ADD-174: the attack's target
    tx, seat, card, attack_target = ctx.tx, ctx.seat, ctx.card, ctx.attack_target
    if attack_target is not None and conditions._holds(tx, seat, effect.condition, attack_target):
        tx.emit(ev.ReactivesBarred(attack_target, seat, card.id))


def _forbid_cards(ctx: Resolving, effect: fx.ForbidCardsEffect) -> None:
    # R-ADD-340: the owner's own card classes, until its turn ends
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.CardsForbidden(seat, effect.classes(), card.id))


def _transform(ctx: Resolving, effect: fx.TransformEffect) -> None:
    # R-ADD-170: until the end of this round
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.FormTaken(seat, effect.form, tx.state.round, card.id))


def _chrysalis(ctx: Resolving, effect: fx.ChrysalisEffect) -> None:
    # R-ADD-366: the next turn skipped; `flow._start_turn` makes it emerge the turn after
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.ChrysalisEntered(seat, card.id))


def _choose_form(ctx: Resolving, effect: fx.ChooseFormEffect) -> None:
    # R-ADD-362: the player chooses the form as the card resolves
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.FormOffered(seat, card.id))
    reason = f"{card.name}: choose Assault, Tank or Scout Form until the end of the round"
    resolution._open_prompt(tx, seat, "form", 0, None, "R-ADD-362", reason)


def _ultimatum(ctx: Resolving, effect: fx.UltimatumEffect) -> None:
    tx, seat, card, target, used = ctx.tx, ctx.seat, ctx.card, ctx.target, ctx.used
    if card.range is None:  # R-ADD-342: no printed range, any enemy (R-ADD-385)
        enemy = conditions._enemy_anywhere(tx, seat, card, target)
    else:
        enemy = conditions._enemy_in_range(tx, seat, card, target)  # R-ADD-159, as R-ADD-65
    used["target"] = True
    if effect.discard:  # R-ADD-342: the save, a discard of the target's hand or deck
        e = tx.seat(enemy)
        if len(e.hand) + len(e.deck) < effect.discard:  # it cannot resist
            tx.emit(ev.UltimatumAnswered(enemy, "skip_turn"))
            return
        n = effect.discard
        reason = f"{card.name}: discard {n} cards (hand or deck) to resist, or skip your next turn"
        resolution._open_prompt(tx, enemy, "save", n, None, "R-ADD-342", reason)
        return
    reason = f"{card.name}: take {effect.damage} damage now, or skip your next turn (choose)"
    resolution._open_prompt(tx, enemy, "ultimatum", effect.damage, None, "R-ADD-159", reason)


def _sp_penalty(ctx: Resolving, effect: fx.SpPenaltyEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        amount = SP_ALL if effect.amount == "all" else effect.amount  # R-ADD-119
        tx.emit(ev.SpPenaltyImposed(attack_target, amount, card.id))


def _lower_defence(ctx: Resolving, effect: fx.LowerDefenceEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        tx.emit(ev.DefenceLowered(attack_target, effect.amount, card.id))


def _mark(ctx: Resolving, effect: fx.MarkEffect) -> None:
    # R-ADD-148: an enemy within the card's range
    tx, seat, card, target, used = ctx.tx, ctx.seat, ctx.card, ctx.target, ctx.used
    c = tx.seat(seat)
    marked = conditions._enemy_in_range(tx, seat, card, target)
    used["target"] = True
    if effect.visible:  # R-ADD-149: "visible", the line of sight of R-LOS-1..4
        t = tx.seat(marked)
        others = [x.at for x in tx.state.seats if x.seat not in (seat, marked) and x.in_battle]
        if not line_of_sight(tx.state.board, c.at, t.at, others).clear:
            raise RuleViolation(
                "no_line_of_sight", f"{card.name} marks a visible enemy only", "R-ADD-149"
            )
    tx.emit(ev.EnemyMarked(seat, marked, card.id))


def _damage_next_turn(ctx: Resolving, effect: fx.DamageNextTurnEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        tx.emit(ev.DamageScheduled(attack_target, effect.amount, card.id))


def _bleed_factor(ctx: Resolving) -> int:
    """R-ADD-280: "Bleed 1 becomes Bleed 2": the factor of a `bleed_factor` passive its
    owner has in play (the largest, if several; they do not multiply each other)."""
    c = ctx.tx.seat(ctx.seat)
    factors = [
        e.factor
        for x in c.in_play
        for e in ctx.tx.state.card(x).effects
        if isinstance(e, fx.BleedFactorEffect)
    ]
    return max(factors, default=1)


def _bleed(ctx: Resolving, effect: fx.BleedEffect) -> None:
    tx, seat, card, attack_target = ctx.tx, ctx.seat, ctx.card, ctx.attack_target
    if attack_target is not None:
        factor = _bleed_factor(ctx)
        have = tx.seat(attack_target).bleed
        n = (effect.n + (effect.more_if_bleeding if have else 0)) * factor
        tx.emit(ev.BleedApplied(attack_target, n, have + n, card.id))
        if effect.adjacent:  # R-ADD-182: the enemies beside the target, in seat order
            at, side = tx.seat(attack_target).at, tx.seat(seat).side
            for x in tx.state.seats:
                near = x.seat != attack_target and x.at.distance(at) == 1
                if near and x.in_battle and x.side != side:
                    more = effect.n * factor
                    tx.emit(ev.BleedApplied(x.seat, more, x.bleed + more, card.id))


def _ongoing_damage(ctx: Resolving, effect: fx.OngoingDamageEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        tx.emit(ev.OngoingDamageScheduled(attack_target, effect.amount, effect.turns, card.id))


def _damage_until_discards(ctx: Resolving, effect: fx.DamageUntilDiscardsEffect) -> None:
    tx, card, attack_target = ctx.tx, ctx.card, ctx.attack_target
    if attack_target is not None:
        tx.emit(ev.DamageUntilDiscards(attack_target, effect.amount, effect.discards, card.id))


def _no_attacks(ctx: Resolving, effect: fx.NoAttacksEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.AttacksForgone(seat, card.id))


def _grit_modifier(ctx: Resolving, effect: fx.GritModifierEffect) -> None:
    # R-ADD-360: the own pilot's checks for the rest of the battle (R-ADD-305's modifier).
    # R-ADD-361: `next_check`, only the next check
    ctx.tx.emit(ev.GritModifierRaised(ctx.seat, effect.amount, ctx.card.id, effect.next_check))


def _hinder(ctx: Resolving, effect: fx.HinderEffect) -> None:
    ctx.tx.emit(ev.BuffGained(affected_enemy(ctx), 0, effect.to_hit, 0, 0, ctx.card.id))


def _status(ctx: Resolving, effect: fx.StatusEffect) -> None:
    tx, seat, card, target, used = ctx.tx, ctx.seat, ctx.card, ctx.target, ctx.used
    who = seat
    if effect.target == "target":
        if target is None or not 0 <= target < len(tx.state.seats) or target == seat:
            raise RuleViolation(
                "target_required", f"{card.name} needs another seat as 'target'", "R-COV-4"
            )
        used["target"] = True
        who = target
    tx.emit(ev.StatusApplied(who, effect.status, card.id))


def _draw_penalty(ctx: Resolving, effect: fx.DrawPenaltyEffect) -> None:
    ctx.tx.emit(ev.DrawPenaltyImposed(affected_enemy(ctx), effect.n, ctx.card.id))


def _lasting_curse(ctx: Resolving, effect: fx.LastingCurseEffect) -> None:
    # R-ADD-421: a second curse of the same card on a cursed casket adds nothing ("hand
    # size 5 instead of 6"), whoever laid it.
    who = affected_enemy(ctx)
    if all(source != ctx.card.id for _, source in ctx.tx.seat(who).curses):
        ctx.tx.emit(ev.CasketCursed(who, ctx.seat, ctx.card.id))


def _temporal_loop(ctx: Resolving, effect: fx.TemporalLoopEffect) -> None:
    ctx.tx.emit(ev.LoopArmed(ctx.seat, ctx.card.id))  # R-ADD-422


RESOLVERS: dict[type[Any], Resolver] = {
    fx.StatusEffect: _status,
    fx.HinderEffect: _hinder,
    fx.AreaHinderEffect: _area_hinder,
    fx.BleedEffect: _bleed,
    fx.OngoingDamageEffect: _ongoing_damage,
    fx.DamageUntilDiscardsEffect: _damage_until_discards,
    fx.DrawPenaltyEffect: _draw_penalty,
    fx.LastingCurseEffect: _lasting_curse,
    fx.TemporalLoopEffect: _temporal_loop,
    fx.NoAttacksEffect: _no_attacks,
    fx.LowerDefenceEffect: _lower_defence,
    fx.SpPenaltyEffect: _sp_penalty,
    fx.DamageNextTurnEffect: _damage_next_turn,
    fx.MarkEffect: _mark,
    fx.TransformEffect: _transform,
    fx.DuelEffect: _duel,
    fx.BarReactivesEffect: _bar_reactives,
    fx.UltimatumEffect: _ultimatum,
    fx.ChooseFormEffect: _choose_form,
    fx.ChrysalisEffect: _chrysalis,
    fx.BleedFactorEffect: resolved_elsewhere,  # `_bleed` reads the passive in play (R-ADD-280)
    fx.GritModifierEffect: _grit_modifier,
    fx.GritRerollEffect: resolved_elsewhere,  # `harm._grit_check` reads the passive in play (R-ADD-411)
    fx.ForbidCardsEffect: _forbid_cards,
    fx.CardCostEffect: _card_cost,
}
