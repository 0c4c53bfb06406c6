"""Reads of campaigns (HackSoft selectors): state, roles, pilot and build views, careers.

A campaign's state is its stream folded by `campaigns.domain.replay`; campaign
streams are short (tens of events per mission), so there are no snapshots.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
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
from .models import (
    Campaign,
    CampaignBoard,
    CampaignPlayer,
    CardVersion,
    CasketBuild,
    Mission,
    OutcomeOutbox,
    Pilot,
)

# Whoever asks: a signed-in user, or an anonymous one.
Someone = User | AnonymousUser


def campaign_stream(*, campaign: Campaign) -> StreamRef:
    return StreamRef(STREAM_TYPE, str(campaign.id))


def campaign_events(*, campaign: Campaign) -> list[RecordedEvent]:
    return read_stream(campaign_stream(campaign=campaign))


def campaign_state(*, campaign: Campaign) -> domain.CampaignState:
    """The campaign's stream folded: the truth every page and command starts from."""
    return _fold(campaign_events(campaign=campaign))


def campaign_events_and_state(
    *, campaign: Campaign
) -> tuple[list[RecordedEvent], domain.CampaignState]:
    """The campaign's events and their fold, from one read (pages show both)."""
    events = campaign_events(campaign=campaign)
    return events, _fold(events)


def _fold(events: list[RecordedEvent]) -> domain.CampaignState:
    state = CAMPAIGN_EVENTS.fold(domain.evolve, events)
    if state is None:
        raise RuntimeError("a campaign stream starts with CampaignCreated; this one is empty")
    return state


def campaign_role(*, campaign: Campaign, user: Someone) -> str | None:
    """`gm`, `player` or None (not part of this campaign)."""
    if not user.is_authenticated:
        return None
    if campaign.gm_id == user.pk:
        return "gm"
    if CampaignPlayer.objects.filter(campaign=campaign, user_id=user.pk).exists():
        return "player"
    return None


def campaign_list_for(*, user: Someone) -> QuerySet[Campaign]:
    """The campaigns a user runs or plays."""
    if not user.is_authenticated:
        return Campaign.objects.none()
    return Campaign.objects.filter(Q(gm_id=user.pk) | Q(players__user_id=user.pk)).distinct()


def campaign_get_for(
    *, campaign_id: uuid.UUID, user: Someone
) -> tuple[Campaign, str | None] | None:
    """The campaign and the user's role in it; None where the user may not know it exists
    (a private campaign they are not part of answers 404, a public one 403)."""
    campaign = Campaign.objects.filter(id=campaign_id).first()
    if campaign is None:
        return None
    role = campaign_role(campaign=campaign, user=user)
    if role is None and campaign.private:
        return None
    return campaign, role


# --- career history ------------------------------------------------------------------------------

# The battle events that concern one seat, and the payload fields that name it.
CAREER_BATTLE_EVENTS: dict[str, tuple[str, ...]] = {
    "AttackDeclared": ("attacker", "target"),
    "AttackEnded": ("attacker",),
    "DamageTaken": ("seat",),
    "ComponentDestroyed": ("seat",),
    "WoundFlipped": ("seat",),
    "GritChecked": ("seat",),  # under the ruleset option grit_checks (R-ADD-305)
    "WoundEased": ("seat",),
    "SurvivalRolled": ("seat",),
    "PilotKilled": ("seat",),
    "CasketDefeated": ("seat",),
    "CasketWithdrew": ("seat",),
}
# The campaign events that concern one pilot (by `pilot_id`).
CAREER_CAMPAIGN_EVENTS = frozenset(
    {
        "PilotEnlisted",
        "PilotWounded",
        "PilotDied",
        "PilotWithdrew",
        "TaintChanged",
        "TokensCarried",
        "GritGained",
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


def pilot_career(*, campaign: Campaign, pilot_id: str) -> dict[str, Any] | None:
    """Every event that concerned a pilot across the campaign, in store order, with totals.

    The campaign stream gives enlistment, wounds kept, Taint, death; each mission battle
    the pilot sat in gives the attacks they made and took, the damage and wounds. Battle
    events are read with one query over those battles' streams, filtered by type. None
    when the campaign has no such pilot.
    """
    events = campaign_events(campaign=campaign)  # read once: folded and searched
    state = _fold(events)
    if pilot_id not in state.pilots:
        return None
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
        "pilot": state.pilots[pilot_id],
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


def mission_in(*, campaign: Campaign, mission_id: uuid.UUID) -> Mission | None:
    """The mission's row, if it belongs to the campaign (the rows follow the stream)."""
    return (
        Mission.objects.select_related("campaign").filter(id=mission_id, campaign=campaign).first()
    )


def pilot_exists(*, campaign: Campaign, pilot_id: uuid.UUID) -> bool:
    return Pilot.objects.filter(id=pilot_id, campaign=campaign).exists()


def build_in(*, campaign: Campaign, build_id: uuid.UUID) -> CasketBuild | None:
    return (
        CasketBuild.objects.select_related("player").filter(id=build_id, campaign=campaign).first()
    )


def deck_card_versions(
    *, deck: Iterable[tuple[str, int, int]]
) -> dict[tuple[str, int], CardVersion]:
    """The catalogue's card versions a deck's (card, version, count) rows name, by (card,
    version); a version no longer in the catalogue is left out."""
    rows = list(deck)
    found = CardVersion.objects.filter(card_id__in={card for card, _, _ in rows})
    return {(cv.card_id, cv.version): cv for cv in found}


def mission_of_battle(*, battle_id: uuid.UUID) -> Mission | None:
    return Mission.objects.select_related("campaign").filter(battle_id=battle_id).first()


# --- pages (issue 14) ----------------------------------------------------------------------------


def outcomes_pending_for(*, campaign: Campaign) -> QuerySet[OutcomeOutbox]:
    """The campaign's battles that ended and whose outcome the campaign has not taken in yet
    (the outbox, R-PLT-5), oldest first."""
    return (
        OutcomeOutbox.objects.select_related("mission")
        .filter(mission__campaign=campaign, applied_at__isnull=True)
        .order_by("created_at")
    )


def build_versions_diff(
    *, old: domain.BuildVersionState, new: domain.BuildVersionState
) -> dict[str, Any]:
    """What changed from one build version to another: the build's own fields, and per card
    its count and pinned card version (a row of 0 is a card added or removed)."""
    fields = [
        {"field": name, "old": getattr(old, name), "new": getattr(new, name)}
        for name in ("name", "casket_class", "shield", "faction", "equipment")
        if getattr(old, name) != getattr(new, name)
    ]
    before = {card: (version, count) for card, version, count in old.deck}
    after = {card: (version, count) for card, version, count in new.deck}
    cards = []
    for card in sorted(before.keys() | after.keys()):
        (v_old, n_old), (v_new, n_new) = before.get(card, (None, 0)), after.get(card, (None, 0))
        if (v_old, n_old) != (v_new, n_new):
            change = "added" if not n_old else "removed" if not n_new else "changed"
            cards.append(
                {
                    "card": card,
                    "change": change,
                    "old_count": n_old,
                    "new_count": n_new,
                    "old_version": v_old,
                    "new_version": v_new,
                }
            )
    return {
        "fields": fields,
        "cards": cards,
        "old_total": sum(n for _, _, n in old.deck),
        "new_total": sum(n for _, _, n in new.deck),
    }


# --- the board library ---------------------------------------------------------------------------

BOARDS_DIR = Path(__file__).resolve().parent / "boards"


@dataclass(frozen=True, slots=True)
class LibraryBoard:
    """A board the project ships: its FORMATS.md board document, and deployment suggestions
    for the mission wizard as (q, r, facing) per seat (R-BRD-1, R-BRD-2)."""

    slug: str
    name: str
    description: str
    document: dict[str, Any]
    deploy: tuple[tuple[int, int, int], ...]


def board_library() -> list[LibraryBoard]:
    """The shipped boards (campaigns/boards/library.json), read fresh: each document is the
    caller's own."""
    index = json.loads((BOARDS_DIR / "library.json").read_text(encoding="utf-8"))
    boards = []
    for entry in index["boards"]:
        document = json.loads((BOARDS_DIR / entry["file"]).read_text(encoding="utf-8"))
        boards.append(
            LibraryBoard(
                entry["slug"],
                document["name"],
                entry["description"],
                document,
                tuple((q, r, f) for q, r, f in entry["deploy"]),
            )
        )
    return boards


def campaign_boards(*, campaign: Campaign) -> QuerySet[CampaignBoard]:
    """The boards the campaign's GM drew (the board editor), by name."""
    return CampaignBoard.objects.filter(campaign=campaign).order_by("name", "created_at")


def campaign_board_in(*, campaign: Campaign, board_id: uuid.UUID) -> CampaignBoard | None:
    return CampaignBoard.objects.filter(campaign=campaign, pk=board_id).first()


def board_library_for(*, campaign: Campaign) -> list[LibraryBoard]:
    """The boards the mission wizard offers this campaign: the shipped library, then the
    boards its GM drew (slug `drawn-<id>`; no deployment suggestions)."""
    drawn = [
        LibraryBoard(
            f"drawn-{b.id}",
            b.name,
            f"Drawn in this campaign's board editor: {len(b.document.get('hexes', []))} hexes "
            "painted.",
            b.document,
            (),
        )
        for b in campaign_boards(campaign=campaign)
    ]
    return [*board_library(), *drawn]
