"""Every league action as a mutation, made from its one declaration (``leagues.actions``).

The REST league views come from it too. So both share input checks, service calls and refusals.
Mutations whose REST views are throttled take the same scope's budget.
"""

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
