"""An ordinary game page makes no request that fails: a game outside any league never asks for
a league check-in (it answered 404 on every page). Seats are counted from 1 for people;
after an action the focus follows to what replaced its control."""

from __future__ import annotations

from playwright.sync_api import Browser, Response, expect

from tests.web.helpers import DESKTOP, click_and_wait, create_game, open_page


def test_a_game_page_outside_a_league_makes_no_failing_request(
    browser: Browser, server_url: str
) -> None:
    page = open_page(browser, server_url, DESKTOP)
    failed: list[str] = []

    def note(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.request.method} {response.url}")

    page.on("response", note)
    create_game(page, "Lin", 1)
    with page.expect_response(lambda r: r.url.endswith("/matches/")):
        page.reload()  # the game page as a returning player opens it: every read it makes
    expect(page.locator("#main")).to_contain_text("you are Lin (seat 1)")  # people count from 1
    click_and_wait(page, "[data-key=start]")
    expect(page.locator(".display .card, [data-key=draw]").first).to_be_visible()
    assert failed == []
    # The Start button is gone with the lobby: the focus follows to the Deck Phase, not <body>.
    assert page.evaluate("() => document.activeElement !== document.body")
    assert page.evaluate("() => document.querySelector('#main').contains(document.activeElement)")
