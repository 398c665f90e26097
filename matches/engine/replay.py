"""Replaying a stored match: a match is its setup + chance outcomes + answers.

``replay`` re-plays from the recorded events alone. It reads the shuffle orders and the flag toss
from the events. The answers come from the ``answer`` events. So it never depends on the RNG
implementation. ``verify`` re-runs a match from its seed and answers and compares every event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from matches.engine.events import same_events
from matches.engine.match import Match, play_match
from matches.engine.model import EngineError, MatchResult, MatchSetup, PendingQuestion

_HUMANS: dict[str, None] = {"A": None, "B": None}


def chance_outcomes(events: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The shuffle orders and flag toss recorded in ``events``."""
    chance: dict[str, Any] = {"shuffle": {}, "toss": None}
    for event in events:
        if event["kind"] == "shuffle":
            chance["shuffle"][event["side"]] = list(event["order"])
        elif event["kind"] == "flag_toss":
            chance["toss"] = event["side"]
    return chance


def replay(setup: MatchSetup, events: Sequence[dict[str, Any]]) -> MatchResult:
    """Play the match again from ``events``' chance outcomes and answers.

    No RNG is involved."""
    answers = [e["answer"] for e in events if e["kind"] == "answer"]
    match = Match(setup, None, _HUMANS, True, answers, chance=chance_outcomes(events))
    outcome = match.run()
    if isinstance(outcome, PendingQuestion):
        raise EngineError("incomplete_replay", "The events end before the match does.")
    return outcome


def verify(
    setup: MatchSetup,
    seed: int | str | None,
    answers: Sequence[object],
    events: Sequence[dict[str, object]],
) -> bool:
    """Whether re-running ``setup`` reproduces ``events`` exactly.

    It runs with ``seed`` and ``answers``, and replays ``events``. Every stored field must match
    (``events.same_events``). A match stored before events stated the board's values is compared
    without them."""
    try:
        outcome = play_match(setup, seed, _HUMANS, answers=answers)
        if isinstance(outcome, PendingQuestion) or not same_events(outcome.events, events):
            return False
        return same_events(replay(setup, events).events, events)
    except EngineError:
        return False
