"""A test-only worker module (``celery … -I tests.workers.slowdown``): matches stall mid-record.

It wraps ``matches.services.match_record`` so that the worker, inside the match's transaction
(the tournament row locked, the engine already run, nothing recorded yet), writes the match id to
the file named by ``SLOWDOWN_FLAG`` and then sleeps ``SLOWDOWN_SECONDS`` (default 60) before
recording. A test waits for the file and kills the worker: the kill lands in the middle of the
match, deterministically.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from matches import services
from matches.engine.model import MatchResult
from matches.models import Match
from tournaments.models import Tournament

_record = services.match_record


def _stalling_record(tournament: Tournament, match: Match, result: MatchResult) -> None:
    Path(os.environ["SLOWDOWN_FLAG"]).write_text(str(match.pk))
    time.sleep(float(os.environ.get("SLOWDOWN_SECONDS", "60")))
    _record(tournament, match, result)


services.match_record = _stalling_record
