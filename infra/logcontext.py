"""Who a log line is about: the request, tournament and task ids, carried into queued tasks.

Each id lives in a context variable. ``RequestContextMiddleware`` sets the request id. That is the
client's ``X-Request-ID`` when it is a sane token, else a new one. The response echoes it. The
middleware also sets the tournament id of a ``/tournaments/<id>/…`` route. Say that request queues a
task. Celery's ``before_task_publish`` copies the ids into the message's headers. On the worker,
``task_prerun`` sets them again, with the task's own id. So the worker's lines about it carry the
request's ids. ``ContextFilter`` puts them on every record. ``infra.logformat`` writes them.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any

from django.http import HttpRequest, HttpResponseBase

HEADER = "X-Request-ID"
FIELDS = ("request_id", "tournament_id", "task_id")
CARRIED = ("request_id", "tournament_id")
"""What a queued task inherits from its publisher (its own ``task_id`` is set on the worker)."""
HEADER_PREFIX = "challengers_"
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")
_TOURNAMENT_KWARGS = ("tournament_id", "pk")

_VARS: dict[str, ContextVar[Any]] = {name: ContextVar(name, default=None) for name in FIELDS}


def current() -> dict[str, object]:
    """The ids set now (only those set)."""
    values = {name: var.get() for name, var in _VARS.items()}
    return {name: value for name, value in values.items() if value is not None}


def bind(**values: object) -> dict[str, Token[object]]:
    return {name: _VARS[name].set(value) for name, value in values.items()}


def unbind(tokens: dict[str, Token[object]]) -> None:
    for name, token in tokens.items():
        _VARS[name].reset(token)


@contextmanager
def bound(**values: object) -> Iterator[None]:
    tokens = bind(**values)
    try:
        yield
    finally:
        unbind(tokens)


def request_id_of(request: HttpRequest) -> str:
    sent = request.headers.get(HEADER, "")
    return sent if _SANE_ID.fullmatch(sent) else uuid.uuid4().hex


class RequestContextMiddleware:
    """Bind the request id for the request, and answer with it in ``X-Request-ID``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        request_id = request_id_of(request)
        with bound(request_id=request_id, tournament_id=None, task_id=None):
            response = self.get_response(request)
        response[HEADER] = request_id
        return response

    def process_view(
        self, request: HttpRequest, view: object, args: object, kwargs: dict[str, object]
    ) -> None:
        """Put a tournament route's id on every line of the request."""
        match = request.resolver_match
        if match is None or "tournaments/" not in (match.route or ""):
            return
        for name in _TOURNAMENT_KWARGS:
            if isinstance(kwargs.get(name), int):
                _VARS["tournament_id"].set(kwargs[name])
                return


class ContextFilter(logging.Filter):
    """Put the current context's ids on the record; an id in ``extra`` wins."""

    def filter(self, record: logging.LogRecord) -> bool:
        for name, var in _VARS.items():
            if getattr(record, name, None) is None:
                setattr(record, name, var.get())
        return True


def headers_to_send() -> dict[str, object]:
    """The ids a task queued now inherits, as headers."""
    return {f"{HEADER_PREFIX}{name}": value for name, value in current().items() if name in CARRIED}


def ids_received(headers: dict[str, object]) -> dict[str, object]:
    """The ids a task's message carries (from ``headers_to_send``)."""
    return {name: headers.get(f"{HEADER_PREFIX}{name}") for name in CARRIED}
