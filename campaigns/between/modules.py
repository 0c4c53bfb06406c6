"""The optional modules of a campaign ruleset (R-ADD-230), switched on per campaign.

pc-1 has four: `xp_skills` (campaigns/between/skills.py), `flesh_bargains`
(bargains.py), `faction_relationships` (relationships.py) and `soulstone_energy`
(not built). Each module keeps its own data file under `campaigns/rules/<version>/`,
its own events and fold, and its state under its name in the ledger's `extra`; its
commands are `ModuleCommand`s, played while a settlement phase is open, at any step
(`decide_module`). A module that is off refuses every command of its own (422
`module_off`) and changes nothing else: a campaign that plays none decides and folds
as before.

>>> module_data("pc-1", "skills.json")["ladder"][0]["xp"]
200
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

from battles.engine.errors import RuleViolation

from ..domain import CampaignState, Event
from . import decide as bd
from . import ledger as lg
from .dice import Roller
from .rulebook import RULES_DIR, Table, _table

_State = TypeVar("_State")


@functools.cache
def module_data(version: str, name: str) -> Mapping[str, Any]:
    """A module's data file of one ruleset version, read once."""
    doc: Mapping[str, Any] = json.loads((RULES_DIR / version / name).read_text(encoding="utf-8"))
    return doc


def module_table(version: str, name: str, key: str) -> Table:
    """A module file's roll table `key` (the rulebook's own table shape)."""
    return _table(f"{name.split('.')[0]}.{key}", module_data(version, name)["tables"][key])


def state_of(ledger: lg.Ledger, module: str, default: _State) -> _State:
    """The module's state in the ledger, or `default` before its first event."""
    found: _State = ledger.extra.get(module, default)
    return found


def with_state(s: CampaignState, module: str, value: Any) -> CampaignState:
    ledger: lg.Ledger = s.settlement
    return dataclasses.replace(
        s, settlement=dataclasses.replace(ledger, extra={**ledger.extra, module: value})
    )


@dataclass(frozen=True, slots=True)
class ModuleCommand(bd.BetweenCommand):
    """A command of an optional module, played while a settlement phase is open."""

    MODULE: ClassVar[str] = ""
    RULE: ClassVar[str] = ""
    WHAT: ClassVar[str] = ""


DECIDERS: dict[
    type[ModuleCommand], Callable[[bd._Run, Any, Any], None]
] = {}  # filled by each module when imported


def decide_module(
    state: CampaignState,
    command: ModuleCommand,
    *,
    actor_is_gm: bool,
    roller: Roller | None = None,
) -> list[Event]:
    """The events of one module command; refusals change nothing."""
    ledger = bd.settlement_of(
        state, command, gm_only=command.GM_ONLY and not actor_is_gm, lacks="modules"
    )
    if command.MODULE:  # a command of the ruleset itself needs no module
        bd.require_module(ledger, command.MODULE, command.WHAT, command.RULE)
    mission = state.mission(command.mission_id)
    phase = ledger.phase(mission.id)
    if phase is None or phase.closed:
        raise RuleViolation(
            "phase_not_open",
            f"{command.WHAT} is played in the settlement phase after mission {mission.number}, "
            f"which is {'done' if phase is not None else 'not open'}",
            command.RULE,
        )
    run = bd._Run(state, roller, phase.scope)
    DECIDERS[type(command)](run, command, mission)
    return run.events
