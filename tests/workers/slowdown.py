"""A test-only worker module (``celery … -I tests.workers.slowdown``): matches stall mid-record.

It wraps ``matches.services.match_store`` so that the worker, inside the match's transaction
(the tournament row locked, the engine already run, nothing recorded yet), writes the match id to
the file named by ``SLOWDOWN_FLAG`` and then sleeps ``SLOWDOWN_SECONDS`` (default 60) before
recording. A test waits for the file and kills the worker: the kill lands in the middle of the
match, deterministically. ``SLOWDOWN_AT=N`` stalls at the N-th match this process records instead
of the first: inside a task playing several matches, the ones before it are recorded (in the
transaction, not committed) when the kill lands; ``SLOWDOWN_AT=0`` never stalls a match.

``SLOWDOWN_CLOSE=1`` stalls the same way (the flag file says ``close``) where a round's close
begins, after its last match's release has committed: before the close's own transaction, or
inside the one the next Deck Phase's bots share with it, before anything of it is written.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from matches.engine.model import MatchResult
from matches.models import Match
from tournaments.models import Tournament
from tournaments.services import deck, matchplay

_store = matchplay.match_store
_close = matchplay.round_close
_close_with_bots = deck._round_closed
_recorded = [0]


def _stalling_store(
    match: Match,
    result: MatchResult,
    *,
    now: datetime,
    pace: float,
    floor: datetime | None = None,
) -> list[tuple[dict[str, Any], datetime]]:
    _recorded[0] += 1
    if _recorded[0] == int(os.environ.get("SLOWDOWN_AT", "1")):
        _stall(str(match.pk))
    return _store(match, result, now=now, pace=pace, floor=floor)


def _stalling_close(*, tournament_id: int, round_number: int) -> None:
    if os.environ.get("SLOWDOWN_CLOSE"):
        _stall("close")
    _close(tournament_id=tournament_id, round_number=round_number)


def _stalling_close_with_bots(tournament: Tournament, round_number: int) -> list[int]:
    if os.environ.get("SLOWDOWN_CLOSE"):
        _stall("close")
    return _close_with_bots(tournament, round_number)


def _stall(what: str) -> None:
    Path(os.environ["SLOWDOWN_FLAG"]).write_text(what)
    time.sleep(float(os.environ.get("SLOWDOWN_SECONDS", "60")))


matchplay.match_store = _stalling_store
matchplay.round_close = _stalling_close
deck._round_closed = _stalling_close_with_bots
