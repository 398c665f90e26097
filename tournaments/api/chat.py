"""Table chat over REST: read the messages, post one (a seat), mute a seat (the host)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from config.throttling import ActionThrottle
from tournaments.api import inputs, outputs
from tournaments.api.auth import actor, caller
from tournaments.api.views import ApiView, _view, valid
from tournaments.selectors.chat import chat_log
from tournaments.selectors.viewers import require_tournament
from tournaments.services import chat


class TournamentChatView(ApiView):
    """The table chat: every message (public); a seat posts one."""

    throttle_classes = [ActionThrottle]

    @extend_schema(responses=outputs.ChatMessageOut(many=True))
    def get(self, request: Request, tournament_id: int) -> Response:
        require_tournament(tournament_id)  # not_found for no tournament
        return Response(chat_log(tournament_id=tournament_id))

    @extend_schema(request=inputs.ChatInput, responses=outputs.ChatMessageOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = valid(inputs.ChatInput, request)
        said = chat.chat_post(tournament_id=tournament_id, seat=caller(request), text=data["text"])
        return Response(said)


class TournamentChatMuteView(ApiView):
    """The host mutes or unmutes a seat in the chat."""

    throttle_classes = [ActionThrottle]

    @extend_schema(request=inputs.ChatMuteInput, responses=outputs.TournamentOut)
    def post(self, request: Request, tournament_id: int) -> Response:
        data = valid(inputs.ChatMuteInput, request)
        who, number, muted = actor(request), data["seat"], data["muted"]
        chat.chat_mute(tournament_id=tournament_id, seat=who, number=number, muted=muted)
        return _view(tournament_id, request)
