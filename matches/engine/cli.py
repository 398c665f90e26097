"""``python -m matches.engine``: JSON match descriptions on stdin → JSON results on stdout.

Input: one JSON object, or several as JSON lines (one match per line)::

    {"round": 3, "first": "A", "park": "normal", "decks": {"A": [...], "B": [...]},
     "shuffle": false, "seed": 7, "piles": {"A": [...], "B": [...], "C": [...]},
     "trophies": {"A": 0, "B": 1}, "fans": {"A": 0, "B": 0},
     "lost_previous": {"A": false, "B": false}, "sets_in_play": [...], "answers": [...],
     "final": false, "robot": null, "rules_version": 2}

Only ``decks`` is required. The defaults are round 1, a flag toss, the normal park, shuffled, seed
0. There are no piles, trophies, fans or previous loss. The sets come from the cards. The rules are
today's (``model.RULES_VERSION``). An older version plays a match recorded before a rule changed.

Cards are catalogue names, or ``"Set/Name"`` where a name is ambiguous. A bare ambiguous name means
the base Starter card. Deck cards get uids ``A1``, ``A2``… / ``B1``…; pile cards get ``PA1``….
``answers`` refer to those uids, consumed in order. Unanswered questions get the default policy's
answer.

Output, one line per input: ``{"winner", "reason", "events", "fans_gained", "decks_after"}``.
``decks_after`` lists card names as given in the input. A bad input prints ``error: …`` on stderr
and exits with status 2.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import TextIO, TypeVar

from matches.engine.cards import UnknownCard, resolve_card
from matches.engine.match import play_match
from matches.engine.model import (
    PILES,
    RULES_VERSION,
    SIDES,
    EngineError,
    MatchResult,
    MatchSetup,
)

KNOWN_KEYS = frozenset(
    {
        "round",
        "first",
        "park",
        "decks",
        "shuffle",
        "seed",
        "piles",
        "trophies",
        "fans",
        "lost_previous",
        "sets_in_play",
        "answers",
        "final",
        "robot",
        "rules_version",
    }
)


class CliError(Exception):
    """A bad match description."""


def _names(value: object, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise CliError(f"{what} must be a list of card names.")
    return value


def _refs(names: list[str], prefix: str, labels: dict[str, str]) -> tuple[tuple[str, str], ...]:
    refs = []
    for i, name in enumerate(names, 1):
        try:
            key = resolve_card(name).key
        except UnknownCard as exc:
            raise CliError(str(exc)) from None
        uid = f"{prefix}{i}"
        labels[uid] = name
        refs.append((uid, key))
    return tuple(refs)


T = TypeVar("T")


def _per_side(doc: Mapping[str, object], key: str, kind: type[T]) -> dict[str, T]:
    value = doc.get(key, {})
    if not isinstance(value, dict) or any(s not in SIDES for s in value):
        raise CliError(f"{key} must be an object with keys A and/or B.")
    if not all(isinstance(v, kind) for v in value.values()):
        raise CliError(f"{key} values must be {kind.__name__}.")
    return value


def setup_from_json(
    doc: object,
) -> tuple[MatchSetup, int | str | None, list[object], dict[str, str]]:
    """One match description's setup, seed, answers and uid → input name map."""
    if not isinstance(doc, dict):
        raise CliError("A match description must be a JSON object.")
    unknown = set(doc) - KNOWN_KEYS
    if unknown:
        raise CliError(f"Unknown field(s): {', '.join(sorted(unknown))}.")
    decks = doc.get("decks")
    if not isinstance(decks, dict) or set(decks) != set(SIDES):
        raise CliError('"decks" must be an object with the keys "A" and "B".')
    labels: dict[str, str] = {}
    deck_refs = {s: _refs(_names(decks[s], f"decks.{s}"), s, labels) for s in SIDES}
    piles = doc.get("piles", {})
    if not isinstance(piles, dict) or any(p not in PILES for p in piles):
        raise CliError('"piles" must be an object with keys among "A", "B", "C".')
    pile_refs = {p: _refs(_names(v, f"piles.{p}"), f"P{p}", labels) for p, v in piles.items()}
    answers = doc.get("answers", [])
    if not isinstance(answers, list):
        raise CliError('"answers" must be a list.')
    rules_version = doc.get("rules_version", RULES_VERSION)
    if type(rules_version) is not int:
        raise CliError('"rules_version" must be a whole number.')
    setup = MatchSetup(
        decks=deck_refs,
        round=int(doc.get("round", 1)),
        first=doc.get("first"),
        park=str(doc.get("park", "normal")),
        shuffle=bool(doc.get("shuffle", True)),
        piles=pile_refs,
        trophies=_per_side(doc, "trophies", int),
        fans=_per_side(doc, "fans", int),
        lost_previous=_per_side(doc, "lost_previous", bool),
        sets_in_play=tuple(_names(doc.get("sets_in_play", []), "sets_in_play")),
        robot=doc.get("robot"),
        final=bool(doc.get("final", False)),
        rules_version=rules_version,
    )
    if setup.park not in ("normal", "winter"):
        raise CliError('"park" must be "normal" or "winter".')
    return setup, doc.get("seed", 0), answers, labels


def run_one(doc: object) -> dict[str, object]:
    """The JSON result of one match description."""
    setup, seed, answers, labels = setup_from_json(doc)
    try:
        outcome = play_match(setup, seed, answers=answers)
    except EngineError as exc:
        raise CliError(f"{exc.code}: {exc.message}") from None
    assert isinstance(outcome, MatchResult)
    return {
        "winner": outcome.winner,
        "reason": outcome.reason,
        "events": outcome.events,
        "fans_gained": outcome.fans_gained,
        "decks_after": {s: [labels[u] for u in uids] for s, uids in outcome.decks_after.items()},
    }


def documents(text: str) -> Iterable[tuple[int, object]]:
    """One JSON document, or JSON lines.

    Yields (line number, parsed document); a bad line raises CliError."""
    try:
        yield 1, json.loads(text)
        return
    except json.JSONDecodeError:
        pass
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield n, json.loads(line)
            except json.JSONDecodeError as exc:
                raise CliError(f"line {n}: malformed JSON: {exc.msg}") from None


def main(
    stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout, stderr: TextIO = sys.stderr
) -> int:
    """Run every match on ``stdin``; returns the exit status."""
    text = stdin.read()
    if not text.strip():
        print("error: no match description on stdin", file=stderr)
        return 2
    try:
        for n, doc in documents(text):
            try:
                result = run_one(doc)
            except CliError as exc:
                raise CliError(f"line {n}: {exc}") from None
            stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    except CliError as exc:
        print(f"error: {exc}", file=stderr)
        return 2
    return 0
