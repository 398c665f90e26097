"""The layers import one way only (docs/architecture.md); a test over the source keeps it so.

Every import counts, module-level or inside a function, except those under
``if TYPE_CHECKING:`` (annotations only). Run ``python -m tests.test_layers`` to print the graph.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPS = ("cards", "config", "matches", "tournaments", "frontend")
STDLIB = sys.stdlib_module_names


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def source_modules() -> dict[str, Path]:
    return {
        module_name(path): path
        for app in APPS
        for path in (ROOT / app).rglob("*.py")
        if "migrations" not in path.parts
    }


def _type_checking_only(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"


def _imports_in(tree: ast.AST, known: set[str] | None = None) -> Iterator[str]:
    """Imported module names. ``from a import b`` is ``a.b`` when that is a module (``known``),
    else ``a``: importing a submodule is not a dependency on the package's other modules."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node):
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            submodules = [f"{node.module}.{alias.name}" for alias in node.names]
            found = [name for name in submodules if known is not None and name in known]
            yield from found
            if len(found) < len(submodules):
                yield node.module
        yield from _imports_in(node, known)


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The first-party modules ``path`` imports."""
    names = set(_imports_in(ast.parse(path.read_text(encoding="utf-8")), known))
    return {name for name in names if name in known}


def graph() -> dict[str, set[str]]:
    modules = source_modules()
    known = set(modules)
    return {name: imports_of(path, known) for name, path in modules.items()}


def _external_roots(path: Path) -> set[str]:
    names = set(_imports_in(ast.parse(path.read_text(encoding="utf-8"))))
    return {name.split(".")[0] for name in names}


def violations(
    edges: dict[str, set[str]], source: str, target: str, *, allow: str | None = None
) -> list[str]:
    """Imports from modules under ``source`` into modules under ``target``."""

    def under(name: str, prefix: str) -> bool:
        return name == prefix or name.startswith(prefix + ".")

    return sorted(
        f"{module} -> {imported}"
        for module, imported_set in edges.items()
        if under(module, source)
        for imported in imported_set
        if under(imported, target) and not (allow and under(imported, allow))
    )


def reachable(edges: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = list(edges.get(start, ()))
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(edges.get(node, ()))
    return seen


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that reach each other through their imports."""
    reach = {node: reachable(edges, node) for node in edges}
    groups = {
        tuple(sorted({node} | {other for other in reach[node] if node in reach.get(other, ())}))
        for node in edges
        if node in reach[node]
    }
    return sorted(list(group) for group in groups)


EDGES = graph()


def test_no_two_modules_import_each_other_even_through_others() -> None:
    assert cycles(EDGES) == []


def test_matches_never_imports_tournaments() -> None:
    assert violations(EDGES, "matches", "tournaments") == []


def test_cards_imports_only_the_pure_engine_of_matches() -> None:
    assert violations(EDGES, "cards", "tournaments") == []
    assert violations(EDGES, "cards", "matches", allow="matches.engine") == []


def test_the_engine_and_the_tournament_rules_are_pure_python() -> None:
    for package, own in (("matches/engine", "matches"), ("tournaments/rules", "tournaments")):
        for path in (ROOT / package).rglob("*.py"):
            roots = _external_roots(path) - STDLIB - {"__future__"}
            assert roots <= {own, "matches"}, (path, roots)
    assert violations(EDGES, "matches.engine", "matches", allow="matches.engine") == []
    assert violations(EDGES, "tournaments.rules", "tournaments", allow="tournaments.rules") == []
    assert violations(EDGES, "tournaments.rules", "matches", allow="matches.engine") == []


def test_services_never_import_tasks() -> None:
    services = [m for m in EDGES if ".services" in m or m.endswith(".services")]
    assert services
    assert [(m, i) for m in services for i in EDGES[m] if i.endswith(".tasks")] == []


def test_transports_read_through_selectors_and_write_through_services() -> None:
    for transport in (
        "tournaments.api",
        "tournaments.consumers",
        "tournaments.graphql",
        "tournaments.leagues.api",
        "tournaments.leagues.graphql",
    ):
        assert violations(EDGES, transport, "tournaments.models") == []
        assert violations(EDGES, transport, "matches.models") == []
    for transport in ("tournaments.leagues.api", "tournaments.leagues.graphql"):
        assert violations(EDGES, transport, "tournaments.leagues.models") == []


def test_the_tournaments_core_never_imports_leagues() -> None:
    """Leagues react to tournaments (the core queues the tasks named in
    ``settings.TOURNAMENT_HOOKS``); nothing outside the leagues app imports it, but the root
    GraphQL schema (``config.schema``), which composes every app's GraphQL as the root URLs
    include every app's REST routes."""
    assert "tournaments.leagues.graphql.schema" in EDGES["config.schema"]
    outside = {
        m: i
        for m, i in EDGES.items()
        if not m.startswith("tournaments.leagues") and m != "config.schema"
    }
    assert any(m.startswith("tournaments.leagues") for m in EDGES)
    for app in APPS:
        assert violations(outside, app, "tournaments.leagues") == []


def test_the_league_rules_are_pure_python() -> None:
    for name in ("rules.py", "rating.py"):
        roots = _external_roots(ROOT / "tournaments" / "leagues" / name) - STDLIB
        assert roots - {"__future__"} <= {"openskill"}, (name, roots)


if __name__ == "__main__":  # the graph, for the architecture page and reviews
    for module in sorted(EDGES):
        print(module, "->", ", ".join(sorted(EDGES[module])) or "-")
    print("cycles:", cycles(EDGES))
