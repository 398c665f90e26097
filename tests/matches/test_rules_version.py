"""A match keeps the rules version it was played by: one recorded before a rule changed still
verifies, a new one plays by today's rules, and the migration gives stored matches version 1."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from matches.engine.model import RULES_VERSION, MatchResult
from matches.models import Match
from matches.services import match_store
from tests.tournaments.play import open_game
from tournaments.models import Tournament
from tournaments.services.matchruns import match_verify, run_engine

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE, ADDED = ("matches", "0005_match_event_counts"), ("matches", "0006_match_rules_version")

# The situation of rules.md's look-at Decision: B's Hacker opens with one card left under it.
DECKS = {
    "A": [[9001, "Starter/Champion"], [9002, "Starter/Talent"]],
    "B": [[9003, "Secret Base/Hacker"], [9004, "Secret Base/Hacker"]],
}


def hacker_match(park: str, **fields: Any) -> Match:
    """A scheduled match of the Hacker situation in a started two-seat tournament."""
    (host,) = open_game(seats=2, seed=31)
    tournament = Tournament.objects.get(pk=host.id)
    seat_a, seat_b = tournament.seats.order_by("number")[:2]
    setup = {
        "round": 1,
        "final": False,
        "first": "B",
        "park": "normal",
        "decks": DECKS,
        "piles": {"A": [], "B": [], "C": []},
        "trophies": {"A": 0, "B": 0},
        "fans": {"A": 0, "B": 0},
        "lost_previous": {"A": False, "B": False},
        "sets_in_play": [],
        "robot": None,
    }
    return Match.objects.create(
        tournament=tournament,
        round=7,
        park=park,
        seat_a=seat_a,
        seat_b=seat_b,
        seed=5,
        snapshot_id=tournament.snapshot_id,
        setup=setup,
        **fields,
    )


def played(match: Match) -> Match:
    """``match`` played by its seats' default answers and stored, unpaced."""
    result = run_engine(match, [])
    assert isinstance(result, MatchResult)
    match_store(match, result, now=timezone.now(), pace=0)
    match.refresh_from_db()
    return match


def test_a_new_match_is_played_and_verified_by_todays_rules(catalogue: Any) -> None:
    match = played(hacker_match("v-new"))
    assert match.rules_version == RULES_VERSION == 2
    assert match.winner_id == match.seat_b_id  # the Hacker's last card goes to the bottom
    assert match_verify(match_id=match.pk) is True


def test_a_match_recorded_under_the_old_reading_still_verifies(catalogue: Any) -> None:
    match = played(hacker_match("v-old", rules_version=1))
    assert match.winner_id == match.seat_a_id  # the Hacker's last card was exhausted
    assert match_verify(match_id=match.pk) is True
    # The version is part of what the match replays with: under today's rules it differs.
    Match.objects.filter(pk=match.pk).update(rules_version=2)
    assert match_verify(match_id=match.pk) is False


def test_the_migration_gives_matches_stored_before_it_rules_version_one(catalogue: Any) -> None:
    stored = hacker_match("v-mig")
    executor = MigrationExecutor(connection)
    try:
        executor.migrate([BEFORE])
        executor.loader.build_graph()
        executor.migrate([ADDED])
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
    assert Match.objects.get(pk=stored.pk).rules_version == 1
    assert hacker_match("v-after").rules_version == RULES_VERSION
