"""A curator in Chromium on the admin's "Add card set" page: a card row that breaks the rules
(a C card with power 30,000 in a base-box additional set) is refused with its message, and
nothing is saved. The screenshot of the refusal is kept in ``test-artifacts/screenshots/``."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from tests.live_server import ROOT, live_server, server_environment

PASSWORD = "curator-password-1"

FIGURES = """
from cards.models import Card
from tournaments.rules.cardstats import Counts, tally_rows
from tournaments.services.cardstats import card_stats_write
tally = {
    (f"{card.card_set.name}/{card.name}", "champion"): Counts(
        offered=1000, picked=333, decks=1234, deck_wins=617
    )
    for card in Card.objects.select_related("card_set")
}
card_stats_write(tally_rows(tally, "Castle+City"))
"""


@pytest.fixture(scope="module")
def curated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A live server with the catalogue, an ``admin`` user (``ensure_admin``) and figures from
    stored play for every card (``FIGURES``: 1,234 decks each, the widest the list shows)."""
    folder = tmp_path_factory.mktemp("curated")
    with live_server(folder, pace_ms=5) as url:
        env = server_environment(folder / "live.sqlite3", 5) | {"ADMIN_PASSWORD": PASSWORD}
        command = [sys.executable, str(ROOT / "manage.py"), "ensure_admin"]
        subprocess.run(command, cwd=ROOT, env=env, check=True, capture_output=True)
        figures = [sys.executable, str(ROOT / "manage.py"), "shell", "-c", FIGURES]
        subprocess.run(figures, cwd=ROOT, env=env, check=True, capture_output=True)
        yield url


def test_the_add_set_page_refuses_a_card_row_over_its_power_cap(
    browser: Browser, curated: str, artifacts: Path
) -> None:
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(f"{curated}/admin/login/?next=/admin/cards/cardset/add/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.fill("#id_name", "Exploit")
    page.select_option("#id_box", "base")
    page.select_option("#id_kind", "additional")
    page.fill("#id_expected_copies", "40")
    page.get_by_text("Add another Card").click()
    page.fill("#id_cards-0-name", "Titan")
    page.select_option("#id_cards-0-level", "C")
    page.fill("#id_cards-0-power", "30000")
    page.fill("#id_cards-0-copies", "1")
    page.click("input[name=_save]")
    expect(page.get_by_text("at most 10")).to_be_visible()
    page.screenshot(path=str(artifacts / "admin-add-set-refuses-titan.png"), full_page=True)
    page.goto(f"{curated}/admin/cards/cardset/?q=Exploit")
    expect(page.get_by_text("0 card sets")).to_be_visible()
    page.close()


def test_the_card_list_shows_its_figures_at_1400_px(
    browser: Browser, curated: str, artifacts: Path
) -> None:
    """Every column, the win rate with its interval and sample included, inside a 1400 px
    window beside the admin's sidebar and filters (the figures were cut off to the right)."""
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.goto(f"{curated}/admin/login/?next=/admin/cards/card/")
    page.fill("#id_username", "admin")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    expect(page.locator("td.field-win_rate").first).to_contain_text("decks")
    overflow = page.evaluate(
        "() => { const list = document.querySelector('#changelist-form .results');"
        " return list.scrollWidth - list.clientWidth; }"
    )
    page.screenshot(path=str(artifacts / "admin-card-list-1400.png"))
    assert overflow <= 0, f"the list is {overflow} px wider than its box"
    page.close()
