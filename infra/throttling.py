"""Throttles of the API's writes: creating, joining, acting (``429 throttled`` with Retry-After).

Each scope counts requests per client address in Django's cache. With ``REDIS_URL`` it is Redis,
shared by all server processes. Otherwise it is this process's memory. The rates come from the
``THROTTLE_RATES`` setting. The environment sets it (``THROTTLE_CREATE``/``_JOIN``/``_ACTION``). It
is read on each request, so a test can lower it with ``settings.THROTTLE_RATES = {...}``. A scope
without a rate is not throttled. While Redis is down the cache counts nothing, since ``infra.cache``
fails open. So requests pass, never refused or answered 500.
"""

from __future__ import annotations

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from infra import metrics


class ScopeThrottle(SimpleRateThrottle):
    """A throttle per client address for one ``scope``, which a subclass names."""

    scope = ""

    def __init__(self) -> None:  # DRF's reads the rate once at import time; ours on each request
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)

    def get_rate(self) -> str | None:
        rates: dict[str, str | None] = getattr(settings, "THROTTLE_RATES", {})
        return rates.get(self.scope)

    def throttle_failure(self) -> bool:
        metrics.THROTTLED.labels(self.scope).inc()
        return super().throttle_failure()

    def get_cache_key(self, request: Request, view: APIView) -> str | None:
        ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}


class CreateThrottle(ScopeThrottle):
    scope = "create"


class JoinThrottle(ScopeThrottle):
    scope = "join"


class ActionThrottle(ScopeThrottle):
    scope = "action"
