"""The phases of a round: the Deck Phase opens, the Match Phase starts, the round closes."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from functools import cache

from django.db import connection, transaction
from django.utils import timezone

from apikit.shapes import to_json
from infra import rows
from infra.taskqueue import enqueue_named
from matches.models import Match
from tournaments.models import DraftTurn, Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules import draft as rules
from tournaments.rules.data import ROUNDS, draft_options
from tournaments.rules.plan import Pairing, plan_from_data
from tournaments.rules.seeds import derive_seed, stream
from tournaments.rules.standings import (
    Standing,
    finalists,
    lead_winner,
    scores,
    winners_after_last_round,
)
from tournaments.rules.winter import NORMAL, OFF, next_winter_index, winter_parks
from tournaments.selectors.tournaments import public_standings
from tournaments.services import hooks
from tournaments.services.bot_talk import bots_say
from tournaments.services.common import locked_tournament, save_later
from tournaments.services.events import publish, publish_seed
from tournaments.services.match_setups import build_setups


def pairings_of(tournament: Tournament) -> list[Pairing]:
    """This round's matches: the plan's pairings, or the two finalists in the Final."""
    if tournament.is_final:
        a, b = tournament.finalists
        return [Pairing(park=final_park(tournament), a=a, b=b)]
    return list(plan_from_data(tournament.plan)[tournament.round - 1])


def final_park(tournament: Tournament) -> str:
    """The Final's park: the Winter Park when Winter Park is on, else the green park."""
    if tournament.winter_mode == OFF:
        return tournament.parks[0]
    return tournament.parks[tournament.winter_index % len(tournament.parks)]


def park_kind(tournament: Tournament, park: str) -> str:
    if tournament.is_final:
        return "normal" if tournament.winter_mode == OFF else "winter"
    winter = winter_parks(tournament.winter_mode, tournament.parks, tournament.winter_index)
    return "winter" if park in winter else "normal"


def match_phase_start(
    tournament: Tournament,
    *,
    queue: bool = True,
    seats: list[Seat] | None = None,
    piles: Mapping[str, list[int]] | None = None,
    trophies: list[Trophy] | None = None,
) -> list[Match]:
    """Create one match per park and queue them. The caller holds the tournament lock.

    With ``queue`` false, the caller plays them itself once its transaction has committed. The
    caller may pass what it read, as written: ``seats``, every seat; ``piles``, each level's cards;
    ``trophies``, those won. Else they are read.
    """
    tournament.status = Status.MATCH
    tournament.phase_deadline = None
    save_later(tournament, ["status", "phase_deadline", "updated_at"])
    numbered = {seat.number: seat for seat in (tournament.seats.all() if seats is None else seats)}
    matches = [
        Match(
            tournament=tournament,
            round=tournament.round,
            park=pairing.park,
            kind=park_kind(tournament, pairing.park),
            seat_a=numbered[pairing.a],
            seat_b=numbered[pairing.b],
            seed=derive_seed(tournament.seed, "match", tournament.round, pairing.park),
            snapshot_id=tournament.snapshot_id,
        )
        for pairing in pairings_of(tournament)
    ]
    build_setups(tournament, matches, piles=piles, trophies=trophies)
    matches = Match.objects.bulk_create(matches)
    publish(
        tournament,
        "match_phase_opened",
        {"round": tournament.round, "matches": [_public_match(m) for m in matches]},
    )
    if queue:
        ids, tournament_id = [m.pk for m in matches], tournament.pk
        transaction.on_commit(lambda: _queue_matches(tournament_id, ids))
    return matches


def _public_match(match: Match) -> dict[str, object]:
    return {
        "id": match.pk,
        "park": match.park,
        "kind": match.kind,
        "seats": [match.seat_a.number, match.seat_b.number],
    }


def _queue_matches(tournament_id: int, ids: list[int]) -> None:
    """One task plays the round's matches.

    They take the tournament's lock in turn anyway. So a task each would only add hops. The worker's
    other processes play other tournaments.
    """
    enqueue_named("tournaments.tasks.play_matches", tournament_id, ids)


def standing(seat: Seat, won: list[tuple[int, int]]) -> Standing:
    """A seat's standing, given the ``(round, fans)`` of the trophies it keeps."""
    return Standing(seat=seat.number, tokens=seat.tokens, trophies=tuple(won))


def scoring_seats(tournament: Tournament, seats: list[Seat]) -> list[Seat]:
    """The seats of ``seats`` that score. See ``rules.standings.scores``."""
    count = tournament.seat_count
    return [s for s in seats if scores(is_robot=s.is_robot, seat_count=count)]


def _standings_from(
    tournament: Tournament, seats: list[Seat], trophies: list[Trophy]
) -> list[Standing]:
    """Every scoring seat's standing, from the seats and the trophies won, as read."""
    won: dict[int, list[tuple[int, int]]] = {}
    for trophy in trophies:
        if not trophy.to_box and trophy.winner_id is not None:
            won.setdefault(trophy.winner_id, []).append((trophy.round, trophy.fans))
    return [standing(seat, won.get(seat.pk, [])) for seat in scoring_seats(tournament, seats)]


def round_close(*, tournament_id: int, round_number: int) -> None:
    """Close ``round_number`` in a transaction of its own. The caller saw its matches all released.

    It is idempotent: a round closed already is left alone.
    """
    with locked_tournament(tournament_id) as tournament:
        round_owed_close(tournament, round_number)


def round_on(tournament: Tournament, round_number: int) -> bool:
    """Whether the tournament is still playing this round's matches. Its close has not run."""
    return (tournament.status, tournament.round) == (Status.MATCH, round_number)


def round_owed_close(tournament: Tournament, round_number: int) -> None:
    """Close ``round_number`` if it is still on. The caller holds the lock.

    Its matches were all released. The release of its last read so under the tournament's lock
    (``matchplay._locked_matches``), or the reconciler's query did
    (``selectors.owed.unclosed_rounds``). A released match never reopens, so nothing asks again.
    """
    if round_on(tournament, round_number):
        _round_finish(tournament)


def _round_finish(tournament: Tournament) -> None:
    """Close the round. The caller holds the lock. It knows the matches are all released."""
    # The seats and the trophies won, read once for the standings and the next Deck Phase.
    seats, trophies = _seats_and_trophies(tournament)
    by_id = {seat.pk: seat for seat in seats}
    for trophy in trophies:  # the winner as read above: no join, no second copy of its row
        trophy.winner = by_id[trophy.winner_id or 0]
    if tournament.opening is not None:  # the caller plays the next phase's bots: read once
        tournament.opening.seats, tournament.opening.trophies = seats, trophies
    _announce_round(tournament, seats, trophies)
    standings = _standings_from(tournament, seats, trophies)
    if tournament.is_final:
        final = tournament.matches.get(round=tournament.round)
        return _finish(tournament, [by_id[final.winner_id or 0].number])
    if tournament.seat_count <= 2:
        leader = lead_winner(standings)
        if leader is not None:
            return _finish(tournament, [leader], reason="lead")
        if tournament.round == ROUNDS:
            return _finish(tournament, winners_after_last_round(standings), reason="most_fans")
    elif tournament.round == ROUNDS:
        tournament.finalists = list(finalists(standings, stream(tournament.seed, "finalists")))
    tournament.round += 1
    open_deck_phase(tournament, seats)  # which saves the tournament's row


def _seats_and_trophies(tournament: Tournament) -> tuple[list[Seat], list[Trophy]]:
    """Every seat in seat order, and the trophies won in round and park order.

    They are ``tournament.seats.all()`` and ``tournament.trophies.filter(winner__isnull=False)``.
    One statement reads them, each seat beside the trophies it won.
    """
    with connection.cursor() as cursor:
        cursor.execute(_seats_and_trophies_sql(), [tournament.pk])
        found = cursor.fetchall()
    width = len(Seat._meta.concrete_fields)
    seats: dict[int, Seat] = {}
    trophies = []
    for row in found:
        seat = rows.instance(Seat, "s", row[:width])
        seat = seats.setdefault(seat.pk, seat)
        if row[width] is not None:  # the trophy's id: the seat won one
            trophies.append(rows.instance(Trophy, "t", row[width:]))
    trophies.sort(key=lambda trophy: (trophy.round, trophy.park))
    return list(seats.values()), trophies


@cache
def _seats_and_trophies_sql() -> str:
    q, col = rows.quote, rows.column
    seat, trophy = q(Seat._meta.db_table), q(Trophy._meta.db_table)
    return (
        f"SELECT {rows.columns_of(Seat, 's')}, {rows.columns_of(Trophy, 't')} FROM {seat} s "
        f"LEFT JOIN {trophy} t ON t.{col(Trophy, 'winner')} = s.{col(Seat, 'id')} "
        f"AND t.{col(Trophy, 'tournament')} = s.{col(Seat, 'tournament')} "
        f"WHERE s.{col(Seat, 'tournament')} = %s ORDER BY s.{col(Seat, 'number')}, "
        f"t.{col(Trophy, 'round')}, t.{col(Trophy, 'park')}"
    )


def _announce_round(tournament: Tournament, seats: list[Seat], trophies: list[Trophy]) -> None:
    """Public standings after the round, as its last match is released."""
    publish(
        tournament,
        "round_finished",
        {
            "round": tournament.round,
            "standings": to_json(public_standings(tournament, seats, trophies)),
        },
    )
    hooks.fire("round_finished", tournament_id=tournament.pk, round_number=tournament.round)


def _finish(tournament: Tournament, winners: list[int], reason: str = "final") -> None:
    tournament.status = Status.FINISHED
    tournament.winners = winners
    tournament.phase_deadline = None
    rows.save_fields(tournament)
    bots_say(tournament, "farewell")
    publish_seed(tournament)
    trophies = Trophy.objects.filter(tournament=tournament, winner__isnull=False, to_box=False)
    publish(
        tournament,
        "tournament_finished",
        {
            "winners": winners,
            "reason": reason,
            "trophies": [
                {"park": t.park, "round": t.round, "fans": t.fans, "seat": t.winner.number}  # type: ignore[union-attr]
                for t in trophies.select_related("winner")
            ],
        },
    )
    hooks.fire("tournament_finished", tournament_id=tournament.pk, round_number=tournament.round)


def drafting_seats(tournament: Tournament, seats: list[Seat] | None = None) -> list[Seat]:
    """The seats that take part in this Deck Phase. Before the Final, only the finalists.

    Chosen from ``seats``, every seat in seat order, if given.
    """
    every = list(tournament.seats.all()) if seats is None else seats
    return [
        seat
        for seat in every
        if seat.kind != SeatKind.ROBOT
        and (not tournament.is_final or seat.number in tournament.finalists)
    ]


def open_deck_phase(tournament: Tournament, seats: list[Seat] | None = None) -> None:
    """Open the Deck Phase of ``tournament.round``. The caller holds the lock.

    ``seats``: every seat, in seat order, if the caller read them.
    """
    if tournament.winter_mode == NORMAL and 2 <= tournament.round <= 7:
        rng = stream(tournament.seed, "winter", tournament.round)
        tournament.winter_index = next_winter_index(
            rng, tournament.winter_index, len(tournament.parks)
        )
    seats = drafting_seats(tournament, seats)
    turns = [
        DraftTurn(seat=seat, round=tournament.round, state=_new_turn(tournament)) for seat in seats
    ]
    if tournament.opening is None:
        DraftTurn.objects.bulk_create(turns)
    else:  # the caller plays the bots and writes the turns once, as played (desk.Tables)
        tournament.opening.turns = turns
    seconds = tournament.deck_deadline_seconds
    tournament.phase_deadline = timezone.now() + timedelta(seconds=seconds) if seconds else None
    tournament.status = Status.DECK
    save_later(tournament)
    publish(
        tournament,
        "deck_phase_opened",
        {
            "round": tournament.round,
            "deadline": tournament.phase_deadline.isoformat()
            if tournament.phase_deadline
            else None,
            "winter_index": tournament.winter_index,
        },
    )
    _queue_deck_tasks(tournament, [s.pk for s in seats if s.kind == SeatKind.BOT or s.dropped])


def _new_turn(tournament: Tournament) -> rules.TurnData:
    """A seat's Deck Phase turn as the round opens it, as stored."""
    if tournament.is_final:
        return rules.turn_to_data(rules.final_turn())
    options = draft_options(beach_cup=tournament.beach_cup, round_number=tournament.round)
    return rules.turn_to_data(rules.DraftTurn(options))


def _queue_deck_tasks(tournament: Tournament, bot_ids: list[int]) -> None:
    """Queue the bots' task and the Deck Phase's deadline, once the opening has committed.

    The bots' task is not queued when the caller plays them (``Tournament.opening``).
    """
    tournament_id, round_number = tournament.pk, tournament.round
    deadline = tournament.deck_deadline_seconds
    if tournament.opening is not None:
        tournament.opening.bots.extend(bot_ids)
        bot_ids = []

    def queue() -> None:
        if bot_ids:
            enqueue_named("tournaments.tasks.bot_deck_phases", tournament_id, bot_ids)
        if deadline:
            enqueue_named(
                "tournaments.tasks.enforce_deck_deadline",
                tournament_id,
                round_number,
                countdown=deadline,
            )

    transaction.on_commit(queue)
