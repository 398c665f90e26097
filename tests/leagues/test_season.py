"""A season of bot-only tournaments opened by an organizer and played with in-process tasks:
each result enters once, the incremental standings and ratings equal a recomputation from
scratch, a member's history follows it across tournaments, and the exports parse back."""

from __future__ import annotations

import csv
import io
import itertools
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.models import (
    League,
    LeagueTournament,
    Member,
    Rating,
    RatingChange,
    Result,
    Season,
    Standing,
)
from leagues.selectors.leagues import standings_from_results
from leagues.services import recording
from leagues.tasks import tournament_finished
from tests.leagues.helpers import bot_tournament, create_organizer, league_with_season
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SEATS = (2, 3, 4, 2, 3, 2, 4, 3, 2, 3)


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every row recording wrote, by handles and tournament ids (not row ids)."""
    return {
        "results": sorted(
            Result.objects.values_list(
                "link__tournament_id",
                "member__handle",
                "seat",
                "place",
                "points",
                "fans",
                "champion",
                "finalist",
            )
        ),
        "standings": sorted(
            Standing.objects.values_list(
                "season_id", "member__handle", "points", "wins", "finals", "fans", "played"
            )
        ),
        "ratings": sorted(
            Rating.objects.values_list("member__handle", "mu", "sigma", "tournaments")
        ),
        "changes": sorted(
            RatingChange.objects.values_list(
                "link__tournament_id", "member__handle", "mu_before", "sigma_before", "mu", "sigma"
            )
        ),
    }


def play_season(client: APIClient, token: str) -> tuple[str, int, list[int]]:
    slug, season = league_with_season(client, token, robot_difficulty=2)
    return slug, season, [bot_tournament(client, token, slug, season, n) for n in SEATS]


def test_a_season_of_bot_tournaments_records_each_once_and_recomputes_the_same(
    catalogue: Any,
) -> None:
    client = APIClient()
    slug, season, tids = play_season(client, create_organizer("org"))
    tournaments = Tournament.objects.filter(pk__in=tids)
    assert {t.status for t in tournaments} == {"finished"}
    assert {t.robot_difficulty for t in tournaments} == {2}  # the season's option
    links = LeagueTournament.objects.filter(tournament_id__in=tids).order_by("recorded_seq")
    assert [link.recorded_seq for link in links] == list(range(1, len(SEATS) + 1))
    assert Member.objects.filter(kind="bot").count() == max(SEATS)  # one bot member per name
    incremental = snapshot()
    assert len(incremental["results"]) == sum(SEATS)

    # A redelivered hook task changes nothing: the result entered once.
    assert tournament_finished.apply(args=(tids[0], 8)).get() is False
    assert snapshot() == incremental

    # The incremental totals are the sums of the results, and a recomputation of the whole
    # league from its tournaments (in their recorded order) writes exactly the same rows.
    by_sums = standings_from_results(Season.objects.get(pk=season))
    by_rows = sorted(
        Standing.objects.values_list("member__handle", "points", "wins", "finals", "fans", "played")
    )
    assert by_sums == by_rows
    league = League.objects.get(slug=slug)
    assert recording.league_recompute(league_id=league.pk) == len(SEATS)
    assert snapshot() == incremental

    standings = client.get(f"/api/v1/leagues/{slug}/standings/").json()
    rows = standings["rows"]
    assert standings["tiebreak"] == ["points", "wins", "finals", "fans", "played"]
    assert sum(row["wins"] for row in rows) >= len(SEATS)  # shared wins count for both
    assert rows[0]["rank"] == 1 and rows[0]["decided_by"] is None
    for above, row in itertools.pairwise(rows):
        assert tuple(above["vector"][:4]) >= tuple(row["vector"][:4])
        assert row["decided_by"] in ("tied", *standings["tiebreak"])
        assert row["kind"] == "bot" and row["rating"]["sigma"] < 25 / 3

    # The CSV export is the same table.
    response = client.get(f"/api/v1/leagues/{slug}/standings/?format=csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="club-season-{season}-standings.csv"'
    )
    assert response.content.startswith(b"\xef\xbb\xbf")  # UTF-8 with BOM, for spreadsheets
    parsed = list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert [(r["member"], int(r["rank"]), int(r["points"])) for r in parsed] == [
        (r["member"], r["rank"], r["points"]) for r in rows
    ]
    assert [float(r["ordinal"]) for r in parsed] == [round(r["rating"]["ordinal"], 2) for r in rows]

    # A member's history: every tournament it played, in order, with its rating's change.
    history = client.get(f"/api/v1/leagues/{slug}/members/Bot Ada (rookie)/").json()
    assert [h["tournament"] for h in history["tournaments"]] == tids  # seat 0 sat in all
    assert sum(h["points"] for h in history["tournaments"]) == next(
        r["points"] for r in rows if r["member"] == "Bot Ada (rookie)"
    )
    changes = [h["rating"]["change"] for h in history["tournaments"]]
    assert history["rating"]["ordinal"] == pytest.approx(
        Rating.objects.get(member__handle="Bot Ada (rookie)").mu
        - 3 * Rating.objects.get(member__handle="Bot Ada (rookie)").sigma
    )
    assert sum(changes) == pytest.approx(history["rating"]["ordinal"] - (25 - 3 * 25 / 3))

    # The season as JSON lines: each tournament, then its matches.
    lines = client.get(f"/api/v1/leagues/{slug}/seasons/{season}/lines/")
    assert lines["Content-Type"] == "application/x-ndjson"
    records = [json.loads(line) for line in lines.content.decode().splitlines()]
    assert [r["id"] for r in records if r["type"] == "tournament"] == tids
    played = {r["tournament"] for r in records if r["type"] == "match"}
    assert played == set(tids)
    assert all(r["winner"] in r["seats"] for r in records if r["type"] == "match")
