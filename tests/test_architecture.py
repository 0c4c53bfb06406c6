"""Dependencies point one way: event store ← battles ← campaigns (docs/ARCHITECTURE.md).

Every import in the three packages is read from the source (absolute and relative
ones, inside functions too) and checked against the allowed direction:

- the event store (penance_site/eventstore) imports nothing from battles or campaigns;
- battles import nothing from campaigns;
- campaigns reach battles only through `battles.engine`, `battles.services`,
  `battles.selectors` and the board's pure geometry `battles.board_svg`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CAMPAIGNS_MAY_USE = (
    "battles.engine",
    "battles.services",
    "battles.selectors",
    "battles.board_svg",
)


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, module: str | None = None) -> Iterator[tuple[str, int]]:
    """(absolute module name, line) of every import in a file, relative ones resolved
    against the file's module name (`module`, by default from its place in the tree)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = (module or module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if node.module is None:  # `from . import x`: x is a module of the package
                for alias in node.names:
                    yield f"{module}.{alias.name}", node.lineno
            else:
                yield module, node.lineno


def offence(importer: str, imported: str) -> str | None:
    """Why `importer` may not import `imported`, or None where the direction allows it."""

    def under(name: str, package: str) -> bool:
        return name == package or name.startswith(package + ".")

    if under(importer, "penance_site.eventstore") and (
        under(imported, "battles") or under(imported, "campaigns")
    ):
        return "the event store knows no domain; domains register with it"
    if under(importer, "battles") and under(imported, "campaigns"):
        return "battles never import campaigns; campaigns follow battles through the store"
    if (
        under(importer, "campaigns")
        and under(imported, "battles")
        and not any(under(imported, allowed) for allowed in CAMPAIGNS_MAY_USE)
    ):
        return f"campaigns reach battles only through {', '.join(CAMPAIGNS_MAY_USE)}"
    return None


def sources() -> list[Path]:
    found = [
        *sorted((ROOT / "battles").rglob("*.py")),
        *sorted((ROOT / "campaigns").rglob("*.py")),
        *sorted((ROOT / "penance_site" / "eventstore").rglob("*.py")),
    ]
    return found


def test_dependencies_point_from_campaigns_to_battles_to_the_event_store() -> None:
    files = sources()
    assert len(files) > 40, "the packages were not found"
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}: {why}"
        for path in files
        for name, line in imports(path)
        if (why := offence(module_name(path), name))
    ]
    assert offenders == []


@pytest.mark.parametrize(
    ("importer", "imported", "allowed"),
    [
        ("penance_site.eventstore.store", "battles.models", False),
        ("penance_site.eventstore.codec", "campaigns.domain", False),
        ("battles.services", "campaigns.models", False),
        ("battles.engine.battle.decide", "campaigns", False),
        ("campaigns.services", "battles.models", False),
        ("campaigns.campaigns_api", "battles.battles_api", False),
        ("campaigns.services", "battles.services", True),
        ("campaigns.domain", "battles.engine.dice", True),
        ("campaigns.selectors", "battles.selectors", True),
        ("battles.services", "penance_site.eventstore.store", True),
        ("campaigns.services", "penance_site.eventstore.store", True),
    ],
)
def test_the_direction_check_allows_and_refuses(
    importer: str, imported: str, allowed: bool
) -> None:
    assert (offence(importer, imported) is None) == allowed


def test_relative_and_function_level_imports_are_resolved(tmp_path: Path) -> None:
    """The walker sees `from ..x import y` and imports inside functions (the old cycle hid
    one there)."""
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from ..models import Battle\n"
        "from . import dice\n"
        "def later():\n"
        "    from campaigns.services import battle_appended\n"
    )
    assert list(imports(probe, "battles.engine.probe")) == [
        ("battles.models", 1),
        ("battles.engine.dice", 2),
        ("campaigns.services", 4),
    ]
