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
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, Phase, given, settings

from server.wsgi import application
from tests.tournaments.play import open_game

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
    schemes = schema["components"]["securitySchemes"]
    assert schemes["seatToken"]["scheme"] == "bearer"
    assert schemes["organizerToken"]["name"] == "Authorization"
    for method, path, operation in operations(schema):
        if path.startswith(("/api/v1/tournaments/", "/api/v1/matches/")):
            assert {"seatToken": []} in operation["security"], (method, path)
            assert {"organizerToken": []} in operation["security"], (method, path)
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
    question = schema["components"]["schemas"]["Question"]["properties"]
    for name in ("options", "default"):
        assert question[name]["items"] != {}
    card = schema["components"]["schemas"]["Card"]["properties"]["power"]
    assert card["type"] == "integer" and card.get("maximum", 0) <= 2**31 - 1


@contextmanager
def kept_connection() -> Iterator[None]:
    """Django's test client keeps the connection open across requests; calling the WSGI app
    directly would close it at each request's end (inside the test's transaction), so the test
    disconnects that as the client does (and the client connects it again after each request:
    no test client call inside)."""
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
def test_schemathesis_finds_no_server_error_and_no_undocumented_status(catalogue: Any) -> None:
    # Random ids find nothing: each case is also sent against a real tournament (started, in its
    # first Deck Phase) as its host, and the first card and card set.
    host = open_game(seats=2)[0]
    real = {"tournament_id": host.id, "id": 1}
    with kept_connection():
        api = schemathesis.openapi.from_wsgi("/api/v1/schema/", application)
        found, statuses, tried = run(api, real, host.headers)
    assert found == []
    assert tried >= 20 and len(statuses) >= 2 * tried
    assert {200, 400, 404, 409} <= set(statuses)


def run(
    api: Any, real: dict[str, int], headers: dict[str, str]
) -> tuple[list[str], list[int], int]:
    """Each operation's examples, within the time budget: the refusals found, every status."""
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
            documented = set(case.operation.definition.raw["responses"])
            for attempt in ("generated", "real"):
                if attempt == "real":
                    if not case.path_parameters:
                        return
                    case.path_parameters = {
                        k: real.get(k, v) for k, v in case.path_parameters.items()
                    }
                    case.headers = {**(case.headers or {}), **headers}
                response = case.call()
                status = response.status_code
                statuses.append(status)
                if status >= 500 or str(status) not in documented:
                    found.append(
                        f"{case.method} {case.formatted_path}: {status} {response.text[:300]}"
                    )

        check()
        tried += 1
        if time.monotonic() - began > BUDGET_SECONDS:
            break
    return found, statuses, tried


ROOT = Path(__file__).resolve().parents[2]
# A refusal's code where the code raises it: `SomeError("code", "message"…` (or f"…", (…)).
# The message: a literal, a translated one (`_(…)`, `gettext_noop(…)`) or a `message` variable.
RAISED = re.compile(
    r"\b[A-Z]\w*\(\s*\"([a-z][a-z_]+)\",\s*(?:f?[\"(]|_\(|gettext_noop\(|message\b)"
)
# Where a code is raised that REST never answers: the engine's and the catalogue's own integrity
# checks (the server's bugs, not a client's refusal), GraphQL and the examples.
NOT_REST = (
    "matches/engine/",
    "cards/catalogue.py",
    "apikit/graphql",
    "server/graphql",
    "/graphql/",
    "examples/",
)
# unknown_action: every route names a known action (a guard against a bug); not_simulated: a
# balance simulation is asked for in the admin or by manage.py card_balance, never over REST;
# webhook_unresolved: a delivery's attempt fails with it (logged on the delivery), no request does.
NEVER_ANSWERED = {"unknown_action", "not_simulated", "webhook_unresolved"}


def raised_codes() -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in ROOT.rglob("*.py"):
        where = path.relative_to(ROOT).as_posix()
        if where.startswith((".venv", "tests/", "build/")) or any(p in where for p in NOT_REST):
            continue
        for code in RAISED.findall(path.read_text(encoding="utf-8")):
            found.setdefault(code, set()).add(where)
    return found


def listed_codes(schema: dict[str, Any]) -> set[str]:
    return {
        code
        for _, _, operation in operations(schema)
        for status, response in operation["responses"].items()
        if int(status) >= 400 and "properties" in response["content"]["application/json"]["schema"]
        for code in enum(response)
    }


def test_every_code_the_code_raises_is_in_the_schema() -> None:
    raised = raised_codes()
    assert {"seat_required", "unknown_set", "not_in_lobby"} <= set(raised)  # the scan sees
    missing = {code: raised[code] for code in set(raised) - listed_codes(generated())}
    assert set(missing) <= NEVER_ANSWERED, missing


def test_the_refusals_once_missing_are_listed_where_they_are_raised() -> None:
    by = {(m, p): o["responses"] for m, p, o in operations(generated())}
    t = "/api/v1/tournaments/{tournament_id}/"
    for path in ("advice/", "reclaim/", "leave/", "seat/", "draft/pick/"):
        method = "GET" if path == "advice/" else "PATCH" if path == "seat/" else "POST"
        assert "seat_required" in enum(by[(method, t + path)]["403"]), path
    assert "unknown_set" in enum(by[("GET", "/api/v1/cards/")]["400"])
    assert "seat_dropped" in enum(by[("POST", t + "draft/pick/")]["409"])
    assert "not_dropped" in enum(by[("POST", t + "reclaim/")]["409"])


def test_a_season_id_has_its_bounds() -> None:
    standings = generated()["paths"]["/api/v1/leagues/{slug}/standings/"]["get"]
    (season,) = [p for p in standings["parameters"] if p["name"] == "season"]
    assert season["schema"]["minimum"] == 1 and season["schema"]["maximum"] == 2**31 - 1
