"""Everything needed to re-play a finished tournament without trusting the server.

It is published only once the tournament has ended, when the seed is revealed. It holds the seed
and nonce that open the commitment, and the frozen card data. For every match it holds the seed,
the setup (both decks in order, its share of the piles), the answers given, and every event
recorded, shuffles included. ``examples/verify.py`` checks it with nothing but the pure engine
(docs/protocol.md, "Verifying a tournament"). Seeds are decimal strings. They are 63-bit numbers,
beyond a double.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from cards.models import CardSnapshot
from infra.errors import ConflictError, NotFoundError
from matches.models import Match, MatchEvent
from matches.observer import observe
from tournaments.log_shapes import Replay, ReplayCards, ReplayDeckPhase, ReplayMatch
from tournaments.models import DraftTurn, Status, Tournament


def tournament_replay(*, tournament_id: int) -> Replay:
    """The replay document of a finished tournament. ``not_finished`` before its end."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("not_found", _("No such tournament."))
    if tournament.status != Status.FINISHED:
        raise ConflictError("not_finished", _("The seed is revealed, and the replay, at the end."))
    entries, all_sets = (
        CardSnapshot.objects.filter(pk=tournament.snapshot_id or 0)
        .values_list("entries", "all_sets")
        .get()
    )
    matches = list(tournament.matches.select_related("seat_a", "seat_b").order_by("pk"))
    return Replay(
        tournament=tournament.pk,
        seed=str(tournament.seed),
        nonce=tournament.seed_nonce,
        commitment=tournament.commitment,
        cards=ReplayCards(entries=entries, all_sets=all_sets),
        matches=[_match(match, _events(match)) for match in matches],
        deck_phases=_deck_phases(tournament),
    )


def _deck_phases(tournament: Tournament) -> list[ReplayDeckPhase]:
    """Every seat's Deck Phase actions, by round then seat. The seed is out: nothing is hidden."""
    rows = (
        DraftTurn.objects.filter(seat__tournament=tournament)
        .order_by("round", "seat__number")
        .values_list("round", "seat__number", "state")
    )
    return [
        ReplayDeckPhase(round=round_number, seat=number, moves=list(state.get("moves", [])))
        for round_number, number, state in rows
    ]


def _events(match: Match) -> list[dict[str, object]]:
    """Every event, as recorded, as the observer shows it once the tournament is over.

    ``revealed``: none is hidden.
    """
    rows = MatchEvent.objects.filter(match=match).order_by("seq").values_list("payload", flat=True)
    return [shown for payload in rows if (shown := observe(payload, None, revealed=True))]


def _match(match: Match, events: list[dict[str, object]]) -> ReplayMatch:
    return ReplayMatch(
        id=match.pk,
        round=match.round,
        park=match.park,
        status=match.status,
        seats={"A": match.seat_a.number, "B": match.seat_b.number},
        seed=str(match.seed),
        setup=match.setup,
        answers=match.answers,
        events=events,
        rules_version=match.rules_version,
    )
