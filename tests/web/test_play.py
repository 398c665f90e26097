"""A whole tournament played in the browser: two people, a bot, a spectator, a phone."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import (
    DESKTOP,
    PHONE,
    STALL,
    Watch,
    answer_question,
    click_and_wait,
    create_game,
    draft_step,
    draft_until_finish,
    join_game,
    look,
    open_page,
    progress,
    wait_for_change,
)


@pytest.mark.long
@pytest.mark.timeout(900)  # a backstop only: the test fails sooner if the game stalls
def test_three_people_play_a_whole_tournament_in_the_browser(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Ann", 3, winter="all")  # every park a Winter Park: questions come
    tournament = host.url.rsplit("/", 1)[-1]
    guest = open_page(browser, server_url, DESKTOP)
    join_game(guest, code.lower(), "Bob")
    expect(guest.locator("#main")).to_contain_text("you are Bob")
    expect(host.locator(".seat-list")).to_contain_text("Bob")
    click_and_wait(host, "[data-key=add-bots]")
    expect(host.locator("[data-key=start]")).to_be_enabled()
    look(host, artifacts, "1-lobby")

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
    # The answer has come; the page draws the display after it (a loaded CI machine read 0).
    expect(host.locator(".display .card .name")).to_have_count(5)
    display = host.locator(".display .card .name").all_inner_texts()
    look(host, artifacts, "2-deck-phase")
    assert_no_secret(spectator, host)
    assert "secret display" in host.locator("body").inner_text()
    seen = spectator.locator("body").inner_text()  # no match was played: no card is public yet
    assert not [name for name in display + deck_names(host) if name in seen]
    look(spectator, artifacts, "3-spectator-deck-phase")
    guest.locator("#answers-live").uncheck()  # Bob lets his policy answer; Ann answers live
    expect(guest.locator("#answers-live")).not_to_be_checked()

    answered = play_to_the_end(host, guest, spectator, artifacts)
    assert answered >= 1
    for page in (host, guest, spectator):
        expect(page.locator(".champion-name")).not_to_be_empty()
    champion = host.locator(".champion-name").inner_text()
    assert champion in {"Ann", "Bob", "Bot Ada", "Bot Brick", "Bot Cog"} or " and " in champion
    expect(host.locator("form.question")).to_have_count(0)  # no prompt outlives its game
    assert not host.title().startswith("(!)")
    first = host.locator(".standings tbody tr th").first
    expect(first).to_contain_text(champion.split(" and ")[0])  # the champion leads the table
    with urllib.request.urlopen(f"{server_url}/api/v1/tournaments/{tournament}/replay/") as got:
        seed = json.load(got)["seed"]  # the exact digits (a JavaScript number would round them)
    expect(host.locator("[data-key=seed]")).to_contain_text(f"Seed {seed} revealed")
    expect(host.locator("[data-key=seed] a[href='/api/v1/docs/']")).to_be_visible()
    look(host, artifacts, "6-champion")
    look(spectator, artifacts, "7-spectator-end")
    assert_no_secret(spectator, guest)

    host.get_by_text("Replays").click()
    expect(host.locator(".replays a").first).to_be_visible()
    replays = host.locator(".replays a")
    expect(replays.first).to_contain_text(" vs ")  # both players' names
    host.locator(".replays a").first.click()
    expect(host.locator("h1")).to_contain_text("Replay")
    for _ in range(12):
        host.locator("text=Step ▶").click()
    expect(host.locator(".board")).to_contain_text("event 12 of")
    host.get_by_label("Replay position").fill("0")
    expect(host.locator(".board")).to_contain_text("event 0 of")
    look(host, artifacts, "8-replay")
    shows_the_new_flags_defence(host, server_url)
    assert views and all(view["you"] is None and view["code"] is None for view in views)
    for page in (host, guest, spectator):
        assert page.errors == []  # type: ignore[attr-defined]


def shows_the_new_flags_defence(page: Page, server_url: str) -> None:
    """The replay at a flag change after the opening: the flag zone shows the new flag card's
    defence, as its event states it (the board kept the old flag's before)."""
    match = page.url.rsplit("/", 1)[-1]
    with urllib.request.urlopen(f"{server_url}/api/v1/matches/{match}/events/?after=0") as got:
        frames = json.load(got)
    flags = [i for i, f in enumerate(frames) if f["kind"] == "flag"]
    assert len(flags) > 1, "the match's flag changed hands"
    at = flags[1]
    flag = frames[at]["payload"]
    page.get_by_label("Replay position").fill(str(at + 1))
    expect(page.locator(".board")).to_contain_text(f"event {at + 1} of")
    defence = page.locator(f".board .side-{flag['side']} .flag .defence")
    expect(defence).to_have_text(f" defence {flag['power']}")


def play_to_the_end(host: Page, guest: Page, spectator: Page, artifacts: Path) -> int:
    """Both people draft whatever is offered and Ann answers her cards' questions, to the end.

    No budget for the whole game: it fails only when neither page shows anything new for STALL
    seconds, so a loaded machine makes it slower, never red.
    """
    answered, watched = 0, False
    watch = Watch(host, guest)
    while not host.locator(".champion-name").count():
        if watch.stuck():
            look(host, artifacts, "stuck-host")
            look(guest, artifacts, "stuck-guest")
            raise AssertionError(f"the tournament showed nothing new for {STALL} s")
        acted = False
        if answered == 0 and host.locator("form.question").count():
            see_a_question(host, spectator, artifacts)
        for page in (host, guest):
            shot = (artifacts, "4-question") if answered == 0 else None
            if answer_question(page, shot):
                answered, acted = answered + 1, True
                if answered == 2:  # enough: Ann lets her policy answer the rest
                    page.locator("#answers-live").uncheck()
            acted = draft_step(page) or acted
        if not watched and host.locator(".board .chip").count():
            watched = watch_a_match(host, artifacts)
        if not acted:
            wait_for_change(host, progress(host))
    assert watched
    return answered


def see_a_question(host: Page, spectator: Page, artifacts: Path) -> None:
    """Ann's first question: it has the focus and says what each option does; the spectator
    sees whom the match waits for, with the time left."""
    form = host.locator("form.question")
    host.wait_for_function("() => window.questionFocus > 0")  # the prompt took the focus
    assert host.title().startswith("(!) ")
    options = form.locator("label.option").all_inner_texts()
    assert len(set(options)) == len(options), options  # no two options read the same
    if int(form.get_attribute("data-min") or 0) >= 1:  # then the suggestion names an option
        expect(form.locator(".suggested-badge, .suggested").first).to_be_visible()
    expect(spectator.locator(".board .waiting").first).to_contain_text("Waiting for Ann (")
    look(spectator, artifacts, "4-spectator-waits")


def watch_a_match(page: Page, artifacts: Path) -> bool:
    """A live board shows cards on the table, then its winner once skipped to the end."""
    board = page.locator(".board").first
    look(page, artifacts, "5-match")
    board.get_by_role("button", name="Skip to end").click()
    return bool(board.locator(".result").count() or board.locator(".flag .chip").count())


def deck_names(page: Page) -> list[str]:
    return page.locator(".card .name").all_inner_texts()


def assert_no_secret(spectator: Page, player: Page) -> None:
    """Nothing of a player's display or deck reaches a spectator's page: no card tile at all."""
    expect(spectator.locator("#main")).to_contain_text("you are watching")
    text = spectator.locator("body").inner_text()
    assert "Your deck" not in text and "secret display" not in text
    assert spectator.locator(".card").count() == 0
    secret = player.locator(".card").evaluate_all(
        "cards => cards.map(card => card.getAttribute('aria-label'))"
    )
    assert not any(label in spectator.content() for label in secret)


def test_the_lobby_and_the_draft_fit_a_phone(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    page = open_page(browser, server_url, PHONE)
    look(page, artifacts, "phone-1-lobby")
    create_game(page, "Pia", 1)
    look(page, artifacts, "phone-2-game-lobby")
    click_and_wait(page, "[data-key=start]")
    click_and_wait(page, "[data-key=draw]")
    look(page, artifacts, "phone-3-draft")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    draft_until_finish(page)  # round 1: finishing starts the match
    click_and_wait(page, "[data-key=finish]")
    expect(page.locator("#main")).to_contain_text("Matches of round 1")
    look(page, artifacts, "phone-4-match")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    page.get_by_role("link", name="Cards").click()
    page.get_by_label("Search the cards").fill("pig")
    expect(page.locator(".card .name").first).to_have_text("Pig")
    assert "Newcomer" not in page.locator("#main").inner_text()
    look(page, artifacts, "phone-5-cards")
    page.get_by_label("Search the cards").fill("")
    assert page.locator(".set-block").count() >= 10  # every set of both boxes
    page.locator("#card-box").select_option("beach_cup")
    page.locator("#card-level").select_option("B")
    expect(page.locator(".set-block").first).to_be_visible()
    levels = page.locator(".card .level-badge").evaluate_all(
        "badges => badges.map(badge => badge.getAttribute('aria-label'))"
    )
    assert levels and set(levels) == {"level B"}, set(levels)
    boxes = page.locator(".set-block h2 .muted").all_inner_texts()
    assert boxes and all("Beach Cup" in box for box in boxes), boxes
    look(page, artifacts, "phone-6-card-filters")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    icon = page.locator("link[rel=icon]").get_attribute("href") or ""
    assert page.request.get(server_url + icon).ok  # a favicon, never a 404
    assert page.errors == []  # type: ignore[attr-defined]


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
    look(host, artifacts, "lobby-kicked-bot")

    chat_in_the_lobby(host, guest, artifacts)
    a_spectator_chats(browser, host, artifacts)
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


def chat_in_the_lobby(host: Page, guest: Page, artifacts: Path) -> None:
    """Gus says something with markup in it: it shows as text. Muted by the host, he is refused."""
    with guest.expect_response(lambda r: r.url.endswith("/chat/")):
        guest.get_by_label("Message to the table").fill("<b>hi</b> all")
        guest.get_by_role("button", name="Send").click()
    expect(host.locator(".chat-log")).to_contain_text("Gus: <b>hi</b> all")
    assert host.locator(".chat-log b").count() == 0  # never rendered as HTML
    expect(guest.get_by_label("Message to the table")).to_have_value("")
    with host.expect_response(lambda r: r.url.endswith("/chat/mute/")):
        host.get_by_text("Chat settings and mutes").click()
        host.get_by_role("button", name="Mute Gus").click()
    expect(host.get_by_role("button", name="Unmute Gus")).to_be_visible()
    guest.get_by_label("Message to the table").fill("spam")
    guest.get_by_role("button", name="Send").click()
    expect(guest.locator("#errors")).to_contain_text("(chat_muted)")
    look(host, artifacts, "lobby-chat")


def a_spectator_chats(browser: Browser, host: Page, artifacts: Path) -> None:
    """Not until the host allows it; then Vera joins by name, her markup shows as text and she
    is marked a spectator; muted by the host, she is refused."""
    watcher = open_page(browser, host.url, PHONE)
    expect(watcher.locator("#main")).to_contain_text("you are watching")
    expect(watcher.locator(".chat-log")).to_contain_text("Gus: <b>hi</b> all")
    expect(watcher.get_by_label("Your name in the chat")).to_be_hidden()
    with host.expect_response(lambda r: r.url.endswith("/chat/") and r.request.method == "PATCH"):
        host.get_by_label("Spectators may chat (with a name)").check()
    watcher.get_by_label("Your name in the chat").fill("gus")  # a seat's name
    watcher.get_by_role("button", name="Join the chat").click()
    expect(watcher.locator("#errors")).to_contain_text("(name_taken)")
    watcher.get_by_label("Your name in the chat").fill("Vera")
    with watcher.expect_response(lambda r: r.url.endswith("/chat/spectators/")):
        watcher.get_by_role("button", name="Join the chat").click()
    watcher.get_by_label("Message to the table").fill("<i>go</i> Gus")
    with watcher.expect_response(lambda r: r.url.endswith("/chat/")):
        watcher.get_by_role("button", name="Send").click()
    expect(host.locator(".chat-log")).to_contain_text("Vera (spectator): <i>go</i> Gus")
    assert host.locator(".chat-log i").count() == 0  # never rendered as HTML
    look(watcher, artifacts, "lobby-spectator-chat")
    with host.expect_response(lambda r: r.url.endswith("/chat/mute/")):
        host.get_by_role("button", name="Mute Vera").click()
    expect(host.get_by_role("button", name="Unmute Vera")).to_be_visible()
    watcher.reload()  # the chat token is kept across a reload
    watcher.get_by_label("Message to the table").fill("more")
    watcher.get_by_role("button", name="Send").click()
    expect(watcher.locator("#errors")).to_contain_text("(chat_muted)")
    assert watcher.errors == []  # type: ignore[attr-defined]
    watcher.close()


def test_a_player_who_left_sees_the_bot_play_and_takes_the_seat_back(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    """Bots of a chosen strength; a seat dropped to a bot and reclaimed through the page."""
    host = open_page(browser, server_url, DESKTOP)
    code = create_game(host, "Rita", 3)
    guest = open_page(browser, server_url, DESKTOP)
    join_game(guest, code, "Sam")
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
    look(guest, artifacts, "dropped-seat")
    click_and_wait(guest, "[data-key=reclaim]")
    expect(guest.locator("#main")).not_to_contain_text("A bot plays your seat")
    expect(host.locator(".seat-list")).not_to_contain_text("played by a steady bot")
    for page in (host, guest):
        assert page.errors == []  # type: ignore[attr-defined]
