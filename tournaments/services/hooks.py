"""The tournaments core's one extension point: when a round or a tournament finishes, queue the
tasks named in ``settings.TOURNAMENT_HOOKS`` (by name, after the commit).

``TOURNAMENT_HOOKS = {"round_finished": ["pkg.tasks.f", …], "tournament_finished": […]}``: each
task gets ``(tournament_id, round)``. Apps built on tournaments (leagues) react this way, so the
core never imports them. A hook task must be idempotent: a redelivered task may run it twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from config.taskqueue import enqueue_named

KINDS = ("round_finished", "tournament_finished")


def fire(kind: str, *, tournament_id: int, round_number: int) -> None:
    """Queue ``kind``'s hook tasks once the caller's transaction commits."""
    names = list(getattr(settings, "TOURNAMENT_HOOKS", {}).get(kind, ()))
    if names:
        transaction.on_commit(lambda: _queue(names, tournament_id, round_number))


def _queue(names: list[str], tournament_id: int, round_number: int) -> None:
    for name in names:
        enqueue_named(name, tournament_id, round_number)
