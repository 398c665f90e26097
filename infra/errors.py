"""One coded error format for the whole API.

Every error leaves the server as ``{"code": ..., "message": ..., "details": ...}``. That holds for
an ``ApplicationError`` raised by a service. It holds for DRF's own errors (validation →
``invalid``, missing → ``not_found``, …). It holds for unknown ``/api/`` URLs too. ``code`` is
stable and meant for programs. ``message`` is for people.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.defaults import page_not_found, server_error
from rest_framework import exceptions, status
from rest_framework.response import Response

from infra import observe


class ApplicationError(Exception):
    """A refused action: a stable ``code``, a human ``message`` and ``extra`` details.

    Subclasses set ``status_code`` (400 by default) for the HTTP transports.
    """

    status_code: int = status.HTTP_400_BAD_REQUEST

    def __init__(self, code: str, message: str, extra: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra: dict[str, Any] = dict(extra or {})

    def as_dict(self) -> dict[str, object]:
        return error_body(code=self.code, message=self.message, details=self.extra)


class NotFoundError(ApplicationError):
    status_code = status.HTTP_404_NOT_FOUND


class ForbiddenError(ApplicationError):
    status_code = status.HTTP_403_FORBIDDEN


class ConflictError(ApplicationError):
    status_code = status.HTTP_409_CONFLICT


class UnavailableError(ApplicationError):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE


# Seconds a client is told to wait (`Retry-After`) when the database does not answer: about a
# restart's length.
RETRY_AFTER_SECONDS = 5


def database_unavailable(exc: BaseException) -> UnavailableError | None:
    """The coded 503 for an exception meaning "PostgreSQL did not answer"; else None.

    Such an exception is a connection refused or closed under the request, or a server shutting
    down. It may be no pool connection within ``DATABASE_POOL_TIMEOUT`` (psycopg_pool's
    ``PoolTimeout``). The error is transient, so the client may retry. The cause is logged, never
    put in the answer. The loss is recorded (``infra.observe.dependency_seen``)."""
    if observe.dependency_of(exc) != observe.DATABASE:
        return None  # SQLite's OperationalError is mostly a bad query: a bug, still a 500
    observe.dependency_seen(observe.DATABASE, False)  # logged and counted as it happens
    message = _("The database is not answering: try again in a few seconds.")
    return UnavailableError("database_unavailable", message, {"retry_after": RETRY_AFTER_SECONDS})


def unavailable_response(error: UnavailableError) -> Response:
    response = Response(error.as_dict(), status=error.status_code)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def error_body(*, code: str, message: str, details: object = None) -> dict[str, object]:
    return {"code": code, "message": message, "details": details if details is not None else {}}


def graphql_error_body(*, code: str, message: str, details: object = None) -> dict[str, object]:
    """The refusal as GraphQL words it for a request not run.

    That is ``errors`` alone, each with the code and details in ``extensions``."""
    extensions = {"code": code, "details": details if details is not None else {}}
    return {"errors": [{"message": message, "extensions": extensions}]}


def api_exception_handler(exc: Exception, context: dict[str, object]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: render every error in the coded format."""
    # Imported here: rest_framework.views loads the authentication classes of the settings, and
    # those (tournaments.callers) import this module.
    from rest_framework.views import exception_handler

    if isinstance(exc, ApplicationError):
        return Response(exc.as_dict(), status=exc.status_code)
    if unavailable := database_unavailable(exc):
        return unavailable_response(unavailable)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response  # not ours to render: Django turns it into a 500
    response.data = _api_exception_body(exc)
    return response


def _api_exception_body(exc: exceptions.APIException) -> dict[str, object]:
    code = str(exc.default_code)
    if isinstance(exc, exceptions.ValidationError):
        return error_body(code=code, message=_("Invalid input."), details=exc.detail)
    if isinstance(exc, exceptions.Throttled):
        seconds = getattr(exc, "wait", None)
        wait = math.ceil(seconds) if seconds is not None else None
        message = _("Too many requests: try again later.")
        return error_body(code=code, message=message, details={"retry_after": wait})
    detail = exc.detail
    if isinstance(detail, exceptions.ErrorDetail):
        return error_body(code=detail.code or code, message=str(detail))
    return error_body(code=code, message=str(exc.default_detail), details=detail)


def api_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """``handler404``: coded JSON under ``/api/``, Django's page elsewhere."""
    if request.path.startswith("/api/"):
        body = error_body(
            code="not_found", message=_("No API endpoint at %(path)s.") % {"path": request.path}
        )
        return JsonResponse(body, status=status.HTTP_404_NOT_FOUND)
    return page_not_found(request, exception or Http404())


def server_failed(request: HttpRequest) -> HttpResponse:
    """``handler500`` (with ``DEBUG`` off): an exception no view or middleware rendered.

    The database being down is a coded 503. A middleware's query may fail before any view runs: the
    session, an idempotency key. Anything else is Django's 500 page. Under ``/api/``,
    ``infra.middleware`` makes that coded JSON."""
    error = database_unavailable(sys.exc_info()[1] or Exception())
    if error is None:
        return server_error(request)  # coded JSON under /api/ and /graphql/ (infra.middleware)
    return unavailable_json(error, graphql=request.path.startswith("/graphql/"))


def unavailable_json(error: UnavailableError, *, graphql: bool = False) -> JsonResponse:
    """The 503 with Retry-After, in REST's body or GraphQL's.

    GraphQL's is ``errors`` alone: nothing ran."""
    if graphql:
        body = graphql_error_body(code=error.code, message=error.message, details=error.extra)
    else:
        body = error.as_dict()
    response = JsonResponse(body, status=error.status_code)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response
