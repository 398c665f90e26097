"""Every tournament, match and chat action as a mutation.

Each is made from its one declaration (``tournaments.actions``, ``tournaments.chat_actions``). The
form is ``name(input: NameInput!): NamePayload!``. The input is generated from the body REST
validates. The payload carries the result, or typed ``UserError`` s with REST's codes. A refusal
changes nothing: the services refuse before they write.
"""

from __future__ import annotations

import strawberry

from apikit.actions import mutation
from tournaments import chat_actions
from tournaments.actions import ACTIONS

Mutation = strawberry.type(
    type(
        "Mutation",
        (),
        {action.name: mutation(action) for action in (*ACTIONS, *chat_actions.ACTIONS)},
    )
)
