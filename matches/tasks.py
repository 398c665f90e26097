"""Celery tasks of the Match Phase: thin interfaces that take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from matches import services


@shared_task(acks_late=True)
def play_match(match_id: int) -> None:
    services.match_play(match_id=match_id)


@shared_task(acks_late=True)
def answer_timeout(match_id: int, question: int) -> bool:
    return services.match_answer_timeout(match_id=match_id, question=question)


@shared_task(acks_late=True)
def verify_match(match_id: int) -> bool:
    return services.match_verify(match_id=match_id)
