"""The table chat in GraphQL: ``tournamentChat(tournamentId:)`` pages the log's messages (a
connection over the selector REST's ``GET …/chat/`` reads); the chat's actions are
mutations made from their one declaration (``tournaments.chat_actions``), and its messages come
over ``tournamentEvents`` as ``chat`` events, as on the REST stream."""

from __future__ import annotations

from typing import Annotated, Any

import strawberry

from config.graphql import DEFAULT_PAGE, Connection, connection, offset_of, page_size
from tournaments.graphql.arguments import TournamentId
from tournaments.selectors.chat import chat_log
from tournaments.selectors.viewers import require_tournament


@strawberry.type(description="A table chat message: plain text, never to be rendered as HTML.")
class ChatMessage:
    seq: int = strawberry.field(description="Its number in the tournament's log.")
    seat: int | None = strawberry.field(description="The seat that said it (null: a spectator).")
    spectator: int | None = strawberry.field(
        description="The spectator that said it: its number in the chat (null: a seat)."
    )
    name: str = strawberry.field(description="Who said it.")
    text: str = strawberry.field(description="What was said (plain text).")

    @classmethod
    def of(cls, message: dict[str, Any]) -> ChatMessage:
        return cls(
            seq=message["seq"],
            seat=message.get("seat"),
            spectator=message.get("spectator"),
            name=message["name"],
            text=message["text"],
        )


@strawberry.type(description="A spectator's place in a table chat.")
class ChatTicket:
    number: int = strawberry.field(description="Your number among the chat's spectators.")
    name: str = strawberry.field(description="Your name in the chat.")
    token: str = strawberry.field(description="Your chat token: send it as `Bearer` to post.")


@strawberry.type
class ChatQuery:
    @strawberry.field(
        description="A tournament's table chat, oldest first (public, as the stream's `chat` "
        "events are)."
    )
    def tournament_chat(
        self,
        tournament_id: TournamentId,
        first: Annotated[int, strawberry.argument(description="Page size, 1-100.")] = DEFAULT_PAGE,
        after: Annotated[str | None, strawberry.argument(description="A cursor.")] = None,
    ) -> Connection[ChatMessage]:
        require_tournament(tournament_id)  # not_found for no tournament
        size, start = page_size(first), offset_of(after)
        said = chat_log(tournament_id=tournament_id)
        page = [ChatMessage.of(message) for message in said[start : start + size]]
        return connection(page, offset=start, total=len(said))
