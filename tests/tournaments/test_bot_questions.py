"""Card questions answered by bots: the champion simulates, sees only its side's view, and every
level's answers are valid and reproduced by a re-run from the stored answers."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from matches.engine import (
    MatchResult,
    MatchSetup,
    PendingQuestion,
    load_catalogue,
    play_match,
    verify,
)
from matches.engine.model import Question, SideView
from tournaments.rules.bots import LEVELS
from tournaments.rules.bots.foresight import (
    ROLLOUTS,
    ChampionPolicy,
    Rollouts,
    best_answer,
    observe,
    peeked,
    replay_to,
    sample_setup,
)
from tournaments.rules.bots.questions import question_policy

FILLER_A = ("Castle/Dragon", "Funfair/Teddy Bear", "Starter/Dog", "Starter/Talent", "Starter/Dog")
FILLER_B = ("Starter/Newcomer", "Starter/Talent", "Starter/Newcomer", "Starter/Dog") * 3


def zeppelin_setup() -> MatchSetup:
    """A opens with a level C card (City/Champion, 4); B takes the flag with Dog and Talent, so
    the Champion goes to A's bench; then A reveals a Reporter, which looks at A's top two
    cards: a Zeppelin and a Clown."""
    a = ["City/Champion", "City/Reporter", "Mountain Top/Zeppelin", "Funfair/Clown", *FILLER_A]
    b = ["Starter/Dog", "Starter/Talent", *FILLER_B]
    return MatchSetup(
        decks={
            "A": tuple((n, key) for n, key in enumerate(a)),
            "B": tuple((100 + n, key) for n, key in enumerate(b)),
        },
        round=3,
        first="A",
        shuffle=False,
    )


Asked = tuple[Question, SideView, list[object], Rollouts]


class Recorder(ChampionPolicy):
    """A champion policy that keeps each question, the view, the answer and how it was reached
    (the candidates' wins over the samples)."""

    def __init__(self, seed: object, side: str) -> None:
        super().__init__(seed, side)
        self.asked: list[Asked] = []

    def answer_seeing(self, question: Question, view: SideView) -> Sequence[Any]:
        chosen, info = best_answer(question, view, self.seed, self.pool)
        assert chosen == list(super().answer_seeing(question, view))
        self.asked.append((question, view, chosen, info))
        return chosen


def test_the_champion_keeps_a_zeppelin_off_its_deck_top_when_a_level_c_card_is_benched() -> None:
    """The Reporter shows a Zeppelin (power 11) and a Clown (1). The default answer keeps the
    strongest card on top, but a Zeppelin revealed while a level C card sits on your bench
    loses the match at once, and A's Champion is on its bench. A player puts the Zeppelin at
    the bottom; so does the champion, and it does not lose to its own Zeppelin."""
    setup = zeppelin_setup()
    default = play_match(setup, 1, {"A": question_policy("steady", seed=1, side="A")})
    assert isinstance(default, MatchResult)
    assert default.answers[0] == [2, 3]  # the default: Zeppelin on top, the Clown at the bottom
    assert (default.winner, default.reason) == ("B", "zeppelin")

    champion = Recorder(1, "A")
    result = play_match(setup, 1, {"A": champion})
    assert isinstance(result, MatchResult)
    question, _, chosen, _ = champion.asked[0]
    assert (question.kind, question.option_keys) == (
        "arrange_top",
        ("Mountain Top/Zeppelin", "Funfair/Clown"),
    )
    assert chosen == [3, 2]
    assert result.reason != "zeppelin"


def test_the_same_view_and_seed_give_the_same_answer() -> None:
    champion = Recorder(7, "A")
    play_match(zeppelin_setup(), 7, {"A": champion})
    question, view, chosen, _ = champion.asked[0]
    again = best_answer(question, view, 7)
    assert again[0] == chosen == best_answer(question, view, 7)[0]
    assert 0 < again[1]["rollouts"] <= ROLLOUTS


@cache
def catalogue_keys() -> tuple[str, ...]:
    return tuple(k for k, s in load_catalogue().items() if s.level in ("A", "B", "C"))


def every_set() -> tuple[str, ...]:
    """The sets in play, given as a tournament gives them (public, whatever the decks hold)."""
    return tuple(sorted({s.set for s in load_catalogue().values()}))


PILE_TAKERS = (
    "Film Studio/Villain",
    "Outer Space/UFO",
    "Beach Club/Sandstorm",
    "Secret Base/Thief",
)
"""Cards that take cards from a level pile: frequent in ``random_setup``'s decks, so that the
piles' order matters to many matches."""


def random_setup(rng: random.Random) -> MatchSetup:
    """Two random round-7 decks in a fixed order (no shuffle), A opening, and level piles."""
    keys = catalogue_keys()
    specs = load_catalogue()
    drawn = keys + PILE_TAKERS * (len(keys) // 10)
    return MatchSetup(
        decks={
            "A": tuple((n, rng.choice(drawn)) for n in range(rng.randint(12, 16))),
            "B": tuple((100 + n, rng.choice(drawn)) for n in range(rng.randint(12, 16))),
        },
        piles={
            pile: tuple(
                (1000 * (i + 1) + n, rng.choice([k for k in keys if specs[k].level == pile]))
                for n in range(8)
            )
            for i, pile in enumerate("ABC")
        },
        round=7,
        first="A",
        shuffle=False,
        sets_in_play=every_set(),
    )


def first_champion_question(setup: MatchSetup, seed: int) -> Asked | None:
    champion = Recorder(seed, "A")
    play_match(setup, seed, {"A": champion})
    return champion.asked[0] if champion.asked else None


def revealed(view: SideView, side: str) -> set[Any]:
    """The cards of ``side`` its view showed (revealed, looked at, moved)."""
    shown = set()
    for event in view.seen or ():
        if event.get("side") == side and "card" in event:
            shown.add(event["card"])
        if event["kind"] == "question":
            shown |= set(event["options"])
    return shown


def hidden_variant(setup: MatchSetup, view: SideView, rng: random.Random) -> MatchSetup:
    """The same match with what A could not see changed: B's unseen cards replaced by other
    cards (so their composition and order change), A's unseen cards reordered, and the cards
    no effect took from each pile reordered."""
    shown_b, shown_a = revealed(view, "B"), revealed(view, "A")
    keys = catalogue_keys()
    b = [ref if ref[0] in shown_b else (ref[0], rng.choice(keys)) for ref in setup.decks["B"]]
    a = list(setup.decks["A"])
    unseen = [i for i, ref in enumerate(a) if ref[0] not in shown_a]
    moved = [a[i] for i in unseen]
    rng.shuffle(moved)
    for i, ref in zip(unseen, moved, strict=True):
        a[i] = ref
    piles = {}
    for pile, refs in setup.piles.items():
        taken = sum(e["kind"] == "added" and e["pile"] == pile for e in view.seen or ())
        rest = list(refs[taken:])
        rng.shuffle(rest)
        piles[pile] = (*refs[:taken], *rest)
    decks = {"A": tuple(a), "B": tuple(b)}
    return MatchSetup(
        decks=decks, piles=piles, round=7, first="A", shuffle=False, sets_in_play=every_set()
    )


def test_what_the_champion_cannot_see_never_changes_its_answer() -> None:
    """Changing the other side's unseen cards (which and in what order), the order of the
    champion's own unseen cards and of the piles' untaken cards: whenever the champion's view at
    its first question is the same, so are its answer and the wins behind it (many variants do
    change the view: a card shown earlier, say)."""
    rng = random.Random(20261130)
    compared = 0
    for round_ in range(40):
        setup = random_setup(rng)
        asked = first_champion_question(setup, round_)
        if asked is None:
            continue
        question, view, chosen, info = asked
        for _ in range(3):
            variant = first_champion_question(hidden_variant(setup, view, rng), round_)
            if variant is None or variant[1].seen != view.seen or variant[0] != question:
                continue
            assert variant[2] == chosen
            assert variant[3] == info  # the same samples kept, the same wins per candidate
            compared += 1
        if compared >= 12:
            break
    assert compared >= 12


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_validly_and_a_rerun_from_its_answers_reproduces_the_match(
    level: str,
) -> None:
    """Random shuffled matches with both sides at ``level``: a policy's invalid answer would
    raise; ``verify`` re-runs each match from its seed and stored answers, as the services do."""
    rng = random.Random(level)
    keys = catalogue_keys()
    for seed in range(12 if level == "champion" else 40):
        setup = MatchSetup(
            decks={
                side: tuple((f"{side}{n}", rng.choice(keys)) for n in range(rng.randint(12, 16)))
                for side in ("A", "B")
            },
            round=7,
        )
        policies = {side: question_policy(level, seed=seed, side=side) for side in ("A", "B")}
        result = play_match(setup, seed, policies)
        assert isinstance(result, MatchResult)
        assert verify(setup, seed, result.answers, result.events)


def test_a_peek_is_simulated_with_the_card_the_champion_is_looking_at() -> None:
    """A DJ shows the top card of its deck (a Diver the bottom one): every kept sample asks the
    same question about a card of the same key, so the rollouts weigh the real choice."""
    rng = random.Random(5)
    keys = catalogue_keys()
    drawn = keys + ("Rainbow/DJ", "Beach Club/Diver") * (len(keys) // 8)
    checked = 0
    for seed in range(60):
        setup = MatchSetup(
            decks={
                side: tuple((f"{side}{n}", rng.choice(drawn)) for n in range(14))
                for side in ("A", "B")
            },
            round=7,
        )
        champion = Recorder(seed, "A")
        play_match(setup, seed, {"A": champion})
        for question, view, _, _ in champion.asked:
            if question.kind != "peek_move":
                continue
            seen = observe(view)
            assert seen is not None
            sample_rng = random.Random(seed)
            for _ in range(5):
                sample = sample_setup(view, seen, keys, sample_rng, peeked(question, view))
                given = replay_to(sample, seen, question) if sample is not None else None
                if sample is None or given is None:
                    continue
                pending = play_match(sample, None, {"A": None}, record=False, answers=given)
                assert isinstance(pending, PendingQuestion)
                assert pending.question.option_keys == question.option_keys
                checked += 1
        if checked >= 10:
            break
    assert checked >= 10


def hacker_setup(version: int) -> MatchSetup:
    """B opens with a Hacker over two cards (rules.md's look-at Decision: version 1 exhausts
    one of them, publicly; version 2 keeps both), then A's Reporter asks A a question."""
    a = ["City/Reporter", "Castle/Dragon", "Film Studio/Cat", "Starter/Newcomer", "Castle/Pig"]
    b = ["Secret Base/Hacker", "Starter/Newcomer", "Starter/Talent"]
    return MatchSetup(
        decks={
            "A": tuple((n, key) for n, key in enumerate(a)),
            "B": tuple((100 + n, key) for n, key in enumerate(b)),
        },
        first="B",
        shuffle=False,
        rules_version=version,
    )


@pytest.mark.parametrize("version", [1, 2])
def test_the_champion_simulates_by_the_rules_version_of_its_match(version: int) -> None:
    """The samples are played by the match's rules version: their replays reproduce what the
    champion saw of B's Hacker; played by the other version they would not."""
    champion = Recorder(1, "A")
    result = play_match(hacker_setup(version), 1, {"A": champion})
    assert isinstance(result, MatchResult)
    question, view, _, info = champion.asked[0]
    assert view.setup.rules_version == version
    assert info["samples"] > 0
    seen = observe(view)
    assert seen is not None
    rng, kept = random.Random(3), 0
    for _ in range(10):
        sample = sample_setup(view, seen, [ref[1] for ref in view.own_deck], rng)
        if sample is None or replay_to(sample, seen, question) is None:
            continue
        kept += 1
        assert sample.rules_version == version
        assert replay_to(replace(sample, rules_version=3 - version), seen, question) is None
    assert kept > 0


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_answers_a_hacker_on_a_short_deck_by_its_slots(level: str) -> None:
    """A's Hacker opens over two cards: the question offers both for a top and a bottom slot
    (no exhaust slot since version 2); whatever a level answers, both stay in the deck."""
    setup = MatchSetup(
        decks={
            "A": ((1, "Secret Base/Hacker"), (2, "Castle/Pig"), (3, "Castle/Dragon")),
            "B": tuple((100 + n, key) for n, key in enumerate(FILLER_B)),
        },
        first="A",
        shuffle=False,
    )
    pending = play_match(setup, 4, {"A": None})
    assert isinstance(pending, PendingQuestion)
    question = pending.question
    assert (question.kind, question.options, question.min, question.max) == (
        "arrange_top",
        (2, 3),
        2,
        2,
    )
    assert "exhaust" not in question.prompt
    result = play_match(setup, 4, {"A": question_policy(level, seed=4, side="A")})
    assert isinstance(result, MatchResult)
    (arranged,) = [e for e in result.events if e["kind"] == "arranged"]
    assert sorted([*arranged["top"], *arranged["bottom"]]) == [2, 3]
    assert not [e for e in result.events if e["kind"] == "exhausted" and e["card"] in (2, 3)]
    assert verify(setup, 4, result.answers, result.events)
