"""Leagues' Celery tasks: thin interfaces that take ids and call one service.

The tournaments core queues ``tournament_finished`` and ``round_finished`` through
``settings.TOURNAMENT_HOOKS``. ``webhooks.emit`` queues ``deliver_webhook`` on commit.
"""

from __future__ import annotations

from celery import shared_task

from infra.taskqueue import RETRY_OPTIONS


@shared_task(acks_late=True, **RETRY_OPTIONS)
def tournament_finished(tournament_id: int, round_number: int) -> bool:
    from leagues.services import recording

    return recording.tournament_record(tournament_id=tournament_id)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def round_finished(tournament_id: int, round_number: int) -> bool:
    from leagues.services import recording

    return recording.round_announce(tournament_id=tournament_id, round_number=round_number)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def deliver_webhook(delivery_id: int) -> bool | None:
    """One attempt. A failure queues the next with exponential backoff (``webhooks``)."""
    from leagues.services import webhooks

    return webhooks.deliver(delivery_id=delivery_id)


@shared_task(acks_late=True, **RETRY_OPTIONS)
def sweep_deliveries() -> int:
    """Queue again the deliveries left pending.

    Kept for the beats of older releases. The reconciler now queues them
    (``webhooks.deliveries_owed``).
    """
    from leagues.services import webhooks

    return webhooks.deliveries_stalled()


@shared_task(acks_late=True, **RETRY_OPTIONS)
def scheduled_start(tournament_id: int) -> str:
    """A scheduled tournament's time has come: start it, or cancel it with the reason."""
    from leagues.services import schedules

    return schedules.scheduled_start(tournament_id=tournament_id)
