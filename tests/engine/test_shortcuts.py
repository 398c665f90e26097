"""The attack loop's shortcuts agree with the rules they shorten.

``Match._attack`` computes the power of a card with no bonus effect of its own inline rather than
through ``Match.power``, and ``Match._bench_beaten`` seats an ordinary card inline rather than
through ``Match.to_bench`` (a call there costs several per cent of a match, docs/performance.md).
A match whose table marks no card for a shortcut takes the rule's own path every time; both must
play the same match, event for event. (A table of its own rather than a subclass: the compiled
``Match`` takes none.)
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path
from typing import Any

from matches.engine import Match, MatchResult, RandomPolicy
from matches.engine.bench import mixed_setups, starter_setups
from matches.engine.model import MatchSetup, Policy
from matches.engine.table import Table


def without_shortcuts(match: Match) -> Match:
    """``match`` with a table of its own that marks no card for the attack loop's shortcuts."""
    table = match.table
    bare = Table(
        dict(zip(table.keys, table.specs, strict=True)), table.sets_in_play, table.round_number
    )
    nobody = [False] * len(table.keys)
    bare.no_attack_bonus = bare.no_flag_bonus = bare.ordinary_bench_card = nobody
    match.table = bare
    if match.log is not None:
        match.log.table = bare
    return match


def both(setup: MatchSetup, seed: int, random: bool) -> list[Any]:
    """The match played with the shortcuts and without (random answers: seeded by ``seed``)."""
    outcomes = []
    for shortcuts in (True, False):
        policies: dict[str, Policy] | None = None
        if random:
            policies = {"A": RandomPolicy(seed), "B": RandomPolicy(~seed)}
        match = Match(setup, seed, policies, True, ())
        result = (match if shortcuts else without_shortcuts(match)).run()
        assert isinstance(result, MatchResult)
        outcomes.append(
            (result.winner, result.reason, result.events, result.answers, result.decks_after)
        )
    return outcomes


def test_the_shortcuts_are_taken_by_most_cards() -> None:
    match = Match(mixed_setups(1, 3)[0], 0, None, False, ())
    table = match.table
    assert sum(table.no_attack_bonus) > len(table.keys) / 2
    assert sum(table.no_flag_bonus) > len(table.keys) / 2
    assert sum(table.ordinary_bench_card) > len(table.keys) / 2
    assert not any(without_shortcuts(Match(match.setup, 0, None, False, ())).table.no_attack_bonus)


def test_a_match_plays_the_same_with_and_without_the_shortcuts() -> None:
    setups = [starter_setups(1)[0]]
    for index, setup in enumerate(mixed_setups(150, 7)):
        setups.append(
            dataclasses.replace(
                setup,
                park="winter" if index % 3 == 0 else "normal",
                robot="A" if index % 7 == 0 else None,
                final=index % 5 == 0,
            )
        )
    for index, setup in enumerate(setups):
        fast, by_the_rules = both(setup, index, random=index % 2 == 1)
        assert fast == by_the_rules, index


def test_the_attack_loop_stays_at_most_120_lines() -> None:
    """The hot loop is kept whole for speed, but no longer than a reader can hold."""
    source = (Path(__file__).parents[2] / "matches" / "engine" / "match.py").read_text()
    found = [
        node.end_lineno - node.lineno + 1
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef) and node.name == "_attack" and node.end_lineno
    ]
    assert found and found[0] <= 120
