"""``Match.at``: a match put in a given position, played on a step at a time (the public way to
build a mid-match position; ``tests/engine/scene.py`` is built on it)."""

from __future__ import annotations

import pytest

from matches.engine import Match, MatchSetup, Position, Question
from tests.engine.cards import CAT, CHAMPION, DOG, DRAGON, HORSE, LION, NEWCOMER, PIG, TALENT


def setup(a: list[str], b: list[str]) -> MatchSetup:
    """Decks in this order (top first), cards ``A1``, ``A2``… and ``B1``…"""
    decks = {
        side: tuple((f"{side}{i}", k) for i, k in enumerate(keys, 1))
        for side, keys in (("A", a), ("B", b))
    }
    return MatchSetup(decks=decks, shuffle=False)


def test_a_position_lays_out_benches_exhaust_piles_and_the_flag_without_a_start() -> None:
    position = Position(
        bench={"A": [("a1", PIG), ("a2", PIG), ("a3", CAT)]},
        exhaust={"B": [("b1", DOG)]},
        flag=("B", [("b2", NEWCOMER), ("b3", TALENT)]),
    )
    match = Match.at(setup([DRAGON], [PIG]), position)
    assert match.events == []  # no start, shuffle or toss
    assert [[match.uid[c] for c in seat[1]] for seat in match.bench[0] if seat] == [
        ["a1", "a2"],
        ["a3"],
    ]
    assert [match.uid[c] for c in match.exhaust[1]] == ["b1"]
    assert [match.uid[c] for c in match.stack] == ["b2", "b3"]
    assert match.holder == 1


def test_play_attack_plays_one_attack_by_the_side_without_the_flag() -> None:
    position = Position(flag=("B", [("b1", NEWCOMER)]))
    match = Match.at(setup([DRAGON, PIG], [CAT]), position)
    assert match.play_attack() is None
    assert (match.holder, [match.uid[c] for c in match.stack]) == (0, ["A1"])
    assert [e["kind"] for e in match.events] == ["reveal", "attack", "benched", "flag"]
    assert match.play_to_end() is None
    assert match.winner >= 0


def test_play_opening_reveals_the_first_card_which_takes_the_flag() -> None:
    match = Match.at(setup([PIG, CAT], [DOG]), Position())
    assert match.play_opening("A") is None
    assert (match.holder, [match.uid[c] for c in match.stack]) == (0, ["A1"])
    flag = match.events[-1]
    assert (flag["kind"], flag["card"], flag["under"]) == ("flag", "A1", [])
    assert flag["power"] == match.power(0, match.stack[0], False) == 3  # a Pig


def test_a_step_stops_at_the_question_of_a_side_without_a_policy() -> None:
    position = Position(bench={"A": [("a1", PIG), ("a2", DRAGON)]}, flag=("B", [("b1", NEWCOMER)]))
    match = Match.at(setup(["Castle/Sorcerer"], [CAT]), position, {"A": None})
    question = match.play_attack()
    assert isinstance(question, Question)
    assert (question.side, question.kind) == ("A", "bench_to_exhaust")


def test_a_bench_no_seat_can_take_is_refused() -> None:
    full = [TALENT, DOG, CHAMPION, HORSE, LION, CAT, PIG]
    with pytest.raises(ValueError, match="No bench seat"):
        Match.at(setup([], []), Position(bench={"A": [(f"a{i}", k) for i, k in enumerate(full)]}))
