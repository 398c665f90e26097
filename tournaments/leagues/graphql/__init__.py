"""The leagues' GraphQL: queries over ``tournaments.leagues.selectors`` and organizer mutations
over ``tournaments.leagues.services`` (``managing`` for corrections and management), as the REST
views (``tournaments.leagues.api``) call them. ``config.schema`` composes them into the root
schema (nothing else imports the leagues app)."""
