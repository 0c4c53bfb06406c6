"""A campaign's rules as events: `decide` validates a command, `evolve` folds an event.

Pure Python like the battle engine (no Django): the service loads the campaign's
stream, folds it with `replay`, asks `decide` for the events of one command and
appends them. `evolve` never validates; every refusal happens in `decide`.

What a campaign keeps between battles is R-PLT-1…5: severe wounds are permanent,
trauma persists until treated, the tenth wound kills, Taint is a whole number ≥ 0
changed only by events with a reason, and component damage carries over only under
the ruleset option `persistent_component_damage`.

>>> s = replay([CampaignCreated("c1", "Ash", "gm", True, {"version": "2.0", "options": {}})])
>>> events = decide(s, EnlistPilot("p1", "ann", "Sister Ash", "church", 0), actor_is_gm=True)
Traceback (most recent call last):
...
battles.engine.errors.RuleViolation: ann is not a player of this campaign; add them first (R-ADD-31)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

from battles.engine.arcs import SHIELDS
from battles.engine.battle.state import CARRIED_WOUNDS, SP_MAXIMUM, TAINT_OVERLOAD, WOUND_DECK
from battles.engine.dice import COMPONENTS
from battles.engine.errors import InvalidInput, RuleViolation

# R-ADD-52: a deck built from the casket's class, faction and equipment items (R-ADD-220).
CONSTRUCTION_BY_EQUIPMENT = "R-ADD-52"
TAINT_PURGING = 8  # R-PLT-4: purging is open from 8 Taint
MAX_TAINT = 99
ALIVE, DEAD, RETIRED = "alive", "dead", "retired"


def wound_kind(wound: str) -> str:
    """`minor`, `severe` or `trauma` for a wound card id of the wound deck (R-PLT-1).

    >>> wound_kind("severe-2"), wound_kind("trauma-1")
    ('severe', 'trauma')
    """
    if wound not in WOUND_DECK:
        raise InvalidInput("wound", f"{wound!r} is not a wound card ({', '.join(WOUND_DECK)})")
    return wound.split("-", 1)[0]


# --- events --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    SCHEMA_VERSION: ClassVar[int] = 1

    @property
    def type(self) -> str:
        return type(self).__name__


def event_types(*classes: type[Event]) -> Mapping[str, type[Event]]:
    """Event classes by their stored `type`, the class name (read-only): what a codec
    registers and a stream's fold checks against its handlers.

    >>> dict(event_types(PlayerJoined))
    {'PlayerJoined': <class 'campaigns.domain.PlayerJoined'>}
    """
    return MappingProxyType({cls.__name__: cls for cls in classes})


@dataclass(frozen=True, slots=True)
class CampaignCreated(Event):
    campaign_id: str
    name: str
    gm: str
    private: bool
    rules: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    player: str


@dataclass(frozen=True, slots=True)
class MissionPlanned(Event):
    mission_id: str
    number: int
    name: str


@dataclass(frozen=True, slots=True)
class PilotEnlisted(Event):
    pilot_id: str
    player: str
    name: str
    faction: str
    sp_modifier: int


@dataclass(frozen=True, slots=True)
class BuildRevised(Event):
    """A new version of a casket build; version 1 creates it. `deck` rows are
    (card id, card version, count); a battle pins the build version it used.

    Schema 2 (R-ADD-220): `construction` names the rule the deck was checked under
    (R-ADD-52: built from the casket's equipment items; "" for a build of schema 1, made
    under the older rule R-ADD-15/R-ADD-29) and `pilot_id` the pilot whose casket it is
    ("" for none). `equipment` holds item ids under R-ADD-52."""

    SCHEMA_VERSION: ClassVar[int] = 2
    build_id: str
    version: int
    player: str
    name: str
    casket_class: str
    shield: str
    faction: str
    deck: tuple[tuple[str, int, int], ...]
    equipment: tuple[str, ...]
    construction: str = ""
    pilot_id: str = ""


@dataclass(frozen=True, slots=True)
class MissionStarted(Event):
    """The mission's battle, and per seat (seat, pilot id, build id, build version)."""

    mission_id: str
    battle_id: str
    deployments: tuple[tuple[int, str, str, int], ...]


@dataclass(frozen=True, slots=True)
class PilotWounded(Event):
    """A severe or trauma wound the pilot keeps after the battle (R-PLT-1, R-PLT-5)."""

    pilot_id: str
    wound: str
    kind: str
    mission_id: str
    battle_id: str


@dataclass(frozen=True, slots=True)
class PilotDied(Event):
    pilot_id: str
    mission_id: str
    battle_id: str
    rule: str


@dataclass(frozen=True, slots=True)
class PilotWithdrew(Event):
    """The pilot withdrew their casket from the mission's battle: withdrawn, not defeated
    (R-TRN-9); the pilot stays alive and the casket keeps its build."""

    pilot_id: str
    build_id: str
    mission_id: str
    battle_id: str
    rule: str


@dataclass(frozen=True, slots=True)
class CasketDestroyed(Event):
    """Under pc-1 a casket defeated in a mission's battle (R-DMG-9) is destroyed: it cannot
    deploy until it is rebuilt (R-ADD-352). plt-1 records no such thing."""

    build_id: str
    mission_id: str
    battle_id: str
    rule: str


@dataclass(frozen=True, slots=True)
class TaintChanged(Event):
    """Taint moved by `delta` to `taint`, with the reason (R-PLT-4); `mission_id` is
    empty for a GM's adjustment between missions."""

    pilot_id: str
    delta: int
    taint: int
    reason: str
    mission_id: str


@dataclass(frozen=True, slots=True)
class ComponentDamageCarried(Event):
    """The casket's Component Damage at the battle's end, awaiting repair (R-PLT-5 option
    persistent_component_damage); it replaces what the build carried before."""

    build_id: str
    component_damage: tuple[tuple[str, int], ...]
    mission_id: str


@dataclass(frozen=True, slots=True)
class MissionCompleted(Event):
    mission_id: str
    battle_id: str
    winner: str
    round: int


@dataclass(frozen=True, slots=True)
class TraumaTreated(Event):
    pilot_id: str
    wound: str
    reason: str


@dataclass(frozen=True, slots=True)
class ScarGained(Event):
    pilot_id: str
    scar: str
    reason: str


@dataclass(frozen=True, slots=True)
class PilotRetired(Event):
    pilot_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class CasketRepaired(Event):
    build_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class GMAdjusted(Event):
    """A GM's correction of a pilot's `sp_modifier` (R-TRN-3 pilot modifiers), with a reason."""

    pilot_id: str
    field: str
    before: int
    after: int
    reason: str


@dataclass(frozen=True, slots=True)
class TokensCarried(Event):
    """The pilot's tokens of a pool a card says persist across missions, `count` at the
    battle's end (R-ADD-306); the next mission's battle starts with them."""

    pilot_id: str
    pool: str
    count: int
    mission_id: str


@dataclass(frozen=True, slots=True)
class GritGained(Event):
    """Grit a card gave the pilot for good in a battle ("gain +1 Grit permanently",
    R-ADD-411), taken over once with the outcome; the pilot's Grit (R-ADD-233) counts it,
    within the maximum."""

    pilot_id: str
    amount: int
    mission_id: str


EVENT_TYPES = event_types(
    CampaignCreated,
    PlayerJoined,
    MissionPlanned,
    PilotEnlisted,
    BuildRevised,
    MissionStarted,
    PilotWounded,
    PilotDied,
    PilotWithdrew,
    CasketDestroyed,
    TaintChanged,
    ComponentDamageCarried,
    MissionCompleted,
    TraumaTreated,
    ScarGained,
    PilotRetired,
    CasketRepaired,
    GMAdjusted,
    TokensCarried,
    GritGained,
)


# --- state ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CarriedWound:
    wound: str
    kind: str
    mission_id: str
    battle_id: str


@dataclass(frozen=True, slots=True)
class PilotState:
    id: str
    player: str
    name: str
    faction: str
    sp_modifier: int
    status: str = ALIVE
    taint: int = 0
    wounds: tuple[CarriedWound, ...] = ()  # severe and untreated trauma, oldest first
    scars: tuple[str, ...] = ()
    missions: tuple[str, ...] = ()  # the missions the pilot was deployed in
    withdrawn_from: tuple[str, ...] = ()  # missions the pilot withdrew from (R-TRN-9)
    # Tokens of pools a card says persist (pool, count), no zero counts (R-ADD-306)
    tokens: tuple[tuple[str, int], ...] = ()
    # Grit cards gave the pilot for good in battles (R-ADD-411)
    grit_gained: int = 0

    @property
    def carried_wounds(self) -> tuple[str, ...]:
        """The wound cards the next battle starts face up (R-PLT-2)."""
        return tuple(w.wound for w in self.wounds)

    @property
    def taint_overload(self) -> bool:
        """Taint 10 or more (R-PLT-3)."""
        return self.taint >= TAINT_OVERLOAD

    @property
    def taint_purging(self) -> bool:
        """Taint 8 or more: purging is open (R-PLT-4)."""
        return self.taint >= TAINT_PURGING


@dataclass(frozen=True, slots=True)
class BuildVersionState:
    version: int
    name: str
    casket_class: str
    shield: str
    faction: str
    deck: tuple[tuple[str, int, int], ...]
    equipment: tuple[str, ...]
    construction: str = ""  # R-ADD-220: "" is the older rule (R-ADD-15/R-ADD-29)

    @property
    def older_rule(self) -> bool:
        """Built before decks were made from equipment (R-ADD-52): it still plays, and its
        owner's next revision builds it under R-ADD-52 (R-ADD-220)."""
        return self.construction != CONSTRUCTION_BY_EQUIPMENT


@dataclass(frozen=True, slots=True)
class BuildState:
    id: str
    player: str
    versions: tuple[BuildVersionState, ...]
    component_damage: tuple[tuple[str, int], ...] = ()  # awaiting repair (R-PLT-5 option)
    pilot_id: str = ""  # whose casket it is (R-ADD-220); "" for a build of no pilot
    destroyed: bool = False  # defeated in a mission under pc-1, until rebuilt (R-ADD-352)

    @property
    def current(self) -> BuildVersionState:
        return self.versions[-1]


@dataclass(frozen=True, slots=True)
class MissionState:
    id: str
    number: int
    name: str
    status: str = "planned"
    battle_id: str = ""
    deployments: tuple[tuple[int, str, str, int], ...] = ()
    winner: str = ""


@dataclass(frozen=True, slots=True)
class CampaignState:
    id: str
    name: str
    gm: str
    private: bool
    rules: Mapping[str, Any]
    players: tuple[str, ...] = ()
    missions: tuple[MissionState, ...] = ()
    pilots: Mapping[str, PilotState] = field(default_factory=dict)
    builds: Mapping[str, BuildState] = field(default_factory=dict)
    version: int = 0
    # The settlement ledger of the pc-1 campaign rules (campaigns/between/ledger.py's
    # Ledger, R-ADD-230); None for a campaign that plays plt-1 (R-PLT-1…5).
    settlement: Any = None

    def mission(self, mission_id: str) -> MissionState:
        for m in self.missions:
            if m.id == mission_id:
                return m
        raise RuleViolation("unknown_mission", f"no mission {mission_id} in this campaign", None)

    def mission_of_battle(self, battle_id: str) -> MissionState | None:
        return next((m for m in self.missions if m.battle_id == battle_id), None)

    def pilot(self, pilot_id: str) -> PilotState:
        if pilot_id not in self.pilots:
            raise RuleViolation("unknown_pilot", f"no pilot {pilot_id} in this campaign", None)
        return self.pilots[pilot_id]

    def build(self, build_id: str) -> BuildState:
        if build_id not in self.builds:
            raise RuleViolation("unknown_build", f"no build {build_id} in this campaign", None)
        return self.builds[build_id]


# --- evolve --------------------------------------------------------------------------------------


def _pilot(s: CampaignState, pilot_id: str, **changes: Any) -> CampaignState:
    pilots = dict(s.pilots)
    pilots[pilot_id] = dataclasses.replace(s.pilots[pilot_id], **changes)
    return dataclasses.replace(s, pilots=pilots)


def _build(s: CampaignState, build: BuildState) -> CampaignState:
    return dataclasses.replace(s, builds={**s.builds, build.id: build})


def _mission(s: CampaignState, mission_id: str, **changes: Any) -> CampaignState:
    missions = tuple(
        dataclasses.replace(m, **changes) if m.id == mission_id else m for m in s.missions
    )
    return dataclasses.replace(s, missions=missions)


def _player_joined(s: CampaignState, e: PlayerJoined) -> CampaignState:
    return dataclasses.replace(s, players=(*s.players, e.player))


def _mission_planned(s: CampaignState, e: MissionPlanned) -> CampaignState:
    return dataclasses.replace(
        s, missions=(*s.missions, MissionState(e.mission_id, e.number, e.name))
    )


def _pilot_enlisted(s: CampaignState, e: PilotEnlisted) -> CampaignState:
    pilot = PilotState(e.pilot_id, e.player, e.name, e.faction, e.sp_modifier)
    return dataclasses.replace(s, pilots={**s.pilots, e.pilot_id: pilot})


def upcast_build_revised_v1(payload: Mapping[str, Any]) -> dict[str, Any]:
    """A schema-1 BuildRevised: built under the older rule, of no pilot (R-ADD-220).

    >>> upcast_build_revised_v1({"build_id": "b1"})
    {'build_id': 'b1', 'construction': '', 'pilot_id': ''}
    """
    return {**payload, "construction": "", "pilot_id": ""}


def _build_revised(s: CampaignState, e: BuildRevised) -> CampaignState:
    version = BuildVersionState(
        e.version, e.name, e.casket_class, e.shield, e.faction, e.deck, e.equipment, e.construction
    )
    old = s.builds.get(e.build_id)
    if old is None:
        return _build(s, BuildState(e.build_id, e.player, (version,), pilot_id=e.pilot_id))
    pilot_id = e.pilot_id or old.pilot_id
    return _build(s, dataclasses.replace(old, versions=(*old.versions, version), pilot_id=pilot_id))


def _mission_started(s: CampaignState, e: MissionStarted) -> CampaignState:
    s = _mission(
        s, e.mission_id, status="in_progress", battle_id=e.battle_id, deployments=e.deployments
    )
    for _, pilot_id, _, _ in e.deployments:
        s = _pilot(s, pilot_id, missions=(*s.pilots[pilot_id].missions, e.mission_id))
    return s


def _pilot_wounded(s: CampaignState, e: PilotWounded) -> CampaignState:
    wound = CarriedWound(e.wound, e.kind, e.mission_id, e.battle_id)
    return _pilot(s, e.pilot_id, wounds=(*s.pilots[e.pilot_id].wounds, wound))


def _pilot_died(s: CampaignState, e: PilotDied) -> CampaignState:
    return _pilot(s, e.pilot_id, status=DEAD)


def _pilot_withdrew(s: CampaignState, e: PilotWithdrew) -> CampaignState:
    return _pilot(
        s, e.pilot_id, withdrawn_from=(*s.pilots[e.pilot_id].withdrawn_from, e.mission_id)
    )


def _casket_destroyed(s: CampaignState, e: CasketDestroyed) -> CampaignState:
    return _build(s, dataclasses.replace(s.builds[e.build_id], destroyed=True))


def _taint_changed(s: CampaignState, e: TaintChanged) -> CampaignState:
    return _pilot(s, e.pilot_id, taint=e.taint)


def _tokens_carried(s: CampaignState, e: TokensCarried) -> CampaignState:
    pools = {**dict(s.pilots[e.pilot_id].tokens), e.pool: e.count}
    return _pilot(s, e.pilot_id, tokens=tuple((k, v) for k, v in pools.items() if v))


def _grit_gained(s: CampaignState, e: GritGained) -> CampaignState:
    return _pilot(s, e.pilot_id, grit_gained=s.pilots[e.pilot_id].grit_gained + e.amount)


def _component_damage_carried(s: CampaignState, e: ComponentDamageCarried) -> CampaignState:
    return _build(s, dataclasses.replace(s.builds[e.build_id], component_damage=e.component_damage))


def _mission_completed(s: CampaignState, e: MissionCompleted) -> CampaignState:
    return _mission(s, e.mission_id, status="completed", winner=e.winner)


def _trauma_treated(s: CampaignState, e: TraumaTreated) -> CampaignState:
    wounds = tuple(w for w in s.pilots[e.pilot_id].wounds if w.wound != e.wound)
    return _pilot(s, e.pilot_id, wounds=wounds)


def _scar_gained(s: CampaignState, e: ScarGained) -> CampaignState:
    return _pilot(s, e.pilot_id, scars=(*s.pilots[e.pilot_id].scars, e.scar))


def _pilot_retired(s: CampaignState, e: PilotRetired) -> CampaignState:
    return _pilot(s, e.pilot_id, status=RETIRED)


def _casket_repaired(s: CampaignState, e: CasketRepaired) -> CampaignState:
    return _build(s, dataclasses.replace(s.builds[e.build_id], component_damage=()))


def _gm_adjusted(s: CampaignState, e: GMAdjusted) -> CampaignState:
    return _pilot(s, e.pilot_id, **{e.field: e.after})


# CampaignCreated starts a stream and is folded by `evolve` itself.
_HANDLERS: dict[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    PlayerJoined: _player_joined,
    MissionPlanned: _mission_planned,
    PilotEnlisted: _pilot_enlisted,
    BuildRevised: _build_revised,
    MissionStarted: _mission_started,
    PilotWounded: _pilot_wounded,
    PilotDied: _pilot_died,
    PilotWithdrew: _pilot_withdrew,
    CasketDestroyed: _casket_destroyed,
    TaintChanged: _taint_changed,
    ComponentDamageCarried: _component_damage_carried,
    MissionCompleted: _mission_completed,
    TraumaTreated: _trauma_treated,
    ScarGained: _scar_gained,
    PilotRetired: _pilot_retired,
    CasketRepaired: _casket_repaired,
    GMAdjusted: _gm_adjusted,
    TokensCarried: _tokens_carried,
    GritGained: _grit_gained,
}
assert set(_HANDLERS) | {CampaignCreated} == set(EVENT_TYPES.values()), (
    "every campaign event type needs a handler"
)


def evolve(state: CampaignState | None, event: Event) -> CampaignState:
    """The state after one event. Trusts the event: it never validates.

    >>> s = evolve(None, CampaignCreated("c1", "Ash", "gm", True, {}))
    >>> evolve(s, PlayerJoined("ann")).players
    ('ann',)
    >>> evolve(None, PlayerJoined("ann"))
    Traceback (most recent call last):
    ...
    ValueError: a campaign stream starts with CampaignCreated, not PlayerJoined
    """
    if isinstance(event, CampaignCreated):
        return CampaignState(
            event.campaign_id, event.name, event.gm, event.private, event.rules, version=1
        )
    if state is None:
        raise ValueError(f"a campaign stream starts with CampaignCreated, not {event.type}")
    handler = _HANDLERS.get(type(event)) or _BETWEEN_HANDLERS[type(event)]
    s = handler(state, event)
    return dataclasses.replace(s, version=state.version + 1)


def replay(events: Iterable[Event], state: CampaignState | None = None) -> CampaignState:
    """Fold events onto a state (or from nothing).

    >>> replay([CampaignCreated("c1", "Ash", "gm", True, {}), PlayerJoined("ann")]).version
    2
    """
    for event in events:
        state = evolve(state, event)
    if state is None:
        raise ValueError("an empty campaign stream has no state")
    return state


# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Command:
    GM_ONLY: ClassVar[bool] = True
    ADJUSTMENT: ClassVar[bool] = False


@dataclass(frozen=True, slots=True)
class Adjustment(Command):
    """A GM's correction between missions, its `reason` the last field (checked by `_reason`):
    its events are marked so an audit tells them from what battles did (like the battle's GM
    commands, R-ADD-24)."""

    ADJUSTMENT: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class AddPlayer(Command):
    player: str


@dataclass(frozen=True, slots=True)
class PlanMission(Command):
    mission_id: str
    name: str


@dataclass(frozen=True, slots=True)
class EnlistPilot(Command):
    pilot_id: str
    player: str
    name: str
    faction: str
    sp_modifier: int


@dataclass(frozen=True, slots=True)
class ReviseBuild(Command):
    """Create (new build id) or revise a build. A player may revise their own builds."""

    GM_ONLY: ClassVar[bool] = False
    build_id: str
    player: str
    name: str
    casket_class: str
    shield: str
    faction: str
    deck: tuple[tuple[str, int, int], ...]
    equipment: tuple[str, ...]
    construction: str = ""  # the rule the service checked the deck under (R-ADD-220)
    pilot_id: str = ""


@dataclass(frozen=True, slots=True)
class StartMission(Command):
    mission_id: str
    battle_id: str
    deployments: tuple[tuple[int, str, str, int], ...]


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """What a battle did to one seat, read from its final state."""

    seat: int
    wounds: tuple[str, ...]  # face up at the end, carried ones included
    pilot_dead: bool
    damage_taken: int  # cards discarded for damage (R-DMG-6, R-ADD-23)
    component_damage: tuple[tuple[str, int], ...]
    withdrawn: bool = False  # withdrew at the start of a turn, not defeated (R-TRN-9)
    card_taint: int = 0  # Taint the battle's cards applied to the pilot, net (R-ADD-275)
    # Severe wounds a Grit check eased: minor this mission, not kept (R-ADD-305)
    eased_wounds: tuple[str, ...] = ()
    # Each pool a card says persist and the seat's count at the end (R-ADD-306)
    tokens: tuple[tuple[str, int], ...] = ()
    defeated: bool = False  # the casket was defeated (R-DMG-9)
    grit_gained: int = 0  # Grit a card gave the pilot for good (R-ADD-411)


@dataclass(frozen=True, slots=True)
class ApplyOutcome(Command):
    battle_id: str
    winner: str
    round: int
    seats: tuple[SeatOutcome, ...]
    taint_exploitation: bool
    persistent_component_damage: bool


@dataclass(frozen=True, slots=True)
class AdjustTaint(Adjustment):
    pilot_id: str
    delta: int
    reason: str


@dataclass(frozen=True, slots=True)
class TreatTrauma(Adjustment):
    pilot_id: str
    wound: str
    reason: str


@dataclass(frozen=True, slots=True)
class AddScar(Adjustment):
    pilot_id: str
    scar: str
    reason: str


@dataclass(frozen=True, slots=True)
class RetirePilot(Adjustment):
    pilot_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class RepairCasket(Adjustment):
    build_id: str
    reason: str


@dataclass(frozen=True, slots=True)
class AdjustSpModifier(Adjustment):
    pilot_id: str
    sp_modifier: int
    reason: str


# --- decide --------------------------------------------------------------------------------------


def _reason(reason: str) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise InvalidInput("reason", "a GM change needs a reason of 1 to 500 characters", "R-PLT-4")
    return reason.strip()


def _living(state: CampaignState, pilot_id: str) -> PilotState:
    pilot = state.pilot(pilot_id)
    if pilot.status == DEAD:
        raise RuleViolation(
            "pilot_dead",
            f"{pilot.name} is dead (all 10 wounds face up) and cannot take part",
            "R-PLT-1",
        )
    if pilot.status == RETIRED:
        raise RuleViolation("pilot_retired", f"{pilot.name} has retired", "R-ADD-31")
    return pilot


def decide(state: CampaignState, command: Command, *, actor_is_gm: bool) -> list[Event]:
    """The events of one command on `state`; refusals raise RuleViolation or InvalidInput.

    `actor_is_gm` says whether the GM gives the command; a player may only revise
    their own builds (the service checks who the player is).
    """
    if command.GM_ONLY and not actor_is_gm:
        raise RuleViolation(
            "gm_only", f"only the campaign's GM may {type(command).__name__}", "R-ADD-31"
        )
    handler = _DECIDERS.get(type(command))
    if handler is None:
        raise TypeError(f"decide does not know {type(command).__name__}")
    for check in _BETWEEN_CHECKS:
        check(state, command)
    return handler(state, command)


def _add_player(s: CampaignState, c: AddPlayer) -> list[Event]:
    if c.player == s.gm:
        raise RuleViolation(
            "gm_is_not_a_player", "the GM runs the campaign; pick a player", "R-ADD-31"
        )
    if c.player in s.players:
        raise RuleViolation(
            "already_a_player", f"{c.player} already plays in this campaign", "R-ADD-31"
        )
    return [PlayerJoined(c.player)]


def _plan_mission(s: CampaignState, c: PlanMission) -> list[Event]:
    if any(m.id == c.mission_id for m in s.missions):
        raise RuleViolation("mission_exists", f"mission {c.mission_id} exists", None)
    return [MissionPlanned(c.mission_id, len(s.missions) + 1, c.name)]


def _enlist_pilot(s: CampaignState, c: EnlistPilot) -> list[Event]:
    if c.player not in s.players:
        raise RuleViolation(
            "not_a_player",
            f"{c.player} is not a player of this campaign; add them first",
            "R-ADD-31",
        )
    if c.pilot_id in s.pilots:
        raise RuleViolation("pilot_exists", f"pilot {c.pilot_id} exists", None)
    if not -3 <= c.sp_modifier <= 3:
        raise InvalidInput("sp_modifier", "must be from -3 to 3", "R-TRN-3")
    return [PilotEnlisted(c.pilot_id, c.player, c.name, c.faction, c.sp_modifier)]


def _revise_build(s: CampaignState, c: ReviseBuild) -> list[Event]:
    if c.player not in s.players:
        raise RuleViolation(
            "not_a_player", f"{c.player} is not a player of this campaign", "R-ADD-31"
        )
    if c.casket_class not in SP_MAXIMUM:
        raise InvalidInput("casket_class", f"must be one of {', '.join(SP_MAXIMUM)}", "R-TRN-3")
    if c.shield not in SHIELDS:
        raise InvalidInput("shield", f"must be one of {', '.join(SHIELDS)}", "R-ARC-2")
    old = s.builds.get(c.build_id)
    if old is not None and old.player != c.player:
        raise RuleViolation(
            "not_your_build", f"build {c.build_id} belongs to {old.player}", "R-ADD-31"
        )
    if c.pilot_id:
        pilot = s.pilot(c.pilot_id)
        if pilot.player != c.player:
            raise RuleViolation(
                "not_your_pilot",
                f"{pilot.name} is {pilot.player}'s pilot; a build belongs to its owner's pilot",
                "R-ADD-220",
            )
    version = 1 if old is None else old.current.version + 1
    return [
        BuildRevised(
            c.build_id,
            version,
            c.player,
            c.name,
            c.casket_class,
            c.shield,
            c.faction,
            c.deck,
            c.equipment,
            c.construction,
            c.pilot_id,
        )
    ]


def _start_mission(s: CampaignState, c: StartMission) -> list[Event]:
    mission = s.mission(c.mission_id)
    if mission.status != "planned":
        raise RuleViolation(
            "mission_started", f"mission {mission.number} is already {mission.status}", "R-PLT-5"
        )
    earlier = [m for m in s.missions if m.number < mission.number and m.status != "completed"]
    if earlier:
        raise RuleViolation(
            "missions_in_order",
            f"mission {earlier[0].number} is not completed; missions are played in order",
            "R-PLT-5",
        )
    pilots: set[str] = set()
    builds: set[str] = set()
    for i, (_, pilot_id, build_id, version) in enumerate(c.deployments):
        pilot = _living(s, pilot_id)
        build = s.build(build_id)
        if pilot_id in pilots or build_id in builds:
            raise InvalidInput(
                f"seats[{i}]", "a pilot and a build each take one seat in a battle", "R-TRN-1"
            )
        pilots.add(pilot_id)
        builds.add(build_id)
        if build.player != pilot.player:
            raise InvalidInput(
                f"seats[{i}].build",
                f"{pilot.name} belongs to {pilot.player}, the build to {build.player}; "
                "a pilot drives their own player's caskets",
                "R-ADD-31",
            )
        if not 1 <= version <= len(build.versions):
            raise InvalidInput(f"seats[{i}].build_version", f"build has no version {version}")
    return [MissionStarted(c.mission_id, c.battle_id, c.deployments)]


def _apply_outcome(s: CampaignState, c: ApplyOutcome) -> list[Event]:
    mission = s.mission_of_battle(c.battle_id)
    if mission is None:
        raise RuleViolation(
            "not_a_mission_battle", f"battle {c.battle_id} is no mission", "R-PLT-5"
        )
    if mission.status == "completed":
        return []  # R-PLT-5: exactly once
    by_seat = {d[0]: d for d in mission.deployments}
    events: list[Event] = []
    for outcome in c.seats:
        _, pilot_id, build_id, _ = by_seat[outcome.seat]
        pilot = s.pilots[pilot_id]
        carried = set(pilot.carried_wounds)
        for wound in outcome.wounds:
            if wound in CARRIED_WOUNDS and wound not in carried | set(outcome.eased_wounds):
                events.append(
                    PilotWounded(pilot_id, wound, wound_kind(wound), mission.id, c.battle_id)
                )
        taint = pilot.taint
        if c.taint_exploitation and outcome.damage_taken >= 3:
            delta = outcome.damage_taken // 3
            taint += delta
            events.append(
                TaintChanged(
                    pilot_id,
                    delta,
                    taint,
                    f"Taint exploitation: {outcome.damage_taken} damage taken in mission "
                    f"{mission.number}, 1 Taint per 3 (R-PLT-4, R-ADD-33)",
                    mission.id,
                )
            )
        # R-ADD-275: the Taint the battle's cards applied, handed over once with the outcome,
        # within the pilot's bounds.
        after = min(MAX_TAINT, max(0, taint + outcome.card_taint))
        if after != taint:
            events.append(
                TaintChanged(
                    pilot_id,
                    after - taint,
                    after,
                    f"Taint from cards in mission {mission.number} (R-ADD-66, R-ADD-275)",
                    mission.id,
                )
            )
        # R-ADD-306: tokens a card says persist, handed over once with the outcome.
        held = dict(pilot.tokens)
        for pool, count in outcome.tokens:
            if count != held.get(pool, 0):
                events.append(TokensCarried(pilot_id, pool, count, mission.id))
        # R-ADD-411: Grit a card gave for good, handed over once with the outcome.
        if outcome.grit_gained:
            events.append(GritGained(pilot_id, outcome.grit_gained, mission.id))
        if outcome.pilot_dead and pilot.status != DEAD:
            events.append(PilotDied(pilot_id, mission.id, c.battle_id, "R-PLT-1"))
        if outcome.withdrawn:
            events.append(PilotWithdrew(pilot_id, build_id, mission.id, c.battle_id, "R-TRN-9"))
        # R-ADD-352: under pc-1 (a settlement ledger) a defeated casket is destroyed.
        if outcome.defeated and s.settlement is not None:
            events.append(CasketDestroyed(build_id, mission.id, c.battle_id, "R-ADD-352"))
        if c.persistent_component_damage:
            damage = tuple((k, v) for k, v in outcome.component_damage if v)
            if damage != s.builds[build_id].component_damage:
                events.append(ComponentDamageCarried(build_id, damage, mission.id))
    events.append(MissionCompleted(mission.id, c.battle_id, c.winner, c.round))
    return events


def _adjust_taint(s: CampaignState, c: AdjustTaint) -> list[Event]:
    pilot = s.pilot(c.pilot_id)
    reason = _reason(c.reason)
    if c.delta == 0:
        raise InvalidInput("delta", "must not be 0", "R-PLT-4")
    taint = pilot.taint + c.delta
    if not 0 <= taint <= MAX_TAINT:
        raise RuleViolation(
            "taint_out_of_range",
            f"{pilot.name} has {pilot.taint} Taint; a change of {c.delta} would make {taint}, "
            f"and Taint is a whole number from 0 to {MAX_TAINT}",
            "R-PLT-4",
        )
    return [TaintChanged(c.pilot_id, c.delta, taint, reason, "")]


def _treat_trauma(s: CampaignState, c: TreatTrauma) -> list[Event]:
    pilot = s.pilot(c.pilot_id)
    reason = _reason(c.reason)
    if not any(w.wound == c.wound and w.kind == "trauma" for w in pilot.wounds):
        raise RuleViolation(
            "no_such_trauma",
            f"{pilot.name} carries no trauma wound {c.wound!r}; severe wounds are permanent",
            "R-PLT-1",
        )
    if any(
        m.status == "in_progress" and c.pilot_id in {d[1] for d in m.deployments}
        for m in s.missions
    ):
        raise RuleViolation(
            "between_missions", "trauma is treated between missions, not during one", "R-PLT-1"
        )
    return [TraumaTreated(c.pilot_id, c.wound, reason)]


def _add_scar(s: CampaignState, c: AddScar) -> list[Event]:
    s.pilot(c.pilot_id)
    if not isinstance(c.scar, str) or not c.scar.strip() or len(c.scar) > 200:
        raise InvalidInput("scar", "must be 1 to 200 characters")
    return [ScarGained(c.pilot_id, c.scar.strip(), _reason(c.reason))]


def _retire_pilot(s: CampaignState, c: RetirePilot) -> list[Event]:
    _living(s, c.pilot_id)
    return [PilotRetired(c.pilot_id, _reason(c.reason))]


def _repair_casket(s: CampaignState, c: RepairCasket) -> list[Event]:
    build = s.build(c.build_id)
    if not build.component_damage:
        raise RuleViolation(
            "nothing_to_repair", "the casket carries no component damage", "R-PLT-5"
        )
    return [CasketRepaired(c.build_id, _reason(c.reason))]


def _adjust_sp_modifier(s: CampaignState, c: AdjustSpModifier) -> list[Event]:
    pilot = s.pilot(c.pilot_id)
    if not -3 <= c.sp_modifier <= 3:
        raise InvalidInput("sp_modifier", "must be from -3 to 3", "R-TRN-3")
    if c.sp_modifier == pilot.sp_modifier:
        raise InvalidInput("sp_modifier", f"is already {pilot.sp_modifier}")
    return [
        GMAdjusted(c.pilot_id, "sp_modifier", pilot.sp_modifier, c.sp_modifier, _reason(c.reason))
    ]


_DECIDERS: Mapping[type[Command], Callable[[CampaignState, Any], list[Event]]] = {
    AddPlayer: _add_player,
    PlanMission: _plan_mission,
    EnlistPilot: _enlist_pilot,
    ReviseBuild: _revise_build,
    StartMission: _start_mission,
    ApplyOutcome: _apply_outcome,
    AdjustTaint: _adjust_taint,
    TreatTrauma: _treat_trauma,
    AddScar: _add_scar,
    RetirePilot: _retire_pilot,
    RepairCasket: _repair_casket,
    AdjustSpModifier: _adjust_sp_modifier,
}
# A slots dataclass is a new class: the one it replaced lingers among the subclasses
# until collected, so only the classes this module names count.
assert set(_DECIDERS) == {
    c
    for c in (*Command.__subclasses__(), *Adjustment.__subclasses__())
    if c is not Adjustment and globals().get(c.__name__) is c
}, "every campaign command needs a decider"


def components_dict(component_damage: Iterable[tuple[str, int]]) -> dict[str, int]:
    """Component damage rows as a dict in COMPONENTS order (R-ADD-7)."""
    given = dict(component_damage)
    return {c: given[c] for c in COMPONENTS if given.get(c)}


# --- between missions (pc-1 campaign rules) ---------------------------------------------------------
# campaigns/between registers its events' handlers here, and the checks its rules add to
# this module's commands (a pilot out for a mission, the roster cap): this module stays
# the one `evolve` and `decide` of the campaign stream without importing the package.

_BETWEEN_HANDLERS: dict[type[Event], Callable[[CampaignState, Any], CampaignState]] = {}
_BETWEEN_CHECKS: list[Callable[[CampaignState, Command], None]] = []


def register_between(
    handlers: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]],
    check: Callable[[CampaignState, Command], None],
) -> None:
    """Add the between-missions events' handlers and a check on this module's commands
    (once, when campaigns/between/ledger.py is imported)."""
    clash = set(handlers) & (set(_HANDLERS) | set(_BETWEEN_HANDLERS))
    if clash:
        raise ValueError(f"events registered twice: {sorted(c.__name__ for c in clash)}")
    _BETWEEN_HANDLERS.update(handlers)
    if check not in _BETWEEN_CHECKS:
        _BETWEEN_CHECKS.append(check)
