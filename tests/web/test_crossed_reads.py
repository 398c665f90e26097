"""A question's prompt while reads come and go: a read sent before the question was asked can
arrive after the read that showed its prompt, and must not close it; a read of the unchanged view
must not draw the prompt again under the player's pointer."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, Route, expect

from tests.web.helpers import (
    DESKTOP,
    SLOW_ANSWERS,
    TURNS,
    Watch,
    answer_question,
    click_and_wait,
    create_game,
    draft_step,
    open_page,
    progress,
    wait_for_change,
)

STALL = 120  # seconds without anything new on the page: the game is stuck (loaded machine)


def test_a_list_of_matches_read_before_a_question_does_not_close_its_prompt(
    browser: Browser, server_url: str
) -> None:
    """Lin plays alone in Winter Parks. Every read of the match list her page sends is held;
    when a card asks her a question, the lists arrive, answered as the server answered in the
    first Deck Phase (no matches yet). Her prompt stays, and her answer goes out."""
    page = open_page(browser, server_url, DESKTOP)
    create_game(page, "Lin", 1, winter="all", answer_seconds=SLOW_ANSWERS)
    tournament = page.url.rsplit("/", 1)[-1]
    click_and_wait(page, "[data-key=start]")
    lists = f"**/api/v1/tournaments/{tournament}/matches/"
    early = page.request.get(f"{server_url}/api/v1/tournaments/{tournament}/matches/")
    assert early.ok and early.json() == []  # read in the first Deck Phase: no match yet
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    page.route(lists, hold)

    until_asked(page)

    assert held, "the page read the match list before the question came"
    for route in held:
        with page.expect_response(lists) as arrived:
            route.fulfill(response=early)
        arrived.value.finished()
    page.unroute(lists, hold)
    page.evaluate(TURNS)  # the lists' answers have been read and handed to the page
    expect(page.locator("form.question")).to_be_visible()
    assert answer_question(page)
    assert page.errors == []  # type: ignore[attr-defined]


def until_asked(page: Page) -> None:
    """Draft until a card asks a question (the game is stuck if the page shows nothing new)."""
    watch = Watch(page, stall=STALL)
    while not page.locator("form.question").count():
        assert not watch.stuck(), "the tournament showed nothing new"
        if not draft_step(page):
            wait_for_change(page, progress(page))


def test_a_read_of_the_view_leaves_an_open_prompt_where_it_is(
    browser: Browser, server_url: str
) -> None:
    """Lin plays alone in Winter Parks and a card asks her a question. While she reads it, her
    page reads the game's view again (it does every 10 s, and on the stream's frames): the prompt
    she is about to click stays the same element, with what she ticked."""
    page = open_page(browser, server_url, DESKTOP)
    create_game(page, "Lin", 1, winter="all", answer_seconds=SLOW_ANSWERS)
    tournament = page.url.rsplit("/", 1)[-1]
    click_and_wait(page, "[data-key=start]")
    until_asked(page)
    while page.locator("form.question ol.arrange").count():  # no option to tick: ask again
        assert answer_question(page)
        until_asked(page)
    prompt = page.locator("form.question")
    prompt.locator("input[name=q-option]").first.check()
    prompt.evaluate("(form) => { window.shownPrompt = form; }")
    view = f"{server_url}/api/v1/tournaments/{tournament}/"
    with page.expect_response(
        lambda r: r.url == view and r.request.method == "GET", timeout=30_000
    ) as read:
        pass
    read.value.finished()
    page.evaluate(TURNS)  # the view's answer has been read and drawn
    assert page.evaluate("() => window.shownPrompt.isConnected"), "the prompt was drawn again"
    assert prompt.locator("input[name=q-option]").first.is_checked()
    assert answer_question(page)
    assert page.errors == []  # type: ignore[attr-defined]
