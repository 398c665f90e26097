"""The public league pages in Chromium: a league with its calendar, a season's standings with
the tie-break in words and its tournaments (live or finished, linked to the games and their
replays), a member's history with its rating chart; shareable paths, English without the
translation catalogue, refusals in words."""

from __future__ import annotations

import http.server
import json
import re
import threading
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

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
def test_a_season_is_shown_with_no_script_run(browser: Browser, league: dict[str, Any]) -> None:
    """The server drew it: the standings and every tournament are there before any script."""
    season_page(browser, league).context.close()  # both games recorded
    context = browser.new_context(viewport=DESKTOP, java_script_enabled=False)  # type: ignore[arg-type]
    page = context.new_page()
    page.goto(f"{league['url']}/leagues/club/seasons/{league['season']}/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Club Ñ: Spring")
    expect(page.locator(".season-tournament")).to_have_count(3)
    games = league["games"]
    first = page.locator(f"[data-tournament='{games[0]}']")
    expect(first.get_by_role("link", name=f"Game #{games[0]}")).to_be_visible()
    expect(page.locator(f"[data-tournament='{league['waiting']}']")).to_contain_text("open lobby")
    expect(first.locator(".status-finished")).to_be_visible()
    expect(page.locator("table.standings tbody tr").first).to_contain_text("leads")
    context.close()


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
    expect(page.locator("table.history tbody tr:not(.corrected-row)")).to_have_count(2)
    expect(page.locator("table.history .corrected-row")).to_contain_text("Left before the Final")
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


PHONE_360: ViewportSize = {"width": 360, "height": 780}
WIDE: ViewportSize = {"width": DESKTOP["width"], "height": DESKTOP["height"]}
BOX = """(element) => { const r = element.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"""


def inside(page: Page, selector: str, bounds: dict[str, float]) -> list[dict[str, float]]:
    """The boxes of ``selector``'s elements, each checked to lie inside ``bounds`` (left and
    right: what the reader sees of the table without scrolling it)."""
    boxes: list[dict[str, float]] = page.locator(selector).evaluate_all(
        f"(elements) => elements.map({BOX})"
    )
    assert boxes, selector
    for box in boxes:
        assert bounds["left"] - 0.5 <= box["left"], (selector, box, bounds)
        assert box["right"] <= bounds["right"] + 0.5, (selector, box, bounds)
    return boxes


@pytest.mark.timeout(600)
def test_the_standings_keep_rank_name_and_points_in_view_at_360_px(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    page = season_page(browser, league)
    page.set_viewport_size(PHONE_360)
    wrap = page.locator(".table-wrap").first
    seen = wrap.evaluate(BOX)
    assert seen["left"] >= 0 and seen["right"] <= PHONE_360["width"]
    rows = "table.standings tbody tr"
    for cell in ("td.rank", "th.member", "td.points", "td:nth-child(4)", "td:nth-child(5)"):
        inside(page, f"{rows} {cell}", seen)  # rank, member, points, wins, fans
    inside(page, "table.standings thead th:nth-child(-n+5)", seen)
    heads = page.locator("table.standings thead th").all_text_contents()
    assert heads[:5] == ["#Rank", "Member", "Points", "Wins", "Fans"]
    page.screenshot(path=artifacts / "league-season-360.png", full_page=True)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE_360["width"]
    # Scrolled to its last column, the table keeps the rank and the name in view beside it.
    assert wrap.evaluate("(e) => e.scrollWidth > e.clientWidth")
    wrap.evaluate("(e) => { e.scrollLeft = e.scrollWidth; }")
    names = inside(page, f"{rows} th.member", seen)
    ranks = inside(page, f"{rows} td.rank", seen)
    assert all(rank["right"] <= name["left"] + 1 for rank, name in zip(ranks, names, strict=True))
    inside(page, f"{rows} td:last-child", seen)  # the last column has come into view
    page.screenshot(path=artifacts / "league-season-360-scrolled.png", full_page=True)
    page.set_viewport_size(WIDE)  # every column in view without scrolling
    assert wrap.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    inside(page, "table.standings th, table.standings td", wrap.evaluate(BOX))
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.timeout(600)
def test_a_corrected_game_is_marked_with_its_reason_on_every_page(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    """After the member page's test, the first game's Final was forfeited."""
    game = league["games"][0]
    page = season_page(browser, league)
    item = page.locator(f".season-tournament[data-tournament='{game}']")
    expect(item.locator(".corrected")).to_contain_text("Left before the Final")
    expect(
        page.locator(f".season-tournament[data-tournament='{league['games'][1]}'] .corrected")
    ).to_have_count(0)
    item.get_by_role("link", name="Round by round").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Game #{game} round by round")
    expect(page.locator("section.round")).to_have_count(8)  # rounds 1-7 and the Final
    final = page.locator("section.round[data-round='8']")
    expect(final.get_by_role("heading")).to_have_text("The Final")
    expect(final.locator(".corrected")).to_contain_text("Left before the Final")
    champion = page.locator(".rounds-champion").inner_text().removeprefix("Champion: ")
    # The Final's winner now: the champion's seat (a bot member's handle is its name and level).
    winner = final.locator(".round-match > strong").inner_text().removeprefix("won by ")
    assert champion.startswith(winner), (champion, winner)
    expect(page.locator("#rounds-result ~ .corrected")).to_contain_text("forfeited a match")
    assert page.locator("section.round[data-round='1'] .round-match").count() >= 1
    expect(page.locator("section.round[data-round='1'] .fans").first).to_have_text(
        re.compile(r"\+\d+ fans?")
    )
    look(page, artifacts, "league-rounds")
    page.set_viewport_size(PHONE_360)
    page.screenshot(path=artifacts / "league-rounds-360.png", full_page=True)
    page.set_viewport_size(WIDE)

    page.get_by_role("link", name="The game's page, with its replays").click()
    corrected = page.locator("[data-key=league-corrected]")
    expect(corrected).to_contain_text("Left before the Final", timeout=SHOWN_MS)
    expect(page.locator(".champion-name")).to_have_text(winner)
    expect(page.locator("tr.champ th")).to_contain_text(winner)
    look(page, artifacts, "league-game-corrected")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_league_pages_at_360_and_1280_px(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    """Screenshots a person looks at: the league, a member and the widget at both widths."""
    standings = json.loads(
        urllib.request.urlopen(f"{league['url']}/api/v1/leagues/club/standings/", timeout=30).read()
    )
    first = standings["rows"][0]["member"]
    for name, path in (
        ("league", "/leagues/club/"),
        ("member", f"/leagues/club/members/{first}/"),
        ("embed", "/leagues/club/embed/"),
    ):
        for width in (360, 1280):
            viewport = {"width": width, "height": 900}
            page = open_page(browser, f"{league['url']}{path}", viewport)
            expect(page.locator("h1")).not_to_have_text("", timeout=SHOWN_MS)
            expect(page.locator("main")).not_to_contain_text("Loading", timeout=SHOWN_MS)
            page.screenshot(path=artifacts / f"shared-{name}-{width}.png", full_page=True)
            scroll = page.evaluate("() => document.documentElement.scrollWidth")
            assert scroll <= viewport["width"], (name, width, scroll)  # no sideways page
            page.context.close()


class HostPage(http.server.BaseHTTPRequestHandler):
    """A page of another site that frames the league's widget (``server.widget``)."""

    def do_GET(self) -> None:
        body = (
            f'<!doctype html><title>Club site</title><iframe src="{self.server.widget}" '  # type: ignore[attr-defined]
            'onload="document.body.dataset.loaded = 1" width="400" height="300"></iframe>'
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return


HOST_PORT = 8140  # this worktree's port for the servers its tests start


def test_only_an_allowed_site_can_frame_the_standings_widget(
    browser: Browser, league: dict[str, Any], artifacts: Path
) -> None:
    """One server, two origins: http://127.0.0.1:8140 is allowed, http://localhost:8140 not."""
    season_page(browser, league).close()  # its results are recorded: the widget has rows
    league["call"]("leagues/club/embed-sites/", {"origin": f"http://127.0.0.1:{HOST_PORT}"})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", HOST_PORT), HostPage)
    server.widget = f"{league['url']}/leagues/club/embed/"  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        allowed = open_page(browser, f"http://127.0.0.1:{HOST_PORT}/", DESKTOP)
        expect(allowed.locator("body[data-loaded]")).to_have_count(1, timeout=SHOWN_MS)
        shown = allowed.frames[1]
        assert shown.url == server.widget, shown.content()[:500]  # type: ignore[attr-defined]
        widget = allowed.frame_locator("iframe")
        expect(widget.locator("h1")).to_contain_text("Club Ñ", timeout=SHOWN_MS)
        assert "<tbody>" in shown.content(), shown.content()[:800]
        expect(widget.locator("tbody tr").first).to_be_visible()
        allowed.screenshot(path=artifacts / "embed-allowed.png")
        refused = open_page(browser, f"http://localhost:{HOST_PORT}/", DESKTOP)
        expect(refused.locator("body[data-loaded]")).to_have_count(1, timeout=SHOWN_MS)
        frame = refused.frames[1]
        assert frame.url != server.widget  # type: ignore[attr-defined]
        assert frame.locator("table").count() == 0
        refused.screenshot(path=artifacts / "embed-refused.png")
    finally:
        server.shutdown()
        server.server_close()


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
