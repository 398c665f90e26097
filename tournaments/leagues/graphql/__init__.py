"""The leagues' GraphQL: queries over ``tournaments.leagues.selectors``, its lists and mutations
made from their declarations (``tournaments.leagues.lists``, ``…actions``) as the REST views
(``tournaments.leagues.api``) are. ``config.schema`` composes them into the root
schema (nothing else imports the leagues app)."""
