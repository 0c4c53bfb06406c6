"""battles/engine is pure Python: it imports only the standard library and itself."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "battles" / "engine"


def _imports(path: Path) -> list[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[tuple[str, int]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the engine package
                continue
            found.append((node.module or "", node.lineno))
    return found


def test_engine_imports_nothing_but_stdlib_and_itself() -> None:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, "engine package not found"
    offenders = [
        f"{path.relative_to(ENGINE.parent.parent)}:{line} imports {name}"
        for path in files
        for name, line in _imports(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and not name.startswith("battles.engine")
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
