"""The gettext catalogues hold every message of the code, each translated, and nothing stale:
the server's (``django``) and the web client's (``djangojs``, every gettext() of its scripts)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
import pytest
from django.core.management import call_command

from infra.catalogues import LOCALE_DIR, MAKEMESSAGES_ARGS, MAKEMESSAGES_JS_ARGS

LANGUAGES = ("zh_Hans", "ru")
DOMAINS = {"django": MAKEMESSAGES_ARGS, "djangojs": MAKEMESSAGES_JS_ARGS}
CLIENT = LOCALE_DIR.parent / "frontend"


@pytest.fixture
def refreshed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> dict[tuple[str, str], polib.POFile]:
    """The catalogues as ``makemessages`` makes them from today's code (the committed files are
    put back afterwards, modification times included, so no ``.mo`` goes stale)."""
    if shutil.which("xgettext") is None:
        pytest.skip("makemessages needs GNU gettext's xgettext")
    monkeypatch.chdir(LOCALE_DIR.parent)
    saved = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, saved)
    try:
        for args in DOMAINS.values():
            call_command("makemessages", *args, verbosity=0)
        return {
            (lang, domain): polib.pofile(str(LOCALE_DIR / lang / f"LC_MESSAGES/{domain}.po"))
            for lang in LANGUAGES
            for domain in DOMAINS
        }
    finally:
        shutil.rmtree(LOCALE_DIR)
        shutil.copytree(saved, LOCALE_DIR)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_is_translated_and_none_is_stale(
    refreshed: dict[tuple[str, str], polib.POFile], lang: str, domain: str
) -> None:
    catalogue = refreshed[lang, domain]
    assert [entry.msgid for entry in catalogue.untranslated_entries()] == []
    assert [entry.msgid for entry in catalogue.fuzzy_entries()] == []
    assert [entry.msgid for entry in catalogue.obsolete_entries()] == []
    assert len(catalogue.translated_entries()) > 90


def test_every_word_of_the_client_goes_through_the_catalogue() -> None:
    """No text is put on screen as a bare English literal: each element's text, label, title,
    placeholder, confirm() or log line is a gettext()/ngettext() call (names, numbers, symbols and
    capitalised names such as API aside)."""
    literal = re.compile(
        r"""(?:\bh\("\w+", \{[^}]*\}, |"aria-label": |title: |placeholder: |confirm\(|"""
        r"""message: |\.note\(|\.say\()(["`])(.*?)\1"""
    )
    found = [
        f"{script.name}: {text}"
        for script in sorted(CLIENT.glob("static/frontend/*.js"))
        for _, text in literal.findall(_code_of(script))
        if re.search(r"\b(?!Challengers\b)[A-Za-z][a-z]{2,}", re.sub(r"\$\{.*?\}", "", text))
    ]
    assert found == []


def _code_of(script: Path) -> str:
    """A script without its comment lines."""
    lines = script.read_text("utf-8").splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith(("//", "/*", "*")))


def test_a_plural_has_every_form_of_its_language() -> None:
    """ "1 design" / "2 designs": Russian needs its few and many forms, Chinese one form."""
    forms = {"zh_Hans": 1, "ru": 4}
    for lang, count in forms.items():
        catalogue = polib.pofile(str(LOCALE_DIR / lang / "LC_MESSAGES/djangojs.po"))
        plurals = [entry for entry in catalogue if entry.msgid_plural]
        assert plurals and all(len(entry.msgstr_plural) == count for entry in plurals), lang
        assert all(all(entry.msgstr_plural.values()) for entry in plurals), lang


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_translation_keeps_the_placeholders_of_its_message(lang: str, domain: str) -> None:
    catalogue = polib.pofile(str(LOCALE_DIR / lang / f"LC_MESSAGES/{domain}.po"))
    for entry in catalogue:
        wanted = sorted(_placeholders(entry.msgid))
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for text in texts:
            assert sorted(_placeholders(text)) == wanted, (entry.msgid, text)


def _placeholders(text: str) -> list[str]:
    return re.findall(r"%\(\w+\)[sdr]", text)
