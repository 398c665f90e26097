"""One coded error format for the whole API.

Every error leaves the server as ``{"code": ..., "message": ..., "details": ...}``: an
``ApplicationError`` raised by a service, DRF's own errors (validation → ``invalid``, missing →
``not_found``, …) and unknown ``/api/`` URLs alike. ``code`` is stable and meant for programs;
``message`` is for people.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.defaults import page_not_found
from rest_framework import exceptions, status
from rest_framework.response import Response


class ApplicationError(Exception):
    """A refused action: a stable ``code``, a human ``message`` and ``extra`` details.

    Subclasses set ``status_code`` (400 by default) for the HTTP transports.
    """

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, code: str, message: str, extra: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra: dict[str, Any] = dict(extra or {})

    def as_dict(self) -> dict[str, Any]:
        return error_body(code=self.code, message=self.message, details=self.extra)


class NotFoundError(ApplicationError):
    status_code = status.HTTP_404_NOT_FOUND


class ConflictError(ApplicationError):
    status_code = status.HTTP_409_CONFLICT


def error_body(*, code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"code": code, "message": message, "details": details if details is not None else {}}


def graphql_error_body(*, code: str, message: str, details: Any = None) -> dict[str, Any]:
    """The same refusal as GraphQL answers a request it did not run: ``errors`` alone, each
    with the code and details in ``extensions``."""
    extensions = {"code": code, "details": details if details is not None else {}}
    return {"errors": [{"message": message, "extensions": extensions}]}


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: render every error in the coded format."""
    # Imported here: rest_framework.views loads the authentication classes of the settings, and
    # those (tournaments.api.auth) import this module.
    from rest_framework.views import exception_handler

    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=exc.status_code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not ours to render: Django turns it into a 500
    response.data = _api_exception_body(exc)
    return response


def _api_exception_body(exc: exceptions.APIException) -> dict[str, Any]:
    code = str(exc.default_code)
    if isinstance(exc, exceptions.ValidationError):
        return error_body(code=code, message="Invalid input.", details=exc.detail)
    if isinstance(exc, exceptions.Throttled):
        seconds = getattr(exc, "wait", None)
        wait = math.ceil(seconds) if seconds is not None else None
        message = "Too many requests: try again later."
        return error_body(code=code, message=message, details={"retry_after": wait})
    detail = exc.detail
    if isinstance(detail, exceptions.ErrorDetail):
        return error_body(code=detail.code or code, message=str(detail))
    return error_body(code=code, message=str(exc.default_detail), details=detail)


def api_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: coded JSON under ``/api/``, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        body = error_body(code="not_found", message=f"No API endpoint at {request.path}.")
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception or Http404())
