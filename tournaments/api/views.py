"""Tournament endpoints: thin interfaces that call one service and render one projection."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from config.params import KnownQueryParameters
from config.throttling import ActionThrottle, CreateThrottle, JoinThrottle
from matches.observer import SPECTATOR
from tournaments.api import inputs, outputs
from tournaments.api.auth import actor, caller, organizer
from tournaments.selectors.advice import draft_advice
from tournaments.selectors.listing import tournament_list
from tournaments.selectors.matches import match_list_of
from tournaments.selectors.replay import tournament_replay
from tournaments.selectors.tournaments import tournament_view_of
from tournaments.selectors.viewers import SeatRow, viewer_in
from tournaments.services import deck, fairness, lobby, start


class ApiView(KnownQueryParameters, APIView):
    authentication_classes: list[Any] = []
    permission_classes: list[Any] = []


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def _view(tournament_id: int, request: Request, seat: SeatRow | None = None) -> Response:
    """The tournament as the caller sees it (``seat``: the caller, if already resolved)."""
    viewer = viewer_in(seat if seat is not None else caller(request), tournament_id)
    return Response(tournament_view_of(tournament_id=tournament_id, viewer=viewer))


def _ticket(ticket: lobby.SeatTicket) -> dict[str, Any]:
    return {
        "id": ticket.tournament.pk,
        "code": ticket.tournament.code,
        "seat": {"id": ticket.seat.number, "token": ticket.token},
    }


class TournamentCreateView(ApiView):
    throttle_classes = [CreateThrottle]
    query_parameters = frozenset(inputs.ListQuery().fields)

    def get_throttles(self) -> list[Any]:
        return [] if self.request.method == "GET" else super().get_throttles()

    @extend_schema(
        parameters=[inputs.ListQuery],
        responses=outputs.TournamentListOut,
        operation_id="tournament_list",
    )
    def get(self, request: Request) -> Response:
        """List tournaments, newest first: filter by status, page with limit and offset."""
        caller(request)  # a bad token is refused here as everywhere
        query = inputs.ListQuery(data=request.query_params)
        query.is_valid(raise_exception=True)
        data = query.validated_data
        return Response(
            tournament_list(
                status=data.get("status"),
                league=data.get("league"),
                limit=data["limit"],
                offset=data["offset"],
            )
        )

    @extend_schema(request=inputs.CreateInput, responses={201: outputs.TicketOut})
    def post(self, request: Request) -> Response:
        data = valid(inputs.CreateInput, request)
        options = inputs.create_options(data)
        by = organizer(request)
        if by is not None:  # an organizer takes no seat: every seat is open
            opened = lobby.tournament_organize(organizer=by, **options)
            body = {"id": opened.pk, "code": opened.code, "seat": None}
            return Response(body, status=status.HTTP_201_CREATED)
        if not data.get("name"):
            raise serializers.ValidationError({"name": [_("This field is required.")]})
        ticket = lobby.tournament_create(host_name=data["name"], **options)
        return Response(_ticket(ticket), status=status.HTTP_201_CREATED)


class TournamentJoinView(ApiView):
    throttle_classes = [JoinThrottle]

    @extend_schema(request=inputs.JoinInput, responses={201: outputs.TicketOut})
    def post(self, request: Request) -> Response:
        data = valid(inputs.JoinInput, request)
        ticket = lobby.seat_join(code=data["code"], name=data["name"])
        return Response(_ticket(ticket), status=status.HTTP_201_CREATED)


class TournamentDetailView(ApiView):
    @extend_schema(responses=outputs.TournamentOut)
    def get(self, request: Request, tournament_id: int) -> Response:
        return _view(tournament_id, request)


class TournamentBotsView(ApiView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=inputs.BotsInput, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = valid(inputs.BotsInput, request)
        lobby.seat_add_bots(
            tournament_id=tournament_id,
            seat=actor(request),
            count=data["count"],
            level=data["level"],
        )
        return _view(tournament_id, request)


class TournamentStartView(ApiView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=None, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        start.tournament_start(tournament_id=tournament_id, seat=actor(request))
        return _view(tournament_id, request)


class TournamentLeaveView(ApiView):
    """A seat other than the host leaves the lobby (its token stops working); in a running
    tournament a bot plays the seat until its owner takes it back (`reclaim/`)."""

    throttle_classes = [ActionThrottle]

    @extend_schema(request=None, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        lobby.seat_leave(tournament_id=tournament_id, seat=caller(request))
        return Response(tournament_view_of(tournament_id=tournament_id, viewer=SPECTATOR))


class TournamentReclaimView(ApiView):
    """The owner of a dropped seat (played by a bot) takes it back with its token."""

    throttle_classes = [ActionThrottle]

    @extend_schema(request=None, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        lobby.seat_reclaim(tournament_id=tournament_id, seat=caller(request))
        return _view(tournament_id, request)


class TournamentAdviceView(ApiView):
    @extend_schema(
        responses=outputs.AdviceOut,
        summary="Draft advice: each choice's estimated chance to win",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        """For your seat's current options or display, each choice's estimated probability of
        winning your next match, by practice matches on the engine against a model of your next
        rival built from public facts only (`sample_size` matches each). Refused with 403
        `advice_not_allowed` when the tournament does not allow advice."""
        return Response(draft_advice(tournament_id=tournament_id, seat=caller(request)))


class TournamentKickView(ApiView):
    """The host removes a seat (a player or a bot) from the lobby."""

    throttle_classes = [ActionThrottle]

    @extend_schema(request=inputs.KickInput, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = valid(inputs.KickInput, request)
        lobby.seat_kick(tournament_id=tournament_id, seat=actor(request), number=data["seat"])
        return _view(tournament_id, request)


class TournamentCancelView(ApiView):
    """The host cancels the tournament, in the lobby or while it runs."""

    throttle_classes = [ActionThrottle]

    @extend_schema(request=None, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        lobby.tournament_cancel(tournament_id=tournament_id, seat=actor(request))
        return _view(tournament_id, request)


class SeatSettingsView(ApiView):
    throttle_classes = [ActionThrottle]

    @extend_schema(request=inputs.SeatSettingsInput, responses=outputs.TournamentOut)
    def patch(self, request: Request, tournament_id: int) -> Response:
        data = valid(inputs.SeatSettingsInput, request)
        lobby.seat_settings(
            tournament_id=tournament_id, seat=caller(request), answers_live=data["answers_live"]
        )
        return _view(tournament_id, request)


def _deck_action(action: str, body: type[serializers.Serializer] | None) -> type[ApiView]:
    """A view for one Deck Phase action; its body fields become the action's arguments."""

    class DeckActionView(ApiView):
        throttle_classes = [ActionThrottle]

        @extend_schema(
            request=body or inputs.VersionedInput,
            responses=outputs.TournamentOut,
            operation_id=f"tournament_deck_{action}",
        )
        def post(self, request: Request, tournament_id: int) -> Response:
            data = valid(body or inputs.VersionedInput, request)
            version = data.pop("version", None)
            seat = caller(request)  # resolved once: the action and the view that answers it
            deck.seat_act(
                tournament_id=tournament_id,
                seat=seat,
                action=action,
                expected_version=version,
                **data,
            )
            return _view(tournament_id, request, seat)

    DeckActionView.__name__ = f"Deck{action.title()}View"
    return DeckActionView


DECK_ACTIONS: dict[str, type[ApiView]] = {
    "draft/choose": _deck_action("choose", inputs.ChooseInput),
    "draft/draw": _deck_action("draw", None),
    "draft/redraw": _deck_action("redraw", None),
    "draft/pick": _deck_action("pick", inputs.PickInput),
    "draft/resolve": _deck_action("resolve", inputs.CardsInput),
    "deck/remove": _deck_action("remove", inputs.CardsInput),
    "deck/finish": _deck_action("finish", None),
}


class TournamentMatchesView(ApiView):
    @extend_schema(responses=outputs.MatchOut(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        viewer = viewer_in(caller(request), tournament_id)
        return Response(match_list_of(tournament_id=tournament_id, viewer=viewer))


class TournamentVerifyView(ApiView):
    @extend_schema(
        responses=outputs.VerifyOut,
        summary="Check a finished tournament against its revealed seed",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(fairness.tournament_verify(tournament_id=tournament_id))


class TournamentReplayView(ApiView):
    @extend_schema(
        responses=outputs.ReplayOut,
        summary="Everything needed to re-play a finished tournament (examples/verify.py)",
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(tournament_replay(tournament_id=tournament_id))
