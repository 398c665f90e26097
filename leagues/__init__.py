"""Leagues: seasons of tournaments, members across them, standings, a rating, signed webhooks.

A Django app of its own (label ``leagues``) inside the tournaments package. It depends on the
tournaments core and never the reverse. When a round or a tournament finishes, the core queues the
task names listed in ``settings.TOURNAMENT_HOOKS`` (``tournaments.services.hooks``). This app's
tasks react to them.
"""
