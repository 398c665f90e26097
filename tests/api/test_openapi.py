"""The OpenAPI schema is complete: a client can work from it alone.

- the seat token is a Bearer scheme (Swagger's Authorize), optional on tournament and match
  operations, absent from the public catalogue;
- every operation has a summary and a description, and documents each error answer with the
  shared ``Error`` schema, its codes (all in docs/errors.md) and the ``Idempotency-Key`` on POSTs;
- no int64 bounds, question options typed;
- schemathesis, bounded in time, finds no server error and no undocumented status.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given, settings

from config.wsgi import application

DOCS = Path(__file__).resolve().parents[2] / "docs"
METHODS = {"get", "post", "put", "patch", "delete"}


def generated() -> dict[str, Any]:
    schema: dict[str, Any] = SchemaGenerator().get_schema(request=None, public=True)
    return schema


def operations(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]


def documented_codes() -> set[str]:
    text = (DOCS / "errors.md").read_text(encoding="utf-8")
    return set(re.findall(r"^\| `([a-z_]+)` \|", text, flags=re.MULTILINE))


def test_the_seat_token_is_a_bearer_scheme_optional_where_a_spectator_may_read() -> None:
    schema = generated()
    assert schema["components"]["securitySchemes"]["seatToken"]["scheme"] == "bearer"
    for method, path, operation in operations(schema):
        if path.startswith(("/api/v1/tournaments/", "/api/v1/matches/")):
            assert {"seatToken": []} in operation["security"], (method, path)
            assert {} in operation["security"], (method, path)
        if path.startswith(("/api/v1/cards/", "/api/v1/card-sets/", "/api/v1/health/")):
            assert operation["security"] == [{}], (method, path)  # public: no lock


def test_every_operation_is_summarised_and_documents_its_errors() -> None:
    schema = generated()
    known = documented_codes()
    assert {"stale", "throttled", "idempotency_key_reused"} <= known
    for method, path, operation in operations(schema):
        where = (method, path)
        assert operation.get("summary") and operation.get("description"), where
        responses = operation["responses"]
        assert {"400", "401"} <= set(responses), where
        if "{" in path:
            assert "404" in responses, where
        if method == "POST":
            assert {"409", "413", "415", "429"} <= set(responses), where
            names = {p["name"] for p in operation.get("parameters", [])}
            assert "Idempotency-Key" in names, where
        for status, response in responses.items():
            if int(status) < 400 or status == "503":
                continue
            content = response["content"]["application/json"]
            assert content["schema"]["allOf"] == [{"$ref": "#/components/schemas/Error"}]
            codes = content["schema"]["properties"]["code"]["enum"]
            assert codes and set(codes) <= known, (where, status, set(codes) - known)
    error = schema["components"]["schemas"]["Error"]
    assert error["required"] == ["code", "message", "details"]


def test_the_operations_own_refusals_are_listed() -> None:
    schema = generated()
    by = {(m, p): o for m, p, o in operations(schema)}
    draw = by[("POST", "/api/v1/tournaments/{tournament_id}/draft/draw/")]["responses"]
    assert {"stale", "draw_first", "redraw_used"} <= set(enum(draw["409"]))
    assert {"seat_required", "not_your_seat"} <= set(enum(draw["403"]))
    answer = by[("POST", "/api/v1/matches/{match_id}/answer/")]["responses"]
    assert {"not_a_permutation", "too_many", "invalid"} <= set(enum(answer["400"]))
    assert "not_finished" in enum(
        by[("GET", "/api/v1/tournaments/{tournament_id}/verify/")]["responses"]["409"]
    )


def enum(response: dict[str, Any]) -> list[str]:
    codes: list[str] = response["content"]["application/json"]["schema"]["properties"]["code"][
        "enum"
    ]
    return codes


def test_types_are_precise() -> None:
    schema = generated()
    text = repr(schema["components"])
    assert "int64" not in text and str(2**63 - 1) not in text
    question = schema["components"]["schemas"]["QuestionOut"]["properties"]
    for name in ("options", "default"):
        assert question[name]["items"] != {}
    card = schema["components"]["schemas"]["Card"]["properties"]["power"]
    assert card["maximum"] <= 2**31 - 1


@pytest.fixture
def kept_connection() -> Iterator[None]:
    """Django's test client keeps the connection open across requests; calling the WSGI app
    directly would close it at each request's end (inside the test's transaction), so the test
    disconnects that as the client does."""
    for signal in (request_started, request_finished):
        signal.disconnect(close_old_connections)
    try:
        yield
    finally:
        for signal in (request_started, request_finished):
            signal.connect(close_old_connections)


EXAMPLES = 6
BUDGET_SECONDS = 60


@pytest.mark.django_db
@pytest.mark.timeout(240)
def test_schemathesis_finds_no_server_error_and_no_undocumented_status(
    catalogue: Any, kept_connection: None
) -> None:
    api = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
    found: list[str] = []
    statuses: list[int] = []
    began = time.monotonic()
    tried = 0
    for result in api.get_all_operations():
        operation = cast(Any, result).ok()  # an invalid operation raises here

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
            derandomize=True,
            database=None,
        )
        def check(case: Any) -> None:
            response = case.call()
            statuses.append(response.status_code)
            status = response.status_code
            if status >= 500 or str(status) not in set(case.operation.definition.raw["responses"]):
                found.append(f"{case.method} {case.formatted_path}: {status} {response.text[:300]}")

        check()
        tried += 1
        if time.monotonic() - began > BUDGET_SECONDS:
            break
    assert found == []
    assert tried >= 20 and len(statuses) >= 2 * tried
