"""Every API error is rendered as {"code", "message", "details"}."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import psycopg
import pytest
from django.db import DatabaseError, OperationalError
from django.http import Http404, HttpResponse, JsonResponse
from django.test import Client, RequestFactory
from graphql import GraphQLError
from psycopg_pool import ConnectionPool, PoolTimeout
from rest_framework import exceptions
from strawberry.types import ExecutionResult

from infra.errors import (
    RETRY_AFTER_SECONDS,
    ApplicationError,
    ConflictError,
    api_exception_handler,
    database_unavailable,
    server_failed,
)
from infra.middleware import ApiErrorsMiddleware
from server.graphql_views import _raise_if_database_down
from server.schema import error_code


def _render(exc: Exception) -> tuple[int, Any]:
    response = api_exception_handler(exc, {})
    assert response is not None
    return response.status_code, response.data


def test_an_application_error_keeps_its_code_message_and_details() -> None:
    error = ConflictError("seat_taken", "That seat is taken.", {"seat": 3})
    assert _render(error) == (
        409,
        {"code": "seat_taken", "message": "That seat is taken.", "details": {"seat": 3}},
    )


def test_an_application_error_defaults_to_400_and_empty_details() -> None:
    status, body = _render(ApplicationError("bad_move", "Not now."))
    assert (status, body) == (400, {"code": "bad_move", "message": "Not now.", "details": {}})


def test_a_validation_error_is_coded_invalid_with_field_details() -> None:
    status, body = _render(exceptions.ValidationError({"name": ["This field is required."]}))
    assert status == 400
    assert body["code"] == "invalid"
    assert body["details"] == {"name": ["This field is required."]}


def test_missing_things_are_coded_not_found() -> None:
    assert _render(Http404())[1]["code"] == "not_found"
    assert _render(exceptions.NotFound())[0] == 404


def test_drf_errors_keep_their_own_codes() -> None:
    assert _render(exceptions.NotAuthenticated())[1]["code"] == "not_authenticated"
    assert _render(exceptions.MethodNotAllowed("PUT"))[1]["code"] == "method_not_allowed"


def test_an_unknown_api_url_answers_a_coded_404(client: Client) -> None:
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_write_to_the_read_only_card_api_is_coded(client: Client, db: None) -> None:
    response = client.post("/api/v1/cards/", {})
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


def _refused_connection() -> psycopg.OperationalError:
    """The real error of a PostgreSQL that is not listening (port 1: nothing there)."""
    try:
        psycopg.connect("host=127.0.0.1 port=1 connect_timeout=2").close()
    except psycopg.OperationalError as error:
        return error
    raise AssertionError("something listens on port 1")


def _as_django_raises(error: Exception) -> DatabaseError:
    """Django's own error with the driver's as its cause, as its wrapper raises it."""
    try:
        raise OperationalError(str(error)) from error
    except OperationalError as wrapped:
        return wrapped


def test_postgresql_not_answering_is_a_coded_503_with_retry_after() -> None:
    response = api_exception_handler(_as_django_raises(_refused_connection()), {})
    assert response is not None
    assert response.status_code == 503
    assert response.data["code"] == "database_unavailable"
    assert response.data["details"] == {"retry_after": RETRY_AFTER_SECONDS}
    assert response["Retry-After"] == str(RETRY_AFTER_SECONDS)
    assert "127.0.0.1" not in response.data["message"]  # the cause stays in the log


def test_no_pool_connection_in_time_is_database_unavailable() -> None:
    """psycopg_pool's PoolTimeout, from a pool whose server is not there."""
    pool = ConnectionPool("host=127.0.0.1 port=1 connect_timeout=2", min_size=1, open=False)
    pool.open(wait=False)
    try:
        with pytest.raises(PoolTimeout) as raised:
            pool.getconn(timeout=0.2)
    finally:
        pool.close(timeout=1)
    error = database_unavailable(raised.value)
    assert error is not None and (error.code, error.status_code) == ("database_unavailable", 503)


def test_a_bad_sqlite_query_stays_a_bug() -> None:
    """SQLite's OperationalError ("no such table") is a bug, not an outage: still a 500."""
    sqlite = sqlite3.connect(":memory:")
    with pytest.raises(sqlite3.OperationalError) as raised:
        sqlite.execute("SELECT * FROM nowhere")
    sqlite.close()
    assert database_unavailable(_as_django_raises(raised.value)) is None
    assert database_unavailable(ValueError("not a database error")) is None


def test_an_api_view_failing_on_the_database_answers_503_coded() -> None:
    request = RequestFactory().get("/api/v1/tournaments/1/")
    response = ApiErrorsMiddleware(lambda r: HttpResponse()).process_exception(
        request, _as_django_raises(_refused_connection())
    )
    assert response is not None and response.status_code == 503
    assert isinstance(response, JsonResponse)
    assert json.loads(response.content)["code"] == "database_unavailable"


@pytest.mark.parametrize("path", ["/api/v1/tournaments/", "/graphql/", "/"])
def test_a_middleware_failing_on_the_database_answers_503_coded(path: str) -> None:
    """``handler500``: a query before any view (the session, an idempotency key)."""
    request = RequestFactory().get(path)
    try:
        raise _as_django_raises(_refused_connection())
    except OperationalError:
        response = server_failed(request)
    assert response.status_code == 503
    body = json.loads(response.content)
    code = body["errors"][0]["extensions"]["code"] if path == "/graphql/" else body["code"]
    assert code == "database_unavailable"


def test_any_other_unhandled_error_is_still_the_500_page() -> None:
    try:
        raise ValueError("a bug")
    except ValueError:
        response = server_failed(RequestFactory().get("/"))
    assert response.status_code == 500


def test_a_graphql_field_failing_on_the_database_fails_the_request_with_a_503() -> None:
    """The field's error is coded; the view answers the whole request 503 in GraphQL's shape."""
    failure = _as_django_raises(_refused_connection())
    error = GraphQLError("boom", original_error=failure)
    assert error_code(error)["code"] == "database_unavailable"
    with pytest.raises(OperationalError):
        _raise_if_database_down(ExecutionResult(data=None, errors=[error]))
    _raise_if_database_down(ExecutionResult(data={"ok": True}, errors=None))  # nothing to do


@pytest.mark.parametrize("debug", [True, False])
@pytest.mark.parametrize(
    ("method", "path", "errors_of"),
    [
        ("post", "/graphql/", lambda body: body["errors"][0]["extensions"]),
        ("get", "/graphql/?query={__typename}", lambda body: body["errors"][0]["extensions"]),
        ("get", "/api/v1/tournaments/", lambda body: body),
        ("post", "/api/v1/tournaments/", lambda body: body),
    ],
)
def test_a_host_the_server_does_not_serve_is_refused_coded_bad_host(
    settings: Any, debug: bool, method: str, path: str, errors_of: Any
) -> None:
    """Django would answer its HTML 400 page (its debug page with ``DEBUG`` on)."""
    settings.ALLOWED_HOSTS = ["game.example"]
    settings.DEBUG = debug
    client = Client(HTTP_HOST="evil.example")
    body = '{"query": "{ __typename }"}'
    send = getattr(client, method)
    response = send(path, body, content_type="application/json") if method == "post" else send(path)
    assert response.status_code == 400
    assert response["Content-Type"] == "application/json"
    assert errors_of(response.json())["code"] == "bad_host"


def test_a_served_host_passes_the_host_check(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["game.example"]
    response = Client(HTTP_HOST="game.example").post(
        "/graphql/", '{"query": "{ __typename }"}', content_type="application/json"
    )
    assert response.json() == {"data": {"__typename": "Query"}}
