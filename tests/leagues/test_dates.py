"""Season dates hold: an end before the start is refused, a tournament opens in a season only on
its days (both ways of opening), and a season just made does not empty the default standings."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from leagues.models import Season
from tests.api.snapshot import everything
from tests.leagues.helpers import (
    bot_tournament,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)

pytestmark = pytest.mark.django_db(transaction=True)


def day(offset: int) -> str:
    return (timezone.localdate() + timedelta(days=offset)).isoformat()


def test_a_season_that_ends_before_it_starts_is_refused(db: None) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    before = everything(), Season.objects.count()
    body = {"name": "Backwards", "starts_on": "2026-05-02", "ends_on": "2026-05-01"}
    response = post(client, f"leagues/{slug}/seasons/", body, org(token))
    refused(response, 400, "bad_season_dates")
    assert response.json()["details"] == {"starts_on": "2026-05-02", "ends_on": "2026-05-01"}
    assert (everything(), Season.objects.count()) == before
    one_day = {"name": "One day", "starts_on": "2026-05-02", "ends_on": "2026-05-02"}
    assert ok(post(client, f"leagues/{slug}/seasons/", one_day, org(token)))["ends_on"] == (
        "2026-05-02"
    )


@pytest.mark.parametrize(
    ("starts", "ends", "code"),
    [
        ("2020-01-01", "2020-12-31", "season_ended"),
        (None, -1, "season_ended"),  # days from today, counted when the test runs (not when
        (1, None, "season_not_started"),  # collected: a run may cross midnight)
        (1, 30, "season_not_started"),
    ],
)
def test_no_tournament_opens_outside_the_season(
    catalogue: Any, starts: str | int | None, ends: str | int | None, code: str
) -> None:
    starts, ends = (day(d) if isinstance(d, int) else d for d in (starts, ends))
    client = APIClient()
    token = create_organizer("org")
    dates: dict[str, Any] = {k: v for k, v in {"starts_on": starts, "ends_on": ends}.items() if v}
    slug, season = league_with_season(client, token, **dates)
    join_code = Season.objects.get(pk=season).join_code
    before = everything()
    by_organizer = post(
        client, f"leagues/{slug}/seasons/{season}/tournaments/", {"seats": 2}, org(token)
    )
    refused(by_organizer, 409, code)
    assert by_organizer.json()["details"] == {
        "starts_on": starts,
        "ends_on": ends,
        "today": day(0),
    }
    host = {"join_code": join_code, "name": "H", "seats": 2}
    by_host = post(client, "leagues/tournaments/", host)
    refused(by_host, 409, code)
    assert everything() == before


def test_a_tournament_opens_on_the_seasons_first_and_last_day(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token, starts_on=day(0), ends_on=day(0))
    path = f"leagues/{slug}/seasons/{season}/tournaments/"
    ok(post(client, path, {"seats": 2}, org(token)))


def test_a_new_season_does_not_empty_the_default_standings(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, spring = league_with_season(client, token)
    path = f"/api/v1/leagues/{slug}/standings/"
    assert client.get(path).json() == {"season": spring, "kind": "all", **_empty()}
    bot_tournament(client, token, slug, spring, seats=2)
    summer = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Summer"}, org(token)))["id"]
    default = client.get(path).json()
    assert default["season"] == spring and len(default["rows"]) == 2
    assert client.get(f"{path}?season={summer}").json()["rows"] == []
    bot_tournament(client, token, slug, summer, seats=3)
    default = client.get(path).json()
    assert default["season"] == summer and len(default["rows"]) == 3


def _empty() -> dict[str, Any]:
    return {
        "tiebreak": ["points", "wins", "finals", "fans", "played"],
        "rows": [],
        "corrections": [],
    }
