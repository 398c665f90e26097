"""Table chat over REST.

Reading the messages is public. The chat's actions (post, join as a spectator, mute, settings) are
views made from their declarations (``tournaments.chat_actions``). GraphQL's mutations share them.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from apikit.actions import rest_view
from apikit.openapi import operation
from apikit.shapes import Many, to_json
from infra.throttling import ActionThrottle
from tournaments import chat_actions
from tournaments.api.views import ApiView
from tournaments.selectors.chat import chat_log
from tournaments.selectors.viewers import require_tournament
from tournaments.shapes import ChatMessage


class ChatLogView(ApiView):
    """The table chat: every message (public)."""

    throttle_classes = [ActionThrottle]

    @operation(
        "Read the table chat",
        "Every message of the tournament's chat, oldest first (public, like the stream's `chat` "
        "events). A message is plain text: never render it as HTML.",
    )
    @extend_schema(responses=Many(ChatMessage))
    def get(self, request: Request, tournament_id: int) -> Response:
        require_tournament(tournament_id)  # not_found for no tournament
        return Response(to_json(chat_log(tournament_id=tournament_id)))


TournamentChatView = rest_view(
    "TournamentChatView", (chat_actions.POST, chat_actions.SETTINGS), ChatLogView
)
TournamentChatGuestView = rest_view("TournamentChatGuestView", (chat_actions.JOIN,), ApiView)
TournamentChatMuteView = rest_view("TournamentChatMuteView", (chat_actions.MUTE,), ApiView)
