"""The table chat as a player reads and writes it: the log follows the newest line (unless the
reader scrolled up), a message over the limit is said to be too long before it is sent (a long
paste was cut without a word); the same refusal shows once however often it comes."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect

from tests.web.helpers import DESKTOP, create_game, open_page

LIMIT = 280
AT_THE_END = "(log) => log.scrollHeight - log.scrollTop - log.clientHeight < 24"


def seat_tokens(page: Page, server_url: str, code: str) -> list[str]:
    """The host's token (from the page) and two guests' who join by the room code: the chat
    takes at most five messages in a row from one author."""
    tournament = page.url.rsplit("/", 1)[-1]
    ticket = json.loads(page.evaluate(f"localStorage.getItem('challengers.seat.{tournament}')"))
    tokens = [ticket["token"]]
    for name in ("Gus", "Ida"):
        joined = page.request.post(
            f"{server_url}/api/v1/tournaments/join/", data={"code": code, "name": name}
        )
        assert joined.ok, joined.text()
        tokens.append(joined.json()["seat"]["token"])
    return tokens


def say(page: Page, server_url: str, token: str, text: str) -> None:
    """A message sent past the page, as another player's client would."""
    tournament = page.url.rsplit("/", 1)[-1]
    answer = page.request.post(
        f"{server_url}/api/v1/tournaments/{tournament}/chat/",
        data={"text": text},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.ok, answer.text()


def test_the_chat_follows_the_newest_line_and_says_when_a_message_is_too_long(
    browser: Browser, server_url: str
) -> None:
    page = open_page(browser, server_url, DESKTOP)
    tokens = seat_tokens(page, server_url, create_game(page, "Lin", 3))
    log = page.locator(".chat-log")
    for number in range(1, 13):
        say(page, server_url, tokens[number % 3], f"line {number} " + "words " * 12)
    expect(log).to_contain_text("line 12")
    assert log.evaluate("(log) => log.scrollHeight > log.clientHeight")  # it does scroll
    assert log.evaluate(AT_THE_END), "the newest line is out of sight"

    log.evaluate("(log) => { log.scrollTop = 0; }")  # the reader goes back up to read
    say(page, server_url, tokens[1], "line 13")
    expect(log).to_contain_text("line 13")
    assert log.evaluate("(log) => log.scrollTop") == 0, "the log jumped away from the reader"

    box = page.get_by_label("Message to the table")
    box.fill("x" * (LIMIT + 20))  # a paste is kept whole, and said to be too long
    assert len(box.input_value()) == LIMIT + 20
    expect(page.locator("#chat-length")).to_contain_text(f"{LIMIT + 20}")
    expect(page.locator("[data-key=chat-send]")).to_be_disabled()
    box.fill("x" * LIMIT)
    expect(page.locator("#chat-length")).to_have_text("")
    expect(page.locator("[data-key=chat-send]")).to_be_enabled()

    assert page.errors == []  # type: ignore[attr-defined]


def test_the_same_refusal_shows_once(browser: Browser, server_url: str) -> None:
    """A wrong room code sent three times: one line says so, not three."""
    page = open_page(browser, server_url, DESKTOP)
    join = page.locator("form", has=page.get_by_role("button", name="Join"))
    join.get_by_label("Room code").fill("ZZZZZZ")
    join.get_by_label("Your name").fill("Gus")
    for _ in range(3):
        with page.expect_response(lambda r: r.url.endswith("/join/")):
            join.get_by_role("button", name="Join").click()
        expect(page.locator("#errors")).to_contain_text("(unknown_code)")
    expect(page.locator("#errors p")).to_have_count(1)
