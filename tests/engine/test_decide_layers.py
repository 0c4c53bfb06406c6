"""The decide package's modules stand in layers: each imports only modules of layers below it.

The order is the one `battles.engine.battle.decide`'s docstring gives; the effect resolvers
call the rules, so the rules reach them only through the table the transaction carries.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "battles" / "engine" / "battle" / "decide"

LAYERS = (
    "tx",
    "targeting",
    "conditions",
    "effects.base",
    "effects",
    "passives",
    "harm",
    "piles",
    "costs",
    "resolution",
    "play",
    "moves",
    "attacking",
    "reactions",
    "prompts",
    "flow",
    "gm",
    "units",
    "actions",
    "effects.allies",
    "effects.attacks",
    "effects.conditions",
    "effects.defence",
    "effects.hand",
    "effects.movement",
    "effects.resources",
    "effects.terrain",
    "effects.triggers",
    "effects.table",
    "entry",
    "",  # the package itself, which exports the public names
)


def module_of(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def sibling_imports(path: Path) -> set[str]:
    """The modules of the decide package a file imports at run time (relative imports only
    reach them)."""
    here = module_of(path).split(".") if module_of(path) else []
    package = here if path.name == "__init__.py" else here[:-1]
    found: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {  # imports a type checker alone reads (`if TYPE_CHECKING:`) run never
        id(n)
        for guard in ast.walk(tree)
        if isinstance(guard, ast.If) and ast.unparse(guard.test).endswith("TYPE_CHECKING")
        for child in guard.body
        for n in ast.walk(child)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom) or not node.level or id(node) in typing_only:
            continue
        if node.level - 1 > len(package):
            continue  # above the decide package
        base = package[: len(package) - node.level + 1]
        source = ".".join([*base, *([node.module] if node.module else [])])
        for alias in node.names:
            name = f"{source}.{alias.name}" if source else alias.name
            found.add(name if name in LAYERS else source)
    return found


def test_every_module_has_a_layer() -> None:
    assert {module_of(p) for p in PACKAGE.rglob("*.py")} == set(LAYERS)


def test_each_module_imports_only_lower_layers() -> None:
    upward = [
        f"{module_of(p) or 'decide'} imports {m}"
        for p in sorted(PACKAGE.rglob("*.py"))
        for m in sorted(sibling_imports(p))
        if LAYERS.index(m) >= LAYERS.index(module_of(p))
    ]
    assert upward == []
