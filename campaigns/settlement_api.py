"""The settlement between missions over the API (pc-1 rules, R-ADD-230…251).

- `GET /api/campaigns/<id>/settlement`: the ledger folded from the campaign's events
  (credits, scrap, population, morale, buildings, storage, roster, pilots' Grit,
  morale and injuries, every phase and every roll); the GM and the players read it,
  outsiders get 404 for a private campaign and 403 for a public one (R-ADD-31).
- `POST /api/campaigns/<id>/settlement/commands`: one step of a settlement phase, or
  a GM's Grit or sideline ruling (GM only); `craft` and `rebuild` are settlement actions
  of campaigns/between/storage.py (R-ADD-351, R-ADD-352). `faces` are physical dice in roll order;
  without them the server rolls sealed dice (R-ADD-248). `command_id` makes the
  request idempotent: sent again, it answers 200 with what it recorded the first time.
- `GET /api/campaigns/<id>/settlement/dice`: every sealed roll of the closed phases
  derived again from the revealed secrets.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response

from battles.engine.errors import InvalidInput
from penance_site.api import request_example
from penance_site.api_fields import StrictSerializer
from penance_site.users import signed_in

from . import domain
from .between import bargains, relationships, skills, soulstone, storage, travel
from .between import decide as between
from .between import ledger as lg
from .between.rulebook import rulebook
from .campaigns_api import TAGS, WRITE_ERRORS, CampaignsView, endpoint
from .codec import CAMPAIGN_EVENTS
from .settlement_services import settlement_dice_check, settlement_step

COMMANDS = (
    "open",
    "casualties",
    "rewards",
    "salvage",
    "pilots",
    "income",
    "event",
    "action",
    "finish_actions",
    "care",
    "offer",
    "recruit",
    "select",
    "grit",
    "sideline",
    "xp",
    "bargain",
    "relationship",
    "energy",
    "travel",
    "craft",
    "rebuild",
)


def settlement_view(state: domain.CampaignState) -> dict[str, Any]:
    """The ledger as the API and the pages show it."""
    ledger: lg.Ledger = state.settlement
    book = rulebook(ledger.version)
    names = {b["id"]: b["name"] for b in book.settlement["buildings"]}
    pilots = []
    for p in sorted(state.pilots.values(), key=lambda p: p.name):
        record = ledger.pilot(p.id)
        reading = between.grit(state, p.id)
        pilots.append(
            {
                "id": p.id,
                "name": p.name,
                "player": p.player,
                "status": p.status,
                "taint": p.taint,
                "grit": {
                    "value": reading.value,
                    "recorded": reading.recorded,
                    "missions_survived": reading.missions,
                    "severe_survived": reading.severe,
                    "override": reading.override,
                    "reason": reading.reason,
                    "check_modifier": reading.check_modifier,
                    "notes": list(reading.notes),
                },
                "morale": record.morale,
                "injuries": list(record.injuries),
                "wounds": [w.wound for w in p.wounds],
                "permanent": list(record.permanent),
                "skills": dict(record.skills),
                "scars": list(p.scars),
                "scars_due": between.scars_due(state, p.id),
                "out_for_mission": record.out_for_mission or None,
                "out_reason": record.out_reason,
                "deployment_notes": list(between.deployment_notes(state, p.id)),
                "xp": _xp_view(state, p.id),
                "bargains": _bargains_view(state, p.id),
            }
        )
    numbers = {m.id: m.number for m in state.missions}
    return {
        "version": ledger.version,
        "modules": list(ledger.modules),
        "credits": ledger.credits,
        "credits_cap": int(book.settlement["caps"]["credits"]),
        "scrap": ledger.scrap,
        "population": ledger.population,
        "morale": ledger.morale,
        "stability": ledger.stability,
        "instability": ledger.instability,
        "buildings": [
            {
                "id": b.id,
                "name": names.get(b.id, b.id),
                "standing": b.standing,
                "phases_left": b.phases_left,
            }
            for b in ledger.buildings
        ],
        "slots": {"used": len(ledger.buildings), "total": between.slots(ledger)},
        "roster": {
            "active": sum(1 for p in state.pilots.values() if p.status == domain.ALIVE),
            "cap": lg.roster_cap(ledger),
        },
        "storage": [{"item": i, "name": n} for i, n in ledger.storage],
        "pilots": pilots,
        "caskets": _caskets_view(state) if soulstone.MODULE in ledger.modules else None,
        "relationships": relationships.table(state)
        if relationships.MODULE in ledger.modules
        else None,
        "phases": [
            {
                "mission": ph.mission_id,
                "mission_number": numbers.get(ph.mission_id),
                "steps_done": list(ph.steps),
                "next_step": next((s for s in between.STEPS if s not in ph.steps), None)
                if not ph.closed
                else None,
                "closed": ph.closed,
                "commitment": ph.commitment,
                "secret": ph.secret or None,
                "recruits": [[{"table": t, "row": r} for t, r in rec] for rec in ph.recruits],
                "actions": [
                    {
                        "player": a.player,
                        "action": a.action,
                        "pilot": a.pilot_id,
                        "detail": a.detail,
                    }
                    for a in ph.actions
                ],
            }
            for ph in ledger.phases
        ],
        "rolls": [
            {
                "scope": r.scope,
                "index": r.index,
                "table": r.table,
                "table_version": r.table_version,
                "die": r.die,
                "faces": list(r.faces),
                "modifier": r.modifier,
                "total": r.total,
                "outcome": r.outcome,
                "rolled": r.rolled,
                "source": r.source,
                "purpose": r.purpose,
                "pilot": r.pilot_id or None,
                "override_reason": r.override_reason or None,
            }
            for r in ledger.rolls
        ],
    }


def _xp_view(state: domain.CampaignState, pilot_id: str) -> dict[str, Any] | None:
    """XP and skills under the xp_skills module (R-ADD-315), else None."""
    ledger: lg.Ledger = state.settlement
    if skills.MODULE not in ledger.modules:
        return None
    record = skills.pilot_skills(ledger, pilot_id)
    return {
        "xp": record.xp,
        "next_skill_at": skills.next_rung(state, pilot_id),
        "skills": [
            {"tier": s.tier, "id": s.id, "name": s.name, "effect": s.effect} for s in record.skills
        ],
    }


def _bargains_view(state: domain.CampaignState, pilot_id: str) -> dict[str, Any] | None:
    """Flesh Bargains under the flesh_bargains module (R-ADD-317), else None."""
    ledger: lg.Ledger = state.settlement
    if bargains.MODULE not in ledger.modules:
        return None
    at = bargains.offer(state, pilot_id)
    pilot = state.pilots[pilot_id]
    return {
        "taken": [
            {"id": i, "name": n, "effect": e}
            for i, n, e in bargains.pilot_bargains(ledger, pilot_id).taken
        ],
        "offer_at": at,
        "offered": [
            {"id": str(b["id"]), "name": str(b["name"]), "cost": str(b["cost_text"])}
            for b in bargains.offerable(ledger.version, pilot.faction)
        ]
        if at is not None
        else [],
    }


def _caskets_view(state: domain.CampaignState) -> list[dict[str, Any]]:
    """Each casket of a living pilot with its Soulstone Energy (R-ADD-322)."""
    ledger: lg.Ledger = state.settlement
    rows = []
    for p in sorted(state.pilots.values(), key=lambda p: p.name):
        build = soulstone.casket_of(state, p.id)
        if p.status != domain.ALIVE or build is None or build not in state.builds:
            continue
        value = soulstone.energy(state, build)
        band = soulstone.band(ledger.version, value)
        rows.append(
            {
                "build": build,
                "name": state.builds[build].current.name,
                "pilot": p.name,
                "energy": value,
                "band": band["name"],
                "effect": band["effect"],
            }
        )
    return rows


# --- shapes ---------------------------------------------------------------------------------------


class GritOutput(serializers.Serializer[Any]):
    value = serializers.IntegerField()
    recorded = serializers.IntegerField()
    missions_survived = serializers.IntegerField()
    severe_survived = serializers.IntegerField()
    override = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField()
    check_modifier = serializers.IntegerField()
    notes = serializers.ListField(child=serializers.CharField())


class SkillOutput(serializers.Serializer[Any]):
    tier = serializers.IntegerField()
    id = serializers.CharField()
    name = serializers.CharField()
    effect = serializers.CharField()


class XPOutput(serializers.Serializer[Any]):
    xp = serializers.IntegerField()
    next_skill_at = serializers.IntegerField(allow_null=True)
    skills = SkillOutput(many=True)


class BargainTakenOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    effect = serializers.CharField()


class BargainOfferedOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    cost = serializers.CharField()


class BargainsOutput(serializers.Serializer[Any]):
    taken = BargainTakenOutput(many=True)
    offer_at = serializers.IntegerField(
        allow_null=True, help_text="the pilot's mission count of the open offer"
    )
    offered = BargainOfferedOutput(many=True)


class SettlementPilotOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    player = serializers.CharField()
    status = serializers.CharField()
    taint = serializers.IntegerField()
    grit = GritOutput()
    morale = serializers.IntegerField()
    injuries = serializers.ListField(child=serializers.CharField())
    wounds = serializers.ListField(child=serializers.CharField())
    permanent = serializers.ListField(child=serializers.CharField())
    skills = serializers.DictField(child=serializers.IntegerField())
    scars = serializers.ListField(child=serializers.CharField())
    scars_due = serializers.IntegerField()
    out_for_mission = serializers.IntegerField(allow_null=True)
    out_reason = serializers.CharField()
    deployment_notes = serializers.ListField(
        child=serializers.CharField(),
        help_text="what the battle does not apply itself, for the GM at deployment (R-ADD-234)",
    )
    xp = XPOutput(allow_null=True, help_text="under the xp_skills module (R-ADD-315)")
    bargains = BargainsOutput(
        allow_null=True, help_text="under the flesh_bargains module (R-ADD-317)"
    )


class BuildingOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    standing = serializers.BooleanField()
    phases_left = serializers.IntegerField()


class SlotsOutput(serializers.Serializer[Any]):
    used = serializers.IntegerField()
    total = serializers.IntegerField()


class RosterOutput(serializers.Serializer[Any]):
    active = serializers.IntegerField()
    cap = serializers.IntegerField()


class ItemOutput(serializers.Serializer[Any]):
    item = serializers.CharField()
    name = serializers.CharField()


class ActionOutput(serializers.Serializer[Any]):
    player = serializers.CharField()
    action = serializers.CharField()
    pilot = serializers.CharField()
    detail = serializers.CharField()


class PhaseOutput(serializers.Serializer[Any]):
    mission = serializers.CharField()
    mission_number = serializers.IntegerField(allow_null=True)
    steps_done = serializers.ListField(child=serializers.CharField())
    next_step = serializers.CharField(allow_null=True)
    closed = serializers.BooleanField()
    commitment = serializers.CharField(help_text="SHA-256 of the phase's dice secret")
    secret = serializers.CharField(allow_null=True, help_text="revealed when the phase closes")
    actions = ActionOutput(many=True)
    recruits = serializers.ListField(
        child=serializers.ListField(child=serializers.DictField(child=serializers.CharField())),
        help_text="recruits rolled on the pilot generation tables (R-ADD-252)",
    )


class RollOutput(serializers.Serializer[Any]):
    scope = serializers.CharField()
    index = serializers.IntegerField()
    table = serializers.CharField()
    table_version = serializers.CharField()
    die = serializers.IntegerField()
    faces = serializers.ListField(child=serializers.IntegerField())
    modifier = serializers.IntegerField()
    total = serializers.IntegerField()
    outcome = serializers.CharField()
    rolled = serializers.CharField()
    # A declared field named like Field.source: DRF's metaclass takes declared fields out of
    # the class namespace, which the stubs cannot see.
    source = serializers.CharField(  # type: ignore[assignment]
        help_text="sealed (the server's dice) or table (entered)"
    )
    purpose = serializers.CharField()
    pilot = serializers.CharField(allow_null=True)
    override_reason = serializers.CharField(allow_null=True)


class RelationshipOutput(serializers.Serializer[Any]):
    id = serializers.CharField()
    name = serializers.CharField()
    value = serializers.IntegerField(help_text="-3 (War) to +3 (Allied)")
    standing = serializers.CharField()
    effect = serializers.CharField()


class CasketEnergyOutput(serializers.Serializer[Any]):
    build = serializers.CharField()
    name = serializers.CharField()
    pilot = serializers.CharField()
    energy = serializers.IntegerField(help_text="0 to 100")
    band = serializers.CharField()
    effect = serializers.CharField()


class SettlementOutput(serializers.Serializer[Any]):
    version = serializers.CharField(help_text="the campaign ruleset version (R-ADD-230)")
    modules = serializers.ListField(child=serializers.CharField())
    credits = serializers.IntegerField(help_text="below 0 is debt (R-ADD-242)")
    credits_cap = serializers.IntegerField()
    scrap = serializers.IntegerField()
    population = serializers.IntegerField()
    morale = serializers.IntegerField()
    stability = serializers.IntegerField()
    instability = serializers.IntegerField()
    buildings = BuildingOutput(many=True)
    slots = SlotsOutput()
    roster = RosterOutput()
    storage = ItemOutput(many=True)
    pilots = SettlementPilotOutput(many=True)
    caskets = CasketEnergyOutput(
        many=True, allow_null=True, help_text="under the soulstone_energy module (R-ADD-322)"
    )
    relationships = RelationshipOutput(
        many=True, allow_null=True, help_text="under the faction_relationships module (R-ADD-320)"
    )
    phases = PhaseOutput(many=True)
    rolls = RollOutput(many=True)


class SettlementEventOutput(serializers.Serializer[Any]):
    type = serializers.CharField()
    # A field named like Serializer.data, taken out of the namespace by DRF (as above).
    data = serializers.DictField()  # type: ignore[assignment]


class SettlementStepOutput(serializers.Serializer[Any]):
    events = SettlementEventOutput(many=True)
    settlement = SettlementOutput()
    repeated = serializers.BooleanField(help_text="the command id had been recorded before")


class SettlementDiceCheckOutput(serializers.Serializer[Any]):
    status = serializers.CharField(help_text="verified or broken")
    problems = serializers.ListField(child=serializers.CharField())


class SettlementCommandInput(StrictSerializer):
    command = serializers.ChoiceField(choices=COMMANDS)
    mission = serializers.UUIDField(help_text="the completed mission the phase follows")
    command_id = serializers.CharField(max_length=100, required=False)
    faces = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        max_length=200,
        help_text="physical dice in the order the step rolls them; absent: sealed dice",
    )
    memorial = serializers.BooleanField(required=False, default=False)
    success = serializers.BooleanField(required=False, default=False)
    objectives = serializers.ListField(
        child=serializers.CharField(max_length=20), required=False, default=list
    )
    enemies = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=50), required=False, default=dict
    )
    override = serializers.DictField(
        child=serializers.CharField(max_length=500),
        required=False,
        help_text='{"entry": row id, "reason": why} replaces the row the dice gave',
    )
    scar_tables = serializers.DictField(
        child=serializers.CharField(max_length=40), required=False, default=dict
    )
    scar_choices = serializers.DictField(
        child=serializers.CharField(max_length=60), required=False, default=dict
    )
    player = serializers.CharField(max_length=150, required=False, default="")
    action = serializers.CharField(max_length=40, required=False, default="")
    pilot = serializers.CharField(max_length=60, required=False, default="")
    detail = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    name = serializers.CharField(max_length=120, required=False, default="")
    count = serializers.IntegerField(
        required=False, default=3, help_text="missions to offer: 2 or 3"
    )
    offer = serializers.CharField(max_length=20, required=False, default="", allow_blank=True)
    complex_trait = serializers.BooleanField(required=False, default=False)
    grit = serializers.IntegerField(required=False, default=-1)
    result = serializers.CharField(
        max_length=20, required=False, default="", help_text="xp: the mission's result"
    )
    bonuses = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list
    )
    choice = serializers.CharField(max_length=60, required=False, default="", allow_blank=True)
    bargain = serializers.CharField(
        max_length=60,
        required=False,
        default="",
        allow_blank=True,
        help_text="bargain: the Flesh Bargain taken; empty declines (R-ADD-317)",
    )
    faction = serializers.CharField(max_length=40, required=False, default="")
    build = serializers.CharField(
        max_length=60, required=False, default="", help_text="energy: the casket (build id)"
    )
    costs = serializers.ListField(
        child=serializers.CharField(max_length=40), required=False, default=list, max_length=20
    )
    overcharge = serializers.IntegerField(required=False, default=0)
    kind = serializers.CharField(
        max_length=20, required=False, default="", help_text="travel: departure or arrival"
    )
    cause = serializers.CharField(
        max_length=40, required=False, default="", help_text="relationship: why it moves"
    )
    reason = serializers.CharField(max_length=500, required=False, default="")
    item = serializers.CharField(
        max_length=80, required=False, default="", help_text="craft: the equipment item's id"
    )
    build = serializers.CharField(
        max_length=60, required=False, default="", help_text="rebuild: the destroyed casket"
    )


def _override(data: dict[str, Any]) -> tuple[str, str] | None:
    raw = data.get("override")
    if raw is None:
        return None
    if set(raw) != {"entry", "reason"}:
        raise InvalidInput("override", 'must be {"entry": row id, "reason": why}', "R-ADD-248")
    return (raw["entry"], raw["reason"])


def command_from(data: dict[str, Any]) -> between.BetweenCommand:
    """The between-missions command a validated request names."""
    mid = str(data["mission"])
    kind = data["command"]
    if kind == "open":
        return between.OpenPhase(mid, "0" * 64)
    if kind == "casualties":
        return between.ResolveCasualties(mid, memorial=data["memorial"])
    if kind == "rewards":
        return between.ResolveRewards(
            mid,
            success=data["success"],
            objectives=tuple(data["objectives"]),
            enemies=tuple(sorted(data["enemies"].items())),
        )
    if kind == "salvage":
        return between.RollSalvage(mid, override=_override(data))
    if kind == "pilots":
        return between.ResolvePilots(
            mid,
            scar_tables=tuple(sorted(data["scar_tables"].items())),
            scar_choices=tuple(sorted(data["scar_choices"].items())),
        )
    if kind == "income":
        return between.CollectIncome(mid)
    if kind == "event":
        return between.RollEvent(mid, override=_override(data))
    if kind == "action":
        return between.TakeAction(
            mid,
            player=data["player"],
            action=data["action"],
            pilot_id=data["pilot"],
            detail=data["detail"],
        )
    if kind == "finish_actions":
        return between.FinishActions(mid)
    if kind == "care":
        return between.PilotCare(mid)
    if kind == "recruit":
        return between.GeneratePilot(mid, complex_trait=data["complex_trait"])
    if kind == "offer":
        return between.OfferMissions(mid, count=data["count"])
    if kind == "select":
        return between.SelectMission(mid, name=data["name"], offer=data["offer"])
    if kind == "grit":
        return between.OverrideGrit(
            mid, pilot_id=data["pilot"], grit=data["grit"], reason=data["reason"]
        )
    if kind == "xp":
        return skills.AwardXP(
            mid,
            pilot_id=data["pilot"],
            result=data["result"],
            bonuses=tuple(data["bonuses"]),
            choice=data["choice"],
        )
    if kind == "travel":
        return travel.RollTravelEvent(mid, kind=data["kind"], override=_override(data))
    if kind == "energy":
        return soulstone.SpendEnergy(
            mid,
            build_id=data["build"],
            costs=tuple(data["costs"]),
            overcharge=data["overcharge"],
        )
    if kind == "relationship":
        return relationships.ChangeRelationship(mid, faction=data["faction"], cause=data["cause"])
    if kind == "bargain":
        return bargains.AnswerBargain(mid, pilot_id=data["pilot"], bargain=data["bargain"])
    if kind == "craft":
        return storage.CraftEquipment(mid, player=data["player"], item=data["item"])
    if kind == "rebuild":
        return storage.RebuildCasket(mid, player=data["player"], build_id=data["build"])
    return between.SidelinePilot(mid, pilot_id=data["pilot"], reason=data["reason"])


def _ledger_of(state: domain.CampaignState) -> dict[str, Any]:
    if state.settlement is None:
        raise NotFound(
            "this campaign plays the plt-1 campaign rules (R-PLT-1…5): it has no settlement "
            "(R-ADD-230)"
        )
    return settlement_view(state)


class SettlementView(CampaignsView):
    @endpoint.read(
        "campaigns_settlement",
        "The settlement between missions: ledger, pilots, phases, rolls",
        SettlementOutput,
        description=(
            "Folded from the campaign's events (pc-1 rules, R-ADD-230); a plt-1 "
            "campaign has none (404)."
        ),
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        state = self.state(request, campaign_id)
        return Response(SettlementOutput(_ledger_of(state)).data)


class SettlementCommandsView(CampaignsView):
    @extend_schema(
        operation_id="campaigns_settlement_command",
        summary="One step of a settlement phase, or a GM's Grit or sideline ruling (GM only)",
        description=(
            "Steps in the game's order, each once (R-ADD-249): open, casualties, rewards, "
            "salvage, pilots, income, event, action (two per player), finish_actions, care, "
            "select. While a phase is open, at any step: travel (departure or arrival event, "
            "R-ADD-324) and the optional modules' commands xp (R-ADD-315), bargain "
            "(R-ADD-317), relationship (R-ADD-320) and energy (R-ADD-322); a module the "
            "campaign does not play answers 422 `module_off`. At the actions step `craft` (a "
            "player, an item: the Forge, R-ADD-351) and `rebuild` (a player, a destroyed casket: "
            "the Workshop's retrofit, R-ADD-352) are settlement actions too. A face outside its "
            "die is 422 `roll_outside_die` (R-ADD-248)."
        ),
        request=SettlementCommandInput,
        responses={201: SettlementStepOutput, 200: SettlementStepOutput, **WRITE_ERRORS},
        examples=[
            request_example(
                "Salvage from physical dice",
                {
                    "command": "salvage",
                    "mission": "00000000-0000-0000-0000-000000000000",
                    "faces": [4, 3],
                },
            )
        ],
        tags=TAGS,
    )
    def post(self, request: Request, campaign_id: UUID) -> Response:
        campaign, data = self.gm_input(
            request, campaign_id, SettlementCommandInput, "plays the settlement phase"
        )
        self.mission_row(campaign, data["mission"])
        state, events, repeated = settlement_step(
            campaign=campaign,
            actor=signed_in(request.user),
            command=command_from(data),
            faces=data.get("faces"),
            command_id=data.get("command_id"),
        )
        body = {
            "events": [{"type": e.type, "data": _data(e)} for e in events],
            "settlement": _ledger_of(state),
            "repeated": repeated,
        }
        code = status.HTTP_200_OK if repeated else status.HTTP_201_CREATED
        return Response(SettlementStepOutput(body).data, status=code)


def _data(event: domain.Event) -> dict[str, Any]:
    return dict(CAMPAIGN_EVENTS.to_record(event)[2])


class SettlementDiceView(CampaignsView):
    @endpoint.read(
        "campaigns_settlement_dice",
        "Every sealed roll of the closed settlement phases derived again",
        SettlementDiceCheckOutput,
    )
    def get(self, request: Request, campaign_id: UUID) -> Response:
        campaign, _ = self.campaign(request, campaign_id)
        problems = settlement_dice_check(campaign=campaign)
        out = {"status": "broken" if problems else "verified", "problems": problems}
        return Response(SettlementDiceCheckOutput(out).data)
