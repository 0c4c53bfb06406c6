"""Writes of campaigns (HackSoft services): every change is a command on the campaign's stream.

Each service locks the Campaign row (so commands on one campaign run one at a time),
folds the stream, lets `campaigns.domain.decide` refuse or answer with events,
appends them, and brings the read-model rows in step in the same transaction.

Battle to campaign (R-PLT-5, docs/CAMPAIGNS.md): when a mission's battle ends, the
battle's final transaction writes an OutcomeOutbox row and, on commit, sends the
`campaigns.apply_battle_outcome` task. The task applies the outcome with the command
id `outcome-<battle id>`, which the event store takes only once; a sweep re-sends
rows still pending (Redis down at the end of the battle, a lost worker).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import F, Model
from django.utils import timezone

from battles.engine.battle import BattleOutcome
from battles.engine.battle.state import SP_MAXIMUM
from battles.engine.board import parse_board
from battles.engine.carddata.carddb import FACTIONS
from battles.engine.carddata.decks import DeckProblem
from battles.engine.errors import InvalidInput, RuleViolation
from battles.engine.ruleset import parse_ruleset
from battles.selectors import (
    battle_outcome_of,
    battle_stream_ended,
    users_by_username,
)
from battles.services import battle_create, battle_setup_check, battle_watcher_add
from penance_site.celery import app as celery_app
from penance_site.eventstore.store import RecordedEvent, StreamRef, append

from . import domain
from .between.decide import battle_grit
from .between.ledger import CampaignRulesPinned
from .between.rulebook import LEGACY, parse_campaign_rules
from .between.scar_effects import battle_scar_effects
from .between.storage import equipment_moves
from .catalogue import (
    card_version_def,
    casket_problems,
    construction_available,
    deck_problems,
    item_names,
)
from .codec import CAMPAIGN_EVENTS
from .models import (
    BuildVersion,
    Campaign,
    CampaignBoard,
    CampaignPlayer,
    CardVersion,
    CasketBuild,
    DeckEntry,
    Deployment,
    Mission,
    OutcomeOutbox,
    Pilot,
)
from .selectors import campaign_role, campaign_state, campaign_stream

logger = logging.getLogger(__name__)

MAX_TEXT = 120


class DeckRejected(InvalidInput):
    """A deck that breaks the construction rules: one problem per violation (R-ADD-15)."""

    def __init__(self, problems: Sequence[DeckProblem]) -> None:
        first = problems[0]
        super().__init__(deck_field(first), first.message, first.rule)
        self.extra_errors = [
            {"field": deck_field(p), "message": p.message, "rule": p.rule, "code": p.code}
            for p in problems
        ]


# The build's field each loadout problem of R-ADD-52 is about (battles/engine/decks.py).
_LOADOUT_FIELDS = {
    "unknown_faction": "faction",
    "unknown_class": "casket_class",
    "unknown_item": "equipment",
    "item_not_for_faction": "equipment",
    "item_cards_not_loaded": "equipment",
    "slots_exceeded": "equipment",
}


def deck_field(problem: DeckProblem) -> str:
    """The build field a deck problem is about: `deck[i]` for a row, the loadout's field for
    an R-ADD-52 loadout problem, else `deck`."""
    if problem.index is not None:
        return f"deck[{problem.index}]"
    return _LOADOUT_FIELDS.get(problem.code, "deck")


def _text(value: object, field: str, max_len: int = MAX_TEXT, *, blank: bool = False) -> str:
    if not isinstance(value, str) or len(value) > max_len or (not blank and not value.strip()):
        size = f"0 to {max_len}" if blank else f"1 to {max_len}"
        raise InvalidInput(field, f"must be a string of {size} characters")
    return value.strip()


# --- running a command ----------------------------------------------------------------------------


def _locked(campaign: Campaign) -> Campaign:
    return Campaign.objects.select_for_update().get(pk=campaign.pk)


def _role(campaign: Campaign, actor: User) -> str:
    role = campaign_role(campaign=campaign, user=actor)
    if role is None:
        raise PermissionDenied("you are not part of this campaign")
    return role


def _execute(
    campaign: Campaign,
    actor: User | None,
    command: domain.Command,
    *,
    actor_is_gm: bool,
    command_id: str | None = None,
    state: domain.CampaignState | None = None,
) -> tuple[domain.CampaignState, list[domain.Event], bool]:
    """Decide and record one command on `state` (read from the stream when not given: the
    caller holds the campaign lock, so a state it read is still the head)."""
    if state is None:
        state = campaign_state(campaign=campaign)
    events = domain.decide(state, command, actor_is_gm=actor_is_gm)
    return _record(campaign, actor, state, command, events, command_id)


def _record(
    campaign: Campaign,
    actor: User | None,
    state: domain.CampaignState,
    command: domain.Command,
    events: list[domain.Event],
    command_id: str | None = None,
) -> tuple[domain.CampaignState, list[domain.Event], bool]:
    """Append a command's decided events and update the read models; returns the new
    state, its events and whether the command id had been recorded before (then nothing
    new was written)."""
    if not events:
        return state, [], False
    result = append(
        stream=campaign_stream(campaign=campaign),
        expected_version=state.version,
        events=CAMPAIGN_EVENTS.encode_all(events),
        command_id=command_id or f"campaign-{uuid.uuid4().hex}",
        metadata={
            "actor": actor.get_username() if actor is not None else "system",
            "adjustment": command.ADJUSTMENT,
        },
    )
    if result.duplicate:
        return state, [], True
    new_state = domain.replay(events, state)
    _project(campaign, new_state, events)
    return new_state, events, False


def _project(
    campaign: Campaign, state: domain.CampaignState, events: Sequence[domain.Event]
) -> None:
    """Bring the read-model rows in step with the events just recorded."""
    users = users_by_username(usernames=state.players)
    pilots: set[str] = set()
    for e in events:
        if isinstance(e, domain.PlayerJoined):
            CampaignPlayer.objects.create(campaign=campaign, user=users[e.player])
        elif isinstance(e, domain.MissionPlanned):
            Mission.objects.create(
                id=uuid.UUID(e.mission_id), campaign=campaign, number=e.number, name=e.name
            )
        elif isinstance(e, domain.PilotEnlisted):
            Pilot.objects.create(
                id=uuid.UUID(e.pilot_id),
                campaign=campaign,
                player=users[e.player],
                name=e.name,
                faction=e.faction,
            )
        elif isinstance(e, domain.BuildRevised):
            _project_build(campaign, e, users[e.player])
        elif isinstance(e, domain.MissionStarted):
            Mission.objects.filter(id=e.mission_id).update(
                status=Mission.Status.IN_PROGRESS, battle_id=uuid.UUID(e.battle_id)
            )
            Deployment.objects.bulk_create(
                Deployment(
                    mission_id=uuid.UUID(e.mission_id),
                    seat=seat,
                    pilot_id=uuid.UUID(pilot),
                    build_version=BuildVersion.objects.get(
                        build_id=uuid.UUID(build), version=version
                    ),
                )
                for seat, pilot, build, version in e.deployments
            )
        elif isinstance(e, domain.MissionCompleted):
            Mission.objects.filter(id=e.mission_id).update(
                status=Mission.Status.COMPLETED, winner=e.winner
            )
        pilot_id = getattr(e, "pilot_id", None)
        if pilot_id:
            pilots.add(pilot_id)
    for pilot_id in pilots:
        p = state.pilots[pilot_id]
        Pilot.objects.filter(id=pilot_id).update(
            name=p.name,
            faction=p.faction,
            status=p.status,
            taint=p.taint,
            permanent_wounds=sum(1 for w in p.wounds if w.kind == "severe"),
            trauma=sum(1 for w in p.wounds if w.kind == "trauma"),
        )
    campaign.version = state.version
    campaign.save(update_fields=["version"])


def _project_build(campaign: Campaign, e: domain.BuildRevised, player: User) -> None:
    build, _ = CasketBuild.objects.update_or_create(
        id=uuid.UUID(e.build_id),
        defaults={
            "campaign": campaign,
            "player": player,
            "name": e.name,
            "current_version": e.version,
        },
    )
    version = BuildVersion.objects.create(
        build=build,
        version=e.version,
        casket_class=e.casket_class,
        shield=e.shield,
        faction=e.faction,
        equipment=list(e.equipment),
    )
    DeckEntry.objects.bulk_create(
        DeckEntry(
            build_version=version,
            position=i,
            card_version=CardVersion.objects.get(card_id=card, version=card_version),
            count=count,
        )
        for i, (card, card_version, count) in enumerate(e.deck)
    )


def campaign_rows_check(*, campaign: Campaign) -> list[str]:
    """Where the read-model rows differ from the stream's fold; empty when in step."""
    campaign = Campaign.objects.get(pk=campaign.pk)
    state = campaign_state(campaign=campaign)
    problems: list[str] = []
    if campaign.version != state.version:
        problems.append(f"campaign version {campaign.version} != {state.version}")
    players = set(
        CampaignPlayer.objects.filter(campaign=campaign).values_list("user__username", flat=True)
    )
    if players != set(state.players):
        problems.append(f"players {sorted(players)} != {sorted(state.players)}")
    for p in state.pilots.values():
        row = Pilot.objects.filter(id=p.id).first()
        expected = (p.status, p.taint, sum(1 for w in p.wounds if w.kind == "severe"))
        if row is None or (row.status, row.taint, row.permanent_wounds) != expected:
            problems.append(f"pilot {p.id} row does not match {expected}")
    for m in state.missions:
        mission = Mission.objects.filter(id=m.id).first()
        if mission is None or (mission.status, str(mission.battle_id or "")) != (
            m.status,
            m.battle_id,
        ):
            problems.append(f"mission {m.id} row does not match ({m.status}, {m.battle_id})")
    for b in state.builds.values():
        versions = BuildVersion.objects.filter(build_id=uuid.UUID(b.id)).count()
        if versions != len(b.versions):
            problems.append(f"build {b.id} has {versions} version rows, not {len(b.versions)}")
    return problems


# --- campaigns, players, missions, pilots ---------------------------------------------------------


@transaction.atomic
def campaign_create(
    *,
    gm: User,
    name: str,
    private: bool = True,
    rules: object = None,
    campaign_rules: object = None,
) -> Campaign:
    """A new campaign run by `gm`, with its ruleset fixed for every mission (R-PLT-5) and
    its campaign ruleset between missions pinned (`campaign_rules`, R-ADD-230: pc-1
    unless it names plt-1)."""
    name = _text(name, "name")
    if not isinstance(private, bool):
        raise InvalidInput("private", "must be true or false")
    ruleset = parse_ruleset(rules, "rules")
    version, modules = parse_campaign_rules(campaign_rules)
    if version == LEGACY and ruleset.option("grit_checks"):
        # plt-1 keeps no Grit: its battles would check every pilot at Grit 0 (R-ADD-305).
        raise InvalidInput(
            "rules.options.grit_checks",
            "the Grit check needs the pc-1 campaign ruleset, which keeps each pilot's Grit",
            "R-ADD-305",
        )
    campaign = Campaign.objects.create(name=name, gm=gm, private=private)
    events: list[domain.Event] = [
        domain.CampaignCreated(
            str(campaign.id), name, gm.get_username(), private, ruleset.as_dict()
        ),
    ]
    if version != LEGACY:  # a stream without a pin plays plt-1, as every older one does
        events.append(CampaignRulesPinned(version, modules))
    append(
        stream=campaign_stream(campaign=campaign),
        expected_version=0,
        events=CAMPAIGN_EVENTS.encode_all(events),
        command_id=f"create-campaign-{campaign.id}",
        metadata={"actor": gm.get_username(), "adjustment": False},
    )
    campaign.version = len(events)
    campaign.save(update_fields=["version"])
    return campaign


def _gm_command(campaign: Campaign, actor: User, command: domain.Command) -> domain.CampaignState:
    campaign = _locked(campaign)
    if _role(campaign, actor) != "gm":
        raise PermissionDenied("only the campaign's GM may do this")
    state, _, _ = _execute(campaign, actor, command, actor_is_gm=True)
    return state


@transaction.atomic
def campaign_player_add(*, campaign: Campaign, actor: User, username: str) -> domain.CampaignState:
    """Add a player (an existing user) to the campaign. GM only. Returns the campaign's
    state after it."""
    if not users_by_username(usernames=[username]):
        raise InvalidInput("username", f"no user is called {username!r}")
    return _gm_command(campaign, actor, domain.AddPlayer(username))


@transaction.atomic
def mission_plan(*, campaign: Campaign, actor: User, name: str) -> Mission:
    """The next mission of the campaign (missions are numbered in the order planned)."""
    mission_id = uuid.uuid4()
    _gm_command(campaign, actor, domain.PlanMission(str(mission_id), _text(name, "name")))
    return Mission.objects.get(id=mission_id)


@transaction.atomic
def pilot_enlist(
    *,
    campaign: Campaign,
    actor: User,
    player: str,
    name: str,
    faction: str = "",
    sp_modifier: int = 0,
) -> Pilot:
    """A new pilot for one of the campaign's players. GM only."""
    if isinstance(sp_modifier, bool) or not isinstance(sp_modifier, int):
        raise InvalidInput("sp_modifier", "must be an integer from -3 to 3", "R-TRN-3")
    pilot_id = uuid.uuid4()
    command = domain.EnlistPilot(
        str(pilot_id),
        player,
        _text(name, "name"),
        _text(faction, "faction", 60, blank=True),
        sp_modifier,
    )
    _gm_command(campaign, actor, command)
    return Pilot.objects.get(id=pilot_id)


# --- builds ---------------------------------------------------------------------------------------


def _deck_rows(deck: object) -> list[tuple[CardVersion, int]]:
    """The deck rows [{card, version?, count}] as card versions; a missing version means the
    card's current one."""
    if not isinstance(deck, list) or not deck:
        raise InvalidInput(
            "deck", 'must be a non-empty list of {"card": id, "count": n}', "R-TRN-1"
        )
    rows: list[tuple[CardVersion, int]] = []
    for i, row in enumerate(deck):
        if not isinstance(row, Mapping) or set(row) - {"card", "version", "count"}:
            raise InvalidInput(f"deck[{i}]", 'must be {"card": id, "version": n, "count": n}')
        card, version, count = row.get("card"), row.get("version"), row.get("count")
        if not isinstance(card, str):
            raise InvalidInput(f"deck[{i}].card", "must be a card id")
        if version is not None and (isinstance(version, bool) or not isinstance(version, int)):
            raise InvalidInput(f"deck[{i}].version", "must be a card version number")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 30:
            raise InvalidInput(f"deck[{i}].count", "must be an integer from 1 to 30", "R-TRN-1")
        qs = CardVersion.objects.select_related("card").filter(card_id=card)
        found = (
            qs.filter(version=version).first()
            if version is not None
            else qs.filter(version=F("card__current_version")).first()
        )
        if found is None:
            what = f"card {card!r}" + (f" version {version}" if version is not None else "")
            raise InvalidInput(f"deck[{i}].card", f"{what} is not in the card catalogue")
        rows.append((found, count))
    return rows


@transaction.atomic
def build_revise(
    *,
    campaign: Campaign,
    actor: User,
    build_id: str | None,
    name: str,
    casket_class: str,
    shield: str,
    faction: str = "",
    deck: object,
    equipment: object = (),
    player: str | None = None,
    pilot: str | None = None,
) -> tuple[CasketBuild, int]:
    """Create a build (`build_id` None) or write its next version. A player creates and
    revises their own builds; the GM any player's. The deck must be legal: every violation
    is reported (DeckRejected).

    With the card database's construction data in the catalogue the build is a casket
    made from equipment (R-ADD-220): `equipment` holds item ids, and the deck is checked
    by R-ADD-52 for its class, faction and items; otherwise by R-ADD-15/R-ADD-29. `pilot`
    (a pilot id of the owner) ties the build to its pilot; a revision keeps the pilot."""
    campaign = _locked(campaign)
    role = _role(campaign, actor)
    state = campaign_state(campaign=campaign)
    if build_id is not None:
        owner = state.build(build_id).player
    else:
        owner = player if role == "gm" and player else actor.get_username()
    if role != "gm" and owner != actor.get_username():
        raise PermissionDenied("players revise only their own builds")
    if not isinstance(equipment, list | tuple) or not all(
        isinstance(x, str) and 0 < len(x) <= MAX_TEXT for x in equipment
    ):
        raise InvalidInput("equipment", "must be a list of equipment names")
    if pilot is not None and not isinstance(pilot, str):
        raise InvalidInput("pilot", "must be a pilot id")
    if not isinstance(casket_class, str):
        raise InvalidInput("casket_class", f"must be one of {', '.join(SP_MAXIMUM)}", "R-TRN-3")
    faction = _text(faction, "faction", 60, blank=True)
    rows = _deck_rows(deck)
    ruleset = parse_ruleset(state.rules, "rules")
    construction = ""
    if construction_available():
        construction = domain.CONSTRUCTION_BY_EQUIPMENT
        problems = casket_problems(
            faction=faction,
            casket_class=casket_class,
            items=tuple(equipment),
            rows=rows,
            ruleset=ruleset,
        )
    else:
        problems = deck_problems(rows, ruleset)
    if problems:
        raise DeckRejected(problems)
    new_id = build_id or str(uuid.uuid4())
    command = domain.ReviseBuild(
        new_id,
        owner,
        _text(name, "name"),
        casket_class,
        shield,
        faction,
        tuple((cv.card_id, cv.version, n) for cv, n in rows),
        tuple(equipment),
        construction,
        pilot or "",
    )
    events = domain.decide(state, command, actor_is_gm=role == "gm")
    # R-ADD-350: under pc-1 the items come out of storage and the ones dropped go back.
    carried = state.builds[new_id].current.equipment if new_id in state.builds else ()
    wanted = {*command.equipment, *carried}
    events += equipment_moves(state, command, item_names(wanted))
    new_state, _, _ = _record(campaign, actor, state, command, events)
    build = CasketBuild.objects.get(id=new_id)
    return build, new_state.builds[new_id].current.version


# --- missions and their battles -------------------------------------------------------------------


def _seat_rows(seats: object) -> list[Mapping[str, Any]]:
    if not isinstance(seats, list) or not 2 <= len(seats) <= 8:
        raise InvalidInput("seats", "a battle needs 2 to 8 seats", "R-TRN-1")
    for i, seat in enumerate(seats):
        if not isinstance(seat, Mapping):
            raise InvalidInput(f"seats[{i}]", "must be an object")
        allowed = {"pilot", "build", "build_version", "side", "at", "facing", "bot"}
        unknown = set(seat) - allowed
        if unknown:
            raise InvalidInput(
                f"seats[{i}].{sorted(unknown)[0]}",
                f"unknown field; allowed: {', '.join(sorted(allowed))}",
            )
        for key in ("pilot", "build"):
            if not isinstance(seat.get(key), str):
                raise InvalidInput(f"seats[{i}].{key}", f"is required: the {key}'s id")
    return seats


def _battle_cards(
    state: domain.CampaignState, chosen: Sequence[tuple[domain.BuildState, int]]
) -> tuple[list[dict[str, Any]], list[dict[tuple[str, int], str]]]:
    """The battle's card list and, per seat, the battle card id of each (card, version).

    A battle names each card once; when two seats' builds pin different versions of
    one card, each version gets its own id `<card>-v<n>` (the versions stay apart).
    """
    versions: dict[str, set[int]] = {}
    for build, version in chosen:
        for card, card_version, _ in build.versions[version - 1].deck:
            versions.setdefault(card, set()).add(card_version)
    cards: dict[str, dict[str, Any]] = {}
    ids: list[dict[tuple[str, int], str]] = []
    for build, version in chosen:
        seat_ids: dict[tuple[str, int], str] = {}
        for card, card_version, _ in build.versions[version - 1].deck:
            battle_id = card if len(versions[card]) == 1 else f"{card}-v{card_version}"
            if battle_id not in cards:
                cv = CardVersion.objects.get(card_id=card, version=card_version)
                cards[battle_id] = {**card_version_def(cv).as_dict(), "id": battle_id}
            seat_ids[(card, card_version)] = battle_id
        ids.append(seat_ids)
    return list(cards.values()), ids


@transaction.atomic
def mission_start(
    *,
    mission: Mission,
    actor: User,
    board: object,
    seats: object,
    dice: object = None,
    policy: str = "prompt",
    name: str | None = None,
) -> Model:
    """Create the mission's battle from the campaign: each seat's pilot and build version
    (the build's current one unless `build_version` is given), carried wounds face up
    (R-PLT-2), carried component damage where the ruleset says so (R-PLT-5). A dead or
    retired pilot cannot be deployed (RuleViolation, R-PLT-1). A seat with `"bot": true`
    is driven by the server's bot (R-ADD-210, R-ADD-335): still its pilot and build, whose
    player watches the battle. Returns the battle's row as battles.services made it (a
    `Model`: campaigns never import battles' models)."""
    campaign = _locked(mission.campaign)
    if _role(campaign, actor) != "gm":
        raise PermissionDenied("only the campaign's GM starts a mission")
    state = campaign_state(campaign=campaign)
    battle_id = uuid.uuid4()
    setup, command, events = _mission_setup(
        campaign, mission, state, battle_id, board, seats, dice, policy, name
    )
    battle = battle_create(gm=actor, setup=setup, battle_id=battle_id)
    _record(campaign, actor, state, command, events)
    # The player whose pilot the bot drives has no seat in the battle: they watch their
    # pilot's battle (R-ADD-335).
    for seat in _seat_rows(seats):
        if seat.get("bot") is True:
            owner = User.objects.get(username=state.pilots[seat["pilot"]].player)
            battle_watcher_add(battle=battle, actor=actor, user=owner)
    return battle


def mission_start_check(
    *,
    mission: Mission,
    actor: User,
    board: object,
    seats: object,
    dice: object = None,
    policy: str = "prompt",
) -> dict[str, Any]:
    """What `mission_start` would check, and nothing written: the campaign's refusals (a
    dead pilot, R-PLT-1; a seat twice) and the battle setup's (a hex off the board or
    impassable, R-BRD-1/R-BRD-3; a hex taken twice, R-TRN-1; a facing, R-BRD-2), raised as
    `mission_start` raises them. Returns the setup as the engine normalised it (the mission
    wizard's live check)."""
    if _role(mission.campaign, actor) != "gm":
        raise PermissionDenied("only the campaign's GM starts a mission")
    state = campaign_state(campaign=mission.campaign)
    setup, _, _ = _mission_setup(
        mission.campaign, mission, state, uuid.uuid4(), board, seats, dice, policy, None
    )
    return battle_setup_check(setup=setup)


def _mission_setup(
    campaign: Campaign,
    mission: Mission,
    state: domain.CampaignState,
    battle_id: uuid.UUID,
    board: object,
    seats: object,
    dice: object,
    policy: str,
    name: str | None,
) -> tuple[dict[str, Any], domain.Command, list[domain.Event]]:
    """The battle setup of a mission's start, and the campaign command and events that
    record it; the domain refuses dead pilots, double seats and started missions first."""
    rows = _seat_rows(seats)
    chosen: list[tuple[domain.BuildState, int]] = []
    deployments: list[tuple[int, str, str, int]] = []
    for i, seat in enumerate(rows):
        pilot = state.pilots.get(seat["pilot"])
        if pilot is None:
            raise InvalidInput(f"seats[{i}].pilot", f"no pilot {seat['pilot']} in this campaign")
        build = state.builds.get(seat["build"])
        if build is None:
            raise InvalidInput(f"seats[{i}].build", f"no build {seat['build']} in this campaign")
        version = seat.get("build_version", build.current.version)
        if isinstance(version, bool) or not isinstance(version, int):
            raise InvalidInput(f"seats[{i}].build_version", "must be a build version number")
        deployments.append((i, pilot.id, build.id, version))
        chosen.append((build, version))
    # The domain refuses dead pilots, double seats and started missions before anything
    # is built; its events are recorded below once the battle exists.
    command = domain.StartMission(str(mission.id), str(battle_id), tuple(deployments))
    events = domain.decide(state, command, actor_is_gm=True)

    cards, card_ids = _battle_cards(state, chosen)
    scars = [battle_scar_effects(state, pilot_id) for _, pilot_id, _, _ in deployments]
    persistent = parse_ruleset(state.rules, "rules").option("persistent_component_damage")
    # pc-1 hands each pilot's Grit to a battle that rolls the Grit check (R-ADD-305).
    grit_checks = bool(parse_ruleset(state.rules, "rules").option("grit_checks"))
    setup_seats = []
    for i, seat in enumerate(rows):
        pilot = state.pilots[seat["pilot"]]
        build, version = chosen[i]
        bv = build.versions[version - 1]
        casket: dict[str, Any] = {"name": bv.name, "class": bv.casket_class, "shield": bv.shield}
        # R-ADD-121: cards that count "allied <faction> units" read the casket's faction; a
        # build whose faction is not one of the card database's names names none.
        if bv.faction in FACTIONS:
            casket["faction"] = bv.faction
        if persistent and build.component_damage:
            casket["component_damage"] = domain.components_dict(build.component_damage)
        # A seat the bot drives names no player (R-ADD-210); any other `bot` value goes to
        # the setup as given, whose check refuses it (R-ADD-211), as a bot with table dice
        # (R-ADD-212).
        plays: dict[str, Any] = (
            {"bot": True}
            if seat.get("bot") is True
            else {"player": pilot.player, **({"bot": seat["bot"]} if "bot" in seat else {})}
        )
        setup_seats.append(
            {
                **plays,
                "side": seat.get("side"),
                "casket": casket,
                "deck": [{"card": card_ids[i][(card, cv)], "count": n} for card, cv, n in bv.deck],
                "pilot": {
                    "name": pilot.name,
                    "carried_wounds": list(pilot.carried_wounds),
                    # R-ADD-353: scars that change SP or the starting Taint apply here.
                    "sp_modifier": max(-3, min(3, pilot.sp_modifier + scars[i].sp_modifier)),
                    # A battle starts with the pilot's campaign Taint (R-PLT-4, R-ADD-44).
                    **({"taint": taint} if (taint := pilot.taint + scars[i].taint) else {}),
                    **(battle_grit(state, pilot.id) if grit_checks else {}),
                    # Tokens a card says persist across missions (R-ADD-306).
                    **({"tokens": dict(pilot.tokens)} if pilot.tokens else {}),
                },
                "at": seat.get("at"),
                "facing": seat.get("facing"),
            }
        )
    setup = {
        # The default name is cut to the setup's 120 characters (R-TRN-1 setup `name`).
        "name": name or f"{state.name}: mission {mission.number}, {mission.name}"[:120],
        "board": board,
        "rules": dict(state.rules),
        "dice": dice if dice is not None else {},
        "policy": policy,
        "cards": cards,
        "seats": setup_seats,
        # The battle hands its outcome over and then refuses commands (R-ADD-32).
        "campaign": {"campaign_id": str(campaign.id), "mission_id": str(mission.id)},
    }
    return setup, command, events


# --- battle outcome, exactly once -----------------------------------------------------------------


def battle_appended(stream: StreamRef, events: Sequence[RecordedEvent]) -> None:
    """The event store's reaction to appends to battle streams (campaigns/apps.py), run in
    the append's transaction: when a mission's battle ends, its outbox row is written in
    that same transaction, and the task is sent once it commits (never for a rolled-back
    ending). Battles know nothing of this (docs/ARCHITECTURE.md)."""
    battle_id = battle_stream_ended(stream=stream, events=events)
    if battle_id is None:
        return
    mission = Mission.objects.filter(battle_id=battle_id).first()
    if mission is None:
        return
    OutcomeOutbox.objects.get_or_create(battle_id=battle_id, defaults={"mission": mission})
    transaction.on_commit(lambda: outcome_send(battle_id=battle_id))


# The task that applies an ended battle's outcome (campaigns/tasks.py registers it under this
# name). Services send it by name from Celery's registry rather than importing the task
# module: tasks call services, so services importing tasks would close an import circle.
OUTCOME_TASK = "campaigns.apply_battle_outcome"


def outcome_send(*, battle_id: str) -> bool:
    """Send the outcome task for one outbox row; False (row stays pending) when the broker
    cannot be reached. Runs outside any transaction (after commit, or from the sweep)."""
    OutcomeOutbox.objects.filter(battle_id=battle_id).update(attempts=F("attempts") + 1)
    try:
        # The registered task itself, not `send_task`: it honours eager mode (the embedded
        # default runs it in-process). No publish retries: a broker that is down should
        # leave the row to the sweep at once, not hold the request that ended the battle.
        celery_app.tasks[OUTCOME_TASK].apply_async(args=(battle_id,), retry=False)
    except Exception as exc:
        logger.warning("outcome of battle %s not sent: %s", battle_id, exc)
        OutcomeOutbox.objects.filter(battle_id=battle_id, applied_at__isnull=True).update(
            last_error=f"{type(exc).__name__}: {exc}"[:2000]
        )
        return False
    OutcomeOutbox.objects.filter(battle_id=battle_id, sent_at__isnull=True).update(
        sent_at=timezone.now()
    )
    return True


def outcome_outbox_sweep(*, older_than: timedelta = timedelta(seconds=60)) -> int:
    """Re-send every outbox row not applied: never sent, or sent more than `older_than`
    ago (the task may have been lost). Sending twice is harmless: the outcome applies once."""
    cutoff = timezone.now() - older_than
    pending = OutcomeOutbox.objects.filter(applied_at__isnull=True).exclude(sent_at__gt=cutoff)
    ids = [str(battle_id) for battle_id in pending.values_list("battle_id", flat=True)]
    return sum(1 for battle_id in ids if outcome_send(battle_id=battle_id))


def _apply_outcome_command(outcome: BattleOutcome) -> domain.ApplyOutcome:
    """The campaign command for a finished battle, from its typed outcome."""
    # A destroyed component carries as destroyed: at the threshold, whatever it took
    # beyond (R-ADD-30 bounds carried damage by component_threshold).
    threshold = outcome.component_threshold
    seats = tuple(
        domain.SeatOutcome(
            seat=s.seat,
            wounds=s.wounds,
            pilot_dead=s.pilot_dead,
            damage_taken=s.damage_taken,
            component_damage=tuple((name, min(n, threshold)) for name, n in s.component_damage),
            withdrawn=s.withdrawn,
            card_taint=s.card_taint,
            eased_wounds=s.eased_wounds,
            tokens=s.tokens,
            defeated=s.defeated,
            grit_gained=s.grit_gained,
        )
        for s in outcome.seats
    )
    return domain.ApplyOutcome(
        battle_id=outcome.battle_id,
        winner=outcome.winner,
        round=outcome.round,
        seats=seats,
        taint_exploitation=outcome.taint_exploitation,
        persistent_component_damage=outcome.persistent_component_damage,
    )


@transaction.atomic
def campaign_outcome_apply(*, battle_id: str) -> bool:
    """Apply a mission battle's outcome to its campaign (R-PLT-5); True when this call
    applied it, False when it had been applied before. Idempotent by battle id: the
    campaign command id is `outcome-<battle id>`, which the store takes once."""
    outbox = OutcomeOutbox.objects.select_for_update().filter(battle_id=battle_id).first()
    if outbox is None:
        raise RuleViolation(
            "no_outcome", f"battle {battle_id} is not a mission battle that ended", "R-PLT-5"
        )
    if outbox.applied_at is not None:
        return False
    # The battle row through the outbox's relation: campaigns read battles through
    # battles.selectors and never import battles' models (docs/ARCHITECTURE.md).
    outcome = battle_outcome_of(battle=outbox.battle)
    campaign = _locked(outbox.mission.campaign)
    command = _apply_outcome_command(outcome)
    _, events, duplicate = _execute(
        campaign, None, command, actor_is_gm=True, command_id=f"outcome-{outbox.battle_id}"
    )
    outbox.applied_at = timezone.now()
    outbox.last_error = ""
    outbox.save(update_fields=["applied_at", "last_error"])
    return bool(events) and not duplicate


# --- GM adjustments between missions --------------------------------------------------------------


@transaction.atomic
def pilot_taint_adjust(
    *, campaign: Campaign, actor: User, pilot_id: str, delta: int, reason: str
) -> domain.PilotState:
    """Change a pilot's Taint by `delta` with a reason (R-PLT-4). GM only."""
    if isinstance(delta, bool) or not isinstance(delta, int):
        raise InvalidInput("delta", "must be a whole number", "R-PLT-4")
    return _gm_command(campaign, actor, domain.AdjustTaint(pilot_id, delta, reason)).pilots[
        pilot_id
    ]


@transaction.atomic
def pilot_trauma_treat(
    *, campaign: Campaign, actor: User, pilot_id: str, wound: str, reason: str
) -> domain.PilotState:
    """Treat a trauma wound between missions (R-PLT-1). GM only."""
    return _gm_command(campaign, actor, domain.TreatTrauma(pilot_id, wound, reason)).pilots[
        pilot_id
    ]


@transaction.atomic
def pilot_scar_add(
    *, campaign: Campaign, actor: User, pilot_id: str, scar: str, reason: str
) -> domain.PilotState:
    return _gm_command(campaign, actor, domain.AddScar(pilot_id, scar, reason)).pilots[pilot_id]


@transaction.atomic
def pilot_retire(
    *, campaign: Campaign, actor: User, pilot_id: str, reason: str
) -> domain.PilotState:
    return _gm_command(campaign, actor, domain.RetirePilot(pilot_id, reason)).pilots[pilot_id]


@transaction.atomic
def pilot_sp_modifier_adjust(
    *, campaign: Campaign, actor: User, pilot_id: str, sp_modifier: int, reason: str
) -> domain.PilotState:
    if isinstance(sp_modifier, bool) or not isinstance(sp_modifier, int):
        raise InvalidInput("sp_modifier", "must be an integer from -3 to 3", "R-TRN-3")
    command = domain.AdjustSpModifier(pilot_id, sp_modifier, reason)
    return _gm_command(campaign, actor, command).pilots[pilot_id]


@transaction.atomic
def build_repair(
    *, campaign: Campaign, actor: User, build_id: str, reason: str
) -> domain.BuildState:
    """Repair the component damage a build carries (R-PLT-5 option). GM only."""
    return _gm_command(campaign, actor, domain.RepairCasket(build_id, reason)).builds[build_id]


# --- invitations ----------------------------------------------------------------------------------

INVITE_SALT = "campaigns.invite"
INVITE_MAX_AGE = timedelta(days=14)


def campaign_invite_token(*, campaign: Campaign) -> str:
    """A signed invitation to join the campaign as a player, valid for INVITE_MAX_AGE. The GM
    hands it out as a link; no mail is sent. It names the campaign and the GM who issued it."""
    return signing.dumps({"c": str(campaign.id), "gm": campaign.gm_id}, salt=INVITE_SALT)


def campaign_of_invite(*, token: str) -> Campaign | None:
    """The campaign an invitation is for; None when the token is forged, expired, or its
    campaign changed GM since."""
    try:
        data = signing.loads(token, salt=INVITE_SALT, max_age=INVITE_MAX_AGE)
    except signing.BadSignature:
        return None
    campaign = Campaign.objects.filter(id=data.get("c")).select_related("gm").first()
    if campaign is None or campaign.gm_id != data.get("gm"):
        return None
    return campaign


@transaction.atomic
def campaign_invite_accept(*, token: str, user: User) -> Campaign:
    """Join the campaign an invitation names, as a player (R-ADD-31). The GM issued the
    invitation, so the player is added in the GM's name; joining twice changes nothing."""
    campaign = campaign_of_invite(token=token)
    if campaign is None:
        raise InvalidInput("invite", "this invitation link is not valid or has expired")
    if campaign_role(campaign=campaign, user=user) is None:
        _gm_command(campaign, campaign.gm, domain.AddPlayer(user.get_username()))
    return campaign


# --- boards a GM draws ----------------------------------------------------------------------------

# The board editor draws every hex as a button; it makes boards up to these sizes (the engine
# itself takes larger ones, battles/engine/board.py).
EDITOR_MAX_RADIUS = 12
EDITOR_MAX_SIDE = 24


def _gm_of(campaign: Campaign, actor: User) -> None:
    if _role(campaign, actor) != "gm":
        raise PermissionDenied("only the campaign's GM draws its boards (R-ADD-31)")


def _editor_shape(shape: Mapping[str, Any]) -> None:
    if shape.get("kind") == "hexagon":
        radius = shape.get("radius")
        if isinstance(radius, int) and radius > EDITOR_MAX_RADIUS:
            raise InvalidInput(
                "board.shape.radius",
                f"the editor draws hexagons of radius up to {EDITOR_MAX_RADIUS}",
            )
    for side in ("width", "height"):
        value = shape.get(side)
        if isinstance(value, int) and value > EDITOR_MAX_SIDE:
            raise InvalidInput(
                f"board.shape.{side}", f"the editor draws rectangles up to {EDITOR_MAX_SIDE} a side"
            )


@transaction.atomic
def board_create(
    *, campaign: Campaign, actor: User, name: str, shape: Mapping[str, Any]
) -> CampaignBoard:
    """A new, all clear, level 0 board of the campaign, checked by the engine's board parser
    (`parse_board`: an error names the field, e.g. `board.shape.radius`)."""
    _gm_of(campaign, actor)
    name = name.strip()
    if not name:
        raise InvalidInput("board.name", "is required")
    _editor_shape(shape)
    board = parse_board({"name": name, "shape": dict(shape), "hexes": []}, "board")
    return CampaignBoard.objects.create(
        campaign=campaign, name=board.name, document=board.to_document(), created_by=actor
    )


@transaction.atomic
def board_paint(
    *,
    board: CampaignBoard,
    actor: User,
    cells: Sequence[tuple[int, int]],
    terrain: str,
    level: int,
) -> CampaignBoard:
    """Paint hexes with a terrain kind and a level (R-BRD-3, R-BRD-4); the board is saved as
    the engine's board parser normalises it, or refused with the parser's field and rule
    (an unknown terrain, a level outside 0–2, a hex outside the shape)."""
    board = CampaignBoard.objects.select_for_update().get(pk=board.pk)
    _gm_of(board.campaign, actor)
    document = dict(board.document)
    hexes = {(h["q"], h["r"]): dict(h) for h in document.get("hexes", [])}
    for q, r in cells:
        hexes.pop((q, r), None)  # a painted hex goes last: its errors name the last entries
        hexes[(q, r)] = {"q": q, "r": r, "terrain": terrain, "level": level}
    document["hexes"] = list(hexes.values())
    parsed = parse_board(document, "board")
    board.document = parsed.to_document()
    board.updated_at = timezone.now()
    board.save(update_fields=["document", "updated_at"])
    return board


@transaction.atomic
def board_delete(*, board: CampaignBoard, actor: User) -> None:
    """Remove a drawn board from the campaign's library; battles keep their own copy of the
    board they were set up on (the setup holds the whole document)."""
    _gm_of(board.campaign, actor)
    board.delete()
