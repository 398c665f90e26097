"""One glossary (cards/data/glossary.json) for every translated word: the catalogue's card texts
and the server's messages use its term wherever the English text uses the English one, no
translated text uses a word the glossary forbids (a second word for one of its concepts), and the
keyword labels are the glossary's words everywhere."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polib
import pytest

from cards.catalogue import catalogue_read
from infra.catalogues import LOCALE_DIR

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = json.loads((ROOT / "cards/data/glossary.json").read_text("utf-8"))
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
        if effect := card["effect"]:
            translated = card.get("i18n", {}).get(language, {}).get("effect", "")
            yield f"{card['set']}/{card['name']}", effect, translated


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


def po_texts(language: str) -> Iterator[tuple[str, str]]:
    """(where, translation) of every message of the server and of the web client."""
    for domain in ("django", "djangojs"):
        catalogue = polib.pofile(str(LOCALE_DIR / PO_DIRS[language] / f"LC_MESSAGES/{domain}.po"))
        for entry in catalogue:
            plural = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for text in plural:
                yield f"{domain}.po {entry.msgid!r}", text


def translated_texts(language: str) -> Iterator[tuple[str, str]]:
    """(where, text) of everything translated into ``language``: the messages, the card names
    and texts, and the translated rules and protocol pages (line by line)."""
    yield from po_texts(language)
    for card in catalogue_read()["cards"]:
        for field, text in card.get("i18n", {}).get(language, {}).items():
            yield f"card {card['set']}/{card['name']} {field}", text
    for page in ("rules", "protocol"):
        path = ROOT / f"docs/{page}.{language}.md"
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            yield f"{path.name}:{number}", line


def forbidden_patterns(language: str) -> Iterator[tuple[str, str]]:
    """(concept, pattern) of every word the glossary forbids in ``language``."""
    groups = [*GLOSSARY["terms"].items(), ("keyword labels", GLOSSARY["keyword_labels"])]
    for name, entry in groups:
        for pattern in entry.get("forbidden", {}).get(language, []):
            yield name, pattern


def forbidden_uses(texts: Iterator[tuple[str, str]], *, language: str) -> list[str]:
    """Where a text uses another word than the glossary's for one of its concepts."""
    patterns = list(forbidden_patterns(language))
    found = []
    for where, text in texts:
        for name, pattern in patterns:
            if match := re.search(pattern, text):
                found.append(f"{where}: {match.group()!r} is not the word for {name}: {text}")
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_translated_text_uses_a_second_word_for_a_concept(language: str) -> None:
    assert forbidden_uses(translated_texts(language), language=language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_scan_reads_every_kind_of_text(language: str) -> None:
    kinds = {where.split(" ")[0].split(":")[0] for where, _ in translated_texts(language)}
    assert kinds == {
        "django.po",
        "djangojs.po",
        "card",
        f"rules.{language}.md",
        f"protocol.{language}.md",
    }


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("zh-hans", "选择替补区的一格。"),  # bench seat: 卡位
        ("zh-hans", "第 2 个冰冻格"),  # frozen seat: 冰封卡位
        ("zh-hans", "基础牌组为城市或彩虹。"),  # set: 系列 (牌组 is a deck)
        ("zh-hans", "加入机器人玩家"),  # bot: 电脑玩家 (机器人 is the Robot)
        ("zh-hans", "选中时获得 1 个粉丝。"),  # keyword label: 获取时触发
        ("ru", "ледяное место 2"),  # frozen seat: замёрзшее место
        ("ru", "Потеряв флаг, найдите карту."),
        ("ru", "две другие сбросьте"),  # the pile's discard: раздевалка
    ],
)
def test_a_second_word_is_caught(language: str, text: str) -> None:
    assert forbidden_uses(iter([("x", text)]), language=language) != []


def test_the_glossary_words_themselves_are_allowed() -> None:
    for language in LANGUAGES:
        words = [(name, term[language]) for name, term in GLOSSARY["terms"].items()]
        assert forbidden_uses(iter(words), language=language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_keyword_labels_are_the_glossarys_words(language: str) -> None:
    """Each timing's label (the model's choices, the web client's words) in every catalogue."""
    from cards.models import Timing

    labels = {str(label): key for key, label in Timing.choices}
    wanted = {
        GLOSSARY["terms"][name]["en"]: GLOSSARY["terms"][name][language]
        for name in GLOSSARY["keyword_labels"]["terms"]
    }
    assert set(wanted) <= set(labels)
    for domain in ("django", "djangojs"):
        catalogue = polib.pofile(str(LOCALE_DIR / PO_DIRS[language] / f"LC_MESSAGES/{domain}.po"))
        found = {entry.msgid: entry.msgstr for entry in catalogue if entry.msgid in wanted}
        assert found == {english: wanted[english] for english in found}, domain
