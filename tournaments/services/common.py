"""Helpers every tournament service shares: tokens, locking, rule errors, versions."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import wraps
from typing import ParamSpec, TypeVar

from django.db import transaction
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from infra import rows
from infra.errors import ApplicationError, ConflictError, NotFoundError
from tournaments.models import Seat, Tournament
from tournaments.rules.errors import RuleError
from tournaments.selectors.viewers import hash_token
from tournaments.services.events import nudge_if_grew

P = ParamSpec("P")
R = TypeVar("R")


def new_token() -> tuple[str, str]:
    """A fresh seat token, and the hash stored in its place. The token is shown once."""
    token = secrets.token_urlsafe(24)
    return token, hash_token(token)


def rule_message(error: RuleError) -> str:
    """A rule's message in the active language: its template translated, then filled in."""
    text = gettext(error.template)
    return text % error.details if "%(" in text else text


def rule_errors(func: Callable[P, R]) -> Callable[P, R]:
    """Turn a pure rule's ``RuleError`` into the API's coded ``ConflictError``."""

    @wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return func(*args, **kwargs)
        except RuleError as error:
            refusal = ConflictError if error.status == 409 else ApplicationError
            raise refusal(error.code, rule_message(error), error.details) from error

    return wrapper


@contextmanager
def locked_tournament(tournament_id: int) -> Iterator[Tournament]:
    """A transaction holding the tournament row's lock.

    Every state change of a tournament takes this lock first. So two seats acting at the same
    instant are serialised. They can never draw the same pile card. Nor can both close the phase.
    Every change publishes an event. So the version moves exactly when the log grew. A task that
    finds nothing to do (a redelivery, a deadline not yet due) leaves clients' views fresh.
    """
    with transaction.atomic():
        tournament = rows.locked(Tournament, tournament_id)  # the SQL built once (infra.rows)
        if tournament is None:
            raise NotFoundError("not_found", _("No such tournament."))
        logged, phase = tournament.event_seq, (tournament.status, tournament.round)
        tournament.seq_saved_by_lock = True  # publish leaves event_seq and the nudge to the lock
        # One nudge for the whole block, registered first so it goes out first after the commit
        # (before the tasks the block queues): live streams then read the log themselves.
        transaction.on_commit(lambda: nudge_if_grew(tournament, logged))
        yield tournament
        if (tournament.status, tournament.round) != phase and not tournament.seats_moved:
            # A new phase or round changes every seat's situation: any view read before is stale.
            rows.increment_where(Seat, "version", "tournament_id", tournament.pk)
        owed = tournament.fields_owed
        if tournament.event_seq != logged or tournament.changed_quietly:
            tournament.version += 1
            owed |= {"event_seq", "version", "updated_at"}
        if owed:
            rows.save_fields(tournament, [f for f in _TOURNAMENT_FIELDS if f in owed])


_TOURNAMENT_FIELDS = tuple(f.attname for f in Tournament._meta.concrete_fields if not f.primary_key)


def save_later(tournament: Tournament, names: Sequence[str] | None = None) -> None:
    """Save these fields of the tournament's row, or every one if ``None``.

    Under ``locked_tournament`` the save waits for the block's end. It goes with the counter and the
    version, in one ``UPDATE``. Nothing in the block reads the row back. Outside the block it saves
    now.
    """
    if not tournament.seq_saved_by_lock:
        rows.save_fields(tournament, names)
        return
    tournament.fields_owed |= set(_TOURNAMENT_FIELDS if names is None else names)


def require_version(seat: Seat, expected: int | None) -> None:
    """Refuse an action taken on an out-of-date view of the seat's own situation.

    ``expected`` is the ``you.version`` the client read. It moves only when what this seat acts on
    changed: its own Deck Phase turn or deck, or the phase or round. Other seats' moves never make a
    seat's view stale: bots drafting, someone joining.
    """
    if expected is not None and expected != seat.version:
        raise ConflictError(
            "stale", _("Your situation changed since you looked."), {"version": seat.version}
        )
