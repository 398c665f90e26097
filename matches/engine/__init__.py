"""The pure rules engine of one Challengers! match. Imports only the standard library.

Public API: ``play_match(setup, seed, policies, *, record, answers)`` → ``MatchResult`` or
``PendingQuestion``; ``Match.at(setup, Position(...))`` puts a match in a given position to play
on a step at a time; ``MatchSetup``, ``CardSpec``, ``CardRef``, ``load_catalogue``,
``resolve_card``, ``Question``, ``Policy``, ``DefaultPolicy``, ``RandomPolicy``, ``InvalidAnswer``,
``InvalidSetup``, ``replay`` and ``verify``. See ``README.md`` for the decisions.
"""

from matches.engine.cards import CardRef, CardSpec, UnknownCard, load_catalogue, resolve_card
from matches.engine.match import Match, play_match
from matches.engine.model import (
    EngineError,
    InvalidAnswer,
    InvalidSetup,
    MatchResult,
    MatchSetup,
    PendingQuestion,
    Policy,
    Position,
    Question,
)
from matches.engine.policies import DefaultPolicy, RandomPolicy
from matches.engine.replay import replay, verify

__all__ = [
    "CardRef",
    "CardSpec",
    "DefaultPolicy",
    "EngineError",
    "InvalidAnswer",
    "InvalidSetup",
    "Match",
    "MatchResult",
    "MatchSetup",
    "PendingQuestion",
    "Policy",
    "Position",
    "Question",
    "RandomPolicy",
    "UnknownCard",
    "load_catalogue",
    "play_match",
    "replay",
    "resolve_card",
    "verify",
]
