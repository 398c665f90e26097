"""The web client in Simplified Chinese and in Russian: chosen from Accept-Language or the switch,
remembered, and a whole tournament played with no English word of the catalogue on screen."""

from __future__ import annotations

import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import Browser, Page, expect

from infra.catalogues import LOCALE_DIR
from tests.web.helpers import (
    DESKTOP,
    NARROWEST,
    SLOW_ANSWERS,
    Watch,
    answer_question,
    click_and_wait,
    draft_step,
    look,
    open_page,
    progress,
    wait_for_change,
)

FOLDERS = {"zh-hans": "zh_Hans", "ru": "ru"}
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")
# What the page shows as words, outside the fields a person types in.
SHOWN_TEXT = """() => [document.title, document.querySelector("header").innerText,
    document.getElementById("errors").innerText, document.getElementById("main").innerText]
    .join("\\n")"""


def english_words(language: str) -> set[str]:
    """The words of the client's English texts that its translations into `language` never use
    (so "Challengers", kept in every language, is not one)."""
    catalogue = polib.pofile(str(LOCALE_DIR / FOLDERS[language] / "LC_MESSAGES/djangojs.po"))
    english: set[str] = set()
    kept: set[str] = set()
    for entry in catalogue:
        for text in (entry.msgid, entry.msgid_plural):
            english.update(re.findall(r"[a-z]{3,}", PLACEHOLDER.sub(" ", text).lower()))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            kept.update(re.findall(r"[a-z]{3,}", text.lower()))
    return english - kept


def _words_of(line: str) -> set[str]:
    return {word.lower() for word in re.findall(r"[A-Za-z]{3,}", line)}


def untranslated(page: Page, words: set[str]) -> list[str]:
    """The lines on screen with a word in English."""
    lines = str(page.evaluate(SHOWN_TEXT)).splitlines()
    return [line for line in lines if _words_of(line) & words]


# The letter each set icon on screen shows (the initial of the set's name).
ICON_LETTERS = "[...document.querySelectorAll('.set-icon text')].map((text) => text.textContent)"


def check_screen(page: Page, words: set[str], artifacts: Path, name: str) -> None:
    """No catalogue word left in English, no set icon with an English initial, nothing wider
    than a phone, and the screenshots kept (desktop and phone width, checked by axe-core and for
    words broken across lines)."""
    assert untranslated(page, words) == [], name
    letters = page.evaluate(ICON_LETTERS)
    assert [letter for letter in letters if re.fullmatch("[A-Za-z]", letter)] == [], name
    look(page, artifacts, name)
    size = page.viewport_size or {"width": 1280, "height": 900}
    page.set_viewport_size({"width": NARROWEST, "height": size["height"]})
    try:
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= NARROWEST, f"{name}: {width} px wide at {NARROWEST} px"
    finally:
        page.set_viewport_size(size)


def chosen_language(browser: Browser, url: str, language: str) -> Page:
    """Chinese comes from the browser's Accept-Language; Russian from the switch, in an English
    browser; either is remembered across a reload."""
    if language == "zh-hans":
        page = open_page(browser, url, DESKTOP, "zh-CN")
    else:
        page = open_page(browser, url, DESKTOP, "en-US")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        with page.expect_navigation():
            page.locator("#language").select_option(language)
    expect(page.locator("html")).to_have_attribute("lang", language)
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.locator("#language")).to_have_value(language)
    assert page.evaluate("localStorage.getItem('challengers.lang')") in (None, language)
    return page


def play_to_the_end(page: Page, words: set[str], artifacts: Path, language: str) -> bool:
    """Draft whatever is offered and answer the first question, checking it and the first match
    on screen; whether a question was asked. The seat's policy answers the later questions (the
    matches need not wait for this loop to notice each one)."""
    watch, watched, asked = Watch(page), False, False
    while not page.locator(".champion-name").count():
        assert not watch.stuck(), "the tournament showed nothing new"
        # One look decides both: a prompt appearing between a check and the answer would be
        # answered unseen, and the answer turns live questions off.
        prompted = page.locator("form.question").count() > 0
        if prompted and not asked:
            check_screen(page, words, artifacts, f"{language}-3-question")
        answered = prompted and answer_question(page)
        asked = asked or answered
        if answered and page.locator("#answers-live").is_checked():
            page.locator("#answers-live").uncheck()
        acted = answered or draft_step(page)
        if not watched and page.locator(".board .chip").count():
            page.locator(".board [data-key^=end-]").first.click()
            check_screen(page, words, artifacts, f"{language}-3-match")
            watched = True
        if not acted:
            wait_for_change(page, progress(page))
    return asked


@pytest.mark.long
@pytest.mark.timeout(600)
@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_a_tournament_is_played_in_the_language_chosen(
    browser: Browser, server_url: str, artifacts: Path, language: str
) -> None:
    words = english_words(language)
    assert {"lobby", "deck", "bench", "trophy"} <= words  # the scan looks for real words
    page = chosen_language(browser, server_url, language)
    expect(page.locator(".lobby-grid")).to_be_visible()
    check_screen(page, words, artifacts, f"{language}-1-lobby")

    create = page.locator("form", has=page.locator("select[name=basic_set]"))
    create.locator("input[name=name]").fill("Lin")
    create.locator("input[name=seats]").fill("1")
    create.locator("select[name=winter_park]").select_option("all")  # Winter Parks ask questions
    create.locator("input[name=answer_deadline_seconds]").fill(str(SLOW_ANSWERS))
    create.locator("button[type=submit]").click()
    click_and_wait(page, "[data-key=start]")
    click_and_wait(page, "[data-key=draw]")
    expect(page.locator(".display .card").first).to_be_visible()
    check_screen(page, words, artifacts, f"{language}-2-deck-phase")

    asked = play_to_the_end(page, words, artifacts, language)
    check_screen(page, words, artifacts, f"{language}-4-end")
    links = page.locator("[data-key=seed] a").evaluate_all("(links) => links.map((a) => a.href)")
    assert len(links) == 3 and all(page.request.get(link).ok for link in links), links
    assert asked
    assert page.errors == []  # type: ignore[attr-defined]
