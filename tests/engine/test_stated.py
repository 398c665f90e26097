"""Events state the board's values (``events.Stated``): every flag its power, every move what it
changed; ``verify`` accepts a match stored before they did, comparing every field it stored."""

from __future__ import annotations

import copy
from typing import Any

from matches.engine import MatchResult, MatchSetup, RandomPolicy, play_match, verify
from matches.engine.events import STATED_FIELDS
from tests.engine.cards import CAT, COW, DOG, DRAGON, HORSE, NEWCOMER, PIG, TALENT
from tests.engine.test_events import played
from tests.engine.test_rules import deck

SETUP = MatchSetup(
    decks={
        "A": deck("A", "Funfair/Juggler", "Castle/Sorcerer", PIG, CAT, NEWCOMER, DRAGON),
        "B": deck("B", "Shipwreck/Sailor", "City/Reporter", TALENT, HORSE, DOG, COW),
    }
)


def recorded(seed: int = 5) -> MatchResult:
    result = play_match(SETUP, seed, {"A": RandomPolicy(seed), "B": RandomPolicy(~seed)})
    assert isinstance(result, MatchResult)
    return result


def stored_before_the_board(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``events`` as they were stored before the events stated the board: no stated fields, and
    a power on the opening flag only."""
    old, flags = [], 0
    for event in events:
        event = {k: v for k, v in event.items() if k not in STATED_FIELDS}
        if event["kind"] == "flag":
            flags += 1
            if flags > 1:
                del event["power"], event["parts"]
        old.append(event)
    return old


def test_verify_accepts_a_match_stored_before_the_events_stated_the_board() -> None:
    result = recorded()
    old = stored_before_the_board(result.events)
    assert old != result.events
    assert verify(SETUP, 5, result.answers, old)
    assert verify(SETUP, 5, result.answers, result.events)


def test_verify_still_compares_every_field_a_match_stored() -> None:
    result = recorded()
    old = stored_before_the_board(result.events)
    benched = next(i for i, e in enumerate(old) if e["kind"] == "benched")
    moved = copy.deepcopy(old)
    moved[benched]["seat"] += 1
    assert not verify(SETUP, 5, result.answers, moved)
    stated = copy.deepcopy(result.events)
    flag = next(e for e in stated[1:] if e["kind"] == "flag" and e["power"] > 0)
    flag["power"] -= 1
    assert not verify(SETUP, 5, result.answers, stated)
    unknown = copy.deepcopy(old)
    unknown[benched]["note"] = "added"
    assert not verify(SETUP, 5, result.answers, unknown)


def test_every_flag_states_its_power_and_each_attack_meets_the_defence_last_stated() -> None:
    defence: int | None = None
    attacks = 0
    for event in played(60):
        kind = event["kind"]
        if kind == "start":
            defence = None
        elif kind == "flag":
            assert max(0, sum(part[1] for part in event["parts"])) == event["power"]
            defence = event["power"]
        elif kind == "attack":
            assert event["defence"] == defence
            attacks += 1
        if "defence" in event and kind != "attack":
            defence = event["defence"]
    assert attacks > 1000
