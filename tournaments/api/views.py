"""Tournament endpoints: thin interfaces over one service and one projection."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from apikit.actions import rest_view
from apikit.openapi import operation
from apikit.shapes import Many, to_json
from infra.params import KnownQueryParameters
from matches.shapes import MatchView
from tournaments import actions, inputs
from tournaments.callers import caller
from tournaments.log_shapes import Replay, Verification
from tournaments.selectors.advice import draft_advice
from tournaments.selectors.listing import tournament_list
from tournaments.selectors.matches import match_list_of
from tournaments.selectors.replay import tournament_replay
from tournaments.selectors.tournaments import tournament_view_of
from tournaments.selectors.viewers import viewer_in
from tournaments.services import fairness
from tournaments.shapes import AdviceView, TournamentList, TournamentView


class ApiView(KnownQueryParameters, APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, object]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _view(tournament_id: int, request: Request) -> Response:
    viewer = viewer_in(caller(request), tournament_id)
    return Response(to_json(tournament_view_of(tournament_id=tournament_id, viewer=viewer)))


class TournamentListView(ApiView):
    query_parameters = frozenset(inputs.ListQuery().fields)

    @operation(
        "List tournaments",
        "Tournaments, newest first, filtered by status; never a room code or a secret.",
    )
    @extend_schema(
        parameters=[inputs.ListQuery],
        responses=TournamentList,
    )
    def get(self, request: Request) -> Response:
        """List tournaments, newest first.

        Filter by status; page with limit and offset.
        """
        caller(request)  # a bad token is refused here as everywhere
        query = inputs.ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        found = tournament_list(
            status=data.get("status"),
            league=data.get("league"),
            limit=data["limit"],
            offset=data["offset"],
        )
        return Response(to_json(found))


class TournamentReadView(ApiView):
    @operation(
        "Read a tournament",
        "The tournament as the caller may see it: with a seat token, `you` holds the seat's "
        "deck, Deck Phase and `actions`; a spectator gets no room code and no `you`.",
    )
    @extend_schema(responses=TournamentView)
    def get(self, request: Request, tournament_id: int) -> Response:
        return _view(tournament_id, request)


class TournamentAdviceView(ApiView):
    @operation(
        "Draft advice: each choice's estimated chance to win",
        "For your seat's current options or display, each choice's estimated probability of "
        "winning your next match (`sample_size` practice matches each).",
        {403: [*actions.SEAT, "advice_not_allowed", "not_your_seat"]},
    )
    @extend_schema(responses=AdviceView)
    def get(self, request: Request, tournament_id: int) -> Response:
        """For your seat's current options or display, each choice's estimated probability of
        winning your next match, by practice matches on the engine against a model of your next
        rival built from public facts only (`sample_size` matches each). Refused with 403
        `advice_not_allowed` when the tournament does not allow advice."""
        return Response(to_json(draft_advice(tournament_id=tournament_id, seat=caller(request))))


def _made(name: str, *made: actions.Action, base: type[ApiView] = ApiView) -> type[APIView]:
    return rest_view(name, made, base)


# The action views (``tournaments.actions``: GraphQL's mutations come from the same
# declarations).
TournamentCreateView = _made("TournamentCreateView", actions.CREATE, base=TournamentListView)
TournamentJoinView = _made("TournamentJoinView", actions.JOIN)
TournamentDetailView = _made("TournamentDetailView", actions.RENAME, base=TournamentReadView)
TournamentBotsView = _made("TournamentBotsView", actions.ADD_BOTS)
TournamentStartView = _made("TournamentStartView", actions.START)
TournamentLeaveView = _made("TournamentLeaveView", actions.LEAVE)
TournamentReclaimView = _made("TournamentReclaimView", actions.RECLAIM)
TournamentKickView = _made("TournamentKickView", actions.KICK)
TournamentCancelView = _made("TournamentCancelView", actions.CANCEL)
SeatSettingsView = _made("SeatSettingsView", actions.SETTINGS)
DECK_ACTIONS: dict[str, type[APIView]] = {
    route: _made(f"Deck{action.name.title()}View", action) for route, action in actions.DECK.items()
}


class TournamentMatchesView(ApiView):
    @operation(
        "List a tournament's matches", "Every match of the tournament as the caller may see it."
    )
    @extend_schema(responses=Many(MatchView))
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = viewer_in(caller(request), tournament_id)
        return Response(to_json(match_list_of(tournament_id=tournament_id, viewer=viewer)))


class TournamentVerifyView(ApiView):
    @operation(
        "Verify the tournament's fairness",
        "Once finished: checks the commitment, the trophy deal and every match replay "
        "(docs/protocol.md §15).",
        {409: ["not_finished"]},
    )
    @extend_schema(responses=Verification)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(to_json(fairness.tournament_verify(tournament_id=tournament_id)))


class TournamentReplayView(ApiView):
    @operation(
        "Everything needed to re-play a finished tournament",
        "Once finished: the revealed seed and nonce, the frozen card data, and each match's "
        "seed, setup, answers and events (docs/protocol.md, Verifying a tournament; "
        "`examples/verify.py` checks it).",
        {409: ["not_finished"]},
    )
    @extend_schema(responses=Replay)
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(to_json(tournament_replay(tournament_id=tournament_id)))
