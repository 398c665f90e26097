"""Celery tasks of the Deck Phase: thin interfaces that take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from tournaments.services import clock, deck


@shared_task(acks_late=True)
def bot_deck_phase(tournament_id: int, seat_id: int) -> None:
    deck.bot_deck_phase(tournament_id=tournament_id, seat_id=seat_id)


@shared_task(acks_late=True)
def enforce_deck_deadline(tournament_id: int, round_number: int) -> bool:
    return deck.enforce_deck_deadline(tournament_id=tournament_id, round_number=round_number)


@shared_task(acks_late=True)
def sweep_deadlines() -> int:
    """Enforce every passed deadline (Celery beat runs this every few seconds)."""
    return clock.sweep_deadlines()
