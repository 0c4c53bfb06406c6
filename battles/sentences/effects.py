"""The sentences of the events of lasting effects (battles/engine/battle/events/effects.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev

from .parts import (
    Names,
    Sentence,
    _hex,
    _reason_rule,
    _rule,
    agreed,
    cards,
    count,
    hex_at,
    rule,
    said,
    sentence,
    source,
    t,
)


def _next_turns(n: int) -> str:
    """ "their next turn", or "their next 3 turns"."""
    return "their next turn" if n == 1 else f"their next {count(n, 'turn')}"


said(ev.DuelChallenged, "{who} challenges {target:casket} to an Honor Duel", source("R-ADD-174"))


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


said(ev.ReactivesBarred, "{who} cannot play reactive cards this turn", source("R-ADD-174"))
said(
    ev.CardsForbidden,
    "{who} cannot play {classes} cards until the end of the turn",
    source("R-ADD-340"),
    classes=lambda p: " or ".join(p["classes"]),
)


said(
    ev.FormTaken,
    "{who} takes {form} Form until the end of the round",
    source("R-ADD-170"),
    form=lambda p: p["form"].capitalize(),
)


said(ev.FormOffered, "{who} chooses a form", source("R-ADD-362"))


said(
    ev.ChrysalisEntered,
    "{who} enters Chrysalis state: its next turn passes without acting",
    source("R-ADD-366"),
)


said(ev.ChrysalisEmerged, "{who} emerges from its chrysalis", source("R-ADD-366"))


said(ev.EnemyMarked, "{who} marks {target:casket}", source("R-ADD-148"))


said(
    ev.Rooted,
    "{who} cannot move through {next_turns}",
    source("R-ADD-111"),
    next_turns=lambda p: _next_turns(p["turns"]),
)


said(ev.BleedApplied, "{who} gains {amount:count:Bleed counter}, now {total}", source("R-ADD-110"))


said(ev.BleedTicked, "{who} bleeds: 1 damage, {total:count:Bleed counter} left", rule("R-ADD-110"))


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


said(
    ev.DamageUntilDiscards,
    "{who} will take {amount} damage at the start of each of their turns until they have "
    "discarded {discards:count:card}",
    source("R-ADD-443"),
)


said(
    ev.SpLocked,
    "{who} {turns}",
    source("R-ADD-343"),
    turns=lambda p: (
        "has 0 SP and cannot act in "
        + " and ".join(f"their turn {i + 1} from now" for i, x in enumerate(p["turns"]) if x)
    ),
)
said(
    ev.CardCostRaised,
    "{who}'s cards cost +{amount} SP each in their next turn",
    source("R-ADD-341"),
)
said(ev.MoveCostRaised, "{who}'s moves cost +{amount} SP a hex next turn", source("R-ADD-113"))


said(ev.DrawPenaltyImposed, "{who} will draw {n:count:card} fewer next turn", source("R-ADD-114"))


said(ev.AttacksForgone, "{who} cannot attack until their next turn", source("R-ADD-115"))
said(
    ev.CasketCursed,
    "{by:casket} curses {who} until it is lifted: {who} and its allies near it draw fewer",
    source("R-ADD-421"),
)
said(ev.LoopArmed, "{who} will store the next damage it takes this turn", source("R-ADD-422"))
said(
    ev.DamageLooped,
    "{who} stores {amount} damage in a temporal loop instead of taking it",
    source("R-ADD-422"),
)


@sentence(ev.LoopReleased)
def _loop_released(p: Mapping[str, Any], names: Names) -> Sentence:
    amount = f"{p['amount']} damage"
    if p["target"] < 0:
        text = f"{names.casket(p['seat'])}'s stored {amount} is lost: no enemy within reach"
    else:
        text = f"{names.casket(p['seat'])} sends its stored {amount} to {names.casket(p['target'])}"
    return (t(text), *source("R-ADD-422")(p, names))


said(
    ev.CurseLifted,
    "{who}'s curse is lifted: it destroyed {killed:casket}",
    source("R-ADD-421"),
)


@sentence(ev.GritModifierRaised)
def _grit_modifier_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    which = "the next Grit check" if p.get("next_check") else "every Grit check this battle"
    return (
        t(f"{names.pilot(p.get('seat'))} adds +{p['amount']} to {which}"),
        *_reason_rule(p.get("source"), "R-ADD-361" if p.get("next_check") else "R-ADD-360"),
    )


said(
    ev.DefenceLowered,
    "{who} has -{amount} Defense until the end of their next turn",
    source("R-ADD-119"),
)


said(
    ev.SpendArmed,
    "{who}'s spend also buys what {source} does on a hit",
    rule("R-ADD-116"),
    source=lambda p: p.get("source", ""),
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
    if p.get("rule") == "R-ADD-390":  # an enemy teleported to a hex the player chose
        return (
            t(f"{who} is teleported to "),
            _hex(path[-1]),
            *_reason_rule(p.get("source"), "R-ADD-390"),
        )
    return (
        t(f"{who} is forced {count(len(path), 'hex', 'hexes')} to "),
        _hex(path[-1]),
        *_reason_rule(p.get("source"), p.get("rule", "R-ADD-100")),
    )


said(
    ev.CasketTeleported,
    "{who} teleports {hexes:count:hex/hexes} to ",
    hex_at("at"),
    source("R-ADD-102"),
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


said(
    ev.EnhancementsSpent,
    "{who}'s attack spends {n:count:enhancement}",
    rule("R-ADD-90"),
    n=lambda p: len(p["indices"]),
)


@sentence(ev.WardRaised)
def _ward_raised(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    until = str(p["until"]).replace("_", " ")
    # R-ADD-362: a Metamorph form's lesser Defense and its movement say what they do.
    changes = []
    if p.get("defence", 0) < 0:
        changes.append(f"meets {count(-p['defence'], 'automatic block')} fewer")
    if p.get("move_cost"):
        changes.append(f"pays {p['move_cost']} SP more for each hex it moves")
    if p.get("ignore_terrain"):
        changes.append("moves at 1 SP a hex whatever the terrain")
    if changes and not any(p.get(k) for k in ("to_hit", "damage", "reduce", "cap")):
        if p.get("defence", 0) > 0:
            changes.insert(0, f"meets {count(p['defence'], 'more automatic block')}")
        return (
            t(f"{who} {' and '.join(changes)} until {until}"),
            *_reason_rule(p.get("source"), "R-ADD-362"),
        )
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


said(ev.DefenceBuffsIgnored, "{attacker:casket}'s attack ignores Defense buffs", rule("R-ADD-92"))


said(ev.SpGained, "{who} gains {amount} SP this turn", source("R-ADD-95"))


said(
    ev.UntargetableGained,
    "{who} cannot be targeted by {which} until its next turn{until}",
    source("R-ADD-155"),
    which=lambda p: "attacks" if p["against"] == "all" else "ranged attacks",
    until=lambda p: " or until it attacks" if p.get("until_attack") else "",
)


said(
    ev.HandRevealed, "{who} looks at {target:casket}'s hand: ", cards("cards"), source("R-ADD-156")
)


# R-ADD-386: the cards are named to the two seats and the GM only (the event's SHOWN).
said(
    ev.CardsStolen,
    "{who} takes from {target:casket}'s hand into its own: ",
    cards("cards"),
    source("R-ADD-386"),
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


said(
    ev.CardsLookedAt, "{who} looks at the top of their deck: ", cards("cards"), source("R-ADD-157")
)


said(ev.DeckArranged, "{who} puts them back, top first: ", cards("order"), rule("R-ADD-157"))


said(
    ev.WreckScavenged,
    "{who} scavenges the wreck of {wreck:casket}, removed from play",
    source("R-ADD-158"),
)


said(
    ev.UltimatumAnswered,
    "{who} chooses to {chose}",
    rule("R-ADD-159"),
    chose=lambda p: {
        "skip_turn": "skip their next turn",
        "discard": "discard cards to resist (R-ADD-342)",
    }.get(p["option"], "take the damage now"),
)


said(
    ev.HitDamageBargained,
    "{who} gives up cards to make the hit {damage} damage",
    source("R-ADD-159"),
)


said(ev.HitBargainedAway, "{who} pays the price: the attack misses", source("R-ADD-159"))


said(ev.TurnSkipped, "{who} skips this turn", rule("R-ADD-159"))


said(ev.UntargetableEnded, "{who} attacks and can be targeted again", source("R-ADD-155"))


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
