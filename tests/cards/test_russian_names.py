# ruff: noqa: RUF001, RUF002, RUF003 (Russian text is the subject of these tests)
"""A name put into a Russian message cannot take a case ending ("у Талант", "против Робот"): every
Russian template with a card, player or set name in it puts the name where the nominative is
right — opening the sentence (its subject), after a colon or a dash, in quotes after a noun
that carries the case ("у карты «Талант»"), in parentheses, or after «игрок…» / «участник…»
("колода игрока Ann")."""

from __future__ import annotations

import re
from collections.abc import Iterator

import polib
import pytest

from infra.catalogues import LOCALE_DIR

# The placeholders that hold a name, per catalogue: the web client's (cards, players, the Robot)
# and the server's set names.
NAME_PLACEHOLDERS = {
    "djangojs": {"card", "name", "a", "b", "member", "players", "host", "names"},
    "django": {"set"},
}
# Where a name may stand (the placeholder is written as {}).
ALLOWED = (
    r"^{}",  # opening the message: its subject or a heading
    r"[.!?]\s+{}",  # opening a sentence
    r"[:—–]\s*{}",  # after a colon or a dash ("Ждём: Ann", "Ann — Робот")
    r"«{}(?=»)",  # in quotes after a noun that takes the case ("у карты «Талант»")
    r"\({}(?=[),])",  # in parentheses
    r"(?:игрок|участник)\w*\s+{}",  # after the noun it names ("колоды игрока Ann")
    r"\bпока\s+{}",  # the subject of a clause ("Ждём, пока Ann ответит")
)


def misplaced(text: str, placeholder: str) -> list[int]:
    """The offsets in ``text`` where ``placeholder`` stands where no pattern allows it."""
    token = re.escape(placeholder)
    allowed = {
        match.end() - len(placeholder)
        for pattern in ALLOWED
        for match in re.finditer(pattern.format(token), text)
    }
    return [m.start() for m in re.finditer(token, text) if m.start() not in allowed]


def templates() -> Iterator[tuple[str, str, str]]:
    """(msgid, Russian text, name placeholder) of every Russian message with a name in it."""
    for domain, names in NAME_PLACEHOLDERS.items():
        for entry in polib.pofile(str(LOCALE_DIR / f"ru/LC_MESSAGES/{domain}.po")):
            texts = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
            for name in sorted(set(re.findall(r"%\((\w+)\)s", entry.msgid)) & names):
                for text in texts:
                    yield entry.msgid, text, f"%({name})s"


def test_every_name_in_a_russian_template_stands_in_the_nominative() -> None:
    wrong = [f"{msgid!r}: {text}" for msgid, text, name in templates() if misplaced(text, name)]
    assert wrong == []


def test_the_scan_finds_the_templates() -> None:
    assert len({msgid for msgid, _, _ in templates()}) >= 40


@pytest.mark.parametrize(
    "text",
    [
        "%(name)s атакует: у %(card)s сила %(power)s",
        "%(a)s против %(b)s",
        "%(name)s получает фаната благодаря %(card)s.",
        "Взять %(card)s",
        "%(card)s уходит на скамью %(name)s.",
    ],
)
def test_a_name_that_needs_a_case_is_caught(text: str) -> None:
    assert any(misplaced(text, f"%({name})s") for name in ("card", "name", "b"))


@pytest.mark.parametrize(
    "text",
    [
        "%(name)s атакует: у карты «%(card)s» сила %(power)s",
        "%(a)s — %(b)s",
        "%(card)s уходит на скамью игрока %(name)s.",
        "%(card)s (%(name)s): %(effect)s",
        "Ждём, пока %(name)s ответит",
    ],
)
def test_a_name_in_the_nominative_passes(text: str) -> None:
    assert not any(misplaced(text, f"%({name})s") for name in ("card", "name", "a", "b"))
