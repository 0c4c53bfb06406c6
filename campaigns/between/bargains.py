"""Flesh Bargains, an optional module of pc-1 (`flesh_bargains`, R-ADD-244, R-ADD-317…319).

A pilot is offered a bargain in the settlement phase after their 5th, 10th, 15th and
20th completed mission (settlement-phase-procedure.md 5.3, flesh-bargains.md "offer
appears again at Mission 10, 15, 20"), if they have Grit 2+ (the codex). The player's
answer is recorded (`AnswerBargain`, entered by the GM): a decline, or one of the
bargains of the pilot's faction (campaigns/rules/pc-1/bargains.json: the codex
bargains page's six per faction and the codex settlement step 5c's surgery). An
accepted bargain costs what the codex says, each as its own event: Scrap and Credits
from the settlement (checked first, 422 `unaffordable`), each Wound a minor injury,
Taint (to the cap, R-ADD-240), the surgery's recovery (the pilot sits out the next
mission, R-ADD-250). It is permanent: the pilot's record keeps it, it gives +1 Grit
once (pilot-grit-system.md), and its effect is a deployment note. It does not revise
the casket's build: a bargain changes the pilot in the casket, which the build
versions do not describe (R-ADD-319).

>>> len(offerable("pc-1", "church"))
7
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import decide as bd
from . import ledger as lg
from .modules import DECIDERS, ModuleCommand, module_data, state_of, with_state
from .rulebook import rulebook

MODULE = "flesh_bargains"
FILE = "bargains.json"
RULE = "R-ADD-317"
COST_RULE = "R-ADD-318"

# --- events and state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BargainAnswered(Event):
    """The player's answer to the offer after the pilot's `offer_at`th mission: a bargain
    taken (its id, name and effect) or declined (`bargain` empty)."""

    pilot_id: str
    mission_id: str
    offer_at: int
    bargain: str
    name: str
    effect: str
    accepted: bool


@dataclass(frozen=True, slots=True)
class PilotBargains:
    answered: tuple[int, ...] = ()  # the offers answered, by the pilot's mission count
    taken: tuple[tuple[str, str, str], ...] = ()  # (id, name, effect)


def pilot_bargains(ledger: lg.Ledger, pilot_id: str) -> PilotBargains:
    table: Mapping[str, PilotBargains] = state_of(ledger, MODULE, {})
    return table.get(pilot_id, PilotBargains())


def _answered(s: CampaignState, e: BargainAnswered) -> CampaignState:
    record = pilot_bargains(s.settlement, e.pilot_id)
    taken = (*record.taken, (e.bargain, e.name, e.effect)) if e.accepted else record.taken
    table: Mapping[str, PilotBargains] = state_of(s.settlement, MODULE, {})
    new = PilotBargains((*record.answered, e.offer_at), taken)
    return with_state(s, MODULE, {**table, e.pilot_id: new})


EVENT_TYPES = domain.event_types(BargainAnswered)
HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    BargainAnswered: _answered
}

# --- offers -----------------------------------------------------------------------------------------


def offerable(version: str, faction: str) -> list[Mapping[str, Any]]:
    """The bargains of a faction, in the data's order."""
    return [b for b in module_data(version, FILE)["bargains"] if b["faction"] == faction]


def offer(state: CampaignState, pilot_id: str) -> int | None:
    """The offer open to the pilot now (their mission count), or None: the module on, the
    pilot alive with Grit 2+, their completed missions one of 5, 10, 15, 20, not answered."""
    ledger: lg.Ledger = state.settlement
    if MODULE not in ledger.modules:
        return None
    pilot = state.pilots[pilot_id]
    if pilot.status != domain.ALIVE:
        return None
    data = module_data(ledger.version, FILE)
    reading = bd.grit(state, pilot_id)
    if reading.missions not in data["offer_at"] or reading.value < int(data["requires_grit"]):
        return None
    if reading.missions in pilot_bargains(ledger, pilot_id).answered:
        return None
    return reading.missions


@dataclass(frozen=True, slots=True)
class AnswerBargain(ModuleCommand):
    """The player's answer to the pilot's open offer: a bargain id, or empty to decline."""

    MODULE: ClassVar[str] = MODULE
    RULE: ClassVar[str] = RULE
    WHAT: ClassVar[str] = "A Flesh Bargain"
    pilot_id: str = ""
    bargain: str = ""


def _answer(run: bd._Run, c: AnswerBargain, mission: domain.MissionState) -> None:
    data = module_data(run.book.version, FILE)
    if c.pilot_id not in run.state.pilots:
        raise InvalidInput("pilot", f"no pilot {c.pilot_id!r} in this campaign", RULE)
    pilot = run.state.pilots[c.pilot_id]
    at = offer(run.state, pilot.id)
    if at is None:
        reading = bd.grit(run.state, pilot.id)
        offers = ", ".join(str(n) for n in data["offer_at"])
        raise RuleViolation(
            "no_bargain_offer",
            f"{pilot.name} has no Flesh Bargain offer open: offers come after a pilot's "
            f"{offers}th completed mission, once each, to a living pilot with Grit "
            f"{data['requires_grit']}+; {pilot.name} has {reading.missions} missions, "
            f"Grit {reading.value}, is {pilot.status}",
            RULE,
        )
    if not c.bargain:
        run.emit(BargainAnswered(pilot.id, mission.id, at, "", "", "", False))
        return
    own = {str(b["id"]): b for b in offerable(run.book.version, pilot.faction)}
    if c.bargain not in own:
        raise InvalidInput(
            "bargain",
            f"{c.bargain!r} is not a bargain of {pilot.name}'s faction ({pilot.faction}); "
            f"theirs: {', '.join(own) or 'none'}; empty declines",
            RULE,
        )
    bargain = own[c.bargain]
    credits, scrap = int(bargain.get("credits", 0)), int(bargain.get("scrap", 0))
    bd.refuse_unaffordable(run, bargain["name"], credits, scrap, COST_RULE)
    name = str(bargain["name"])
    why = f"Flesh Bargain: {name} ({pilot.name})"
    run.emit(
        BargainAnswered(pilot.id, mission.id, at, c.bargain, name, str(bargain["effect"]), True)
    )
    run.pay(credits, scrap, why, COST_RULE)
    for n in range(int(bargain.get("wounds", 0))):
        run.emit(lg.PilotInjured(pilot.id, f"{c.bargain}-wound-{n + 1}", why))
    if bargain.get("taint"):
        run.taint(pilot.id, int(bargain["taint"]), why)
    if bargain.get("downtime"):
        run.emit(
            lg.PilotSidelined(pilot.id, mission.number + 1, f"recovering from {name} ({COST_RULE})")
        )


def grit_bonus(state: CampaignState, pilot_id: str) -> int:
    """+1 Grit once a pilot has taken a bargain (pilot-grit-system.md, R-ADD-233)."""
    ledger: lg.Ledger = state.settlement
    if MODULE not in ledger.modules or not pilot_bargains(ledger, pilot_id).taken:
        return 0
    return int(rulebook(ledger.version).rules["grit"]["flesh_bargain"])


def notes(state: CampaignState, pilot_id: str) -> Sequence[str]:
    ledger: lg.Ledger = state.settlement
    if MODULE not in ledger.modules:
        return ()
    out = [
        f"Flesh Bargain: {name}: {effect} (R-ADD-319)"
        for _, name, effect in pilot_bargains(ledger, pilot_id).taken
    ]
    for bargain_id, name, _ in pilot_bargains(ledger, pilot_id).taken:
        entry = next(
            b for b in module_data(ledger.version, FILE)["bargains"] if b["id"] == bargain_id
        )
        if entry.get("trauma"):
            out.append(
                f"{name} costs {entry['trauma']} Trauma Wound: the GM flips it from the wound deck (R-ADD-318)"
            )
    at = offer(state, pilot_id)
    if at is not None:
        out.append(f"a Flesh Bargain is offered after mission {at} (R-ADD-317)")
    return out


domain.register_between(HANDLERS, lambda state, command: None)
DECIDERS[AnswerBargain] = _answer
bd.GRIT_BONUSES.append(grit_bonus)
bd.DEPLOYMENT_NOTES.append(notes)
