"""What a person does in the web client, as Playwright steps (click what is offered)."""

from __future__ import annotations

import time
from pathlib import Path

from playwright.sync_api import Browser, Page, Request, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ACTING = "/api/v1/"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
FAST = "localStorage.setItem('challengers.pace', '40')"  # boards replay events quickly in tests
# Resolves once the page has run what was queued: an answer read and handed on (two turns).
TURNS = "() => new Promise((done) => setTimeout(() => setTimeout(done, 0), 0))"
# Counts the times a question prompt took the focus (a later click elsewhere may move it on).
FOCUS_SPY = """document.addEventListener("focusin", (event) => {
    const prompt = event.target.matches?.("form.question");
    if (prompt) window.questionFocus = (window.questionFocus || 0) + 1;
});"""


def open_page(
    browser: Browser, url: str, viewport: dict[str, int], locale: str | None = None
) -> Page:
    """A new browser context at `url` (Accept-Language `locale`'s, if given), collecting the
    page's script errors in ``page.errors``."""
    context = browser.new_context(viewport=viewport, locale=locale)  # type: ignore[arg-type]
    context.add_init_script(FAST)
    context.add_init_script(FOCUS_SPY)
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    page.goto(url)
    return page


# An answer deadline for tests that answer questions themselves: on a loaded machine, a test's
# screenshots of a prompt must not outlast it (the policy would answer first, the prompt close).
SLOW_ANSWERS = 600


def create_game(
    page: Page, name: str, seats: int, winter: str = "off", answer_seconds: int = 30
) -> str:
    """Fill the create form; return the room code the lobby shows."""
    create = page.locator("form", has=page.get_by_role("button", name="Create game"))
    create.get_by_label("Your name").fill(name)
    create.get_by_label("Seats (you included)").fill(str(seats))
    create.get_by_label("Winter Park").select_option(winter)
    create.get_by_label("Answer deadline (seconds)").fill(str(answer_seconds))
    create.get_by_role("button", name="Create game").click()
    return page.locator("#room-code").inner_text()


def join_game(page: Page, code: str, name: str) -> None:
    """Fill the lobby's join form with a room code and a name, and send it."""
    join = page.locator("form", has=page.get_by_role("button", name="Join"))
    join.get_by_label("Room code").fill(code)
    join.get_by_label("Your name").fill(name)
    join.get_by_role("button", name="Join").click()


def click_and_wait(page: Page, selector: str) -> None:
    """Click a control that sends an action, then wait for the server's answer (a failure says
    whether the click sent anything)."""
    sent: list[str] = []

    def note(request: Request) -> None:
        if ACTING in request.url and request.method != "GET":
            sent.append(f"{request.method} {request.url}")

    page.on("request", note)
    try:
        with page.expect_response(lambda r: ACTING in r.url and r.request.method != "GET"):
            page.locator(selector).first.click()
    except PlaywrightTimeout as error:
        raise AssertionError(f"no answer to a click on {selector}; it sent {sent}") from error
    finally:
        page.remove_listener("request", note)


def answer_question(page: Page, shot: tuple[Path, str] | None = None) -> bool:
    """Answer a card question through its prompt: tick the first option(s) the prompt allows."""
    form = page.locator("form.question")
    if not form.count():
        return False
    if shot:
        look(page, *shot)
    boxes = form.locator("input[name=q-option]")
    low, high = int(form.get_attribute("data-min") or 0), int(form.get_attribute("data-max") or 0)
    for index in range(min(max(1, low), high, boxes.count())):
        boxes.nth(index).check()
    asked = form.get_attribute("data-question")
    click_and_wait(page, "[data-key=q-answer]")
    # The answer's response reaches the page a turn after the network: until the page has read
    # it, the answered prompt is still drawn, and a look then would answer it twice.
    expect(page.locator(f'form.question[data-question="{asked}"]')).to_have_count(0)
    return True


def resolve_pending(page: Page) -> None:
    """A When picked prompt: keep the first offered card, decline, or pay with eligible cards."""
    if page.locator("[data-key^=keep-]").count():
        return click_and_wait(page, "[data-key^=keep-]")
    if page.locator("[data-key=decline]").count():
        return click_and_wait(page, "[data-key=decline]")
    count = int(page.locator(".pending").get_attribute("data-count") or 0)
    boxes = page.locator(".pending input[type=checkbox]")  # only the cards that may pay
    for index in range(count):
        boxes.nth(index).check()
    click_and_wait(page, "[data-key=resolve]")
    return None


DRAFT_STEPS = ("[data-key^=option-]", "[data-key=draw]", ".pick", "[data-key=finish]")
# True once the page offers a Deck Phase step: a When picked prompt or an enabled step control.
STEP_OFFERED = f"""() => document.querySelector('.pending') !== null
    || [...document.querySelectorAll({", ".join(DRAFT_STEPS)!r})].some((el) => !el.disabled)"""


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


def draft_until_finish(page: Page) -> None:
    """Take Deck Phase steps until Finish is offered, waiting for the page to offer each next
    step (after an answer the page redraws a turn later)."""
    while not page.locator("[data-key=finish]").count():
        if not draft_step(page):
            page.wait_for_function(STEP_OFFERED)


AXE = Path(__file__).parent / "vendor" / "axe.min.js"
WIDTHS = (1280, 390)
NARROWEST = 360
SERIOUS = {"serious", "critical"}
BROKEN_WORDS = """() => {
    const broken = [];
    const names = ".name, .seat-name, .chip, .champion-name, .park-name";
    for (const element of document.querySelectorAll(`${names}, h1, h2, h3, h4, th, button`)) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            // A Chinese character is a word of its own: a line may break between any two.
            const words =
                /[\\u3400-\\u9fff]|[^\\s\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef-]+/g;
            for (const word of node.data.matchAll(words)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const tops = [...range.getClientRects()].map((rect) => Math.round(rect.top));
                const lines = new Set(tops);
                if (lines.size > 1) broken.push(word[0]);
            }
        }
    }
    return broken;
}"""


def look(page: Page, folder: Path, name: str) -> None:
    """Keep this screen at a desktop and a phone width, and check it with axe-core at both.

    The screenshots are the CI artifacts a person looks at; axe's serious or critical findings
    (a control without a name, text without contrast…) fail the test.
    """
    size = page.viewport_size or {"width": 1280, "height": 900}
    try:
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": size["height"]})
            page.screenshot(path=folder / f"{name}-{width}.png", full_page=True)
            assert_accessible(page, f"{name} at {width} px")
            assert_no_broken_words(page, f"{name} at {width} px")
        page.set_viewport_size({"width": NARROWEST, "height": size["height"]})
        assert_no_broken_words(page, f"{name} at {NARROWEST} px")
    finally:
        page.set_viewport_size(size)


def assert_no_broken_words(page: Page, where: str) -> None:
    """No name or heading is split inside a word ("Newc omer") at this width (a hyphen may
    end a line: "Make-" / "Up" is how print breaks it too)."""
    broken = page.evaluate(BROKEN_WORDS)
    assert not broken, f"words broken across lines, {where}: {broken[:8]}"


def assert_accessible(page: Page, where: str) -> None:
    if not page.evaluate("() => Boolean(window.axe)"):
        # Evaluated through the driver: a <script> tag of its text would be an inline script,
        # which the pages' Content-Security-Policy refuses (as it should).
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    found = page.evaluate(
        """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
            .map(v => ({id: v.id, impact: v.impact, help: v.help,
                        nodes: v.nodes.slice(0, 3).map(n => n.target.join(" "))}))"""
    )
    serious = [finding for finding in found if finding["impact"] in SERIOUS]
    assert not serious, f"accessibility, {where}: {serious}"


PROGRESS = """() => {
    const main = document.getElementById("main").cloneNode(true);
    main.querySelectorAll("[role=timer]").forEach((timer) => timer.remove());
    return main.textContent;
}"""


def progress(page: Page) -> str:
    """What the page shows, without its ticking clocks: it changes only when the game moves."""
    return str(page.evaluate(PROGRESS))


STALL = 90  # seconds a game may show nothing new before a test calls it stuck


class Watch:
    """What pages show, looked at again and again: the game is stuck once they have shown nothing
    new for `stall` seconds (no budget for the whole game: a loaded machine makes a test slower,
    never red)."""

    def __init__(self, *pages: Page, stall: float = STALL) -> None:
        self.pages, self.stall = pages, stall
        self.seen, self.moved = "", time.monotonic()

    def stuck(self) -> bool:
        now = "".join(progress(page) for page in self.pages)
        if now != self.seen:
            self.seen, self.moved = now, time.monotonic()
        return time.monotonic() - self.moved > self.stall


def wait_for_change(page: Page, before: str, timeout_ms: int = 5_000) -> bool:
    """Wait until the page shows something new; False if it did not within `timeout_ms`."""
    try:
        page.wait_for_function(
            f"(before) => ({PROGRESS})() !== before", arg=before, timeout=timeout_ms
        )
    except PlaywrightTimeout:
        return False
    return True
