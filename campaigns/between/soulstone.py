"""Soulstone Energy, an optional module of pc-1 (`soulstone_energy`, R-ADD-247, R-ADD-322,
R-ADD-323).

Every casket (a build) has a Soulstone Core's Energy, 80 of 100 when first tracked
(codex rules-soulstone-energy). After a mission the GM records what the mission cost
each casket that flew it (`SpendEnergy`, once per casket per phase: a standard
deployment 2, heavy combat 5, 3 per overheating, critical damage 5, an overcharge 10
to 15). Between missions a pilot refines a Soulstone from the settlement's storage
into their casket at the Forge (the settlement action Refine Soulstone, one of the
player's two): the codex settlement page's table, T1 Shard +5 Energy +1 Taint, T2
Fragment +15 +2, T3 Crystal +40 +3, T4 Core a full restore that resets Taint to 0 for
100 Credits. A casket at 0 Energy cannot deploy (`casket_empty`); its band (Depleted,
Critical) is a note at deployment.

>>> band("pc-1", 59)["name"], band("pc-1", 60)["name"]
('Depleted', 'Healthy')
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import decide as bd
from . import ledger as lg
from .modules import DECIDERS, ModuleCommand, module_data, state_of, with_state

MODULE = "soulstone_energy"
FILE = "soulstone.json"
RULE = "R-ADD-322"
REFINE_RULE = "R-ADD-323"

# --- events and state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EnergyChanged(Event):
    """A casket's Energy moved by `delta` to `energy` (a mission's cost or a refinement)."""

    build_id: str
    mission_id: str
    delta: int
    energy: int
    reason: str


@dataclass(frozen=True, slots=True)
class ItemUsed(Event):
    """An item of the settlement's storage consumed (the first of its id)."""

    item: str
    reason: str


@dataclass(frozen=True, slots=True)
class Energy:
    caskets: tuple[tuple[str, int], ...] = ()
    spent: tuple[tuple[str, str], ...] = ()  # (mission id, build id) recorded

    def of(self, build_id: str, start: int) -> int:
        return dict(self.caskets).get(build_id, start)


def energy_state(ledger: lg.Ledger) -> Energy:
    return state_of(ledger, MODULE, Energy())


def _changed(s: CampaignState, e: EnergyChanged) -> CampaignState:
    current = energy_state(s.settlement)
    caskets = tuple(sorted({**dict(current.caskets), e.build_id: e.energy}.items()))
    spent = current.spent
    if e.mission_id and (e.mission_id, e.build_id) not in spent:
        spent = (*spent, (e.mission_id, e.build_id))
    return with_state(s, MODULE, Energy(caskets, spent))


def _used(s: CampaignState, e: ItemUsed) -> CampaignState:
    ledger: lg.Ledger = s.settlement
    storage = list(ledger.storage)
    index = next(i for i, (item, _) in enumerate(storage) if item == e.item)
    del storage[index]
    return dataclasses.replace(s, settlement=dataclasses.replace(ledger, storage=tuple(storage)))


EVENT_TYPES = domain.event_types(EnergyChanged, ItemUsed)
HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    EnergyChanged: _changed,
    ItemUsed: _used,
}


def band(version: str, energy: int) -> Mapping[str, Any]:
    """The Energy band a value falls in (Full, Healthy, Depleted, Critical, Empty)."""
    bands = module_data(version, FILE)["bands"]
    return next(b for b in bands if energy >= int(b["from"]))


def energy(state: CampaignState, build_id: str) -> int:
    ledger: lg.Ledger = state.settlement
    return energy_state(ledger).of(build_id, int(module_data(ledger.version, FILE)["start"]))


def casket_of(state: CampaignState, pilot_id: str) -> str | None:
    """The casket a pilot flies: the build of their latest deployment, else their newest
    build of their own (R-ADD-220), else None."""
    for mission in sorted(state.missions, key=lambda m: m.number, reverse=True):
        for _, pilot, build, _ in mission.deployments:
            if pilot == pilot_id:
                return build
    own = [b.id for b in state.builds.values() if b.pilot_id == pilot_id]
    return own[-1] if own else None


# --- commands --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SpendEnergy(ModuleCommand):
    """What the mission the phase follows cost one casket that flew it."""

    MODULE: ClassVar[str] = MODULE
    RULE: ClassVar[str] = RULE
    WHAT: ClassVar[str] = "Soulstone Energy"
    build_id: str = ""
    costs: tuple[str, ...] = ()
    overcharge: int = 0


def _spend(run: bd._Run, c: SpendEnergy, mission: domain.MissionState) -> None:
    data = module_data(run.book.version, FILE)
    flew = {d[2] for d in mission.deployments}
    if c.build_id not in flew:
        raise RuleViolation(
            "casket_not_in_mission",
            f"no casket {c.build_id!r} flew mission {mission.number}; Energy is spent per "
            "casket that flew",
            RULE,
        )
    if (mission.id, c.build_id) in energy_state(run.ledger).spent:
        raise RuleViolation(
            "energy_spent", f"this casket's Energy for mission {mission.number} is recorded", RULE
        )
    costs = data["costs"]
    for i, cost in enumerate(c.costs):
        if cost not in costs:
            raise InvalidInput(f"costs[{i}]", f"one of {', '.join(costs)}", RULE)
        if not costs[cost].get("repeats") and c.costs.count(cost) > 1:
            raise InvalidInput(f"costs[{i}]", f"{costs[cost]['name']} counts once", RULE)
    low, high = (int(v) for v in data["overcharge"])
    if c.overcharge and not low <= c.overcharge <= high:
        raise InvalidInput("overcharge", f"an overcharge costs {low} to {high} Energy", RULE)
    total = sum(int(costs[x]["energy"]) for x in c.costs) + c.overcharge
    before = energy(run.state, c.build_id)
    after = max(0, before - total)
    names = [str(costs[x]["name"]) for x in c.costs] + (["overcharge"] if c.overcharge else [])
    why = f"mission {mission.number}: {', '.join(names) or 'no cost'}"
    run.emit(EnergyChanged(c.build_id, mission.id, after - before, after, why))


def _refine(run: bd._Run, action: Mapping[str, Any], pilot: domain.PilotState, detail: str) -> None:
    """Refine Soulstone (the Forge's action under the module): the shard in `detail`."""
    data = module_data(run.book.version, FILE)
    shards = data["shards"]
    if detail not in shards:
        raise InvalidInput(
            "detail", f"the Soulstone to refine: one of {', '.join(shards)}", REFINE_RULE
        )
    shard = shards[detail]
    if not any(item == detail for item, _ in run.ledger.storage):
        raise RuleViolation(
            "not_in_storage",
            f"the settlement's storage holds no {shard['name']} to refine",
            REFINE_RULE,
        )
    credits = int(shard.get("credits", 0))
    if run.short_of(credits, 0):
        raise RuleViolation(
            "unaffordable",
            f"a {shard['name']} costs {credits} Credits; the settlement has {run.ledger.credits}",
            REFINE_RULE,
        )
    casket = casket_of(run.state, pilot.id)
    if casket is None:
        raise RuleViolation(
            "no_casket", f"{pilot.name} has no casket to refine a Soulstone into", REFINE_RULE
        )
    why = f"{shard['name']} refined by {pilot.name}"
    run.emit(ItemUsed(detail, why))
    run.pay(credits, 0, why, REFINE_RULE)
    before = energy(run.state, casket)
    after = min(int(data["maximum"]), before + int(shard["energy"]))
    run.emit(EnergyChanged(casket, "", after - before, after, why))
    if shard.get("taint_reset"):
        run.taint(pilot.id, -pilot.taint, why)
    else:
        run.taint(pilot.id, int(shard["taint"]), why)


def notes(state: CampaignState, pilot_id: str) -> Sequence[str]:
    ledger: lg.Ledger = state.settlement
    if MODULE not in ledger.modules:
        return ()
    casket = casket_of(state, pilot_id)
    if casket is None:
        return ()
    value = energy(state, casket)
    b = band(ledger.version, value)
    return [f"Soulstone Energy {value}/100, {b['name']}: {b['effect']} ({RULE})"]


def _check(state: CampaignState, command: domain.Command) -> None:
    """A casket at 0 Energy cannot deploy (the codex's Empty band)."""
    ledger: lg.Ledger | None = state.settlement
    if ledger is None or MODULE not in ledger.modules:
        return
    if isinstance(command, domain.StartMission):
        for i, (_, _, build, _) in enumerate(command.deployments):
            if energy(state, build) <= 0:
                raise RuleViolation(
                    "casket_empty",
                    f"seats[{i}]: the casket's Soulstone Core has 0 Energy; refine a Soulstone "
                    "before it deploys",
                    RULE,
                )


domain.register_between(HANDLERS, _check)
DECIDERS[SpendEnergy] = _spend
bd.MODULE_ACTIONS["refine-soulstone"] = _refine
bd.DEPLOYMENT_NOTES.append(notes)
