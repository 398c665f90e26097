"""Check-in for a scheduled start in Chromium: players holding a seat see the start in their own
time, a countdown and a "Check in" button (in the lobby and on the league calendar); checked in,
the tournament starts by itself; a player missing, it is cancelled and the page says why."""

from __future__ import annotations

import json
import re
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.conftest import Organized
from tests.web.helpers import DESKTOP, PHONE, click_and_wait, join_game, look, open_page
from tests.web.test_languages import check_screen, chosen_language, english_words

SETTLED_MS = 60_000  # a backstop for the start to come and the page to show it (loaded machine)
READ_MS = 20_000  # a backstop for a page's next read of the check-ins (every 3 s while open)


@pytest.fixture(scope="module")
def club(organized: Organized) -> dict[str, Any]:
    """A live server with a league "club" and a season; an organizer's API caller."""
    call = organized.call
    call("leagues/", {"name": "Club", "slug": "club"})
    season = call("leagues/club/seasons/", {"name": "Spring"})["id"]
    return {"url": organized.url, "call": call, "season": season}


def lobby(club: dict[str, Any], checkin_minutes: int) -> tuple[int, str]:
    """A 2-seat season lobby whose start is in two hours: its id and room code."""
    made = club["call"](f"leagues/club/seasons/{club['season']}/tournaments/", {"seats": 2})
    schedule(club, made["id"], timedelta(hours=2), checkin_minutes)
    return int(made["id"]), str(made["code"])


def schedule(club: dict[str, Any], tid: int, away: timedelta, checkin_minutes: int) -> None:
    """The organizer schedules (or moves) the start to `away` from now."""
    body = {"starts_at": (datetime.now(UTC) + away).isoformat(), "checkin_minutes": checkin_minutes}
    club["call"](f"leagues/club/tournaments/{tid}/schedule/", body)


def join(browser: Browser, club: dict[str, Any], code: str, name: str, size: Any) -> Page:
    """A player joins by the room code on the Lobby page; the browser keeps the seat."""
    page = open_page(browser, club["url"], size)
    join_game(page, code, name)
    expect(page.locator("#main")).to_contain_text(f"you are {name}")
    return page


@pytest.mark.timeout(600)
def test_players_check_in_on_the_page_and_the_tournament_starts_by_itself(
    browser: Browser, club: dict[str, Any], artifacts: Path
) -> None:
    tid, code = lobby(club, checkin_minutes=24 * 60)  # check-in open now
    ann = join(browser, club, code, "Ann", DESKTOP)
    bob = join(browser, club, code, "Bob", PHONE)
    panel = ann.get_by_role("region", name="Scheduled start")
    expect(panel.locator("time")).to_have_attribute("datetime", re_iso())
    expect(panel.get_by_role("timer").first).to_contain_text("in 1:59:")
    expect(panel).to_contain_text("0 of 2 players checked in")
    with ann.expect_response(lambda r: "/checkin/" in r.url and r.request.method == "POST"):
        panel.get_by_role("button", name="Check in").click()
    expect(panel.get_by_role("status")).to_have_text("✓ You are checked in.", timeout=READ_MS)
    expect(bob.get_by_role("region", name="Scheduled start")).to_contain_text(
        "1 of 2 players checked in",  # Bob's page reads the check-ins as they come
        timeout=READ_MS,
    )
    look(bob, artifacts, "checkin-lobby")

    calendar = open_page(browser, f"{club['url']}/leagues/club/", DESKTOP)
    mine = calendar.locator(f".calendar [data-tournament='{tid}']")
    # A spectator's browser holds no seat of it: told how, offered no button.
    expect(mine).to_contain_text("Check-in is open", timeout=READ_MS)
    expect(mine.get_by_role("button")).to_have_count(0)
    assert reason_words(calendar, "checkin_incomplete: seats 1, 2 not checked in") == (
        "At its start time seat 1 and seat 2 had not checked in."
    )
    assert reason_words(calendar, "no_show: seats 2 played by rookie bots") == (
        "seat 2 did not check in: a bot plays the seat."  # the `bot` no-show policy's start
    )
    bobs = bob.context.new_page()
    bobs.goto(f"{club['url']}/leagues/club/")
    line = bobs.locator(f".calendar [data-tournament='{tid}']")
    click_and_wait(bobs, f".calendar [data-tournament='{tid}'] button")  # Bob checks in here
    expect(line.get_by_role("status")).to_have_text("✓ You are checked in.", timeout=READ_MS)
    expect(line).to_contain_text("2 checked in", timeout=READ_MS)
    look(bobs, artifacts, "checkin-calendar")

    schedule(club, tid, timedelta(seconds=4), 1)  # the organizer brings the start forward
    for page in (ann, bob):
        expect(page.locator("h1 .badge")).to_contain_text("Deck Phase", timeout=SETTLED_MS)
    expect(line).to_contain_text("started on time", timeout=SETTLED_MS)
    assert not ann.errors and not bob.errors  # type: ignore[attr-defined]


@pytest.mark.timeout(600)
def test_a_start_with_a_player_missing_is_cancelled_and_the_page_says_why(
    browser: Browser, club: dict[str, Any], artifacts: Path
) -> None:
    tid, code = lobby(club, checkin_minutes=30)  # check-in opens in 90 minutes
    ann = join(browser, club, code, "Ann", DESKTOP)
    cy = join(browser, club, code, "Cy", DESKTOP)
    panel = ann.get_by_role("region", name="Scheduled start")
    expect(panel).to_contain_text("Check-in opens at", timeout=READ_MS)
    expect(panel.get_by_role("button", name="Check in")).to_have_count(0)
    look(ann, artifacts, "checkin-not-yet")

    schedule(club, tid, timedelta(hours=2), 24 * 60)  # the organizer opens the check-in now
    ann.reload()
    click_and_wait(ann, "[data-key^=checkin-]")
    expect(panel.get_by_role("status")).to_have_text("✓ You are checked in.", timeout=READ_MS)
    schedule(club, tid, timedelta(seconds=4), 1)
    for page in (ann, cy):
        expect(page.locator("h1 .badge")).to_have_text("Cancelled", timeout=SETTLED_MS)
        expect(page.locator("[data-key=cancel-reason]")).to_have_text(
            "At its start time Cy had not checked in."
        )
    look(cy, artifacts, "checkin-cancelled")
    assert not ann.errors and not cy.errors  # type: ignore[attr-defined]


def reason_words(page: Page, reason: str) -> str:
    """A settled start's reason as the client words it (its own module, in the page)."""
    words = "(reason) => import('/static/frontend/checkin.js').then((m) => m.reasonWords(reason))"
    return str(page.evaluate(words, reason))


def re_iso() -> re.Pattern[str]:
    return re.compile(r"^\d{4}-\d\d-\d\dT")


@pytest.mark.timeout(600)
@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_the_check_in_speaks_the_players_language_and_fits_a_phone(
    browser: Browser, club: dict[str, Any], artifacts: Path, language: str
) -> None:
    tid, code = lobby(club, checkin_minutes=24 * 60)
    request = urllib.request.Request(
        f"{club['url']}/api/v1/tournaments/join/",
        data=json.dumps({"code": code, "name": "Lin"}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        ticket = json.loads(response.read())
    page = chosen_language(browser, club["url"], language)
    # The Lobby page is drawn first: a route taken while it still loads could be drawn over.
    expect(page.locator("#game-status")).to_be_visible()
    seat = {"token": ticket["seat"]["token"], "seat": ticket["seat"]["id"], "code": code}
    page.evaluate(
        "([key, seat]) => localStorage.setItem(key, seat)",
        [f"challengers.seat.{tid}", json.dumps(seat)],
    )  # the seat this browser holds
    page.goto(f"{club['url']}/#/t/{tid}")
    words = english_words(language)
    expect(page.locator("[data-key^=checkin-]")).to_be_visible(timeout=READ_MS)
    check_screen(page, words, artifacts, f"checkin-lobby-{language}")
    click_and_wait(page, "[data-key^=checkin-]")
    expect(page.locator(".schedule [role=status]")).to_be_visible(timeout=READ_MS)
    page.goto(f"{club['url']}/leagues/club/")
    line = page.locator(f".calendar [data-tournament='{tid}']")
    expect(line.locator("[role=status]")).to_be_visible(timeout=READ_MS)
    check_screen(page, words, artifacts, f"checkin-calendar-{language}")
    assert not page.errors  # type: ignore[attr-defined]
