"""A card's effect line names its trigger once: every card text but an on-reveal one says when
it acts (in each language, in the glossary's words), so the web client's tile prints no label in
front of it ("При выборе: При выборе получите…" was printed on 46 cards), and a keyword card's
keyword stands above the text only. The client's own function (``cardtext.js``) is run in Node."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from typing import Any

import pytest

from cards.catalogue import catalogue_read
from tests.cards.test_glossary import GLOSSARY, ROOT

LANGUAGES = ("en", "zh-hans", "ru")
# The glossary term whose expression finds each timing's trigger in a card text.
TRIGGERS = {
    "during_attack": "during_the_attack",
    "from_bench": "from_the_bench",
    "in_flag_possession": "in_flag_possession",
    "flag_loss": "flag_loss",
    "when_picked": "when_picked",
    "no_flag_win": "no_flag_win",
    "takes_flag": "gains_the_flag",
}
# The timing labels the client prints (cards.models.Timing's words, the glossary's).
LABELS = {
    "on_reveal": "on_reveal",
    "takes_flag": "takes_flag",
    "during_attack": "during_the_attack",
    "from_bench": "from_the_bench",
    "in_flag_possession": "in_flag_possession",
    "flag_loss": "flag_loss",
    "when_picked": "when_picked",
    "no_flag_win": "no_flag_win",
    "special": "special",
}
NODE_SCRIPT = """
import { effectParts } from %s;
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { cards, labels } = JSON.parse(input);
const lines = cards.map((card) => effectParts(card, (timing) => labels[timing] ?? timing));
process.stdout.write(JSON.stringify(lines));
"""


def cards_in(language: str) -> list[dict[str, Any]]:
    """Every card with an effect as the API gives it in ``language``."""
    found = []
    for card in catalogue_read()["cards"]:
        if card.get("effect"):
            text = card["effect"] if language == "en" else card["i18n"][language]["effect"]
            found.append(
                {
                    "key": f"{card['set']}/{card['name']}",
                    "timing": card["timing"],
                    "keyword": card["keyword"],
                    "effect": text,
                }
            )
    return found


def names_its_trigger(card: dict[str, Any], language: str) -> bool:
    term = GLOSSARY["terms"][TRIGGERS[card["timing"]]]
    return re.search(term["match"][language], card["effect"], re.IGNORECASE) is not None


def effect_lines(cards: list[dict[str, Any]], language: str) -> list[tuple[str | None, str]]:
    """[label, text] of each card's effect line, as the web client's ``effectParts`` makes it."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("Node.js is not installed")
    labels = {timing: GLOSSARY["terms"][term][language] for timing, term in LABELS.items()}
    module = json.dumps((ROOT / "frontend/static/frontend/cardtext.js").as_uri())
    result = subprocess.run(
        [node, "--input-type=module", "-e", NODE_SCRIPT % module],
        input=json.dumps({"cards": cards, "labels": labels}),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return [(label, text) for label, text in json.loads(result.stdout)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_but_an_on_reveal_one_names_its_trigger(language: str) -> None:
    silent = [
        card["key"]
        for card in cards_in(language)
        if card["timing"] in TRIGGERS and not names_its_trigger(card, language)
    ]
    assert silent == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_effect_line_names_the_trigger_once(language: str) -> None:
    cards = cards_in(language)
    doubled = []
    for card, (label, text) in zip(cards, effect_lines(cards, language), strict=True):
        assert text == card["effect"]
        named = card["timing"] in TRIGGERS and names_its_trigger(card, language)
        if label and (card["keyword"] or named):
            doubled.append(f"{card['key']}: {label}: {text}")
    assert doubled == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_on_reveal_effect_keeps_its_label(language: str) -> None:
    cards = [card for card in cards_in(language) if card["timing"] == "on_reveal"]
    labels = {label for label, _ in effect_lines(cards, language)}
    assert labels == {GLOSSARY["terms"]["on_reveal"][language]}
