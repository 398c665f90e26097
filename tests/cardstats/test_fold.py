"""Recordings append their counts (a row of their own) and a task folds them into the stored
rows: the rows are those a direct write leaves, and nothing is folded twice."""

from __future__ import annotations

from typing import Any

import pytest

from tournaments.models import CardStat, CardStatDelta
from tournaments.rules.cardstats import Counts, tally_rows
from tournaments.services.cardstats import card_stats_append, card_stats_fold, card_stats_write
from tournaments.services.reconcile import reconcile

pytestmark = pytest.mark.django_db

FIELDS = ("key", "sets", "player", "offered", "picked", "decks", "deck_wins", "effects")
RECORDED = [
    ({("Castle/Dragon", "human"): Counts(decks=1, deck_wins=1)}, "Castle+City"),
    ({("Castle/Dragon", "rookie"): Counts(offered=3, picked=1)}, "Castle+City"),
    ({("City/Dog", "human"): Counts(decks=1, effects=2)}, "City+Funfair"),
]


def stored() -> list[tuple[Any, ...]]:
    return sorted(CardStat.objects.values_list(*FIELDS))


def test_the_fold_adds_what_recordings_appended_as_a_direct_write_would() -> None:
    for tally, sets in RECORDED:
        card_stats_write(tally_rows(tally, sets))
    direct = stored()
    CardStat.objects.all().delete()
    for tally, sets in RECORDED:  # in the test's transaction: no fold queued on commit
        card_stats_append(tally_rows(tally, sets))
    assert CardStatDelta.objects.count() == 3 and not CardStat.objects.exists()
    assert card_stats_fold() == 3
    assert stored() == direct and not CardStatDelta.objects.exists()
    assert card_stats_fold() == 0 and stored() == direct  # nothing folded twice


def test_the_reconciler_folds_what_a_lost_fold_task_left(catalogue: Any) -> None:
    tally, sets = RECORDED[0]
    card_stats_append(tally_rows(tally, sets))
    reconcile()
    assert not CardStatDelta.objects.exists()
    assert CardStat.objects.get(key="Castle/Dragon", sets="", player="human").decks == 1
