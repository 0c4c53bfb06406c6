"""The settlement phase between missions as commands (pc-1 rules, R-ADD-230…251).

After a mission's outcome (R-PLT-5) the GM plays the settlement phase of the codex
procedure, one step after the other and each exactly once (R-ADD-249):

1. return: `ResolveCasualties` (death consequence, memorial), `ResolveRewards`
   (objective Credits, loot per objective and per enemy defeated, the mission's
   result on morale and population), `RollSalvage`, `ResolvePilots` (Corruption
   saves, scars when due, retirement at the fifth);
2. `CollectIncome`: construction countdowns, building income, upkeep, debt;
3. `RollEvent`: the d100 settlement event and its effects;
4. `TakeAction` (two per player, costs checked) then `FinishActions`;
5. `PilotCare`: minor injuries heal on 4+;
6. `SelectMission`: the next mission is planned and the phase closes, revealing its
   dice secret.

Every roll is a `RollMade` event. `decide` takes a `Roller` (sealed dice or the faces
the GM entered, campaigns/between/dice.py); evolve never rolls.

>>> STEPS[:4]
('return.casualties', 'return.rewards', 'return.salvage', 'return.pilots')
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from battles.engine.errors import InvalidInput, RuleViolation

from .. import domain
from ..domain import CampaignState, Event
from . import ledger as lg
from .dice import Roller, commitment, derive_faces
from .rulebook import Entry, Rulebook, Table, module_name, rulebook
from .scar_effects import scar_note

STEPS = (
    "return.casualties",
    "return.rewards",
    "return.salvage",
    "return.pilots",
    "income",
    "event",
    "actions",
    "care",
    "select",
)
OBJECTIVES = ("primary", "secondary", "hidden")
ENEMY_CLASSES = ("minion", "elite", "boss")
DEATH_RULE = "R-ADD-237"

# --- commands ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BetweenCommand(domain.Command):
    STEP: ClassVar[str] = ""
    ROLLS: ClassVar[bool] = False
    mission_id: str


@dataclass(frozen=True, slots=True)
class OpenPhase(BetweenCommand):
    """Open the phase after a completed mission; `minor_wounds` are the (pilot id, wound)
    pairs face up at the battle's end that pc-1 keeps as injuries (R-ADD-239)."""

    commitment: str
    minor_wounds: tuple[tuple[str, str], ...] = ()
    # The pilots who rolled a Grit check in the battle: they spent their one-check bonus
    # (R-ADD-237, R-ADD-305).
    grit_checked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ResolveCasualties(BetweenCommand):
    STEP: ClassVar[str] = "return.casualties"
    ROLLS: ClassVar[bool] = True
    memorial: bool = False


@dataclass(frozen=True, slots=True)
class ResolveRewards(BetweenCommand):
    STEP: ClassVar[str] = "return.rewards"
    ROLLS: ClassVar[bool] = True
    success: bool = False
    objectives: tuple[str, ...] = ()
    enemies: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True, slots=True)
class RollSalvage(BetweenCommand):
    STEP: ClassVar[str] = "return.salvage"
    ROLLS: ClassVar[bool] = True
    override: tuple[str, str] | None = None  # (row id, reason)


@dataclass(frozen=True, slots=True)
class ResolvePilots(BetweenCommand):
    STEP: ClassVar[str] = "return.pilots"
    ROLLS: ClassVar[bool] = True
    scar_tables: tuple[tuple[str, str], ...] = ()  # pilot id -> scar table
    scar_choices: tuple[tuple[str, str], ...] = ()  # pilot id -> the player's choice on a 20


@dataclass(frozen=True, slots=True)
class CollectIncome(BetweenCommand):
    STEP: ClassVar[str] = "income"


@dataclass(frozen=True, slots=True)
class RollEvent(BetweenCommand):
    STEP: ClassVar[str] = "event"
    ROLLS: ClassVar[bool] = True
    override: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class TakeAction(BetweenCommand):
    STEP: ClassVar[str] = "actions"
    ROLLS: ClassVar[bool] = True
    player: str = ""
    action: str = ""
    pilot_id: str = ""
    detail: str = (
        ""  # the building to build, the skill to train, the injury to treat, the scrap to sell
    )


@dataclass(frozen=True, slots=True)
class FinishActions(BetweenCommand):
    STEP: ClassVar[str] = "actions"


@dataclass(frozen=True, slots=True)
class PilotCare(BetweenCommand):
    STEP: ClassVar[str] = "care"
    ROLLS: ClassVar[bool] = True


@dataclass(frozen=True, slots=True)
class OfferMissions(BetweenCommand):
    """Roll 2 or 3 candidate missions on the codex generation tables (R-ADD-251); once
    per phase, at mission select, before the choice."""

    STEP: ClassVar[str] = "select"
    ROLLS: ClassVar[bool] = True
    count: int = 3


@dataclass(frozen=True, slots=True)
class SelectMission(BetweenCommand):
    """Plan the next mission (named, or one of the offers) and close the phase, revealing
    its dice secret (hex)."""

    STEP: ClassVar[str] = "select"
    next_mission_id: str = ""
    name: str = ""
    secret: str = ""
    offer: str = ""


@dataclass(frozen=True, slots=True)
class GeneratePilot(BetweenCommand):
    """Roll a recruit on the pilot generation tables while a phase is open, at any step
    (R-ADD-252): background, a starting trait (simple or complex), motivation, quirk and
    appearance; 'Chosen' rolls the simple table twice more."""

    ROLLS: ClassVar[bool] = True
    complex_trait: bool = False


@dataclass(frozen=True, slots=True)
class OverrideGrit(BetweenCommand):
    """The GM sets a pilot's Grit (0…3) or returns it to the record (-1), with a reason."""

    ADJUSTMENT: ClassVar[bool] = True
    pilot_id: str = ""
    grit: int = -1
    reason: str = ""


@dataclass(frozen=True, slots=True)
class SidelinePilot(BetweenCommand):
    """The GM rules a pilot out of the next mission, with a reason (R-ADD-250)."""

    ADJUSTMENT: ClassVar[bool] = True
    pilot_id: str = ""
    reason: str = ""


# --- what a command decides on ---------------------------------------------------------------------


class _Run:
    """The events of one command, each folded at once so later rules see the change."""

    def __init__(self, state: CampaignState, roller: Roller | None, scope: str) -> None:
        self.state = state
        self.events: list[Event] = []
        self.roller = roller
        self.scope = scope
        self.book: Rulebook = rulebook(state.settlement.version)

    @property
    def ledger(self) -> lg.Ledger:
        settlement: lg.Ledger = self.state.settlement
        return settlement

    def emit(self, event: Event) -> None:
        self.events.append(event)
        self.state = domain.evolve(self.state, event)

    def faces(self, die: int, count: int, purpose: str) -> tuple[int, ...]:
        if self.roller is None:
            raise TypeError("this step rolls: decide needs a roller")
        return self.roller.roll(die, count, purpose=purpose)

    def roll_table(
        self,
        table: Table,
        purpose: str,
        *,
        modifier: int = 0,
        pilot_id: str = "",
        override: tuple[str, str] | None = None,
    ) -> Entry:
        """Roll a table's die, record the roll, and return the row (a GM's override with
        its reason replaces the row; the dice stay recorded)."""
        chosen: Entry | None = None
        reason = ""
        if override is not None:
            chosen, reason = table.entry(override[0]), _reason(override[1])
        face = self.faces(table.die, 1, purpose)
        total = face[0] + modifier
        rolled = table.lookup(total)
        chosen = chosen or rolled
        self._record(
            table.key,
            table.die,
            face,
            modifier,
            total,
            chosen.id,
            rolled.id,
            purpose,
            pilot_id,
            reason,
        )
        return chosen

    def roll_check(
        self,
        name: str,
        die: int,
        modifier: int,
        target: int,
        purpose: str,
        pilot_id: str,
        *,
        passed: str = "saved",
        failed: str = "failed",
    ) -> bool:
        """Roll one die + modifier against a target (saves, surgery, healing); recorded."""
        faces = self.faces(die, 1, purpose)
        total = faces[0] + modifier
        ok = total >= target
        outcome = passed if ok else failed
        self._record(name, die, faces, modifier, total, outcome, outcome, purpose, pilot_id)
        return ok

    def roll_dice(self, die: int, count: int, purpose: str, *, pilot_id: str = "") -> int:
        faces = self.faces(die, count, purpose)
        total = sum(faces)
        self._record(f"d{die}", die, faces, 0, total, str(total), str(total), purpose, pilot_id)
        return total

    def _record(
        self,
        table: str,
        die: int,
        faces: tuple[int, ...],
        modifier: int,
        total: int,
        outcome: str,
        rolled: str,
        purpose: str,
        pilot_id: str = "",
        override_reason: str = "",
    ) -> None:
        assert self.roller is not None
        self.emit(
            lg.RollMade(
                self.scope,
                self.ledger.rolls_in(self.scope),
                table,
                self.book.version,
                die,
                faces,
                modifier,
                total,
                outcome,
                rolled,
                self.roller.source,
                purpose,
                pilot_id,
                override_reason,
            )
        )

    # resources

    def change(self, resource: str, delta: int, reason: str, rule: str) -> int:
        """Move a resource, within its caps: Credits above the bank cap are lost, population
        and morale stay in their range; Credits may go below 0 (debt, R-ADD-242)."""
        caps = self.book.settlement["caps"]
        before = int(getattr(self.ledger, resource))
        after = before + delta
        if resource == "credits" and delta > 0:
            after = min(after, max(before, int(caps["credits"])))
        elif resource == "population":
            after = max(0, min(after, int(caps["population"])))
        elif resource == "morale":
            low, high = caps["morale"]
            after = max(int(low), min(after, int(high)))
        elif resource in ("scrap", "stability", "instability"):
            after = max(0, after)
        if after != before:
            self.emit(lg.SettlementChanged(resource, after - before, after, reason, rule))
        return after - before

    def short_of(self, credits: int, scrap: int) -> bool:
        """Whether the settlement holds fewer Credits or less Scrap than a cost asks."""
        return (credits > 0 and self.ledger.credits < credits) or (
            scrap > 0 and self.ledger.scrap < scrap
        )

    def pay(self, credits: int, scrap: int, reason: str, rule: str) -> None:
        """A cost out of the settlement: its Credits, then its Scrap, each when there is any."""
        if credits:
            self.change("credits", -credits, reason, rule)
        if scrap:
            self.change("scrap", -scrap, reason, rule)

    def pilot_morale(self, pilot_id: str, delta: int, reason: str) -> None:
        rules = self.book.rules["pilot_morale"]
        before = self.ledger.pilot(pilot_id).morale
        after = max(int(rules["minimum"]), min(before + delta, int(rules["maximum"])))
        if after != before:
            self.emit(lg.PilotMoraleChanged(pilot_id, after - before, after, reason))

    def taint(self, pilot_id: str, delta: int, reason: str) -> None:
        """Taint under pc-1 stops at the Corruption threshold (R-ADD-240)."""
        cap = int(self.book.rules["corruption"]["cap"])
        before = self.state.pilots[pilot_id].taint
        after = max(0, min(before + delta, cap))
        if after != before:
            self.emit(domain.TaintChanged(pilot_id, after - before, after, reason, ""))

    def living(self) -> list[domain.PilotState]:
        return sorted(
            (p for p in self.state.pilots.values() if p.status == domain.ALIVE),
            key=lambda p: p.id,
        )


def _reason(reason: object) -> str:
    if not isinstance(reason, str) or not reason.strip() or len(reason) > 500:
        raise InvalidInput(
            "reason", "a GM override needs a reason of 1 to 500 characters", "R-ADD-248"
        )
    return reason.strip()


_AMOUNT = re.compile(r"^(-?)(?:(\d+)d(\d+)(?:x(\d+))?|(\d+))$")


def _amount(run: _Run, amount: str, purpose: str) -> int:
    """'2', '-1', '1d6', '-2d6x10': a fixed amount or a roll (recorded)."""
    m = _AMOUNT.match(amount)
    if m is None:
        raise ValueError(f"bad amount {amount!r} in ruleset {run.book.version}")
    sign = -1 if m.group(1) else 1
    if m.group(5):
        return sign * int(m.group(5))
    total = run.roll_dice(int(m.group(3)), int(m.group(2)), purpose)
    return sign * total * int(m.group(4) or 1)


def _apply(run: _Run, mission_id: str, effects: Sequence[Mapping[str, Any]], why: str) -> None:
    """Apply a table row's effects; a `note` is for the GM and changes nothing."""
    for effect in effects:
        if "resource" in effect:
            delta = _amount(run, str(effect["amount"]), f"{why}: amount")
            run.change(str(effect["resource"]), delta, why, "R-ADD-232")
        elif "value_lost" in effect:
            # the codex's example keeps the treasury: the value is the equipment's, lost
            _amount(run, str(effect["value_lost"]), f"{why}: value lost")
        elif "loot" in effect:
            _loot(run, str(effect["loot"]), why)
        elif "item" in effect:
            run.emit(lg.ItemStored(str(effect["item"]), str(effect["item"]).title(), why))
        elif "chance" in effect:
            chance = effect["chance"]
            face = run.roll_dice(int(chance["die"]), 1, f"{why}: chance")
            low, high = chance["roll"]
            if int(low) <= face <= int(high):
                _apply(run, mission_id, chance["then"], why)
        elif "upkeep_multiplier" in effect:
            extra = _upkeep(run) * (int(effect["upkeep_multiplier"]) - 1)
            run.change("credits", -extra, f"{why}: upkeep again", "R-ADD-232")
        elif "random_pilot_injury" in effect:
            living = run.living()
            if living:
                pick = run.roll_dice(len(living), 1, f"{why}: which pilot")
                pilot = living[pick - 1]
                run.emit(lg.PilotInjured(pilot.id, str(effect["random_pilot_injury"]), why))
        elif "pilot_morale" in effect:
            for pilot in run.living():
                run.pilot_morale(pilot.id, int(effect["pilot_morale"]), why)
        elif "scrap_price_bonus" in effect:
            run.emit(
                lg.PhaseModifier(mission_id, "scrap_price_bonus", int(effect["scrap_price_bonus"]))
            )
        elif "construction_discount" in effect:
            run.emit(
                lg.PhaseModifier(
                    mission_id, "construction_discount", int(effect["construction_discount"])
                )
            )
        elif "willpower_save" in effect:
            save = effect["willpower_save"]
            for pilot in run.living():
                passed = run.roll_check(
                    "willpower-save",
                    int(save["die"]),
                    grit(run.state, pilot.id).value,
                    int(save["target"]),
                    f"{why}: {pilot.name}'s Willpower save",
                    pilot.id,
                )
                if not passed:
                    run.taint(pilot.id, int(save["fail_taint"]), f"{why}: failed Willpower save")
        elif "note" not in effect:
            raise ValueError(f"unknown effect {sorted(effect)} in ruleset {run.book.version}")


def _loot(run: _Run, table_key: str, why: str) -> None:
    """Roll a loot table, following 'roll on the next table' rows (loot-tables.md)."""
    entry = run.roll_table(run.book.table(f"loot.{table_key}"), f"{why}: {table_key} loot")
    if "roll_on" in entry.data:
        _loot(run, str(entry.data["roll_on"]), why)
        return
    gain = entry.data.get("gain")
    if gain:
        for resource, amount in gain.items():
            run.change(
                resource, _amount(run, str(amount), f"{entry.name}"), entry.name, "R-ADD-235"
            )
        return
    run.emit(lg.ItemStored(entry.id, entry.name, why))


def _upkeep(run: _Run) -> int:
    """Base + 5 per full 10 population + 10 per active pilot + building upkeep (codex
    settlement phase step 2b, R-ADD-242)."""
    rules = run.book.settlement["upkeep"]
    per, amount = rules["per_population"]
    pilots = len(run.living())
    buildings = sum(
        int(run.book.building(b.id).get("upkeep", 0)) for b in run.ledger.buildings if b.standing
    )
    return (
        int(rules["base"])
        + run.ledger.population // int(per) * int(amount)
        + pilots * int(rules["per_pilot"])
        + buildings
    )


def _debt(run: _Run, why: str) -> None:
    """+1 Instability per 50 Credits of debt, each time a step ends in debt (R-ADD-242)."""
    if run.ledger.credits < 0:
        per = int(run.book.settlement["debt"]["instability_per"])
        run.change("instability", math.ceil(-run.ledger.credits / per), f"{why}: debt", "R-ADD-242")


# --- Grit -----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class GritReading:
    """A pilot's Grit from the record (R-ADD-233): missions survived, severe wounds
    survived, the faction's start; a GM's override wins, with its reason."""

    value: int
    recorded: int
    missions: int
    severe: int
    override: int | None = None
    reason: str = ""
    check_modifier: int = 0  # on Grit checks only: trauma carried, faction
    notes: tuple[str, ...] = field(default=())


def _band(pairs: Sequence[Sequence[int]], count: int) -> int:
    return max((int(level) for at, level in pairs if count >= int(at)), default=0)


def grit(state: CampaignState, pilot_id: str) -> GritReading:
    """Grit 0…3: the higher of the missions ladder (5/10/20) and the severe ladder
    (1/3/5), plus the faction's start, capped at 3 (pilot-grit-system.md).

    >>> from campaigns.domain import CampaignCreated, PilotEnlisted, replay
    >>> s = replay([CampaignCreated("c", "A", "gm", True, {}), lg.CampaignRulesPinned("pc-1", ()),
    ...             PilotEnlisted("p", "ann", "Ash", "church", 0)])
    >>> grit(s, "p").value
    1
    """
    ledger: lg.Ledger = state.settlement
    rules = rulebook(ledger.version).rules["grit"]
    pilot = state.pilots[pilot_id]
    record = ledger.pilot(pilot_id)
    completed = {m.id for m in state.missions if m.status == "completed"}
    missions = sum(1 for m in pilot.missions if m in completed)
    severe = sum(1 for w in pilot.wounds if w.kind == "severe") + record.severe_treated
    recorded = max(_band(rules["missions"], missions), _band(rules["severe"], severe))
    recorded += sum(bonus(state, pilot_id) for bonus in GRIT_BONUSES)
    recorded += pilot.grit_gained  # R-ADD-411: a card's "+1 Grit permanently"
    recorded = min(
        int(rules["maximum"]), recorded + int(rules["faction_start"].get(pilot.faction, 0))
    )
    check = int(rules["faction_check"].get(pilot.faction, 0)) + record.grit_check_bonus
    if any(w.kind == "trauma" for w in pilot.wounds):
        check += int(rules["trauma_check"])
    notes = []
    severe_bonus = int(rules["faction_check_severe"].get(pilot.faction, 0))
    if severe_bonus:
        notes.append(f"+{severe_bonus} on Grit checks against severe wounds")
    value = record.grit_override if record.grit_override is not None else recorded
    return GritReading(
        value,
        recorded,
        missions,
        severe,
        record.grit_override,
        record.grit_reason,
        check,
        tuple(notes),
    )


def scars_due(state: CampaignState, pilot_id: str) -> int:
    """Scheduled scars owed: 1 per 3 completed missions, less those taken (R-ADD-236).

    >>> from campaigns.domain import CampaignCreated, PilotEnlisted, replay
    >>> s = replay([CampaignCreated("c", "A", "gm", True, {}), lg.CampaignRulesPinned("pc-1", ()),
    ...             PilotEnlisted("p", "ann", "Ash", "church", 0)])
    >>> scars_due(s, "p")
    0
    """
    ledger: lg.Ledger = state.settlement
    every = int(rulebook(ledger.version).rules["scars"]["every_missions"])
    reading = grit(state, pilot_id)
    return max(0, reading.missions // every - ledger.pilot(pilot_id).scheduled_scars)


# --- decide ---------------------------------------------------------------------------------------


def require_module(ledger: lg.Ledger, module: str, what: str, rule: str) -> None:
    """Refused unless the campaign plays the optional `module` that `what` belongs to."""
    if module not in ledger.modules:
        raise RuleViolation(
            "module_off",
            f"{what} belongs to the {module_name(ledger.version, module)} module, which this "
            "campaign does not play",
            rule,
        )


def settlement_of(state: CampaignState, command: object, *, gm_only: bool, lacks: str) -> lg.Ledger:
    """The campaign's ledger for a command between missions: refused when it is the GM's and
    the actor is not (R-ADD-31), or when the campaign plays plt-1, which has no `lacks`
    (R-ADD-230)."""
    if gm_only:
        raise RuleViolation(
            "gm_only", f"only the campaign's GM may {type(command).__name__}", "R-ADD-31"
        )
    ledger: lg.Ledger | None = state.settlement
    if ledger is None:
        raise RuleViolation(
            "no_settlement_phase",
            f"this campaign plays the plt-1 campaign rules (R-PLT-1…5), which have no {lacks}",
            "R-ADD-230",
        )
    return ledger


def at_step(phase: lg.PhaseState, step: str) -> None:
    """Refused unless `step` is the phase's next step not yet done: the steps run in the
    game's order (R-ADD-249)."""
    expected = next((s for s in STEPS if s not in phase.steps), None)
    if expected != step:
        raise RuleViolation(
            "step_out_of_order",
            f"the settlement phase is at step {expected}, not {step}; "
            "the steps run in the game's order",
            "R-ADD-249",
        )


def decide(
    state: CampaignState,
    command: BetweenCommand,
    *,
    actor_is_gm: bool,
    roller: Roller | None = None,
) -> list[Event]:
    """The events of one between-missions command; refusals raise RuleViolation or
    InvalidInput and change nothing."""
    ledger = settlement_of(
        state,
        command,
        gm_only=command.GM_ONLY and not actor_is_gm,
        lacks="settlement phase; a campaign created under pc-1 has one",
    )
    mission = state.mission(command.mission_id)
    if isinstance(command, (OverrideGrit, SidelinePilot)):
        return _gm_pilot(state, command, mission)
    if isinstance(command, OpenPhase):
        return _open(state, command, mission)
    phase = ledger.phase(mission.id)
    if phase is None:
        raise RuleViolation(
            "phase_not_open",
            f"the settlement phase after mission {mission.number} is not open",
            "R-ADD-249",
        )
    if phase.closed:
        raise RuleViolation(
            "phase_done",
            f"the settlement phase after mission {mission.number} is done; a phase is played once",
            "R-ADD-249",
        )
    if isinstance(command, GeneratePilot):
        run = _Run(state, roller, phase.scope)
        _generate(run, command, mission)
        return run.events
    if command.STEP in phase.steps:
        raise RuleViolation(
            "step_done",
            f"step {command.STEP} of the settlement phase after mission {mission.number} "
            "is done; each step is played once",
            "R-ADD-249",
        )
    at_step(phase, command.STEP)
    if command.ROLLS and roller is None:
        raise TypeError(f"{type(command).__name__} rolls: decide needs a roller")
    run = _Run(state, roller, phase.scope)
    handler = _STEPS[type(command)]
    handler(run, command, mission)
    return run.events


def _open(state: CampaignState, c: OpenPhase, mission: domain.MissionState) -> list[Event]:
    ledger: lg.Ledger = state.settlement
    if mission.status != "completed":
        raise RuleViolation(
            "mission_not_completed",
            f"mission {mission.number} is {mission.status}; its settlement phase follows "
            "its outcome",
            "R-ADD-249",
        )
    if ledger.phase(mission.id) is not None:
        raise RuleViolation(
            "phase_done" if ledger.phase(mission.id).closed else "phase_open",  # type: ignore[union-attr]
            f"the settlement phase after mission {mission.number} was opened before; "
            "a phase is played once",
            "R-ADD-249",
        )
    if not re.fullmatch(r"[0-9a-f]{64}", c.commitment):
        raise InvalidInput("commitment", "must be a SHA-256 in hex", "R-ADD-248")
    events: list[Event] = [lg.PhaseOpened(mission.id, f"phase-{mission.number}", c.commitment)]
    deployed = {d[1] for d in mission.deployments}
    for pilot_id, wound in c.minor_wounds:
        if pilot_id not in deployed:
            raise InvalidInput(
                "minor_wounds", f"pilot {pilot_id} was not in mission {mission.number}"
            )
        kind = domain.wound_kind(wound)
        # A severe wound a Grit check eased counts as minor this mission; the outcome kept
        # every other severe wound (R-ADD-305).
        kept = any(w.wound == wound for w in state.pilots[pilot_id].wounds)
        if kind == "trauma" or (kind == "severe" and kept):
            raise InvalidInput(
                "minor_wounds",
                f"{wound} is not a minor wound or a severe wound a Grit check eased",
                "R-ADD-239",
            )
        if state.pilots[pilot_id].status == domain.ALIVE:
            events.append(
                lg.PilotInjured(
                    pilot_id, wound, f"minor wound kept after mission {mission.number} (R-ADD-239)"
                )
            )
    for pilot_id in c.grit_checked:
        if pilot_id not in deployed:
            raise InvalidInput(
                "grit_checked", f"pilot {pilot_id} was not in mission {mission.number}"
            )
        bonus = min(ledger.pilot(pilot_id).grit_check_bonus, GRIT_BONUS_MAX)
        if bonus > 0:
            events.append(
                lg.GritCheckBonus(
                    pilot_id,
                    -bonus,
                    f"spent on a Grit check in mission {mission.number} (R-ADD-305)",
                )
            )
    return events


def _dead_in(run: _Run, mission: domain.MissionState) -> list[domain.PilotState]:
    deployed = [run.state.pilots[d[1]] for d in mission.deployments]
    return [p for p in deployed if p.status == domain.DEAD]


def _casualties(run: _Run, c: ResolveCasualties, mission: domain.MissionState) -> None:
    dead = _dead_in(run, mission)
    rules = run.book.rules["death"]
    if c.memorial and not dead:
        raise RuleViolation(
            "no_casualties", f"nobody died in mission {mission.number}; no memorial", DEATH_RULE
        )
    if c.memorial and run.ledger.credits < int(rules["memorial"]["credits"]):
        raise RuleViolation(
            "unaffordable",
            f"a memorial costs {rules['memorial']['credits']} Credits; the settlement has "
            f"{run.ledger.credits}",
            DEATH_RULE,
        )
    for pilot in dead:
        why = f"death of {pilot.name} in mission {mission.number}"
        run.change("morale", int(run.book.settlement["pilot_death_morale"]), why, "R-ADD-231")
        for survivor in run.living():
            run.pilot_morale(survivor.id, int(rules["survivors_morale"]), why)
        entry = run.roll_table(run.book.table("death"), f"death consequence for {pilot.name}")
        _apply(run, mission.id, entry.data["effects"], f"{entry.name} ({pilot.name})")
        if entry.id == "inspiring-sacrifice":
            for survivor in run.living():
                run.emit(lg.GritCheckBonus(survivor.id, 1, f"{pilot.name}'s sacrifice"))
        if entry.id == "grief":
            for survivor in run.living():
                run.pilot_morale(survivor.id, -1, f"grief for {pilot.name}")
    if c.memorial:
        memorial = rules["memorial"]
        run.change("credits", -int(memorial["credits"]), "memorial service", DEATH_RULE)
        for survivor in run.living():
            run.pilot_morale(survivor.id, int(memorial["pilot_morale"]), "memorial service")
        run.change("stability", int(memorial["stability"]), "memorial service", DEATH_RULE)
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _rewards(run: _Run, c: ResolveRewards, mission: domain.MissionState) -> None:
    drops = run.book.rules["drops"]
    for i, objective in enumerate(c.objectives):
        if objective not in OBJECTIVES:
            raise InvalidInput(
                f"objectives[{i}]", f"must be one of {', '.join(OBJECTIVES)}", "R-ADD-235"
            )
    if len(set(c.objectives)) != len(c.objectives):
        raise InvalidInput("objectives", "each objective counts once", "R-ADD-235")
    enemies = dict(c.enemies)
    for name, count in c.enemies:
        if name not in ENEMY_CLASSES:
            raise InvalidInput(
                f"enemies.{name}", f"must be one of {', '.join(ENEMY_CLASSES)}", "R-ADD-235"
            )
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 50:
            raise InvalidInput(f"enemies.{name}", "must be a whole number from 0 to 50")
    result = run.book.settlement["mission_result"]["win" if c.success else "loss"]
    why = f"mission {mission.number} {'won' if c.success else 'lost'}"
    for resource in ("morale", "population"):
        if resource in result:
            run.change(resource, int(result[resource]), why, "R-ADD-231")
    for objective in c.objectives:
        reward = drops["mission"][objective]
        run.change("credits", int(reward["credits"]), f"{objective} objective", "R-ADD-235")
        for table in reward["loot"]:
            _loot(run, str(table), f"{objective} objective")
    for name in ENEMY_CLASSES:
        rule = drops["enemies"][name]
        for n in range(enemies.get(name, 0)):
            why = f"{name} {n + 1} defeated"
            if int(rule["chance"]) < 100:
                face = run.roll_dice(100, 1, f"{why}: drops loot on {rule['chance']} or less")
                if face > int(rule["chance"]):
                    continue
            for _ in range(int(rule["rolls"])):
                _loot(run, str(rule["table"]), why)
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _salvage(run: _Run, c: RollSalvage, mission: domain.MissionState) -> None:
    table = run.book.table("salvage")
    stat = int(run.book.rules["salvage"]["stat"])
    entry = run.roll_table(table, "salvage roll", modifier=stat, override=c.override)
    _apply(run, mission.id, entry.data["effects"], f"salvage: {entry.name}")
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _pilots(run: _Run, c: ResolvePilots, mission: domain.MissionState) -> None:
    rules = run.book.rules
    tables = dict(c.scar_tables)
    choices = dict(c.scar_choices)
    for key in (*tables, *choices):
        if key not in run.state.pilots:
            raise InvalidInput("scar_tables", f"no pilot {key} in this campaign")
    for pilot_id, table_key in tables.items():
        if f"scars.{table_key}" not in run.book.tables:
            known = ", ".join(k.split(".", 1)[1] for k in run.book.tables if k.startswith("scars."))
            raise InvalidInput(
                f"scar_tables.{pilot_id}", f"no scar table {table_key!r}; tables: {known}"
            )
    corruption = rules["corruption"]
    for pilot in run.living():
        if pilot.taint >= int(corruption["threshold"]):
            saved = run.roll_check(
                "corruption-save",
                int(corruption["die"]),
                grit(run.state, pilot.id).value if corruption["add_grit"] else 0,
                int(corruption["succeeds_from"]),
                f"{pilot.name}'s Corruption save",
                pilot.id,
                failed="corrupted",
            )
            if saved:
                run.taint(pilot.id, 0, "Taint stops at 10 under pc-1 (R-ADD-240)")
            else:
                run.emit(
                    domain.PilotRetired(
                        pilot.id, "lost to corruption: failed the Corruption save (R-ADD-240)"
                    )
                )
    maximum = int(rules["scars"]["maximum"])
    for pilot in run.living():
        if scars_due(run.state, pilot.id) <= 0:
            continue
        if len(pilot.scars) >= maximum:
            continue  # retired at the fifth already; no sixth scar (R-ADD-236)
        table = run.book.table(f"scars.{tables.get(pilot.id, 'physical')}")
        entry = run.roll_table(table, f"{pilot.name}'s scar", pilot_id=pilot.id)
        if entry.data.get("choose"):
            choice = choices.get(pilot.id)
            if choice is None:
                raise InvalidInput(
                    f"scar_choices.{pilot.id}",
                    f"{pilot.name} rolled a {table.die} on {table.key}: the player chooses a scar "
                    "from that table; send it and the same dice again",
                    "R-ADD-236",
                )
            picked = table.entry(choice)
            if picked.data.get("choose"):
                raise InvalidInput(f"scar_choices.{pilot.id}", "choose a scar, not the choice")
            entry = picked
        run.emit(
            lg.ScarTaken(
                pilot.id,
                entry.name,
                table.key,
                True,
                f"every {rules['scars']['every_missions']} "
                f"completed missions (mission {mission.number})",
            )
        )
        if len(run.state.pilots[pilot.id].scars) >= maximum:
            run.emit(domain.PilotRetired(pilot.id, f"{maximum} scars: retired (R-ADD-236)"))
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _income(run: _Run, c: CollectIncome, mission: domain.MissionState) -> None:
    for b in run.ledger.buildings:
        if not b.standing:
            run.emit(lg.ConstructionAdvanced(b.id, b.phases_left - 1))
    for b in run.ledger.buildings:
        if not b.standing:
            continue
        income = run.book.building(b.id).get("income", {})
        for resource in ("credits", "scrap"):
            if resource in income:
                run.change(resource, int(income[resource]), f"{b.id} income", "R-ADD-242")
        if "item" in income:
            run.emit(lg.ItemStored(str(income["item"]), str(income["item"]), f"{b.id} income"))
    run.change("credits", -_upkeep(run), "upkeep", "R-ADD-242")
    _debt(run, "upkeep")
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _event(run: _Run, c: RollEvent, mission: domain.MissionState) -> None:
    entry = run.roll_table(run.book.table("events"), "settlement event", override=c.override)
    _apply(run, mission.id, entry.data["effects"], entry.name)
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def refuse_unaffordable(run: _Run, what: str, credits: int, scrap: int, rule: str) -> None:
    """Refuse a cost the settlement cannot pay, with what it has of both."""
    if run.short_of(credits, scrap):
        raise RuleViolation(
            "unaffordable",
            f"{what} costs {credits} Credits and {scrap} Scrap; the settlement has "
            f"{run.ledger.credits} Credits and {run.ledger.scrap} Scrap",
            rule,
        )


def slots(ledger: lg.Ledger) -> int:
    """Building slots: 3, +2 at population 20, +2 at 35, at most 7 (settlements.md)."""
    rules = rulebook(ledger.version).settlement["slots"]
    total = int(rules["start"]) + sum(
        int(n) for at, n in rules["unlocks"] if ledger.population >= int(at)
    )
    return min(total, int(rules["maximum"]))


def _build(run: _Run, mission: domain.MissionState, building_id: str) -> tuple[int, int]:
    book = run.book
    building = book.building(building_id)
    ledger = run.ledger
    if any(b.id == building_id for b in ledger.buildings):
        raise RuleViolation(
            "building_exists", f"{building['name']} stands or is being built", "R-ADD-231"
        )
    tier_at = int(book.settlement["tiers"][str(building["tier"])])
    if ledger.population < tier_at:
        raise RuleViolation(
            "building_tier",
            f"{building['name']} is tier {building['tier']}: it needs population {tier_at}; "
            f"the settlement has {ledger.population}",
            "R-ADD-231",
        )
    missing = [r for r in building["requires"] if not ledger.standing(r)]
    if missing:
        raise RuleViolation(
            "building_prerequisite",
            f"{building['name']} requires {', '.join(book.building(r)['name'] for r in missing)} "
            "standing",
            "R-ADD-231",
        )
    if "faction" in building and "faction_relationships" not in ledger.modules:
        raise RuleViolation(
            "building_module",
            f"{building['name']} is a faction building: it needs the faction_relationships module",
            "R-ADD-246",
        )
    if len(ledger.buildings) >= slots(ledger):
        raise RuleViolation(
            "no_building_slot",
            f"all {slots(ledger)} building slots are taken (more at population 20 and 35)",
            "R-ADD-231",
        )
    phase = ledger.phase(mission.id)
    assert phase is not None
    discount = phase.modifier("construction_discount")
    credits = int(building["credits"]) * (100 - discount) // 100
    scrap = int(building["scrap"])
    refuse_unaffordable(run, building["name"], credits, scrap, "R-ADD-231")
    if discount:
        run.emit(lg.PhaseModifier(mission.id, "construction_discount", 0))
    run.emit(lg.ConstructionStarted(building_id, int(building["phases"]), credits, scrap))
    return credits, scrap


def _action(run: _Run, c: TakeAction, mission: domain.MissionState) -> None:
    book = run.book
    if c.player not in run.state.players:
        raise InvalidInput("player", f"{c.player!r} is not a player of this campaign", "R-ADD-243")
    action = book.action(c.action)
    phase = run.ledger.phase(mission.id)
    assert phase is not None
    per = int(book.settlement["actions_per_player"])
    taken = [a for a in phase.actions if a.player == c.player]
    if len(taken) >= per:
        raise RuleViolation(
            "no_actions_left",
            f"{c.player} has taken {per} settlement actions this phase",
            "R-ADD-243",
        )
    if action.get("once_per_phase") and any(a.action == c.action for a in phase.actions):
        raise RuleViolation(
            "once_per_phase", f"{action['name']} is taken once per settlement phase", "R-ADD-243"
        )
    if "building" in action and not run.ledger.standing(str(action["building"])):
        raise RuleViolation(
            "building_missing",
            f"{action['name']} needs {book.building(str(action['building']))['name']} standing",
            "R-ADD-243",
        )
    pilot: domain.PilotState | None = None
    if action.get("pilot"):
        if c.pilot_id not in run.state.pilots:
            raise InvalidInput("pilot", f"{action['name']} is for a pilot: no pilot {c.pilot_id!r}")
        pilot = run.state.pilots[c.pilot_id]
        if pilot.status != domain.ALIVE:
            raise RuleViolation("pilot_unavailable", f"{pilot.name} is {pilot.status}", "R-ADD-243")
    module = action.get("module")
    if module:
        require_module(run.ledger, module, action["name"], "R-ADD-230")
    credits = int(action.get("credits", 0))
    scrap = int(action.get("scrap", 0))
    if c.action != "build":
        refuse_unaffordable(run, action["name"], credits, scrap, "R-ADD-243")
    why = f"{action['name']} ({c.player})"
    if c.action == "build":
        credits, scrap = _build(run, mission, c.detail)
    elif c.action in ("rest", "socialize"):
        assert pilot is not None
        run.pilot_morale(pilot.id, int(action["pilot_morale"]), why)
    elif c.action == "train":
        assert pilot is not None
        if c.detail not in action["skill"]:
            raise InvalidInput("detail", f"train one of {', '.join(action['skill'])}", "R-ADD-243")
        level = dict(run.ledger.pilot(pilot.id).skills).get(c.detail, 0)
        if level >= int(action["skill_max"]):
            raise RuleViolation(
                "skill_max", f"{pilot.name}'s {c.detail} is at its most, +{level}", "R-ADD-243"
            )
        run.emit(lg.SkillTrained(pilot.id, c.detail, level + 1))
    elif c.action == "scavenge":
        roll = action["roll"]
        face = run.roll_dice(int(roll["die"]), 1, "scavenge")
        if face >= int(roll["scrap_from"]):
            run.change("scrap", 1, "scavenge", "R-ADD-243")
        if face >= int(roll["credits_on"]):
            run.change(
                "credits",
                _amount(run, str(roll["credits"]), "scavenge Credits"),
                "scavenge",
                "R-ADD-243",
            )
    elif c.action == "sell-scrap":
        count = _count(c.detail)
        if count > run.ledger.scrap:
            raise RuleViolation(
                "unaffordable",
                f"selling {count} Scrap; the settlement has {run.ledger.scrap}",
                "R-ADD-243",
            )
        price = int(book.settlement["scrap_price"]) + phase.modifier("scrap_price_bonus")
        run.change("scrap", -count, why, "R-ADD-243")
        run.change("credits", count * price, why, "R-ADD-243")
    elif c.action in ("treat", "surgery", "trauma-surgery"):
        assert pilot is not None
        _treat(run, c.action, pilot, c.detail, why)
    elif c.action == "cleansing":
        assert pilot is not None
        run.taint(pilot.id, int(action["taint"]), why)
    elif c.action == "field-repair":
        pass  # the casket's discarded cards are the next battle's; the GM applies them
    elif module:
        assert pilot is not None
        MODULE_ACTIONS[c.action](run, action, pilot, c.detail)
    if c.action != "build":
        run.pay(credits, scrap, why, "R-ADD-243")
    else:
        run.change("credits", -credits, f"building {c.detail}", "R-ADD-231")
        run.change("scrap", -scrap, f"building {c.detail}", "R-ADD-231")
    run.emit(lg.ActionTaken(mission.id, c.player, c.action, c.pilot_id, c.detail, credits, scrap))


def _count(detail: str) -> int:
    if not detail.isdigit() or not 1 <= int(detail) <= 99:
        raise InvalidInput("detail", "the Scrap to sell: a whole number from 1 to 99")
    return int(detail)


def _treat(run: _Run, action: str, pilot: domain.PilotState, injury: str, why: str) -> None:
    """Treat 30: heal a minor injury or make a severe one minor; surgery 100: a severe
    wound heals on 4+, else it is permanent; trauma surgery 200: a trauma wound heals on 4+
    (R-ADD-239)."""
    record = run.ledger.pilot(pilot.id)
    rules = run.book.rules["injuries"]
    carried = {w.wound: w.kind for w in pilot.wounds}
    if action == "treat":
        if injury in record.injuries:
            run.emit(lg.InjuryChanged(pilot.id, injury, "minor", "healed", why))
            return
        if carried.get(injury) == "severe" and injury not in record.permanent:
            run.emit(lg.InjuryChanged(pilot.id, injury, "severe", "downgraded", why))
            return
        raise RuleViolation(
            "no_such_injury",
            f"{pilot.name} has no minor injury or treatable severe wound {injury!r}",
            "R-ADD-239",
        )
    kind = "severe" if action == "surgery" else "trauma"
    if carried.get(injury) != kind or injury in record.permanent:
        raise RuleViolation(
            "no_such_injury",
            f"{pilot.name} carries no {'treatable ' if kind == 'severe' else ''}{kind} wound {injury!r}",
            "R-ADD-239",
        )
    rule = rules["surgery" if kind == "severe" else "trauma_surgery"]
    healed = run.roll_check(
        action,
        int(rule["die"]),
        0,
        int(rule["succeeds_from"]),
        f"{pilot.name}'s {action}",
        pilot.id,
        passed="healed",
        failed="permanent" if kind == "severe" else "failed",
    )
    if healed:
        run.emit(lg.InjuryChanged(pilot.id, injury, kind, "healed", why))
    elif kind == "severe":
        run.emit(lg.InjuryChanged(pilot.id, injury, kind, "permanent", why))


def _finish_actions(run: _Run, c: FinishActions, mission: domain.MissionState) -> None:
    _debt(run, "settlement actions")
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _care(run: _Run, c: PilotCare, mission: domain.MissionState) -> None:
    rules = run.book.rules["injuries"]["natural_healing"]
    for pilot in run.living():
        for injury in run.ledger.pilot(pilot.id).injuries:
            healed = run.roll_check(
                "natural-healing",
                int(rules["die"]),
                0,
                int(rules["heals_from"]),
                f"{pilot.name}'s {injury} heals on {rules['heals_from']}+",
                pilot.id,
                passed="healed",
                failed="persists",
            )
            if healed:
                run.emit(lg.InjuryChanged(pilot.id, injury, "minor", "healed", "heals naturally"))
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))


def _offer(run: _Run, c: OfferMissions, mission: domain.MissionState) -> None:
    rules = run.book.rules["missions"]
    phase = run.ledger.phase(mission.id)
    assert phase is not None
    if phase.offers:
        raise RuleViolation(
            "missions_offered", "this phase's missions were offered; choose one", "R-ADD-251"
        )
    if isinstance(c.count, bool) or c.count not in rules["offers"]:
        allowed = " or ".join(str(n) for n in rules["offers"])
        raise InvalidInput("count", f"the GM offers {allowed} missions", "R-ADD-251")
    offers = []
    for i in range(c.count):
        label = f"offer {i + 1}"
        difficulty = run.roll_table(run.book.table("missions.difficulty"), f"{label}: difficulty")
        faction = run.roll_table(run.book.table("missions.faction"), f"{label}: enemy")
        composition = run.roll_table(
            run.book.table(f"missions.composition.{difficulty.id}"), f"{label}: composition"
        )
        summary = composition.name
        chance = run.roll_dice(6, 1, f"{label}: a modifier on {rules['modifier_on']}")
        if chance >= int(rules["modifier_on"]):
            modifier = run.roll_table(run.book.table("missions.modifier"), f"{label}: modifier")
            summary += f"; {modifier.name}"
        offers.append((f"offer-{i + 1}", f"{difficulty.name}: {faction.name}", summary))
    run.emit(lg.MissionsOffered(mission.id, tuple(offers)))


def _generate(run: _Run, c: GeneratePilot, mission: domain.MissionState) -> None:
    rows: list[tuple[str, str]] = []

    def roll(key: str) -> Entry:
        entry = run.roll_table(run.book.table(f"pilots.{key}"), f"recruit: {key}")
        rows.append((key, entry.name))
        return entry

    roll("background")
    if c.complex_trait:
        roll("complex-trait")
    elif roll("trait").data.get("roll_twice"):
        roll("trait")
        roll("trait")
    roll("motivation")
    roll("quirk")
    roll("appearance")
    run.emit(lg.PilotGenerated(mission.id, tuple(rows)))


def _select(run: _Run, c: SelectMission, mission: domain.MissionState) -> None:
    name = c.name.strip() if isinstance(c.name, str) else ""
    if c.offer:
        phase = run.ledger.phase(mission.id)
        assert phase is not None
        offered = {o[0]: o for o in phase.offers}
        if c.offer not in offered:
            known = ", ".join(offered) or "none were offered"
            raise InvalidInput("offer", f"no offer {c.offer!r}; offers: {known}", "R-ADD-251")
        name = name or offered[c.offer][1]
    # a mission the GM planned before the phase closed is the next one: nothing to plan
    planned = any(m.status == "planned" and m.number > mission.number for m in run.state.missions)
    if not planned and (not name or len(name) > 120):
        raise InvalidInput("name", "the next mission's name: 1 to 120 characters")
    phase = run.ledger.phase(mission.id)
    assert phase is not None
    secret = bytes.fromhex(c.secret)
    if commitment(secret) != phase.commitment:
        raise ValueError("the dice secret does not match the phase's commitment (R-ADD-248)")
    if not planned and not any(m.id == c.next_mission_id for m in run.state.missions):
        run.emit(domain.MissionPlanned(c.next_mission_id, len(run.state.missions) + 1, name))
    run.emit(lg.PhaseStepDone(mission.id, c.STEP))
    run.emit(lg.PhaseClosed(mission.id, c.secret))


def _gm_pilot(
    state: CampaignState, c: OverrideGrit | SidelinePilot, mission: domain.MissionState
) -> list[Event]:
    pilot = state.pilot(c.pilot_id)
    reason = _reason(c.reason)
    if isinstance(c, OverrideGrit):
        if isinstance(c.grit, bool) or not isinstance(c.grit, int) or not -1 <= c.grit <= 3:
            raise InvalidInput("grit", "Grit is 0 to 3; -1 returns it to the record", "R-ADD-233")
        return [lg.GritOverridden(pilot.id, c.grit, reason)]
    nxt = max((m.number for m in state.missions), default=0)
    upcoming = next((m for m in state.missions if m.status == "planned"), None)
    number = upcoming.number if upcoming is not None else nxt + 1
    return [lg.PilotSidelined(pilot.id, number, reason)]


_STEPS: Mapping[type[BetweenCommand], Any] = {
    ResolveCasualties: _casualties,
    ResolveRewards: _rewards,
    RollSalvage: _salvage,
    ResolvePilots: _pilots,
    CollectIncome: _income,
    RollEvent: _event,
    TakeAction: _action,
    FinishActions: _finish_actions,
    PilotCare: _care,
    OfferMissions: _offer,
    SelectMission: _select,
}


# --- checking the dice ----------------------------------------------------------------------------


def check_rolls(state: CampaignState) -> list[str]:
    """Every sealed roll of every closed phase derived again from its revealed secret;
    the problems found (none when the dice were fair).

    >>> from campaigns.domain import CampaignCreated, replay
    >>> check_rolls(replay([CampaignCreated("c", "A", "gm", True, {}), lg.CampaignRulesPinned("pc-1", ())]))
    []
    """
    ledger: lg.Ledger = state.settlement
    problems: list[str] = []
    for phase in ledger.phases:
        if not phase.closed:
            continue
        secret = bytes.fromhex(phase.secret)
        if commitment(secret) != phase.commitment:
            problems.append(f"{phase.scope}: the revealed secret does not match the commitment")
            continue
        for roll in ledger.rolls:
            if roll.scope != phase.scope or roll.source != "sealed":
                continue
            expected = derive_faces(secret, roll.scope, roll.index, roll.die, len(roll.faces))
            if expected != roll.faces:
                problems.append(
                    f"{roll.scope} roll {roll.index} ({roll.purpose}): recorded {list(roll.faces)}, "
                    f"the secret gives {list(expected)}"
                )
    return problems


# --- what the GM sees at deployment -------------------------------------------------------------


def deployment_notes(state: CampaignState, pilot_id: str) -> tuple[str, ...]:
    """The between-missions rules the battle does not apply itself, as notes for the GM at
    deployment: the Grit check (R-ADD-234), Morale's effect (R-ADD-241), injuries and
    scars (R-ADD-236, R-ADD-239), a sideline (R-ADD-250). Empty under plt-1.

    >>> from campaigns.domain import CampaignCreated, PilotEnlisted, replay
    >>> s = replay([CampaignCreated("c", "A", "gm", True, {}), lg.CampaignRulesPinned("pc-1", ()),
    ...             PilotEnlisted("p", "ann", "Ash", "church", 0)])
    >>> deployment_notes(s, "p")[0]
    'Grit 1: on a Grit check roll 1d6 + 1: 1-3 full wound, 4-5 a severe wound counts as minor, 6-7 no wound and 1 Heat, 8+ no wound (R-ADD-234)'
    """
    ledger: lg.Ledger | None = state.settlement
    if ledger is None:
        return ()
    reading = grit(state, pilot_id)
    record = ledger.pilot(pilot_id)
    pilot = state.pilots[pilot_id]
    modifier = f" {reading.check_modifier:+d}" if reading.check_modifier else ""
    notes = [
        f"Grit {reading.value}: on a Grit check roll 1d6 + {reading.value}{modifier}: 1-3 full "
        "wound, 4-5 a severe wound counts as minor, 6-7 no wound and 1 Heat, 8+ no wound "
        "(R-ADD-234)",
        *(f"{n} (R-ADD-233)" for n in reading.notes),
    ]
    if record.morale >= 6:
        notes.append(f"Morale {record.morale}: +1 to all casket actions (R-ADD-241)")
    elif record.morale <= 2:
        notes.append(f"Morale {record.morale}: -1 to all casket actions (R-ADD-241)")
    if record.injuries:
        notes.append(f"minor injuries carried: {', '.join(record.injuries)} (R-ADD-239)")
    if record.permanent:
        notes.append(f"permanent: {', '.join(record.permanent)} (R-ADD-239)")
    for scar in pilot.scars:
        notes.append(scar_note(ledger.version, scar))
    if record.out_for_mission:
        notes.append(f"sits out mission {record.out_for_mission}: {record.out_reason} (R-ADD-250)")
    for more in DEPLOYMENT_NOTES:
        notes.extend(more(state, pilot_id))
    return tuple(notes)


# --- the optional modules' hooks (campaigns/between/modules.py) ---------------------------------
# A module adds to these when it is imported; an empty hook changes nothing, so a campaign
# that plays no module decides as before.

# extra recorded Grit for a pilot (a flesh bargain's +1, R-ADD-233)
GRIT_BONUSES: list[Callable[[CampaignState, str], int]] = []
# more deployment notes for a pilot (skills, bargains)
DEPLOYMENT_NOTES: list[Callable[[CampaignState, str], Sequence[str]]] = []
# a settlement action a module adds (its `module` key in settlement.json): what it does, given
# the run, the action's row of settlement.json, the acting pilot and the command's `detail`
MODULE_ACTIONS: dict[str, Callable[[_Run, Mapping[str, Any], domain.PilotState, str], None]] = {}

# --- Grit into the battle (R-ADD-305) ---------------------------------------------------------

GRIT_BONUS_MAX = 3  # the battle setup's bound on the one-check bonus


def battle_grit(state: CampaignState, pilot_id: str) -> dict[str, int]:
    """The pilot's Grit as the battle setup takes it under the ruleset option grit_checks
    (R-ADD-305): the Grit (a GM's override wins, R-ADD-233), the faction's modifier on every
    check (R-ADD-234), the "+1 to the next Grit check" bonuses on the first check
    (R-ADD-237). Trauma's -1 is the battle's own: it counts the trauma wounds face up at
    each check. Empty under plt-1.

    >>> from campaigns.domain import CampaignCreated, PilotEnlisted, replay
    >>> s = replay([CampaignCreated("c", "A", "gm", True, {}), lg.CampaignRulesPinned("pc-1", ()),
    ...             PilotEnlisted("p", "ann", "Ash", "elves", 0)])
    >>> battle_grit(s, "p")
    {'grit': 0, 'grit_modifier': -1, 'grit_bonus': 0}
    """
    ledger: lg.Ledger | None = state.settlement
    if ledger is None:
        return {}
    rules = rulebook(ledger.version).rules["grit"]
    pilot = state.pilots[pilot_id]
    return {
        "grit": grit(state, pilot_id).value,
        "grit_modifier": int(rules["faction_check"].get(pilot.faction, 0)),
        "grit_bonus": min(ledger.pilot(pilot_id).grit_check_bonus, GRIT_BONUS_MAX),
    }
