"""Reads of campaigns (HackSoft selectors): state, roles, pilot and build views, careers.

A campaign's state is its stream folded by `campaigns.domain.replay`; campaign
streams are short (tens of events per mission), so there are no snapshots.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet

from battles.selectors import battles_events_of_types
from penance_site.eventstore.store import (
    RecordedEvent,
    StreamRef,
    format_timestamp,
    read_stream,
)

from . import domain
from .codec import CAMPAIGN_EVENTS, STREAM_TYPE
from .models import Campaign, CampaignPlayer, Mission

User = AbstractBaseUser | AnonymousUser


def campaign_stream(*, campaign: Campaign) -> StreamRef:
    return StreamRef(STREAM_TYPE, str(campaign.id))


def campaign_events(*, campaign: Campaign) -> list[RecordedEvent]:
    return read_stream(campaign_stream(campaign=campaign))


def campaign_state(*, campaign: Campaign) -> domain.CampaignState:
    """The campaign's stream folded: the truth every page and command starts from."""
    return _fold(campaign_events(campaign=campaign))


def _fold(events: list[RecordedEvent]) -> domain.CampaignState:
    state = CAMPAIGN_EVENTS.fold(domain.evolve, events)
    if state is None:
        raise RuntimeError("a campaign stream starts with CampaignCreated; this one is empty")
    return state


def campaign_role(*, campaign: Campaign, user: User) -> str | None:
    """`gm`, `player` or None (not part of this campaign)."""
    if not user.is_authenticated:
        return None
    if campaign.gm_id == user.pk:
        return "gm"
    if CampaignPlayer.objects.filter(campaign=campaign, user_id=user.pk).exists():
        return "player"
    return None


def campaign_list_for(*, user: User) -> QuerySet[Campaign]:
    """The campaigns a user runs or plays."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(gm_id=user.pk) | Q(players__user_id=user.pk)).distinct()


def campaign_get_for(*, campaign_id: uuid.UUID, user: User) -> tuple[Campaign, str | None] | None:
    """The campaign and the user's role in it; None where the user may not know it exists
    (a private campaign they are not part of answers 404, a public one 403)."""
    campaign = Campaign.objects.filter(id=campaign_id).first()
    if campaign is None:
        return None
    role = campaign_role(campaign=campaign, user=user)
    if role is None and campaign.private:
        return None
    return campaign, role


# --- views of the state --------------------------------------------------------------------------


def pilot_view(pilot: domain.PilotState) -> dict[str, Any]:
    """A pilot as the API shows it: a projection of the campaign stream."""
    return {
        "id": pilot.id,
        "player": pilot.player,
        "name": pilot.name,
        "faction": pilot.faction,
        "status": pilot.status,
        "taint": pilot.taint,
        "taint_overload": pilot.taint >= domain.TAINT_OVERLOAD,
        "taint_purging": pilot.taint >= domain.TAINT_PURGING,
        "sp_modifier": pilot.sp_modifier,
        "wounds": [
            {
                "wound": w.wound,
                "kind": w.kind,
                "mission": w.mission_id,
                "battle": w.battle_id,
            }
            for w in pilot.wounds
        ],
        "carried_wounds": list(pilot.carried_wounds),
        "scars": list(pilot.scars),
        "missions": list(pilot.missions),
    }


def build_view(build: domain.BuildState) -> dict[str, Any]:
    return {
        "id": build.id,
        "player": build.player,
        "name": build.current.name,
        "current_version": build.current.version,
        "component_damage": domain.components_dict(build.component_damage),
        "versions": [build_version_view(v) for v in build.versions],
    }


def build_version_view(version: domain.BuildVersionState) -> dict[str, Any]:
    return {
        "version": version.version,
        "name": version.name,
        "casket_class": version.casket_class,
        "shield": version.shield,
        "faction": version.faction,
        "deck": [{"card": c, "version": v, "count": n} for c, v, n in version.deck],
        "equipment": list(version.equipment),
    }


def mission_view(mission: domain.MissionState) -> dict[str, Any]:
    return {
        "id": mission.id,
        "number": mission.number,
        "name": mission.name,
        "status": mission.status,
        "battle": mission.battle_id or None,
        "winner": mission.winner or None,
        "deployments": [
            {"seat": seat, "pilot": pilot, "build": build, "build_version": version}
            for seat, pilot, build, version in mission.deployments
        ],
    }


def campaign_view(campaign: Campaign, state: domain.CampaignState) -> dict[str, Any]:
    return {
        "id": str(campaign.id),
        "name": state.name,
        "gm": state.gm,
        "private": state.private,
        "rules": dict(state.rules),
        "players": list(state.players),
        "version": state.version,
        "missions": [mission_view(m) for m in state.missions],
        "pilots": [pilot_view(p) for p in state.pilots.values()],
        "builds": [build_view(b) for b in state.builds.values()],
    }


# --- career history ------------------------------------------------------------------------------

# The battle events that concern one seat, and the payload fields that name it.
CAREER_BATTLE_EVENTS: dict[str, tuple[str, ...]] = {
    "AttackDeclared": ("attacker", "target"),
    "AttackEnded": ("attacker",),
    "DamageTaken": ("seat",),
    "ComponentDestroyed": ("seat",),
    "WoundFlipped": ("seat",),
    "SurvivalRolled": ("seat",),
    "PilotKilled": ("seat",),
    "CasketDefeated": ("seat",),
}
# The campaign events that concern one pilot (by `pilot_id`).
CAREER_CAMPAIGN_EVENTS = frozenset(
    {
        "PilotEnlisted",
        "PilotWounded",
        "PilotDied",
        "TaintChanged",
        "TraumaTreated",
        "ScarGained",
        "PilotRetired",
        "GMAdjusted",
    }
)


@dataclass(frozen=True, slots=True)
class CareerEntry:
    source: str  # "campaign" or "battle"
    mission: str | None
    battle: str | None
    seat: int | None
    role: str | None  # for attacks: "attacker" or "target"
    event: RecordedEvent

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "mission": self.mission,
            "battle": self.battle,
            "seat": self.seat,
            "role": self.role,
            "position": self.event.position,
            "version": self.event.version,
            "type": self.event.type,
            "payload": self.event.payload,
            "recorded_at": format_timestamp(self.event.recorded_at),
        }


def pilot_career(*, campaign: Campaign, pilot_id: str) -> dict[str, Any]:
    """Every event that concerned a pilot across the campaign, in store order, with totals.

    The campaign stream gives enlistment, wounds kept, Taint, death; each mission battle
    the pilot sat in gives the attacks they made and took, the damage and wounds. Battle
    events are read with one query over those battles' streams, filtered by type.
    """
    events = campaign_events(campaign=campaign)  # read once: folded and searched
    state = _fold(events)
    state.pilot(pilot_id)  # RuleViolation unknown_pilot
    entries: list[CareerEntry] = []
    for e in events:
        if e.type in CAREER_CAMPAIGN_EVENTS and e.payload.get("pilot_id") == pilot_id:
            mission = e.payload.get("mission_id") or None
            battle = e.payload.get("battle_id") or None
            entries.append(CareerEntry("campaign", mission, battle, None, None, e))
    seats = {
        m.battle_id: (m.id, seat)
        for m in state.missions
        for seat, pid, _, _ in m.deployments
        if pid == pilot_id and m.battle_id
    }
    entries.extend(_battle_entries(seats))
    entries.sort(key=lambda c: c.event.position)
    totals = {
        "missions": len(seats),
        "attacks_made": sum(
            1 for c in entries if c.event.type == "AttackDeclared" and c.role == "attacker"
        ),
        "attacks_taken": sum(
            1 for c in entries if c.event.type == "AttackDeclared" and c.role == "target"
        ),
        "damage_taken": sum(
            len(c.event.payload["from_hand"]) + len(c.event.payload["from_deck"])
            for c in entries
            if c.event.type == "DamageTaken"
        ),
        "wounds_flipped": sum(1 for c in entries if c.event.type == "WoundFlipped"),
        "wounds_kept": sum(1 for c in entries if c.event.type == "PilotWounded"),
        "taint": state.pilots[pilot_id].taint,
    }
    return {
        "pilot": pilot_view(state.pilots[pilot_id]),
        "totals": totals,
        "events": [c.as_dict() for c in entries],
    }


def _battle_entries(seats: dict[str, tuple[str, int]]) -> list[CareerEntry]:
    if not seats:
        return []
    out: list[CareerEntry] = []
    for e in battles_events_of_types(battle_ids=seats, types=CAREER_BATTLE_EVENTS):
        mission, seat = seats[e.stream.id]
        for name in CAREER_BATTLE_EVENTS[e.type]:
            if e.payload.get(name) == seat:
                role = name if e.type.startswith("Attack") else None
                out.append(CareerEntry("battle", mission, e.stream.id, seat, role, e))
                break
    return out


def mission_of_battle(*, battle_id: uuid.UUID) -> Mission | None:
    return Mission.objects.select_related("campaign").filter(battle_id=battle_id).first()
