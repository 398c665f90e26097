"""The tournament as one viewer may see it: a seat, or a spectator with ``viewer=None``.

Nobody sees another seat's display, any deck's order, a token or the seed. Nor trophy fans that
are still secret. With 3-8 seats, before the end, only the trophy's owner sees its fans.
"""

from __future__ import annotations

import dataclasses
from datetime import datetime

from django.core.cache import cache
from django.db.models import F
from django.utils.translation import gettext as _

from infra.errors import NotFoundError
from matches.observer import SPECTATOR, Viewer
from tournaments.models import DraftTurn, Seat, SeatKind, Status, Tournament, Trophy
from tournaments.rules import draft as rules
from tournaments.rules.bots import TAKEOVER_LEVEL
from tournaments.rules.data import ROUNDS
from tournaments.rules.lobby import lobby_actions, reclaim_actions
from tournaments.rules.standings import Standing, fans_secret, ranked, scores
from tournaments.rules.when_picked import CardFacts, Obligation
from tournaments.rules.winter import winter_parks
from tournaments.selectors.cards import card_facts
from tournaments.selectors.events import released_seq_of
from tournaments.shapes import (
    CardCopy,
    Fairness,
    OptionsView,
    Pairing,
    ParkView,
    Pending,
    SeatView,
    StandingView,
    TournamentView,
    TrophyView,
    Turn,
    You,
)


def _sees_fans(secret: bool, trophy: Trophy, viewer: Viewer) -> bool:
    return viewer.sees_fans(owner_seat_id=trophy.winner_id, secret=secret)


VIEW_TIMEOUT = 3600
LEAGUE = "league_link__season__league__slug"  # the view's `league`, read with the row
LEAGUE_OF_SEAT = F(f"tournament__{LEAGUE}")


def birth_key(tournament_id: int, code: str, created_at: datetime) -> str:
    """A cache key part naming one tournament.

    The room code and creation instant tell it from one that reused its id. That happens when the
    database is reset while the cache lives on.
    """
    return f"{tournament_id}:{code}:{created_at.timestamp()}"


def tournament_view_of(*, tournament_id: int, viewer: Viewer) -> TournamentView:
    """The tournament as ``viewer`` may see it.

    Projections are cached per tournament version and viewer. A viewer is a seat, or the spectators.
    Every change of a tournament appends to its log, and so moves its version. So a cached
    projection is never out of date. A seat's projection is never served to anyone but that seat.
    """
    tournament, seat = _tournament_and_viewer(tournament_id, viewer)
    born = birth_key(tournament.pk, tournament.code, tournament.created_at)
    # The seat's own version too: the seat row is read here, with the tournament, so a view
    # never pairs a new phase with an old ``you``.
    who = f"{seat.pk}.{seat.version}" if seat else "spectator"
    key = f"tview2:{born}:{tournament.version}:{who}"  # 2: a shape (1 was a dictionary)
    view: TournamentView | None = cache.get(key)
    if view is None:
        view = tournament_view(tournament, seat)
        cache.set(key, view, VIEW_TIMEOUT)
        return view
    # Read after the state: every event the cached state stands on is at or below it.
    return dataclasses.replace(view, released_seq=released_seq_of(tournament))


def _tournament_and_viewer(tournament_id: int, viewer: Viewer) -> tuple[Tournament, Seat | None]:
    """The tournament and the viewer's seat, read by one statement (one snapshot).

    The viewer was resolved before, with its token. A phase change might commit in between. It
    would pair the new phase with the seat's old ``version``. The first action on that view would
    then be refused as stale. Read together, the view is never older than the seat, nor newer.
    """
    if viewer.seat_id is not None:
        seats = Seat.objects.select_related("tournament").annotate(league_slug=LEAGUE_OF_SEAT)
        fresh = seats.filter(pk=viewer.seat_id).first()
        if fresh is not None:
            fresh.tournament.league_slug = fresh.league_slug  # type: ignore[attr-defined]
            return fresh.tournament, fresh
    tournaments = Tournament.objects.annotate(league_slug=F(LEAGUE))
    tournament = tournaments.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFoundError("not_found", _("No such tournament."))
    return tournament, None


def tournament_view(tournament: Tournament, viewer: Seat | None) -> TournamentView:
    """The whole public state, plus the viewer's own.

    The state holds only released results. A match's result reaches the tournament when its last
    event is out. So this view can never run ahead of the match events.
    """
    seats = list(tournament.seats.all())
    trophies = list(tournament.trophies.filter(winner__isnull=False).select_related("winner"))
    finished = tournament.status == Status.FINISHED
    completed = ROUNDS if finished else tournament.round - 1
    secret = fans_secret(seat_count=tournament.seat_count, rounds_completed=completed)
    turns = {
        t.seat_id: t
        for t in DraftTurn.objects.filter(seat__tournament=tournament, round=tournament.round)
    }
    looking = Viewer(seat_id=viewer.pk, number=viewer.number) if viewer else SPECTATOR
    return TournamentView(
        id=tournament.pk,
        title=tournament.title or None,
        code=tournament.code if looking.seat_id is not None else None,
        status=tournament.status,
        round=tournament.round,
        is_final=tournament.is_final,
        version=tournament.version,
        released_seq=released_seq_of(tournament),
        options=_options(tournament),
        league=_league(tournament),
        parks=_parks(tournament),
        plan=[[Pairing(**pairing) for pairing in pairings] for pairings in tournament.plan],
        phase_deadline=tournament.phase_deadline,
        seats=[_seat(tournament, seat, turns.get(seat.pk)) for seat in seats],
        trophies=[_trophy(secret, t, looking) for t in trophies],
        standings=_standings(tournament, secret, seats, trophies, looking),
        finalists=tournament.finalists,
        winners=tournament.winners if finished else [],
        fairness=_fairness(tournament),
        you=_you(tournament, viewer, turns.get(viewer.pk) if viewer else None, len(seats)),
    )


def _fairness(tournament: Tournament) -> Fairness:
    """The seed's commitment from the start.

    The seed and nonce that open it come at the end, finished or cancelled.
    """
    ended = tournament.status in (Status.FINISHED, Status.CANCELLED)
    return Fairness(
        commitment=tournament.commitment,
        revealed_seed=tournament.seed if ended else None,  # type: ignore[arg-type]
        revealed_nonce=tournament.seed_nonce if ended else None,
    )


def _league(tournament: Tournament) -> str | None:
    """The slug of the tournament's league.

    It is set at creation, so the cached view keeps it. The view's own reads annotate it on the
    tournament's row. Otherwise it is read on its own.
    """
    if hasattr(tournament, "league_slug"):
        slug: str | None = tournament.league_slug
        return slug
    slugs = Tournament.objects.filter(pk=tournament.pk).values_list(LEAGUE, flat=True)
    return slugs.first()


def _options(tournament: Tournament) -> OptionsView:
    return OptionsView(
        seat_count=tournament.seat_count,
        basic_set=tournament.basic_set,
        additional_sets=tournament.additional_sets,
        beach_cup=tournament.beach_cup,
        winter_mode=tournament.winter_mode,
        robot_difficulty=tournament.robot_difficulty,
        solo_challenge=tournament.solo_challenge,
        deck_deadline_seconds=tournament.deck_deadline_seconds,
        answer_deadline_seconds=tournament.answer_deadline_seconds,
        spectator_chat=tournament.spectator_chat,
    )


def _parks(tournament: Tournament) -> list[ParkView]:
    winter = winter_parks(tournament.winter_mode, tournament.parks, tournament.winter_index)
    return [ParkView(name=park, winter=park in winter) for park in tournament.parks]


def _seat(tournament: Tournament, seat: Seat, turn: DraftTurn | None) -> SeatView:
    return SeatView(
        id=f"{tournament.pk}:{seat.number}",
        number=seat.number,
        name=seat.name,
        kind=seat.kind,
        is_host=seat.is_host,
        tokens=seat.tokens,
        deck_size=len(seat.deck),
        finished=None if turn is None else turn.finished,
        auto_played=seat.auto_played,
        bot_level=_bot_level(seat),
        dropped=seat.dropped,
    )


def _bot_level(seat: Seat) -> str | None:
    if seat.kind == SeatKind.BOT:
        return seat.bot_level or "rookie"
    return TAKEOVER_LEVEL if seat.dropped else None


def _trophy(secret: bool, trophy: Trophy, viewer: Viewer) -> TrophyView:
    return TrophyView(
        park=trophy.park,
        round=trophy.round,
        seat=trophy.winner.number if trophy.winner else None,
        to_box=trophy.to_box,
        fans=trophy.fans if _sees_fans(secret, trophy, viewer) else None,
    )


def public_standings(
    tournament: Tournament, seats: list[Seat] | None = None, trophies: list[Trophy] | None = None
) -> list[StandingView]:
    """The standings a spectator sees at the close of the current round, all of it released.

    Pass ``seats`` and the ``trophies`` won so far, if you have them, to save reading them.
    """
    if seats is None:
        seats = list(tournament.seats.all())
    if trophies is None:
        trophies = list(tournament.trophies.filter(winner__isnull=False).select_related("winner"))
    # Called as a round closes: round 7's standings are the revealed ones the Final is seeded by.
    secret = fans_secret(seat_count=tournament.seat_count, rounds_completed=tournament.round)
    return _standings(tournament, secret, seats, trophies, SPECTATOR)


def _standings(
    tournament: Tournament,
    secret: bool,
    seats: list[Seat],
    trophies: list[Trophy],
    viewer: Viewer,
) -> list[StandingView]:
    """Fans as the viewer may count them, trophies, and the highest round won."""
    count = tournament.seat_count
    scoring = [s for s in seats if scores(is_robot=s.is_robot, seat_count=count)]
    standings = []
    for seat in scoring:
        kept = [t for t in trophies if t.winner_id == seat.pk and not t.to_box]
        visible = tuple((t.round, t.fans if _sees_fans(secret, t, viewer) else 0) for t in kept)
        standings.append(Standing(seat=seat.number, tokens=seat.tokens, trophies=visible))
    return [
        StandingView(
            seat=s.seat,
            fans=s.fans,
            fans_complete=all(
                _sees_fans(secret, t, viewer)
                for t in trophies
                if t.winner and t.winner.number == s.seat
            ),
            trophies=s.trophy_count,
            highest_round=s.highest_round,
        )
        for s in ranked(standings)
    ]


def _you(
    tournament: Tournament, viewer: Seat | None, turn: DraftTurn | None, seated: int
) -> You | None:
    if viewer is None:
        return None
    facts = card_facts(tournament)
    return You(
        seat=viewer.number,
        name=viewer.name,
        version=viewer.version,
        answers_live=viewer.answers_live,
        deck=sorted(_copies(viewer.deck, facts), key=lambda c: (c.card, c.uid)),
        turn=_turn(turn, facts, viewer.deck),
        actions=available_actions(tournament, viewer, turn, seated),
    )


def _copies(uids: list[int], facts: dict[int, CardFacts]) -> list[CardCopy]:
    return [CardCopy(uid=uid, card=facts[uid].key) for uid in uids]


def _turn(turn: DraftTurn | None, facts: dict[int, CardFacts], deck: list[int]) -> Turn | None:
    if turn is None:
        return None
    state = rules.turn_from_data(turn.state)
    pending = state.obligations[0] if state.obligations else None
    return Turn(
        options=[o.label for o in state.options],
        option=state.option,
        display=_copies(state.display, facts),
        picks_left=state.picks_left,
        redraw_used=state.redraw_used,
        picked=_copies(state.picked, facts),
        pending=None if pending is None else _pending(pending, facts, deck),
        finished=state.finished,
        auto_played=turn.auto_played,
    )


def _pending(pending: Obligation, facts: dict[int, CardFacts], deck: list[int]) -> Pending:
    """The When picked effect waiting for the viewer, with the cards a ``resolve`` may name.

    They are the rule's own ``eligible``. A client following it is never refused ``not_eligible``.
    """
    offered = _copies(pending.offered, facts)
    eligible = (
        offered if pending.kind == "draw_keep" else _copies(pending.eligible(deck, facts), facts)
    )
    return Pending(
        kind=pending.kind,
        card=facts[pending.source].key,
        count=pending.count,
        offered=offered,
        eligible=eligible,
        optional=not pending.is_mandatory(deck, facts),
    )


def available_actions(
    tournament: Tournament, viewer: Seat, turn: DraftTurn | None, seated: int
) -> list[str]:
    """The actions the viewer can take right now.

    The host's lobby actions come from ``rules.lobby.lobby_actions``. The Deck Phase's come from
    ``rules.draft.available_actions``.
    """
    if tournament.status == Status.LOBBY:
        free = tournament.seat_count - seated
        return lobby_actions(is_host=viewer.is_host, free_seats=free)
    if viewer.dropped and tournament.status in (Status.DECK, Status.MATCH):
        return reclaim_actions()
    if tournament.status != Status.DECK or turn is None or viewer.kind != SeatKind.HUMAN:
        return []
    return rules.available_actions(rules.turn_from_data(turn.state))
