"""The table chat's actions, declared once (``apikit.actions``).

REST's views and GraphQL's mutations are made from them. The views live under
``/api/v1/tournaments/{id}/chat/``. So both call the same service (``tournaments.services.chat``).
Both refuse alike.
"""

from __future__ import annotations

from apikit.actions import Call, declare, result
from apikit.openapi import Operation
from infra.throttling import JoinThrottle
from tournaments import inputs
from tournaments.actions import HOST, ISSUED, ON_TOURNAMENT, TOURNAMENT, acting, actor
from tournaments.callers import chat_author_of
from tournaments.selectors.chat import message_of
from tournaments.services import chat
from tournaments.shapes import ChatMessage, ChatTicket


def _post(call: Call) -> ChatMessage:
    author = chat_author_of(call.authorization)
    seq, said = chat.chat_post(
        tournament_id=call.data["tournament_id"], author=author, text=call.data["text"]
    )
    return message_of(seq, said)


POST = declare(
    "post_chat",
    "Say something at the table: a seat, or a spectator with its chat token "
    "(`join_chat`) when the host lets spectators chat.",
    _post,
    result("message", ChatMessage, "The message as the log keeps it."),
    body=inputs.ChatInput,
    **ON_TOURNAMENT,
    operation=Operation(
        "Say something at the table (a seat, or a spectator with its chat token)",
        "Posts `text` (whitespace collapsed, 1-280 characters) as a `chat` event of the stream; "
        "at most 5 messages per author every 10 seconds. A spectator posts with the chat token "
        "`POST …/chat/spectators/` gave it, while the host lets spectators chat.",
        {
            400: ["chat_empty", "chat_too_long"],
            403: ["wrong_tournament", "chat_closed", "chat_join_first", "chat_muted"],
            409: ["already_over"],
            429: ["chat_too_fast"],
        },
    ),
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
    operation=Operation(
        "Join the table chat as a spectator",
        "While the host lets spectators chat: a name (1-24 printable characters, no seat's or "
        "other spectator's) gets a chat token, shown once, that posts to `…/chat/` only.",
        {
            400: ["chat_bad_name"],
            403: ["chat_closed"],
            409: ["name_taken", "chat_full", "already_over"],
        },
    ),
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
    operation=Operation(
        "Mute or unmute a seat or a spectator in the chat (host)",
        "A muted author's messages are refused `chat_muted` until the host unmutes it.",
        {403: HOST, 404: ["no_such_seat"]},
    ),
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
    operation=Operation(
        "Let spectators chat, or stop them (host)",
        "Sets `spectator_chat` until the tournament ends; a `chat_settings` event tells everyone.",
        {403: HOST, 409: ["already_over"]},
    ),
)

ACTIONS = (POST, JOIN, MUTE, SETTINGS)
