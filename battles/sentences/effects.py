"""The sentences of the events of lasting effects (battles/engine/battle/events/effects.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev

from .parts import (
    Names,
    Sentence,
    _cards,
    _hex,
    _reason_rule,
    _rule,
    agreed,
    count,
    sentence,
    t,
)


def _next_turns(n: int) -> str:
    """ "their next turn", or "their next 3 turns"."""
    return "their next turn" if n == 1 else f"their next {count(n, 'turn')}"


@sentence(ev.DuelChallenged)
def _duel_challenged(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} challenges {names.casket(p['target'])} to an Honor Duel"),
        *_reason_rule(p.get("source"), "R-ADD-174"),
    )


@sentence(ev.DuelAnswered)
def _duel_answered(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    if p["accepted"]:
        what = f"accepts {names.casket(p['challenger'])}'s Honor Duel"
    else:
        what = (
            f"refuses {names.casket(p['challenger'])}'s Honor Duel and bears Coward's "
            f"Mark (+{p['mark_damage']} damage from Crucible attacks)"
        )
    return (t(f"{who} {what}"), *_rule("R-ADD-174"))


@sentence(ev.ReactivesBarred)
def _reactives_barred(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} cannot play reactive cards this turn"),
        *_reason_rule(p.get("source"), "R-ADD-174"),
    )


@sentence(ev.FormTaken)
def _form_taken(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} takes {p['form'].capitalize()} Form until the end of the round"),
        *_reason_rule(p.get("source"), "R-ADD-170"),
    )


@sentence(ev.EnemyMarked)
def _enemy_marked(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} marks {names.casket(p['target'])}"),
        *_reason_rule(p.get("source"), "R-ADD-148"),
    )


@sentence(ev.Rooted)
def _rooted(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} cannot move through {_next_turns(p['turns'])}"),
        *_reason_rule(p.get("source"), "R-ADD-111"),
    )


@sentence(ev.BleedApplied)
def _bleed_applied(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} gains {count(p['amount'], 'Bleed counter')}, now {p['total']}"),
        *_reason_rule(p.get("source"), "R-ADD-110"),
    )


@sentence(ev.BleedTicked)
def _bleed_ticked(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} bleeds: 1 damage, {count(p['total'], 'Bleed counter')} left"),
        *_rule("R-ADD-110"),
    )


@sentence(ev.OngoingDamageScheduled)
def _ongoing_damage_scheduled(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(
            f"{who} will take {p['amount']} damage at the start of "
            + ("each of " if p["turns"] != 1 else "")
            + _next_turns(p["turns"])
        ),
        *_reason_rule(p.get("source"), "R-ADD-112"),
    )


@sentence(ev.MoveCostRaised)
def _move_cost_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who}'s moves cost +{p['amount']} SP a hex next turn"),
        *_reason_rule(p.get("source"), "R-ADD-113"),
    )


@sentence(ev.DrawPenaltyImposed)
def _draw_penalty_imposed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} will draw {count(p['n'], 'card')} fewer next turn"),
        *_reason_rule(p.get("source"), "R-ADD-114"),
    )


@sentence(ev.AttacksForgone)
def _attacks_forgone(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} cannot attack until their next turn"),
        *_reason_rule(p.get("source"), "R-ADD-115"),
    )


@sentence(ev.GritModifierRaised)
def _grit_modifier_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    which = "the next Grit check" if p.get("next_check") else "every Grit check this battle"
    return (
        t(f"{names.pilot(p.get('seat'))} adds +{p['amount']} to {which}"),
        *_reason_rule(p.get("source"), "R-ADD-361" if p.get("next_check") else "R-ADD-360"),
    )


@sentence(ev.DefenceLowered)
def _defence_lowered(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} has -{p['amount']} Defense until the end of their next turn"),
        *_reason_rule(p.get("source"), "R-ADD-119"),
    )


@sentence(ev.SpendArmed)
def _spend_armed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who}'s spend also buys what {p.get('source', '')} does on a hit"),
        *_rule("R-ADD-116"),
    )


@sentence(ev.CasketPushed)
def _casket_pushed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    path = p["path"]
    if not path:
        return (
            t(f"{who} holds its ground"),
            *_reason_rule(p.get("source"), p.get("rule", "R-ADD-100")),
        )
    return (
        t(f"{who} is forced {count(len(path), 'hex', 'hexes')} to "),
        _hex(path[-1]),
        *_reason_rule(p.get("source"), p.get("rule", "R-ADD-100")),
    )


@sentence(ev.CasketTeleported)
def _casket_teleported(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} teleports {count(p['hexes'], 'hex', 'hexes')} to "),
        _hex(p["at"]),
        *_reason_rule(p.get("source"), "R-ADD-102"),
    )


@sentence(ev.AttackEnhanced)
def _attack_enhanced(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    kind = "attack" if p["attacks"] == "any" else f"{p['attacks']} attack"
    period = "this round" if p.get("this_round") else "this turn"
    scope = f"every {kind} {period} is" if p.get("every") else f"next {kind} is"
    return (
        t(f"{who}'s {scope} enhanced"),
        *_reason_rule(p.get("source"), "R-ADD-90"),
    )


@sentence(ev.EnhancementsSpent)
def _enhancements_spent(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    n = len(p["indices"])
    return (t(f"{who}'s attack spends {count(n, 'enhancement')}"), *_rule("R-ADD-90"))


@sentence(ev.WardRaised)
def _ward_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    until = str(p["until"]).replace("_", " ")
    return (
        t(f"{who} is warded against {p['against']} damage until {until}"),
        *_reason_rule(p.get("source"), "R-ADD-93"),
    )


@sentence(ev.WardUsed)
def _ward_used(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    change = "" if p.get("before") is None else f": {p['before']} damage becomes {p['after']}"
    return (
        t(f"{who}'s ward acts{change}"),
        *_reason_rule(p.get("source"), "R-ADD-94" if change else "R-ADD-93"),
    )


@sentence(ev.DefenceBuffsIgnored)
def _defence_buffs_ignored(p: Mapping[str, Any], names: Names) -> Sentence:
    attacker = names.casket(p["attacker"])
    return (t(f"{attacker}'s attack ignores Defense buffs"), *_rule("R-ADD-92"))


@sentence(ev.SpGained)
def _sp_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} gains {p['amount']} SP this turn"),
        *_reason_rule(p.get("source"), "R-ADD-95"),
    )


@sentence(ev.UntargetableGained)
def _untargetable_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    which = "attacks" if p["against"] == "all" else "ranged attacks"
    until = " or until it attacks" if p.get("until_attack") else ""
    return (
        t(f"{who} cannot be targeted by {which} until its next turn{until}"),
        *_reason_rule(p.get("source"), "R-ADD-155"),
    )


@sentence(ev.HandRevealed)
def _hand_revealed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} looks at {names.casket(p['target'])}'s hand: "),
        *_cards(p["cards"], names),
        *_reason_rule(p.get("source"), "R-ADD-156"),
    )


@sentence(ev.CardsStolen)
def _cards_stolen(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} takes from {names.casket(p['target'])}'s hand into its own: "),
        *_cards(p["cards"], names),
        *_reason_rule(p.get("source"), "R-ADD-386"),
    )


@sentence(ev.TargetBonusGained)
def _target_bonus_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    gets = [f"+{p['damage']} damage" * bool(p.get("damage"))]
    if p.get("advantage"):  # R-ADD-295
        gets.append(f"Advantage ({count(p['advantage'], 'more attack die', 'more attack dice')})")
    rule = "R-ADD-295" if p.get("advantage") else "R-ADD-156"
    return (
        t(f"{who}'s next attack on {names.casket(p['target'])} gets "),
        t(" and ".join(g for g in gets if g)),
        *_reason_rule(p.get("source"), rule),
    )


@sentence(ev.CardsLookedAt)
def _cards_looked_at(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} looks at the top of their deck: "),
        *_cards(p["cards"], names),
        *_reason_rule(p.get("source"), "R-ADD-157"),
    )


@sentence(ev.DeckArranged)
def _deck_arranged(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} puts them back, top first: "),
        *_cards(p["order"], names),
        *_rule("R-ADD-157"),
    )


@sentence(ev.WreckScavenged)
def _wreck_scavenged(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} scavenges the wreck of {names.casket(p['wreck'])}, removed from play"),
        *_reason_rule(p.get("source"), "R-ADD-158"),
    )


@sentence(ev.UltimatumAnswered)
def _ultimatum_answered(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    chose = "skip their next turn" if p["option"] == "skip_turn" else "take the damage now"
    return (t(f"{who} chooses to {chose}"), *_rule("R-ADD-159"))


@sentence(ev.HitDamageBargained)
def _hit_damage_bargained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} gives up cards to make the hit {p['damage']} damage"),
        *_reason_rule(p.get("source"), "R-ADD-159"),
    )


@sentence(ev.HitBargainedAway)
def _hit_bargained_away(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} pays the price: the attack misses"),
        *_reason_rule(p.get("source"), "R-ADD-159"),
    )


@sentence(ev.TurnSkipped)
def _turn_skipped(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (t(f"{who} skips this turn"), *_rule("R-ADD-159"))


@sentence(ev.UntargetableEnded)
def _untargetable_ended(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(f"{who} attacks and can be targeted again"),
        *_reason_rule(p.get("source"), "R-ADD-155"),
    )


@sentence(ev.DamageAuraRaised)
def _damage_aura_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    within = count(p["within"], "hex", "hexes")
    return (
        t(
            f"Until its next turn, each enemy within {within} of {who} "
            f"takes {p['amount']} damage as its turn starts"
        ),
        *_reason_rule(p.get("source"), "R-ADD-88"),
    )


@sentence(ev.AttacksQueued)
def _attacks_queued(p: Mapping[str, Any], names: Names) -> Sentence:
    targets = ", ".join(names.casket(a[0]) for a in p["attacks"])
    return (
        t(f"{names.casket(p['attacker'])}'s "),
        names.card(p["card"]),
        t(f" attacks again after this attack: {targets}"),
        *_rule(p.get("rule")),
    )


@sentence(ev.FollowUpTaken)
def _follow_up_taken(p: Mapping[str, Any], names: Names) -> Sentence:
    if p["made"]:
        return (
            t(f"{names.casket(p['attacker'])}'s "),
            names.card(p["card"]),
            t(f" attacks {names.casket(p['target'])} again"),
            *_rule(p.get("rule")),
        )
    return (
        t(f"{names.casket(p['attacker'])}'s "),
        names.card(p["card"]),
        t(f" does not attack {names.casket(p['target'])}: {agreed(p['reason'])}"),
        *_rule(p.get("rule")),
    )
