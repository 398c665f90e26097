"""Nobody reads a match's result ahead of its paced events, on any endpoint."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from matches.models import Match, MatchEvent
from tests.tournaments.test_scoring import two_humans

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_winner_trophy_and_fans_wait_for_the_last_event(catalogue: Any, settings: Any) -> None:
    settings.MATCH_EVENT_PACE_SECONDS = 30
    host, guest = two_humans(seed=6)
    while host.get()["round"] == 1:
        assert host.act() or guest.act()
    match = Match.objects.get(tournament_id=host.id, round=1)
    assert match.winner is not None
    view = host.get()
    assert view["trophies"] == [] and all(s["trophies"] == 0 for s in view["standings"])
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert (shown["status"], shown["winner"], shown["reason"]) == ("playing", None, None)
    events = host.client.get(f"/api/v1/matches/{match.pk}/events/", headers=host.headers).json()
    assert all(event["kind"] != "end" for event in events)
    past = timezone.now() - timedelta(seconds=1)
    MatchEvent.objects.filter(match=match).update(visible_at=past)
    Match.objects.filter(pk=match.pk).update(result_visible_at=past)
    view = host.get()
    assert [t["seat"] for t in view["trophies"]] == [match.winner.number]
    shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=host.headers).json()
    assert shown["winner"] == match.winner.number and shown["status"] == "finished"
