"""The table chat in GraphQL.

``tournamentChat(tournamentId:)`` pages the log's messages. It is a connection over the selector
behind REST's ``GET …/chat/``. The chat's actions are mutations, made from their one declaration
(``tournaments.chat_actions``). Messages come over ``tournamentEvents`` as ``chat`` events. The REST
stream sends them alike.
"""

from __future__ import annotations

from typing import Annotated

import strawberry

from apikit.graphql import DEFAULT_PAGE, connection, offset_of, page_size
from tournaments.graphql.arguments import TournamentId, tournament_number
from tournaments.graphql.types import ChatConnection
from tournaments.selectors.chat import chat_log
from tournaments.selectors.viewers import require_tournament


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
    ) -> ChatConnection:
        number = tournament_number(tournament_id)
        require_tournament(number)  # not_found for no tournament
        size, start = page_size(first), offset_of(after)
        said = chat_log(tournament_id=number)
        return connection(said[start : start + size], offset=start, total=len(said))
