"""The sentences of the events of attacks and damage (battles/engine/battle/events/attacks.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battles.engine.battle import events as ev
from battles.engine.tohit import MAX_DAMAGE

from .parts import (
    COMPONENT_NAMES,
    Names,
    Part,
    Sentence,
    _attack_dice,
    _cards,
    _d6,
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
    path_end,
    reason,
    rule,
    said,
    sentence,
    side_words,
    source,
    t,
    wound_name,
)

said(
    ev.ZoneCreated,
    "{who}'s ",
    card(),
    " makes a zone around ",
    hex_at("at"),
    " until the end of the round",
    rule("R-ADD-129"),
)


said(
    ev.TerrainEntered,
    "{who} enters ",
    "{maker:casket}'s {kind:words} at ",
    hex_at("at"),
    " (",
    card(),
    "): {damage} damage",
    rule("R-ADD-165"),
)


@sentence(ev.TerrainCreated)
def _terrain_created(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    if p.get("hp"):  # R-ADD-382: each hex's hit points, until destroyed
        lasts = f", {count(p['hp'], 'hit point')} a hex, until destroyed"
    elif p.get("until_round"):
        lasts = f" until the end of round {p['until_round']}"
    elif p.get("turns"):
        lasts = f" for {p['turns']} of its turns"
    else:
        lasts = " for the rest of the battle"
    hexes: list[Part] = []
    for i, at in enumerate(p["hexes"]):
        hexes += [t(", ")] if i else []
        hexes.append(_hex(at))
    return (
        t(f"{who}'s "),
        names.card(p["card"]),
        t(f" makes {str(p['kind']).replace('_', ' ')} terrain at "),
        *hexes,
        t(lasts),
        *_rule("R-ADD-382" if p.get("hp") else "R-ADD-161"),
    )


@sentence(ev.TerrainAttacked)
def _terrain_attacked(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    kind = str(p["kind"]).replace("_", " ")
    left = f", {count(p['left'], 'hit point')} left" if p["left"] else ": destroyed, the hex opens"
    return (
        t(f"{who}'s "),
        names.card(p["card"]),
        t(f" strikes the {kind} at "),
        _hex(p["at"]),
        t(f" for {count(p['damage'], 'hit point')}{left}"),
        *_rule("R-ADD-382"),
    )


said(
    ev.AttackWarded,
    "{who}'s ",
    card(),
    " negates the damage of this attack on {target:casket}",
    rule("R-ADD-128"),
)


said(
    ev.AllyMoved,
    "{who} is moved {path:len:hex/hexes} to ",
    path_end(),
    " by {by:casket}'s card",
    source("R-ADD-126"),
)


said(
    ev.DamageDeflected,
    "{who} deflects {amount} damage back to {attacker:casket}",
    rule("R-ADD-125"),
)


said(
    ev.DamageCardsRemoved,
    "{who} removes ",
    cards("cards"),
    " from its discard pile, out of the game",
    source("R-ADD-124"),
)


@sentence(ev.DefenceLent)
def _defence_lent(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    until = (
        "the end of the round" if p["until"] == -1 else f"{names.casket(p['until'])}'s next turn"
    )
    return (
        t(f"{who} gains +{p['amount']} Defense until {until}"),
        *_reason_rule(p.get("source"), "R-ADD-123"),
    )


said(ev.RotationGranted, "{who} may rotate 60° once more at no SP this turn", source("R-ADD-189"))


@sentence(ev.AttackDeclared)
def _attack_declared(p: Mapping[str, Any], names: Names) -> Sentence:
    th = p.get("to_hit") or {}
    distance = th.get("distance")
    at = f" at {count(distance, 'hex', 'hexes')}" if distance is not None else ""
    side = side_words(th.get("side_name") or f"side {p['side']}")
    comp = COMPONENT_NAMES.get(p["component"], p["component"])
    parts: list[Part] = [
        t(f"{names.casket(p['attacker'])} attacks {names.casket(p['target'])} with "),
        names.card(p["card"]),
        t(f"{at} ({side}, {comp}): needs {p['target_number']}+"),
    ]
    for i, m in enumerate(th.get("modifiers", [])):
        value = m["value"] if m.get("key") == "base" else _signed(m["value"])
        label = agreed(m["label"])
        parts += [t((" (" if i == 0 else ", ") + f"{label} {value} "), ("rule", m["rule"])]
    if th.get("modifiers"):
        parts.append(t(")"))
    hit = (th.get("odds") or {}).get("hit")
    if hit:
        parts.append(t(f", {hit} to hit"))
    return tuple(parts)


@sentence(ev.AttackRolled)
def _attack_rolled(p: Mapping[str, Any], names: Names) -> Sentence:
    outcome = p["grade"] + (f", {p['damage']} damage" if p.get("damage") else "")
    return (
        t("Rolled "),
        *_attack_dice(p["faces"]),
        t(f" = {p['total']}: {outcome}"),
        *_rule("R-HIT-4"),
    )


@sentence(ev.RerollOffered)
def _reroll_offered(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    times = "" if p["left"] == 1 else f" ({count(p['left'], 'time')})"
    return (
        t(f"{who} may roll one attack die again{times} or keep the roll, by "),
        names.card(p["source"]),
        *_rule("R-ADD-282"),
    )


@sentence(ev.DefenceRerollOffered)
def _defence_reroll_offered(p: Mapping[str, Any], names: Names) -> Sentence:
    blocking = ", ".join(str(k) for k in p["blocking"])
    return (
        t(f"{names.casket(p.get('target'))}'s defence roll "),
        *_d6(p["faces"]),
        t(
            f" waits: {names.casket(p.get('seat'))} may force blocking dice "
            f"({blocking}) to be rolled again"
        ),
        *_rule("R-ADD-412"),
    )


@sentence(ev.DefenceRerolled)
def _defence_rerolled(p: Mapping[str, Any], names: Names) -> Sentence:
    dice = ", ".join(str(k) for k in p["dice"])
    return (
        t(f"{names.casket(p.get('seat'))} forces {names.casket(p.get('target'))} to roll "),
        t(f"{count(len(p['dice']), 'defence die', 'defence dice')} ({dice}) again with "),
        names.card(p["card"]),
        t(": now "),
        *_d6(p["faces"]),
        *_rule("R-ADD-412"),
    )


@sentence(ev.AttackRerolled)
def _attack_rerolled(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    outcome = p["grade"] + (f", {p['damage']} damage" if p.get("damage") else "")
    return (
        t(f"{who} rolls die {p['die']} again: "),
        *_attack_dice([p["face"]]),
        t("; now "),
        *_attack_dice(p["faces"]),
        t(f" = {p['total']}: {outcome}"),
        *_rule("R-ADD-282"),
    )


said(
    ev.WeaponJammed,
    "{who}'s weapon jams: discards ",
    cards("discarded"),
    ", Heat now {heat}",
    rule("R-DMG-1"),
)


said(
    ev.ReactivePlayed,
    "{who} answers with ",
    card(),
    ", reducing the damage by {reduction}",
    rule("R-REA-1"),
)


said(ev.ReactiveDeclined, "{who} plays no reactive card", rule("R-REA-1"))


said(
    ev.AttackCovered,
    "{who} {verb} {target:casket}{whose} with ",
    card(),
    "{cut}",
    lambda p, names: rule("R-ADD-430" if p.get("keeps") else "R-ADD-122")(p, names),
    # R-ADD-430: a card that leaves the damage with the ally shields it, taking none over.
    verb=lambda p: "shields" if p.get("keeps") else "takes",
    whose=lambda p: "" if p.get("keeps") else "'s damage",
    cut=lambda p: (
        ", negating all of it"  # R-ADD-394: "negate all damage", the most any damage can be
        if p.get("reduction", 0) >= MAX_DAMAGE
        else f", reducing {'its damage' if p.get('keeps') else 'it'} by {p['reduction']}"
        if p.get("reduction")
        else ""
    ),
)


@sentence(ev.DefenceRolled)
def _defence_rolled(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    extra = [
        f"{p['heat']} Heat" * bool(p.get("heat")),
        "pierced" * bool(p.get("pierce")),
        f"{p['component_damage']} component damage" * bool(p.get("component_damage")),
    ]
    extras = "".join(f", {e}" for e in extra if e)
    return (
        t(f"{who} rolls defence "),
        *_d6(p["faces"]),
        t(f": {p['blocks']} blocked, {p['final_damage']} damage{extras}"),
        *_rule("R-DMG-2"),
    )


said(ev.AttackEnded, "{attacker:casket}'s attack with ", card(), " ends: {outcome}")


said(
    ev.PromptOpened,
    "Waiting for {who}: {kind:words}{amount}",
    reason("reason"),
    amount=lambda p: f" {p['amount']}" if p.get("amount") else "",
)


said(ev.PromptClosed, "{who} answered: {kind:words}")


@sentence(ev.DamageTaken)
def _damage_taken(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    lost = [*p.get("from_hand", []), *p.get("from_deck", [])]
    comp = (
        f" (hits the {COMPONENT_NAMES.get(p['component'], p['component'])})"
        if p.get("component")
        else ""
    )
    return (
        t(f"{who} loses {count(len(lost), 'card')} to damage{comp}: "),
        *_cards(lost, names),
        *_rule("R-DMG-6"),
    )


@sentence(ev.ComponentDamaged)
def _component_damaged(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    comp = COMPONENT_NAMES.get(p["component"], p["component"])
    return (
        t(
            f"{who}'s {comp} {'take' if comp == 'legs' else 'takes'} {p['amount']} damage, "
            f"{p['total']} in all"
        ),
        *_reason_rule(p.get("reason"), p.get("rule")),
    )


@sentence(ev.ComponentDestroyed)
def _component_destroyed(p: Mapping[str, Any], names: Names) -> Sentence:
    who = names.casket(p.get("seat"))
    comp = COMPONENT_NAMES.get(p["component"], p["component"])
    lost = [t(", discarding "), *_cards(p["discarded"], names)] if p.get("discarded") else []
    are = "are" if comp == "legs" else "is"
    return (t(f"{who}'s {comp} {are} destroyed"), *lost, *_rule(p.get("rule")))


said(ev.WoundFlipped, "{pilot} suffers the wound {wound}", reason("reason"))


said(
    ev.SurvivalRolled,
    "{pilot} rolls for survival: ",
    d6("face"),
    ", {wounds:count:wound}",
    rule("R-PLT-3"),
)


# The Grit check's bands in words (pilot-grit-system.md's results table, R-ADD-305).
GRIT_RESULTS = {
    "full-wound": "a full wound",
    "tough-it-out": "tough it out, a severe wound counts as minor",
    "shrug-it-off": "shrug it off, no wound and 1 Heat",
    "iron-will": "iron will, no wound",
}


@sentence(ev.GritChecked)
def _grit_checked(p: Mapping[str, Any], names: Names) -> Sentence:
    seat = p.get("seat")
    modifier = f" {_signed(p['modifier'])}" if p["modifier"] else ""
    return (
        t(f"{names.pilot(seat)} makes a Grit check before a wound ({agreed(p['reason'])}): "),
        *_d6([p["face"]]),
        t(f" + Grit {p['grit']}{modifier} = {p['total']}, "),
        t(GRIT_RESULTS.get(p["result"], p["result"])),
        *_rule("R-ADD-305"),
    )


@sentence(ev.GritRerolled)
def _grit_rerolled(p: Mapping[str, Any], names: Names) -> Sentence:
    return (
        t(f"{names.pilot(p.get('seat'))} rolls the failed Grit check again with "),
        names.card(p["card"]),
        t(": "),
        *_d6([p["face"]]),
        t(f", {p['total']} in all, "),
        t(GRIT_RESULTS.get(p["result"], p["result"])),
        *_rule("R-ADD-411"),
    )


said(
    ev.GritRaised,
    "{pilot} fails again and gains {amount:count:Grit/Grit} for good from ",
    card(),
    rule("R-ADD-411"),
)


said(
    ev.WoundEased,
    "{pilot}'s {wound} counts as minor this mission",
    rule(),
    wound=lambda p: wound_name(p["wound"]),
)


said(ev.PilotKilled, "{pilot} dies", rule())


said(ev.CasketDefeated, "{who} is defeated: {reason:agreed}", rule())
