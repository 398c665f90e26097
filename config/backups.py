"""Scheduled dumps in one directory: each named by its UTC time, written whole then renamed (a
half-written dump never counts), and the old ones pruned (``manage.py backup --dir``)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

PREFIX = "challengers-"
SUFFIX = ".dump"
_STAMP = "%Y%m%dT%H%M%SZ"


def dump_path(folder: Path, now: datetime) -> Path:
    """Where the dump taken at ``now`` goes: ``challengers-20261206T071500Z.dump``."""
    return folder / f"{PREFIX}{now.astimezone(UTC).strftime(_STAMP)}{SUFFIX}"


def taken_at(path: Path) -> datetime | None:
    """The time in a dump's name, or None for a file that is not one of ours."""
    stamp = path.name.removeprefix(PREFIX).removesuffix(SUFFIX)
    if not (path.name.startswith(PREFIX) and path.name.endswith(SUFFIX)):
        return None
    try:
        return datetime.strptime(stamp, _STAMP).replace(tzinfo=UTC)
    except ValueError:
        return None


def dumps_to_prune(folder: Path, *, keep: int, keep_days: int, now: datetime) -> list[Path]:
    """Our dumps beyond the newest ``keep`` or older than ``keep_days`` days; never the newest."""
    dated = sorted(
        ((at, path) for path in folder.iterdir() if (at := taken_at(path)) is not None),
        reverse=True,
    )
    oldest = now - timedelta(days=keep_days)
    return [path for rank, (at, path) in enumerate(dated) if rank and (rank >= keep or at < oldest)]
