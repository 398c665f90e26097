"""A click is a press and a release on one button: the page redrawing between the two (a frame
came) must not lose it."""

from __future__ import annotations

import threading

from playwright.sync_api import Browser, Route, expect

from tests.web.helpers import DESKTOP, TURNS, create_game, join_game, open_page


def test_a_click_held_while_the_view_is_redrawn_still_acts(
    browser: Browser, server_url: str
) -> None:
    """Ann presses "Add bots"; before she lets go, Bob joins and her page reads and draws the
    new view. Her click still adds the bot, and Bob is shown once she lets go."""
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Ann", 3)
    tournament = host.url.rsplit("/", 1)[-1]
    host.wait_for_load_state("networkidle")
    held: list[Route] = []
    asked = threading.Event()

    def hold(route: Route) -> None:
        held.append(route)
        asked.set()

    host.route(f"**/api/v1/tournaments/{tournament}/", hold)
    guest = open_page(browser, server_url, DESKTOP)
    join_game(guest, code.lower(), "Bob")
    while not asked.is_set():  # Ann's page heard of Bob and reads its view again
        host.wait_for_timeout(50)

    button = host.locator("[data-key=add-bots]")
    button.evaluate("(element) => { element.dataset.pressed = 'yes'; }")
    box = button.bounding_box()
    assert box is not None
    host.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    host.mouse.down()
    with host.expect_response(f"**/api/v1/tournaments/{tournament}/") as answer:
        held[0].continue_()
    answer.value.finished()
    host.unroute(f"**/api/v1/tournaments/{tournament}/", hold)  # the later reads pass
    host.evaluate(TURNS)  # the view's answer has been read and handed to the page
    expect(host.locator("[data-key=add-bots][data-pressed=yes]")).to_have_count(1)
    expect(host.locator(".seat-list")).not_to_contain_text("Bob")  # drawn after the release

    with host.expect_response(lambda r: r.url.endswith("/bots/")) as added:
        host.mouse.up()
    assert added.value.ok
    expect(host.locator(".seat-list")).to_contain_text("Bob")
    expect(host.locator(".seat-list")).to_contain_text("Bot")
    expect(host.locator("[data-key=start]")).to_be_enabled()
    assert host.errors == []  # type: ignore[attr-defined]
