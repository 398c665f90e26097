"""Closed seasons stay closed: ratings chain across a league's seasons, so a correction in an
earlier open season, or a recompute, that would move a closed season's results, standings or
rating changes is refused with ``season_closed`` and changes nothing."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from rest_framework.test import APIClient

from leagues.models import Correction, RatingChange, Standing
from tests.graphql.client import ERRORS, GraphQL, payload, typed
from tests.leagues.helpers import (
    bot_tournament,
    correct,
    create_organizer,
    league_with_season,
    ok,
    org,
    post,
    refused,
)
from tests.leagues.test_season import snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ADA = "Bot Ada (rookie)"


def changes_in(season: int) -> list[tuple[Any, ...]]:
    found = RatingChange.objects.filter(link__season_id=season)
    return sorted(found.values_list("link__tournament_id", "member__handle", "mu", "sigma"))


def two_seasons(client: APIClient, token: str) -> tuple[str, int, int, int]:
    """A league whose first season (open) and second (closed) were played by the same bots."""
    slug, first = league_with_season(client, token)
    early = bot_tournament(client, token, slug, first, seats=3)
    second = ok(post(client, f"leagues/{slug}/seasons/", {"name": "Summer"}, org(token)))["id"]
    bot_tournament(client, token, slug, second, seats=3)
    closing = f"leagues/{slug}/seasons/{second}/close/"
    ok(post(client, closing, {"reason": "Final"}, org(token)), 200)
    return slug, first, second, early


def test_a_correction_that_would_move_a_closed_season_is_refused(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, _, second, early = two_seasons(client, token)
    before, closed = snapshot(), changes_in(second)
    body = {"kind": "disqualify", "reason": "Rigged", "tournament": early, "member": ADA}
    response = correct(client, token, slug, **body)
    refused(response, 409, "season_closed")
    assert response.json()["details"] == {"season": second, "name": "Summer"}
    gql = GraphQL(f"Token {token}")
    answer = payload(gql, "correctResult", ERRORS, slug=slug, **{**body, "kind": "DISQUALIFY"})
    assert answer["errors"] == typed(response.json())
    assert (snapshot(), changes_in(second), Correction.objects.count()) == (before, closed, 0)

    # Reopened, the correction goes through and moves the later ratings; closed again, it stays.
    reopen = f"leagues/{slug}/seasons/{second}/reopen/"
    ok(post(client, reopen, {"reason": "Correction due"}, org(token)), 200)
    ok(correct(client, token, slug, **body))
    assert changes_in(second) != closed
    ok(post(client, f"leagues/{slug}/seasons/{second}/close/", {"reason": "x"}, org(token)), 200)


def test_a_correction_after_the_closed_season_goes_through(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, first, second, _ = two_seasons(client, token)
    later = bot_tournament(client, token, slug, first, seats=3)
    closed = changes_in(second)
    ok(correct(client, token, slug, kind="disqualify", reason="x", tournament=later, member=ADA))
    assert changes_in(second) == closed


def test_recompute_refuses_to_move_a_closed_season(catalogue: Any) -> None:
    client, token = APIClient(), create_organizer("org")
    slug, _, second, _ = two_seasons(client, token)
    out = StringIO()
    call_command("league_recompute", slug, stdout=out)  # it moves nothing: done
    assert "Replayed 2 tournaments" in out.getvalue()

    # A closed season's row that a replay would write otherwise: refused, and left as it is.
    Standing.objects.filter(season_id=second, member__handle=ADA).update(points=99)
    before = snapshot()
    with pytest.raises(CommandError, match="season_closed"):
        call_command("league_recompute", slug, stdout=StringIO())
    assert snapshot() == before
