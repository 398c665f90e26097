"""A whole tournament played in the browser: two people, a bot, a spectator, a phone."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import answer_question, click_and_wait, draft_step

DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def open_page(browser: Browser, url: str, viewport: dict[str, int]) -> Page:
    page = browser.new_context(viewport=viewport).new_page()  # type: ignore[arg-type]
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


def create_game(page: Page, name: str, seats: int, winter: str = "off") -> str:
    """Fill the create form; return the room code the lobby shows."""
    create = page.locator("form", has=page.get_by_role("button", name="Create game"))
    create.get_by_label("Your name").fill(name)
    create.get_by_label("Seats (you included)").fill(str(seats))
    create.get_by_label("Winter Park").select_option(winter)
    create.get_by_role("button", name="Create game").click()
    return page.locator("#room-code").inner_text()


@pytest.mark.timeout(300)
def test_three_people_play_a_whole_tournament_in_the_browser(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Ann", 3, winter="all")  # every park a Winter Park: questions come
    tournament = host.url.rsplit("/", 1)[-1]
    guest = open_page(browser, server_url, DESKTOP)
    join = guest.locator("form", has=guest.get_by_role("button", name="Join"))
    join.get_by_label("Room code").fill(code.lower())
    join.get_by_label("Your name").fill("Bob")
    join.get_by_role("button", name="Join").click()
    expect(guest.locator("#main")).to_contain_text("you are Bob")
    expect(host.locator(".seat-list")).to_contain_text("Bob")
    click_and_wait(host, "[data-key=add-bots]")
    expect(host.locator("[data-key=start]")).to_be_enabled()
    host.screenshot(path=artifacts / "1-lobby.png", full_page=True)

    guest.reload()  # the seat survives a reload (its token is kept in the browser)
    expect(guest.locator("#main")).to_contain_text("you are Bob")
    click_and_wait(host, "[data-key=start]")
    spectator = open_page(browser, f"{server_url}/#/t/{tournament}", DESKTOP)
    views: list[dict[str, object]] = []
    spectator.on(
        "response",
        lambda r: views.append(r.json()) if r.url.endswith(f"/tournaments/{tournament}/") else None,
    )
    expect(spectator.locator("#main")).to_contain_text("you are watching")

    expect(host.locator("[data-key=draw]")).to_be_visible()
    click_and_wait(host, "[data-key=draw]")
    display = host.locator(".display .card .name").all_inner_texts()
    assert len(display) == 5
    host.screenshot(path=artifacts / "2-deck-phase.png", full_page=True)
    assert_no_secret(spectator, host)
    assert "secret display" in host.locator("body").inner_text()
    seen = spectator.locator("body").inner_text()  # no match was played: no card is public yet
    assert not [name for name in display + deck_names(host) if name in seen]
    spectator.screenshot(path=artifacts / "3-spectator-deck-phase.png", full_page=True)
    guest.locator("#answers-live").uncheck()  # Bob lets his policy answer; Ann answers live
    expect(guest.locator("#answers-live")).not_to_be_checked()

    answered = play_to_the_end(host, guest, artifacts)
    assert answered >= 1
    for page in (host, guest, spectator):
        expect(page.locator(".champion-name")).not_to_be_empty()
    champion = host.locator(".champion-name").inner_text()
    assert champion in {"Ann", "Bob", "Bot Ada", "Bot Brick", "Bot Cog"} or " and " in champion
    host.screenshot(path=artifacts / "6-champion.png", full_page=True)
    with urllib.request.urlopen(f"{server_url}/api/v1/tournaments/{tournament}/replay/") as got:
        seed = json.load(got)["seed"]  # the exact digits (a JavaScript number would round them)
    expect(host.locator("[data-key=seed]")).to_contain_text(f"Seed {seed} revealed")
    expect(host.locator("[data-key=seed] a[href='/docs/']")).to_be_visible()
    spectator.screenshot(path=artifacts / "7-spectator-end.png", full_page=True)
    assert_no_secret(spectator, guest)

    host.get_by_text("Replays").click()
    expect(host.locator(".replays a").first).to_be_visible()
    host.wait_for_timeout(300)  # a redraw meanwhile must keep the list open
    host.locator(".replays a").first.click()
    expect(host.locator("h1")).to_contain_text("Replay")
    for _ in range(12):
        host.locator("text=Step ▶").click()
    expect(host.locator(".board")).to_contain_text("event 12 of")
    host.screenshot(path=artifacts / "8-replay.png", full_page=True)
    assert views and all(view["you"] is None and view["code"] is None for view in views)
    for page in (host, guest, spectator):
        assert page.errors == []  # type: ignore[attr-defined]


def play_to_the_end(host: Page, guest: Page, artifacts: Path) -> int:
    """Both people draft whatever is offered and Ann answers her cards' questions, to the end."""
    answered, watched = 0, False
    deadline = time.monotonic() + 200
    while not host.locator(".champion-name").count():
        if time.monotonic() > deadline:
            host.screenshot(path=artifacts / "stuck-host.png", full_page=True)
            guest.screenshot(path=artifacts / "stuck-guest.png", full_page=True)
            raise AssertionError("the tournament did not end")
        acted = False
        for page in (host, guest):
            shot = artifacts / "4-question.png" if answered == 0 else None
            if answer_question(page, shot):
                answered, acted = answered + 1, True
                if answered == 2:  # enough: Ann lets her policy answer the rest
                    page.locator("#answers-live").uncheck()
            acted = draft_step(page) or acted
        if not watched and host.locator(".board .chip").count():
            watched = watch_a_match(host, artifacts)
        if not acted:
            host.wait_for_timeout(150)
    assert watched
    return answered


def watch_a_match(page: Page, artifacts: Path) -> bool:
    """A live board shows cards on the table, then its winner once skipped to the end."""
    board = page.locator(".board").first
    page.screenshot(path=artifacts / "5-match.png", full_page=True)
    board.get_by_role("button", name="Skip to end").click()
    return bool(board.locator(".result").count() or board.locator(".flag .chip").count())


def deck_names(page: Page) -> list[str]:
    return page.locator(".card .name").all_inner_texts()


def assert_no_secret(spectator: Page, player: Page) -> None:
    """Nothing of a player's display or deck reaches a spectator's page: no card tile at all."""
    spectator.wait_for_timeout(300)
    text = spectator.locator("body").inner_text()
    assert "Your deck" not in text and "secret display" not in text
    assert spectator.locator(".card").count() == 0
    secret = player.locator(".card").evaluate_all(
        "cards => cards.map(card => card.getAttribute('aria-label'))"
    )
    assert not any(label in spectator.content() for label in secret)


@pytest.mark.timeout(120)
def test_the_lobby_and_the_draft_fit_a_phone(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = open_page(browser, server_url, PHONE)
    page.screenshot(path=artifacts / "phone-1-lobby.png", full_page=True)
    create_game(page, "Pia", 1)
    page.screenshot(path=artifacts / "phone-2-game-lobby.png", full_page=True)
    click_and_wait(page, "[data-key=start]")
    click_and_wait(page, "[data-key=draw]")
    page.screenshot(path=artifacts / "phone-3-draft.png", full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    while not page.locator("[data-key=finish]").count():  # round 1 only: finishing starts the match
        assert draft_step(page)
    click_and_wait(page, "[data-key=finish]")
    expect(page.locator("#main")).to_contain_text("Matches of round 1")
    page.screenshot(path=artifacts / "phone-4-match.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("link", name="Cards").click()
    page.get_by_label("Search the cards").fill("pig")
    expect(page.locator(".card .name").first).to_have_text("Pig")
    assert "Newcomer" not in page.locator("#main").inner_text()
    page.screenshot(path=artifacts / "phone-5-cards.png")
    page.get_by_label("Search the cards").fill("")
    assert page.locator(".set-block").count() >= 10  # every set of both boxes
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.timeout(120)
def test_the_lobby_joins_kicks_leaves_and_cancels_with_refusals_in_words(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Hana", 4)
    guest = open_page(browser, server_url, DESKTOP)
    expect(guest.locator(".game-list")).to_contain_text("Hana's game")  # the open lobbies
    join = guest.locator("form", has=guest.get_by_role("button", name="Join"))
    join.get_by_label("Room code").fill("ZZZZZZ")
    join.get_by_label("Your name").fill("Gus")
    join.get_by_role("button", name="Join").click()
    expect(guest.locator("#errors")).to_contain_text("(unknown_code)")
    join.get_by_label("Room code").fill(code)
    join.get_by_label("Your name").fill("hana")  # names differ case-insensitively
    join.get_by_role("button", name="Join").click()
    expect(guest.locator("#errors")).to_contain_text("(name_taken)")
    join.get_by_label("Your name").fill("Gus")
    join.get_by_role("button", name="Join").click()
    expect(guest.locator("#main")).to_contain_text("you are Gus")

    click_and_wait(host, "[data-key=add-bots]")
    expect(host.locator(".seat-list")).to_contain_text("Gus")
    expect(host.locator(".seat-list")).to_contain_text("Bot")
    bot = host.locator(".seat-list button", has_text="Remove Bot")
    with host.expect_response(lambda r: r.url.endswith("/kick/")):
        bot.click()
    expect(host.locator(".seat-list")).not_to_contain_text("Bot")
    host.screenshot(path=artifacts / "lobby-kicked-bot.png", full_page=True)

    with guest.expect_response(lambda r: r.url.endswith("/leave/")):
        guest.get_by_role("button", name="Leave the game").click()
    expect(guest.locator("#main")).to_contain_text("you are watching")
    expect(host.locator(".seat-list")).not_to_contain_text("Gus")
    guest.reload()  # the seat token was forgotten with the seat
    expect(guest.locator("#main")).to_contain_text("you are watching")

    host.on("dialog", lambda dialog: dialog.accept())
    host.get_by_role("button", name="Cancel the game").click()
    expect(host.locator("#main")).to_contain_text("This game was cancelled.")
    expect(guest.locator("#main")).to_contain_text("This game was cancelled.")
    for page in (host, guest):
        assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.timeout(180)
def test_a_player_who_left_sees_the_bot_play_and_takes_the_seat_back(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    """Bots of a chosen strength; a seat dropped to a bot and reclaimed through the page."""
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Rita", 3)
    guest = open_page(browser, server_url, DESKTOP)
    join = guest.locator("form", has=guest.get_by_role("button", name="Join"))
    join.get_by_label("Room code").fill(code)
    join.get_by_label("Your name").fill("Sam")
    join.get_by_role("button", name="Join").click()
    expect(guest.locator("#main")).to_contain_text("you are Sam")
    host.get_by_label("Bot strength").select_option("champion")
    expect(host.locator(".seat-list")).to_contain_text("Sam")  # a redraw keeps the choice
    expect(host.get_by_label("Bot strength")).to_have_value("champion")
    click_and_wait(host, "[data-key=add-bots]")
    expect(host.locator(".seat-list")).to_contain_text("bot, champion")
    click_and_wait(host, "[data-key=start]")
    expect(guest.locator("#main")).to_contain_text("Deck Phase of round 1")
    left = guest.evaluate(
        """async () => {
            const id = location.hash.split("/").pop();
            const seat = JSON.parse(localStorage.getItem(`challengers.seat.${id}`));
            const response = await fetch(`/api/v1/tournaments/${id}/leave/`, {
                method: "POST", headers: {Authorization: `Bearer ${seat.token}`}});
            return response.status;
        }"""
    )
    assert left == 200
    expect(host.locator(".seat-list")).to_contain_text("played by a steady bot")
    guest.reload()
    expect(guest.locator("#main")).to_contain_text("A bot plays your seat")
    guest.screenshot(path=artifacts / "dropped-seat.png", full_page=True)
    click_and_wait(guest, "[data-key=reclaim]")
    expect(guest.locator("#main")).not_to_contain_text("A bot plays your seat")
    expect(host.locator(".seat-list")).not_to_contain_text("played by a steady bot")
    for page in (host, guest):
        assert page.errors == []  # type: ignore[attr-defined]
