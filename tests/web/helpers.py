"""What a person does in the web client, as Playwright steps (click what is offered)."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

ACTING = "/api/v1/"


def click_and_wait(page: Page, selector: str) -> None:
    """Click a control that sends an action, then wait for the server's answer."""
    with page.expect_response(lambda r: ACTING in r.url and r.request.method != "GET"):
        page.locator(selector).first.click()


def answer_question(page: Page, screenshot: Path | None = None) -> bool:
    """Answer a card question through its prompt: tick the first option(s) the prompt allows."""
    form = page.locator("form.question")
    if not form.count():
        return False
    if screenshot:
        page.screenshot(path=screenshot, full_page=True)
    boxes = form.locator("input[name=q-option]")
    text = form.locator("p.muted").first.inner_text()  # "Choose 0 to 1." / "Choose 2."
    numbers = [int(word) for word in text.replace(".", " ").split() if word.isdigit()]
    wanted = max(1, numbers[0]) if numbers else 0
    wanted = min(wanted, numbers[-1] if numbers else 0, boxes.count())
    for index in range(wanted):
        boxes.nth(index).check()
    click_and_wait(page, "[data-key=q-answer]")
    return True


def resolve_pending(page: Page) -> None:
    """A When picked prompt: keep the first offered card, decline, or pay with deck cards."""
    if page.locator("[data-key^=keep-]").count():
        return click_and_wait(page, "[data-key^=keep-]")
    if page.locator("[data-key=decline]").count():
        return click_and_wait(page, "[data-key=decline]")
    prompt = page.locator(".pending .muted").first.inner_text()  # "Tick 1 card of your deck…"
    count = int(prompt.split()[1])
    boxes = page.locator(".pending input[type=checkbox]")
    for start in range(boxes.count() - count + 1):  # the card's text says which cards may pay
        for index in range(boxes.count()):
            boxes.nth(index).set_checked(start <= index < start + count)
        click_and_wait(page, "[data-key=resolve]")
        if not page.locator(".pending").count():
            return None
    raise AssertionError("no way to pay the When picked effect")


DRAFT_STEPS = ("[data-key^=option-]", "[data-key=draw]", ".pick", "[data-key=finish]")


def draft_step(page: Page) -> bool:
    """Take the first Deck Phase action offered; False when none is."""
    if page.locator(".pending").count():
        resolve_pending(page)
        return True
    for selector in DRAFT_STEPS:
        if page.locator(selector).count() and page.locator(selector).first.is_enabled():
            click_and_wait(page, selector)
            return True
    return False
