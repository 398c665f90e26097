"""A card question names what it asks in a player's words, and its default is its suggestion.

The prompts are built by the page's own modules (question.js, draft.js) with the catalogue read
from the server, for questions as the API serves them: where a taken card goes (Sailor: the
bottom of the deck), which of two same-named cards (by their place, never "option 9"), the order
a Reporter's list starts in (its suggestion: Answer untouched sends it) and the card a
Shapeshifter cannot pay with (named).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.web.helpers import DESKTOP, open_page

NEWCOMER, REPORTER = "Starter/Newcomer", "City/Reporter"
# Builds a prompt with the page's modules; answers its text, and what Answer sends untouched.
PROMPT = """async (question) => {
    const base = document.querySelector("script[type=module]").src;
    const {cards} = await import(new URL("ui.js", base));
    const {questionPanel} = await import(new URL("question.js", base));
    await cards();
    let sent = null;
    const answer = (chosen) => { sent = chosen; };
    const form = questionPanel({match: {id: 1, park: "city"}, question}, answer);
    document.body.append(form);
    const text = form.innerText;
    form.querySelector("[data-key=q-answer]").click();
    form.remove();
    return {text, sent};
}"""
PENDING = """async (pending) => {
    const base = document.querySelector("script[type=module]").src;
    const {cards} = await import(new URL("ui.js", base));
    const {draftPanel} = await import(new URL("draft.js", base));
    await cards();
    const deck = pending.deck;
    const turn = {finished: false, options: ["1 from A"], option: 0, picks_left: 1,
        redraw_used: false, display: [], picked: [], pending: pending.pending};
    const page = {view: {seats: [], round: 1, is_final: false, phase_deadline: null},
        me: {turn, actions: ["resolve"], deck, version: 1}, renderPhase() {}, act() {}};
    return draftPanel(page).innerText;
}"""


@pytest.fixture(scope="module")
def page(browser: Browser, server_url: str) -> Iterator[Page]:
    page = open_page(browser, server_url, DESKTOP)
    yield page
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()


def question(**fields: Any) -> dict[str, Any]:
    """A question as ``GET /matches/{id}/`` serves it."""
    base = {"seq": 0, "side": "A", "card": 1, "min": 1, "max": 1, "option_seats": []}
    return {**base, **fields, "default": fields.get("default", fields["options"][:1])}


def test_sailor_says_the_card_it_takes_goes_to_the_bottom_of_the_deck(page: Page) -> None:
    shown = page.evaluate(
        PROMPT,
        question(
            kind="search_deck",
            card_key="Shipwreck/Sailor",
            options=[11, 12],
            option_keys=[REPORTER, NEWCOMER],
            prompt="Choose a card of your deck.",
        ),
    )
    assert "Choose a card of your deck to put at the bottom of your deck." in shown["text"]


def test_same_named_deck_cards_are_told_apart_by_their_place_in_the_deck(page: Page) -> None:
    options = list(range(11, 20))
    shown = page.evaluate(
        PROMPT,
        question(
            kind="search_deck",
            card_key="Shipwreck/Sailor",
            options=options,
            option_keys=[NEWCOMER, *[REPORTER] * 7, NEWCOMER],
            prompt="Choose a card of your deck.",
        ),
    )
    assert "Newcomer, card 1 from the top of your deck" in shown["text"]
    assert "Newcomer, card 9 from the top of your deck" in shown["text"]
    assert "Reporter, card 8 from the top of your deck" in shown["text"]
    assert "option" not in shown["text"]


def test_reporters_list_starts_in_the_order_it_suggests_and_answer_sends_it(page: Page) -> None:
    shown = page.evaluate(
        PROMPT,
        question(
            kind="arrange_top",
            card_key=REPORTER,
            options=[21, 22],
            option_keys=[NEWCOMER, "Starter/Talent"],
            default=[22, 21],
            min=2,
            max=2,
            prompt="Order: the first 1 back on top (first = top), then 1 to the bottom",
        ),
    )
    assert shown["sent"] == [22, 21]
    listed = shown["text"].split("First = the new top card.")[1]
    assert listed.index("Talent") < listed.index("Newcomer")


def test_shapeshifter_names_the_card_that_cannot_pay(page: Page) -> None:
    shapeshifter = "Outer Space/Shapeshifter"
    text = page.evaluate(
        PENDING,
        {
            "deck": [{"uid": 1, "card": shapeshifter}, {"uid": 2, "card": NEWCOMER}],
            "pending": {
                "kind": "remove_for_pick",
                "card": shapeshifter,
                "count": 1,
                "offered": [],
                "eligible": [{"uid": 2, "card": NEWCOMER}],
                "optional": True,
            },
        },
    )
    assert "Shapeshifter cannot pay for its own effect." in text
    assert "other" not in text
