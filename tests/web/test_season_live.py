"""A season page kept current by cheap polls: the page comes drawn with the version it shows, an
unchanged season answers ``304`` with no body, and a tournament that moves on reaches the open
page as its own lines alone (``Delta-Base``): no full read, not even the first.

The page's timers run on Playwright's clock: the test moves it on to a lobby's next poll (30 s
away) and waits for the page to show what changed, never for a fixed time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Response, expect

from tests.web.conftest import Organized
from tests.web.helpers import DESKTOP, look

LOBBY_MS = 30_000  # league.js: how often a season with a lobby only is asked
RECORDING_MS = 240_000  # a backstop: a bots' game is played and recorded in seconds


@pytest.fixture(scope="module")
def season(organized: Organized) -> dict[str, Any]:
    """A season of one finished bot tournament and one still in its lobby."""
    call = organized.call
    call("leagues/", {"name": "Live club", "slug": "live"})
    season = call("leagues/live/seasons/", {"name": "Summer"})["id"]
    played, waiting = (
        call(f"leagues/live/seasons/{season}/tournaments/", {"seats": 2})["id"] for _ in range(2)
    )
    call(f"tournaments/{played}/bots/", {"count": 2})
    call(f"tournaments/{played}/start/", None)
    return {"url": organized.url, "call": call, "id": season, "played": played, "waiting": waiting}


def lines_answers(page: Page) -> list[Response]:
    """Every answer of the season's lines the page receives, in order."""
    seen: list[Response] = []

    def keep(response: Response) -> None:
        if "/lines/" in response.url:
            seen.append(response)

    page.on("response", keep)
    return seen


def summary(response: Response) -> dict[str, Any]:
    """An answer's status, body size, ``Delta-Base`` and the tournaments its lines name."""
    body = response.body() if response.status == 200 else b""
    named = {_tournament(json.loads(line)) for line in body.decode().splitlines()}
    return {
        "status": response.status,
        "bytes": len(body),
        "delta": response.headers.get("delta-base"),
        "tournaments": named,
    }


def _tournament(line: dict[str, Any]) -> int:
    found: int = line.get("tournament", line["id"])
    return found


def next_poll(page: Page) -> Response:
    """Move the page's clock to its next poll (a lobby's is 30 s away) and wait for its answer."""
    with page.expect_response(lambda r: "/lines/" in r.url) as answer:
        page.clock.fast_forward(LOBBY_MS)
    return answer.value


@pytest.mark.timeout(600)
def test_a_tournament_that_moves_on_reaches_the_open_page_as_its_lines_alone(
    browser: Browser, season: dict[str, Any], artifacts: Path
) -> None:
    context = browser.new_context(viewport=DESKTOP)  # type: ignore[arg-type]
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.clock.install()
    answers = lines_answers(page)
    page.goto(f"{season['url']}/leagues/live/seasons/{season['id']}/")
    played = page.locator(f"[data-tournament='{season['played']}']")
    waiting = page.locator(f"[data-tournament='{season['waiting']}']")
    expect(waiting).to_contain_text("open lobby")  # the first answer is drawn
    # While the game is played the page asks every 4 s (the clock flows as it does).
    expect(played.locator(".status-finished")).to_be_visible(timeout=RECORDING_MS)
    played.locator("summary").click()  # an open list of replays stays open while nothing changes

    unchanged = summary(next_poll(page))
    assert unchanged == {"status": 304, "bytes": 0, "delta": None, "tournaments": set()}
    expect(played.locator("details")).to_have_attribute("open", "")

    season["call"](f"tournaments/{season['waiting']}/bots/", {"count": 2})
    season["call"](f"tournaments/{season['waiting']}/start/", None)
    page.clock.fast_forward(LOBBY_MS)  # the lobby's next poll finds it live
    expect(waiting.locator(".status-finished")).to_be_visible(timeout=RECORDING_MS)
    expect(waiting.locator("summary")).to_contain_text("replay")
    look(page, artifacts, "league-season-live")

    seen = [summary(answer) for answer in answers]
    # The page came drawn with its version and lines: no answer sends every tournament again.
    changed = [a for a in seen if a["status"] == 200]
    assert changed and all(a["delta"] for a in changed), seen
    assert changed[-1]["tournaments"] == {season["waiting"]}
    assert all(a["bytes"] == 0 for a in seen if a["status"] == 304)
    assert not errors
    context.close()
