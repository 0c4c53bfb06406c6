"""The campaign rules between missions as versioned data (R-ADD-230).

A campaign pins one campaign ruleset version when it is created
(`CampaignRulesPinned`); the tables of that version are JSON files under
`campaigns/rules/<version>/`, read here and never changed once a campaign plays
them: a new reading of the game is a new version, and a campaign created under
an older one replays unchanged.

- `plt-1`: what every campaign did before (R-PLT-1…5): wounds, trauma, Taint and
  death carried from mission to mission, no settlement phase. A campaign stream
  without a pin plays it.
- `pc-1`: the game's own campaign (the codex settlement phase procedure): the
  settlement ledger, the phase's six steps, loot, scars, Grit, injuries healing
  between missions, Corruption saves.

>>> book = rulebook("pc-1")
>>> book.table("events").lookup(42).id
'traveling-merchant'
>>> book.table("loot.common").lookup(20).data["roll_on"]
'uncommon'
>>> rulebook("pc-9")
Traceback (most recent call last):
...
battles.engine.errors.InvalidInput: campaign_rules.version: unknown campaign ruleset "pc-9"; allowed: "plt-1", "pc-1" (R-ADD-230)
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from battles.engine.errors import InvalidInput

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
LEGACY = "plt-1"
CURRENT = "pc-1"
VERSIONS = (LEGACY, CURRENT)


@dataclass(frozen=True, slots=True)
class Entry:
    """One row of a table: the totals `low`..`high` give it."""

    low: int
    high: int
    id: str
    name: str
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Table:
    key: str
    die: int
    entries: tuple[Entry, ...]

    def lookup(self, total: int) -> Entry:
        """The row for a total; a total past either end takes the end row (a modified
        roll such as salvage's 1d6 + stat may run past the printed rows)."""
        for entry in self.entries:
            if entry.low <= total <= entry.high:
                return entry
        return self.entries[0] if total < self.entries[0].low else self.entries[-1]

    def entry(self, entry_id: str) -> Entry:
        for entry in self.entries:
            if entry.id == entry_id:
                return entry
        raise InvalidInput(
            "entry",
            f"{self.key} has no row {entry_id!r}; rows: {', '.join(e.id for e in self.entries)}",
        )


def _table(key: str, doc: Mapping[str, Any]) -> Table:
    entries = tuple(
        Entry(int(e["roll"][0]), int(e["roll"][1]), str(e["id"]), str(e["name"]), e)
        for e in doc["entries"]
    )
    return Table(key, int(doc["die"]), entries)


@dataclass(frozen=True, slots=True)
class Rulebook:
    version: str
    settlement_phase: bool
    modules: Mapping[str, bool]  # module -> its default
    tables: Mapping[str, Table]
    settlement: Mapping[str, Any]
    rules: Mapping[str, Any]  # tables.json: the non-table rules (grit, injuries, ...)

    def table(self, key: str) -> Table:
        if key not in self.tables:
            raise InvalidInput("table", f"ruleset {self.version} has no table {key!r}")
        return self.tables[key]

    def building(self, building_id: str) -> Mapping[str, Any]:
        return self._settlement_entry("buildings", building_id, field="building", what="building")

    def action(self, action_id: str) -> Mapping[str, Any]:
        return self._settlement_entry(
            "actions", action_id, field="action", what="settlement action"
        )

    def _settlement_entry(
        self, key: str, entry_id: str, *, field: str, what: str
    ) -> Mapping[str, Any]:
        """The settlement's entry by id; an unknown id is a refusal of `field` listing the
        ids there are."""
        for entry in self.settlement[key]:
            if entry["id"] == entry_id:
                return dict(entry)
        known = ", ".join(e["id"] for e in self.settlement[key])
        raise InvalidInput(field, f"no {what} {entry_id!r}; {key}: {known}")


def _read(version: str, name: str) -> Any:
    return json.loads((RULES_DIR / version / name).read_text(encoding="utf-8"))


@functools.cache
def rulebook(version: str) -> Rulebook:
    """The tables of one campaign ruleset version, read once."""
    if version not in VERSIONS:
        allowed = ", ".join(f'"{v}"' for v in VERSIONS)
        raise InvalidInput(
            "campaign_rules.version",
            f'unknown campaign ruleset "{version}"; allowed: {allowed}',
            "R-ADD-230",
        )
    head = _read(version, "ruleset.json")
    modules = {name: bool(m["default"]) for name, m in head["modules"].items()}
    if not head["settlement_phase"]:
        return Rulebook(version, False, modules, {}, {}, {})
    tables: dict[str, Table] = {}
    loot = _read(version, "loot.json")
    for key, doc in loot["tables"].items():
        tables[f"loot.{key}"] = _table(f"loot.{key}", doc)
    for key, doc in _read(version, "scars.json")["tables"].items():
        tables[f"scars.{key}"] = _table(f"scars.{key}", doc)
    rules = _read(version, "tables.json")
    for key in ("death", "salvage", "events"):
        tables[key] = _table(key, rules[key])
    tables["grit.check"] = _table("grit.check", rules["grit"]["check"])
    missions = _read(version, "missions.json")
    for key in ("difficulty", "faction", "modifier"):
        tables[f"missions.{key}"] = _table(f"missions.{key}", missions[key])
    for key, doc in missions["composition"].items():
        tables[f"missions.composition.{key}"] = _table(f"missions.composition.{key}", doc)
    for key, doc in _read(version, "pilots.json")["tables"].items():
        tables[f"pilots.{key}"] = _table(f"pilots.{key}", doc)
    settlement = _read(version, "settlement.json")
    rules = {**rules, "drops": loot["drops"], "missions": missions}
    return Rulebook(version, True, modules, tables, settlement, rules)


def parse_campaign_rules(doc: object) -> tuple[str, tuple[str, ...]]:
    """`{"version": "pc-1", "modules": [...]}` → (version, modules switched on); absent
    means the current version with its default modules (R-ADD-230).

    >>> parse_campaign_rules(None)
    ('pc-1', ())
    >>> parse_campaign_rules({"version": "pc-1", "modules": ["xp_skills"]})
    ('pc-1', ('xp_skills',))
    >>> parse_campaign_rules({"modules": ["ballooning"]})
    Traceback (most recent call last):
    ...
    battles.engine.errors.InvalidInput: campaign_rules.modules[0]: unknown module 'ballooning'; modules of pc-1: faction_relationships, flesh_bargains, soulstone_energy, xp_skills (R-ADD-230)
    """
    if doc is None:
        doc = {}
    if not isinstance(doc, Mapping):
        raise InvalidInput("campaign_rules", "must be an object with 'version' and 'modules'")
    for key in doc:
        if key not in ("version", "modules"):
            raise InvalidInput(f"campaign_rules.{key}", "unknown field; allowed: version, modules")
    version = doc.get("version", CURRENT)
    if not isinstance(version, str):
        raise InvalidInput("campaign_rules.version", "must be a string")
    book = rulebook(version)
    modules = doc.get("modules")
    if modules is None:
        return version, tuple(sorted(m for m, on in book.modules.items() if on))
    if not isinstance(modules, list):
        raise InvalidInput("campaign_rules.modules", "must be a list of module names")
    for i, m in enumerate(modules):
        if m not in book.modules:
            known = ", ".join(sorted(book.modules)) or "none"
            raise InvalidInput(
                f"campaign_rules.modules[{i}]",
                f"unknown module {m!r}; modules of {version}: {known}",
                "R-ADD-230",
            )
    return version, tuple(sorted(set(modules)))


@functools.cache
def module_name(version: str, module: str) -> str:
    """An optional module in words, as pages and refusals name it (ruleset.json's `name`).

    >>> module_name("pc-1", "xp_skills")
    'XP and skills'
    """
    modules = _read(version, "ruleset.json")["modules"]
    return str(modules[module].get("name", module)) if module in modules else module
