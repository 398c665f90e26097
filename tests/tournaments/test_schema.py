"""The OpenAPI schema documents every tournament and match endpoint without a warning."""

from __future__ import annotations

from io import StringIO

import pytest
import yaml
from django.core.management import call_command

PATHS = [
    "/api/v1/tournaments/",
    "/api/v1/tournaments/join/",
    "/api/v1/tournaments/{tournament_id}/",
    "/api/v1/tournaments/{tournament_id}/bots/",
    "/api/v1/tournaments/{tournament_id}/start/",
    "/api/v1/tournaments/{tournament_id}/seat/",
    "/api/v1/tournaments/{tournament_id}/draft/choose/",
    "/api/v1/tournaments/{tournament_id}/draft/draw/",
    "/api/v1/tournaments/{tournament_id}/draft/redraw/",
    "/api/v1/tournaments/{tournament_id}/draft/pick/",
    "/api/v1/tournaments/{tournament_id}/draft/resolve/",
    "/api/v1/tournaments/{tournament_id}/deck/remove/",
    "/api/v1/tournaments/{tournament_id}/deck/finish/",
    "/api/v1/tournaments/{tournament_id}/matches/",
    "/api/v1/matches/{match_id}/",
    "/api/v1/matches/{match_id}/answer/",
    "/api/v1/matches/{match_id}/events/",
]


@pytest.mark.django_db
def test_the_schema_validates_with_no_warning_and_lists_every_endpoint() -> None:
    out = StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
    schema = yaml.safe_load(out.getvalue())
    assert set(PATHS) <= set(schema["paths"])
    tournament = schema["components"]["schemas"]["TournamentView"]["properties"]
    assert {"you", "standings", "trophies", "plan", "options", "version"} <= set(tournament)
