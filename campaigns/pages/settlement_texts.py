"""The sentences of the settlement's events on the campaign pages (pc-1 rules,
R-ADD-230…252), by name rather than id."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..between.rulebook import module_name


def between_text(
    type_: str, p: Mapping[str, Any], pilots: Mapping[str, str], missions: Mapping[str, str]
) -> str | None:
    """One line for a settlement event; None for an event that is not one."""
    pilot = pilots.get(p.get("pilot_id", ""), p.get("pilot_id", ""))
    mission = missions.get(p.get("mission_id", ""), "")
    texts: dict[str, Callable[[], str]] = {
        "CampaignRulesPinned": lambda: (
            f"Campaign rules {p['version']} between missions"
            + (
                f", modules {', '.join(module_name(p['version'], m) for m in p['modules'])}"
                if p["modules"]
                else ""
            )
        ),
        "PhaseOpened": lambda: f"Settlement phase after {mission} opened, its dice sealed",
        "PhaseStepDone": lambda: f"Settlement phase after {mission}: {p['step']} done",
        "PhaseClosed": lambda: f"Settlement phase after {mission} closed, its dice revealed",
        "RollMade": lambda: (
            f"Roll {p['scope']} #{p['index']}, {p['purpose']}: d{p['die']} "
            f"{', '.join(str(f) for f in p['faces'])} → {p['outcome']} ({p['source']})"
            + (f", GM override: {p['override_reason']}" if p["override_reason"] else "")
        ),
        "SettlementChanged": lambda: (
            f"{p['resource'].capitalize()} {p['delta']:+d} to {p['value']}: {p['reason']}"
        ),
        "ItemStored": lambda: f"{p['name']} stored: {p['reason']}",
        "PilotInjured": lambda: f"{pilot} keeps the injury {p['injury']}: {p['reason']}",
        "InjuryChanged": lambda: f"{pilot}: {p['injury']} {p['change']}: {p['reason']}",
        "PilotMoraleChanged": lambda: (
            f"{pilot}: Morale {p['delta']:+d} to {p['morale']}: {p['reason']}"
        ),
        "GritOverridden": lambda: (
            (
                f"{pilot}: Grit set to {p['grit']}"
                if p["grit"] >= 0
                else f"{pilot}: Grit from the record"
            )
            + f": {p['reason']}"
        ),
        "GritCheckBonus": lambda: f"{pilot}: {p['bonus']:+d} on the next Grit check: {p['reason']}",
        "PilotSidelined": lambda: f"{pilot} sits out mission {p['mission_number']}: {p['reason']}",
        "ScarTaken": lambda: f"{pilot} gains the scar “{p['scar']}”: {p['reason']}",
        "SkillTrained": lambda: f"{pilot}: {p['skill']} +{p['level']}",
        "ActionTaken": lambda: (
            f"{p['player']}: {p['action']}" + (f" ({p['detail']})" if p["detail"] else "")
        ),
        "ConstructionStarted": lambda: f"Building {p['building']}: {p['phases']} phase(s)",
        "ConstructionAdvanced": lambda: f"{p['building']}: {p['phases_left']} phase(s) left",
        "BuildingLost": lambda: f"{p['building']} lost: {p['reason']}",
        "PhaseModifier": lambda: f"This phase: {p['key'].replace('_', ' ')} {p['value']}",
        "MissionsOffered": lambda: "Missions offered: " + "; ".join(o[1] for o in p["offers"]),
        "PilotGenerated": lambda: "Recruit rolled: " + " · ".join(r for _, r in p["rows"]),
        # the optional modules (campaigns/between/skills.py, bargains.py, relationships.py)
        "XPGained": lambda: f"{pilot}: XP {p['amount']:+d} to {p['xp']}: {p['reason']}",
        "SkillUnlocked": lambda: (
            f"{pilot} gains the Tier {p['tier']} skill {p['name']} "
            f"({'the faction signature' if p['how'] == 'signature' else p['how']})"
        ),
        "BargainAnswered": lambda: (
            f"{pilot} takes the Flesh Bargain {p['name']} after {p['offer_at']} missions"
            if p["accepted"]
            else f"{pilot} declines the Flesh Bargain offered after {p['offer_at']} missions"
        ),
        "RelationshipChanged": lambda: (
            f"Relationship with {p['faction'].replace('-', ' ')} {p['delta']:+d} to "
            f"{p['value']:+d}: {p['reason']}"
        ),
    }
    text = texts.get(type_)
    return text() if text else None
