"""The release rule (``matches.release``) with a fixed clock, and its one definition of a public
result: finished, and its release time come. A result stored finished with its release time
still ahead shows nothing of the result, and its rival's revealed cards stay unseen."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches.engine.model import MatchResult
from matches.models import Match, MatchStatus
from matches.observer import SPECTATOR
from matches.release import held, is_released, public_results, released, result_public
from matches.selectors import match_view, public_status
from matches.services import match_store
from tests.matches.test_rules_version import hacker_match
from tournaments.models import TournamentEvent
from tournaments.services.matchruns import run_engine

pytestmark = pytest.mark.django_db(transaction=True)

NOW = timezone.now()
LATER = NOW + timedelta(hours=1)


def test_a_fact_is_released_once_its_time_has_come() -> None:
    assert is_released(NOW, now=NOW)
    assert not is_released(NOW + timedelta(microseconds=1), now=NOW)
    assert is_released(None, now=NOW)  # no release time: out


def stored_finished(release_at: Any) -> Match:
    """The Hacker match stored unpaced (so ``finished``), its events released at
    ``release_at``."""
    match = hacker_match("release")
    result = run_engine(match, [])
    assert isinstance(result, MatchResult)
    match_store(match, result, now=NOW, pace=0, floor=release_at)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED and match.result_visible_at == release_at
    return match


def test_a_result_stored_finished_before_its_release_time_is_not_public(catalogue: Any) -> None:
    match = stored_finished(LATER)
    assert not result_public(match, now=NOW) and result_public(match, now=LATER)
    view = match_view(match, SPECTATOR)
    assert (view.winner, view.reason, view.fans_gained) == (None, None, None)
    assert public_status(match) == "playing"
    assert not Match.objects.filter(public_results(), pk=match.pk).exists()
    assert Match.objects.filter(public_results(now=LATER), pk=match.pk).exists()


def test_a_released_result_is_public(catalogue: Any) -> None:
    match = stored_finished(NOW)
    view = match_view(match, SPECTATOR)
    assert view.winner is not None and public_status(match) == "finished"


def test_the_log_filters_split_at_the_clock_given(catalogue: Any) -> None:
    match = hacker_match("split")
    rows = TournamentEvent.objects.filter(tournament_id=match.tournament_id)
    total, after = rows.count(), timezone.now()
    assert total and rows.filter(released(now=after)).count() == total
    assert not rows.filter(held(now=after)).exists()
    before = NOW - timedelta(days=1)
    assert rows.filter(held(now=before)).count() == total
    assert not rows.filter(released(now=before)).exists()
