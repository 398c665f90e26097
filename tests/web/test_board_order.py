"""A live board shows its match's end before the page tells the trophy in words.

The server releases a match's events at a pace (here 100 ms each, so the matches are still
playing when their boards open) and a board replays them at its own; on ``match_finished`` a
board still replaying jumps to the end before the activity line "Park: X wins the trophy." is
written. The boards here play one event a minute: only that jump can show a result in time.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import live_server
from tests.web.helpers import click_and_wait, draft_until_finish

# Boards far slower than the stream: a result on a board can only come from the jump.
SLOW_BOARDS = "localStorage.setItem('challengers.pace', '60000')"
# Each trophy line as it first appears, with what its park's board shows at that moment
# (its result, or its position: "event 3 of 41…"). The observer runs before the page
# paints the line, so the board's state is the one a person would see beside it.
ORDER_SPY = """window.trophies = [];
new MutationObserver(() => {
    for (const item of document.querySelectorAll("ul.activity li")) {
        const line = item.textContent;
        if (!line.endsWith("wins the trophy.") || window.trophies.some((t) => t.line === line)) {
            continue;
        }
        const park = line.split(":")[0];
        const board = [...document.querySelectorAll(".board")]
            .find((b) => b.querySelector(".park-name")?.textContent === park);
        const shown = board?.querySelector(".result") ?? board?.querySelector(".controls");
        window.trophies.push({line, board: shown ? shown.textContent : null});
    }
}).observe(document, {childList: true, subtree: true});"""


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Events released at 100 ms each: a match lasts seconds, its board opens while it plays."""
    with live_server(tmp_path_factory.mktemp("web-order"), pace_ms=100) as url:
        yield url


def test_a_board_shows_its_matchs_end_before_the_trophy_is_told(
    browser: Browser, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(SLOW_BOARDS)
    context.add_init_script(ORDER_SPY)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url)
    create = page.locator("form", has=page.get_by_role("button", name="Create game"))
    create.get_by_label("Your name").fill("Ola")
    create.get_by_label("Seats (you included)").fill("1")
    create.get_by_role("button", name="Create game").click()
    click_and_wait(page, "[data-key=start]")
    expect(page.locator("[data-key=draw]")).to_be_visible()
    click_and_wait(page, "[data-key=draw]")
    draft_until_finish(page)  # round 1: finishing starts the match
    click_and_wait(page, "[data-key=finish]")
    expect(page.locator(".board").first).to_be_visible()
    page.wait_for_function("() => window.trophies.length > 0", timeout=120_000)
    first = page.evaluate("window.trophies[0]")
    assert first["board"] is not None, first  # the match's board was on the page
    assert "wins the trophy of the" in first["board"], first  # and showed the end first
    assert errors == []
    context.close()
