"""The champion's answers to card questions: each candidate answer played out by simulation.

**What the champion may see.** It sees the engine's ``SideView``, handed to a policy with an
``answer_seeing`` method. That view holds:

- the match's public setup (round, park, trophies, fans, sets in play, who opens);
- its own starting cards (their composition, never their order);
- the other side's public deck size;
- each level pile's public composition: every card design of that level in the sets in play,
  never the match's share of the pile nor its order;
- every event its side may see so far (``events.seen_by``): cards revealed, benches, exhaust
  piles, the flag, moves, removals, cards taken from piles without their key, fans, and its own
  questions, answers and arrangements.

It never sees a shuffle. It never sees the other side's unrevealed cards: neither their order nor
which cards they are. It never sees the other side's questions or answers. The match's seed is no
source of chance for it. The seed only names the champion's own random streams.

**How it decides.** The hidden information is *resampled* into a full match setup
(``sample_setup``). That setup is consistent with what the champion saw.

Following the seen events (``DeckTrack``) pins the starting position of each card that showed. A
card shows when revealed from the top. It also shows when the champion's own questions look at it. A
search or a look at the deck top lists the cards top first. A peek question being decided names the
key of the card it shows (``peeked``). A card also shows when taken out of the deck. The events may
not say from which end. Then a seeded guess places it. A wrong guess fails the check below.

The sample is built from these positions:

- its own deck: those cards at those positions, its other cards shuffled into the rest;
- the other deck: that side's seen cards at theirs, and a *modelled* remainder;
- each pile: the cards taken from it, then ``PILE_DEPTH`` cards drawn from the rest of its
  composition. The taken cards have their keys where revealed, else keys drawn from its
  composition.

The modelled remainder is the public deck size less the cards seen. It is drawn from ``pool``. By
default ``pool`` is the champion's own starting cards. Both decks grew from the same starter through
the same rounds.

The sample is replayed from the start. There is no shuffle, and the opener is as seen. The
champion's past answers are replayed up to the question. The other side gives *default* answers. Its
real answers are not the champion's to see. The sample is kept only when the champion's view of the
replay equals its view of the match (rejection, ``replay_to``).

Then each candidate answer is played to the end on every kept sample. The engine's fast path plays
it, with default answers afterwards. All candidates meet the same samples (common random numbers).
The answer winning most often is chosen if it beats the default by more than ``MARGIN`` of the
samples. Otherwise (ties, near-ties) the default answer is chosen.

**Why this rival model.** The draft's ``Rival`` model (``practice.py``) leans on the cards seen in
*released* matches. Those depend on when the match is played and re-run. A live question pauses it
while others release. The champion's own cards depend on the match alone. So a re-run answers the
same. On 400 paired test matches, an oracle did only a little better. The oracle, never used in
play, took the real rival deck as the model. It had 25 gains and 5 losses, against 21 and 6.

**Budget.** At most ``ROLLOUTS`` rollouts per question. There are ``MAX_CANDIDATES`` candidates.
They are all valid answers when that few. Else they are the default and a seeded sample. Each plays
on ``ROLLOUTS // candidates`` samples. Each kept sample takes up to ``TRIES`` sampling attempts.

With no kept sample, the champion gives the default answer. Then the past could not be reproduced.
The other side answered a question other than by default, in a way that shows. Or it reordered its
deck out of sight. A match that is not recorded (the engine's fast path) has no events to see. It
gets the default answer too.

Every random draw comes from ``random.Random(f"{seed}:champion:{side}:{question number}")``. So the
same match seed gives the same answers. A stored match is re-run from its stored answers. Given
answers are never asked again. So its record is reproduced, whatever the champion would answer now.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import NotRequired, TypedDict

from matches.engine import (
    DefaultPolicy,
    EngineError,
    Match,
    MatchResult,
    MatchSetup,
    load_catalogue,
    play_match,
)
from matches.engine.events import seen_by
from matches.engine.model import Policy, Question, Ref, SideView
from matches.engine.questions import PERMUTATION_KINDS

ROLLOUTS = 192
"""Rollouts (matches played to the end) per question, at most."""
MAX_CANDIDATES = 8
"""Candidate answers per question, the default included."""
MIN_SAMPLES = 24
"""Samples per candidate at least (so many candidates are cut before samples are)."""
TRIES = 3
"""Sampling attempts per wanted sample before giving up on it."""
MARGIN = 0.05
"""How much more often (a share of the samples) an answer must win to be preferred to the
default: the estimate is noisy, and on 1,800 paired test matches a margin of 0.03-0.06 kept the
gains and cut the losses from 8 to 3-6."""
PILE_DEPTH = 24
"""Cards of each level pile sampled below those already taken (effects take a few at most)."""


OBSERVERS: list[Callable[[float], None]] = []
"""Called with the CPU seconds of each simulated answer (the ladder's ``question_ms``)."""


class _Reached(Exception):
    """The replay reached the question being decided."""


class _Diverged(Exception):
    """The replay asked the champion a question the match did not."""


class Rollouts(TypedDict):
    """How ``best_answer`` reached its answer.

    It holds the candidates, the kept samples, the rollouts played and each candidate's wins.
    ``wins`` is absent when no rollout was played.
    """

    candidates: int
    samples: int
    rollouts: int
    wins: NotRequired[list[int]]


@dataclass(frozen=True, slots=True)
class Observation:
    """What the champion's view tells about the hidden cards (see the module docstring)."""

    side: str
    first: str
    events: tuple[dict[str, object], ...]
    taken: Mapping[str, tuple[object, ...]]
    keys: Mapping[object, str]
    answers: Mapping[int, list[object]]
    story: list[dict[str, object]]
    pile_rest: Mapping[str, tuple[str, ...]]


def observe(view: SideView) -> Observation | None:
    """Read the view's events: who opened, the cards' keys seen, the cards taken from each pile, the
    champion's own answers."""
    seen = view.seen or ()
    first = view.setup.first
    taken: dict[str, list[object]] = {}
    keys: dict[object, str] = {}
    answers: dict[int, list[object]] = {}
    for event in seen:
        kind = event["kind"]
        if kind == "flag_toss":
            first = event["side"]
        elif kind == "reveal":
            keys[event["card"]] = event["key"]
        elif kind == "added":
            taken.setdefault(event["pile"], []).append(event["card"])
        elif kind == "answer" and event["side"] == view.side:
            answers[event["q"]] = list(event["answer"])
    if first is None:
        return None
    piles = {pile: tuple(uids) for pile, uids in taken.items()}
    rest = {pile: _rest(keys_, piles.get(pile, ()), keys) for pile, keys_ in view.pile_keys.items()}
    return Observation(view.side, first, tuple(seen), piles, keys, answers, _story(seen), rest)


def _rest(
    composition: Sequence[str], taken: Sequence[object], keys: Mapping[object, str]
) -> tuple[str, ...]:
    """A pile's composition less its cards seen taken."""
    left = Counter(composition)
    for uid in taken:
        if uid in keys and left[keys[uid]] > 0:
            left[keys[uid]] -= 1
    return tuple(left.elements())


LOOKS = frozenset({"arrange_top", "search_deck"})
"""Question kinds whose options are the asked side's deck cards, top first."""


class DeckTrack:
    """One side's deck as the champion saw it change.

    Its slots are top first. Each is a starting position or a known card. A starting position is
    ``(True, n)``; its card is unknown until ``pins`` names it. A known card is ``(False, uid)``,
    put there by an effect.

    Replaying the seen events pins the starting positions of cards that showed. The events may not
    say from which end an unseen card left. Then ``rng`` guesses. A wrong guess fails the replay
    check.
    """

    def __init__(self, size: int, rng: random.Random) -> None:
        self.slots: list[tuple[bool, object]] = [(True, n) for n in range(size)]
        self.pins: dict[object, object] = {}
        self.rng = rng

    def pin(self, index: int, uid: object) -> None:
        start, value = self.slots[index]
        if start and value not in self.pins and uid not in self.pins.values():
            self.pins[value] = uid

    def holds(self, slot: tuple[bool, object], uid: object) -> bool:
        start, value = slot
        return self.pins.get(value) == uid if start else value == uid

    def take(self, uid: object) -> None:
        """``uid`` leaves the deck: from its slot if known, else from the top or the bottom."""
        for index, slot in enumerate(self.slots):
            if self.holds(slot, uid):
                del self.slots[index]
                return
        if self.slots:
            index = 0 if self.rng.random() < 0.5 else len(self.slots) - 1
            self.pin(index, uid)
            del self.slots[index]

    def see(self, event: Mapping[str, object]) -> None:
        """Follow one event of this deck's side."""
        kind = event["kind"]
        if kind == "reveal" and self.slots:
            self.pin(0, event["card"])
            del self.slots[0]
        elif kind == "question" and event["q_kind"] in LOOKS:
            for index, uid in enumerate(_uids(event["options"])[: len(self.slots)]):
                self.pin(index, uid)
        elif kind == "arranged":
            above, below = _uids(event["top"]), _uids(event["bottom"])
            for uid in [*above, *below]:
                self.take(uid)
            self.slots[:0] = [(False, uid) for uid in above]
            self.slots += [(False, uid) for uid in below]
        elif kind in ("exhausted", "benched", "removed") and event.get("src") == "deck":
            self.take(event["card"])
        elif kind in ("moved", "added") and str(event.get("to", "")).startswith("deck"):
            if event.get("src") == "deck":
                self.take(event["card"])
            top = event["to"] == "deck_top"
            slot = (False, event["card"])
            if top:
                self.slots.insert(0, slot)
            else:
                self.slots.append(slot)


def _uids(value: object) -> list[object]:
    """An event's list of cards, or of a question's options."""
    assert isinstance(value, list)
    return value


Peek = tuple[str, bool]
"""The card a ``peek_move`` question shows: its key, and whether it is the deck's bottom card."""


def pinned(
    events: Sequence[Mapping[str, object]],
    side: str,
    size: int,
    rng: random.Random,
    peek: tuple[Peek, Mapping[object, Ref]] | None = None,
) -> dict[object, object]:
    """The starting positions (top = 0) of ``side``'s deck whose card the events show.

    ``peek`` is the card being peeked at, one of the side's own. With it, the deck end it looks at
    holds a card of that key. That card is drawn among the side's unplaced cards of that key.
    """
    track = DeckTrack(size, rng)
    for event in events:
        if event.get("side") == side:
            track.see(event)
    if peek is not None and track.slots:
        (key, bottom), own = peek
        start, position = track.slots[-1 if bottom else 0]
        placed = set(track.pins.values())
        fitting = [uid for uid, ref in own.items() if ref[1] == key and uid not in placed]
        if start and position not in track.pins and fitting:
            track.pins[position] = rng.choice(fitting)
    return track.pins


def peeked(question: Question, view: SideView) -> Peek | None:
    """The card a ``peek_move`` question looks at (its key is the question's option key)."""
    if question.kind != "peek_move" or not question.option_keys or question.card_key is None:
        return None
    specs = view.setup.specs if view.setup.specs is not None else load_catalogue()
    spec = specs.get(question.card_key)
    bottom = spec is not None and (spec.effect_params or {}).get("end") == "bottom"
    return question.option_keys[0], bottom


def _fresh_uids(known: set[object]) -> Iterator[int]:
    """Uids for modelled cards: negative ints, which no real card uses."""
    uid = -1
    while True:
        if uid not in known:
            yield uid
        uid -= 1


def sample_setup(
    view: SideView,
    seen: Observation,
    pool: Sequence[str],
    rng: random.Random,
    peek: Peek | None = None,
) -> MatchSetup | None:
    """One full setup consistent with the cards seen (see the module docstring).

    ``peek`` is the card shown by the question being decided (``peeked``).
    """
    me, other = seen.side, "B" if seen.side == "A" else "A"
    own = {ref[0]: ref for ref in view.own_deck}
    pins = pinned(seen.events, me, len(own), rng, (peek, own) if peek else None)
    if any(uid not in own for uid in pins.values()):
        return None
    rest = [ref for uid, ref in own.items() if uid not in set(pins.values())]
    rng.shuffle(rest)
    mine = [own[pins[n]] if n in pins else rest.pop() for n in range(len(own))]
    theirs_pins = pinned(seen.events, other, view.rival_deck_size, rng)
    if not pool or any(uid in own for uid in theirs_pins.values()):
        return None
    known = set(own) | set(seen.keys) | {uid for uids in seen.taken.values() for uid in uids}
    known |= set(theirs_pins.values())
    fresh = _fresh_uids(known)
    theirs: list[Ref] = []
    for n in range(view.rival_deck_size):
        uid = theirs_pins.get(n)
        if uid is None:
            theirs.append((next(fresh), rng.choice(pool)))
        else:
            theirs.append((uid, seen.keys.get(uid) or rng.choice(pool)))
    piles = {pile: _sample_pile(seen, pile, fresh, rng) for pile in view.pile_keys}
    decks = {me: tuple(mine), other: tuple(theirs)}
    return replace(view.setup, decks=decks, first=seen.first, shuffle=False, piles=piles)


def _sample_pile(
    seen: Observation, pile: str, fresh: Iterator[int], rng: random.Random
) -> tuple[Ref, ...]:
    """A level pile: the cards taken from it, then ``PILE_DEPTH`` cards drawn from the rest.

    The rest is its composition less the cards seen taken. Taken cards have their keys where seen,
    else keys drawn from the rest. A match never takes more.
    """
    taken = seen.taken.get(pile, ())
    rest = seen.pile_rest.get(pile, ())
    unknown = sum(uid not in seen.keys for uid in taken)
    drawn = rng.sample(rest, min(len(rest), PILE_DEPTH + unknown))
    refs: list[Ref] = []
    for uid in taken:
        key = seen.keys.get(uid)
        if key is not None:
            refs.append((uid, key))
        elif drawn:
            refs.append((uid, drawn.pop()))
    return tuple(refs + [(next(fresh), key) for key in drawn[:PILE_DEPTH]])


class _Script:
    """The champion's past answers in a replay; stops it at the question being decided."""

    def __init__(self, answers: Mapping[int, list[object]], stop: int) -> None:
        self.answers, self.stop = answers, stop

    def answer(self, question: Question) -> Sequence[object]:
        if question.seq >= self.stop:
            raise _Reached
        if question.seq not in self.answers:
            raise _Diverged
        return self.answers[question.seq]


def replay_to(setup: MatchSetup, seen: Observation, question: Question) -> list[object] | None:
    """The answers given before ``question`` in a replay of ``setup``.

    ``None`` unless the champion's view of the replay equals its view of the match.
    """
    me, other = seen.side, "B" if seen.side == "A" else "A"
    policies: dict[str, Policy | None] = {
        me: _Script(seen.answers, question.seq),
        other: DefaultPolicy(),
    }
    match = Match(setup, None, policies, True, ())
    try:
        match.run()
    except _Reached:
        if _story(seen_by(match.events, me)) == seen.story:
            return list(match.answers)
        return None
    except (_Diverged, EngineError):
        return None
    return None  # the match ended before the question


def _story(events: Sequence[dict[str, object]]) -> list[dict[str, object]]:
    """The events compared between a replay and the match.

    Their ``seq`` is left out, as it counts the hidden shuffles too. The start and toss are left
    out: a replay opens as seen.
    """
    return [
        {k: v for k, v in event.items() if k != "seq"}
        for event in events
        if event["kind"] not in ("start", "flag_toss")
    ]


def candidates(question: Question, rng: random.Random) -> list[list[object]]:
    """The default answer first, then other valid answers.

    There are ``MAX_CANDIDATES`` in all. When there are few, all the others follow. Else a seeded
    sample of them follows.
    """
    default = list(question.default)
    options = list(question.options)
    ordered = question.kind in PERMUTATION_KINDS
    chosen: list[list[object]] = [default]
    seen = {_norm(default, ordered)}
    for answer in _answers(question, options, ordered, rng):
        if len(chosen) >= MAX_CANDIDATES:
            break
        if _norm(answer, ordered) not in seen:
            seen.add(_norm(answer, ordered))
            chosen.append(answer)
    return chosen


def _norm(answer: Sequence[object], ordered: bool) -> tuple[object, ...] | frozenset[object]:
    return tuple(answer) if ordered else frozenset(answer)


def _answers(
    question: Question, options: list[object], ordered: bool, rng: random.Random
) -> Iterator[list[object]]:
    """Every valid answer if at most ``MAX_CANDIDATES``, else random ones."""
    if ordered:
        total = math.factorial(len(options))
    else:
        top = min(question.max, len(options))
        total = sum(math.comb(len(options), n) for n in range(question.min, top + 1))
    if total <= MAX_CANDIDATES:
        if ordered:
            yield from (list(p) for p in itertools.permutations(options))
        else:
            for n in range(question.min, min(question.max, len(options)) + 1):
                yield from (list(c) for c in itertools.combinations(options, n))
        return
    for _ in range(MAX_CANDIDATES * 4):
        if ordered:
            yield rng.sample(options, len(options))
        else:
            n = rng.randint(question.min, min(question.max, len(options)))
            picked = set(rng.sample(options, n))
            yield [o for o in options if o in picked]


def best_answer(
    question: Question, view: SideView, seed: object, pool: Sequence[str] | None = None
) -> tuple[list[object], Rollouts]:
    """The answer winning most over the rollouts, and how it was reached."""
    rng = random.Random(f"{seed}:champion:{view.side}:{question.seq}")
    default = list(question.default)
    seen = observe(view) if view.seen is not None else None
    options = candidates(question, rng)
    if seen is None or len(options) < 2:
        return default, Rollouts(candidates=len(options), samples=0, rollouts=0)
    wanted = max(ROLLOUTS // len(options), 1)
    if wanted < MIN_SAMPLES:
        options = options[: max(ROLLOUTS // MIN_SAMPLES, 2)]
        wanted = ROLLOUTS // len(options)
    deck_pool = list(pool) if pool else [ref[1] for ref in view.own_deck]
    peek = peeked(question, view)
    wins = [0] * len(options)
    samples = rollouts = 0
    for _ in range(wanted * TRIES):
        if samples >= wanted:
            break
        setup = sample_setup(view, seen, deck_pool, rng, peek)
        given = replay_to(setup, seen, question) if setup is not None else None
        if setup is None or given is None:
            continue
        samples += 1
        for index, answer in enumerate(options):
            rollouts += 1
            wins[index] += _wins(setup, [*given, answer], view.side)
    best = max(range(len(options)), key=lambda i: (wins[i], i == 0))
    if wins[best] <= wins[0] + MARGIN * samples:
        best = 0
    info = Rollouts(candidates=len(options), samples=samples, rollouts=rollouts, wins=wins)
    return (options[best] if samples else default), info


def _wins(setup: MatchSetup, answers: list[object], side: str) -> int:
    """1 when ``side`` wins the match played out with ``answers`` then default answers."""
    try:
        result = play_match(setup, None, None, record=False, answers=answers)
    except EngineError:
        return 0
    return int(isinstance(result, MatchResult) and result.winner == side)


class ChampionPolicy:
    """Answers by simulation (``best_answer``) when the engine hands it its side's view."""

    def __init__(self, seed: object, side: str, pool: Sequence[str] | None = None) -> None:
        self.seed, self.side, self.pool = seed, side, pool

    def answer(self, question: Question) -> Sequence[object]:
        """The default answer, when the engine gives no view."""
        return list(question.default)

    def answer_seeing(self, question: Question, view: SideView) -> Sequence[object]:
        started = time.process_time()
        chosen = best_answer(question, view, self.seed, self.pool)[0]
        for observer in OBSERVERS:
            observer(time.process_time() - started)
        return chosen
