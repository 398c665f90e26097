"""The Match Phase and the end of a round: matches created, results recorded, the next phase."""

from __future__ import annotations

from django.db import transaction

from config.tasks import enqueue_named
from matches.models import Match, MatchStatus
from tournaments.models import Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules.data import ROUNDS
from tournaments.rules.plan import Pairing, plan_from_data
from tournaments.rules.seeds import derive_seed, stream
from tournaments.rules.standings import Standing, finalists, lead_winner, winners_after_last_round
from tournaments.rules.winter import OFF, winter_parks
from tournaments.services.deck import open_deck_phase
from tournaments.services.events import publish
from tournaments.services.setups import build_setups, kept_trophies


def pairings_of(tournament: Tournament) -> list[Pairing]:
    """This round's matches: the plan's pairings, or the two finalists in the Final."""
    if tournament.is_final:
        a, b = tournament.finalists
        return [Pairing(park=final_park(tournament), a=a, b=b)]
    return list(plan_from_data(tournament.plan)[tournament.round - 1])


def final_park(tournament: Tournament) -> str:
    """The Final is played in the Winter Park when Winter Park is on, else in the green park."""
    if tournament.winter_mode == OFF:
        return tournament.parks[0]
    return tournament.parks[tournament.winter_index % len(tournament.parks)]


def park_kind(tournament: Tournament, park: str) -> str:
    if tournament.is_final:
        return "normal" if tournament.winter_mode == OFF else "winter"
    winter = winter_parks(tournament.winter_mode, tournament.parks, tournament.winter_index)
    return "winter" if park in winter else "normal"


def match_phase_start(tournament: Tournament) -> list[Match]:
    """Create one match per park and queue them (the caller holds the tournament lock)."""
    tournament.status = Status.MATCH
    tournament.phase_deadline = None
    tournament.save()
    seats = {seat.number: seat for seat in tournament.seats.all()}
    matches = [
        Match.objects.create(
            tournament=tournament,
            round=tournament.round,
            park=pairing.park,
            kind=park_kind(tournament, pairing.park),
            seat_a=seats[pairing.a],
            seat_b=seats[pairing.b],
            seed=derive_seed(tournament.seed, "match", tournament.round, pairing.park),
            snapshot_id=tournament.snapshot_id,
        )
        for pairing in pairings_of(tournament)
    ]
    build_setups(tournament, matches)
    publish(
        tournament,
        "match_phase_opened",
        {"round": tournament.round, "matches": [_public_match(m) for m in matches]},
    )
    ids = [m.pk for m in matches]
    transaction.on_commit(lambda: _queue_matches(ids))
    return matches


def _public_match(match: Match) -> dict[str, object]:
    return {
        "id": match.pk,
        "park": match.park,
        "kind": match.kind,
        "seats": [match.seat_a.number, match.seat_b.number],
    }


def _queue_matches(ids: list[int]) -> None:
    for match_id in ids:
        enqueue_named("tournaments.tasks.play_match", match_id)


def standing(seat: Seat) -> Standing:
    return Standing(seat=seat.number, tokens=seat.tokens, trophies=tuple(kept_trophies(seat)))


def scoring_seats(tournament: Tournament) -> list[Seat]:
    """Seats that score: every player, plus the Robot in a solo game."""
    seats = tournament.seats.all()
    if tournament.seat_count != 1:
        seats = seats.exclude(kind=SeatKind.ROBOT)
    return list(seats)


def round_finish(tournament: Tournament) -> None:
    """Close the round once its last match is released (the caller holds the lock)."""
    if tournament.status != Status.MATCH:
        return
    if (
        tournament.matches.filter(round=tournament.round)
        .exclude(status=MatchStatus.FINISHED)
        .exists()
    ):
        return
    _announce_round(tournament)
    standings = [standing(seat) for seat in scoring_seats(tournament)]
    if tournament.is_final:
        final = tournament.matches.get(round=tournament.round)
        return _finish(tournament, [final.winner.number])  # type: ignore[union-attr]
    if tournament.seat_count <= 2:
        leader = lead_winner(standings)
        if leader is not None:
            return _finish(tournament, [leader], reason="lead")
        if tournament.round == ROUNDS:
            return _finish(tournament, winners_after_last_round(standings), reason="most_fans")
    elif tournament.round == ROUNDS:
        tournament.finalists = list(finalists(standings, stream(tournament.seed, "finalists")))
    tournament.round += 1
    tournament.save()
    open_deck_phase(tournament)


def _announce_round(tournament: Tournament) -> None:
    """Public standings after the round, as its last match is released."""
    from tournaments.selectors.tournaments import public_standings

    publish(
        tournament,
        "round_finished",
        {"round": tournament.round, "standings": public_standings(tournament)},
    )


def _finish(tournament: Tournament, winners: list[int], reason: str = "final") -> None:
    tournament.status = Status.FINISHED
    tournament.winners = winners
    tournament.phase_deadline = None
    tournament.save()
    publish(
        tournament,
        "seed_revealed",
        {
            "seed": tournament.seed,
            "nonce": tournament.seed_nonce,
            "commitment": tournament.commitment,
        },
    )
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
