"""The server's own rows, outside any game.

They are the idempotency keys of retried POSTs, the processes' heartbeats, the periodic jobs'
leases and the reconciler's nudges."""

from __future__ import annotations

from django.db import models


class IdempotencyKey(models.Model):
    """One caller's ``Idempotency-Key``: claimed while its request runs, then its first answer.

    ``scope`` names the caller: a hash of its credential, or its address. ``fingerprint`` hashes
    the request (method, path, body). ``status`` is ``None`` while the first request runs.
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


class Heartbeat(models.Model):
    """A process's last sign of life (``infra.liveness``).

    Each worker's clock writes its own every few seconds. The reconcile task writes ``beat`` when
    beat sent it."""

    name = models.CharField(max_length=200, unique=True)
    role = models.CharField(max_length=10)  # "worker" or "beat"
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.role} {self.name} at {self.seen_at:%H:%M:%S}"


class Lease(models.Model):
    """A periodic job's turn (``infra.liveness.lease_claim``).

    The process whose conditional update moved ``until`` runs the job. So many worker clocks (and
    beat) run one job once per period."""

    name = models.CharField(max_length=100, unique=True)
    holder = models.CharField(max_length=200, blank=True)
    until = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.name} held by {self.holder or 'nobody'} until {self.until:%H:%M:%S}"


class Nudge(models.Model):
    """When the reconciler last queued a task for one piece of owed work.

    ``key`` names the work, e.g. ``match:12``. A task still in flight is not queued again before
    the bound has passed.

    The owed work itself is never stored here. It is derived from the game's rows. The nudge is
    written only once the broker takes the task. So a failed send leaves the work due again."""

    key = models.CharField(max_length=100, unique=True)
    queued_at = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key} queued at {self.queued_at:%H:%M:%S}"
