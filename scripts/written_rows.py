"""The rows a played tournament leaves, without what differs from run to run by design.

One home for the list of volatile columns and the tables compared: ``bench_writes.py --dump``
writes these rows to a file, ``tests/tournaments/test_seeded_rows.py`` digests them and compares
the digest with the one the per-match path wrote. Two versions of the code that write the same
games give the same rows.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Ids, clock times and the commitment's random nonce differ from run to run by design.
VOLATILE = frozenset(
    {
        "id",
        "created_at",
        "updated_at",
        "visible_at",
        "finished_at",
        "result_visible_at",
        "seed_nonce",
        "commitment",
        "nonce",
    }
)

Row = dict[str, Any]


def stable(row: Row, *, drop: frozenset[str] = frozenset()) -> Row:
    """``row`` without its volatile columns, ``drop`` and its foreign keys (a payload too)."""
    kept = {
        key: value
        for key, value in row.items()
        if key not in VOLATILE and key not in drop and not key.endswith("_id")
    }
    if isinstance(kept.get("payload"), dict):
        kept["payload"] = stable(kept["payload"])
    return kept


def written_rows(
    *, drop: dict[str, frozenset[str]] | None = None, then: Callable[[Row], Row] = lambda r: r
) -> dict[str, list[Row]]:
    """Per table, every row (``stable``, then ``then``) in a stable order; ``drop``: more
    columns to leave out, by table."""
    from matches.models import Match, MatchEvent
    from tournaments.models import DraftTurn, Pile, Seat, Tournament, TournamentEvent, Trophy

    order: dict[str, tuple[Any, tuple[str, ...]]] = {
        "tournaments": (Tournament, ("seed",)),
        "seats": (Seat, ("tournament__seed", "number")),
        "turns": (DraftTurn, ("seat__tournament__seed", "seat__number", "round")),
        "piles": (Pile, ("tournament__seed", "level")),
        "trophies": (Trophy, ("tournament__seed", "round", "park")),
        "matches": (Match, ("tournament__seed", "round", "park")),
        "match_events": (
            MatchEvent,
            ("match__tournament__seed", "match__round", "match__park", "seq"),
        ),
        "log": (TournamentEvent, ("tournament__seed", "seq")),
    }
    dropped = drop or {}
    return {
        name: [
            then(stable(row, drop=dropped.get(name, frozenset())))
            for row in model.objects.order_by(*fields).values()
        ]
        for name, (model, fields) in order.items()
    }
