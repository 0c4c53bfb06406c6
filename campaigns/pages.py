"""Server-rendered campaign pages (issue 14): thin views over `campaigns.services` and
`campaigns.selectors`, like the API in campaigns_api.py; no rule is decided here.

Who sees what (R-ADD-31), as in the API: anonymous users are sent to log in; the GM and
the campaign's players read everything in it; anyone else gets 404 for a private
campaign (they may not learn it exists) and 403 for a public one. The GM makes every
change; a player creates and revises their own builds.

Forms are plain HTML with CSRF, POST-redirect-GET. A refused form re-renders its page
with status 400 and the refusal's field, message and rule (InvalidInput, RuleViolation),
and nothing is written (every service runs in one transaction).
"""

from __future__ import annotations

import functools
import json
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from battles.engine.arcs import SHIELDS
from battles.engine.battle.state import SP_MAXIMUM, WOUND_DECK
from battles.engine.board import parse_board
from battles.engine.cards import CARD_KINDS
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.hexes import DIRECTION_NAMES
from battles.engine.ruleset import DEFAULT_VERSION, RULESETS, parse_ruleset
from penance_site.accounts import tokens

from . import board_drawing, catalogue, domain, selectors, services
from .models import Campaign


def _no_nul(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Refuse form and query values holding a NUL character (PostgreSQL stores no NUL in
    text) with a 400 naming the field, before the view reads them."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        for data in (request.GET, request.POST):
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    error = FormError(key.replace("\x00", ""), "must not contain NUL characters")
                    context = {"errors": [error]}
                    return render(request, "campaigns/refused.html", context, status=400)
        return view(request, *args, **kwargs)

    return wrapped


def _methods(*methods: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        return require_http_methods(list(methods))(_no_nul(view))

    return decorate


GET_POST = _methods("GET", "HEAD", "POST")
GET_ONLY = _methods("GET", "HEAD")
POST_ONLY = _methods("POST")


# --- access and errors ---------------------------------------------------------------------------


def _campaign(request: HttpRequest, campaign_id: uuid.UUID) -> tuple[Campaign, str]:
    """The campaign and the user's role; 404 for a private campaign they are not part of,
    403 for a public one (R-ADD-31)."""
    found = selectors.campaign_get_for(campaign_id=campaign_id, user=request.user)
    if found is None:
        raise Http404("no such campaign")
    campaign, role = found
    if role is None:
        raise PermissionDenied("you are not part of this campaign")
    return campaign, role


def _gm_only(role: str) -> None:
    if role != "gm":
        raise PermissionDenied("only the campaign's GM may do this (R-ADD-31)")


@dataclass(frozen=True)
class FormError:
    """A refusal shown on a page: the field (or None for the whole form), the message and
    the ruling behind it."""

    field: str | None
    message: str
    rule: str | None = None
    code: str | None = None

    @classmethod
    def of(cls, exc: Exception) -> list[FormError]:
        if isinstance(exc, services.DeckRejected):
            return [cls(e["field"], e["message"], e["rule"], e["code"]) for e in exc.extra_errors]
        if isinstance(exc, InvalidInput):
            return [cls(exc.field, exc.message, exc.rule)]
        if isinstance(exc, RuleViolation):
            return [cls(None, exc.message, exc.rule, exc.code)]
        raise TypeError(exc)


REFUSALS = (InvalidInput, RuleViolation)


def _redirect(name: str, *args: object, anchor: str = "") -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse(name, args=args) + (f"#{anchor}" if anchor else ""))


def _int_field(data: Mapping[str, str], name: str, rule: str | None = None) -> int:
    raw = (data.get(name) or "").strip()
    try:
        return int(raw)
    except ValueError:
        raise InvalidInput(name, f"must be a whole number, not {raw[:20]!r}", rule) from None


# --- event texts ---------------------------------------------------------------------------------


Names = tuple[dict[str, str], dict[str, str], dict[str, str]]


def _names(state: domain.CampaignState) -> Names:
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
    pilots, builds, missions = names or _names(state)
    pilot = pilots.get(p.get("pilot_id", ""), p.get("pilot_id", ""))
    mission = missions.get(p.get("mission_id", ""), "")
    texts: dict[str, Callable[[], str]] = {
        "CampaignCreated": lambda: f"Campaign “{p['name']}” created by {p['gm']}",
        "PlayerJoined": lambda: f"{p['player']} joined",
        "MissionPlanned": lambda: f"Mission {p['number']} planned: {p['name']}",
        "PilotEnlisted": lambda: f"{p['name']} enlisted for {p['player']}",
        "BuildRevised": lambda: f"Build “{p['name']}” version {p['version']} ({p['player']})",
        "MissionStarted": lambda: f"{_cap(mission)} started",
        "PilotWounded": lambda: f"{pilot} keeps wound {p['wound']} ({p['kind']}) from {mission}",
        "PilotDied": lambda: f"{pilot} died in {mission} ({p['rule']})",
        "PilotWithdrew": lambda: f"{pilot} withdrew from {mission} ({p['rule']})",
        "TaintChanged": lambda: f"{pilot}: Taint {p['delta']:+d} to {p['taint']}: {p['reason']}",
        "ComponentDamageCarried": lambda: (
            f"{builds.get(p['build_id'], p['build_id'])} carries component damage "
            + (", ".join(f"{k} {v}" for k, v in p["component_damage"]) or "none")
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
    }
    text = texts.get(type_)
    return text() if text else type_


# --- my campaigns --------------------------------------------------------------------------------


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
@login_required
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
            return _redirect("campaign-page", campaign.id)
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
        }:
            out[mission_id]["lines"].append(event_text(e.type, e.payload, state))
    return out


def campaign_context(campaign: Campaign, role: str) -> dict[str, Any]:
    events, state = selectors.campaign_events_and_state(campaign=campaign)
    pilots, _, _ = _names(state)
    missions_by_id = {m.id: m for m in state.missions}
    outcomes = _mission_outcomes(events, state)
    roster = []
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
    names = _names(state)
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
@login_required
def campaign_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
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
        sp_modifier=_int_field(d, "sp_modifier", "R-TRN-3") if d.get("sp_modifier") else 0,
    ),
    "plan_mission": lambda c, u, d: services.mission_plan(
        campaign=c, actor=u, name=d.get("name", "")
    ),
}


@POST_ONLY
@login_required
def campaign_action(request: HttpRequest, campaign_id: uuid.UUID, action: str) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
    _gm_only(role)
    do = CAMPAIGN_ACTIONS.get(action)
    if do is None:
        raise Http404("no such action")
    try:
        do(campaign, request.user, request.POST)
    except REFUSALS as exc:
        context = {
            **campaign_context(campaign, role),
            "errors": FormError.of(exc),
            "failed_action": action,
            "form": request.POST,
        }
        return render(request, "campaigns/campaign.html", context, status=400)
    return _redirect("campaign-page", campaign.id, anchor=action.replace("_", "-"))


# --- the pilot sheet -----------------------------------------------------------------------------


def _battle_text(entry: Mapping[str, Any], seat_names: Mapping[tuple[str, int], str]) -> str:
    """One line for a battle event of a pilot's career, seats named by their pilots."""
    p = entry["payload"]
    battle = entry["battle"]

    def name(seat: int) -> str:
        return seat_names.get((battle, seat), f"seat {seat}")

    t = entry["type"]
    if t == "AttackDeclared":
        if entry["role"] == "attacker":
            return f"Attacks {name(p['target'])} with {p['card']} (needs {p['target_number']})"
        return f"Attacked by {name(p['attacker'])} with {p['card']}"
    if t == "AttackEnded":
        return f"Attack with {p['card']}: {p['outcome'].replace('_', ' ')}"
    if t == "DamageTaken":
        n = len(p["from_hand"]) + len(p["from_deck"])
        return f"Takes {n} damage" + (f" to {p['component']}" if p.get("component") else "")
    if t == "ComponentDestroyed":
        return f"{p['component'].replace('_', ' ').capitalize()} destroyed ({p['rule']})"
    if t == "WoundFlipped":
        return f"Wound {p['wound']} flipped: {p['reason']} ({p['rule']})"
    if t == "SurvivalRolled":
        return f"Survival roll {p['face']}: {p['wounds']} wounds (R-PLT-3)"
    if t == "PilotKilled":
        return f"Pilot killed ({p['rule']})"
    if t == "CasketDefeated":
        return f"Casket defeated: {p['reason']} ({p['rule']})"
    if t == "CasketWithdrew":
        return f"Casket withdrew ({p['rule']})"
    return t


def pilot_sheet_context(campaign: Campaign, role: str, pilot_id: uuid.UUID) -> dict[str, Any]:
    career = selectors.pilot_career(campaign=campaign, pilot_id=str(pilot_id))
    if career is None:
        raise Http404("no such pilot in this campaign")
    state = selectors.campaign_state(campaign=campaign)
    pilot: domain.PilotState = career["pilot"]
    missions = {m.id: m for m in state.missions}
    pilots, _, _ = _names(state)
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
        battle["events"].append({**entry, "text": _battle_text(entry, seat_names)})
    return {
        "campaign": campaign,
        "state": state,
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
    }


@GET_ONLY
@login_required
def pilot_sheet_page(
    request: HttpRequest, campaign_id: uuid.UUID, pilot_id: uuid.UUID
) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
    return render(request, "campaigns/pilot.html", pilot_sheet_context(campaign, role, pilot_id))


# The GM's adjustments of a pilot between missions, each with a reason (R-ADD-31).
PILOT_ADJUSTMENTS: dict[str, Callable[..., object]] = {
    "taint": lambda d, **common: services.pilot_taint_adjust(
        **common, delta=_int_field(d, "delta", "R-PLT-4")
    ),
    "treat_trauma": lambda d, **common: services.pilot_trauma_treat(
        **common, wound=d.get("wound", "")
    ),
    "scar": lambda d, **common: services.pilot_scar_add(**common, scar=d.get("scar", "")),
    "sp_modifier": lambda d, **common: services.pilot_sp_modifier_adjust(
        **common, sp_modifier=_int_field(d, "sp_modifier", "R-TRN-3")
    ),
    "retire": lambda d, **common: services.pilot_retire(**common),
}


@POST_ONLY
@login_required
def pilot_adjust(
    request: HttpRequest, campaign_id: uuid.UUID, pilot_id: uuid.UUID, kind: str
) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
    _gm_only(role)
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
        context = {
            **pilot_sheet_context(campaign, role, pilot_id),
            "errors": FormError.of(exc),
            "failed_action": kind,
            "form": request.POST,
        }
        return render(request, "campaigns/pilot.html", context, status=400)
    return _redirect("pilot-sheet", campaign.id, pilot_id, anchor=f"adjust-{kind}")


# --- builds and the deck builder -----------------------------------------------------------------

MAX_COUNT = 30  # a casket deck holds 30 cards (R-TRN-1, R-ADD-15)


def _may_edit(build: domain.BuildState, role: str, user: Any) -> bool:
    """The GM edits every build; a player only their own (R-ADD-31)."""
    return role == "gm" or build.player == user.get_username()


def _build_of(state: domain.CampaignState, build_id: uuid.UUID) -> domain.BuildState:
    build = state.builds.get(str(build_id))
    if build is None:
        raise Http404("no such build in this campaign")
    return build


@GET_ONLY
@login_required
def build_list_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    builds = [
        {
            "build": b,
            "current": b.current,
            "cards": sum(n for _, _, n in b.current.deck),
            "editable": _may_edit(b, role, request.user),
        }
        for b in sorted(state.builds.values(), key=lambda b: (b.player, b.current.name))
    ]
    context = {"campaign": campaign, "state": state, "role": role, "builds": builds}
    return render(request, "campaigns/builds.html", context)


@GET_ONLY
@login_required
def build_page(request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID) -> HttpResponse:
    campaign, role = _campaign(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = _build_of(state, build_id)
    current = build.current
    cards = selectors.deck_card_versions(deck=current.deck)
    used = {
        (bid, v): m for m in state.missions for _, _, bid, v in m.deployments if bid == build.id
    }
    context = {
        "campaign": campaign,
        "state": state,
        "role": role,
        "build": build,
        "current": current,
        "deck": [
            {"card": c, "version": v, "count": n, "cv": cards.get((c, v))}
            for c, v, n in current.deck
        ],
        "total": sum(n for _, _, n in current.deck),
        "versions": [
            {
                "v": v,
                "cards": sum(n for _, _, n in v.deck),
                "mission": used.get((build.id, v.version)),
            }
            for v in reversed(build.versions)
        ],
        "editable": _may_edit(build, role, request.user),
        "damage": domain.components_dict(build.component_damage),
    }
    return render(request, "campaigns/build.html", context)


def _version_number(raw: str | None, build: domain.BuildState, name: str) -> int:
    if (
        raw is None
        or not (raw.isascii() and raw.isdigit())
        or not 1 <= int(raw) <= len(build.versions)
    ):
        raise InvalidInput(name, f"must be a version of this build, 1 to {len(build.versions)}")
    return int(raw)


@GET_ONLY
@login_required
def build_diff_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID
) -> HttpResponse:
    campaign, _ = _campaign(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = _build_of(state, build_id)
    context: dict[str, Any] = {"campaign": campaign, "state": state, "build": build}
    try:
        a = _version_number(request.GET.get("a"), build, "a")
        b = _version_number(request.GET.get("b"), build, "b")
    except InvalidInput as exc:
        return render(
            request,
            "campaigns/build_diff.html",
            {**context, "errors": FormError.of(exc)},
            status=400,
        )
    old, new = build.versions[a - 1], build.versions[b - 1]
    diff = selectors.build_versions_diff(old=old, new=new)
    names = {
        card: cv.name
        for (card, _), cv in selectors.deck_card_versions(deck=[*old.deck, *new.deck]).items()
    }
    for row in diff["cards"]:
        row["name"] = names.get(row["card"], row["card"])
    return render(
        request, "campaigns/build_diff.html", {**context, "a": old, "b": new, "diff": diff}
    )


@dataclass
class DeckDraft:
    """The deck builder's form: the build's fields and the deck being built, in card order."""

    name: str
    casket_class: str
    shield: str
    faction: str
    equipment: list[str]
    player: str
    counts: dict[str, int]  # card id -> copies
    versions: dict[str, int]  # card id -> pinned card version (kept from the build)

    @classmethod
    def of_version(cls, build: domain.BuildState) -> DeckDraft:
        v = build.current
        return cls(
            v.name,
            v.casket_class,
            v.shield,
            v.faction,
            list(v.equipment),
            build.player,
            {c: n for c, _, n in v.deck},
            {c: cv for c, cv, _ in v.deck},
        )

    @classmethod
    def of_form(cls, data: Mapping[str, str]) -> DeckDraft:
        counts: dict[str, int] = {}
        for key, raw in data.items():
            if not key.startswith("count-"):
                continue
            raw = raw.strip()
            if not raw:
                continue
            if not (raw.isascii() and raw.isdigit()) or int(raw) > MAX_COUNT:
                raise InvalidInput(
                    key, f"must be a whole number of copies, 0 to {MAX_COUNT}", "R-TRN-1"
                )
            if int(raw):
                counts[key.removeprefix("count-")] = int(raw)
        versions: dict[str, int] = {}
        for key, raw in data.items():
            card = key.removeprefix("version-")
            if key.startswith("version-") and card in counts:
                if not (raw.isascii() and raw.isdigit()):
                    raise InvalidInput(key, "must be a card version number")
                versions[card] = int(raw)
        equipment = [
            line.strip() for line in data.get("equipment", "").splitlines() if line.strip()
        ]
        return cls(
            data.get("name", ""),
            data.get("casket_class", ""),
            data.get("shield", ""),
            data.get("faction", ""),
            equipment,
            data.get("player", ""),
            dict(sorted(counts.items())),
            versions,
        )

    def deck(self) -> list[dict[str, Any]]:
        return [
            {"card": card, "version": self.versions.get(card), "count": count}
            for card, count in self.counts.items()
        ]


def _deck_check(draft: DeckDraft, state: domain.CampaignState) -> tuple[list[FormError], list[Any]]:
    """The deck's problems with their rule IDs, through the catalogue's validate-deck service
    (R-ADD-15, R-ADD-29, the ruleset's deck rules), and the card versions of its rows."""
    if not draft.counts:
        return [FormError("deck", "add cards: a casket deck has 30 cards", "R-TRN-1")], []
    rows = catalogue.card_rows_for(
        (card, count, draft.versions.get(card)) for card, count in draft.counts.items()
    )
    problems = catalogue.deck_problems(rows, parse_ruleset(state.rules, "rules"))
    errors = [
        FormError(
            "deck" if p.index is None else f"deck: {rows[p.index][0].name}",
            p.message,
            p.rule,
            p.code,
        )
        for p in problems
    ]
    return errors, rows


def _builder_context(
    campaign: Campaign,
    role: str,
    state: domain.CampaignState,
    build: domain.BuildState | None,
    draft: DeckDraft,
    data: Mapping[str, str],
) -> dict[str, Any]:
    q = (data.get("q") or "").strip()[:100]
    kind = data.get("kind") or None
    faction = data.get("card_faction") or None
    shown = catalogue.card_versions_current(
        q=q or None,
        kind=kind if kind in CARD_KINDS else None,
        faction=faction,
    )
    shown_ids = {cv.card_id for cv in shown}
    deck_rows = (
        catalogue.card_rows_for(
            (card, count, draft.versions.get(card)) for card, count in draft.counts.items()
        )
        if draft.counts
        else []
    )
    factions = sorted(
        {f for f in catalogue.card_versions_current().values_list("faction", flat=True) if f}
    )
    return {
        "campaign": campaign,
        "state": state,
        "role": role,
        "is_gm": role == "gm",
        "build": build,
        "draft": draft,
        "equipment_text": "\n".join(draft.equipment),
        "catalogue": [
            {
                "cv": cv,
                "count": draft.counts.get(cv.card_id, 0),
                "pinned": draft.versions.get(cv.card_id),
            }
            for cv in shown
        ],
        "hidden": [
            {"card": cv.card_id, "count": n, "version": draft.versions.get(cv.card_id)}
            for cv, n in deck_rows
            if cv.card_id not in shown_ids
        ],
        "deck_rows": [{"cv": cv, "count": n} for cv, n in deck_rows],
        "total": sum(draft.counts.values()),
        "filters": {"q": q, "kind": kind or "", "card_faction": faction or ""},
        "kinds": CARD_KINDS,
        "factions": factions,
        "classes": list(SP_MAXIMUM),
        "shields": SHIELDS,
        "players": state.players,
        "rules": parse_ruleset(state.rules, "rules"),
    }


@GET_POST
@login_required
def deck_builder_page(
    request: HttpRequest, campaign_id: uuid.UUID, build_id: uuid.UUID | None = None
) -> HttpResponse:
    """A new build (no build id) or the next version of one. Buttons: filter the catalogue,
    check the deck (every problem with its rule), save as a new build version (PRG).

    With htmx the page checks the deck as counts change (`action=check` answers only the
    deck's status, `_deck_status.html`) and filters the catalogue as the search is typed
    (`action=filter`, the page's `#catalogue` is swapped); a refused save lists the same
    problems as the check."""
    campaign, role = _campaign(request, campaign_id)
    state = selectors.campaign_state(campaign=campaign)
    build = _build_of(state, build_id) if build_id is not None else None
    if build is not None and not _may_edit(build, role, request.user):
        raise PermissionDenied("players revise only their own builds (R-ADD-31)")
    errors: list[FormError] = []
    checked: list[FormError] | None = None
    status = 200
    action = request.POST.get("action", "check") if request.method == "POST" else ""
    if request.method == "POST":
        try:
            draft = DeckDraft.of_form(request.POST)
        except InvalidInput as exc:
            draft = DeckDraft.of_version(build) if build else _empty_draft(request, role)
            errors, status = FormError.of(exc), 400
        else:
            unknown = _unknown_cards(draft)
            if unknown:
                errors, status = _named_rows(unknown, draft), 400
                for e in unknown:
                    draft.counts.pop(_row_card(e, draft), None)
            elif action == "save":
                try:
                    saved, version = services.build_revise(
                        campaign=campaign,
                        actor=request.user,  # type: ignore[arg-type]
                        build_id=build.id if build else None,
                        name=draft.name,
                        casket_class=draft.casket_class,
                        shield=draft.shield,
                        faction=draft.faction,
                        deck=draft.deck(),
                        equipment=draft.equipment,
                        player=draft.player if role == "gm" and build is None else None,
                    )
                except REFUSALS as exc:
                    errors, status = _named_rows(FormError.of(exc), draft), 400
                else:
                    return _redirect("build-page", campaign.id, saved.id, anchor=f"v{version}")
            elif action == "check":
                try:
                    checked, _ = _deck_check(draft, state)
                except InvalidInput as exc:
                    errors, status = FormError.of(exc), 400
        data: Mapping[str, str] = request.POST
    else:
        draft = DeckDraft.of_version(build) if build else _empty_draft(request, role)
        data = request.GET
    if request.htmx and action == "check":  # type: ignore[attr-defined]
        # The live check: the deck's status only (no catalogue); a refused field is one
        # more problem.
        rows = (
            catalogue.card_rows_for((c, n, draft.versions.get(c)) for c, n in draft.counts.items())
            if draft.counts
            else []
        )
        status_context = {
            "deck_rows": [{"cv": cv, "count": n} for cv, n in rows],
            "total": sum(draft.counts.values()),
            "checked": [*errors, *(checked or [])],
        }
        response = render(request, "campaigns/_deck_status.html", status_context)
    else:
        context = _builder_context(campaign, role, state, build, draft, data)
        context.update({"errors": errors, "checked": checked})
        response = render(request, "campaigns/deck_builder.html", context, status=status)
    response["Vary"] = "HX-Request"
    return response


def _unknown_cards(draft: DeckDraft) -> list[FormError]:
    """A refusal per deck row whose card (or pinned version) the catalogue does not hold."""
    try:  # one look-up for the whole deck; row by row only to name every unknown one
        catalogue.card_rows_for((c, n, draft.versions.get(c)) for c, n in draft.counts.items())
    except InvalidInput:
        pass
    else:
        return []
    errors = []
    for card, count in draft.counts.items():
        try:
            catalogue.card_rows_for([(card, count, draft.versions.get(card))])
        except InvalidInput as exc:
            index = list(draft.counts).index(card)
            field = exc.field.replace("deck[0]", f"deck[{index}]", 1)
            errors.append(FormError(field, exc.message, exc.rule))
    return errors


def _row_card(error: FormError, draft: DeckDraft) -> str:
    field = error.field or ""
    index = field[5 : field.index("]")] if field.startswith("deck[") else ""
    return list(draft.counts)[int(index)] if index.isdigit() else ""


def _named_rows(errors: list[FormError], draft: DeckDraft) -> list[FormError]:
    """`deck[i]` fields named by their card's name, as the check names them (a card the
    catalogue does not hold by its id)."""
    cards = list(draft.counts)
    names = dict(zip(cards, cards, strict=True))
    try:
        rows = catalogue.card_rows_for(
            (c, n, draft.versions.get(c)) for c, n in draft.counts.items()
        )
    except InvalidInput:
        rows = []  # an unknown card: every row keeps its id
    names.update((cv.card_id, cv.name) for cv, _ in rows)
    out = []
    for e in errors:
        field = e.field or ""
        if field.startswith("deck[") and "]" in field:
            index = field[5 : field.index("]")]
            if index.isdigit() and int(index) < len(cards):
                field = f"deck: {names[cards[int(index)]]}{field[field.index(']') + 1 :]}"
        out.append(FormError(field or None, e.message, e.rule, e.code))
    return out


def _empty_draft(request: HttpRequest, role: str) -> DeckDraft:
    player = "" if role == "gm" else request.user.get_username()
    return DeckDraft("", "scout", "left", "", [], player, {}, {})


# --- the mission wizard --------------------------------------------------------------------------

CUSTOM_BOARD = "custom"
MAX_BOARD_TEXT = 200_000


def _wizard_rows(
    state: domain.CampaignState, board: selectors.LibraryBoard | None, data: Mapping[str, str]
) -> list[dict[str, Any]]:
    """One row per pilot: deployable or not (with the reason), the builds of their player,
    and the form's values (or suggestions from the board's deployment hexes)."""
    builds_of: dict[str, list[domain.BuildState]] = {}
    for b in sorted(state.builds.values(), key=lambda b: b.current.name):
        builds_of.setdefault(b.player, []).append(b)
    rows = []
    slot = 0
    taken: dict[str, int] = {}
    for p in sorted(
        state.pilots.values(), key=lambda p: (p.status != domain.ALIVE, p.player, p.name)
    ):
        reason = (
            "dead: all 10 wounds face up (R-PLT-1)"
            if p.status == domain.DEAD
            else "retired (R-ADD-31)"
            if p.status == domain.RETIRED
            else ""
        )
        builds = builds_of.get(p.player, [])
        row: dict[str, Any] = {"pilot": p, "reason": reason, "builds": builds}
        if data:
            row.update(
                deploy=data.get(f"deploy-{p.id}") == "on",
                build=data.get(f"build-{p.id}", ""),
                side=data.get(f"side-{p.id}", ""),
                q=data.get(f"q-{p.id}", ""),
                r=data.get(f"r-{p.id}", ""),
                facing=data.get(f"facing-{p.id}", ""),
            )
        else:
            n = taken.get(p.player, 0)
            suggestion = board.deploy[slot % len(board.deploy)] if board and board.deploy else None
            row.update(
                deploy=not reason and bool(builds),
                build=builds[n % len(builds)].id if builds else "",
                side=p.player,
                q=str(suggestion[0]) if suggestion and not reason else "",
                r=str(suggestion[1]) if suggestion and not reason else "",
                facing=str(suggestion[2]) if suggestion and not reason else "1",
            )
            if not reason and builds:
                slot += 1
                taken[p.player] = n + 1
        rows.append(row)
    return rows


def _whole(raw: str, field: str, rule: str) -> int:
    raw = raw.strip()
    sign = raw[:1] == "-"
    digits = raw[1:] if sign else raw
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 6:
        raise InvalidInput(field, f"must be a whole number, not {raw[:20]!r}", rule)
    return -int(digits) if sign else int(digits)


def _wizard_seats(rows: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], list[str]]:
    """The seats of the mission from the checked rows, as mission_start takes them, and the
    pilot name of each seat (to name refused seats)."""
    seats, names = [], []
    for row in rows:
        if not row["deploy"]:
            continue
        i = len(seats)
        pilot = row["pilot"]
        seats.append(
            {
                "pilot": pilot.id,
                "build": row["build"],
                "side": row["side"].strip() or pilot.player,
                "at": [
                    _whole(row["q"], f"seats[{i}].at (q of {pilot.name})", "R-BRD-1"),
                    _whole(row["r"], f"seats[{i}].at (r of {pilot.name})", "R-BRD-1"),
                ],
                "facing": _whole(row["facing"], f"seats[{i}].facing ({pilot.name})", "R-BRD-2"),
            }
        )
        names.append(pilot.name)
    return seats, names


def _seat_named(errors: list[FormError], names: list[str]) -> list[FormError]:
    """`seats[i]…` fields followed by the pilot's name."""
    out = []
    for e in errors:
        field = e.field or ""
        if field.startswith("seats[") and "]" in field and "(" not in field:
            index = field[6 : field.index("]")]
            if index.isdigit() and int(index) < len(names):
                field = f"{field} ({names[int(index)]})"
        out.append(FormError(field or None, e.message, e.rule, e.code))
    return out


def _wizard_board(data: Mapping[str, str], library: list[selectors.LibraryBoard]) -> object:
    choice = data.get("board", "")
    if choice == CUSTOM_BOARD:
        text = data.get("board_document", "")
        if len(text) > MAX_BOARD_TEXT:
            raise InvalidInput("board_document", "is too long for a board document", "R-BRD-1")
        try:
            return json.loads(text)
        except ValueError as exc:
            raise InvalidInput(
                "board_document", f"is not JSON: {exc.args[0][:80]}", "R-BRD-1"
            ) from None
    found = next((b for b in library if b.slug == choice), None)
    if found is None:
        raise InvalidInput("board", "choose a board from the library, or paste a board document")
    return found.document


def _wizard_dice(data: Mapping[str, str]) -> dict[str, Any]:
    dice: dict[str, Any] = {"mode": data.get("dice_mode", "digital")}
    seed_raw = data.get("seed", "").strip()
    if seed_raw:
        dice["seed"] = _whole(seed_raw, "seed", "R-TRN-1")
    return dice


def _wizard_drawing(
    data: Mapping[str, str],
    board: selectors.LibraryBoard | None,
    rows: list[dict[str, Any]],
) -> dict[str, Any] | None:
    """The chosen board drawn with every deployed pilot where the form puts them (seat
    number, initial, facing line); None when the board document does not parse (the check
    then says why)."""
    document: object = board.document if board is not None else None
    if data.get("board") == CUSTOM_BOARD:
        try:
            document = json.loads(data.get("board_document", "")[:MAX_BOARD_TEXT])
        except ValueError:
            return None
    if document is None:
        return None
    try:
        parsed = parse_board(document)
    except InvalidInput:
        return None
    marks = []
    for row in rows:
        if not row["deploy"] or row["reason"]:
            continue
        try:
            q = _whole(row["q"], "q", "R-BRD-1")
            r = _whole(row["r"], "r", "R-BRD-1")
        except InvalidInput:
            continue
        facing = int(row["facing"]) if row["facing"] in {"1", "2", "3", "4", "5", "6"} else None
        marks.append(board_drawing.seat_mark(len(marks), row["pilot"].name, q, r, facing))
    return board_drawing.drawing(parsed, marks)


def _wizard_check(
    mission: Any,
    user: Any,
    data: Mapping[str, str],
    library: list[selectors.LibraryBoard],
    rows: list[dict[str, Any]],
) -> tuple[list[FormError], list[dict[str, Any]]]:
    """The deployment as the engine judges it, nothing written: the refusals `mission_start`
    would give (each with its field, named by pilot, and rule), or the seats as the engine
    normalised them."""
    names: list[str] = []
    try:
        seats, names = _wizard_seats(rows)
        setup = services.mission_start_check(
            mission=mission,
            actor=user,
            board=_wizard_board(data, library),
            seats=seats,
            dice=_wizard_dice(data),
            policy=data.get("policy", "prompt"),
        )
    except REFUSALS as exc:
        return _seat_named(FormError.of(exc), names), []
    placed = [
        {
            "seat": i,
            "pilot": names[i],
            "side": s["side"],
            "at": f"{s['at'][0]},{s['at'][1]}",
            "facing": DIRECTION_NAMES[s["facing"]],
        }
        for i, s in enumerate(setup["seats"])
    ]
    return [], placed


@GET_POST
@login_required
def mission_wizard_page(
    request: HttpRequest, campaign_id: uuid.UUID, mission_id: uuid.UUID
) -> HttpResponse:
    """The GM plans a mission's battle: board, deployments (fields, or a click on the drawn
    board), dice, prompt policy; the campaign fixes the ruleset (R-PLT-5). Every change is
    checked by the engine at once (htmx asks with `action=check`; without a script the
    "Check deployment" button does); starting opens the battle's replay page."""
    campaign, role = _campaign(request, campaign_id)
    _gm_only(role)
    mission = selectors.mission_in(campaign=campaign, mission_id=mission_id)
    if mission is None:
        raise Http404("no such mission in this campaign")
    state = selectors.campaign_state(campaign=campaign)
    library = selectors.board_library_for(campaign=campaign)
    data: Mapping[str, str] = request.POST if request.method == "POST" else {}
    chosen = data.get("board") or request.GET.get("board") or library[0].slug
    board = next((b for b in library if b.slug == chosen), None)
    rows = _wizard_rows(state, board, data)
    errors: list[FormError] = []
    action = data.get("action", "start")
    if request.method == "POST" and action == "start":
        names: list[str] = []
        try:
            seats, names = _wizard_seats(rows)
            battle = services.mission_start(
                mission=mission,
                actor=request.user,  # type: ignore[arg-type]
                board=_wizard_board(data, library),
                seats=seats,
                dice=_wizard_dice(data),
                policy=data.get("policy", "prompt"),
                name=data.get("battle_name", "").strip() or None,
            )
        except REFUSALS as exc:
            errors = _seat_named(FormError.of(exc), names)
        else:
            return HttpResponseRedirect(f"/battles/{battle.id}/replay/")
    check_data = data or {"board": chosen}
    problems, placed = _wizard_check(mission, request.user, check_data, library, rows)
    deploy = {
        "drawing": _wizard_drawing(check_data, board, rows),
        "problems": problems,
        "placed": placed,
    }
    if request.htmx:  # type: ignore[attr-defined]
        response = render(request, "campaigns/_wizard_deploy.html", {"deploy": deploy})
        response["Vary"] = "HX-Request"
        return response
    earlier = next(
        (m for m in state.missions if m.number < mission.number and m.status != "completed"),
        None,
    )
    context = {
        "campaign": campaign,
        "state": state,
        "mission": mission,
        "earlier": earlier,
        "library": library,
        "chosen": chosen,
        "board": board,
        "rows": rows,
        "rules": parse_ruleset(state.rules, "rules"),
        "directions": DIRECTION_NAMES,
        "form": data,
        "errors": errors,
        "custom": CUSTOM_BOARD,
        "deploy": deploy,
    }
    response = render(request, "campaigns/wizard.html", context, status=400 if errors else 200)
    response["Vary"] = "HX-Request"
    return response


# --- people: invitations, sign-up, profile ---------------------------------------------------------


@GET_POST
def join_page(request: HttpRequest, token: str) -> HttpResponse:
    """An invitation link: a signed-in user joins with one button; anyone else signs up here
    (username and password, no email) and joins at once (R-ADD-31)."""
    campaign = services.campaign_of_invite(token=token)
    if campaign is None:
        error = FormError("invite", "this invitation link is not valid or has expired")
        return render(request, "campaigns/join.html", {"errors": [error]}, status=400)
    form = UserCreationForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        if request.user.is_authenticated:
            services.campaign_invite_accept(token=token, user=request.user)  # type: ignore[arg-type]
            return _redirect("campaign-page", campaign.id)
        if form.is_valid():
            with transaction.atomic():
                user = form.save()
                services.campaign_invite_accept(token=token, user=user)
            login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            return _redirect("campaign-page", campaign.id)
        errors = [
            FormError("password" if field == "__all__" else field, message)
            for field, messages in form.errors.items()
            for message in messages
        ]
        context = {"campaign": campaign, "form": form, "errors": errors, "token": token}
        return render(request, "campaigns/join.html", context, status=400)
    role = selectors.campaign_role(campaign=campaign, user=request.user)
    context = {"campaign": campaign, "form": form, "role": role, "token": token}
    return render(request, "campaigns/join.html", context)


@GET_POST
@login_required
def profile_page(request: HttpRequest) -> HttpResponse:
    """The signed-in user's own page: their campaigns, password change, and their API
    tokens: as many as they like, each named, each revoked on its own. A new token's key
    is shown once, right after it is made (only its digest is stored)."""
    if request.method == "POST":
        action = request.POST.get("action")
        user: Any = request.user
        error = None
        if action == "create_token":
            try:
                token, key = tokens.api_token_create(user=user, name=request.POST.get("name", ""))
            except tokens.TokenRefused as exc:
                error = FormError(exc.field, exc.message)
            else:
                request.session["new_token"] = {"id": token.pk, "key": key}
        elif action == "revoke_token":
            raw = request.POST.get("token", "")
            if not (raw.isascii() and raw.isdigit()) or not tokens.api_token_revoke(
                user=user, token_id=int(raw)
            ):
                error = FormError("token", "you hold no token with this id")
        else:
            error = FormError("action", "must be create_token or revoke_token")
        if error is not None:
            context = _profile_context(request, [error])
            context["form"] = request.POST
            return render(request, "campaigns/profile.html", context, status=400)
        return _redirect("profile", anchor="tokens")
    context = _profile_context(request, [])
    context["new_token"] = request.session.pop("new_token", None)
    return render(request, "campaigns/profile.html", context)


def _profile_context(request: HttpRequest, errors: list[FormError]) -> dict[str, Any]:
    return {
        "errors": errors,
        "tokens": tokens.api_tokens_of(user=request.user),  # type: ignore[arg-type]
        "max_tokens": tokens.MAX_TOKENS,
        "campaigns": selectors.campaign_list_for(user=request.user).select_related("gm"),
    }


# --- after the battle: a mission's review ----------------------------------------------------------


@GET_ONLY
@login_required
def mission_page(
    request: HttpRequest, campaign_id: uuid.UUID, mission_id: uuid.UUID
) -> HttpResponse:
    """A mission after its battle: who was deployed in what, the outcome as the campaign
    applied it (R-PLT-5), and the GM's adjustments made between this mission and the next,
    each with its reason (R-ADD-31)."""
    campaign, role = _campaign(request, campaign_id)
    events, state = selectors.campaign_events_and_state(campaign=campaign)
    mission = next((m for m in state.missions if m.id == str(mission_id)), None)
    if mission is None:
        raise Http404("no such mission in this campaign")
    pilots, _, _ = _names(state)
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
