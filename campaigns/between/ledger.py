"""The settlement between missions as events and their fold (pc-1 rules, R-ADD-230).

The events below join the campaign stream; `campaigns.domain.evolve` folds them
through the handlers registered at the bottom of this module. Their state is the
`Ledger` in `CampaignState.settlement`: credits (bank cap 500), scrap, population,
settlement morale, stability and instability, buildings and their build
countdowns, storage, per pilot their morale, minor injuries, Grit override,
skills and scheduled scars, every settlement phase with its steps, and every roll.
Nothing here validates: `campaigns.between.decide` refuses.

>>> from campaigns.domain import CampaignCreated, replay
>>> s = replay([CampaignCreated("c1", "Ash", "gm", True, {}), CampaignRulesPinned("pc-1", ())])
>>> s.settlement.population, s.settlement.credits, s.settlement.morale
(10, 0, 5)
>>> s = replay([SettlementChanged("credits", 120, 120, "mission reward", "R-ADD-242")], s)
>>> s.settlement.credits
120
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from battles.engine.errors import RuleViolation

from .. import domain
from ..domain import CampaignState, CarriedWound, Event
from .rulebook import rulebook

RESOURCES = ("credits", "scrap", "population", "morale", "stability", "instability")

# --- events ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CampaignRulesPinned(Event):
    """The campaign ruleset version and modules the campaign plays (R-ADD-230)."""

    version: str
    modules: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PhaseOpened(Event):
    """The settlement phase after a mission opens; its dice are sealed (R-ADD-248)."""

    mission_id: str
    scope: str
    commitment: str


@dataclass(frozen=True, slots=True)
class PhaseStepDone(Event):
    mission_id: str
    step: str


@dataclass(frozen=True, slots=True)
class PhaseClosed(Event):
    """The phase is over; `secret` reveals its dice (hex), so every roll can be derived again."""

    mission_id: str
    secret: str


@dataclass(frozen=True, slots=True)
class RollMade(Event):
    """One campaign roll (R-ADD-248): the table and its ruleset version, the die, the raw
    faces, the modifier, the total, the row it gave (`outcome`), where the faces came from
    (`sealed` or `table`), and a GM's override with its reason (`outcome` is then the
    GM's row, `rolled` the row the dice gave)."""

    scope: str
    index: int
    table: str
    table_version: str
    die: int
    faces: tuple[int, ...]
    modifier: int
    total: int
    outcome: str
    rolled: str
    source: str
    purpose: str
    pilot_id: str
    override_reason: str


@dataclass(frozen=True, slots=True)
class SettlementChanged(Event):
    """A settlement resource moved by `delta` to `value`, with the reason and rule."""

    resource: str
    delta: int
    value: int
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class ItemStored(Event):
    item: str
    name: str
    reason: str


@dataclass(frozen=True, slots=True)
class PilotInjured(Event):
    """A minor injury the pilot keeps until it heals in a settlement phase (R-ADD-239)."""

    pilot_id: str
    injury: str
    reason: str


@dataclass(frozen=True, slots=True)
class InjuryChanged(Event):
    """An injury `healed`, `downgraded` (severe to minor) or made `permanent` (R-ADD-239)."""

    pilot_id: str
    injury: str
    kind: str
    change: str
    reason: str


@dataclass(frozen=True, slots=True)
class PilotMoraleChanged(Event):
    pilot_id: str
    delta: int
    morale: int
    reason: str


@dataclass(frozen=True, slots=True)
class GritOverridden(Event):
    """The GM sets a pilot's Grit, with a reason; -1 returns it to the record (R-ADD-233)."""

    pilot_id: str
    grit: int
    reason: str


@dataclass(frozen=True, slots=True)
class GritCheckBonus(Event):
    pilot_id: str
    bonus: int
    reason: str


@dataclass(frozen=True, slots=True)
class PilotSidelined(Event):
    """The pilot sits out mission `mission_number` (R-ADD-250)."""

    pilot_id: str
    mission_number: int
    reason: str


@dataclass(frozen=True, slots=True)
class ScarTaken(Event):
    """A scar from a scar table; `scheduled` for the one every 3 completed missions
    (R-ADD-236), not for one a trigger gave."""

    pilot_id: str
    scar: str
    table: str
    scheduled: bool
    reason: str


@dataclass(frozen=True, slots=True)
class SkillTrained(Event):
    pilot_id: str
    skill: str
    level: int


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    """A player's settlement action in a phase (two each, R-ADD-243), with what it cost."""

    mission_id: str
    player: str
    action: str
    pilot_id: str
    detail: str
    credits: int
    scrap: int


@dataclass(frozen=True, slots=True)
class ConstructionStarted(Event):
    building: str
    phases: int
    credits: int
    scrap: int


@dataclass(frozen=True, slots=True)
class ConstructionAdvanced(Event):
    """A building's countdown moved; 0 phases left means it stands."""

    building: str
    phases_left: int


@dataclass(frozen=True, slots=True)
class BuildingLost(Event):
    building: str
    reason: str


@dataclass(frozen=True, slots=True)
class PhaseModifier(Event):
    """Something this phase's event changed for the rest of the phase (upkeep doubled,
    the merchant's scrap price, a construction discount)."""

    mission_id: str
    key: str
    value: int


@dataclass(frozen=True, slots=True)
class MissionsOffered(Event):
    """The 2 or 3 candidate missions the GM offers (R-ADD-251): (id, name, summary)."""

    mission_id: str
    offers: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True, slots=True)
class PilotGenerated(Event):
    """A recruit rolled on the pilot generation tables (R-ADD-252): background, starting
    traits, motivation, quirk and appearance, as row names; the GM enlists them."""

    mission_id: str
    rows: tuple[tuple[str, str], ...]  # (table, row name)


EVENT_TYPES = domain.event_types(
    CampaignRulesPinned,
    PhaseOpened,
    PhaseStepDone,
    PhaseClosed,
    RollMade,
    SettlementChanged,
    ItemStored,
    PilotInjured,
    InjuryChanged,
    PilotMoraleChanged,
    GritOverridden,
    GritCheckBonus,
    PilotSidelined,
    ScarTaken,
    SkillTrained,
    ActionTaken,
    ConstructionStarted,
    ConstructionAdvanced,
    BuildingLost,
    PhaseModifier,
    MissionsOffered,
    PilotGenerated,
)

# --- state -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PilotRecord:
    morale: int
    injuries: tuple[str, ...] = ()  # minor injuries kept between missions
    severe_treated: int = 0  # severe wounds healed or downgraded: survived all the same
    permanent: tuple[str, ...] = ()  # severe wounds a failed surgery left for good
    grit_override: int | None = None
    grit_reason: str = ""
    grit_check_bonus: int = 0
    out_for_mission: int = 0
    out_reason: str = ""
    skills: tuple[tuple[str, int], ...] = ()
    scheduled_scars: int = 0


@dataclass(frozen=True, slots=True)
class BuildingState:
    id: str
    phases_left: int  # 0: standing

    @property
    def standing(self) -> bool:
        return self.phases_left == 0


@dataclass(frozen=True, slots=True)
class PhaseState:
    mission_id: str
    scope: str
    commitment: str
    steps: tuple[str, ...] = ()
    closed: bool = False
    secret: str = ""
    actions: tuple[ActionTaken, ...] = ()
    modifiers: tuple[tuple[str, int], ...] = ()
    offers: tuple[tuple[str, str, str], ...] = ()
    recruits: tuple[tuple[tuple[str, str], ...], ...] = ()

    def modifier(self, key: str, default: int = 0) -> int:
        return next((v for k, v in reversed(self.modifiers) if k == key), default)


@dataclass(frozen=True, slots=True)
class Ledger:
    version: str
    modules: tuple[str, ...]
    credits: int
    scrap: int
    population: int
    morale: int
    stability: int
    instability: int
    buildings: tuple[BuildingState, ...] = ()
    storage: tuple[tuple[str, str], ...] = ()  # (item id, name)
    pilots: Mapping[str, PilotRecord] = field(default_factory=dict)
    phases: tuple[PhaseState, ...] = ()
    rolls: tuple[RollMade, ...] = ()
    # the optional modules' own state, by module name (campaigns/between/modules.py)
    extra: Mapping[str, Any] = field(default_factory=dict)

    def pilot(self, pilot_id: str) -> PilotRecord:
        record = self.pilots.get(pilot_id)
        if record is None:
            start = rulebook(self.version).rules["pilot_morale"]["start"]
            return PilotRecord(morale=int(start))
        return record

    def phase(self, mission_id: str) -> PhaseState | None:
        return next((p for p in self.phases if p.mission_id == mission_id), None)

    def standing(self, building_id: str) -> bool:
        return any(b.id == building_id and b.standing for b in self.buildings)

    def rolls_in(self, scope: str) -> int:
        return sum(1 for r in self.rolls if r.scope == scope)


def new_ledger(version: str, modules: tuple[str, ...]) -> Ledger:
    """A ledger whose six RESOURCES stand at the ruleset's start values (R-ADD-230)."""
    start = rulebook(version).settlement["start"]
    resources: dict[str, Any] = {r: int(start[r]) for r in RESOURCES}
    return Ledger(version, modules, **resources)


# --- evolve ----------------------------------------------------------------------------------------


def _ledger(s: CampaignState, **changes: Any) -> CampaignState:
    return dataclasses.replace(s, settlement=dataclasses.replace(s.settlement, **changes))


def _record(s: CampaignState, pilot_id: str, **changes: Any) -> CampaignState:
    ledger: Ledger = s.settlement
    record = dataclasses.replace(ledger.pilot(pilot_id), **changes)
    return _ledger(s, pilots={**ledger.pilots, pilot_id: record})


def _phase(s: CampaignState, mission_id: str, **changes: Any) -> CampaignState:
    ledger: Ledger = s.settlement
    phases = tuple(
        dataclasses.replace(p, **changes) if p.mission_id == mission_id else p
        for p in ledger.phases
    )
    return _ledger(s, phases=phases)


def _pinned(s: CampaignState, e: CampaignRulesPinned) -> CampaignState:
    if not rulebook(e.version).settlement_phase:
        return s
    return dataclasses.replace(s, settlement=new_ledger(e.version, e.modules))


def _opened(s: CampaignState, e: PhaseOpened) -> CampaignState:
    phase = PhaseState(e.mission_id, e.scope, e.commitment)
    return _ledger(s, phases=(*s.settlement.phases, phase))


def _step_done(s: CampaignState, e: PhaseStepDone) -> CampaignState:
    phase = s.settlement.phase(e.mission_id)
    return _phase(s, e.mission_id, steps=(*phase.steps, e.step))


def _closed(s: CampaignState, e: PhaseClosed) -> CampaignState:
    return _phase(s, e.mission_id, closed=True, secret=e.secret)


def _rolled(s: CampaignState, e: RollMade) -> CampaignState:
    return _ledger(s, rolls=(*s.settlement.rolls, e))


def _changed(s: CampaignState, e: SettlementChanged) -> CampaignState:
    return _ledger(s, **{e.resource: e.value})


def _stored(s: CampaignState, e: ItemStored) -> CampaignState:
    return _ledger(s, storage=(*s.settlement.storage, (e.item, e.name)))


def _injured(s: CampaignState, e: PilotInjured) -> CampaignState:
    record = s.settlement.pilot(e.pilot_id)
    return _record(s, e.pilot_id, injuries=(*record.injuries, e.injury))


def _injury_changed(s: CampaignState, e: InjuryChanged) -> CampaignState:
    record: PilotRecord = s.settlement.pilot(e.pilot_id)
    if e.kind == "minor":
        # a healed minor injury: the first of that name goes
        kept = list(record.injuries)
        kept.remove(e.injury)
        return _record(s, e.pilot_id, injuries=tuple(kept))
    if e.change == "permanent":
        return _record(s, e.pilot_id, permanent=(*record.permanent, e.injury))
    pilot = s.pilots[e.pilot_id]
    wounds: tuple[CarriedWound, ...] = tuple(w for w in pilot.wounds if w.wound != e.injury)
    s = domain._pilot(s, e.pilot_id, wounds=wounds)
    severe = record.severe_treated + (1 if e.kind == "severe" else 0)
    injuries = (*record.injuries, e.injury) if e.change == "downgraded" else record.injuries
    return _record(s, e.pilot_id, severe_treated=severe, injuries=injuries)


def _morale(s: CampaignState, e: PilotMoraleChanged) -> CampaignState:
    return _record(s, e.pilot_id, morale=e.morale)


def _grit(s: CampaignState, e: GritOverridden) -> CampaignState:
    grit = None if e.grit < 0 else e.grit
    return _record(s, e.pilot_id, grit_override=grit, grit_reason=e.reason)


def _grit_bonus(s: CampaignState, e: GritCheckBonus) -> CampaignState:
    record = s.settlement.pilot(e.pilot_id)
    return _record(s, e.pilot_id, grit_check_bonus=record.grit_check_bonus + e.bonus)


def _sidelined(s: CampaignState, e: PilotSidelined) -> CampaignState:
    return _record(s, e.pilot_id, out_for_mission=e.mission_number, out_reason=e.reason)


def _scar(s: CampaignState, e: ScarTaken) -> CampaignState:
    s = domain._pilot(s, e.pilot_id, scars=(*s.pilots[e.pilot_id].scars, e.scar))
    if not e.scheduled:
        return s
    record = s.settlement.pilot(e.pilot_id)
    return _record(s, e.pilot_id, scheduled_scars=record.scheduled_scars + 1)


def _trained(s: CampaignState, e: SkillTrained) -> CampaignState:
    skills = dict(s.settlement.pilot(e.pilot_id).skills)
    skills[e.skill] = e.level
    return _record(s, e.pilot_id, skills=tuple(sorted(skills.items())))


def _action(s: CampaignState, e: ActionTaken) -> CampaignState:
    phase = s.settlement.phase(e.mission_id)
    return _phase(s, e.mission_id, actions=(*phase.actions, e))


def _construction(s: CampaignState, e: ConstructionStarted) -> CampaignState:
    return _ledger(s, buildings=(*s.settlement.buildings, BuildingState(e.building, e.phases)))


def _advanced(s: CampaignState, e: ConstructionAdvanced) -> CampaignState:
    buildings = tuple(
        BuildingState(b.id, e.phases_left) if b.id == e.building else b
        for b in s.settlement.buildings
    )
    return _ledger(s, buildings=buildings)


def _lost(s: CampaignState, e: BuildingLost) -> CampaignState:
    return _ledger(s, buildings=tuple(b for b in s.settlement.buildings if b.id != e.building))


def _modifier(s: CampaignState, e: PhaseModifier) -> CampaignState:
    phase = s.settlement.phase(e.mission_id)
    return _phase(s, e.mission_id, modifiers=(*phase.modifiers, (e.key, e.value)))


def _offered(s: CampaignState, e: MissionsOffered) -> CampaignState:
    return _phase(s, e.mission_id, offers=e.offers)


def _generated(s: CampaignState, e: PilotGenerated) -> CampaignState:
    phase = s.settlement.phase(e.mission_id)
    return _phase(s, e.mission_id, recruits=(*phase.recruits, e.rows))


HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    CampaignRulesPinned: _pinned,
    PhaseOpened: _opened,
    PhaseStepDone: _step_done,
    PhaseClosed: _closed,
    RollMade: _rolled,
    SettlementChanged: _changed,
    ItemStored: _stored,
    PilotInjured: _injured,
    InjuryChanged: _injury_changed,
    PilotMoraleChanged: _morale,
    GritOverridden: _grit,
    GritCheckBonus: _grit_bonus,
    PilotSidelined: _sidelined,
    ScarTaken: _scar,
    SkillTrained: _trained,
    ActionTaken: _action,
    ConstructionStarted: _construction,
    ConstructionAdvanced: _advanced,
    BuildingLost: _lost,
    PhaseModifier: _modifier,
    MissionsOffered: _offered,
    PilotGenerated: _generated,
}
assert set(HANDLERS) == set(EVENT_TYPES.values()), "every between event needs a handler"


# --- checks on the campaign's own commands -----------------------------------------------------------


def roster_cap(ledger: Ledger) -> int:
    """4 pilots, 6 with the Barracks standing (settlements.md, R-ADD-231)."""
    book = rulebook(ledger.version)
    cap = int(book.settlement["caps"]["roster"])
    for b in ledger.buildings:
        if b.standing:
            cap = max(cap, int(book.building(b.id).get("roster", 0)))
    return cap


def _check(state: CampaignState, command: domain.Command) -> None:
    ledger: Ledger | None = state.settlement
    if ledger is None:
        return
    if isinstance(command, domain.EnlistPilot):
        active = sum(1 for p in state.pilots.values() if p.status == domain.ALIVE)
        cap = roster_cap(ledger)
        if active >= cap:
            raise RuleViolation(
                "roster_full",
                f"the roster holds {cap} active pilots and has {active}; "
                "build the Barracks for 6, or retire a pilot",
                "R-ADD-231",
            )
    elif isinstance(command, domain.TreatTrauma):
        raise RuleViolation(
            "trauma_surgery",
            "under pc-1 trauma is treated by trauma surgery at the Apothecary (200 Credits, "
            "heals on 4+), a settlement action",
            "R-ADD-239",
        )
    elif isinstance(command, domain.AdjustTaint):
        cap = int(rulebook(ledger.version).rules["corruption"]["cap"])
        pilot = state.pilot(command.pilot_id)
        if pilot.taint + command.delta > cap:
            raise RuleViolation(
                "taint_cap",
                f"{pilot.name}'s Taint would be {pilot.taint + command.delta}; under pc-1 it "
                f"stops at {cap}, where the Corruption save is rolled",
                "R-ADD-240",
            )
    elif isinstance(command, domain.AddScar):
        maximum = int(rulebook(ledger.version).rules["scars"]["maximum"])
        pilot = state.pilot(command.pilot_id)
        if len(pilot.scars) >= maximum:
            raise RuleViolation(
                "scar_limit",
                f"{pilot.name} has {len(pilot.scars)} scars; {maximum} is the most a pilot bears",
                "R-ADD-236",
            )
    elif isinstance(command, domain.StartMission):
        mission = state.mission(command.mission_id)
        before = [m for m in state.missions if m.number == mission.number - 1]
        if before and before[0].status == "completed":
            phase = ledger.phase(before[0].id)
            if phase is None or not phase.closed:
                raise RuleViolation(
                    "settlement_phase_due",
                    f"the settlement phase after mission {before[0].number} is not done; "
                    "play it before the next mission",
                    "R-ADD-249",
                )
        floor = int(rulebook(ledger.version).rules["pilot_morale"]["refuses_below"])
        for i, (_, pilot_id, _, _) in enumerate(command.deployments):
            record = ledger.pilot(pilot_id)
            name = state.pilot(pilot_id).name
            if record.out_for_mission == mission.number:
                raise RuleViolation(
                    "pilot_out",
                    f"seats[{i}]: {name} sits out mission {mission.number}: {record.out_reason}",
                    "R-ADD-250",
                )
            if record.morale < floor:
                raise RuleViolation(
                    "pilot_morale_broken",
                    f"seats[{i}]: {name}'s Morale is {record.morale}; below {floor} a pilot "
                    "refuses to deploy",
                    "R-ADD-241",
                )


domain.register_between(HANDLERS, _check)
