"""Dependencies point one way: event store ← battles ← campaigns (docs/ARCHITECTURE.md).

Every import of the project (battles, campaigns, penance_site) is read from the source:
absolute and relative ones (resolved against the importing module), inside functions too.
Imports under `if TYPE_CHECKING:` are read as well, except by the circle check (they run
only under a type checker, so they cannot close a circle at run time).

- Direction: the event store imports nothing from battles or campaigns; the accounts
  import neither; the site's shared modules (penance_site.api, parsers, middleware, …)
  use only the pure engine `battles.engine`, and only `penance_site.urls` wires the apps
  in; battles import nothing from campaigns; campaigns reach battles only through
  `battles.engine`, `battles.services`, `battles.selectors` and `battles.board_svg`.
- Models stay in their app: no module imports another app's models module or one of
  its model classes from anywhere (a selector passing `Battle` on was that).
- No import circle among the project's modules.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("battles", "campaigns", "penance_site")
CAMPAIGNS_MAY_USE = (
    "battles.engine",
    "battles.services",
    "battles.selectors",
    "battles.board_svg",
)
# The Django apps of the project: a module belongs to the longest one its name starts with;
# penance_site's other modules are the site itself.
APPS = ("battles", "campaigns", "penance_site.eventstore", "penance_site.accounts", "penance_site")
# Model imports across apps that predate the rule, each to be replaced by a function of
# the owning app; the test fails once one is gone, so the entry is removed with it.
KNOWN_MODEL_IMPORTS = frozenset(
    {
        # battles' selectors query the event store's table; the store should offer the reads.
        ("battles.selectors", "penance_site.eventstore.models"),
    }
)


def under(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@dataclass(frozen=True)
class Imported:
    """One imported module (relative names resolved), the name taken from it (`from m
    import name`, else None), the line, and whether it sits under `if TYPE_CHECKING:`."""

    module: str
    name: str | None
    line: int
    typing_only: bool


def _typing_guard(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imported(path: Path, module: str | None = None) -> Iterator[Imported]:
    """Every import of a file, relative ones resolved against the file's module name
    (`module`, by default from its place in the tree), at any depth."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = (module or module_name(path)).split(".")
    if path.name != "__init__.py":
        package = package[:-1]

    def walk(node: ast.AST, typing_only: bool) -> Iterator[Imported]:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield Imported(alias.name, None, node.lineno, typing_only)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            source = ".".join([*base, *([node.module] if node.module else [])])
            for alias in node.names:
                if node.module is None:  # `from . import x`: x is a module of the package
                    yield Imported(f"{source}.{alias.name}", None, node.lineno, typing_only)
                else:
                    yield Imported(source, alias.name, node.lineno, typing_only)
        if isinstance(node, ast.If) and _typing_guard(node):
            for child in node.body:
                yield from walk(child, True)
            for child in node.orelse:
                yield from walk(child, typing_only)
            return
        for child in ast.iter_child_nodes(node):
            yield from walk(child, typing_only)

    yield from walk(tree, False)


def imports(path: Path, module: str | None = None) -> Iterator[tuple[str, int]]:
    """(absolute module name, line) of every import statement's modules in a file."""
    seen: set[tuple[str, int]] = set()
    for i in imported(path, module):
        if (i.module, i.line) not in seen:
            seen.add((i.module, i.line))
            yield i.module, i.line


def sources() -> list[Path]:
    return [path for package in PACKAGES for path in sorted((ROOT / package).rglob("*.py"))]


@cache
def project_modules() -> frozenset[str]:
    return frozenset(module_name(path) for path in sources())


def target(i: Imported) -> str:
    """The project module an import runs: `from pkg import sub` is the module pkg.sub when
    there is one, else pkg."""
    if i.name is not None and f"{i.module}.{i.name}" in project_modules():
        return f"{i.module}.{i.name}"
    if i.name is None and i.module not in project_modules():
        parent = i.module.rpartition(".")[0]  # `from . import name` of a non-module name
        if parent in project_modules():
            return parent
    return i.module


# --- direction -----------------------------------------------------------------------------------


def offence(importer: str, imported: str) -> str | None:
    """Why `importer` may not import `imported`, or None where the direction allows it."""
    if under(importer, "penance_site.eventstore") and (
        under(imported, "battles") or under(imported, "campaigns")
    ):
        return "the event store knows no domain; domains register with it"
    if under(importer, "penance_site.accounts") and (
        under(imported, "battles") or under(imported, "campaigns")
    ):
        return "the accounts know no domain; the domains use them"
    if (
        under(importer, "penance_site")
        and importer != "penance_site.urls"
        and (under(imported, "campaigns") or under(imported, "battles"))
        and not under(imported, "battles.engine")
    ):
        return "the site's shared modules use only the pure engine; penance_site.urls wires apps"
    if under(importer, "battles") and under(imported, "campaigns"):
        return "battles never import campaigns; campaigns follow battles through the store"
    if (
        under(importer, "campaigns")
        and under(imported, "battles")
        and not any(under(imported, allowed) for allowed in CAMPAIGNS_MAY_USE)
    ):
        return f"campaigns reach battles only through {', '.join(CAMPAIGNS_MAY_USE)}"
    return None


def test_dependencies_point_from_campaigns_to_battles_to_the_event_store() -> None:
    files = sources()
    assert len(files) > 60, "the packages were not found"
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
        ("penance_site.accounts.tokens", "campaigns.selectors", False),
        ("penance_site.api", "battles.selectors", False),
        ("penance_site.api", "campaigns.models", False),
        ("penance_site.urls", "campaigns.page_urls", True),
        ("penance_site.api", "battles.engine.errors", True),
        ("campaigns.services", "battles.services", True),
        ("campaigns.domain", "battles.engine.dice", True),
        ("campaigns.selectors", "battles.selectors", True),
        ("battles.services", "penance_site.eventstore.store", True),
        ("campaigns.services", "penance_site.eventstore.store", True),
        ("campaigns.pages.common", "penance_site.accounts.tokens", True),
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


# --- models stay in their app ----------------------------------------------------------------------


def app_of(module: str) -> str:
    return max((app for app in APPS if under(module, app)), key=len, default=module)


@cache
def model_classes() -> dict[str, frozenset[str]]:
    """The model classes each app's models.py defines, by app."""
    found: dict[str, frozenset[str]] = {}
    for app in APPS:
        path = ROOT.joinpath(*app.split("."), "models.py")
        if path.exists():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found[app] = frozenset(n.name for n in tree.body if isinstance(n, ast.ClassDef))
    return found


def model_import(importer: str, i: Imported) -> str | None:
    """Why this import takes another app's model, or None."""
    module = target(i)
    owner = app_of(module)
    if owner == app_of(importer) or owner not in model_classes():
        return None
    if under(module, f"{owner}.models"):
        return f"imports the models module of {owner}"
    if i.name in model_classes()[owner]:
        return f"takes the model {i.name} of {owner} from {module}"
    return None


def model_imports(files: list[Path], module: str | None = None) -> dict[tuple[str, str], str]:
    found: dict[tuple[str, str], str] = {}
    for path in files:
        importer = module or module_name(path)
        for i in imported(path, module):
            if why := model_import(importer, i):
                where = f"{path.name if module else path.relative_to(ROOT)}:{i.line}"
                found[(importer, target(i))] = f"{where} {why}"
    return found


def test_no_module_takes_another_apps_models() -> None:
    assert {"Battle", "Campaign", "Event", "ApiToken"} <= set().union(*model_classes().values())
    found = model_imports(sources())
    assert {k: v for k, v in found.items() if k not in KNOWN_MODEL_IMPORTS} == {}
    assert set(found) >= KNOWN_MODEL_IMPORTS, "a known model import is gone: remove its entry"


def test_the_model_check_refuses_a_model_passed_on_by_a_selector(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from battles.selectors import Battle, battle_state_at\n"
        "from battles import models\n"
        "from .models import Campaign\n"
        "from penance_site.eventstore.models import Event\n"
    )
    assert sorted(model_imports([probe], "campaigns.probe").values()) == [
        "probe.py:1 takes the model Battle of battles from battles.selectors",
        "probe.py:2 imports the models module of battles",
        "probe.py:4 imports the models module of penance_site.eventstore",
    ]


# --- no import circles -----------------------------------------------------------------------------


def import_graph(files: list[Path]) -> dict[str, dict[str, int]]:
    """module -> {project module it imports: line}, imports under TYPE_CHECKING left out."""
    graph: dict[str, dict[str, int]] = {}
    for path in files:
        edges = graph.setdefault(module_name(path), {})
        for i in imported(path):
            module = target(i)
            if not i.typing_only and module in project_modules():
                edges.setdefault(module, i.line)
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[tuple[frozenset[str], list[str]]]:
    """The strongly connected components of more than one module (or a module importing
    itself), each with one circle through it: [a, b, …, a]."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[tuple[frozenset[str], list[str]]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, {}):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1 or v in graph.get(v, {}):
                members = frozenset(component)
                found.append((members, _circle_through(graph, members)))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def _circle_through(graph: dict[str, dict[str, int]], component: frozenset[str]) -> list[str]:
    """A shortest circle from the component's first module back to it."""
    start = min(component)
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(graph.get(v, {})):
            if w == start:
                return [*paths[v], start]
            if w in component and w not in paths:
                paths[w] = [*paths[v], w]
                queue.append(w)
    raise AssertionError(component)


def described(graph: dict[str, dict[str, int]], circle: list[str]) -> str:
    steps = [f"{a} (line {graph[a][b]})" for a, b in itertools.pairwise(circle)]
    return " -> ".join([*steps, circle[-1]])


def test_no_import_circle_at_all() -> None:
    """Module-level and function-level imports alike; imports under `if TYPE_CHECKING:`
    are types only and run nothing, so they are left out."""
    graph = import_graph(sources())
    assert len(graph) > 60
    found = [f"{sorted(members)}: {described(graph, circle)}" for members, circle in circles(graph)]
    assert found == []


def test_the_circle_check_finds_function_level_circles_and_skips_type_checking() -> None:
    graph = {
        "a": {"b": 1},
        "b": {"c": 2},
        "c": {"a": 7},  # e.g. an import inside a function
        "d": {"d": 1},
        "e": {"a": 1},
    }
    assert [circle for _, circle in circles(graph)] == [["a", "b", "c", "a"], ["d", "d"]]
    assert [members for members, _ in circles(graph)] == [{"a", "b", "c"}, {"d"}]


def test_imports_under_type_checking_are_marked(tmp_path: Path) -> None:
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from campaigns.services import outcome_send\n"
        "else:\n"
        "    import json\n"
        "def later():\n"
        "    from campaigns import tasks\n"
    )
    assert [(i.module, i.name, i.typing_only) for i in imported(probe, "campaigns.probe")] == [
        ("typing", "TYPE_CHECKING", False),
        ("campaigns.services", "outcome_send", True),
        ("json", None, False),
        ("campaigns", "tasks", False),
    ]
