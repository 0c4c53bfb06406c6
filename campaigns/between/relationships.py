"""Faction relationships, an optional module of pc-1 (`faction_relationships`, R-ADD-246,
R-ADD-320, R-ADD-321).

factions/relationships.md: the players stand at 0 (Neutral) with every faction, on a
scale from -3 (War) to +3 (Allied); their actions move it, +1 or -1 each and ±2 for a
major one; the codex event tables' emissary offers an alliance (+1) or demands a
tribute (3 Scrap, or -1). The GM records each change with its cause
(`ChangeRelationship`) while a settlement phase is open; a donation costs its Credits
or Scrap (checked first); a faction's mission counts once per phase. A value stops at
the scale's ends; a donation that could not move it is refused.

>>> standing("pc-1", 2)
'Friendly'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import decide as bd
from . import ledger as lg
from .modules import DECIDERS, ModuleCommand, module_data, state_of, with_state

MODULE = "faction_relationships"
FILE = "relationships.json"
RULE = "R-ADD-320"

# --- events and state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RelationshipChanged(Event):
    """The players' relationship with `faction` moved by `delta` to `value`, for `cause`
    in the phase after `mission_id`."""

    faction: str
    mission_id: str
    delta: int
    value: int
    cause: str
    reason: str


@dataclass(frozen=True, slots=True)
class Relationships:
    values: tuple[tuple[str, int], ...] = ()
    missions: tuple[tuple[str, str], ...] = ()  # (mission id, faction) counted

    def value(self, faction: str, start: int = 0) -> int:
        return dict(self.values).get(faction, start)


def relationships(ledger: lg.Ledger) -> Relationships:
    return state_of(ledger, MODULE, Relationships())


def _changed(s: CampaignState, e: RelationshipChanged) -> CampaignState:
    current = relationships(s.settlement)
    values = {**dict(current.values), e.faction: e.value}
    data = module_data(s.settlement.version, FILE)
    cause: Mapping[str, Any] = next((c for c in data["causes"] if c["id"] == e.cause), {})
    missions = current.missions
    if cause.get("mission"):
        missions = (*missions, (e.mission_id, e.faction))
    return with_state(s, MODULE, Relationships(tuple(sorted(values.items())), missions))


EVENT_TYPES = domain.event_types(RelationshipChanged)
HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    RelationshipChanged: _changed
}


def standing(version: str, value: int) -> str:
    """The scale's name for a value."""
    return str(module_data(version, FILE)["scale"][str(value)]["name"])


def table(state: CampaignState) -> list[Mapping[str, Any]]:
    """Every faction of the tracker with the players' value, its name and effect."""
    ledger: lg.Ledger = state.settlement
    data = module_data(ledger.version, FILE)
    current = relationships(ledger)
    rows: list[Mapping[str, Any]] = []
    for faction in data["factions"]:
        value = current.value(str(faction["id"]), int(data["start"]))
        scale = data["scale"][str(value)]
        rows.append(
            {
                "id": faction["id"],
                "name": faction["name"],
                "value": value,
                "standing": scale["name"],
                "effect": scale["effect"],
            }
        )
    return rows


# --- commands --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ChangeRelationship(ModuleCommand):
    """A cause of factions/relationships.md moves the players' relationship with a faction."""

    MODULE: ClassVar[str] = MODULE
    RULE: ClassVar[str] = RULE
    WHAT: ClassVar[str] = "A faction relationship"
    faction: str = ""
    cause: str = ""


def _change(run: bd._Run, c: ChangeRelationship, mission: domain.MissionState) -> None:
    data = module_data(run.book.version, FILE)
    factions = {str(f["id"]): str(f["name"]) for f in data["factions"]}
    if c.faction not in factions:
        raise InvalidInput("faction", f"one of {', '.join(factions)}", RULE)
    causes = {str(x["id"]): x for x in data["causes"]}
    if c.cause not in causes:
        raise InvalidInput("cause", f"one of {', '.join(causes)}", RULE)
    cause = causes[c.cause]
    current = relationships(run.ledger)
    if cause.get("mission") and (mission.id, c.faction) in current.missions:
        raise RuleViolation(
            "relationship_mission_counted",
            f"mission {mission.number} already counted for {factions[c.faction]}",
            RULE,
        )
    before = current.value(c.faction, int(data["start"]))
    low, high = (int(v) for v in data["range"])
    after = max(low, min(before + int(cause["delta"]), high))
    credits, scrap = int(cause.get("credits", 0)), int(cause.get("scrap", 0))
    if credits or scrap:
        if after == before:
            raise RuleViolation(
                "relationship_limit",
                f"{factions[c.faction]} stands at {before:+d} ({standing(run.book.version, before)}), "
                f"the end of the scale {low:+d}…{high:+d}: a donation cannot move it",
                RULE,
            )
        if run.short_of(credits, scrap):
            raise RuleViolation(
                "unaffordable",
                f"{cause['name']}: the settlement has {run.ledger.credits} Credits and "
                f"{run.ledger.scrap} Scrap",
                "R-ADD-321",
            )
    why = f"{cause['name']} ({factions[c.faction]})"
    run.pay(credits, scrap, why, "R-ADD-321")
    run.emit(
        RelationshipChanged(
            c.faction, mission.id, after - before, after, c.cause, str(cause["name"])
        )
    )


domain.register_between(HANDLERS, lambda state, command: None)
DECIDERS[ChangeRelationship] = _change
