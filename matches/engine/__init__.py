"""The pure rules engine of one Challengers! match. Imports only the standard library.

Public API:

* ``play_match(setup, seed, policies, *, record, answers)`` → ``MatchResult`` or
  ``PendingQuestion``.
* ``Match.at(setup, Position(...))`` puts a match in a given position, to play on a step at a time.
* ``MatchSetup``, ``CardSpec``, ``CardRef``, ``load_catalogue``, ``resolve_card``, ``Question``,
  ``Policy``, ``DefaultPolicy``, ``RandomPolicy``, ``InvalidAnswer``, ``InvalidSetup``, ``replay``
  and ``verify``.

See ``README.md`` for the decisions.

``native`` says which engine an import gets. It gets the modules compiled by mypyc when a current
build exists (``scripts/build_engine.py``). Otherwise it gets these pure-Python ones.
"""

from matches.engine import native

_compiled = native.compiled_dir()
if _compiled is not None:  # the compiled modules come first; the rest are found here
    __path__.insert(0, str(_compiled))

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
