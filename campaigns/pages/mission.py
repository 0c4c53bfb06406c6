"""After the battle: a mission's review, its deployments, the outcome as the campaign
applied it (R-PLT-5) and the GM's adjustments before the next mission (R-ADD-31)."""

from __future__ import annotations

import uuid

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from .. import selectors
from .common import (
    GET_ONLY,
    campaign_of,
)
from .event_texts import event_text, names_of


@GET_ONLY
def mission_page(
    request: HttpRequest, campaign_id: uuid.UUID, mission_id: uuid.UUID
) -> HttpResponse:
    """A mission after its battle: who was deployed in what, the outcome as the campaign
    applied it (R-PLT-5), and the GM's adjustments made between this mission and the next,
    each with its reason (R-ADD-31)."""
    campaign, role = campaign_of(request, campaign_id)
    events, state = selectors.campaign_events_and_state(campaign=campaign)
    mission = next((m for m in state.missions if m.id == str(mission_id)), None)
    if mission is None:
        raise Http404("no such mission in this campaign")
    pilots, _, _ = names_of(state)
    started = next(
        (
            e.version
            for e in events
            if e.type == "MissionStarted" and e.payload["mission_id"] == mission.id
        ),
        None,
    )
    following = next(
        (m for m in state.missions if m.number == mission.number + 1 and m.battle_id), None
    )
    next_start = next(
        (
            e.version
            for e in events
            if following and e.type == "MissionStarted" and e.payload["mission_id"] == following.id
        ),
        None,
    )
    applied, adjustments = [], []
    completed = None
    for e in events:
        if e.payload.get("mission_id") == mission.id and e.type not in {
            "MissionPlanned",
            "MissionStarted",
        }:
            if e.type == "MissionCompleted":
                completed = e.payload
            applied.append({"event": e, "text": event_text(e.type, e.payload, state)})
        elif (
            e.metadata.get("adjustment")
            and completed is not None
            and (next_start is None or e.version < next_start)
        ):
            adjustments.append(
                {
                    "event": e,
                    "text": event_text(e.type, e.payload, state),
                    "reason": e.payload.get("reason", ""),
                    "actor": e.metadata.get("actor", ""),
                }
            )
    seats = [
        {
            "seat": seat,
            "pilot_id": pid,
            "pilot": pilots.get(pid, pid),
            "build_id": bid,
            "build": state.builds[bid].versions[v - 1] if bid in state.builds else None,
        }
        for seat, pid, bid, v in mission.deployments
    ]
    pending = [
        o
        for o in selectors.outcomes_pending_for(campaign=campaign)
        if str(o.mission_id) == mission.id
    ]
    context = {
        "campaign": campaign,
        "state": state,
        "role": role,
        "is_gm": role == "gm",
        "mission": mission,
        "status": mission.status.replace("_", " "),
        "started": started,
        "seats": seats,
        "completed": completed,
        "applied": applied,
        "adjustments": adjustments,
        "pending": pending if role == "gm" else [],
        "startable": role == "gm" and mission.status == "planned",
    }
    return render(request, "campaigns/mission.html", context)
