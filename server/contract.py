"""The public contract as files: the OpenAPI document, the GraphQL SDL and the AsyncAPI document.

``documents()`` renders the three from the code:

- the OpenAPI text ``/api/v1/schema/`` serves;
- the served GraphQL schema's SDL;
- the AsyncAPI document of the sockets' declarations.

``manage.py export_schemas`` writes them under ``schema/``. It checks the committed copies against
them (``stale``). It reports breaking changes against ``schema/released/`` (``breaking``;
docs/contract.md). Every text is deterministic. It is made in English, with no date and no host,
from declarations in a fixed order.
"""

from __future__ import annotations

import difflib
import json
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer, OpenApiYamlRenderer
from graphql import build_schema, find_breaking_changes, find_dangerous_changes

import server.routing  # noqa: F401  # imports every socket's module: each declares its socket
from apikit.asyncapi import SOCKETS, asyncapi_document
from server.schema import schema as graphql_schema

SCHEMA_DIR = Path(settings.BASE_DIR) / "schema"
RELEASED_DIR = SCHEMA_DIR / "released"
NODE_DIR = Path(settings.BASE_DIR) / "scripts" / "node"
OPENAPI, GRAPHQL, ASYNCAPI = "openapi.yaml", "schema.graphql", "asyncapi.yaml"
NAMES = (OPENAPI, GRAPHQL, ASYNCAPI)


# The documents -----------------------------------------------------------------------------


@cache
def openapi_document(language: str) -> dict[str, Any]:
    """The OpenAPI document in ``language``, made once per process and language."""
    with translation.override(language):
        made: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return made


@cache
def openapi_text(language: str, form: str = "yaml") -> bytes:
    """The OpenAPI document as ``/api/v1/schema/`` sends it, in ``yaml`` or ``json``."""
    renderer = OpenApiJsonRenderer() if form == "json" else OpenApiYamlRenderer()
    return bytes(renderer.render(openapi_document(language), renderer_context={}))


def graphql_text() -> str:
    return str(graphql_schema).rstrip("\n") + "\n"


def asyncapi_text() -> str:
    api: dict[str, Any] = settings.SPECTACULAR_SETTINGS
    document = asyncapi_document(
        title=f"{api['TITLE']} (WebSockets)",
        version=api["VERSION"],
        description=(
            "The WebSocket endpoints: a tournament's event stream and the GraphQL socket "
            "(docs/protocol.md §13, docs/graphql.md)."
        ),
        sockets=[SOCKETS[name] for name in sorted(SOCKETS)],
    )
    return yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)


def documents() -> dict[str, str]:
    """Every contract file's name and text, as the code serves them now."""
    return {
        OPENAPI: openapi_text(settings.LANGUAGE_CODE).decode(),
        GRAPHQL: graphql_text(),
        ASYNCAPI: asyncapi_text(),
    }


# Export and check --------------------------------------------------------------------------


def write(folder: Path = SCHEMA_DIR) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in documents().items():
        path = folder / name
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def stale(folder: Path = SCHEMA_DIR) -> str:
    """A unified diff of each committed file that differs from the code's.

    It is "" when all are equal."""
    diffs = [
        drift(folder / name, text, f"schema/{name}", "served") for name, text in documents().items()
    ]
    return "".join(diffs)


def drift(path: Path, fresh: str, label: str, source: str) -> str:
    """A unified diff from the committed ``path`` to the ``fresh`` text ("" when equal)."""
    committed = path.read_text(encoding="utf-8") if path.exists() else ""
    if committed == fresh:
        return ""
    lines = difflib.unified_diff(
        committed.splitlines(keepends=True),
        fresh.splitlines(keepends=True),
        fromfile=f"{label} (committed)",
        tofile=f"{label} ({source})",
    )
    return "".join(lines)


def release(source: Path = SCHEMA_DIR, target: Path = RELEASED_DIR) -> list[Path]:
    """Copy the committed contract to ``schema/released/``.

    It is the next ``--breaking`` baseline."""
    target.mkdir(parents=True, exist_ok=True)
    return [Path(shutil.copyfile(source / name, target / name)) for name in NAMES]


# Breaking changes --------------------------------------------------------------------------


@dataclass(frozen=True)
class Break:
    document: str
    location: str
    change: str

    def __str__(self) -> str:
        return f"{self.document}: {self.location}: {self.change}"


def breaking(
    released: Path = RELEASED_DIR, current: Path = SCHEMA_DIR, *, node: bool = True
) -> list[Break]:
    """Every breaking change from ``released`` to ``current``.

    graphql-core compares GraphQL. The node tools of ``scripts/node`` compare OpenAPI and
    AsyncAPI. ``structural_breaks`` does when node is missing or ``node`` is False."""
    found = graphql_breaks(
        (released / GRAPHQL).read_text(encoding="utf-8"),
        (current / GRAPHQL).read_text(encoding="utf-8"),
    )
    for name, kind in ((OPENAPI, "openapi"), (ASYNCAPI, "asyncapi")):
        old, new = released / name, current / name
        changes = node_breaks(kind, old, new) if node and node_ready() else None
        if changes is None:
            changes = structural_breaks(_load(old), _load(new))
        found += [Break(name, location, change) for location, change in changes]
    return found


def graphql_breaks(old: str, new: str) -> list[Break]:
    before, after = build_schema(old), build_schema(new)
    changes: list[Any] = [
        *find_breaking_changes(before, after),
        *find_dangerous_changes(before, after),
    ]
    return [Break(GRAPHQL, change.type.name, change.description) for change in changes]


def node_ready() -> bool:
    """Whether the node tools run. It runs ``npm ci`` in ``scripts/node`` on first use."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        return False
    if not (NODE_DIR / "node_modules").is_dir():
        done = subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=False)
        return done.returncode == 0
    return True


def node_breaks(kind: str, old: Path, new: Path) -> list[tuple[str, str]] | None:
    """The node tool's breaking changes.

    ``None`` if it failed: the fallback runs."""
    done = subprocess.run(
        ["node", "breaking.js", kind, str(old), str(new)],
        cwd=NODE_DIR,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return [(row["location"], row["change"]) for row in rows]


def _load(path: Path) -> object:
    loaded: object = yaml.safe_load(path.read_text(encoding="utf-8"))
    return loaded


def structural_breaks(old: object, new: object, at: str = "") -> list[tuple[str, str]]:
    """The fallback: what a client of ``old`` loses in ``new``.

    That is:

    - a key of a mapping removed: a path, an operation, a property, a message, a channel (not a
      bound or a word: ``LOOSE``);
    - a ``type``, ``format`` or ``pattern`` changed;
    - a value no longer allowed by an ``enum``;
    - a property newly required.

    Coarser than the node tools, it may over-report."""
    if isinstance(old, dict) and isinstance(new, dict):
        return [
            *(
                change
                for key in old
                for change in _key_breaks(old[key], new.get(key, _GONE), f"{at}/{key}", key)
            ),
            *_newly_required(old, new, at),
        ]
    if isinstance(old, list) and isinstance(new, list) and at.endswith("/enum"):
        return [(at, f"value {value!r} removed") for value in old if value not in new]
    return []


_GONE = object()
KINDS = frozenset({"type", "format", "pattern"})  # a change of one is a change of kind


# Keys whose removal loosens a schema or changes only words: no client breaks.
LOOSE = frozenset(
    {"maximum", "minimum", "maxLength", "minLength", "maxItems", "minItems", "pattern"}
    | {"format", "required", "description", "summary", "title", "example", "examples"}
)


def _key_breaks(old: object, new: object, at: str, key: str) -> list[tuple[str, str]]:
    if new is _GONE:
        named = at.split("/")[-2] in ("properties", "schemas", "messages", "paths")
        return [] if key in LOOSE and not named else [(at, "removed")]
    if key in KINDS and not isinstance(old, dict) and old != new:
        return [(at, f"{old!r} → {new!r}")]
    return structural_breaks(old, new, at)


def _newly_required(
    old: dict[str, object], new: dict[str, object], at: str
) -> list[tuple[str, str]]:
    before, after = old.get("required"), new.get("required")
    if not isinstance(after, list) or not isinstance(before, list | type(None)):
        return []
    return [
        (f"{at}/required", f"{name!r} now required") for name in after if name not in (before or [])
    ]
