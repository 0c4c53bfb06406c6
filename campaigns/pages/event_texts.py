"""The sentences of the campaign pages: one line per campaign event (the history, a
mission's review, a pilot's career) and per battle event of a pilot's career, things named
by name rather than id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from .. import domain
from .settlement_texts import between_text

Names = tuple[dict[str, str], dict[str, str], dict[str, str]]


def names_of(state: domain.CampaignState) -> Names:
    pilots = {p.id: p.name for p in state.pilots.values()}
    builds = {b.id: b.current.name for b in state.builds.values()}
    missions = {m.id: f"mission {m.number}, {m.name}" for m in state.missions}
    return pilots, builds, missions


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def event_text(
    type_: str, p: Mapping[str, Any], state: domain.CampaignState, names: Names | None = None
) -> str:
    """One line saying what a campaign event did, by name rather than id (`names`: the
    state's `_names`, when the caller words many events)."""
    pilots, builds, missions = names or names_of(state)
    pilot = pilots.get(p.get("pilot_id", ""), p.get("pilot_id", ""))
    mission = missions.get(p.get("mission_id", ""), "")
    texts: dict[str, Callable[[], str]] = {
        "CampaignCreated": lambda: f"Campaign “{p['name']}” created by {p['gm']}",
        "PlayerJoined": lambda: f"{p['player']} joined",
        "MissionPlanned": lambda: f"Mission {p['number']} planned: {p['name']}",
        "PilotEnlisted": lambda: f"{p['name']} enlisted for {p['player']}",
        # Which rule the version was checked under (R-ADD-220): a build of the older rule
        # says so until its owner rebuilds it from its equipment.
        "BuildRevised": lambda: (
            f"Build “{p['name']}” version {p['version']} ({p['player']}), "
            + (
                "built from its equipment (R-ADD-52)"
                if p.get("construction")
                else "under the older rule (R-ADD-15)"
            )
        ),
        "MissionStarted": lambda: f"{_cap(mission)} started",
        "PilotWounded": lambda: f"{pilot} keeps wound {p['wound']} ({p['kind']}) from {mission}",
        "PilotDied": lambda: f"{pilot} died in {mission} ({p['rule']})",
        "PilotWithdrew": lambda: f"{pilot} withdrew from {mission} ({p['rule']})",
        "TaintChanged": lambda: f"{pilot}: Taint {p['delta']:+d} to {p['taint']}: {p['reason']}",
        "ComponentDamageCarried": lambda: (
            f"{builds.get(p['build_id'], p['build_id'])} carries component damage "
            + (", ".join(f"{k.replace('_', ' ')} {v}" for k, v in p["component_damage"]) or "none")
        ),
        "MissionCompleted": lambda: (
            f"{_cap(mission)} completed in round {p['round']}: "
            + (f"{p['winner']} won" if p["winner"] else "a draw")
        ),
        "TraumaTreated": lambda: f"{pilot}: trauma {p['wound']} treated: {p['reason']}",
        "ScarGained": lambda: f"{pilot} gains the scar “{p['scar']}”: {p['reason']}",
        "PilotRetired": lambda: f"{pilot} retired: {p['reason']}",
        "CasketRepaired": lambda: (
            f"{builds.get(p['build_id'], p['build_id'])} repaired: {p['reason']}"
        ),
        "GMAdjusted": lambda: f"{pilot}: {p['field']} {p['before']} → {p['after']}: {p['reason']}",
        "TokensCarried": lambda: (
            f"{pilot} keeps {p['count']} {p['pool'].capitalize()} "
            f"token{'' if p['count'] == 1 else 's'} from {mission} (R-ADD-306)"
        ),
        "GritGained": lambda: f"{pilot} gains {p['amount']} Grit for good in {mission} (R-ADD-411)",
    }
    text = texts.get(type_)
    if text:
        return text()
    # the settlement's events (pc-1, campaigns/pages/settlement_texts.py)
    return between_text(type_, p, pilots, missions) or type_


def _card_words(card: str) -> str:
    """A battle's card instance (`pyre-lance#1`) as a reader names the card: "Pyre Lance"."""
    return card.split("#", 1)[0].replace("-", " ").title()


def battle_text(entry: Mapping[str, Any], seat_names: Mapping[tuple[str, int], str]) -> str:
    """One line for a battle event of a pilot's career, seats named by their pilots."""
    p = entry["payload"]
    battle = entry["battle"]

    def name(seat: int) -> str:
        return seat_names.get((battle, seat), f"seat {seat}")

    t = entry["type"]
    if t == "AttackDeclared":
        if entry["role"] == "attacker":
            card = _card_words(p["card"])
            return f"Attacks {name(p['target'])} with {card} (needs {p['target_number']})"
        return f"Attacked by {name(p['attacker'])} with {_card_words(p['card'])}"
    if t == "AttackEnded":
        return f"Attack with {_card_words(p['card'])}: {p['outcome'].replace('_', ' ')}"
    if t == "DamageTaken":
        n = len(p["from_hand"]) + len(p["from_deck"])
        part = p.get("component")
        return f"Takes {n} damage" + (f" to the {part.replace('_', ' ')}" if part else "")
    if t == "ComponentDestroyed":
        return f"{p['component'].replace('_', ' ').capitalize()} destroyed ({p['rule']})"
    if t == "WoundFlipped":
        return f"Wound {p['wound']} flipped: {p['reason']} ({p['rule']})"
    if t == "GritChecked":
        result = p["result"].replace("-", " ")
        return f"Grit check {p['face']} + Grit {p['grit']} {p['modifier']:+d} = {p['total']}: {result} (R-ADD-305)"
    if t == "WoundEased":
        return f"Wound {p['wound']} counts as minor this mission ({p['rule']})"
    if t == "SurvivalRolled":
        return f"Survival roll {p['face']}: {p['wounds']} wounds (R-PLT-3)"
    if t == "PilotKilled":
        return f"Pilot killed ({p['rule']})"
    if t == "CasketDefeated":
        return f"Casket defeated: {p['reason']} ({p['rule']})"
    if t == "CasketWithdrew":
        return f"Casket withdrew ({p['rule']})"
    return str(t)
