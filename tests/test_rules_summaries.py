"""The rules summaries in Chinese and Russian (docs/rules.zh-hans.md, docs/rules.ru.md): each
covers what a player needs at the table, in the glossary's words, and says exactly which parts of
docs/rules.md it shortens, naming sections that exist."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = json.loads((ROOT / "cards/data/glossary.json").read_text("utf-8"))["terms"]
ENGLISH = (ROOT / "docs/rules.md").read_text("utf-8")
# What a player needs at the table, by glossary term: the two phases, attack and defence around
# the flag, the bench and the exhaust pile, trophies, fans and fan tokens, the Final.
AT_THE_TABLE = [
    *("deck_phase", "match_phase", "attack", "flag", "bench", "exhaust_pile", "trophy", "fans"),
    *("fan_token", "final", "redraw", "frozen_seat", "robot", "bot"),
]
# Words the glossary has no term for, in each summary's language: whose turn it is after a flag
# change, and the heading of the list of what the summary shortens.
TURN_ORDER = {"ru": "атакует тот, кто потерял флаг", "zh-hans": "被夺走旗帜的玩家进攻"}
SHORTENED = {"ru": "## Что сокращено", "zh-hans": "## 省略的内容"}


def summary(language: str) -> str:
    return (ROOT / f"docs/rules.{language}.md").read_text("utf-8")


def english_sections() -> set[str]:
    """The numbers of docs/rules.md's sections and subsections ("4", "4.3")."""
    return set(re.findall(r"^#{2,3} (\d+(?:\.\d+)?)[. ]", ENGLISH, re.MULTILINE))


def term_words(term: str, language: str) -> str:
    entry = GLOSSARY[term]
    return str(entry.get("match", {}).get(language) or entry[language])


@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_a_summary_covers_what_a_player_needs_at_the_table(language: str) -> None:
    text = summary(language)
    missing = [
        term
        for term in AT_THE_TABLE
        if not re.search(term_words(term, language), text, re.IGNORECASE)
    ]
    assert missing == []
    assert TURN_ORDER[language] in text
    top = set(re.findall(r"^## (\d+)\. ", text, re.MULTILINE))
    assert top == {number for number in english_sections() if "." not in number}


@pytest.mark.parametrize("language", ["zh-hans", "ru"])
def test_a_summary_says_what_it_shortens_naming_real_sections(language: str) -> None:
    text = summary(language)
    assert SHORTENED[language] in text
    shortened = text.split(SHORTENED[language], 1)[1]
    named = set(re.findall(r"§(\d+(?:\.\d+)?)", shortened))
    assert len(named) >= 5 and named <= english_sections(), named - english_sections()
    assert "Every Decision at a glance" in shortened  # the table left out, by its own name
