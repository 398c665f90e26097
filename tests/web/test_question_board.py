"""A card question's prompt opens with the table in view: its board shows the situation asked about.

The server releases a match's events at a pace (100 ms each) and asks a live seat's question
once the events before it are out; the boards here replay one event a minute, so only the
board's catching up before the prompt opens can show them in time. At the instant each prompt
appears (a mutation observer, before the page paints), its match's board must draw what the
released events say (fold.js over the seat's own events from REST): every flag and bench seat,
card for card, a flag among them, and each bench card the question offers in its seat.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.live_server import live_server
from tests.web.helpers import (
    FOCUS_SPY,
    SLOW_ANSWERS,
    Watch,
    answer_question,
    click_and_wait,
    create_game,
    draft_step,
    progress,
    wait_for_change,
)

SLOW_BOARDS = "localStorage.setItem('challengers.pace', '60000')"
# Each prompt as it first appears, with what its match's board draws at that moment: each side's
# flag card, attack and bench seats, as the uids of the chips drawn.
PROMPT_SPY = """window.prompts = [];
new MutationObserver(() => {
    const form = document.querySelector("form.question");
    if (!form || window.prompts.some((p) => p.id === form.dataset.question)) return;
    const match = form.dataset.question.split(":")[0];
    const board = document.querySelector(`.board[data-match="${match}"]`);
    const side = (s) => ({
        flag: board.querySelector(`.side-${s} .flag .chip`)?.dataset.card ?? null,
        attack: [...board.querySelectorAll(`.side-${s} .attack .chip`)]
            .map((chip) => chip.dataset.card),
        bench: [...board.querySelectorAll(`.side-${s} .bench li`)]
            .map((seat) => [...seat.querySelectorAll(".chip")].map((chip) => chip.dataset.card)),
    });
    window.prompts.push({id: form.dataset.question, match,
        board: board ? {A: side("A"), B: side("B")} : null});
}).observe(document, {childList: true, subtree: true});"""
# What the released events say the board holds (the same fold the page draws from), and the
# question, as the seat reads them over REST.
RELEASED = """async (match) => {
    const base = document.querySelector("script[type=module]").src;
    const {newBoard, fold, drawn} = await import(new URL("fold.js", base));
    const tournament = location.hash.split("/").pop();
    const {token} = JSON.parse(localStorage.getItem(`challengers.seat.${tournament}`));
    const read = async (path) => (await fetch(`/api/v1/${path}`,
        {headers: {Authorization: `Bearer ${token}`}})).json();
    const board = newBoard();
    for (const event of await read(`matches/${match}/events/`)) {
        if (event.payload) fold(board, event.kind, event.payload);
    }
    const shown = drawn(board);
    const side = (s) => ({flag: shown[s].flag === null ? null : String(shown[s].flag),
        attack: shown[s].attack.map(String),
        bench: shown[s].bench.map((seat) => seat.map(String))});
    const {question} = await read(`matches/${match}/`);
    return {board: {A: side("A"), B: side("B")}, question};
}"""
PROMPTS = 3


@pytest.fixture(scope="module")
def server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Events released at 100 ms each: the events before a question take a while to come out."""
    with live_server(tmp_path_factory.mktemp("web-question"), pace_ms=100) as url:
        yield url


def _check(page: Page) -> dict[str, Any]:
    """Check the prompt on the page against its board as drawn the instant it appeared; returns
    that board (each side's flag, attack and bench)."""
    form = page.locator("form.question")
    asked = form.get_attribute("data-question")
    page.wait_for_function("(id) => window.prompts.some((p) => p.id === id)", arg=asked)
    seen = page.evaluate("(id) => window.prompts.find((p) => p.id === id)", asked)
    released = page.evaluate(RELEASED, seen["match"])
    assert seen["board"] == released["board"], (asked, released["question"])
    # A card is on the table: the flag, or the attack (a card revealed at the opening may ask
    # before anyone holds the flag: Arrange the top cards...).
    sides = [released["board"][side] for side in "AB"]
    assert any(side["flag"] or side["attack"] for side in sides), "a card is on the table"
    question = released["question"]
    bench = seen["board"][question["side"]]["bench"]
    for option, seat in zip(question["options"], question.get("option_seats") or [], strict=False):
        if seat is not None:
            assert str(option) in bench[seat], (question, bench)
    return dict(seen["board"])


@pytest.mark.timeout(600)  # a backstop: a loaded machine is slow, not stuck
def test_a_prompt_opens_with_its_board_showing_the_events_before_the_question(
    browser: Browser, server_url: str
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    for script in (SLOW_BOARDS, PROMPT_SPY, FOCUS_SPY):
        context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(30_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url)
    create_game(page, "Ola", 1, winter="all", answer_seconds=SLOW_ANSWERS)  # freezes ask
    click_and_wait(page, "[data-key=start]")
    drawn: list[dict[str, Any]] = []  # each prompt's board
    watch = Watch(page)
    while len(drawn) < PROMPTS:
        if page.locator("form.question").count():
            drawn.append(_check(page))
            assert answer_question(page)
        elif not draft_step(page):
            assert not watch.stuck(), "the game showed nothing new"
            wait_for_change(page, progress(page))
    benches = [seat for board in drawn for side in "AB" for seat in board[side]["bench"]]
    assert any(benches), "the questions came with cards on a bench"
    expect(page.locator(".board").first).to_be_visible()
    assert errors == []
    context.close()
