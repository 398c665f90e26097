"""The leagues' GraphQL.

Queries run over ``leagues.selectors.leagues``. Its lists and mutations are made from their
declarations (``leagues.lists``, ``…actions``). The REST views (``leagues.api``) are made from the
same. ``server.schema`` composes them into the root schema. Nothing else imports the leagues app.
"""
