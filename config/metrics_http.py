"""``GET /metrics`` and the HTTP request figures behind it.

The page is for Prometheus, not players: with ``METRICS_TOKEN`` set it answers a request carrying
``Authorization: Bearer <token>``; with no token set it answers only from the host itself
(loopback), so a server on its embedded defaults never shows it on the network. Anything else
gets 404, as if there were no such page.
"""

from __future__ import annotations

import hmac
import time
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotFound

from config import metrics

LOOPBACK = frozenset({"127.0.0.1", "::1"})
UNMATCHED = "<unmatched>"
# Any other method is counted as "other": a client cannot add series by inventing methods.
METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


def metrics_view(request: HttpRequest) -> HttpResponse:
    if request.method not in ("GET", "HEAD") or not may_scrape(request):
        return HttpResponseNotFound("Not found.", content_type="text/plain")
    return HttpResponse(metrics.scrape(), content_type=metrics.CONTENT_TYPE)


def may_scrape(request: HttpRequest) -> bool:
    token: str | None = settings.METRICS_TOKEN
    if token is None:
        return request.META.get("REMOTE_ADDR") in LOOPBACK
    sent = request.META.get("HTTP_AUTHORIZATION", "")
    return hmac.compare_digest(sent.encode(), f"Bearer {token}".encode())


def api_of(path: str) -> str:
    if path.startswith("/api/"):
        return "rest"
    if path.startswith("/graphql/"):
        return "graphql"
    return "other"


def route_of(request: HttpRequest) -> str:
    """The URL pattern that answered (``api/v1/tournaments/<int:pk>/``), never the raw path: one
    series per endpoint however many ids are asked for."""
    match = getattr(request, "resolver_match", None)
    return match.route if match is not None and match.route else UNMATCHED


class RequestMetricsMiddleware:
    """Counts and times every request by API, route, method and status (outermost, so the
    time covers the whole stack and a refusal by any layer is counted)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        api, route = api_of(request.path_info), route_of(request)
        method = request.method if request.method in METHODS else "other"
        metrics.HTTP_LATENCY.labels(api, route, method).observe(elapsed)
        metrics.HTTP_REQUESTS.labels(api, route, method, str(response.status_code)).inc()
        return response
