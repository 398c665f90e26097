"""The client's router: a page that is still loading when the reader moves on never lands over
the page they moved to."""

from __future__ import annotations

import threading

from playwright.sync_api import Browser, Route, expect


def test_a_slower_earlier_page_does_not_draw_over_the_newer_one(
    browser: Browser, server_url: str
) -> None:
    """The lobby waits for the card sets (its create form offers them); the reader goes to the
    cards before they arrive. When they do arrive, the cards page stays."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    held: list[Route] = []
    asked = threading.Event()

    def hold(route: Route) -> None:
        held.append(route)
        asked.set()

    page.route("**/api/v1/card-sets/", hold)
    page.goto(server_url + "/")
    while not asked.is_set():  # Playwright delivers the route on its own dispatch
        page.wait_for_timeout(50)
    page.evaluate("location.hash = '#/cards'")
    expect(page.locator("#card-search")).to_be_visible()
    (lobby_request,) = held
    with page.expect_response("**/api/v1/card-sets/"):
        lobby_request.continue_()
    page.wait_for_load_state("networkidle")
    # The lobby's continuation runs on the response's microtasks: two macrotask turns are past it.
    page.evaluate("() => new Promise((done) => setTimeout(() => setTimeout(done, 0), 0))")
    expect(page.locator("#card-search")).to_be_visible()
    expect(page.get_by_role("heading", name="Create a game")).to_have_count(0)
    assert errors == []
    context.close()
