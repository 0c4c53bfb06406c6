"""The sentences of the events of actions and the effects of cards (battles/engine/battle/events/actions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev
from battles.engine.cards import SP_ALL
from battles.engine.hexes import DIRECTION_NAMES

from .parts import (
    Names,
    Sentence,
    _hex,
    _reason_rule,
    _rule,
    _signed,
    agreed,
    card,
    cards,
    count,
    d6,
    hex_at,
    lost,
    reason,
    rule,
    said,
    sentence,
    source,
    t,
)


@sentence(ev.CasketMoved)
def _casket_moved(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    path = p["path"]
    by = [t(" with "), names.card(p["by_card"])] if p.get("by_card") else []
    return (
        # The path leaves out the start hex (R-MOV-3): its length is hexes moved.
        t(f"{who} moves {count(len(path), 'hex', 'hexes')} to "),
        _hex(path[-1]),
        t(f" for {p['cost']} SP"),
        *by,
    )


@sentence(ev.CasketRotated)
def _casket_rotated(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    free = "free turn" if p.get("free_used") else f"{p['cost']} SP"
    facing = DIRECTION_NAMES.get(p["facing"], str(p["facing"]))
    return (t(f"{who} turns to face {facing} ({free}, "), ("rule", "R-ARC-5"), t(")"))


said(ev.HeatVented, "{who} vents {removed} Heat for {cost} SP")


said(
    ev.CardPlayed,
    "{who} plays ",
    card(),
    " ({cost} SP){manual}",
    manual=lambda p: " — refereed by hand" if p.get("manual") else "",
)


said(ev.CardResolved, card(), " goes to {who}'s discard pile")


@sentence(ev.CardLapsed)
def _card_lapsed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    pile = "is removed from the game" if p.get("removed") else f"goes to {who}'s discard pile"
    return (
        names.card(p["card"]),
        t(f" has lasted its {count(p['turns'], 'turn')} and {pile}"),
        *_rule("R-ADD-375"),
    )


said(ev.OverspendPaid, "{who} overspends {sp} SP, paying with ", lost(), rule("R-TRN-3"))


said(
    ev.HeatChanged,
    "{who} {amount:sign:gains/loses} {amount:abs} Heat, now {heat}",
    reason("reason"),
)


said(ev.CardsDiscarded, "{who} discards ", lost(), reason("reason"))


said(
    ev.CardsRecovered,
    "{who} takes back ",
    cards("cards"),
    " ({reason})",
    reason=lambda p: agreed(p.get("reason", "")),
)


said(
    ev.CardsRestored,
    "{who} takes ",
    cards("cards"),
    " out of the damage pile into the discard pile",
    reason("reason"),
)


said(
    ev.DeckReshuffled,
    "{who}'s discard pile becomes a deck of {n:count:card} with a Damage card",
    rule("R-TRN-6"),
    n=lambda p: p["cards"] if p.get("order") is None else len(p["order"]),
)


@sentence(ev.BuffGained)
def _buff_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    gains = [
        f"{k.replace('_', ' ')} {_signed(p[k])}"
        for k in ("damage", "to_hit", "ignore_defence", "damage_this_turn")
        if p.get(k)
    ]
    return (t(f"{who} gains {', '.join(gains) or 'nothing'} ({p.get('source', '')})"),)


said(ev.StatusApplied, "{who} is {status} ({source})", source=lambda p: p.get("source", ""))


@sentence(ev.TokensChanged)
def _tokens_changed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    pool = p["pool"].replace("_", " ")
    verb = "gains" if p["amount"] >= 0 else "spends"
    return (
        t(f"{who} {verb} {count(abs(p['amount']), pool + ' token')}, now {p['total']}"),
        *_reason_rule(p.get("source"), "R-ADD-61"),
    )


said(
    ev.TaintChanged,
    "{who} {amount:sign:gains/loses} {amount:abs} Taint, now {taint}",
    source("R-ADD-66"),
)


said(ev.DefenceRaised, "{who} gains +{amount} Defense until its next turn", source("R-ADD-64"))


said(
    ev.ThornsRaised,
    "{who}: {whom} takes {damage} damage after the attack{until}",
    source("R-ADD-130"),
    whom=lambda p: (
        "each melee attacker"
        if p.get("melee_only")
        else "the next attacker"
        if p["until"] == "next_attack"
        else "each attacker"
    ),
    until=lambda p: "" if p["until"] == "next_attack" else " until its next turn",
)


@sentence(ev.LastingBonusGained)
def _lasting_bonus_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    return (
        t(
            f"{who} deals +{p['damage']} damage with every attack for the rest of the "
            f"battle, +{p['total']} in all"
        ),
        *_reason_rule(p.get("source"), "R-ADD-131"),
    )


said(
    ev.SpBoosted,
    "{who} gains {amount} {what} this turn",
    source("R-ADD-135"),
    what=lambda p: "SP maximum" if p.get("maximum") else "SP",
)


@sentence(ev.TurnBuffGained)
def _turn_buff_gained(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    parts = [f"{_signed(p['damage'])} damage"] if p["damage"] else []
    if p["to_hit"]:
        parts.append(f"{_signed(p['to_hit'])} on the target number")
    if p["ignore_defence"]:
        parts.append(f"ignores {p['ignore_defence']} Defense")
    return (
        t(f"{who}'s next attack this turn: {', '.join(parts)}"),
        *_reason_rule(p.get("source"), "R-ADD-139"),
    )


said(
    ev.ComponentDamagePrevented,
    "{who} ignores {amount} Component Damage to its {component:component}",
    source(default="R-ADD-136"),
)


said(ev.CounterRaised, "{who}'s counter-damage rises by {amount}", source("R-ADD-130"))


said(
    ev.SelfDamageDue,
    "{who} will take {amount} damage once this attack has ended",
    source("R-ADD-130"),
)


said(
    ev.BonusHeld,
    "{who} holds its next-attack bonus from {source} until an attack",
    rule("R-ADD-139"),
)


said(
    ev.DamageReduced,
    "{who} takes {amount} damage less{lethal}",
    source(default="R-ADD-136"),
    # R-ADD-391: all of the damage that would have defeated it, negated
    lethal=lambda p: ", all that would have defeated it" if p.get("rule") == "R-ADD-391" else "",
)


said(
    ev.DamageNegated,
    "{who} takes {amount} damage less, negated by ",
    card(),
    " ({used} of this turn's first damage)",
    rule("R-ADD-376"),
)


said(
    ev.SeedsPlanted,
    "{amount:count:Thornvine seed} planted in ",
    hex_at("at"),
    ", {total} there",
    source("R-ADD-66"),
)


@sentence(ev.SeedsDetonated)
def _seeds_detonated(p: Mapping[str, Any], names: Names) -> Sentence:
    seeds = sum(h[2] for h in p["hexes"])
    where = count(len(p["hexes"]), "hex", "hexes")
    verb = "detonates" if seeds == 1 else "detonate"
    return (
        t(f"{count(seeds, 'Thornvine seed')} in {where} {verb}"),
        *_reason_rule(p.get("source"), "R-ADD-66"),
    )


said(
    ev.SpPenaltyImposed,
    "{who} will have {less} next turn",
    source("R-ADD-65"),
    less=lambda p: "no SP" if p["amount"] >= SP_ALL else f"{p['amount']} SP less",  # R-ADD-119
)


said(
    ev.DamageScheduled,
    "{who} will take {amount} damage at the start of their next turn",
    source("R-ADD-73"),
)


said(
    ev.MoveGranted,
    "{who} may move up to {hexes:count:hex/hexes} at no SP this turn",
    source("R-ADD-69"),
)


said(
    ev.EffectRolled,
    "{who} rolls for {source}: ",
    d6("faces"),
    " = {total}",
    rule(default="R-ADD-67"),
    source=lambda p: p.get("source", ""),
)


said(
    ev.CardsShuffledIn,
    "{who} shuffles ",
    cards("cards"),
    " from the discard pile into the deck",
    reason("reason", "R-ADD-62"),
)


said(ev.SufferingRolled, "{who} rolls the suffering die: ", d6("faces"))
