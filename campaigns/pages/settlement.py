"""The settlement page: the ledger between missions for everyone in the campaign, and
for the GM the settlement phase as a wizard, one step after the other in the game's
order (pc-1 rules, R-ADD-230…251; docs/CAMPAIGNS.md).

Every form carries a command id made when the page is drawn, so sending it twice (a
double tap, a reload of the POST) records the step once and never rolls again
(R-ADD-248).
"""

from __future__ import annotations

import uuid
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from battles.engine.errors import InvalidInput
from penance_site.users import signed_in

from .. import access, domain, selectors
from ..between import bargains, relationships, skills, soulstone, storage, travel
from ..between import decide as between
from ..between import ledger as lg
from ..between.modules import module_data
from ..between.rulebook import module_name, rulebook
from ..models import Campaign, EquipmentItem
from ..settlement_api import COMMANDS, command_from, settlement_view
from ..settlement_services import settlement_step
from .common import GET_ONLY, POST_ONLY, REFUSALS, campaign_of, redirect_to, refused_form, whole

STEP_TITLES = {
    "return.casualties": "Return: casualties",
    "return.rewards": "Return: rewards and loot",
    "return.salvage": "Return: salvage",
    "return.pilots": "Return: Corruption saves and scars",
    "income": "Income and upkeep",
    "event": "Settlement event",
    "actions": "Settlement actions",
    "care": "Pilot care",
    "select": "Mission select",
}
# the form each step posts: the command of settlement_api.COMMANDS
STEP_COMMANDS = {
    "return.casualties": "casualties",
    "return.rewards": "rewards",
    "return.salvage": "salvage",
    "return.pilots": "pilots",
    "income": "income",
    "event": "event",
    "actions": "action",
    "care": "care",
    "select": "select",
}


def _due_mission(state: domain.CampaignState) -> domain.MissionState | None:
    """The completed mission whose phase is open or not yet played (the earliest)."""
    ledger: lg.Ledger = state.settlement
    for m in state.missions:
        if m.status != "completed":
            continue
        phase = ledger.phase(m.id)
        if phase is None or not phase.closed:
            return m
    return None


def settlement_context(campaign: Campaign, role: str) -> dict[str, Any]:
    state = selectors.campaign_state(campaign=campaign)
    if state.settlement is None:
        raise Http404("this campaign plays plt-1 (R-PLT-1…5): it has no settlement (R-ADD-230)")
    ledger: lg.Ledger = state.settlement
    book = rulebook(ledger.version)
    view = settlement_view(state)
    mission = _due_mission(state)
    phase = ledger.phase(mission.id) if mission else None
    next_step = None
    if mission is not None and phase is not None:
        next_step = next((s for s in between.STEPS if s not in phase.steps), None)
    steps = [
        {
            "id": s,
            "title": STEP_TITLES[s],
            "done": phase is not None and s in phase.steps,
            "current": s == next_step,
        }
        for s in between.STEPS
    ]
    alive = [p for p in view["pilots"] if p["status"] == domain.ALIVE]
    table_rows = {
        key: [(e.id, e.name) for e in book.table(key).entries] for key in ("events", "salvage")
    }
    return {
        "campaign": campaign,
        "state": state,
        "is_gm": role == access.GM,
        "ledger": view,
        "mission": mission,
        "phase": phase,
        "next_step": next_step,
        "step_command": STEP_COMMANDS.get(next_step or "", ""),
        "steps": steps,
        "alive": alive,
        "scars_due": [p for p in alive if p["scars_due"] > 0],
        "scar_tables": [k.split(".", 1)[1] for k in book.tables if k.startswith("scars.")],
        # a module's action only where the campaign plays the module (R-ADD-316)
        "actions": [
            a
            for a in book.settlement["actions"]
            if not a.get("module") or a["module"] in ledger.modules
        ],
        **_module_context(state, mission, phase),
        "module_names": [module_name(ledger.version, m) for m in ledger.modules],
        "buildings": book.settlement["buildings"],
        "players": state.players,
        "rows": table_rows,
        "command_id": uuid.uuid4().hex,
        **storage_context(state),
        "rolls": list(reversed(view["rolls"]))[:60],
    }


def _module_context(
    state: domain.CampaignState, mission: domain.MissionState | None, phase: lg.PhaseState | None
) -> dict[str, Any]:
    """The optional modules' forms while a phase is open (R-ADD-315…321)."""
    ledger: lg.Ledger = state.settlement
    out: dict[str, Any] = {
        "xp_due": [],
        "bargains_open": [],
        "relationship_form": None,
        "energy_due": [],
        "travel_due": [],
        "travel_drawn": [],
    }
    if mission is None or phase is None or phase.closed:
        return out
    done = [d for d in travel.drawn(state) if d.mission_id == mission.id]
    out["travel_drawn"] = done
    out["travel_due"] = [k for k in travel.KINDS if not any(d.kind == k for d in done)]
    if skills.MODULE in ledger.modules:
        data = module_data(ledger.version, skills.FILE)
        flew = [state.pilots[d[1]] for d in mission.deployments]
        out["xp_due"] = [
            p
            for p in flew
            if p.status == domain.ALIVE
            and mission.id not in skills.pilot_skills(ledger, p.id).awarded
        ]
        out["xp_results"] = [(k, v["name"], v["xp"]) for k, v in data["results"].items()]
        out["xp_bonuses"] = [(k, v["name"], v["xp"]) for k, v in data["bonuses"].items()]
        tier2 = data["tables"]["tier-2"]["entries"]
        out["xp_choices"] = [(e["id"], e["name"]) for e in tier2 if not e.get("choose")]
    if bargains.MODULE in ledger.modules:
        out["bargains_open"] = [
            {
                "pilot": p,
                "at": bargains.offer(state, p.id),
                "offered": bargains.offerable(ledger.version, p.faction),
            }
            for p in sorted(state.pilots.values(), key=lambda p: p.name)
            if bargains.offer(state, p.id) is not None
        ]
    if soulstone.MODULE in ledger.modules:
        data = module_data(ledger.version, soulstone.FILE)
        spent = soulstone.energy_state(ledger).spent
        out["energy_due"] = [
            {
                "build": build,
                "name": state.builds[build].current.name,
                "pilot": state.pilots[p].name,
            }
            for _, p, build, _ in mission.deployments
            if (mission.id, build) not in spent and build in state.builds
        ]
        out["energy_costs"] = [
            (k, v["name"], v["energy"], bool(v.get("repeats"))) for k, v in data["costs"].items()
        ]
        out["overcharge"] = data["overcharge"]
    if relationships.MODULE in ledger.modules:
        data = module_data(ledger.version, relationships.FILE)
        out["relationship_form"] = {"factions": data["factions"], "causes": data["causes"]}
    return out


def storage_context(state: domain.CampaignState) -> dict[str, Any]:
    """The Forge's craftable items with their cost and the destroyed caskets the Workshop
    may rebuild (R-ADD-351, R-ADD-352)."""
    craftable = []
    for item in EquipmentItem.objects.order_by("name"):
        try:
            credits, scrap = storage.craft_cost(item.crafting_cost)
        except InvalidInput:
            continue  # the card database gives it no crafting cost
        craftable.append(
            {"id": item.pk, "name": item.name.title(), "credits": credits, "scrap": scrap}
        )
    retrofit = storage.storage_rules(state.settlement.version)["retrofit"]
    destroyed = [
        {"id": b.id, "name": b.current.name, "player": b.player}
        for b in state.builds.values()
        if b.destroyed
    ]
    return {"craftable": craftable, "destroyed": destroyed, "retrofit": retrofit}


@GET_ONLY
def settlement_page(request: HttpRequest, campaign_id: uuid.UUID) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    return render(request, "campaigns/settlement.html", settlement_context(campaign, role))


def _faces(raw: str) -> list[int] | None:
    """'3, 5 6' → [3, 5, 6]; empty → None (the server's sealed dice)."""
    parts = raw.replace(",", " ").split()
    if not parts:
        return None
    return [whole(p, "faces", "R-ADD-248") for p in parts]


def form_data(post: Any, command: str, mission_id: str) -> dict[str, Any]:
    """A step's form as the API's validated request (settlement_api.SettlementCommandInput)."""
    data: dict[str, Any] = {
        "command": command,
        "mission": mission_id,
        "memorial": post.get("memorial") == "on",
        "success": post.get("success") == "on",
        "objectives": post.getlist("objectives"),
        "enemies": {
            name: whole(post.get(f"enemies_{name}") or "0", f"enemies_{name}", "R-ADD-235")
            for name in between.ENEMY_CLASSES
        },
        "scar_tables": {},
        "scar_choices": {},
        "player": post.get("player", ""),
        "action": post.get("action", ""),
        "pilot": post.get("pilot", ""),
        "detail": post.get("detail", ""),
        "name": post.get("name", ""),
        "count": whole(post.get("count") or "3", "count", "R-ADD-251"),
        "offer": post.get("offer", ""),
        "complex_trait": post.get("complex_trait") == "on",
        "grit": whole(post.get("grit") or "-1", "grit", "R-ADD-233"),
        "reason": post.get("reason", ""),
        "result": post.get("result", ""),
        "bonuses": post.getlist("bonuses"),
        "choice": post.get("choice", ""),
        "bargain": post.get("bargain", ""),
        "faction": post.get("faction", ""),
        "cause": post.get("cause", ""),
        "kind": post.get("kind", ""),
        "build": post.get("build", ""),
        "costs": post.getlist("costs"),
        "overcharge": whole(post.get("overcharge") or "0", "overcharge", "R-ADD-322"),
        "item": post.get("item", ""),
    }
    for key, value in post.items():
        if key.startswith("scar_table_") and value:
            data["scar_tables"][key.removeprefix("scar_table_")] = value
        if key.startswith("scar_choice_") and value:
            data["scar_choices"][key.removeprefix("scar_choice_")] = value
    for key, value in post.items():
        # a cost that repeats (each overheating) sent as a count (R-ADD-322)
        if key.startswith("repeat_") and value:
            times = whole(value, key, "R-ADD-322")
            data["costs"] += [key.removeprefix("repeat_")] * min(times, 10)
    if post.get("override_entry"):
        data["override"] = {
            "entry": post["override_entry"],
            "reason": post.get("override_reason", ""),
        }
    return data


@POST_ONLY
def settlement_command(request: HttpRequest, campaign_id: uuid.UUID, command: str) -> HttpResponse:
    campaign, role = campaign_of(request, campaign_id)
    access.gm_only(role, "plays the settlement phase")
    if command not in COMMANDS:
        raise Http404("no such settlement command")
    mission_id = request.POST.get("mission", "")
    try:
        uuid.UUID(mission_id)
    except ValueError:
        raise Http404("no such mission") from None
    if selectors.mission_in(campaign=campaign, mission_id=uuid.UUID(mission_id)) is None:
        raise Http404("no such mission in this campaign")
    try:
        data = form_data(request.POST, command, mission_id)
        faces = _faces(request.POST.get("faces", ""))
        command_id = request.POST.get("command_id") or None
        if command_id is not None and len(command_id) > 100:
            raise InvalidInput("command_id", "1 to 100 characters")
        settlement_step(
            campaign=campaign,
            actor=signed_in(request.user),
            command=command_from(data),
            faces=faces,
            command_id=command_id,
        )
    except REFUSALS as exc:
        context = settlement_context(campaign, role)
        return refused_form(request, "campaigns/settlement.html", context, exc, command)
    return redirect_to("settlement-page", campaign.id, anchor="phase")
