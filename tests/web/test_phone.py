"""A game on a phone (390x844): the live match opens on the first screen, above the players and
the deck, and a card question's Answer is in sight without scrolling, however long its sheet."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.web.helpers import (
    PHONE,
    SLOW_ANSWERS,
    Watch,
    click_and_wait,
    create_game,
    draft_step,
    draft_until_finish,
    look,
    open_page,
    progress,
    wait_for_change,
)

SMALL_PHONE = ViewportSize(width=360, height=640)
TALL_PHONE = ViewportSize(width=PHONE["width"], height=PHONE["height"])
# Where an element's top is in the document (not the viewport): the first screen is what a
# person sees before scrolling.
TOP = "(element) => element.getBoundingClientRect().top + window.scrollY"
MATCH_ABOVE_PLAYERS = """() => {
  const board = document.querySelector('.board');
  const players = [...document.querySelectorAll('section.panel > h2')]
    .find((heading) => heading.textContent.trim() === 'Players');
  return board !== null && players !== undefined
    && board.getBoundingClientRect().top < players.getBoundingClientRect().top;
}"""
# A phone's largest text setting, as Android's font scale gives it to the page: every line of
# the sheet twice as tall, so its options run past the sheet as a long bench's do.
LARGE_TEXT = "document.documentElement.style.fontSize = '200%'"


def finish_the_first_deck(page: Page) -> None:
    click_and_wait(page, "[data-key=start]")
    click_and_wait(page, "[data-key=draw]")
    draft_until_finish(page)  # round 1: finishing starts the match
    click_and_wait(page, "[data-key=finish]")


def wait_for_a_question(page: Page) -> None:
    """Play on (drafting what is offered) until a card asks the player something."""
    watch = Watch(page)
    while not page.locator("form.question").count():
        assert not page.locator(".champion-name").count(), "the game ended with no question"
        assert not watch.stuck(), "the tournament showed nothing new"
        if not draft_step(page):
            wait_for_change(page, progress(page))


def assert_answer_in_sight(page: Page, where: str) -> None:
    """The Answer button is wholly inside the viewport, and nothing covers its middle."""
    size = page.viewport_size or PHONE
    box = page.locator("[data-key=q-answer]").bounding_box()
    assert box is not None, where
    inside = (
        box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= size["width"]
        and box["y"] + box["height"] <= size["height"]
    )
    assert inside, f"Answer at {box} outside {size['width']}x{size['height']}, {where}"
    hit = page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y)?.closest('[data-key=q-answer]') !== null",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
    )
    assert hit, f"Answer covered, {where}"


@pytest.mark.long
@pytest.mark.timeout(600)  # a backstop: the loop fails sooner if the game stalls
def test_a_phone_shows_the_live_match_first_and_the_answer_in_sight(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = open_page(browser, server_url, PHONE)
    create_game(page, "Pia", 1, winter="all", answer_seconds=SLOW_ANSWERS)
    finish_the_first_deck(page)
    board = page.locator(".board").first
    expect(board).to_be_visible()
    # The event: the live match laid out above the players (a loaded machine may draw the
    # board a frame before the match's section moves first); it never comes if it is not so.
    page.wait_for_function(MATCH_ABOVE_PLAYERS)
    assert board.evaluate(TOP) < PHONE["height"], "the live match is below the first screen"
    players = page.locator("section.panel", has=page.get_by_role("heading", name="Players"))
    assert players.evaluate(TOP) > board.evaluate(TOP)  # after the match, still on the page
    expect(page.locator(".standings")).to_contain_text("Standings")
    look(page, artifacts, "phone-live-match")

    wait_for_a_question(page)
    for viewport in (TALL_PHONE, SMALL_PHONE):
        page.set_viewport_size(viewport)
        assert_answer_in_sight(page, f"{viewport['width']}x{viewport['height']}")
    page.evaluate(LARGE_TEXT)
    for viewport in (TALL_PHONE, SMALL_PHONE):
        page.set_viewport_size(viewport)
        assert_answer_in_sight(page, f"{viewport['width']}x{viewport['height']}, large text")
    page.set_viewport_size(TALL_PHONE)
    page.evaluate("document.documentElement.style.fontSize = ''")
    look(page, artifacts, "phone-question")
    assert page.errors == []  # type: ignore[attr-defined]
