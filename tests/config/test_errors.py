"""Every API error is rendered as {"code", "message", "details"}."""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.test import Client
from rest_framework import exceptions

from config.errors import ApplicationError, ConflictError, api_exception_handler


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
