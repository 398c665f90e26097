"""Exports a spreadsheet can trust: no cell a spreadsheet would run as a formula, UTF-8 with a
byte order mark so accents survive Excel, ratings to 2 decimals, per-tournament result CSVs;
the JSON and the season's JSON lines stay exact."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from leagues.selectors.exports import neutralised, table
from tests.leagues.helpers import (
    create_organizer,
    league_with_season,
    member_token,
    members_tournament,
)

pytestmark = pytest.mark.django_db(transaction=True)

FORMULA = '=HYPERLINK("http://evil.example","Win")'
ACCENTED = "José Ñúñez"


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ("=1+2", "'=1+2"),
        ("+1", "'+1"),
        ("-1", "'-1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tcmd", "'\tcmd"),
        ("\rcmd", "'\rcmd"),
        ("a=b", "a=b"),
        (ACCENTED, ACCENTED),
        ("", ""),
        (-1.25, -1.25),
        (3, 3),
        (None, None),
    ],
)
def test_a_cell_that_would_be_a_formula_is_neutralised(cell: Any, written: Any) -> None:
    assert neutralised(cell) == written


def test_a_table_has_a_bom_and_reads_back_as_text() -> None:
    body = table(("a", "b"), [{"a": "=cmd|' /C calc'!A0", "b": -2.5}, {"a": "\rx", "b": None}])
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"))))
    assert rows == [["a", "b"], ["'=cmd|' /C calc'!A0", "-2.5"], ["'\rx", ""]]


def parse(response: Any) -> list[dict[str, str]]:
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert response.content.startswith(b"\xef\xbb\xbf")
    return list(csv.DictReader(io.StringIO(response.content.decode("utf-8-sig"))))


def two_decimals(text: str) -> bool:
    return "." not in text or len(text.split(".")[1]) <= 2


def test_the_csvs_neutralise_formulas_keep_accents_and_round_ratings(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, season = league_with_season(client, token)
    tokens = [member_token(client, token, slug, handle) for handle in (FORMULA, ACCENTED)]
    tid = members_tournament(client, token, slug, tokens, bots=1)

    standings = client.get(f"/api/v1/leagues/{slug}/standings/").json()
    rows = parse(client.get(f"/api/v1/leagues/{slug}/standings/?format=csv"))
    handles = {row["member"] for row in rows}
    assert {"'" + FORMULA, ACCENTED} <= handles and FORMULA not in handles
    for row, exact in zip(rows, standings["rows"], strict=True):
        for name in ("mu", "sigma", "ordinal"):
            assert two_decimals(row[name])
            assert float(row[name]) == round(exact["rating"][name], 2)
    assert any(len(str(r["rating"]["mu"]).split(".")[1]) > 2 for r in standings["rows"])

    results = client.get(f"/api/v1/leagues/{slug}/tournaments/{tid}/results/").json()
    assert results["recorded"] is True and results["season"] == season
    response = client.get(f"/api/v1/leagues/{slug}/tournaments/{tid}/results/?format=csv")
    assert response["Content-Disposition"] == (
        f'attachment; filename="{slug}-tournament-{tid}-results.csv"'
    )
    lines = parse(response)
    assert [line["member"] for line in lines] == [
        "'" + r["member"] if r["member"] == FORMULA else r["member"] for r in results["rows"]
    ]
    assert [int(line["place"]) for line in lines] == [r["place"] for r in results["rows"]]
    assert all(two_decimals(line["ordinal"]) for line in lines)

    # The JSON lines (for programs) keep the handle and the numbers exact.
    body = client.get(f"/api/v1/leagues/{slug}/seasons/{season}/lines/").content.decode()
    first = json.loads(body.splitlines()[0])
    assert {FORMULA, ACCENTED} <= {r["member"] for r in first["results"]}


def test_a_csv_refusal_is_coded_json_as_every_refusal(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    slug, _ = league_with_season(client, token)
    for path, code in (
        ("tournaments/999/results/?format=csv", "not_league_tournament"),
        ("standings/?season=999&format=csv", "unknown_season"),
    ):
        response = client.get(f"/api/v1/leagues/{slug}/{path}")
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
        assert response.json()["code"] == code
