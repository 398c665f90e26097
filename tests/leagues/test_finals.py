"""A 1-2 seat game has no Final: its champion has no Final counted in the standings, and a
manual result of it names no finalist, as the game itself names none (docs/leagues.md,
*Decision — ties and Finals*)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import Result, Standing
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    league_with_season,
    ok,
)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_two_seat_game_counts_no_final_as_played_or_entered_by_hand(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=2)
    results = Result.objects.filter(link__tournament_id=tid)
    assert results.filter(champion=True).exists() and not results.filter(finalist=True).exists()
    assert set(Standing.objects.values_list("finals", flat=True)) == {0}
    handles = sorted(results.values_list("member__handle", flat=True))
    places = {handles[0]: 2, handles[1]: 1}
    ok(
        correct(
            client, token, slug, kind="manual_result", tournament=tid, places=places, reason="x"
        )
    )
    assert not results.filter(finalist=True).exists()
    assert set(Standing.objects.values_list("finals", flat=True)) == {0}


def test_a_manual_result_of_a_final_keeps_the_champion_a_finalist(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    results = Result.objects.filter(link__tournament_id=tid)
    played = sorted(results.values_list("place", "champion", "finalist"))
    order = list(results.order_by("place").values_list("member__handle", flat=True))
    places = {handle: place for place, handle in enumerate(order, start=1)}
    ok(
        correct(
            client, token, slug, kind="manual_result", tournament=tid, places=places, reason="x"
        )
    )
    assert sorted(results.values_list("place", "champion", "finalist")) == played
    assert sorted(Standing.objects.values_list("finals", flat=True)) == [0, 1, 1]
