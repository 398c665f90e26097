"""Card statistics kept current from play: each recorded match and each finished Deck Phase adds
its counts in its own transaction, as one aggregated upsert (``INSERT … ON CONFLICT DO UPDATE``
adding to the counters; SQLite and PostgreSQL alike). ``card_stats_recount`` rebuilds every row
from the stored matches and Deck Phases, and must find the same figures."""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from django.db import connection, transaction

from config import rows
from matches.engine.model import MatchResult
from matches.models import Match, MatchEvent, MatchStatus
from tournaments.models import CardStat, DraftTurn, Player, Seat, SeatKind, Tournament
from tournaments.rules import cardstats
from tournaments.rules.cardstats import COUNTERS, Tally
from tournaments.rules.draft import DraftTurn as Turn
from tournaments.rules.draft import turn_from_data
from tournaments.selectors.cards import card_facts, sets_in_play

KEYS = ("key", "set_name", "sets", "player")
CHUNK = 60  # rows per statement in a recount (well under SQLite's bound of parameters)


def player_of(seat: Seat) -> str:
    """A seat's kind of player: a person, a bot by its strength (a dropped seat's is steady), the
    Robot."""
    if seat.kind == SeatKind.ROBOT:
        return Player.ROBOT
    if seat.kind == SeatKind.HUMAN:
        return Player.STEADY if seat.dropped else Player.HUMAN
    return seat.bot_level or Player.ROOKIE


def card_stats_of_match(match: Match, result: MatchResult) -> None:
    """Add a match being recorded (the caller's transaction: the counts commit with it)."""
    players = {"A": player_of(match.seat_a), "B": player_of(match.seat_b)}
    setup = match.setup
    tally = cardstats.match_counts(
        decks=setup["decks"], events=result.events, winner=result.winner, players=players
    )
    card_stats_add(tally, cardstats.sets_label(setup["sets_in_play"]))


def card_stats_of_draft(tournament: Tournament, seat: Seat, turn: Turn) -> None:
    """Add a Deck Phase that has just finished: the cards its displays showed and those kept."""
    facts = card_facts(tournament)
    tally = cardstats.draft_counts(
        offered=[facts[uid].key for uid in turn.offered if uid in facts],
        picked=[facts[uid].key for uid in turn.picked if uid in facts],
        player=player_of(seat),
    )
    card_stats_add(tally, cardstats.sets_label(sets_in_play(tournament)))


def card_stats_add(tally: Tally, sets: str) -> None:
    """One statement adding ``tally`` to the rows of set combination ``sets``.

    Rows go in key order, so two transactions adding to the same rows lock them in the same
    order (PostgreSQL would otherwise deadlock them).
    """
    items = sorted(tally.items())
    if not items:
        return
    params: list[str | int] = []
    for (key, player), counts in items:
        params += [key, key.split("/", 1)[0], sets, player, *counts.values()]
    with connection.cursor() as cursor:
        cursor.execute(_upsert_sql(len(items)), params)


@cache
def _upsert_sql(count: int) -> str:
    table = rows.quote(CardStat._meta.db_table)
    names = [rows.column(CardStat, name) for name in (*KEYS, *COUNTERS)]
    one = "(" + ", ".join(["%s"] * len(names)) + ")"
    unique = ", ".join(rows.column(CardStat, name) for name in ("key", "sets", "player"))
    added = ", ".join(f"{col} = {table}.{col} + EXCLUDED.{col}" for col in names[len(KEYS) :])
    return (
        f"INSERT INTO {table} ({', '.join(names)}) VALUES {', '.join([one] * count)} "
        f"ON CONFLICT ({unique}) DO UPDATE SET {added}"
    )


def card_stats_recount() -> int:
    """Rebuild every row from the stored matches and finished Deck Phases; the rows written."""
    totals: dict[str, Tally] = {}
    for sets, tally in (*_stored_matches(), *_stored_drafts()):
        into = totals.setdefault(sets, {})
        for item, counts in tally.items():
            into.setdefault(item, cardstats.Counts()).add(counts)
    with transaction.atomic():
        CardStat.objects.all().delete()
        for sets, tally in totals.items():
            items = sorted(tally.items())
            for start in range(0, len(items), CHUNK):
                card_stats_add(dict(items[start : start + CHUNK]), sets)
    return CardStat.objects.count()


def _stored_matches() -> Iterator[tuple[str, Tally]]:
    done = Match.objects.filter(status__in=[MatchStatus.RECORDED, MatchStatus.FINISHED])
    for match in done.select_related("seat_a", "seat_b").order_by("pk").iterator():
        events = MatchEvent.objects.filter(match=match).order_by("seq")
        players = {"A": player_of(match.seat_a), "B": player_of(match.seat_b)}
        tally = cardstats.match_counts(
            decks=match.setup["decks"],
            events=events.values_list("payload", flat=True),
            winner="A" if match.winner_id == match.seat_a_id else "B",
            players=players,
        )
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
        yield cardstats.sets_label(sets_in_play(tournament)), tally
