"""A season's page comes drawn: the HTML the server sends holds its standings and every
tournament (escaped, translated, nothing the public API does not show), and the version its
script polls from."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from leagues.web.season_page import member_path
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    league_with_season,
    member_token,
    members_tournament,
    ok,
    org,
    post,
)

pytestmark = pytest.mark.django_db(transaction=True)

SCRIPTED = "<script>alert(1)</script>"
# The season with its league (1); its standings and the season's corrections (2); the preview's
# count of recorded tournaments (1); the league as its API shows it, with one season (5); the
# season's lines (5, as tests/leagues/test_lines.py pins them).
STATEMENTS = 14
DRAWN = re.compile(r'<script id="season-drawn" type="application/json">(.*?)</script>', re.S)


def page_of(client: APIClient, season: int, query: str = "", **headers: str) -> str:
    answer = client.get(f"/leagues/club/seasons/{season}/{query}", headers=headers)
    assert answer.status_code == 200
    return str(answer.content.decode())


def drawn_data(text: str) -> dict[str, Any]:
    """What the page hands its script (the version drawn, whether to poll, the lines)."""
    found = DRAWN.search(text)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.fixture
def played(catalogue: Any) -> dict[str, Any]:
    """A season of two finished bot tournaments."""
    client = APIClient()
    token = create_organizer("org")
    _, season = league_with_season(client, token, "club")
    tids = [bot_tournament(client, token, "club", season, seats=3) for _ in range(2)]
    return {"client": client, "token": token, "season": season, "tids": tids}


def test_the_page_comes_with_its_standings_and_every_tournament(played: dict[str, Any]) -> None:
    client, season = played["client"], played["season"]
    text = page_of(client, season)
    standings = client.get(f"/api/v1/leagues/club/standings/?season={season}").json()
    lines = client.get(f"/api/v1/leagues/club/seasons/{season}/lines/")
    assert '<table class="standings">' in text
    for row in standings["rows"]:
        assert f'href="{member_path("club", row["member"])}"' in text
        assert f">{html.escape(row['member'])}</a>" in text
    assert text.count('class="panel season-tournament"') == 2
    for tid in played["tids"]:
        assert f'data-tournament="{tid}"><h3><a href="/#/t/{tid}">Game #{tid}</a>' in text
    matches = [json.loads(x) for x in lines.content.decode().splitlines()]
    assert text.count('<a href="/#/match/') == sum(x["type"] == "match" for x in matches)
    assert "<h1>Club: Spring</h1>" in text and "Loading…" not in text
    # A finished season: nothing to poll, so no lines sent twice.
    data = drawn_data(text)
    assert data == {"version": lines["ETag"].strip('"'), "live": "", "lines": []}


def test_the_script_polls_a_live_season_from_the_version_drawn(played: dict[str, Any]) -> None:
    client, season = played["client"], played["season"]
    path = f"leagues/club/seasons/{season}/tournaments/"
    waiting = ok(post(client, path, {"seats": 2}, org(played["token"])))["id"]
    data = drawn_data(page_of(client, season))
    assert data["live"] == "waiting"
    assert {x["id"] for x in data["lines"] if x["type"] == "tournament"} == {
        *played["tids"],
        waiting,
    }
    since = f"/api/v1/leagues/club/seasons/{season}/lines/?since={data['version']}"
    assert client.get(since).status_code == 304


def test_what_people_wrote_is_escaped(catalogue: Any) -> None:
    client = APIClient()
    token = create_organizer("org")
    league = {"name": 'Club <"Ñ">', "slug": "club"}
    ok(post(client, "leagues/", league, org(token)))
    body = {"name": "<b>Spring</b>"}
    season = ok(post(client, "leagues/club/seasons/", body, org(token)))["id"]
    scripted = member_token(client, token, "club", SCRIPTED)
    tid = members_tournament(client, token, "club", [scripted])
    reason = "<img src=x onerror=alert(2)>"
    struck = {"kind": "disqualify", "tournament": tid, "member": SCRIPTED, "reason": reason}
    ok(correct(client, token, "club", **struck))
    text = page_of(client, season)
    assert "<script>alert" not in text and "<img" not in text and "<b>" not in text
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in text
    assert "<h1>Club &lt;&quot;Ñ&quot;&gt;: &lt;b&gt;Spring&lt;/b&gt;</h1>" in text
    assert html.escape(reason) in text
    assert f'data-tournament="{tid}"' in text


def test_the_page_shows_nothing_the_public_api_does_not(played: dict[str, Any]) -> None:
    client, token = played["client"], played["token"]
    code = client.get("/api/v1/leagues/club/", headers=org(token)).json()["seasons"][0]
    assert code["join_code"]
    text = page_of(client, played["season"], **org(token))  # an organizer reads the public page
    assert code["join_code"] not in text


def test_the_page_speaks_the_readers_language(played: dict[str, Any]) -> None:
    text = page_of(played["client"], played["season"], "?lang=ru")
    assert '<td class="small">лидирует</td>' in text and "без заданных дат" in text
    assert "Турниры" in text and "Tournaments" not in text and "replays</summary>" not in text
    assert "парк " in text  # a replay's park


def test_the_page_reads_in_a_fixed_number_of_statements(played: dict[str, Any]) -> None:
    """The standings are read once for the preview and the table; a third tournament adds none."""
    client, season = played["client"], played["season"]
    page_of(client, season)  # the finished tournaments' match lines cached
    with CaptureQueriesContext(connection) as two:
        page_of(client, season)
    bot_tournament(client, played["token"], "club", season, seats=2)
    page_of(client, season)
    with CaptureQueriesContext(connection) as three:
        page_of(client, season)
    assert len(two.captured_queries) == len(three.captured_queries) == STATEMENTS


def test_its_stylesheet_is_inlined_under_a_nonce_of_that_answer(played: dict[str, Any]) -> None:
    client = played["client"]
    answer = client.get(f"/leagues/club/seasons/{played['season']}/")
    nonce = re.search(r"style-src 'self' 'nonce-([^']+)'", answer["Content-Security-Policy"])
    assert nonce is not None
    assert f'<style nonce="{nonce.group(1)}">' in answer.content.decode()
    assert "nonce" not in client.get("/leagues/club/")["Content-Security-Policy"]
