"""The table chat's actions, declared once (``apikit.actions``): REST's views under
``/api/v1/tournaments/{id}/chat/`` and GraphQL's mutations are made from them, so both call the
same service (``tournaments.services.chat``) and refuse alike."""

from __future__ import annotations

from apikit.actions import Call, declare, result
from infra.throttling import JoinThrottle
from tournaments import inputs
from tournaments.actions import ISSUED, ON_TOURNAMENT, TOURNAMENT, acting, actor
from tournaments.callers import chat_author_of
from tournaments.selectors.chat import message_of
from tournaments.services import chat
from tournaments.shapes import ChatMessage, ChatTicket


def _post(call: Call) -> ChatMessage:
    author = chat_author_of(call.authorization)
    said = chat.chat_post(
        tournament_id=call.data["tournament_id"], author=author, text=call.data["text"]
    )
    return message_of(said["seq"], said)


POST = declare(
    "post_chat",
    "Say something at the table: a seat, or a spectator with its chat token "
    "(`join_chat`) when the host lets spectators chat.",
    _post,
    result("message", ChatMessage, "The message as the log keeps it."),
    body=inputs.ChatInput,
    **ON_TOURNAMENT,
)


def _join(call: Call) -> ChatTicket:
    made = chat.chat_guest_join(tournament_id=call.data["tournament_id"], name=call.data["name"])
    return ChatTicket(number=made.guest.number, name=made.guest.name, token=made.token)


JOIN = declare(
    "join_chat",
    "A spectator joins the table chat by name, when the host lets spectators chat: "
    "the answer's token (shown once) lets it post.",
    _join,
    result("ticket", ChatTicket, "Your chat ticket (keep the token)."),
    body=inputs.ChatGuestInput,
    path=(TOURNAMENT,),
    throttle=JoinThrottle,
    **ISSUED,
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
