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


def test_every_ruling_the_code_cites_is_on_the_rulings_page() -> None:
    """A ruling id in code, a template or a catalogue file is one a player can look up on
    `/rules/`: RULINGS.md's, as the engine carries them (`ruleset.RULINGS`, checked against
    the file by tests/engine/test_ruleset.py), or an entry of the addenda as the page reads
    them (`battles.pages._addenda_sections`)."""
    from battles.engine.ruleset import RULINGS
    from battles.pages import _addenda_sections

    defined = set(RULINGS) | {rid for s in _addenda_sections() for rid, _ in s.rulings}
    undefined: dict[str, set[str]] = {}
    for top in ("battles", "campaigns", "penance_site", "templates"):
        for path in (ROOT / top).rglob("*"):
            if path.suffix not in {".py", ".html", ".js", ".json"} or "vendor" in path.parts:
                continue
            for rid in re.findall(r"\b(R-[A-Z]{3}-\d+)\b", path.read_text(encoding="utf-8")):
                if rid not in defined:
                    undefined.setdefault(rid, set()).add(str(path.relative_to(ROOT)))
    assert not undefined, f"cited but on no rulings page entry: {undefined}"
