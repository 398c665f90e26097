"""One operation-id style (issue 41): every OpenAPI ``operationId`` is drf-spectacular's
``{path}_{action}``, the path's words without its parameters (``-`` as ``_``) then the method's
action; a ``GET`` answering a list (a JSON array or a page of ``results``) is a ``list``, any
other a ``retrieve``. The SDKs' methods are named after these ids."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server import contract

ACTIONS = {"post": "create", "put": "update", "patch": "partial_update", "delete": "destroy"}


def _answer(document: dict[str, Any], operation: dict[str, Any]) -> dict[str, Any]:
    ok = next(code for code in operation["responses"] if code.startswith("2"))
    schema: dict[str, Any] = (
        operation["responses"][ok].get("content", {}).get("application/json", {}).get("schema", {})
    )
    if "$ref" in schema:
        found: dict[str, Any] = document["components"]["schemas"][schema["$ref"].split("/")[-1]]
        return found
    return schema


def expected_id(document: dict[str, Any], path: str, method: str) -> str:
    words = [
        word.replace("-", "_")
        for word in path.removeprefix("/api/v1/").split("/")
        if word and not word.startswith("{")
    ]
    if method != "get":
        return "_".join([*words, ACTIONS[method]])
    answer = _answer(document, document["paths"][path][method])
    listed = answer.get("type") == "array" or "results" in answer.get("properties", {})
    return "_".join([*words, "list" if listed else "retrieve"])


def test_every_operation_id_follows_the_one_style() -> None:
    document = contract.openapi_document("en")
    wrong = {
        f"{method.upper()} {path}": (operation["operationId"], expected_id(document, path, method))
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
        if method in {"get", *ACTIONS}
        and operation["operationId"] != expected_id(document, path, method)
    }
    assert wrong == {}


@pytest.mark.parametrize(
    ("path", "method", "named"),
    [
        ("/api/v1/tournaments/", "get", "tournaments_list"),
        (
            "/api/v1/tournaments/{tournament_id}/draft/pick/",
            "post",
            "tournaments_draft_pick_create",
        ),
        ("/api/v1/leagues/{slug}/members/", "get", "leagues_members_list"),
        ("/api/v1/cards/{key}/", "get", "cards_retrieve"),
    ],
)
def test_the_style_names_lists_actions_and_reads(path: str, method: str, named: str) -> None:
    document = contract.openapi_document("en")
    assert document["paths"][path][method]["operationId"] == named


def test_every_operation_id_is_unique_and_a_python_name() -> None:
    ids = [
        operation["operationId"]
        for methods in contract.openapi_document("en")["paths"].values()
        for operation in methods.values()
        if isinstance(operation, dict) and "operationId" in operation
    ]
    assert len(ids) == len(set(ids))
    assert [found for found in ids if not re.fullmatch(r"[a-z][a-z0-9_]*[a-z]", found)] == []
