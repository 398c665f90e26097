"""The leagues' GraphQL: queries over ``leagues.selectors.leagues``, its lists and mutations
made from their declarations (``leagues.lists``, ``…actions``) as the REST views
(``leagues.api``) are. ``server.schema`` composes them into the root
schema (nothing else imports the leagues app)."""
