"""Every league action as a mutation, made from its one declaration
(``tournaments.leagues.actions``, as the REST league views are): the same input checks, service
calls and refusals; the mutations whose REST views are throttled take the same scope's budget."""

from __future__ import annotations

import strawberry

from config.actions import mutation
from tournaments.leagues import organizing_actions
from tournaments.leagues.actions import ACTIONS

Mutation = strawberry.type(
    type(
        "Mutation",
        (),
        {action.name: mutation(action) for action in (*ACTIONS, *organizing_actions.ACTIONS)},
    )
)
