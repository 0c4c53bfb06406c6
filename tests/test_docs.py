"""The design documents name only what exists in the code."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import battles.engine
import campaigns.domain

ROOT = Path(__file__).resolve().parents[1]


def engine_names() -> set[str]:
    names: set[str] = set(dir(campaigns.domain))
    for info in pkgutil.walk_packages(battles.engine.__path__, "battles.engine."):
        names |= set(dir(importlib.import_module(info.name)))
    return names


def test_battles_md_names_only_events_commands_and_types_that_exist() -> None:
    """docs/BATTLES.md: every `CamelCase` name in code style is an engine class (an event,
    a command, a state) or a campaign domain class."""
    text = (ROOT / "docs" / "BATTLES.md").read_text(encoding="utf-8")
    mentioned = set(re.findall(r"`([A-Z][a-z]+(?:[A-Z][a-z]*)+)\b", text))
    assert len(mentioned) > 30, "the document's names were not found"
    assert sorted(mentioned - engine_names()) == []
