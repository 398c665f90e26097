"""The gettext catalogues hold every message of the code, each translated, and nothing stale."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

from config.catalogues import LOCALE_DIR, MAKEMESSAGES_ARGS

LANGUAGES = ("zh_Hans", "ru")


@pytest.fixture
def refreshed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, polib.POFile]:
    """The catalogues as ``makemessages`` makes them from today's code (the committed files are
    put back afterwards, modification times included, so no ``.mo`` goes stale)."""
    if shutil.which("xgettext") is None:
        pytest.skip("makemessages needs GNU gettext's xgettext")
    monkeypatch.chdir(LOCALE_DIR.parent)
    saved = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, saved)
    try:
        call_command("makemessages", *MAKEMESSAGES_ARGS, verbosity=0)
        return {
            lang: polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES/django.po"))
            for lang in LANGUAGES
        }
    finally:
        shutil.rmtree(LOCALE_DIR)
        shutil.copytree(saved, LOCALE_DIR)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_stale(
    refreshed: dict[str, polib.POFile], lang: str
) -> None:
    catalogue = refreshed[lang]
    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []
    assert [entry.msgid for entry in catalogue.obsolete_entries()] == []
    assert len(catalogue.translated_entries()) > 90


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_message(lang: str) -> None:
    catalogue = polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES/django.po"))
    for entry in catalogue:
        wanted = sorted(_placeholders(entry.msgid))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            assert sorted(_placeholders(text)) == wanted, (entry.msgid, text)


def _placeholders(text: str) -> list[str]:
    return re.findall(r"%\(\w+\)[sdr]", text)
