"""The docs' route tables and the committed contract name the same operations.

Every REST operation of ``schema/openapi.yaml`` (equal to what the server serves,
``tests/api/test_contract.py``) is written in an English doc as `` `METHOD /api/v1/…` ``, or, for
a tournament action, in the actions table of docs/protocol.md as its route under
``/api/v1/tournaments/{id}/`` (`` `draft/pick/` ``). Every route a doc writes that way exists.
Parameters are compared by place, not name (``{slug}``, ``{id}`` and ``1`` alike).

A refusal a route's row names (`` `409 league_played` ``) is one its operation declares (its
``Operation.codes``, or one every request can meet), as the served OpenAPI document lists it."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

import yaml
from django.conf import settings

from server import contract

ROOT = Path(__file__).resolve().parents[1]
METHODS = ("get", "post", "put", "patch", "delete")
WRITTEN = re.compile(r"`(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^ `?]*/)[ `?]")
ACTION_ROW = re.compile(r"^\| `[a-z_]+` \| `([a-z_/]+/)` \|", re.MULTILINE)
TOURNAMENT = "/api/v1/tournaments/{}/"
ROUTE_ROW = re.compile(r"^\| `(GET|POST|PUT|PATCH|DELETE) (/api/v1/[^ `?]*/)[ `?].*$", re.MULTILINE)
REFUSAL = re.compile(r"`([45]\d\d) ([a-z][a-z_]*)`")

Route = tuple[str, str]
Refusal = tuple[str, str, int, str]  # method, route, status, code


def general(path: str) -> str:
    """``path`` with each parameter, named or a number, as ``{}``."""
    return re.sub(r"\{[^}/]+\}|(?<=/)\d+(?=/)", "{}", path)


@cache
def served() -> frozenset[Route]:
    contract = yaml.safe_load((ROOT / "schema" / "openapi.yaml").read_text("utf-8"))
    return frozenset(
        (method.upper(), general(path))
        for path, item in contract["paths"].items()
        for method in item
        if method in METHODS
    )


def english_docs() -> str:
    names = sorted((ROOT / "docs").glob("*.md"))
    return "\n".join(p.read_text("utf-8") for p in names if p.stem.count(".") == 0)


@cache
def documented() -> frozenset[Route]:
    """The routes the docs write out, and the tournament actions' rows as ``POST``s."""
    text = english_docs()
    written = {(method, general(path)) for method, path in WRITTEN.findall(text)}
    protocol = (ROOT / "docs" / "protocol.md").read_text("utf-8")
    actions = {("POST", TOURNAMENT + route) for route in ACTION_ROW.findall(protocol)}
    return frozenset(written | actions)


@cache
def declared_refusals() -> frozenset[Refusal]:
    """Each operation's refusals as the server documents them (from its declaration)."""
    document = contract.openapi_document(settings.LANGUAGE_CODE)
    return frozenset(
        (method.upper(), general(path), int(status), code)
        for path, item in document["paths"].items()
        for method, operation in item.items()
        if method in METHODS
        for status, answer in operation["responses"].items()
        for code in _codes(answer)
    )


def _codes(answer: Any) -> list[str]:
    """The error codes an answer lists (none for a success)."""
    schema = answer.get("content", {}).get("application/json", {}).get("schema", {})
    return list(schema.get("properties", {}).get("code", {}).get("enum", []))


def written_refusals() -> frozenset[Refusal]:
    """Each `` `STATUS code` `` a route's row of an English doc names."""
    found: set[Refusal] = set()
    for row in ROUTE_ROW.finditer(english_docs()):
        method, path = row.group(1), general(row.group(2))
        found |= {(method, path, int(s), code) for s, code in REFUSAL.findall(row.group(0))}
    return frozenset(found)


def test_the_collectors_find_the_routes() -> None:
    """Not vacuous: both sides hold many routes, among them ones known to exist."""
    assert len(served()) >= 90 and len(documented()) >= 90
    known = {("POST", "/api/v1/tournaments/"), ("POST", TOURNAMENT + "draft/pick/")}
    assert known <= served() & documented()
    assert ("GET", "/api/v1/leagues/{}/organizer-changes/") in served()


def test_every_operation_is_documented() -> None:
    assert sorted(served() - documented()) == []


def test_every_documented_route_exists() -> None:
    assert sorted(documented() - served()) == []


def test_a_route_row_names_only_refusals_its_operation_declares() -> None:
    written, declared = written_refusals(), declared_refusals()
    known = ("POST", "/api/v1/leagues/{}/organizers/", 409, "already_organizer")
    assert len(written) >= 30 and known in written & declared  # not vacuous
    assert sorted(written - declared) == []


def test_a_parameter_is_a_parameter_whatever_its_name() -> None:
    assert general("/api/v1/leagues/{slug}/seasons/{id}/") == "/api/v1/leagues/{}/seasons/{}/"
    assert general("/api/v1/matches/12/events/") == "/api/v1/matches/{}/events/"
    assert general("/api/v1/cards/v2/") == "/api/v1/cards/v2/"
