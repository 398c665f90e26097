"""docs/protocol.md §15 says every draw from the seed exactly: a test ties the text to the code.

The worked numbers of "Every draw from the seed" are recomputed line by line with the code the
server deals with (``tournaments.rules``), and every stream the code draws from is named there.
"""

from __future__ import annotations

import ast
import random
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tournaments.rules.dealing import deal
from tournaments.rules.plan import compute_plan, plan_to_data
from tournaments.rules.robot import robot_deck
from tournaments.rules.seeds import commitment, derive_seed, stream
from tournaments.rules.trophies import deal_trophies

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = ROOT / "docs" / "protocol.md"
MARKER = "<!-- fairness-worked-example -->"


def _fairness() -> str:
    text = PROTOCOL.read_text(encoding="utf-8")
    return text[text.index("## 15. Fairness") : text.index("## 16. Limits")]


def _worked_block() -> ast.Module:
    after = _fairness().split(MARKER, 1)[1]
    block = re.match(r"\s*```python\n(.*?)```", after, re.S)
    assert block is not None, "the worked example's code block follows its marker"
    return ast.parse(block.group(1))


def _words(rng: random.Random, count: int) -> list[int]:
    return [rng.getrandbits(32) for _ in range(count)]


def _shuffled(rng: random.Random, items: Iterable[Any]) -> list[Any]:
    found = list(items)
    rng.shuffle(found)
    return found


NAMES: dict[str, Any] = {
    "commitment": commitment,
    "derive_seed": derive_seed,
    "stream": stream,
    "words": _words,
    "shuffled": _shuffled,
    "deal_trophies": deal_trophies,
    "robot_deck": robot_deck,
    "deal": deal,
    "compute_plan": compute_plan,
    "plan_to_data": plan_to_data,
    "range": range,
}


def test_every_worked_number_of_the_fairness_section_is_the_codes() -> None:
    names = dict(NAMES)
    checked = 0
    for statement in _worked_block().body:
        text = ast.unparse(statement)
        if isinstance(statement, ast.Assign):
            exec(compile(ast.Module([statement], []), "protocol.md", "exec"), {}, names)
            continue
        assert isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Compare)
        left, right = ast.Expression(statement.value.left), statement.value.comparators[0]
        found = eval(compile(left, "protocol.md", "eval"), {}, names)
        assert found == ast.literal_eval(right), text
        checked += 1
    assert checked >= 10


def _stream_labels() -> set[str]:
    """The first label of every ``stream(…)`` and ``derive_seed(…)`` call in the apps."""
    labels = set()
    for path in (ROOT / "tournaments").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            if node.func.id in {"stream", "derive_seed"} and len(node.args) > 1:
                label = node.args[1]
                if isinstance(label, ast.Constant) and isinstance(label.value, str):
                    labels.add(label.value)
    return labels


def test_every_stream_the_code_draws_from_is_named_in_the_fairness_section() -> None:
    labels = _stream_labels()
    assert {"uids", "mint", "pile", "robot", "trophies", "draft", "match"} <= labels
    named = set(re.findall(r"`([a-z]+)`", _fairness()))
    assert labels - named == set()
