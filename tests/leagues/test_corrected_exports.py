"""Exports and reads that carry corrections: the corrected winners (never the as-played ones
next to them) and each correction's kind, reason and time, in the season's JSON lines, the
standings and results JSON and CSV, and a member's history rows."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    handle_at,
    league_with_season,
    ok,
)

pytestmark = pytest.mark.django_db(transaction=True)

REASON = "Left before the Final"


@pytest.fixture
def forfeited(catalogue: Any) -> dict[str, Any]:
    """A 3-seat season tournament whose champion forfeited the Final."""
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tid = bot_tournament(client, token, slug, season, seats=3)
    final = Match.objects.select_related("seat_a", "seat_b").get(tournament_id=tid, round=8)
    loser = final.seat_b if final.winner_id == final.seat_a_id else final.seat_a
    champion = handle_at(tid, final.winner_id or 0)
    body = {"kind": "forfeit", "reason": REASON, "tournament": tid, "match": final.pk}
    made = ok(correct(client, token, slug, **body, member=champion))
    return {
        "client": client,
        "token": token,
        "slug": slug,
        "season": season,
        "tid": tid,
        "final": final,
        "as_played": final.winner.number if final.winner else None,
        "new_champion": loser.number,
        "champion": champion,
        "correction": made,
    }


def sections(body: bytes) -> list[list[list[str]]]:
    """A CSV's tables, split at its empty lines."""
    found: list[list[list[str]]] = [[]]
    for line in csv.reader(io.StringIO(body.decode("utf-8-sig"))):
        if line:
            found[-1].append(line)
        else:
            found.append([])
    return found


def test_the_season_lines_carry_corrected_winners_and_the_correction(
    forfeited: dict[str, Any],
) -> None:
    f = forfeited
    path = f"/api/v1/leagues/{f['slug']}/seasons/{f['season']}/lines/"
    lines = [json.loads(line) for line in f["client"].get(path).content.decode().splitlines()]
    tournament = next(line for line in lines if line["type"] == "tournament")
    assert tournament["winners"] == [f["new_champion"]] != [f["as_played"]]
    [entry] = tournament["corrections"]
    assert (entry["kind"], entry["reason"], entry["id"]) == (
        "forfeit",
        REASON,
        f["correction"]["id"],
    )
    assert entry["created_at"] == f["correction"]["created_at"]
    final = next(line for line in lines if line["type"] == "match" and line["id"] == f["final"].pk)
    assert (final["winner"], final["correction"]) == (f["new_champion"], entry["id"])
    others = [line for line in lines if line["type"] == "match" and line["id"] != f["final"].pk]
    assert others and all(line["correction"] is None for line in others)


def test_the_results_and_standings_carry_their_corrections_in_json_and_csv(
    forfeited: dict[str, Any],
) -> None:
    f = forfeited
    base = f"/api/v1/leagues/{f['slug']}/"
    results = f["client"].get(f"{base}tournaments/{f['tid']}/results/").json()
    [champion] = [row for row in results["rows"] if row["champion"]]
    assert champion["seat"] == f["new_champion"]
    assert [(c["kind"], c["reason"]) for c in results["corrections"]] == [("forfeit", REASON)]
    standings = f["client"].get(f"{base}standings/").json()
    assert [c["id"] for c in standings["corrections"]] == [f["correction"]["id"]]

    for path in (f"tournaments/{f['tid']}/results/", "standings/"):
        table, listed = sections(f["client"].get(f"{base}{path}?format=csv").content)
        assert len(table) == 4  # the header and three members
        assert listed[0] == [
            "correction", "kind", "reason", "created_at", "tournament", "member", "match"
        ]  # fmt: skip
        assert listed[1][:3] == [str(f["correction"]["id"]), "forfeit", REASON]
        assert listed[1][3] == f["correction"]["created_at"]
        assert listed[1][4:] == [str(f["tid"]), f["champion"], str(f["final"].pk)]


def test_a_csv_without_corrections_is_one_table(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    bot_tournament(client, token, slug, season, seats=2)
    assert len(sections(client.get(f"/api/v1/leagues/{slug}/standings/?format=csv").content)) == 1


def test_a_members_history_row_and_a_season_disqualification_mark_the_tournament(
    forfeited: dict[str, Any],
) -> None:
    f = forfeited
    client, base = f["client"], f"/api/v1/leagues/{f['slug']}/"
    history = client.get(f"{base}members/{f['champion']}/").json()
    [row] = history["tournaments"]
    assert [c["reason"] for c in row["corrections"]] == [REASON]
    results = client.get(f"{base}tournaments/{f['tid']}/results/").json()
    other = next(r["member"] for r in results["rows"] if r["member"] != f["champion"])
    body = {"kind": "disqualify", "reason": "Cheated", "season": f["season"], "member": other}
    ok(correct(client, f["token"], f["slug"], **body))
    results = client.get(f"{base}tournaments/{f['tid']}/results/").json()
    assert [c["reason"] for c in results["corrections"]] == [REASON, "Cheated"]
    assert other not in {r["member"] for r in results["rows"]}
    history = client.get(f"{base}members/{f['champion']}/").json()
    assert [c["reason"] for c in history["tournaments"][0]["corrections"]] == [REASON, "Cheated"]
