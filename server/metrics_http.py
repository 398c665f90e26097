"""``GET /metrics`` and the HTTP request figures behind it.

The page is for Prometheus, not players. With ``METRICS_TOKEN`` set, it answers a request
carrying ``Authorization: Bearer <token>``. With no token set, it answers only from the host
itself: any loopback address (127.0.0.0/8, ``::1``). So a server on its embedded defaults never
shows it on the network. Anything else gets 404 ``not_found`` in coded JSON, as if there were no
such page.
"""

from __future__ import annotations

import hmac
import ipaddress
import re
import threading
import time
from collections.abc import Callable, Iterator

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils.translation import gettext as _
from strawberry.extensions import SchemaExtension

from infra import metrics, metrics_state
from infra.errors import error_body

UNMATCHED = "<unmatched>"
# Any other method is counted as "other": a client cannot add series by inventing methods.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})

# The GraphQL operation label. Names are the clients' to choose, so a process keeps at most
# MAX_OPERATION_NAMES of them, the first it runs; any other operation is "unknown", as is a
# request refused before an operation ran (not JSON, invalid, too costly). REST has none ("").
ANONYMOUS, UNKNOWN = "anonymous", "unknown"
MAX_OPERATION_NAMES = 100
NAME = re.compile(r"[_A-Za-z][_0-9A-Za-z]{0,63}")
OPERATION_ATTR = "graphql_operation"
_names: set[str] = set()
_names_lock = threading.Lock()


def metrics_view(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD") or not may_scrape(request):
        message = _("No page at %(path)s.") % {"path": request.path}
        return JsonResponse(error_body(code="not_found", message=message), status=404)
    with metrics_state.scraping():
        body = metrics.scrape()
    return HttpResponse(body, content_type=metrics.CONTENT_TYPE)


def may_scrape(request: HttpRequest) -> bool:
    token: str | None = settings.METRICS_TOKEN
    if token is None:
        return is_loopback(request.META.get("REMOTE_ADDR", ""))
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


def is_loopback(address: str) -> bool:
    """Whether ``address`` is this host (127.0.0.0/8, ``::1``, or IPv4-mapped)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return False
    mapped = getattr(parsed, "ipv4_mapped", None)
    return (mapped or parsed).is_loopback


# The load balancer's probes (server.health, server.probes): their 503s report a dependency, they
# are not the server failing a client, so they are counted apart and the 5xx alert leaves them out.
PROBE_PATHS = frozenset({"/api/v1/health/", "/api/v1/live/", "/api/v1/ready/"})


def api_of(path: str) -> str:
    if path in PROBE_PATHS:
        return "probe"
    if path.startswith("/api/"):
        return "rest"
    if path.startswith("/graphql/"):
        return "graphql"
    return "other"


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/v1/tournaments/<int:pk>/``), never the raw path.

    So there is one series per endpoint, however many ids are asked for."""
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None and match.route else UNMATCHED


def operation_label(name: str | None) -> str:
    """The label of an operation that ran under ``name`` (``None``: unnamed)."""
    if name is None:
        return ANONYMOUS
    if not NAME.fullmatch(name):
        return UNKNOWN
    with _names_lock:
        if name not in _names and len(_names) < MAX_OPERATION_NAMES:
            _names.add(name)
        return name if name in _names else UNKNOWN


class OperationLabel(SchemaExtension):
    """Marks the HTTP request with the operation that runs, for ``RequestMetricsMiddleware``.

    The name is the client's, or the document's. Only an operation that got to run is named."""

    def on_execute(self) -> Iterator[None]:
        request = getattr(self.execution_context.context, "request", None)
        if isinstance(request, HttpRequest):
            setattr(request, OPERATION_ATTR, operation_label(self.execution_context.operation_name))
        yield


class RequestMetricsMiddleware:
    """Counts and times every request by API, route, GraphQL operation, method and status.

    It is outermost. So the time covers the whole stack. A refusal by any layer is counted
    too."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        api, route = api_of(request.path_info), route_of(request)
        operation = getattr(request, OPERATION_ATTR, UNKNOWN if api == "graphql" else "")
        method = request.method if request.method in METHODS else "other"
        metrics.HTTP_LATENCY.labels(api, route, operation, method).observe(elapsed)
        status = str(response.status_code)
        metrics.HTTP_REQUESTS.labels(api, route, operation, method, status).inc()
        return response
