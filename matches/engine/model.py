"""The engine's value types: match setup, questions, answers, results and errors."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, NamedTuple, Protocol

from matches.engine.cards import CardSpec

SIDES: Final = ("A", "B")
PILES: Final = ("A", "B", "C")

RULES_VERSION: Final = 2
"""The rules a new match is played by. A recorded match keeps the version it was played by, so
a later change of a Decision never changes how an older match replays:

* 1 — a look-at effect with fewer cards than it looks at fills its exhaust slot first, then
  its bottom slot, then the top (Hacker with one card: exhausted);
* 2 — it fills its slots in the order the card prints them (Hacker: bottom, top, exhaust).
"""
RULES_VERSIONS: Final = (1, 2)

Ref = tuple[Any, str]
"""A physical card: ``(uid, key)``; ``CardRef`` is one."""


class EngineError(Exception):
    """Base of the engine's typed errors: a stable ``code`` and a human message."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class InvalidSetup(EngineError):
    """The match setup is not playable (unknown card, bad round, duplicate uid…)."""


class InvalidAnswer(EngineError):
    """An answer its question does not allow.

    Codes: bad_kind, not_offered, too_many, too_few, duplicate, not_a_permutation."""


PARK_KINDS = ("normal", "winter")
"""The kinds of park a match is played in (its setup's ``park``, a match's ``kind``)."""


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """Everything one match needs besides the seed and the policies.

    ``decks`` and ``piles`` list physical cards top → bottom as ``(uid, key)`` pairs. ``round`` is
    1-7. ``final=True`` plays the Final: frozen-seat limit 7, Cyborg power 7. ``round`` is then
    ignored. ``first=None`` tosses for the flag with the match's rng. Empty ``sets_in_play`` means
    "the sets of the cards in the decks and piles". ``specs=None`` uses the project's catalogue.
    ``rules_version`` is the rules version the match is played by (``RULES_VERSIONS``). A recorded
    match replays with its own version.
    """

    decks: Mapping[str, Sequence[Ref]]
    round: int = 1
    first: str | None = None
    park: str = "normal"
    shuffle: bool = True
    piles: Mapping[str, Sequence[Ref]] = field(default_factory=dict)
    trophies: Mapping[str, int] = field(default_factory=dict)
    fans: Mapping[str, int] = field(default_factory=dict)
    lost_previous: Mapping[str, bool] = field(default_factory=dict)
    sets_in_play: Sequence[str] = ()
    robot: str | None = None
    final: bool = False
    specs: Mapping[str, CardSpec] | None = field(default=None, compare=False, repr=False)
    rules_version: int = RULES_VERSION

    @property
    def round_number(self) -> int:
        """The round number the rules use (7 in the Final)."""
        return 7 if self.final else self.round


@dataclass(frozen=True, slots=True)
class Position:
    """Cards already in play, to start a match in a given position (``Match.at``).

    It gives each side's bench and exhaust pile, and the flag. Bench cards are seated in this order,
    never frozen. Cards of one name share a seat. The flag is its holder and stack, bottom → top.
    Cards are ``(uid, key)`` refs, like the setup's. They join the sets in play."""

    bench: Mapping[str, Sequence[Ref]] = field(default_factory=dict)
    exhaust: Mapping[str, Sequence[Ref]] = field(default_factory=dict)
    flag: tuple[str, Sequence[Ref]] | None = None

    def refs(self) -> list[Ref]:
        """Every card of the position."""
        refs = [ref for side in SIDES for ref in self.bench.get(side, ())]
        refs += [ref for side in SIDES for ref in self.exhaust.get(side, ())]
        return refs + list(self.flag[1] if self.flag is not None else ())


class Question(NamedTuple):
    """A choice the engine asks one side to make.

    ``options`` are card uids. For some kinds they are seat indices or ``"top"``/``"bottom"``.
    ``option_keys`` names each: a card key, or a seat's card name. ``option_seats`` gives the bench
    seat (0-5) of each card option. ``None`` off the bench; empty for other options. So two
    same-named cards can be told apart.

    An answer is a list of options: between ``min`` and ``max`` distinct ones. For ``arrange_top``
    it is a permutation of all of them. ``default`` is the default policy's answer (see
    ``policies``).
    """

    seq: int
    side: str
    kind: str
    card: Any
    card_key: str | None
    options: tuple[Any, ...]
    min: int
    max: int
    prompt: str
    option_keys: tuple[str, ...]
    default: tuple[Any, ...]
    option_seats: tuple[int | None, ...] = ()


class Policy(Protocol):
    """Answers the questions of one side."""

    def answer(self, question: Question) -> Sequence[object]: ...


@dataclass(frozen=True, slots=True)
class SideView:
    """What one side may know when asked a question.

    It serves policies that want more than the question. Such a policy has an
    ``answer_seeing(question, view)`` method (see ``Match``).

    ``setup`` is the match's setup without its cards: no decks, no piles, ``sets_in_play`` given.
    ``own_deck`` is the side's starting cards sorted by key and uid. It gives their composition,
    never their order. ``rival_deck_size`` is the other side's public deck size.

    ``pile_keys`` is each level pile's public composition, sorted. It lists every card design of
    that level in the sets in play. It never gives the match's share of the pile, which the pile's
    hidden order decides.

    ``seen`` is every event the side may see so far (``events.seen_by``). Those are the public kinds
    and its own questions, answers and arrangements; never a shuffle. It is ``None`` when the match
    is not recorded. The fast path keeps no events.
    """

    side: str
    setup: MatchSetup
    own_deck: tuple[Ref, ...]
    rival_deck_size: int
    pile_keys: Mapping[str, tuple[str, ...]]
    seen: tuple[dict[str, Any], ...] | None


@dataclass(frozen=True, slots=True)
class PendingQuestion:
    """The match stopped at a question for a side without a policy.

    That side is a human answering live. Resume by calling ``play_match`` again with
    ``answers=[*answers, new_answer]``.

    ``events`` are the events recorded before the question (none unrecorded). They show the
    situation it is asked in. The match records these first events whatever the answer. The
    question's own event, and what follows, come with the answer.
    """

    question: Question
    answers: list[Any]
    events: list[dict[str, Any]] = field(default_factory=list)


class Places(Protocol):
    """Where a finished match left the cards (the engine's ``Match``)."""

    def decks_after(self) -> dict[str, list[Any]]: ...

    def removed_uids(self) -> dict[str, list[Any]]: ...

    def piles_taken(self) -> dict[str, int]: ...


@dataclass(slots=True, eq=False)
class MatchResult:
    """How a match ended; every list speaks physical card uids.

    The card places are computed on access from the finished match (``places``). So a simulation
    that wants only the winner does not pay for them. ``decks_after`` is each side's cards as they
    stand after the match (see rules.md). ``removed`` is the cards removed from the game.
    ``piles_taken`` is how many cards effects took from the top of each level pile. ``piles_after``
    is what is left of each pile, top → bottom. Each access builds new lists.
    """

    winner: str
    reason: str
    events: list[dict[str, Any]]
    fans_gained: dict[str, int]
    answers: list[Any]
    places: Places = field(repr=False)
    piles: Mapping[str, Sequence[Ref]] = field(default_factory=dict, repr=False)
    reveals: int = 0

    @property
    def decks_after(self) -> dict[str, list[Any]]:
        """Each side's card uids after the match.

        Exhausted cards are back, removed cards gone, cards added by effects kept."""
        return self.places.decks_after()

    @property
    def removed(self) -> dict[str, list[Any]]:
        """The card uids each side removed from the game."""
        return self.places.removed_uids()

    @property
    def piles_taken(self) -> dict[str, int]:
        """How many cards effects took from the top of each level pile."""
        return self.places.piles_taken()

    @property
    def piles_after(self) -> dict[str, list[Any]]:
        """The uids left in each level pile, top → bottom."""
        taken = self.piles_taken
        return {p: [ref[0] for ref in self.piles.get(p, ())[taken[p] :]] for p in PILES}
