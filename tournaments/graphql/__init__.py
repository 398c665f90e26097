"""The tournament's GraphQL: queries, mutations and subscriptions over the same selectors and
services as the REST API (``tournaments.api``) and the stream (``tournaments.consumers``)."""
