"""The layers import one way only (docs/architecture.md); a test over the source keeps it so.

Every import counts: module-level or inside a function, absolute or relative (``from ..services
import x``), and those under ``if TYPE_CHECKING:`` for the direction of the layers (a type-only
import of a service from a selector is still a selector leaning on a service). Only the cycle
check leaves type-only imports out: they never run, and they are how two modules that call each
other annotate. Each kind of import the checker sees is proved once below: a synthetic module
importing against the grain that way is reported. Run ``python -m tests.test_layers`` to print
the graph.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The house, from the ground up: a module imports only from its own floor and those below.
FLOORS = (
    ("config",),  # the settings
    ("infra",),  # the foundation: errors, rows, cache, task queue, logs, metrics, liveness
    ("apikit",),  # the API framework: operations, shapes, lists, inputs, events, documents
    ("cards", "matches", "tournaments", "leagues", "frontend"),  # the apps
    ("server",),  # the composition root: entry points, URLs, routes, the root schema, health
)
APPS = tuple(package for floor in FLOORS for package in floor)
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
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The module a ``from`` import names: a relative one (``from ..services import x``) resolved
    against ``package``, the package of the importing module."""
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports_in(
    tree: ast.AST, known: set[str] | None = None, package: str = "", *, typing: bool = True
) -> Iterator[str]:
    """Imported module names. ``from a import b`` is ``a.b`` when that is a module (``known``),
    else ``a``: importing a submodule is not a dependency on the package's other modules.
    ``package``: the importing module's package (for relative imports); ``typing``: whether
    imports under ``if TYPE_CHECKING:`` count."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _type_checking_only(node) and not typing:
            orelse = ast.Module(body=node.orelse, type_ignores=[])
            yield from _imports_in(orelse, known, package, typing=typing)
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = _absolute(node, package)
            submodules = [
                f"{module}.{alias.name}" if module else alias.name for alias in node.names
            ]
            found = [name for name in submodules if known is not None and name in known]
            yield from found
            if module and len(found) < len(submodules):
                yield module
        yield from _imports_in(node, known, package, typing=typing)


def package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of_source(
    source: str, package: str, known: set[str], *, typing: bool = True
) -> set[str]:
    """The first-party modules a module's ``source`` imports (``package``: its package)."""
    names = set(_imports_in(ast.parse(source), known, package, typing=typing))
    return {name for name in names if name in known}


def imports_of(path: Path, known: set[str], *, typing: bool = True) -> set[str]:
    """The first-party modules ``path`` imports."""
    package = package_of(module_name(path), path)
    return imports_of_source(path.read_text(encoding="utf-8"), package, known, typing=typing)


def graph(*, typing: bool = True) -> dict[str, set[str]]:
    modules = source_modules()
    known = set(modules)
    return {name: imports_of(path, known, typing=typing) for name, path in modules.items()}


def _external_roots(path: Path) -> set[str]:
    names = set(_imports_in(ast.parse(path.read_text(encoding="utf-8"))))
    return {name.split(".")[0] for name in names}


def under(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def violations(
    edges: dict[str, set[str]], source: str, target: str, *, allow: str | None = None
) -> list[str]:
    """Imports from modules under ``source`` into modules under ``target``."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_set in edges.items()
        if under(module, source)
        for imported in imported_set
        if under(imported, target) and not (allow and under(imported, allow))
    )


def _is_layer(name: str, layer: str) -> bool:
    """Whether ``name`` is a module of a ``layer`` (``selectors``, ``services``) of any app."""
    parts = name.split(".")
    return layer in parts


def selectors_importing_services(edges: dict[str, set[str]]) -> list[str]:
    """Selectors read and services write: a selector importing a service (any module of a
    ``services`` package or module) is against the grain."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_set in edges.items()
        if _is_layer(module, "selectors")
        for imported in imported_set
        if _is_layer(imported, "services")
    )


def floor_of(name: str) -> int:
    return next(i for i, floor in enumerate(FLOORS) for p in floor if under(name, p))


def imports_going_up(edges: dict[str, set[str]]) -> list[str]:
    """Imports of a module on a higher floor of the house (``FLOORS``)."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_set in edges.items()
        for imported in imported_set
        if floor_of(imported) > floor_of(module)
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


EDGES = graph()  # every import, type-only ones included: the direction of the layers
RUNTIME = graph(typing=False)  # the imports that run: cycles


def test_no_two_modules_import_each_other_even_through_others() -> None:
    assert cycles(RUNTIME) == []


def test_selectors_never_import_services() -> None:
    assert any(_is_layer(m, "selectors") for m in EDGES)
    assert selectors_importing_services(EDGES) == []


def test_no_import_goes_up_a_floor() -> None:
    assert all(any(floor_of(m) == i for m in EDGES) for i in range(len(FLOORS)))
    assert imports_going_up(EDGES) == []


def test_matches_never_imports_tournaments() -> None:
    assert violations(EDGES, "matches", "tournaments") == []


def test_cards_imports_only_the_pure_engine_of_matches() -> None:
    assert violations(EDGES, "cards", "tournaments") == []
    assert violations(EDGES, "cards", "matches", allow="matches.engine") == []


def test_matches_never_imports_cards() -> None:
    """``cards`` imports the engine's card specs and codes, so nothing in ``matches`` imports
    ``cards``: a match's engine run joins the card snapshot on the tournament side
    (``tournaments.services.matchruns``), and the two apps never import each other."""
    assert violations(EDGES, "matches", "cards") == []


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
        "leagues.api",
        "leagues.graphql",
    ):
        assert violations(EDGES, transport, "tournaments.models") == []
        assert violations(EDGES, transport, "matches.models") == []
    # A model's GraphQL type names its model (``apikit.graphql_models.model_type``): its rows
    # are still read by the selectors and services.
    typed = "leagues.graphql.types -> leagues.models"
    for transport in ("leagues.api", "leagues.graphql"):
        assert [v for v in violations(EDGES, transport, "leagues.models") if v != typed] == []


def transport_of(name: str) -> str | None:
    """Which transport a module serves: REST (an app's ``api``), GraphQL or the socket."""
    parts = name.split(".")
    if "api" in parts:
        return "rest"
    if "graphql" in parts or name in (
        "server.schema",
        "server.graphql_views",
        "server.graphql_socket",
    ):
        return "graphql"
    if parts[-1] == "consumers":
        return "socket"
    return None


def transports_stacked(edges: dict[str, set[str]]) -> list[str]:
    """A transport importing another (they stand side by side on what the apps share)."""
    return sorted(
        f"{module} -> {imported}"
        for module, imported_set in edges.items()
        for imported in imported_set
        if transport_of(module) and transport_of(imported) not in (None, transport_of(module))
    )


def test_transports_never_import_each_other() -> None:
    assert {transport_of(m) for m in EDGES} >= {"rest", "graphql", "socket"}
    assert transports_stacked(EDGES) == []
    found = transports_stacked(
        _with("cards.graphql.synthetic", "cards.graphql", "from cards.api import views\n")
    )
    assert found == ["cards.graphql.synthetic -> cards.api.views"]


def test_no_other_app_imports_the_leagues() -> None:
    """Leagues react to tournaments (the core queues the tasks named in
    ``settings.TOURNAMENT_HOOKS``); only the root composes them."""
    assert "leagues.graphql.schema" in EDGES["server.schema"]
    outside = {m: i for m, i in EDGES.items() if not under(m, "leagues")}
    assert any(under(m, "leagues") for m in EDGES)
    for app in APPS:
        if app != "server":
            assert violations(outside, app, "leagues") == []


def test_the_league_rules_are_pure_python() -> None:
    modules = sorted((ROOT / "leagues" / "rules").glob("*.py"))
    assert [path.name for path in modules] == ["__init__.py", "rating.py", "scoring.py"]
    for name in modules:
        roots = _external_roots(name) - STDLIB
        assert roots - {"__future__"} <= {"openskill"}, (name, roots)


# --------------------------------------------------------------------------- the checker's reach

SELECTOR = "tournaments.selectors.synthetic"
SELECTOR_PACKAGE = "tournaments.selectors"
FORBIDDEN_IMPORTS = {
    "absolute": "from tournaments.services.common import locked_tournament\n",
    "plain import": "import tournaments.services.deck\n",
    "relative module": "from ..services import deck\n",
    "relative name": "from ..services.common import locked_tournament\n",
    "relative sibling": "from .. import services\n",
    "type-only": (
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n"
        "    from tournaments.services.lobby import Actor\n"
    ),
    "type-only, qualified": (
        "import typing\nif typing.TYPE_CHECKING:\n    from ..services.lobby import Actor\n"
    ),
    "inside a function": "def f():\n    from tournaments.services.deck import seat_act\n",
    "inside a method": (
        "class C:\n    def f(self):\n        if True:\n            from ..services import deck\n"
    ),
}


def _with(module: str, package: str, source: str) -> dict[str, set[str]]:
    """The source's graph with one synthetic module added."""
    known = set(EDGES) | {module}
    return {**EDGES, module: imports_of_source(source, package, known)}


def test_each_kind_of_import_a_selector_makes_of_a_service_is_reported() -> None:
    for kind, source in FORBIDDEN_IMPORTS.items():
        found = selectors_importing_services(_with(SELECTOR, SELECTOR_PACKAGE, source))
        assert found and all(line.startswith(f"{SELECTOR} -> ") for line in found), kind


def test_a_type_only_import_counts_for_the_layers_but_not_for_cycles() -> None:
    source = FORBIDDEN_IMPORTS["type-only"]
    known = set(EDGES) | {SELECTOR}
    assert imports_of_source(source, SELECTOR_PACKAGE, known) == {"tournaments.services.lobby"}
    assert imports_of_source(source, SELECTOR_PACKAGE, known, typing=False) == set()


def test_a_lower_floor_importing_a_higher_one_is_reported() -> None:
    for module, package, source in (
        ("config.synthetic", "config", "from infra.errors import ApiError\n"),
        ("infra.synthetic", "infra", "from apikit.shapes import to_json\n"),
        ("apikit.synthetic", "apikit", "def f():\n    from matches.selectors import match_view\n"),
        (
            "apikit.synthetic",
            "apikit",
            "from typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    from cards.models import Card\n",
        ),
        ("tournaments.synthetic", "tournaments", "from server.schema import schema\n"),
    ):
        found = imports_going_up(_with(module, package, source))
        assert found and found[0].startswith(f"{module} -> "), source
    assert imports_going_up(_with("server.urls", "server", "import tournaments.api\n")) == []


def test_a_cycle_through_a_function_level_or_relative_import_is_reported() -> None:
    one, two = f"{SELECTOR}_one", f"{SELECTOR}_two"
    known = set(RUNTIME) | {one, two}
    edges = {
        **RUNTIME,
        one: imports_of_source("def f():\n    from . import synthetic_two\n", "x", known),
        two: imports_of_source(f"import {one}\n", SELECTOR_PACKAGE, known),
    }
    assert edges[one] == set()  # resolved against the wrong package: no such module
    edges[one] = imports_of_source(
        "def f():\n    from . import synthetic_two\n", SELECTOR_PACKAGE, known
    )
    assert [one, two] in cycles(edges)


if __name__ == "__main__":  # the graph, for the architecture page and reviews
    for module in sorted(EDGES):
        print(module, "->", ", ".join(sorted(EDGES[module])) or "-")
    print("cycles:", cycles(RUNTIME))
