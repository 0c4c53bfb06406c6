"""My campaigns (the list and the new-campaign form with its ruleset options, R-PLT-5) and
the campaign page: roster, caskets, missions and their outcomes, history, and the GM's
forms (add a player, enlist a pilot, plan a mission)."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from battles.engine.ruleset import DEFAULT_VERSION, RULESETS, option_in_words, parse_ruleset

from .. import domain, selectors, services
from ..models import Campaign
from .common import (
    GET_ONLY,
    GET_POST,
    POST_ONLY,
    REFUSALS,
    FormError,
    campaign_of,
    gm_campaign_of,
    int_field,
    redirect_to,
    refused_form,
)
from .event_texts import event_text, names_of


def _ruleset_choices(data: Mapping[str, str]) -> list[dict[str, Any]]:
    """The ruleset versions and their options, for the campaign form (R-PLT-5), with the
    values a refused form had chosen."""
    version = RULESETS[DEFAULT_VERSION]
    return [
        {
            "name": spec.name,
            "chosen": data.get(f"option_{spec.name}", ""),
            "rule": spec.rule,
            "description": spec.description,
            "allowed": [_option_text(v) for v in spec.allowed],
            # The option and its values in words (OPTION_WORDS); the keys stay the values sent.
            "label": option_in_words(spec.name, spec.allowed[0]).label,
            "choices": [
                (_option_text(v), option_in_words(spec.name, v).value) for v in spec.allowed
            ],
            "minimum": spec.minimum,
        }
        for spec in version.options.values()
    ]


def _option_text(value: object) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _option_value(name: str, raw: str) -> object:
    """A form's option text as the ruleset's value; parse_ruleset then checks it."""
    spec = RULESETS[DEFAULT_VERSION].options[name]
    for allowed in spec.allowed:
        if _option_text(allowed) == raw:
            return allowed
    if spec.minimum is not None and raw.isascii() and raw.isdigit():
        return int(raw)
    return raw


def _rules_from(data: Mapping[str, str]) -> dict[str, Any]:
    options: dict[str, object] = {}
    for name in RULESETS[DEFAULT_VERSION].options:
        raw = data.get(f"option_{name}", "")
        if raw:
            options[name] = _option_value(name, raw)
    rules = {"version": data.get("rules_version") or DEFAULT_VERSION, "options": options}
    parse_ruleset(rules, "rules")  # names the option and its rule when refused
    return rules


@GET_POST
def campaign_list_page(request: HttpRequest) -> HttpResponse:
    errors: list[FormError] = []
    if request.method == "POST":
        try:
            campaign = services.campaign_create(
                gm=request.user,  # type: ignore[arg-type]
                name=request.POST.get("name", ""),
                private=request.POST.get("private") == "on",
                rules=_rules_from(request.POST),
            )
        except REFUSALS as exc:
            errors = FormError.of(exc)
        else:
            return redirect_to("campaign-page", campaign.id)
    campaigns = selectors.campaign_list_for(user=request.user).select_related("gm")
    rows = [
        {"campaign": c, "role": "GM" if c.gm_id == request.user.pk else "player"} for c in campaigns
    ]
    context = {
        "rows": rows,
        "errors": errors,
        "form": request.POST if errors else {},
        "versions": sorted(RULESETS),
        "default_version": request.POST.get("rules_version", DEFAULT_VERSION)
        if errors
        else DEFAULT_VERSION,
        "options": _ruleset_choices(request.POST if errors else {}),
    }
    return render(request, "campaigns/list.html", context, status=400 if errors else 200)


# --- the campaign page ---------------------------------------------------------------------------


def _mission_outcomes(events: list[Any], state: domain.CampaignState) -> dict[str, dict[str, Any]]:
    """Per mission: its completion (winner, round) and the lines of what it did to pilots."""
    out: dict[str, dict[str, Any]] = {
        m.id: {"completed": None, "lines": []} for m in state.missions
    }
    for e in events:
        mission_id = e.payload.get("mission_id")
        if mission_id not in out:
            continue
        if e.type == "MissionCompleted":
            out[mission_id]["completed"] = e.payload
        elif e.type in {
            "PilotWounded",
            "PilotDied",
            "PilotWithdrew",
            "TaintChanged",
            "ComponentDamageCarried",
            "TokensCarried",
            "GritGained",
        }:
            out[mission_id]["lines"].append(event_text(e.type, e.payload, state))
    return out


def campaign_context(campaign: Campaign, role: str) -> dict[str, Any]:
    events, state = selectors.campaign_events_and_state(campaign=campaign)
    pilots, _, _ = names_of(state)
    missions_by_id = {m.id: m for m in state.missions}
    outcomes = _mission_outcomes(events, state)
    roster: list[dict[str, Any]] = []
    for p in state.pilots.values():
        roster.append(
            {
                "pilot": p,
                "wounds": [
                    {"wound": w, "mission": missions_by_id.get(w.mission_id)} for w in p.wounds
                ],
                "severe": sum(1 for w in p.wounds if w.kind == "severe"),
                "trauma": sum(1 for w in p.wounds if w.kind == "trauma"),
                "withdrawn": [missions_by_id[m] for m in p.withdrawn_from if m in missions_by_id],
            }
        )
    roster.sort(key=lambda r: (r["pilot"].status != domain.ALIVE, r["pilot"].name))
    caskets = [
        {"build": b, "current": b.current, "damage": domain.components_dict(b.component_damage)}
        for b in sorted(state.builds.values(), key=lambda b: (b.player, b.current.name))
    ]
    next_mission = next((m for m in state.missions if m.status != "completed"), None)
    missions = [
        {
            "mission": m,
            "status": m.status.replace("_", " "),
            "outcome": outcomes[m.id],
            "seats": [
                {
                    "seat": seat,
                    "pilot": pilots.get(pid, pid),
                    "build": state.builds.get(bid),
                    "v": v,
                }
                for seat, pid, bid, v in m.deployments
            ],
            "startable": role == "gm" and next_mission is m and m.status == "planned",
        }
        for m in state.missions
    ]
    names = names_of(state)
    history = [
        {
            "event": e,
            "text": event_text(e.type, e.payload, state, names),
            "adjustment": bool(e.metadata.get("adjustment")),
            "actor": e.metadata.get("actor", ""),
        }
        for e in reversed(events)
    ]
    pending = list(selectors.outcomes_pending_for(campaign=campaign)) if role == "gm" else []
    return {
        "campaign": campaign,
        "state": state,
        "role": role,
        "is_gm": role == "gm",
        "roster": roster,
        "caskets": caskets,
        "missions": missions,
        "history": history,
        "pending": pending,
        "rules": parse_ruleset(state.rules, "rules"),
        "invite_url": _invite_url(campaign) if role == "gm" else "",
    }


def _invite_url(campaign: Campaign) -> str:
    return reverse("campaign-join", args=[services.campaign_invite_token(campaign=campaign)])


@GET_ONLY
def campaign_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    return render(request, "campaigns/campaign.html", campaign_context(campaign, role))


# GM forms of the campaign page: each is a service call; a refusal re-renders the page.
CAMPAIGN_ACTIONS: dict[str, Callable[[Campaign, Any, Mapping[str, str]], object]] = {
    "add_player": lambda c, u, d: services.campaign_player_add(
        campaign=c, actor=u, username=d.get("username", "").strip()
    ),
    "enlist_pilot": lambda c, u, d: services.pilot_enlist(
        campaign=c,
        actor=u,
        player=d.get("player", ""),
        name=d.get("name", ""),
        faction=d.get("faction", ""),
        sp_modifier=int_field(d, "sp_modifier", "R-TRN-3") if d.get("sp_modifier") else 0,
    ),
    "plan_mission": lambda c, u, d: services.mission_plan(
        campaign=c, actor=u, name=d.get("name", "")
    ),
}


@POST_ONLY
def campaign_action(request: HttpRequest, campaign_id: uuid.UUID, action: str) -> HttpResponse:
    campaign = gm_campaign_of(request, campaign_id)
    do = CAMPAIGN_ACTIONS.get(action)
    if do is None:
        raise Http404("no such action")
    try:
        do(campaign, request.user, request.POST)
    except REFUSALS as exc:
        context = campaign_context(campaign, "gm")
        return refused_form(request, "campaigns/campaign.html", context, exc, action)
    return redirect_to("campaign-page", campaign.id, anchor=action.replace("_", "-"))
