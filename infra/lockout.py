"""The admin login's lockout (django-axes), and what staff hear of it.

Axes counts failed logins per pair of account and address (``AXES_LOCKOUT_PARAMETERS``). Say five
wrong passwords for ``admin`` come from one address. They lock ``admin`` *from that address*
only. So a stranger cannot keep the owner out. The owner logs in from any other address. Tries
during the cool-off are refused without being counted. So they do not make it longer
(``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT``).

``lockout_response`` is the refusal (``AXES_LOCKOUT_CALLABLE``). It is a translated page saying
how many minutes remain, with status 429 and ``Retry-After``. ``report_lockout`` logs
``login_locked_out``. It counts ``challengers_login_lockouts_total`` once per lockout. An alert
rule watches that count.
"""

from __future__ import annotations

import logging
import math
from datetime import datetime, timedelta

from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib import admin
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.timezone import now

from infra import metrics

log = logging.getLogger("challengers.events")

TEMPLATE = "lockout/locked_out.html"
MAX_LOGGED_NAME = 150  # a username is whatever the form was sent: a log line stays short


def report_lockout(
    sender: object, request: HttpRequest, username: str | None, ip_address: str, **kwargs: object
) -> None:
    """Axes' ``user_locked_out``: log and count a lockout as it begins.

    Axes signals again for each try while locked. Those tries were never counted:
    no failure was recorded for them (``axes_failures_since_start`` is unset). So they are not
    reported."""
    if getattr(request, "axes_failures_since_start", None) is None:
        return
    name = (username or "")[:MAX_LOGGED_NAME]
    metrics.LOGIN_LOCKOUTS.inc()
    log.warning(
        "login_locked_out username=%s address=%s",
        name,
        ip_address,
        extra={"event": "login_locked_out", "username": name, "address": ip_address},
    )


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """Refuse a login from a locked pair; the page states the minutes left."""
    left = time_left(request, credentials)
    minutes = max(1, math.ceil(left.total_seconds() / 60))
    context = {**admin.site.each_context(request), "minutes": minutes, "title": ""}
    response = render(request, TEMPLATE, context, status=settings.AXES_HTTP_RESPONSE_CODE)
    response["Retry-After"] = str(max(1, math.ceil(left.total_seconds())))
    return response


def time_left(request: HttpRequest, credentials: dict | None) -> timedelta:
    """How long this request's pair of account and address stays locked.

    The cool-off counts from the last recorded failure. Tries while locked are not
    recorded."""
    cool_off = get_cool_off(request) or timedelta(0)
    address = getattr(request, "axes_ip_address", None)  # set by axes on every request
    last = _last_failure(get_client_username(request, credentials), address)
    if last is None:
        return cool_off
    return max(timedelta(0), last + cool_off - now())


def _last_failure(username: str | None, address: str | None) -> datetime | None:
    attempts = AccessAttempt.objects.filter(username=username, ip_address=address)
    latest: datetime | None = attempts.aggregate(last=Max("attempt_time"))["last"]
    return latest
