"""Leagues' Celery tasks: thin interfaces that take ids and call one service.

``tournament_finished`` and ``round_finished`` are queued by the tournaments core through
``settings.TOURNAMENT_HOOKS``; ``deliver_webhook`` by ``webhooks.emit``, on commit.
"""

from __future__ import annotations

from celery import Task, shared_task

# Attempts of one webhook delivery: 2, 4, 8, 16 s apart, then every 25 s (kept under half the
# broker's visibility timeout, so a waiting retry is not delivered twice).
MAX_ATTEMPTS = 8
BACKOFF_SECONDS = 2
BACKOFF_CAP_SECONDS = 25


@shared_task(acks_late=True)
def tournament_finished(tournament_id: int, round_number: int) -> bool:
    from tournaments.leagues import recording

    return recording.tournament_record(tournament_id=tournament_id)


@shared_task(acks_late=True)
def round_finished(tournament_id: int, round_number: int) -> bool:
    from tournaments.leagues import recording

    return recording.round_announce(tournament_id=tournament_id, round_number=round_number)


@shared_task(bind=True, acks_late=True, max_retries=MAX_ATTEMPTS - 1)
def deliver_webhook(self: Task, delivery_id: int) -> bool | None:
    """One attempt; a failure is retried with exponential backoff, the last one marks it failed.

    The delivery's row stays ``pending`` between attempts, so a worker that dies then loses
    nothing: ``sweep_deliveries`` queues it again.
    """
    from tournaments.leagues import webhooks

    done = webhooks.deliver(delivery_id=delivery_id)
    if done is False:
        if self.request.retries >= MAX_ATTEMPTS - 1:
            webhooks.delivery_give_up(delivery_id=delivery_id)
            return False
        wait = min(BACKOFF_SECONDS * 2**self.request.retries, BACKOFF_CAP_SECONDS)
        raise self.retry(countdown=wait)
    return done


@shared_task(acks_late=True)
def sweep_deliveries() -> int:
    """Queue again the deliveries left pending (Celery beat, every minute)."""
    from tournaments.leagues import webhooks

    return webhooks.deliveries_stalled()
