"""The pure modules import only the standard library and other pure modules.

`battles/engine` (the rules), `campaigns/domain.py` (a campaign's rules) and the event
store's values and codec need no Django and no database, like python-chess: they
can be used, tested and type-checked (`mypy --strict`) on their own.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "battles" / "engine"
# Each pure module or package, and the packages besides the standard library it may use.
PURE: dict[Path, tuple[str, ...]] = {
    ENGINE: ("battles.engine",),
    ROOT / "campaigns" / "domain.py": ("battles.engine",),
    ROOT / "penance_site" / "eventstore" / "records.py": (),
    ROOT / "penance_site" / "eventstore" / "codec.py": (),
}


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the module's own package
                continue
            found.append((node.module or "", node.lineno))
    return found


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
