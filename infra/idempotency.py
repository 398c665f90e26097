"""Safe retries: ``Idempotency-Key`` on every ``POST`` under ``/api/v1/`` and to ``/graphql/``.

A client may get no answer, through a timeout or a dropped connection. It then resends the request
with the same key. The server repeats the first answer and changes nothing twice. The replay has the
first status and body, with the header ``Idempotent-Replayed: true``. Keys are per caller. The
caller is the ``Authorization`` header (a seat or organizer token). Without one, it is the client
address.

- The same key with another request → ``409 idempotency_key_reused``. Another request means
  another method, path, query or body.
- The same key while its first request still runs → ``409 idempotency_key_in_use``. Retry a
  moment later. The claim is a unique row, inserted before the view runs. So two concurrent
  duplicates can never both run, on PostgreSQL as on SQLite.
- A key over 255 characters or outside printable ASCII → ``400 bad_idempotency_key``.
- Answers of ``5xx`` and ``429`` are not kept. Nothing was done, so the retry runs again.
- A key expires a day after its first use (``IDEMPOTENCY_KEY_SECONDS``). A claim whose request
  never finished (a killed worker) may be taken again. That is after
  ``IDEMPOTENCY_IN_FLIGHT_SECONDS``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseBase, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.errors import error_body, graphql_error_body
from infra.models import IdempotencyKey

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
PREFIX = "/api/v1/"
GRAPHQL = "/graphql/"
PREFIXES = (PREFIX, GRAPHQL)  # a GraphQL mutation is retried safely as a REST action
MAX_KEY = 255
DEFAULT_TTL_SECONDS = 86_400
DEFAULT_IN_FLIGHT_SECONDS = 300


def ttl() -> timedelta:
    return timedelta(seconds=getattr(settings, "IDEMPOTENCY_KEY_SECONDS", DEFAULT_TTL_SECONDS))


def in_flight_limit() -> timedelta:
    seconds = getattr(settings, "IDEMPOTENCY_IN_FLIGHT_SECONDS", DEFAULT_IN_FLIGHT_SECONDS)
    return timedelta(seconds=seconds)


def _sha256(*parts: bytes | str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def client_address(request: HttpRequest) -> str:
    """The address DRF's throttles count (X-Forwarded-For's last entry behind the proxy)."""
    configured = settings.REST_FRAMEWORK.get("NUM_PROXIES")
    proxies = configured if isinstance(configured, int) else 0
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",")]
        return addresses[-min(proxies, len(addresses))]
    return str(request.META.get("REMOTE_ADDR", ""))


def caller_scope(request: HttpRequest) -> str:
    credential = request.headers.get("Authorization", "").strip()
    if credential:
        return _sha256("credential", credential)
    return _sha256("address", client_address(request))


def fingerprint(request: HttpRequest, body: bytes) -> str:
    return _sha256(
        request.method or "",
        request.get_full_path(),
        request.headers.get("Content-Type", ""),
        body,
    )


def _refusal(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code=code, message=message), status=status)


def _shaped(request: HttpRequest, refused: HttpResponseBase) -> HttpResponseBase:
    """A refusal of ours, shaped by its transport.

    That is GraphQL's ``errors`` on ``/graphql/``, REST's body elsewhere."""
    if not request.path_info.startswith(GRAPHQL) or not isinstance(refused, JsonResponse):
        return refused
    body = json.loads(refused.content)
    errors = graphql_error_body(code=body["code"], message=body["message"], details=body["details"])
    return JsonResponse(errors, status=refused.status_code)


def _valid(key: str) -> bool:
    return 0 < len(key) <= MAX_KEY and all(" " <= ch <= "~" for ch in key)


def purge_expired(now: datetime | None = None) -> int:
    """Delete every key past its day; returns how many."""
    moment = now or timezone.now()
    deleted, _by_model = IdempotencyKey.objects.filter(created__lt=moment - ttl()).delete()
    return deleted


def _claim(scope: str, key: str, print_: str) -> IdempotencyKey | HttpResponseBase:
    """Our own fresh claim on the key, or the answer to give instead of running the view."""
    for _attempt in range(3):
        now = timezone.now()
        try:
            with transaction.atomic():
                claim = IdempotencyKey.objects.create(
                    scope=scope, key=key, fingerprint=print_, created=now
                )
        except IntegrityError:
            pass
        else:
            purge_expired(now)
            return claim
        found = IdempotencyKey.objects.filter(scope=scope, key=key).first()
        if found is None:
            continue  # expired and deleted meanwhile: claim it again
        abandoned = found.status is None and found.created < now - in_flight_limit()
        if found.created < now - ttl() or abandoned:
            IdempotencyKey.objects.filter(pk=found.pk, created=found.created).delete()
            continue
        if found.fingerprint != print_:
            return _refusal(
                409,
                "idempotency_key_reused",
                _("This Idempotency-Key was used with another request: use a new key."),
            )
        if found.status is None:
            return _refusal(
                409,
                "idempotency_key_in_use",
                _("A request with this Idempotency-Key is still running: retry in a moment."),
            )
        return _replay(found)
    return _refusal(
        409, "idempotency_key_in_use", _("This Idempotency-Key is busy: retry in a moment.")
    )


def _replay(found: IdempotencyKey) -> HttpResponse:
    response = HttpResponse(
        bytes(found.body), status=found.status, content_type=found.content_type or None
    )
    response[REPLAYED] = "true"
    return response


def _keep(claim: IdempotencyKey, response: HttpResponseBase) -> None:
    status = response.status_code
    if status >= 500 or status == 429 or response.streaming or response.has_header(REPLAYED):
        IdempotencyKey.objects.filter(pk=claim.pk).delete()  # nothing done: a retry runs again
        return
    claim.status = status
    claim.content_type = response.get("Content-Type", "")
    claim.body = getattr(response, "content", b"")
    claim.save(update_fields=["status", "content_type", "body"])


class IdempotencyMiddleware:
    """Run a keyed ``POST`` under ``/api/v1/`` once per caller and key (see the module)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        key = request.headers.get(HEADER)
        if key is None or request.method != "POST" or not request.path_info.startswith(PREFIXES):
            return self.get_response(request)
        if not _valid(key):
            refused = _refusal(
                400,
                "bad_idempotency_key",
                _("An Idempotency-Key is 1-%(max)s printable ASCII characters.") % {"max": MAX_KEY},
            )
            return _shaped(request, refused)
        try:
            body = request.body
        except RequestDataTooBig:
            return self.get_response(request)  # refused as too_large further in
        outcome = _claim(caller_scope(request), key, fingerprint(request, body))
        if not isinstance(outcome, IdempotencyKey):
            return outcome if outcome.has_header(REPLAYED) else _shaped(request, outcome)
        try:
            response = self.get_response(request)
        except BaseException:
            IdempotencyKey.objects.filter(pk=outcome.pk).delete()
            raise
        _keep(outcome, response)
        return response
