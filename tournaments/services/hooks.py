"""The tournaments core's one extension point, ``settings.TOURNAMENT_HOOKS``.

When a round or a tournament finishes, the tasks named there are queued by name, after the commit.
The setting reads:

    TOURNAMENT_HOOKS = {"round_finished": [hook, …], "tournament_finished": […]}

Each ``hook`` is the name of a task (``"pkg.tasks.f"``), or
``{"task": "pkg.tasks.f", "when": "pkg.module.g"}``. With ``when``, the task is queued only for a
tournament that ``g(tournament_id)`` is true of. A league's tasks use this: no task per round for
every tournament outside the league. The task gets ``(tournament_id, round)``. Apps built on
tournaments (leagues) react this way. So the core never imports them. A hook task must be
idempotent: a redelivered task may run it twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.module_loading import import_string

from infra.taskqueue import enqueue_named

KINDS = ("round_finished", "tournament_finished")


def fire(kind: str, *, tournament_id: int, round_number: int) -> None:
    """Queue ``kind``'s hook tasks that want this tournament, once the transaction commits."""
    names = [
        hook["task"] if isinstance(hook, dict) else hook
        for hook in getattr(settings, "TOURNAMENT_HOOKS", {}).get(kind, ())
        if not isinstance(hook, dict)
        or "when" not in hook
        or import_string(hook["when"])(tournament_id)
    ]
    if names:
        transaction.on_commit(lambda: _queue(names, tournament_id, round_number))


def _queue(names: list[str], tournament_id: int, round_number: int) -> None:
    for name in names:
        enqueue_named(name, tournament_id, round_number)
