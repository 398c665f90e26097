"""The tournament's GraphQL: queries, mutations and subscriptions.

They run over the same selectors and services as the REST API (``tournaments.api``) and the stream
(``tournaments.consumers``).
"""
