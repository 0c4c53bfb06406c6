"""Scars the battle setup applies itself (pc-1 rules, R-ADD-353).

A battle's setup takes, per pilot, an SP modifier (-3…3, R-TRN-3) and a starting Taint
(R-PLT-4): a scar whose effect is one of those is applied to the pilot's next battle
setup, with this ruling; every other scar (and the rest of a mixed one's text) stays a
note the GM sees at deployment (R-ADD-236). The table of which scars apply is
campaigns/rules/<version>/storage.json's `scar_effects`, by the scar tables' row ids; a
scar is recorded by its name (or a GM's text), matched to a row by name or id.

>>> from campaigns.domain import CampaignCreated, PilotEnlisted, replay
>>> from campaigns.between.ledger import CampaignRulesPinned, ScarTaken
>>> s = replay([CampaignCreated("c", "A", "gm", True, {}), CampaignRulesPinned("pc-1", ()),
...             PilotEnlisted("p", "ann", "Ash", "church", 0),
...             ScarTaken("p", "Overclock Protocol", "scars.forge-guilds", True, "3 missions"),
...             ScarTaken("p", "Crystalline Growth", "scars.corruption", True, "6 missions")])
>>> battle_scar_effects(s, "p")
ScarEffects(sp_modifier=3, taint=1)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..domain import CampaignState
from .rulebook import RULES_DIR, rulebook

SCAR_RULE = "R-ADD-353"


@dataclass(frozen=True, slots=True)
class ScarEffects:
    sp_modifier: int = 0
    taint: int = 0


@cache
def _effects(version: str) -> Mapping[str, Mapping[str, Any]]:
    doc = json.loads((RULES_DIR / version / "storage.json").read_text(encoding="utf-8"))
    effects: Mapping[str, Mapping[str, Any]] = doc["scar_effects"]
    return effects


@cache
def _rows(version: str) -> Mapping[str, str]:
    """Every scar row's id, by its lower-case name and id."""
    rows: dict[str, str] = {}
    for key, table in rulebook(version).tables.items():
        if key.startswith("scars."):
            for e in table.entries:
                rows[e.name.lower()] = e.id
                rows[e.id] = e.id
    return rows


def scar_effect(version: str, scar: str) -> Mapping[str, Any] | None:
    """The setup effect of a scar (by name or row id), or None: a note for the GM."""
    row = _rows(version).get(scar.strip().lower())
    return _effects(version).get(row) if row is not None else None


def battle_scar_effects(state: CampaignState, pilot_id: str) -> ScarEffects:
    """What the pilot's scars add to their next battle setup; nothing under plt-1."""
    if state.settlement is None:
        return ScarEffects()
    sp = taint = 0
    for scar in state.pilots[pilot_id].scars:
        effect = scar_effect(state.settlement.version, scar)
        if effect is not None:
            sp += int(effect.get("sp_modifier", 0))
            taint += int(effect.get("taint", 0))
    return ScarEffects(sp, taint)


def scar_note(version: str, scar: str) -> str:
    """The scar as the GM reads it at deployment: what the setup applied, and what the GM
    keeps (R-ADD-353), or the scar table's effect to apply by hand (R-ADD-236).

    >>> scar_note("pc-1", "Soulbound")
    'scar: Soulbound: +1 SP applied to the battle setup (R-ADD-353); the GM applies the rest: if the casket is destroyed, the pilot dies instantly (R-ADD-236)'
    >>> scar_note("pc-1", "Iron Jaw")
    'scar: Iron Jaw, as its scar table says (R-ADD-236)'
    """
    effect = scar_effect(version, scar)
    if effect is None:
        return f"scar: {scar}, as its scar table says (R-ADD-236)"
    parts = []
    if effect.get("sp_modifier"):
        parts.append(f"{int(effect['sp_modifier']):+d} SP")
    if effect.get("taint"):
        parts.append(f"{int(effect['taint']):+d} Taint at the start")
    note = f"scar: {scar}: {' and '.join(parts)} applied to the battle setup ({SCAR_RULE})"
    if effect.get("note"):
        note += f"; the GM applies the rest: {effect['note']} (R-ADD-236)"
    return note
