"""Card statistics kept current from play.

Each recorded match (or batch of them) and each finished Deck Phase appends its counts. It does
so in its own transaction, as a row of its own (``card_stats_append``). So concurrent recordings
never wait for each other. A task queued on commit folds them into the stored rows
(``card_stats_fold``). One such task is queued at a time (``FOLD_QUEUED``). It folds many
recordings in one statement. The rows to add go as one JSON parameter. The database sums them
(``GROUP BY``) and adds them to the stored rows (``INSERT … SELECT … ON CONFLICT DO UPDATE``).
SQLite and PostgreSQL do it alike. Each row adds to the four pre-summed rows reads serve
(``tournaments.models.CardStat``).

``card_stats_recount`` rebuilds every row from the stored matches and Deck Phases. It must find
the same figures.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

from django.core.cache import cache as shared_cache
from django.db import connection, transaction
from django.utils import timezone

from infra import rows
from infra.taskqueue import enqueue_named
from matches.engine.model import MatchResult
from matches.models import Match, MatchEvent, MatchStatus
from tournaments.models import (
    CardStat,
    CardStatDelta,
    DraftTurn,
    Player,
    Seat,
    SeatKind,
    Tournament,
)
from tournaments.rules import cardstats
from tournaments.rules.cardstats import ALL, COUNTERS, Row, Tally
from tournaments.rules.draft import DraftTurn as Turn
from tournaments.rules.draft import turn_from_data
from tournaments.selectors.cards import card_facts, current_keys, sets_in_play

KEYS = ("key", "set_name", "sets", "player")
CHUNK = 20_000  # rows per statement in a recount
FOLD_BATCH = 500  # deltas (recordings) folded per transaction
# The rows to add, read from the one JSON parameter (an array of arrays) by each database.
SOURCE = {"postgresql": "jsonb_array_elements(%s::jsonb)", "sqlite": "json_each(%s)"}
FOLD_QUEUED = "cardstats:fold-queued"
"""A cache key held while a fold task is queued and has not started (``card_stats_append``)."""
FOLD_QUEUED_SECONDS = 60
"""How long the key outlives a fold task the broker lost (the reconciler folds meanwhile)."""
_FOLD_OWED: ContextVar[list[bool] | None] = ContextVar("fold_owed", default=None)
"""Inside ``one_fold``: whether a recording committed there owes a fold (else ``None``); a list
the callbacks fill, so that one run in a copy of the context still reaches the block's."""


def player_of(seat: Seat) -> str:
    """A seat's kind of player: a person, a bot by its strength, or the Robot.

    A dropped seat's stand-in is steady.
    """
    if seat.kind == SeatKind.ROBOT:
        return Player.ROBOT
    if seat.kind == SeatKind.HUMAN:
        return Player.STEADY if seat.dropped else Player.HUMAN
    return seat.bot_level or Player.ROOKIE


def card_stats_of_matches(
    tournament: Tournament, recorded: Iterable[tuple[Match, MatchResult]]
) -> None:
    """Append what matches of ``tournament`` being recorded add.

    It runs in the caller's transaction. The counts commit with it. It appends one row however many
    matches there are. A batch of recordings passes them all.
    """
    renamed = current_keys(tournament.snapshot_id)
    added: list[Row] = []
    for match, result in recorded:
        tally = cardstats.rekeyed(_match_tally(match, result), renamed)
        added += cardstats.tally_rows(tally, _match_sets(match))
    card_stats_append(added)


def card_stats_of_match(tournament: Tournament, match: Match, result: MatchResult) -> None:
    """Add one match being recorded. See ``card_stats_of_matches``."""
    card_stats_of_matches(tournament, [(match, result)])


def _match_tally(match: Match, result: MatchResult) -> Tally:
    players = {"A": player_of(match.seat_a), "B": player_of(match.seat_b)}
    return cardstats.match_counts(
        decks=match.setup["decks"], events=result.events, winner=result.winner, players=players
    )


def _match_sets(match: Match) -> str:
    return cardstats.sets_label(match.setup["sets_in_play"])


def card_stats_draft_rows(tournament: Tournament, seat: Seat, turn: Turn) -> list[Row]:
    """What a finished Deck Phase adds. Several seats' go in one ``card_stats_append``."""
    facts = card_facts(tournament)
    tally = cardstats.draft_counts(
        offered=[facts[uid].key for uid in turn.offered if uid in facts],
        picked=[facts[uid].key for uid in turn.picked if uid in facts],
        player=player_of(seat),
    )
    tally = cardstats.rekeyed(tally, current_keys(tournament.snapshot_id))
    return cardstats.tally_rows(tally, cardstats.sets_label(sets_in_play(tournament)))


def card_stats_append(added: list[Row]) -> None:
    """Keep ``added`` for the fold, and queue the fold after commit.

    It runs in the caller's transaction. So the counts commit with the recording. No fold is queued
    if one is queued and not started yet. That one will see these rows. ``FOLD_QUEUED`` is taken
    with ``add``, so at most one recording of many queues it. A task per recording cost more worker
    CPU than the fold itself.

    Recordings once added to the stored rows directly. The counts then locked rows every match
    shares: its sets', the City designs'. Concurrent recordings waited for each other's commit:
    +25-50 ms each with 2-4 recorders (docs/performance.md). An appended row is the transaction's
    own.
    """
    if added:
        with connection.cursor() as cursor:  # the model's save costs more CPU than the rest
            cursor.execute(_append_sql(), [json.dumps(added), timezone.now()])
        transaction.on_commit(_fold_owed)


@contextmanager
def one_fold() -> Iterator[None]:
    """Recordings committed inside queue the fold once, as the block ends, not once each.

    The fold is queued however the block ends. A task playing a round's matches, and the rounds
    after, thus checks ``FOLD_QUEUED`` once, not once per match. Each check is a Redis round trip:
    ~4 % of a worker's CPU. The deltas are durable meanwhile. If the process dies first, the
    reconciler folds them.
    """
    token = _FOLD_OWED.set([])
    try:
        yield
    finally:
        owed = _FOLD_OWED.get()
        _FOLD_OWED.reset(token)
        if owed:
            _fold_owed()


def _fold_owed() -> None:
    owed = _FOLD_OWED.get()
    if owed is None:
        _queue_fold()
    elif not owed:
        owed.append(True)


def _queue_fold() -> None:
    """Queue the fold unless one is queued and not started.

    The fold clears the key as it starts, before it reads the deltas. So a delta committed before
    this call is either read by that fold or queues another. With Redis down, ``add`` answers
    ``False`` and nothing is queued. The broker would not take it either. The reconciler folds
    what is left.
    """
    if shared_cache.add(FOLD_QUEUED, 1, FOLD_QUEUED_SECONDS):
        enqueue_named("tournaments.tasks.card_stats_fold")


@cache
def _append_sql() -> str:
    table = rows.quote(CardStatDelta._meta.db_table)
    names = ", ".join(rows.column(CardStatDelta, name) for name in ("rows", "created_at"))
    return f"INSERT INTO {table} ({names}) VALUES (%s, %s)"


def card_stats_fold() -> int:
    """Add the appended counts to the stored rows, oldest first. Return the deltas folded.

    Each transaction folds ``FOLD_BATCH`` deltas in one statement. Two folds at once take
    different deltas (``SKIP LOCKED``). Their statements wait for each other (the writers' lock).

    It first lets the next recording queue a fold again (``FOLD_QUEUED``). Whatever commits from
    now on is either read below or queues a fold of its own.
    """
    shared_cache.delete(FOLD_QUEUED)
    folded = 0
    while True:
        with transaction.atomic():
            pending = CardStatDelta.objects.select_for_update(skip_locked=True).order_by("pk")
            batch = list(pending.values_list("pk", "rows")[:FOLD_BATCH])
            if not batch:
                return folded
            card_stats_write([row for _pk, text in batch for row in json.loads(text)])
            CardStatDelta.objects.filter(pk__in=[pk for pk, _text in batch]).delete()
        folded += len(batch)


def card_stats_write(added: list[Row]) -> None:
    """Add ``added`` to the stored rows in one statement.

    ``added`` holds one row per design and kind of player, in a set combination. Rows may repeat.
    Each row counts in four stored rows: its design's and its set's, each by combination (player
    ``ALL``) and by kind of player (sets ``ALL``). The statement makes these and sums them. It
    inserts them in key order. On PostgreSQL it first takes the writers' transaction lock
    (``WRITERS_LOCK``). So two transactions adding to the same rows never lock them crosswise.
    The rows go as one JSON text. A dozen placeholders per row cost more CPU to build and send
    than everything else a match's figures need.
    """
    if added:
        with connection.cursor() as cursor:
            cursor.execute(_upsert_sql(connection.vendor), [json.dumps(added)])


# A transaction may add rows in several statements (a recount's chunks; recordings did, when
# they wrote here: matches recorded together one by one, several Deck Phases in one task). Each
# statement locks its rows in key order, but two transactions' statements interleaved still
# lock them crosswise: with four tournaments recording at once PostgreSQL found deadlocks
# (tests/cardstats/test_concurrent_recording.py). So writers take one lock for the rest of their
# transaction first: the second waits for the first's commit, as it would anyway for the rows
# every write shares (the sets' rows). The statement takes it (a CTE it reads before it makes a
# row): no round trip of its own.
WRITERS_LOCK = 0x43617264  # "Card": an advisory lock's number, unused elsewhere
LOCKED = {"postgresql": f"pg_advisory_xact_lock({WRITERS_LOCK})"}


FANNED = (  # each added row's four stored rows: key, set name, sets, player (g.n is 0 to 3)
    "CASE WHEN g.n < 2 THEN value ->> 0 ELSE value ->> 1 END",
    "value ->> 1",
    f"CASE WHEN g.n IN (0, 2) THEN value ->> 2 ELSE '{ALL}' END",
    f"CASE WHEN g.n IN (0, 2) THEN '{ALL}' ELSE value ->> 3 END",
)
FOUR = "(SELECT 0 AS n UNION ALL SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3) AS g"


# A set's rows take their decks and wins from the rows' SET_ONLY values (a deck counts once
# per set: cardstats.match_counts), its designs' rows from their own. Deltas appended before
# the SET_ONLY values existed have none: those fall back to the design's (the sum, as then).
SET_VALUE = {
    name: len(KEYS) + len(COUNTERS) + index for index, name in enumerate(("decks", "deck_wins"))
}


def _summed(index: int, name: str) -> str:
    value = f"value ->> {index}"
    if name in SET_VALUE:
        of_set = f"COALESCE(value ->> {SET_VALUE[name]}, {value})"
        value = f"CASE WHEN g.n < 2 THEN {value} ELSE {of_set} END"
    return f"SUM(CAST({value} AS BIGINT))"


@cache
def _upsert_sql(vendor: str, *, locked: bool = True) -> str:
    """The statement adding the rows.

    ``locked``: take the writers' lock first, where the database has one. Only
    ``scripts/bench_stats_contention.py`` runs unlocked.
    """
    table = rows.quote(CardStat._meta.db_table)
    names = [rows.column(CardStat, name) for name in (*KEYS, *COUNTERS)]
    sums = [_summed(index, name) for index, name in enumerate(COUNTERS, start=len(KEYS))]
    unique = ", ".join(rows.column(CardStat, name) for name in ("key", "sets", "player"))
    added = ", ".join(f"{col} = {table}.{col} + EXCLUDED.{col}" for col in names[len(KEYS) :])
    # "WHERE true": SQLite would otherwise read the ON of ON CONFLICT as a join's.
    lock = LOCKED.get(vendor) if locked else None
    return (
        (f"WITH writers AS MATERIALIZED (SELECT {lock}) " if lock else "")
        + f"INSERT INTO {table} ({', '.join(names)}) SELECT {', '.join([*FANNED, *sums])} "
        f"FROM {SOURCE[vendor]} CROSS JOIN {FOUR}{' CROSS JOIN writers' if lock else ''} "
        "WHERE true "
        f"GROUP BY 1, 2, 3, 4 ORDER BY 1, 3, 4 ON CONFLICT ({unique}) DO UPDATE SET {added}"
    )


def card_stats_recount() -> int:
    """Rebuild every row from the stored matches and finished Deck Phases.

    Return the rows written.
    """
    totals: dict[str, Tally] = {}
    for sets, tally in (*_stored_matches(), *_stored_drafts()):
        into = totals.setdefault(sets, {})
        for item, counts in tally.items():
            into.setdefault(item, cardstats.Counts()).add(counts)
    added = [row for sets, tally in totals.items() for row in cardstats.tally_rows(tally, sets)]
    with transaction.atomic():
        CardStatDelta.objects.all().delete()  # counted again from the stored play below
        CardStat.objects.all().delete()
        for start in range(0, len(added), CHUNK):
            card_stats_write(added[start : start + CHUNK])
    return CardStat.objects.count()


def _stored_matches() -> Iterator[tuple[str, Tally]]:
    done = Match.objects.filter(status__in=[MatchStatus.RECORDED, MatchStatus.FINISHED])
    played = done.select_related("seat_a", "seat_b", "tournament").order_by("pk")
    for match in played.iterator():
        events = MatchEvent.objects.filter(match=match).order_by("seq")
        players = {"A": player_of(match.seat_a), "B": player_of(match.seat_b)}
        tally = cardstats.match_counts(
            decks=match.setup["decks"],
            events=events.values_list("payload", flat=True),
            winner="A" if match.winner_id == match.seat_a_id else "B",
            players=players,
        )
        tally = cardstats.rekeyed(tally, current_keys(match.tournament.snapshot_id))
        yield cardstats.sets_label(match.setup["sets_in_play"]), tally


def _stored_drafts() -> Iterator[tuple[str, Tally]]:
    finished = DraftTurn.objects.filter(finished=True).select_related("seat__tournament")
    for row in finished.order_by("pk").iterator():
        tournament, turn = row.seat.tournament, turn_from_data(row.state)
        facts = card_facts(tournament)
        tally = cardstats.draft_counts(
            offered=[facts[uid].key for uid in turn.offered if uid in facts],
            picked=[facts[uid].key for uid in turn.picked if uid in facts],
            player=player_of(row.seat),
        )
        tally = cardstats.rekeyed(tally, current_keys(tournament.snapshot_id))
        yield cardstats.sets_label(sets_in_play(tournament)), tally


def card_stats_rename(*, old_key: str, new_key: str) -> None:
    """Move a renamed or moved design's figures from ``old_key`` to ``new_key``.

    They are added to any rows already there. Its set's own rows keep what was played in them.
    The appended counts are folded first, so none is left under the old key. A recording may
    commit between the fold and the move: it still lands there. The next recount puts it right,
    since it keys play by design.
    """
    card_stats_fold()
    set_name = new_key.split("/", 1)[0]
    with transaction.atomic():
        for row in CardStat.objects.select_for_update().filter(key=old_key):
            target, _created = CardStat.objects.select_for_update().get_or_create(
                key=new_key, sets=row.sets, player=row.player, defaults={"set_name": set_name}
            )
            for name in COUNTERS:
                setattr(target, name, getattr(target, name) + getattr(row, name))
            target.save()
            row.delete()
