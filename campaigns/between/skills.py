"""XP and skills, an optional module of pc-1 (`xp_skills`, R-ADD-245, R-ADD-315, R-ADD-316).

The codex skills page's ladder (campaigns/rules/pc-1/skills.json):

- after each mission the GM awards each pilot who flew it XP for the mission's result
  (victory 100, partial 50, survival 25, defeat 0) and its bonuses (`AwardXP`, once per
  pilot per settlement phase);
- the settlement action Skill training (75 Credits) gives a pilot +100 XP;
- at 200 XP the pilot rolls 1d6 on the Tier 1 table, at 500 XP 1d20 on the Tier 2
  table (17-20: the player chooses a skill of that table), at 1000 XP they gain their
  faction's signature ability; a skill already held is rolled again. Every roll is a
  `RollMade`.

>>> from campaigns.between.modules import module_data
>>> xp_for("victory", ("boss-defeated",), module_data("pc-1", "skills.json"))
150
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
from .modules import DECIDERS, ModuleCommand, module_data, module_table, state_of, with_state

MODULE = "xp_skills"
FILE = "skills.json"
RULE = "R-ADD-315"
REROLLS = 30  # a duplicate is rolled again; no table here is that short of new skills

# --- events and state ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class XPGained(Event):
    """A pilot's XP rose by `amount` to `xp`: a mission's result, or training."""

    pilot_id: str
    mission_id: str
    amount: int
    xp: int
    reason: str


@dataclass(frozen=True, slots=True)
class SkillUnlocked(Event):
    """A skill of `tier` for the pilot: `rolled`, `chosen` (Tier 2 17-20) or `signature`."""

    pilot_id: str
    tier: int
    skill: str
    name: str
    effect: str
    how: str


@dataclass(frozen=True, slots=True)
class Skill:
    tier: int
    id: str
    name: str
    effect: str


@dataclass(frozen=True, slots=True)
class PilotSkills:
    xp: int = 0
    skills: tuple[Skill, ...] = ()
    awarded: tuple[str, ...] = ()  # the missions whose XP the pilot was given

    def has_tier(self, tier: int) -> bool:
        return any(s.tier == tier for s in self.skills)


def pilot_skills(ledger: lg.Ledger, pilot_id: str) -> PilotSkills:
    table: Mapping[str, PilotSkills] = state_of(ledger, MODULE, {})
    return table.get(pilot_id, PilotSkills())


def _set(s: CampaignState, pilot_id: str, record: PilotSkills) -> CampaignState:
    table: Mapping[str, PilotSkills] = state_of(s.settlement, MODULE, {})
    return with_state(s, MODULE, {**table, pilot_id: record})


def _gained(s: CampaignState, e: XPGained) -> CampaignState:
    record = pilot_skills(s.settlement, e.pilot_id)
    awarded = record.awarded
    if e.mission_id and e.mission_id not in awarded:
        awarded = (*awarded, e.mission_id)
    return _set(s, e.pilot_id, PilotSkills(e.xp, record.skills, awarded))


def _unlocked(s: CampaignState, e: SkillUnlocked) -> CampaignState:
    record = pilot_skills(s.settlement, e.pilot_id)
    skill = Skill(e.tier, e.skill, e.name, e.effect)
    return _set(s, e.pilot_id, PilotSkills(record.xp, (*record.skills, skill), record.awarded))


EVENT_TYPES = domain.event_types(XPGained, SkillUnlocked)
HANDLERS: Mapping[type[Event], Callable[[CampaignState, Any], CampaignState]] = {
    XPGained: _gained,
    SkillUnlocked: _unlocked,
}

# --- commands --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AwardXP(ModuleCommand):
    """The XP of the mission the phase follows, for one pilot who flew it: the result
    and the bonuses earned; `choice` is the player's Tier 2 skill when the d20 shows
    17-20."""

    MODULE: ClassVar[str] = MODULE
    RULE: ClassVar[str] = RULE
    WHAT: ClassVar[str] = "Awarding XP"
    pilot_id: str = ""
    result: str = ""
    bonuses: tuple[str, ...] = ()
    choice: str = ""


def xp_for(result: str, bonuses: Sequence[str], data: Mapping[str, Any]) -> int:
    """The XP of a mission's result and bonuses; an unknown one is refused (422)."""
    if result not in data["results"]:
        raise InvalidInput("result", f"one of {', '.join(data['results'])}", RULE)
    for i, bonus in enumerate(bonuses):
        if bonus not in data["bonuses"]:
            raise InvalidInput(f"bonuses[{i}]", f"one of {', '.join(data['bonuses'])}", RULE)
    if len(set(bonuses)) != len(bonuses):
        raise InvalidInput("bonuses", "each bonus counts once", RULE)
    return int(data["results"][result]["xp"]) + sum(int(data["bonuses"][b]["xp"]) for b in bonuses)


def _award(run: bd._Run, c: AwardXP, mission: domain.MissionState) -> None:
    data = module_data(run.book.version, FILE)
    if c.pilot_id not in run.state.pilots:
        raise InvalidInput("pilot", f"no pilot {c.pilot_id!r} in this campaign", RULE)
    pilot = run.state.pilots[c.pilot_id]
    if c.pilot_id not in {d[1] for d in mission.deployments}:
        raise RuleViolation(
            "pilot_not_in_mission",
            f"{pilot.name} did not fly mission {mission.number}: XP is earned per mission flown",
            RULE,
        )
    if pilot.status != domain.ALIVE:
        raise RuleViolation(
            "pilot_unavailable",
            f"{pilot.name} is {pilot.status}: a dead pilot's skills and XP are lost",
            RULE,
        )
    if mission.id in pilot_skills(run.ledger, pilot.id).awarded:
        raise RuleViolation(
            "xp_awarded", f"{pilot.name}'s XP for mission {mission.number} was awarded", RULE
        )
    amount = xp_for(c.result, c.bonuses, data)
    earned = [data["results"][c.result]["name"], *(data["bonuses"][b]["name"] for b in c.bonuses)]
    gain(run, pilot, amount, f"mission {mission.number}: {', '.join(earned)}", mission.id, c.choice)


def gain(
    run: bd._Run,
    pilot: domain.PilotState,
    amount: int,
    reason: str,
    mission_id: str,
    choice: str,
) -> None:
    """Add XP, then unlock every rung of the ladder the pilot has reached."""
    record = pilot_skills(run.ledger, pilot.id)
    run.emit(XPGained(pilot.id, mission_id, amount, record.xp + amount, reason))
    data = module_data(run.book.version, FILE)
    for rung in data["ladder"]:
        record = pilot_skills(run.ledger, pilot.id)
        tier = int(rung["tier"])
        if record.xp < int(rung["xp"]) or record.has_tier(tier):
            continue
        if rung.get("signature"):
            signature = data["signatures"].get(pilot.faction)
            if signature is not None:
                run.emit(
                    SkillUnlocked(
                        pilot.id,
                        tier,
                        str(signature["id"]),
                        str(signature["name"]),
                        str(signature["effect"]),
                        "signature",
                    )
                )
            continue
        _roll_skill(run, pilot, tier, str(rung["table"]).split(".", 1)[1], choice)


def _roll_skill(run: bd._Run, pilot: domain.PilotState, tier: int, key: str, choice: str) -> None:
    table = module_table(run.book.version, FILE, key)
    held = {s.id for s in pilot_skills(run.ledger, pilot.id).skills}
    for _ in range(REROLLS):
        entry = run.roll_table(table, f"{pilot.name}'s Tier {tier} skill", pilot_id=pilot.id)
        how = "rolled"
        if entry.data.get("choose"):
            if not choice:
                raise InvalidInput(
                    "choice",
                    f"{pilot.name} rolled {entry.low}-{entry.high} on the Tier {tier} table: the "
                    "player chooses a skill of that table; send it and the same dice again",
                    "R-ADD-316",
                )
            entry = table.entry(choice)
            if entry.data.get("choose") or entry.id in held:
                raise InvalidInput(
                    "choice",
                    f"choose a skill of the Tier {tier} table that {pilot.name} does not hold",
                    "R-ADD-316",
                )
            how = "chosen"
        if entry.id in held:
            continue  # the codex: "If you roll a skill you already have, reroll immediately"
        run.emit(
            SkillUnlocked(pilot.id, tier, entry.id, entry.name, str(entry.data["effect"]), how)
        )
        return


def _training(
    run: bd._Run, action: Mapping[str, Any], pilot: domain.PilotState, detail: str
) -> None:
    """Skill training (a settlement action under the module): +100 XP; `detail` is the
    Tier 2 choice when the d20 shows 17-20 (R-ADD-316)."""
    gain(run, pilot, int(action["xp"]), str(action["name"]), "", detail)


def notes(state: CampaignState, pilot_id: str) -> Sequence[str]:
    ledger: lg.Ledger = state.settlement
    if MODULE not in ledger.modules:
        return ()
    record = pilot_skills(ledger, pilot_id)
    out = [f"XP {record.xp} ({RULE})"]
    out += [f"skill: {s.name} (Tier {s.tier}): {s.effect} ({RULE})" for s in record.skills]
    return out


def next_rung(state: CampaignState, pilot_id: str) -> int | None:
    """The XP of the next skill the pilot has not unlocked, or None at the top."""
    ledger: lg.Ledger = state.settlement
    record = pilot_skills(ledger, pilot_id)
    for rung in module_data(ledger.version, FILE)["ladder"]:
        if not record.has_tier(int(rung["tier"])):
            return int(rung["xp"])
    return None


domain.register_between(HANDLERS, lambda state, command: None)
DECIDERS[AwardXP] = _award
bd.MODULE_ACTIONS["xp-training"] = _training
bd.DEPLOYMENT_NOTES.append(notes)
