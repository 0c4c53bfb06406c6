"""The pure modules import only the standard library and other pure modules.

`battles/engine` (the rules), `campaigns/domain.py` (a campaign's rules) and the event
store's values and codec need no Django and no database, like python-chess: they
can be used, tested and type-checked (`mypy --strict`) on their own.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.test_architecture import imports, module_name

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "battles" / "engine"
# Each pure module or package, and the packages besides the standard library it may use.
PURE: dict[Path, tuple[str, ...]] = {
    ENGINE: ("battles.engine",),
    ROOT / "campaigns" / "domain.py": ("battles.engine",),
    # The game's campaign between missions: pure like the campaign's own rules.
    ROOT / "campaigns" / "between": ("battles.engine", "campaigns.between", "campaigns.domain"),
    ROOT / "penance_site" / "eventstore" / "records.py": (),
    ROOT / "penance_site" / "eventstore" / "codec.py": ("penance_site.eventstore.records",),
}


def _imports(path: Path, module: str | None = None) -> list[tuple[str, int]]:
    """(module, line) of every import, relative ones resolved against the file's module
    (`module`, by default from its place in the tree): `from ...models import Battle` in
    the engine is battles.models, not the engine's own package."""
    if module is None:
        module = module_name(path) if path.is_relative_to(ROOT) else path.stem
    return list(imports(path, module))


@pytest.mark.parametrize("where", list(PURE), ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_nothing_but_stdlib_and_pure_modules(where: Path) -> None:
    files = sorted(where.rglob("*.py")) if where.is_dir() else [where]
    assert files and all(f.exists() for f in files), f"{where} not found"
    allowed = PURE[where]
    offenders = [
        f"{path.relative_to(ROOT)}:{line} imports {name}"
        for path in files
        for name, line in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not any(name == a or name.startswith(a + ".") for a in allowed)
    ]
    assert offenders == []


def test_purity_check_catches_a_django_import(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom django.db import models\nimport rest_framework as r\n")
    names = [name for name, _ in _imports(bad)]
    assert [n for n in names if n.split(".")[0] not in sys.stdlib_module_names] == [
        "django.db",
        "rest_framework",
    ]


def test_purity_check_resolves_relative_imports(tmp_path: Path) -> None:
    """A relative import leaving the engine is an import of Django code like any other."""
    bad = tmp_path / "probe.py"
    bad.write_text("from ...models import Battle\nfrom .hexes import Hex\nfrom . import dice\n")
    assert _imports(bad, "battles.engine.battle.probe") == [
        ("battles.models", 1),
        ("battles.engine.battle.hexes", 2),
        ("battles.engine.battle.dice", 3),
    ]
