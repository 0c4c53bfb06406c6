"""Resolvers of the attack effects: buffs to the next attack, this turn's and lasting bonuses, auras, thorns."""

from __future__ import annotations

from typing import Any

from ....cards.effects import attacks as fx
from ....errors import RuleViolation
from ... import events as ev
from .. import attacking, conditions
from .base import Resolver, Resolving, resolved_elsewhere


def _lasting_bonus(ctx: Resolving, effect: fx.LastingBonusEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    attacking._lasting_bonus(tx, seat, effect, card.id)


def _buff_this_turn(ctx: Resolving, effect: fx.BuffThisTurnEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.TurnBuffGained(seat, effect.damage, effect.to_hit, effect.ignore_defence, card.id))


def _damage_aura(ctx: Resolving, effect: fx.DamageAuraEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.DamageAuraRaised(seat, effect.amount, effect.within, card.id))


def _enhance_next_attack(ctx: Resolving, effect: fx.EnhanceNextAttackEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    attacking._enhance(tx, seat, card, effect)


def _attack_command(
    ctx: Resolving, effect: fx.AttackEffect | fx.AttackBonusEffect | fx.IgnoreCoverEffect
) -> None:
    skip_attack = ctx.skip_attack
    if not skip_attack:  # pragma: no cover - play_card refuses attack cards
        raise RuleViolation("use_attack", "send an attack command", "R-HIT-1")


def _buff_next_attack(ctx: Resolving, effect: fx.BuffNextAttackEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    tx.emit(ev.BuffGained(seat, effect.damage, effect.to_hit, effect.blocks_ignored, 0, card.id))


def _bonus_against(ctx: Resolving, effect: fx.BonusAgainstEffect) -> None:
    tx, seat, card = ctx.tx, ctx.seat, ctx.card
    # R-ADD-295: the enemy whose Taint bought it; else R-ADD-156's, as R-ADD-65
    enemy = ctx.attack_target
    if enemy is None:
        enemy = conditions._enemy_in_range(tx, seat, card, ctx.target)
        ctx.used["target"] = True
    tx.emit(ev.TargetBonusGained(seat, enemy, effect.damage, card.id, effect.advantage))


RESOLVERS: dict[type[Any], Resolver] = {
    fx.AttackEffect: _attack_command,
    fx.AreaAttackEffect: resolved_elsewhere,  # queued as the attack is declared, made once it ends (R-ADD-80, R-ADD-81)
    fx.FollowUpEffect: resolved_elsewhere,
    # `harm._take_damage` adds it to the Component Damage of the attack's discards (R-ADD-365)
    fx.ComponentTypeDamageEffect: resolved_elsewhere,  # queued as the attack is declared, made once it ends (R-ADD-80, R-ADD-81)
    fx.BuffNextAttackEffect: _buff_next_attack,
    fx.AttackBonusEffect: _attack_command,
    fx.EnhanceNextAttackEffect: _enhance_next_attack,
    fx.AttackRulesEffect: resolved_elsewhere,  # `_attack` reads it as the attack is declared (R-ADD-91)
    fx.IgnoreCoverEffect: _attack_command,
    fx.BonusAgainstEffect: _bonus_against,
    fx.AfterAttackEffect: resolved_elsewhere,  # `_end_attack` runs it when the attack's outcome is known (R-ADD-65)
    fx.DamageAuraEffect: _damage_aura,
    fx.DestroyOnCriticalEffect: resolved_elsewhere,  # `_end_attack` destroys the component on a critical hit (R-ADD-131)
    fx.AdvantageEffect: resolved_elsewhere,  # `attack_answer` reads it: the attack roll's pool (R-ADD-176)
    fx.OfferMissEffect: resolved_elsewhere,  # `reactions._play_reactive` opens the siphon prompt, `prompts._siphon` answers it (R-ADD-159)
    fx.BuffThisTurnEffect: _buff_this_turn,
    fx.LastingBonusEffect: _lasting_bonus,
    # `resolution._offer_defence_reroll` offers it after the defence roll (R-ADD-412)
    fx.ForceDefenceRerollEffect: resolved_elsewhere,
    fx.RerollAttackDieEffect: resolved_elsewhere,  # `attacking._strike` offers it once the attack is rolled (R-ADD-282)
}
