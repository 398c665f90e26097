"""The table chat's actions, declared once (``config.actions``): REST's views under
``/api/v1/tournaments/{id}/chat/`` and GraphQL's mutations are made from them, so both call the
same service (``tournaments.services.chat``) and refuse alike."""

from __future__ import annotations

from typing import Any

from rest_framework import status

from config.actions import Action, Call, Result
from config.throttling import ActionThrottle, JoinThrottle
from tournaments.actions import TOURNAMENT, acting, actor
from tournaments.api import inputs, outputs
from tournaments.api.auth import chat_author_of
from tournaments.graphql.chat import ChatMessage, ChatTicket
from tournaments.services import chat


def _post(call: Call) -> dict[str, Any]:
    author = chat_author_of(call.authorization)
    return chat.chat_post(
        tournament_id=call.data["tournament_id"], author=author, text=call.data["text"]
    )


POST = Action(
    name="post_chat",
    description="Say something at the table: a seat, or a spectator with its chat token "
    "(`join_chat`) when the host lets spectators chat.",
    run=_post,
    result=Result(
        "message",
        ChatMessage,
        "The message as the log keeps it.",
        lambda body, _: ChatMessage.of(body),
    ),
    body=inputs.ChatInput,
    path=(TOURNAMENT,),
    throttle=ActionThrottle,
    response=outputs.ChatMessageOut,
)


def _join(call: Call) -> dict[str, Any]:
    made = chat.chat_guest_join(tournament_id=call.data["tournament_id"], name=call.data["name"])
    return {"number": made.guest.number, "name": made.guest.name, "token": made.token}


JOIN = Action(
    name="join_chat",
    description="A spectator joins the table chat by name, when the host lets spectators chat: "
    "the answer's token (shown once) lets it post.",
    run=_join,
    result=Result(
        "ticket",
        ChatTicket,
        "Your chat ticket (keep the token).",
        lambda body, _: ChatTicket(**body),
    ),
    body=inputs.ChatGuestInput,
    path=(TOURNAMENT,),
    throttle=JoinThrottle,
    status=status.HTTP_201_CREATED,
    response=outputs.ChatGuestOut,
)


def _mute(call: Call) -> None:
    data = call.data
    spectator = "spectator" in data
    chat.chat_mute(
        tournament_id=data["tournament_id"],
        seat=actor(call),
        number=data["spectator"] if spectator else data["seat"],
        muted=data["muted"],
        spectator=spectator,
    )


MUTE = acting(
    "mute_chat",
    "The host mutes or unmutes a seat or a spectator in the table chat.",
    _mute,
    inputs.ChatMuteInput,
)
SETTINGS = acting(
    "chat_settings",
    "The host lets spectators join the table chat (or stops them) until the tournament ends.",
    lambda call: chat.chat_settings(
        tournament_id=call.data["tournament_id"],
        seat=actor(call),
        spectator_chat=call.data["spectator_chat"],
    ),
    inputs.ChatSettingsInput,
    method="patch",
)

ACTIONS = (POST, JOIN, MUTE, SETTINGS)
