"""A finished match's events, packed: one gzip-compressed JSON blob instead of a row each.

``match_events_archive`` moves the events of a batch of tournaments' finished matches into
``MatchEventArchive``. The caller holds the transaction. ``archived_payloads`` reads them back for
replays and verification. They look here only for matches without event rows.
"""

from __future__ import annotations

import gzip
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import orjson
from django.db import connection

from infra.bulk import append_rows
from matches.models import MatchEvent, MatchEventArchive, MatchStatus

# Level 6: within 5 % of 9's size here, at a third of its time.
LEVEL = 6

# One row a match: PostgreSQL writes the payloads' JSON list itself, so no payload is parsed
# and dumped again in Python (the path that did ran 4x slower: docs/operations.md).
MATCH_EVENTS_SQL = """
SELECT e.match_id, count(*), json_agg(e.payload ORDER BY e.seq)::text
FROM matches_matchevent e JOIN matches_match m ON m.id = e.match_id
WHERE m.tournament_id = ANY(%s) AND m.status = %s
GROUP BY e.match_id
"""


def pack(items: list[object]) -> bytes:
    return pack_json(orjson.dumps(items))


def pack_json(text: bytes) -> bytes:
    """A JSON document's text, compressed as the archives keep it."""
    return gzip.compress(text, compresslevel=LEVEL, mtime=0)


def unpack(blob: bytes | memoryview) -> list[Any]:
    loaded: list[Any] = orjson.loads(gzip.decompress(bytes(blob)))
    return loaded


def _packed_events(tournament_ids: Sequence[int]) -> dict[int, tuple[int, bytes]]:
    """``{match id: (events, blob)}`` for these tournaments' finished matches."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(MATCH_EVENTS_SQL, [list(tournament_ids), MatchStatus.FINISHED])
            return {mid: (n, pack_json(text.encode())) for mid, n, text in cursor.fetchall()}
    rows = MatchEvent.objects.filter(
        match__tournament_id__in=tournament_ids, match__status=MatchStatus.FINISHED
    )
    payloads: dict[int, list[Any]] = defaultdict(list)
    for match_id, payload in rows.order_by("match_id", "seq").values_list("match_id", "payload"):
        payloads[match_id].append(payload)
    return {mid: (len(events), pack(events)) for mid, events in payloads.items()}


def match_events_archive(*, tournament_ids: Sequence[int], now: datetime) -> int:
    """Archive these tournaments' finished matches' events.

    Returns the number of rows removed."""
    packed = _packed_events(tournament_ids)
    append_rows(
        MatchEventArchive,
        [
            {"match_id": mid, "events": blob, "count": count, "archived_at": now}
            for mid, (count, blob) in packed.items()
        ],
    )
    removed, _ = MatchEvent.objects.filter(match_id__in=list(packed)).delete()
    return removed


def archived_payloads(match_id: int) -> list[dict[str, Any]] | None:
    """The archived events of a match (``None``: not archived)."""
    blob = MatchEventArchive.objects.filter(pk=match_id).values_list("events", flat=True).first()
    return None if blob is None else unpack(blob)
