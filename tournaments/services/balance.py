"""Balance simulations of card designs.

The admin queues them: a worker plays them, and the row shows the progress. Or
``manage.py card_balance`` runs them. The trials themselves are pure
(``tournaments.rules.balance``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from cards.models import Card, SetKind
from cards.selectors import playable_sets
from cards.snapshots import snapshot_specs, snapshot_take
from infra import rows
from infra.errors import ApplicationError
from infra.taskqueue import DATABASE_ERRORS, enqueue_named
from tournaments.models import BalanceStatus, CardBalance
from tournaments.rules.balance import Balance, balance_trials
from tournaments.rules.data import catalogue_data
from tournaments.rules.options import CITY, SETS_IN_GAME, STARTER_SET

DRAFTED = ("A", "B", "C")
MAX_MATCHES = 5000


def card_balance_queue(*, key: str, matches: int, seed: int = 0) -> CardBalance:
    """Queue a simulation of ``key``, an A, B or C design, for a worker after commit."""
    balance = card_balance_create(key=key, matches=matches, seed=seed)
    balance_id = balance.pk
    transaction.on_commit(lambda: enqueue_named("tournaments.tasks.card_balance", balance_id))
    return balance


def card_balances_queue(*, keys: Sequence[str], matches: int) -> dict[str, str | None]:
    """Queue simulations of ``keys`` at once. Return each key's refusal message (None: queued).

    One transaction creates every row. The tasks are sent after it commits. Before, each was queued
    in autocommit, and its task left as its row was written. The embedded server's worker thread, or
    an eager Celery, then played the first. The request meanwhile still wrote the others. The answer
    waited for it: 9 s for eleven cards (docs/performance.md).
    """
    refused: dict[str, str | None] = {}
    with transaction.atomic():
        for key in keys:
            try:
                card_balance_queue(key=key, matches=matches)
                refused[key] = None
            except ApplicationError as error:
                refused[key] = error.message
    return refused


def card_balance_create(*, key: str, matches: int, seed: int = 0) -> CardBalance:
    """The row of a new simulation. A design not drafted, or a bad count, is refused."""
    problem = _not_simulated(key)
    if problem is not None:
        raise ApplicationError("not_simulated", problem, {"key": key})
    if not 1 <= matches <= MAX_MATCHES:
        message = _("Matches are 1 to %(max)s.") % {"max": MAX_MATCHES}
        raise ApplicationError("invalid", message, {"matches": matches})
    return CardBalance.objects.create(key=key, matches=matches, seed=seed)


def _not_simulated(key: str) -> str | None:
    """Why ``key`` cannot be simulated, or None when it can.

    The worker plays the card data new tournaments get.
    """
    set_name, _slash, name = key.partition("/")
    card = Card.objects.filter(card_set__name=set_name, name=name).select_related("card_set")
    found = card.first()
    if found is None or found.level not in DRAFTED:
        return _("Only an A, B or C card in play can be simulated.")
    if found.card_set.retired:
        return _("Its set %(set)s is retired: new tournaments do not play it.") % {"set": set_name}
    if found.retired:
        return _("The card is retired: new tournaments do not play it.")
    return None


def card_balance_run(*, balance_id: int) -> CardBalance | None:
    """Play a queued simulation, keeping its progress on its row.

    None if another worker has claimed it. The claim is one conditional UPDATE. So no two workers
    play the same one.
    """
    claimed = CardBalance.objects.filter(pk=balance_id, status=BalanceStatus.QUEUED).update(
        status=BalanceStatus.RUNNING
    )
    if not claimed:
        return None
    balance = CardBalance.objects.get(pk=balance_id)
    try:
        result = _trials(balance)
    except DATABASE_ERRORS:
        # An outage, not a broken simulation: hand the row back so the task's retry claims it
        # again (if the database is still down, this fails too and the retry finds it running).
        CardBalance.objects.filter(pk=balance_id).update(status=BalanceStatus.QUEUED)
        raise
    except Exception as error:
        CardBalance.objects.filter(pk=balance_id).update(
            status=BalanceStatus.FAILED, error=_reason(error), finished_at=timezone.now()
        )
        raise
    _keep(balance_id, result, status=BalanceStatus.DONE, finished_at=timezone.now())
    return CardBalance.objects.get(pk=balance_id)


def _reason(error: Exception) -> str:
    """A failure as the simulation list shows it: the error's kind and message."""
    return f"{type(error).__name__}: {error}"[:2000]


def _trials(balance: CardBalance) -> Balance:
    specs = snapshot_specs(snapshot_take().pk)
    sets = _sets_for(balance.key.partition("/")[0], balance.seed)
    return balance_trials(
        key=balance.key,
        specs=specs,
        pools=_pools(sets),
        starter=[f"{STARTER_SET['base']}/{name}" for name in _starter_names()],
        sets_in_play=sets,
        matches=balance.matches,
        seed=balance.seed,
        progress=lambda done, so_far: _keep(balance.pk, so_far),
    )


def _keep(balance_id: int, result: Balance, **more: object) -> None:
    fields: dict[str, object] = {"done": result.matches, "wins_with": result.wins_with}
    fields |= {"wins_without": result.wins_without, **more}
    rows.update_where(CardBalance, {"id": balance_id}, **fields)


def _sets_for(set_name: str, seed: int) -> list[str]:
    """City, the card's set, and playable additional sets drawn (seeded) to make five."""
    others = sorted(name for name in playable_sets() if name != set_name)
    chosen = [set_name] if set_name != CITY else []
    chosen += random.Random(f"balance-sets:{seed}:{set_name}").sample(
        others, min(len(others), SETS_IN_GAME - len(chosen))
    )
    return [CITY, *chosen]


def _pools(sets: Sequence[str]) -> dict[str, list[str]]:
    """Every A/B/C card of ``sets`` not retired, by level, one entry per copy."""
    pools: dict[str, list[str]] = {level: [] for level in DRAFTED}
    cards = Card.objects.filter(
        card_set__name__in=sets, retired=False, card_set__retired=False, level__in=DRAFTED
    ).filter(card_set__kind__in=[SetKind.BASIC, SetKind.ADDITIONAL])
    for set_name, name, level, copies in cards.order_by("pk").values_list(
        "card_set__name", "name", "level", "copies"
    ):
        pools[level] += [f"{set_name}/{name}"] * (copies or 1)
    return pools


def _starter_names() -> list[str]:
    return list(catalogue_data()["starter_decks"]["contents"])
