"""Every type, field and argument of the schema is described (introspection shows it)."""

from __future__ import annotations

from graphql import GraphQLArgument, GraphQLField, GraphQLNamedType, GraphQLObjectType

from server.schema import schema

BUILT_IN = {"String", "Int", "Float", "Boolean", "ID", "JSON", "DateTime"}


def own_types() -> list[GraphQLNamedType]:
    types = schema._schema.type_map.values()
    return [t for t in types if not t.name.startswith("__") and t.name not in BUILT_IN]


def test_every_type_field_and_argument_is_described() -> None:
    missing: list[str] = []
    for named in own_types():
        roots = ("Query", "Mutation", "Subscription")
        if not named.description and named.name not in roots:
            missing.append(named.name)
        if not isinstance(named, GraphQLObjectType):
            continue
        for name, field in named.fields.items():
            missing += undescribed(f"{named.name}.{name}", field)
    assert missing == []


def undescribed(where: str, field: GraphQLField) -> list[str]:
    found = [] if field.description else [where]
    arguments: dict[str, GraphQLArgument] = field.args
    return found + [f"{where}({n})" for n, arg in arguments.items() if not arg.description]


def test_the_schema_has_the_main_operations() -> None:
    query = schema._schema.query_type
    mutation = schema._schema.mutation_type
    subscription = schema._schema.subscription_type
    assert query is not None and mutation is not None and subscription is not None
    reads = {"cards", "cardSets", "tournament", "tournaments", "match", "matches", "advice"}
    reads |= {"tournamentChat"}
    assert reads <= set(query.fields)
    assert {"leagues", "league", "standings", "member", "corrections", "calendar"} <= set(
        query.fields
    )
    assert {"members", "webhooks", "webhookDeliveries"} <= set(query.fields)
    organizing = {"organizerAccount", "myLeagues", "organizers", "organizerChanges"}
    assert organizing | {"joinRequests", "joinRequest"} <= set(query.fields)
    assert {"tournamentEvents", "matchEvents"} == set(subscription.fields)
    deck = {"choose", "draw", "redraw", "pick", "resolve", "remove", "finish"}
    lobby = {"createTournament", "joinTournament", "addBots", "startTournament"}
    others = {"leaveTournament", "kickSeat", "cancelTournament", "seatSettings", "answer"}
    others |= {"reclaimSeat", "postChat", "joinChat", "muteChat", "chatSettings"}
    others |= {"renameTournament"}
    leagues = {
        "createLeague",
        "createSeason",
        "createMember",
        "claimMember",
        "openSeasonTournament",
        "hostSeasonTournament",
        "joinSeasonTournament",
        "createWebhook",
    }
    leagues |= {"correctResult", "renameMember", "removeMember", "reissueMemberToken"}
    leagues |= {"updateSeason", "deleteWebhook", "rotateWebhookSecret", "pingWebhook"}
    leagues |= {"retryDelivery", "scheduleStart", "checkIn", "closeSeason", "reopenSeason"}
    leagues |= {"signUpOrganizer", "updateLeague", "deleteLeague", "addOrganizer"}
    leagues |= {"removeOrganizer", "askToJoinLeague", "acceptJoinRequest", "declineJoinRequest"}
    leagues |= {"deleteSeason", "updateWebhook", "unscheduleStart"}
    leagues |= {"addEmbedSite", "removeEmbedSite"}
    assert deck | lobby | others | leagues == set(mutation.fields)


def test_every_code_a_graphql_refusal_can_carry_is_documented() -> None:
    from server.schema import LIMITS
    from tests.test_docs import backticked

    codes = {code for _, code in LIMITS} | {"invalid_query", "server_error"}
    assert sorted(codes - backticked()) == []
