"""A test-only worker module (``celery … -I tests.workers.slowdown``): matches stall mid-record.

It wraps ``matches.services.match_store`` so that the worker, inside the match's transaction
(the tournament row locked, the engine already run, nothing recorded yet), writes the match id to
the file named by ``SLOWDOWN_FLAG`` and then sleeps ``SLOWDOWN_SECONDS`` (default 60) before
recording. A test waits for the file and kills the worker: the kill lands in the middle of the
match, deterministically. ``SLOWDOWN_AT=N`` stalls at the N-th match this process records instead
of the first: inside a task playing several matches, the ones before it are recorded (in the
transaction, not committed) when the kill lands.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from matches.engine.model import MatchResult
from matches.models import Match
from tournaments.services import matchplay

_store = matchplay.match_store
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
        Path(os.environ["SLOWDOWN_FLAG"]).write_text(str(match.pk))
        time.sleep(float(os.environ.get("SLOWDOWN_SECONDS", "60")))
    return _store(match, result, now=now, pace=pace, floor=floor)


matchplay.match_store = _stalling_store
