"""Departure and arrival events of pc-1 (R-ADD-324, R-ADD-325).

The codex event tables: "Roll 2d6 before deployment (Departure) or after return
(Arrival). Read dice individually: a roll of 3 and 4 reads as "34", not "7". Doubles
… trigger catastrophic or legendary events." The GM rolls each once per settlement
phase, at any step (`RollTravelEvent`), the arrival only when a pilot of the mission
came back; both dice are one `RollMade` (table `travel.departure` or
`travel.arrival`, total read as two digits) and a GM override needs a reason like
every table's (R-ADD-248). Effects the ledger can count (Scrap, Credits, settlement
Morale, population, pilots' Morale and Taint, loot, stored shards) are applied; the
rest is the row's text for the GM (`TravelEventDrawn`).

>>> read_d66((3, 4))
34
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import decide as bd
from .modules import DECIDERS, ModuleCommand, module_table, state_of, with_state

KEY = "travel"
FILE = "travel.json"
RULE = "R-ADD-324"
KINDS = ("departure", "arrival")


@dataclass(frozen=True, slots=True)
class TravelEventDrawn(Event):
    """The departure or arrival event of the phase after `mission_id`: its row and text."""

    mission_id: str
    kind: str
    row: str
    name: str
    text: str


def drawn(state: CampaignState) -> tuple[TravelEventDrawn, ...]:
    return state_of(state.settlement, KEY, ())


def _drawn(s: CampaignState, e: TravelEventDrawn) -> CampaignState:
    return with_state(s, KEY, (*drawn(s), e))


EVENT_TYPES = domain.event_types(TravelEventDrawn)
HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    TravelEventDrawn: _drawn
}


def read_d66(faces: Sequence[int]) -> int:
    """Two d6 read as digits, the first the tens."""
    return faces[0] * 10 + faces[1]


@dataclass(frozen=True, slots=True)
class RollTravelEvent(ModuleCommand):
    """Roll the departure or arrival event of the phase; `override` is (row id, reason)."""

    RULE: ClassVar[str] = RULE
    WHAT: ClassVar[str] = "A departure or arrival event"
    kind: str = ""
    override: tuple[str, str] | None = None


def _roll(run: bd._Run, c: RollTravelEvent, mission: domain.MissionState) -> None:
    if c.kind not in KINDS:
        raise InvalidInput("kind", f"one of {', '.join(KINDS)}", RULE)
    if any(d.mission_id == mission.id and d.kind == c.kind for d in drawn(run.state)):
        raise RuleViolation(
            "travel_event_done",
            f"the {c.kind} event of the phase after mission {mission.number} was rolled",
            RULE,
        )
    if c.kind == "arrival":
        back = [d[1] for d in mission.deployments if run.state.pilots[d[1]].status == domain.ALIVE]
        if not back:
            raise RuleViolation(
                "no_survivors",
                f"nobody came back from mission {mission.number}: an arrival event is rolled "
                "only when survivors returned",
                "R-ADD-325",
            )
    table = module_table(run.book.version, FILE, c.kind)
    chosen = None
    reason = ""
    if c.override is not None:
        chosen, reason = table.entry(c.override[0]), bd._reason(c.override[1])
    faces = run.faces(6, 2, f"{c.kind} event")
    total = read_d66(faces)
    rolled = table.lookup(total)
    entry = chosen or rolled
    run._record(table.key, 6, faces, 0, total, entry.id, rolled.id, f"{c.kind} event", "", reason)
    why = f"{c.kind} event: {entry.name}"
    run.emit(TravelEventDrawn(mission.id, c.kind, entry.id, entry.name, str(entry.data["text"])))
    for effect in entry.data["effects"]:
        if "taint_all" in effect:
            for pilot in run.living():
                run.taint(pilot.id, int(effect["taint_all"]), why)
        else:
            bd._apply(run, mission.id, [effect], why)


domain.register_between(HANDLERS, lambda state, command: None)
DECIDERS[RollTravelEvent] = _roll
