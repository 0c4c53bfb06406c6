"""The pilot sheet: wound deck as the next battle starts it (R-PLT-2), Taint over time
(R-PLT-4), battles and campaign events of the career, and the GM's adjustments between
missions, each with a reason (R-ADD-31)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.battle.state import WOUND_DECK

from .. import domain, selectors, services
from ..between.decide import deployment_notes, grit, scars_due
from ..models import Campaign
from .common import (
    GET_ONLY,
    POST_ONLY,
    REFUSALS,
    campaign_of,
    gm_campaign_of,
    int_field,
    redirect_to,
    refused_form,
)
from .event_texts import battle_text, event_text, names_of


def pilot_sheet_context(campaign: Campaign, role: str, pilot_id: uuid.UUID) -> dict[str, Any]:
    career = selectors.pilot_career(campaign=campaign, pilot_id=str(pilot_id))
    if career is None:
        raise Http404("no such pilot in this campaign")
    state = selectors.campaign_state(campaign=campaign)
    pilot: domain.PilotState = career["pilot"]
    missions = {m.id: m for m in state.missions}
    pilots, _, _ = names_of(state)
    # The wound deck as the next battle starts it: carried wounds face up (R-PLT-2).
    carried = {w.wound: w for w in pilot.wounds}
    wound_deck = [
        {
            "card": card,
            "kind": card.split("-", 1)[0],
            "face_up": card in carried,
            "mission": missions.get(carried[card].mission_id) if card in carried else None,
        }
        for card in WOUND_DECK
    ]
    # Taint over time, from enlistment (0) through every TaintChanged (R-PLT-4).
    taint_rows: list[dict[str, Any]] = []
    campaign_events = []
    seat_names: dict[tuple[str, int], str] = {}
    for m in state.missions:
        for seat, pid, _, _ in m.deployments:
            seat_names[(m.battle_id, seat)] = pilots.get(pid, pid)
    per_battle: dict[str, dict[str, Any]] = {}
    for m in state.missions:
        for seat, pid, bid, version in m.deployments:
            if pid == pilot.id:
                build = state.builds.get(bid)
                per_battle[m.battle_id] = {
                    "mission": m,
                    "seat": seat,
                    "build": build.versions[version - 1] if build else None,
                    "attacks_made": 0,
                    "attacks_taken": 0,
                    "damage": 0,
                    "wounds": 0,
                    "events": [],
                    "kept": [],
                }
    for entry in career["events"]:
        if entry["source"] == "campaign":
            p = entry["payload"]
            if entry["type"] == "PilotEnlisted":
                taint_rows.append(
                    {
                        "step": entry["version"],
                        "mission": None,
                        "delta": 0,
                        "taint": 0,
                        "reason": "enlisted",
                        "when": entry["recorded_at"],
                    }
                )
            elif entry["type"] == "TaintChanged":
                taint_rows.append(
                    {
                        "step": entry["version"],
                        "mission": missions.get(p["mission_id"]),
                        "delta": p["delta"],
                        "taint": p["taint"],
                        "reason": p["reason"],
                        "when": entry["recorded_at"],
                    }
                )
            campaign_events.append({**entry, "text": event_text(entry["type"], p, state)})
            battle = per_battle.get(p.get("battle_id") or "")
            if battle is not None and entry["type"] in {"PilotWounded", "PilotDied"}:
                battle["kept"].append(event_text(entry["type"], p, state))
            continue
        battle = per_battle.get(entry["battle"])
        if battle is None:
            continue
        t = entry["type"]
        if t == "AttackDeclared":
            battle["attacks_made" if entry["role"] == "attacker" else "attacks_taken"] += 1
        elif t == "DamageTaken":
            battle["damage"] += len(entry["payload"]["from_hand"]) + len(
                entry["payload"]["from_deck"]
            )
        elif t == "WoundFlipped":
            battle["wounds"] += 1
        battle["events"].append({**entry, "text": battle_text(entry, seat_names)})
    return {
        "campaign": campaign,
        "state": state,
        # pc-1: Grit, Morale, injuries and the deployment notes (R-ADD-233, R-ADD-239)
        "between": _between(state, pilot.id),
        "role": role,
        "is_gm": role == "gm",
        "pilot": pilot,
        "totals": career["totals"],
        "wound_deck": wound_deck,
        "face_up": sum(1 for w in wound_deck if w["face_up"]),
        "taint_rows": taint_rows,
        "battles": sorted(per_battle.values(), key=lambda b: b["mission"].number),
        "campaign_events": campaign_events,
        "trauma": [w for w in pilot.wounds if w.kind == "trauma"],
        "adjustments": PILOT_ADJUSTMENTS,
        # The pilot's own caskets (R-ADD-220).
        "pilot_builds": [b for b in state.builds.values() if b.pilot_id == pilot.id],
        # Tokens a card says persist across missions, in words (R-ADD-306).
        "token_pools": [(f"{pool.capitalize()} tokens", n) for pool, n in pilot.tokens],
    }


def _between(state: domain.CampaignState, pilot_id: str) -> dict[str, Any] | None:
    if state.settlement is None:
        return None
    record = state.settlement.pilot(pilot_id)
    return {
        "grit": grit(state, pilot_id),
        "morale": record.morale,
        "injuries": record.injuries,
        "permanent": record.permanent,
        "skills": dict(record.skills),
        "scars_due": scars_due(state, pilot_id),
        "notes": deployment_notes(state, pilot_id),
    }


@GET_ONLY
def pilot_sheet_page(
    request: HttpRequest, campaign_id: uuid.UUID, pilot_id: uuid.UUID
) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    return render(request, "campaigns/pilot.html", pilot_sheet_context(campaign, role, pilot_id))


# The GM's adjustments of a pilot between missions, each with a reason (R-ADD-31).
PILOT_ADJUSTMENTS: dict[str, Callable[..., object]] = {
    "taint": lambda d, **common: services.pilot_taint_adjust(
        **common, delta=int_field(d, "delta", "R-PLT-4")
    ),
    "treat_trauma": lambda d, **common: services.pilot_trauma_treat(
        **common, wound=d.get("wound", "")
    ),
    "scar": lambda d, **common: services.pilot_scar_add(**common, scar=d.get("scar", "")),
    "sp_modifier": lambda d, **common: services.pilot_sp_modifier_adjust(
        **common, sp_modifier=int_field(d, "sp_modifier", "R-TRN-3")
    ),
    "retire": lambda d, **common: services.pilot_retire(**common),
}


@POST_ONLY
def pilot_adjust(
    request: HttpRequest, campaign_id: uuid.UUID, pilot_id: uuid.UUID, kind: str
) -> HttpResponse:
    campaign = gm_campaign_of(request, campaign_id)
    adjust = PILOT_ADJUSTMENTS.get(kind)
    if adjust is None or not selectors.pilot_exists(campaign=campaign, pilot_id=pilot_id):
        raise Http404("no such adjustment or pilot")
    try:
        adjust(
            request.POST,
            campaign=campaign,
            actor=request.user,
            pilot_id=str(pilot_id),
            reason=request.POST.get("reason", ""),
        )
    except REFUSALS as exc:
        context = pilot_sheet_context(campaign, "gm", pilot_id)
        return refused_form(request, "campaigns/pilot.html", context, exc, kind)
    return redirect_to("pilot-sheet", campaign.id, pilot_id, anchor=f"adjust-{kind}")
