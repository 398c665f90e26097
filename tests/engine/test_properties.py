"""Property tests over random decks from the whole catalogue (hypothesis)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from matches.engine import (
    DefaultPolicy,
    MatchResult,
    MatchSetup,
    RandomPolicy,
    load_catalogue,
    play_match,
    replay,
)
from matches.engine.match import SEATS, Match
from matches.engine.model import Policy

KEYS = sorted(load_catalogue())
PILE_KEYS = {p: [k for k in KEYS if load_catalogue()[k].level == p] for p in "ABC"}
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


class Checking(list[Any]):
    """A match's event list that checks the match after each event (``EventLog`` appends
    through ``append``; the compiled attack loop appends its ``attack`` events directly, which
    the next event's check covers)."""

    def __init__(self, match: Match, initial: set[Any]) -> None:
        super().__init__()
        self.match = match
        self.initial = initial
        self.checks = 0

    def append(self, event: Any) -> None:
        super().append(event)
        self.check()

    def areas(self) -> list[int]:
        m = self.match
        cards: list[int] = []
        for side in (0, 1):
            cards += m.deck[side] + m.exhaust[side] + m.removed[side]
            cards += m.unplaced[side] + m.bench_cards(side)
            for seat in m.frozen[side]:
                cards += seat
        return cards + m.stack + m.attack

    def check(self) -> None:
        """The match's invariants: every card in exactly one place, seats well formed."""
        self.checks += 1
        m = self.match
        cards = self.areas()
        assert len(cards) == len(set(cards)), "a card is in two places"
        assert set(cards) == set(range(len(m.spec_of))), "a card is nowhere"
        in_piles = {r[0] for p, refs in m.piles.items() for r in refs[m.taken[p] :]}
        assert {m.uid[c] for c in cards} | in_piles == self.initial
        for side in (0, 1):
            seats = [s for s in m.bench[side] if s is not None]
            assert len(seats) == SEATS - m.empty_seats(side)
            named = [s for s in seats if s[0] is not None]
            assert len({s[0] for s in named}) == len(named), "two seats share a name"
            for seat in named:
                assert seat[1], "an empty seat is kept"
                assert {m.table.seat_name[m.spec_of[c]] for c in seat[1]} == {seat[0]}
            for power in m.frozen_power[side]:
                assert power <= m.round_number


card_lists = st.lists(st.sampled_from(KEYS), max_size=18)


@st.composite
def setups(draw: st.DrawFn) -> MatchSetup:
    decks = {s: tuple((f"{s}{i}", k) for i, k in enumerate(draw(card_lists))) for s in "AB"}
    piles = {
        p: tuple(
            (f"P{p}{i}", k)
            for i, k in enumerate(draw(st.lists(st.sampled_from(PILE_KEYS[p]), max_size=4)))
        )
        for p in "ABC"
    }
    return MatchSetup(
        decks=decks,
        piles=piles,
        round=draw(st.integers(1, 7)),
        final=draw(st.booleans()),
        first=draw(st.sampled_from([None, "A", "B"])),
        park=draw(st.sampled_from(["normal", "winter"])),
        robot=draw(st.sampled_from([None, "A", "B"])),
        shuffle=draw(st.booleans()),
        trophies={"A": draw(st.integers(0, 6)), "B": draw(st.integers(0, 6))},
        fans={"A": draw(st.integers(0, 15)), "B": draw(st.integers(0, 15))},
        lost_previous={"A": draw(st.booleans()), "B": draw(st.booleans())},
    )


def run_checked(setup: MatchSetup, seed: int, policies: dict[str, Policy] | None) -> MatchResult:
    """Play a recorded match, checking its invariants after every event."""
    match = Match(setup, seed, policies, True, ())
    initial = {r[0] for d in setup.decks.values() for r in d}
    initial |= {r[0] for p in setup.piles.values() for r in p}
    events = Checking(match, initial)
    match.events = events
    assert match.log is not None
    match.log.events = events
    result = match.run()
    assert isinstance(result, MatchResult)
    assert events.checks >= len([e for e in result.events if e["kind"] != "attack"])
    return result


def policies_for(choice: int) -> dict[str, Policy] | None:
    return None if choice == 0 else {"A": RandomPolicy(choice), "B": RandomPolicy(choice + 1)}


@SETTINGS
@given(setups(), st.integers(0, 2**16), st.integers(0, 3))
def test_every_match_ends_with_every_card_in_exactly_one_place(
    setup: MatchSetup, seed: int, choice: int
) -> None:
    result = run_checked(setup, seed, policies_for(choice))
    assert result.winner in ("A", "B")
    assert result.reason != "reveal_limit"
    assert result.events[-1]["kind"] == "end"
    after = [u for s in "AB" for u in result.decks_after[s] + result.removed[s]]
    after += [u for p in "ABC" for u in result.piles_after[p]]
    before = [r[0] for d in setup.decks.values() for r in d]
    before += [r[0] for p in setup.piles.values() for r in p]
    assert sorted(after) == sorted(before)


@SETTINGS
@given(setups(), st.integers(0, 2**16), st.integers(0, 3))
def test_a_flag_changes_hands_only_when_the_attack_total_reaches_the_defence(
    setup: MatchSetup, seed: int, choice: int
) -> None:
    events = run_checked(setup, seed, policies_for(choice)).events
    last_attack: dict[str, Any] | None = None
    flags = 0
    for event in events:
        if event["kind"] == "attack":
            last_attack = event
        elif event["kind"] == "reveal" and last_attack is not None:
            if last_attack["side"] == event["side"]:
                assert last_attack["total"] < last_attack["defence"]
        elif event["kind"] == "flag":
            flags += 1
            if flags > 1:
                assert last_attack is not None
                assert last_attack["total"] >= last_attack["defence"]
                assert last_attack["side"] == event["side"]
            last_attack = None


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**16), st.integers(0, 3))
def test_the_same_seed_gives_the_same_events_and_the_events_replay(
    setup: MatchSetup, seed: int, choice: int
) -> None:
    first = play_match(setup, seed, policies_for(choice))
    again = play_match(setup, seed, policies_for(choice))
    assert isinstance(first, MatchResult) and isinstance(again, MatchResult)
    assert first.events == again.events
    assert replay(setup, first.events).events == first.events
    fast = play_match(setup, seed, policies_for(choice), record=False)
    assert isinstance(fast, MatchResult)
    assert (fast.winner, fast.reason, fast.decks_after, fast.answers) == (
        first.winner,
        first.reason,
        first.decks_after,
        first.answers,
    )


class AskedDefault(DefaultPolicy):
    """The default policy, but asked like any other: each question built and its answer checked
    (the engine answers ``DefaultPolicy`` itself without building questions)."""


@settings(max_examples=60, deadline=None)
@given(setups(), st.integers(0, 2**16), st.booleans())
def test_every_default_answer_is_a_valid_answer_to_its_question(
    setup: MatchSetup, seed: int, record: bool
) -> None:
    asked = play_match(setup, seed, {"A": AskedDefault(), "B": AskedDefault()}, record=record)
    unasked = play_match(setup, seed, record=record)
    assert isinstance(asked, MatchResult) and isinstance(unasked, MatchResult)
    assert asked.events == unasked.events
    assert (asked.answers, asked.decks_after) == (unasked.answers, unasked.decks_after)


class SeatChecking(DefaultPolicy):
    """The default policy, asked like any other, keeping the questions whose options are cards
    on a bench (the kinds whose same-named options are told apart by their seat)."""

    BENCH_KINDS = frozenset({"bench_to_exhaust", "bench_to_deck_top", "bench_remove"})

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[Any] = []

    def answer(self, question: Any) -> Any:
        if question.kind in self.BENCH_KINDS:
            self.asked.append(question)
        else:
            assert question.option_seats in ((), (None,) * len(question.options)) or all(
                seat is None or 0 <= seat < SEATS for seat in question.option_seats
            )
        return super().answer(question)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**16))
def test_a_bench_cards_question_names_the_seat_of_each_card(setup: MatchSetup, seed: int) -> None:
    policies = {"A": SeatChecking(), "B": SeatChecking()}
    result = play_match(setup, seed, policies, record=True)
    assert isinstance(result, MatchResult)
    for policy in policies.values():
        for question in policy.asked:
            assert len(question.option_seats) == len(question.options)
            seats = _bench_seats_before(result.events, question.seq)
            assert list(question.option_seats) == [seats[uid] for uid in question.options]


def _bench_seats_before(events: list[dict[str, Any]], q: int) -> dict[Any, int]:
    """Each card's bench seat as the events tell it, up to question ``q``."""
    seats: dict[Any, int] = {}
    for event in events:
        if event["kind"] == "question" and event.get("q") == q:
            break
        if event["kind"] == "benched":
            seats[event["card"]] = event["seat"]
    return seats


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setups(), st.integers(0, 2**16), st.booleans())
def test_a_live_question_comes_with_the_events_before_it_and_they_do_not_change(
    setup: MatchSetup, seed: int, a_live: bool
) -> None:
    """Every stop of a live side carries the events recorded before its question: the first
    events of the match whatever is answered, the question's own event next."""
    live = "A" if a_live else "B"
    done = play_match(setup, seed, record=True)
    assert isinstance(done, MatchResult)
    answers: list[Any] = []
    while True:
        outcome = play_match(setup, seed, {live: None}, record=True, answers=answers)
        if isinstance(outcome, MatchResult):
            assert outcome.events == done.events
            return
        before = outcome.events
        assert before == done.events[: len(before)]
        asked = done.events[len(before)]
        assert (asked["kind"], asked["side"]) == ("question", live)
        assert asked["q"] == outcome.question.seq
        answers = [*outcome.answers, list(outcome.question.default)]
