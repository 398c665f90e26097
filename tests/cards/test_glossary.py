"""One glossary (cards/data/glossary.json) for every translated word: the catalogue's card texts
and the server's messages use its term wherever the English text uses the English one."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

from cards.catalogue import catalogue_read
from config.catalogues import LOCALE_DIR

GLOSSARY = json.loads(
    (Path(__file__).resolve().parents[2] / "cards/data/glossary.json").read_text("utf-8")
)
LANGUAGES = ("zh-hans", "ru")
PO_DIRS = {"zh-hans": "zh_Hans", "ru": "ru"}


def checked_terms(*, cards: bool) -> Iterator[tuple[str, dict[str, str]]]:
    for group in ("terms", "sets"):
        for name, term in GLOSSARY[group].items():
            if "match" in term and (cards or not term.get("cards_only")):
                yield name, term["match"]


def card_texts(language: str) -> Iterator[tuple[str, str, str]]:
    """(card key, English effect, translated effect) of every card with an effect."""
    for card in catalogue_read()["cards"]:
        if card.get("effect"):
            translated = card.get("i18n", {}).get(language, {}).get("effect", "")
            yield f"{card['set']}/{card['name']}", card["effect"], translated


def inconsistencies(
    pairs: Iterator[tuple[str, str, str]], *, language: str, cards: bool
) -> list[str]:
    """Where an English text uses a glossary term and its translation does not."""
    found = []
    for key, english, translated in pairs:
        for name, match in checked_terms(cards=cards):
            if re.search(match["en"], english, re.IGNORECASE) and not re.search(
                match[language], translated, re.IGNORECASE
            ):
                found.append(f"{key}: {name!r} not translated as the glossary says: {translated}")
    return found


def test_every_term_has_all_three_languages() -> None:
    for group in ("terms", "sets"):
        for name, term in GLOSSARY[group].items():
            assert all(term.get(language) for language in ("en", *LANGUAGES)), name


def test_every_set_of_the_catalogue_is_in_the_glossary() -> None:
    assert {row["name"] for row in catalogue_read()["sets"]} <= set(GLOSSARY["sets"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_card_texts_use_the_glossary_terms(language: str) -> None:
    assert inconsistencies(card_texts(language), language=language, cards=True) == []


@pytest.mark.parametrize("domain", ["django", "djangojs"])
@pytest.mark.parametrize("language", LANGUAGES)
def test_messages_use_the_glossary_terms(language: str, domain: str) -> None:
    """The server's messages and the web client's words (each plural form too)."""
    catalogue = polib.pofile(str(LOCALE_DIR / PO_DIRS[language] / f"LC_MESSAGES/{domain}.po"))
    pairs = (
        (entry.msgid, re.sub(r"%\(\w+\)[sd]", "", entry.msgid), text)  # not the placeholders' names
        for entry in catalogue
        for text in (entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr])
    )
    assert inconsistencies(pairs, language=language, cards=False) == []


def test_a_wrong_term_is_caught() -> None:
    wrong: Any = iter([("x", "Move a card to your bench.", "把一张牌移到你的弃牌堆。")])
    assert inconsistencies(wrong, language="zh-hans", cards=True) != []
