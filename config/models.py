"""The server's own rows, outside any game: the idempotency keys of retried POSTs."""

from __future__ import annotations

from django.db import models


class IdempotencyKey(models.Model):
    """One caller's ``Idempotency-Key``: claimed while its request runs, then its first answer.

    ``scope`` names the caller (a hash of its credential, or its address); ``fingerprint`` hashes
    the request (method, path, body). ``status`` is ``None`` while the first request is in flight.
    """

    scope = models.CharField(max_length=64)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    created = models.DateTimeField(db_index=True)
    status = models.PositiveSmallIntegerField(null=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.BinaryField(default=b"")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["scope", "key"], name="idempotency_key_per_caller")
        ]

    def __str__(self) -> str:
        return f"{self.key} ({self.status or 'in flight'})"
