"""The Content-Security-Policy holds in Chromium: the web client (lobby, cards, leagues, a bot
tournament's boards), the admin (login, index, a list, an add form with inlines, the lockout
page), GraphiQL and the API docs load and run with no violation reported, in the console or as
a ``securitypolicyviolation`` event."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, ConsoleMessage, Page, expect

from tests.live_server import ROOT, live_server, server_environment
from tests.web.conftest import _caller

PASSWORD = "csp-curator-password"
# Every violation the page sees, recorded before any of its scripts runs.
VIOLATIONS = """window.violations = [];
document.addEventListener("securitypolicyviolation", (event) => {
    window.violations.push(`${event.violatedDirective} ${event.blockedURI}`);
});"""
SHOWN_MS = 60_000  # a backstop for a page's first answer while bot games load the machine


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """A live server with an ``admin`` user and an organizer's bot tournament, started."""
    folder = tmp_path_factory.mktemp("csp")
    with live_server(folder, pace_ms=5) as url:
        env = server_environment(folder / "live.sqlite3", 5) | {"ADMIN_PASSWORD": PASSWORD}
        manage = [sys.executable, str(ROOT / "manage.py")]
        subprocess.run(
            [*manage, "ensure_admin"], cwd=ROOT, env=env, check=True, capture_output=True
        )
        made = subprocess.run(
            [*manage, "create_organizer", "org"], cwd=ROOT, env=env, check=True, capture_output=True
        )
        call = _caller(url, made.stdout.decode().strip().splitlines()[-1])
        call("leagues/", {"name": "Club", "slug": "club"})
        season = call("leagues/club/seasons/", {"name": "Spring"})["id"]
        game = call(f"leagues/club/seasons/{season}/tournaments/", {"seats": 2})["id"]
        call(f"tournaments/{game}/bots/", {"count": 2})
        call(f"tournaments/{game}/start/", None)
        yield {"url": url, "game": game}


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(VIOLATIONS)
    opened = context.new_page()
    opened.set_default_timeout(SHOWN_MS)
    console: list[str] = []

    def note(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text or "Content-Security-Policy" in message.text:
            console.append(message.text)

    opened.on("console", note)
    opened.console_csp = console  # type: ignore[attr-defined]
    yield opened
    context.close()


def no_violation(page: Page) -> None:
    page.wait_for_load_state("networkidle")
    assert sorted(set(page.evaluate("window.violations"))) == []
    assert page.console_csp == []  # type: ignore[attr-defined]


def test_the_web_client_runs_under_the_policy(page: Page, site: dict[str, Any]) -> None:
    response = page.goto(site["url"] + "/")
    assert (
        response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    )
    expect(page.get_by_role("heading", name="Create a game")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
    page.evaluate("location.hash = '#/cards'")
    expect(page.locator("#card-search")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
    page.goto(site["url"] + "/leagues/club/")
    expect(page.get_by_text("Spring").first).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
    page.goto(f"{site['url']}/#/t/{site['game']}")
    # The boards drawn from the matches' events (a board mid-attack also sets the meter's width
    # as a style property, never an inline style attribute: board.js).
    expect(page.locator(".side").first).to_be_attached(timeout=SHOWN_MS)
    no_violation(page)


def test_the_admin_runs_under_the_policy(page: Page, site: dict[str, Any]) -> None:
    page.goto(site["url"] + "/admin/login/?next=/admin/")
    no_violation(page)
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("#site-name")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
    page.goto(site["url"] + "/admin/cards/card/")
    no_violation(page)
    page.goto(site["url"] + "/admin/cards/cardset/add/")
    page.get_by_text("Add another Card").click()
    expect(page.locator("#id_cards-0-name")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)


def test_the_lockout_page_runs_under_the_policy(page: Page, site: dict[str, Any]) -> None:
    for _ in range(5):
        page.goto(site["url"] + "/admin/login/")
        page.fill("#id_username", "nobody")
        page.fill("#id_password", "wrong")
        page.click("input[type=submit]")
    locked = page.get_by_role("heading", name="Too many failed logins")
    expect(locked).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)


def test_graphiql_and_the_api_docs_run_under_the_policy(page: Page, site: dict[str, Any]) -> None:
    page.goto(site["url"] + "/graphql/")
    expect(page.locator(".graphiql-container")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
    page.goto(site["url"] + "/api/v1/docs/")
    expect(page.locator(".swagger-ui .info")).to_be_visible(timeout=SHOWN_MS)
    no_violation(page)
