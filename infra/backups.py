"""Scheduled dumps in one directory (``manage.py backup --dir``).

Each dump is named by its UTC time. It is written whole, then renamed, so a half-written dump
never counts. Old dumps are pruned.

Retention always keeps the newest dump. It also keeps each day's newest dump, for the last N days
that have one. Likewise each week's, for the last M weeks. Days are UTC days; weeks are ISO weeks.
This is the rule of restic's ``forget --keep-daily N --keep-weekly M``. A day or week without a
dump (the service was down) takes no place. So a long outage never deletes the last good dumps.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from datetime import UTC, datetime
from pathlib import Path

PREFIX = "challengers-"
SUFFIX = ".dump"
_STAMP = "%Y%m%dT%H%M%SZ"

Dated = list[tuple[datetime, Path]]


def dump_path(folder: Path, now: datetime) -> Path:
    """Where the dump taken at ``now`` goes: ``challengers-20261206T071500Z.dump``."""
    return folder / f"{PREFIX}{now.astimezone(UTC).strftime(_STAMP)}{SUFFIX}"


def taken_at(path: Path) -> datetime | None:
    """The time in a dump's name; None for a file not ours."""
    stamp = path.name.removeprefix(PREFIX).removesuffix(SUFFIX)
    if not (path.name.startswith(PREFIX) and path.name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(stamp, _STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def dumps_to_prune(folder: Path, *, daily: int, weekly: int) -> list[Path]:
    """Our dumps in ``folder`` that retention drops, newest first.

    See the module's rule."""
    dated = sorted(
        ((at, path) for path in folder.iterdir() if (at := taken_at(path)) is not None),
        reverse=True,
    )
    kept = {path for _, path in dated[:1]}
    kept |= _newest_of_each(dated, period=lambda at: at.date(), count=daily)
    kept |= _newest_of_each(dated, period=lambda at: at.isocalendar()[:2], count=weekly)
    return [path for _, path in dated if path not in kept]


def _newest_of_each(
    dated: Dated, *, period: Callable[[datetime], Hashable], count: int
) -> set[Path]:
    """The newest dump of each of the last ``count`` periods that have one.

    ``dated`` lists the dumps newest first."""
    newest: dict[Hashable, Path] = {}
    for at, path in dated:
        if len(newest) == count and period(at) not in newest:
            break
        newest.setdefault(period(at), path)
    return set(newest.values())
