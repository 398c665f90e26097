"""The tournament's log holds only the kinds the server declares (``tournaments.models.LOG_KINDS``,
GraphQL's and OpenAPI's ``TournamentEventKind``): every kind a ``publish`` names is declared, and
``publish`` refuses any other before anything is written."""

from __future__ import annotations

import pytest

from tests.factories import TournamentFactory
from tests.test_docs import stream_kinds
from tournaments.enums import TournamentEventKind
from tournaments.models import LOG_KINDS, TournamentEvent
from tournaments.selectors.events import HIDDEN
from tournaments.services.events import publish


def test_every_kind_the_code_publishes_is_declared_and_no_other() -> None:
    assert stream_kinds() == {*LOG_KINDS, HIDDEN}
    assert {member.value for member in TournamentEventKind} == {*LOG_KINDS, HIDDEN}


@pytest.mark.django_db
def test_publish_refuses_a_kind_the_log_does_not_declare() -> None:
    tournament = TournamentFactory.create()
    with pytest.raises(ValueError, match="seat_waved"):
        publish(tournament, "seat_waved", {"seat": 0})
    assert not TournamentEvent.objects.filter(tournament=tournament).exists()
    assert tournament.event_seq == 0
