"""The public league pages in Chromium: a league with its calendar, a season's standings with
the tie-break in words and its tournaments (live or finished, linked to the games and their
replays), a member's history with its rating chart; shareable paths, English without the
translation catalogue, refusals in words."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import Organized
from tests.web.helpers import DESKTOP, look, open_page

RECORDING_MS = 240_000  # a backstop: the page shows the results as soon as they are recorded
SHOWN_MS = 30_000  # a backstop for a page's first answer while bot games load the machine


@pytest.fixture(scope="module")
def league(organized: Organized) -> dict[str, Any]:
    """A live server with a league: a season of two finished bot tournaments (one Final
    forfeited), and a third still in its lobby."""
    call = organized.call
    call("leagues/", {"name": "Club Ñ", "slug": "club", "description": "Tuesday nights"})
    season = call("leagues/club/seasons/", {"name": "Spring"})["id"]
    games = [call(f"leagues/club/seasons/{season}/tournaments/", {"seats": 3})["id"]]
    games.append(call(f"leagues/club/seasons/{season}/tournaments/", {"seats": 3})["id"])
    waiting = call(f"leagues/club/seasons/{season}/tournaments/", {"seats": 4})["id"]
    later = (datetime.now(UTC) + timedelta(hours=2)).isoformat()
    call(f"leagues/club/tournaments/{waiting}/schedule/", {"starts_at": later})
    for game in games:
        call(f"tournaments/{game}/bots/", {"count": 3})
        call(f"tournaments/{game}/start/", None)
    return {
        "url": organized.url,
        "call": call,
        "season": season,
        "games": games,
        "waiting": waiting,
    }


def forfeit_the_final(league: dict[str, Any], game: int) -> str:
    """The organizer records the champion's forfeit of the first game's Final; its handle."""
    raw = urllib.request.urlopen(
        f"{league['url']}/api/v1/leagues/club/seasons/{league['season']}/lines/", timeout=30
    ).read()
    lines = [json.loads(line) for line in raw.decode().splitlines()]
    final = next(
        x for x in lines if x["type"] == "match" and x["tournament"] == game and x["round"] == 8
    )
    results = next(x for x in lines if x["type"] == "tournament" and x["id"] == game)["results"]
    champion: str = next(r["member"] for r in results if r["seat"] == final["winner"])
    body = {"kind": "forfeit", "reason": "Left before the Final", "tournament": game}
    league["call"]("leagues/club/corrections/", {**body, "match": final["id"], "member": champion})
    return champion


def season_page(browser: Browser, league: dict[str, Any]) -> Page:
    page = open_page(browser, f"{league['url']}/leagues/club/seasons/{league['season']}/", DESKTOP)
    recorded = page.locator(".season-tournament .status-finished")
    expect(recorded).to_have_count(2, timeout=RECORDING_MS)
    return page


@pytest.mark.timeout(600)
def test_a_season_shows_its_standings_in_words_and_its_tournaments(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    page = season_page(browser, league)
    expect(page.get_by_role("heading", level=1)).to_have_text("Club Ñ: Spring")
    rows = page.locator("table.standings tbody tr")
    assert rows.count() >= 3
    expect(rows.first).to_contain_text("leads")
    expect(page.locator(".tiebreak").first).to_contain_text("more points first")
    expect(page.locator(f"[data-tournament='{league['waiting']}']")).to_contain_text("open lobby")
    first = page.locator(f"[data-tournament='{league['games'][0]}']")
    expect(first.get_by_role("link", name=f"Game #{league['games'][0]}")).to_have_attribute(
        "href", f"/#/t/{league['games'][0]}"
    )
    first.locator("summary").click()
    look(page, artifacts, "league-season")

    page.get_by_label("Show").select_option("human")
    expect(page.locator("#main")).to_contain_text("No result recorded in this season yet.")
    page.get_by_label("Show").select_option("all")
    expect(rows.first).to_contain_text("leads")

    first = page.locator(f"[data-tournament='{league['games'][0]}']")
    first.locator("summary").click()
    first.locator(".replays a").first.click()
    expect(page.get_by_role("heading", level=1)).to_contain_text("Replay:")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.timeout(600)
def test_a_member_page_shows_history_rating_chart_and_corrections(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    season_page(browser, league).close()
    champion = forfeit_the_final(league, league["games"][0])
    page = open_page(browser, f"{league['url']}/leagues/club/", DESKTOP)
    expect(page.get_by_role("heading", level=1)).to_have_text("Club Ñ")
    expect(page.locator("#main")).to_contain_text("Tuesday nights")
    planned = page.locator(f".calendar [data-tournament='{league['waiting']}']")
    expect(planned).to_contain_text("check-in from")
    expect(planned).to_contain_text("0 checked in")
    look(page, artifacts, "league")

    page.get_by_role("link", name=champion, exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(champion)
    expect(page.locator("table.history tbody tr")).to_have_count(2)
    expect(page.locator("svg.rating-chart circle")).to_have_count(2)
    expect(page.locator("#main")).to_contain_text(f"{champion} forfeited a match of game #")
    expect(page.locator("#main")).to_contain_text("Left before the Final")
    look(page, artifacts, "league-member")
    assert not page.errors  # type: ignore[attr-defined]
    # The address is the page: opened afresh (shared), it shows the same member.
    assert unquote(page.url).endswith(f"/leagues/club/members/{champion}/")
    shared = open_page(browser, page.url, DESKTOP)
    expect(shared.locator("svg.rating-chart circle")).to_have_count(2)


def test_the_pages_speak_english_without_the_catalogue_and_refuse_in_words(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    missing = re.compile(r".*/jsi18n/(\?.*)?$")  # the catalogue, whatever its ?lang=
    context.route(missing, lambda route: route.fulfill(status=404, body="missing"))
    page = context.new_page()
    page.goto(f"{league['url']}/leagues/")
    expect(page.get_by_role("link", name="Club Ñ")).to_be_visible(timeout=SHOWN_MS)
    assert page.evaluate("() => ngettext('%(n)s game', '%(n)s games', 2)") == "%(n)s games"
    answer = page.goto(f"{league['url']}/leagues/nope/")
    assert answer is not None and answer.status == 404  # a link checker sees it too
    expect(page.locator("#errors")).to_contain_text("No league has that slug.", timeout=SHOWN_MS)
    expect(page.get_by_role("heading", level=1)).to_have_text("This league page cannot be shown")
    look(page, artifacts, "league-unknown")
    with_catalogue = open_page(browser, f"{league['url']}/leagues/", DESKTOP)
    expect(with_catalogue.get_by_role("link", name="Club Ñ")).to_be_visible(timeout=SHOWN_MS)
    assert with_catalogue.evaluate("() => typeof window.gettext") == "function"


def test_a_renamed_members_old_address_opens_its_page_under_the_new_name(
    browser: Browser, organized: Organized
) -> None:
    call = organized.call
    call("leagues/", {"name": "Renames", "slug": "renames"})
    call("leagues/renames/members/", {"handle": "Ann B"})
    call("leagues/renames/members/Ann%20B/", {"handle": "Ann C"}, method="PATCH")
    page = open_page(browser, f"{organized.url}/leagues/renames/members/Ann%20B/", DESKTOP)
    expect(page.get_by_role("heading", level=1)).to_contain_text("Ann C", timeout=SHOWN_MS)
    assert unquote(page.url).endswith("/leagues/renames/members/Ann C/")  # the redirect's


@pytest.mark.timeout(600)
def test_a_season_whose_results_were_struck_and_closed_says_so(
    browser: Browser, league: dict[str, Any]
) -> None:
    """Kept last: its season, newer and with a result, would be the league's default."""
    call = league["call"]
    trial = call("leagues/club/seasons/", {"name": "Trial"})["id"]
    game = call(f"leagues/club/seasons/{trial}/tournaments/", {"seats": 2})["id"]
    call(f"tournaments/{game}/bots/", {"count": 2})
    call(f"tournaments/{game}/start/", None)
    page = open_page(browser, f"{league['url']}/leagues/club/seasons/{trial}/", DESKTOP)
    recorded = page.locator(".season-tournament .status-finished")
    expect(recorded).to_have_count(1, timeout=RECORDING_MS)
    raw = urllib.request.urlopen(
        f"{league['url']}/api/v1/leagues/club/tournaments/{game}/results/", timeout=30
    ).read()
    for row in json.loads(raw)["rows"]:
        body = {"kind": "disqualify", "reason": "a test", "season": trial, "member": row["member"]}
        call("leagues/club/corrections/", body)
    call(f"leagues/club/seasons/{trial}/close/", {"reason": "a test season"})
    page.reload()
    main = page.locator("#main")
    expect(main).to_contain_text("every recorded result was struck", timeout=SHOWN_MS)
    expect(page.locator("#season-closed")).to_have_text("Results closed: a test season")
    assert not page.errors  # type: ignore[attr-defined]
