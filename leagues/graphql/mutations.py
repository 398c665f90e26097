"""Every league action as a mutation, made from its one declaration
(``leagues.actions``, as the REST league views are): the same input checks, service
calls and refusals; the mutations whose REST views are throttled take the same scope's budget."""

from __future__ import annotations

import strawberry

from apikit.actions import mutation
from leagues import organizing_actions
from leagues.actions import ACTIONS

Mutation = strawberry.type(
    type(
        "Mutation",
        (),
        {action.name: mutation(action) for action in (*ACTIONS, *organizing_actions.ACTIONS)},
    )
)
