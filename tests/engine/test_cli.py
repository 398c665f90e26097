"""``python -m matches.engine``: golden matches and bad input.

Set ``UPDATE_GOLDEN=1`` to rewrite the expected outputs after a deliberate rule change.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from matches.engine.cli import main

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).resolve().parents[2]
INPUTS = sorted(
    p for p in GOLDEN.iterdir() if p.suffix in (".json", ".jsonl") and ".out" not in p.name
)


def run(text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    status = main(io.StringIO(text), out, err)
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_golden_match(path: Path) -> None:
    status, out, err = run(path.read_text(encoding="utf-8"))
    assert (status, err) == (0, "")
    expected = path.with_name(path.stem + ".out.jsonl")
    if os.environ.get("UPDATE_GOLDEN"):
        expected.write_text(out, encoding="utf-8")
    want = [json.loads(line) for line in expected.read_text(encoding="utf-8").splitlines()]
    got = [json.loads(line) for line in out.splitlines()]
    assert got == want
    for result in got:
        assert set(result) == {"winner", "reason", "events", "fans_gained", "decks_after"}


def test_json_lines_give_one_result_line_per_input_line_in_order() -> None:
    status, out, _ = run((GOLDEN / "lines_with_answers.jsonl").read_text(encoding="utf-8"))
    results = [json.loads(line) for line in out.splitlines()]
    assert status == 0 and len(results) == 3
    answers = [[e["answer"] for e in r["events"] if e["kind"] == "answer"] for r in results[:2]]
    assert answers == [[[]], [["A1"]]]  # the given answer declines, the default exhausts


def test_the_module_runs_as_a_program() -> None:
    text = (GOLDEN / "starter.json").read_text(encoding="utf-8")
    proc = subprocess.run(
        [sys.executable, "-m", "matches.engine"],
        input=text,
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["winner"] in ("A", "B")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"decks": {"A": ["Nope"], "B": []}}', "Unknown card 'Nope'"),
        ('{"decks": {"A": []', "malformed JSON"),
        ('{"decks": {"A": []}}', '"decks" must be an object'),
        ('{"decks": {"A": [], "B": []}, "colour": 1}', "Unknown field(s): colour"),
        (
            '{"decks": {"A": ["Pig"], "B": ["Cat"]}, "answers": [["X"]], "first": "A",'
            ' "shuffle": false}',
            None,
        ),
        (
            '{"decks": {"A": ["Pig", "Sorcerer"], "B": ["Cat", "Dragon"]}, "first": "B",'
            ' "shuffle": false, "answers": [["nope"]]}',
            "not_offered",
        ),
        ("", "no match description"),
        ('{"decks": {"A": [], "B": []}, "rules_version": "2"}', '"rules_version" must be'),
        ('{"decks": {"A": ["Pig"], "B": ["Cat"]}, "rules_version": 9}', "bad_rules_version"),
    ],
)
def test_a_bad_input_prints_an_error_and_exits_non_zero(text: str, message: str | None) -> None:
    status, out, err = run(text)
    if message is None:  # an answer nobody asked for is simply never used
        assert status == 0
        return
    assert status == 2 and out == ""
    assert err.startswith("error: ") and message in err


def test_rules_version_picks_the_reading_a_match_is_played_by() -> None:
    # Hacker with one deck card: exhausted under version 1 (A wins), at the bottom since 2.
    status, out, _ = run((GOLDEN / "hacker_short_deck.jsonl").read_text(encoding="utf-8"))
    assert status == 0
    assert [json.loads(line)["winner"] for line in out.splitlines()] == ["A", "B", "B"]
