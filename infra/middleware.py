"""Coded JSON for every answer under ``/api/``, whichever layer refused the request.

DRF renders the errors of its views (``infra.errors.api_exception_handler``). What it never sees is
rendered here, even with ``DEBUG`` on. Django's debug pages are HTML, and list the URL patterns.

- A body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` → 413 ``too_large``. It is refused before it is
  read.
- A URL that exists only with a trailing slash (``POST /api/v1/tournaments``) → 404
  ``not_found``, naming the right URL. Django would redirect, and lose a POST's body or fail with
  a 500.
- An exception a view let through → 500 ``server_error``. It is logged with its traceback, never
  shown. If PostgreSQL did not answer, it is 503 ``database_unavailable``. Django's refusals keep
  their own 4xx (``RequestDataTooBig``, ``SuspiciousOperation``).
- An id in the URL past the largest the database can hold → 404 ``not_found``. SQLite would
  raise ``OverflowError``, a 500.
- Any other error page (an unknown URL) → the same status, coded. This holds under
  ``/graphql/`` too, in GraphQL's shape. ``/graphql/anything`` → 404 ``not_found``. A ``POST
  /graphql`` → 404 naming ``/graphql/`` in ``details.path``. Django would redirect or fail.

A ``Host`` header outside ``ALLOWED_HOSTS`` is refused first, under ``/api/`` and ``/graphql/``
alike. The answer is 400 ``bad_host``, in GraphQL's error shape on ``/graphql/``. Django would
answer its HTML 400 page, or with ``DEBUG`` on its debug page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from http import HTTPStatus

from django.conf import settings
from django.core.exceptions import (
    DisallowedHost,
    PermissionDenied,
    RequestDataTooBig,
    SuspiciousOperation,
)
from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse
from django.urls import is_valid_path
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext as _

from infra.errors import (
    ApplicationError,
    database_unavailable,
    error_body,
    graphql_error_body,
    unavailable_json,
)

log = logging.getLogger(__name__)

API_PREFIX = "/api/"
GRAPHQL_PREFIX = "/graphql/"
SAFE = frozenset({"GET", "HEAD"})
# The largest id of a row (BigAutoField); a larger one in a URL names nothing.
MAX_ID = 2**63 - 1
CODES = {
    400: "bad_request",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "too_large",
    500: "server_error",
}


def is_api(request: HttpRequest) -> bool:
    return request.path_info.startswith(API_PREFIX)


def bad_host(request: HttpRequest) -> JsonResponse | None:
    """400 ``bad_host`` for a ``Host`` outside ``ALLOWED_HOSTS``, else ``None``."""
    try:
        request.get_host()
    except DisallowedHost:
        host = request.META.get("HTTP_HOST", "")
        log.warning("Refused %s %s: Host %r is not served", request.method, request.path, host)
        message = _("This server does not answer to that Host header.")
        graphql = request.path_info.startswith(GRAPHQL_PREFIX)
        render = graphql_error_body if graphql else error_body
        return JsonResponse(render(code="bad_host", message=message), status=400)
    return None


def coded(
    status: int, message: str | None = None, details: object = None, *, graphql: bool = False
) -> JsonResponse:
    """A refusal coded by its status, in REST's body or (``graphql``) GraphQL's."""
    code = CODES.get(status, "server_error" if status >= 500 else "error")
    text = message or f"{_phrase(status)}."  # HTTP's own phrase: English everywhere
    render = graphql_error_body if graphql else error_body
    return JsonResponse(render(code=code, message=text, details=details), status=status)


def coded_error(error: ApplicationError) -> JsonResponse:
    """An ``ApplicationError`` raised outside DRF, answered as DRF's handler would."""
    return JsonResponse(error.as_dict(), status=error.status_code)


def _phrase(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"


def too_large() -> JsonResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = _("The request body is over %(limit)s bytes.") % {"limit": limit}
    return coded(413, message, {"max_bytes": limit})


class ApiErrorsMiddleware(MiddlewareMixin):
    def process_request(self, request: HttpRequest) -> HttpResponseBase | None:
        api = is_api(request)
        graphql = request.path_info.startswith(GRAPHQL_PREFIX)
        if (api or graphql) and (refused := bad_host(request)):
            return refused
        if request.path_info == GRAPHQL_PREFIX.rstrip("/") and request.method not in SAFE:
            # Django would redirect to /graphql/ (losing the body) or, with DEBUG on, fail.
            message = _not_found_message(request, graphql=True)
            return coded(404, message, {"path": GRAPHQL_PREFIX}, graphql=True)
        if not api:
            return None
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return coded(400, _("Content-Length is not a number."))
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if limit is not None and length > limit:
            return too_large()
        path = request.path_info
        urlconf = getattr(request, "urlconf", None)
        if (
            not path.endswith("/")
            and not is_valid_path(path, urlconf)
            and is_valid_path(f"{path}/", urlconf)
        ):
            return coded(
                404,
                _("No API endpoint at %(path)s: API URLs end with a slash (%(path)s/).")
                % {"path": path},
                {"path": f"{path}/"},
            )
        return None

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., object],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> HttpResponseBase | None:
        if is_api(request) and any(
            isinstance(value, int) and value > MAX_ID for value in [*args, *kwargs.values()]
        ):
            return coded(404, _("No such object."))
        return None

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponseBase | None:
        if not is_api(request):
            return None
        if isinstance(exception, RequestDataTooBig):
            return too_large()
        if isinstance(exception, SuspiciousOperation):
            log.warning("Refused %s %s: %s", request.method, request.path, exception)
            return coded(400)
        if isinstance(exception, Http404):
            return coded(404)
        if isinstance(exception, PermissionDenied):
            return coded(403)
        if unavailable := database_unavailable(exception):
            log.warning(
                "Database unavailable on %s %s", request.method, request.path, exc_info=exception
            )
            return unavailable_json(unavailable)
        log.error("Error on %s %s", request.method, request.path, exc_info=exception)
        return coded(500, _("The server failed on this request; the error is logged."))

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        api = is_api(request)
        graphql = request.path_info.startswith(GRAPHQL_PREFIX)
        if not (api or graphql) or response.status_code < 400:
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response  # already coded (DRF's handler, the checks above, the GraphQL view)
        message = _not_found_message(request, graphql) if response.status_code == 404 else None
        replaced = coded(response.status_code, message, graphql=graphql)
        for header in ("Allow", "Retry-After", "WWW-Authenticate"):
            if header in response:
                replaced[header] = response[header]
        return replaced


def _not_found_message(request: HttpRequest, graphql: bool) -> str:
    if graphql:
        return _("No GraphQL endpoint at %(path)s: GraphQL is at /graphql/.") % {
            "path": request.path
        }
    return _("No API endpoint at %(path)s.") % {"path": request.path}
