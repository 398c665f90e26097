"""A live question through GraphQL: seen by its seat alone (``pendingQuestions``, a match's
``question``), refused as REST refuses it, and answered with the ``answer`` mutation."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchStatus
from tests.api.snapshot import everything
from tests.graphql.client import ERRORS, GraphQL, edges, nodes, payload, typed
from tests.tournaments.play import Player
from tests.tournaments.test_live_questions import juggler_game

pytestmark = pytest.mark.django_db(transaction=True)

QUESTION = "seq kind cardKey options optionKeys min max prompt default deadline"
ANSWERED = f"match {{ databaseId status question {{ seq }} }} {ERRORS}"


def gql(player: Player | None) -> GraphQL:
    return GraphQL(None if player is None else f"Bearer {player.token}")


def pending(player: Player | None, tournament_id: int) -> list[dict[str, Any]]:
    fields = f"databaseId question {{ {QUESTION} }}"
    query = f"query($t: Int!) {{ pendingQuestions(tournamentId: $t) {edges(fields)} }}"
    return nodes(gql(player).data(query, t=tournament_id)["pendingQuestions"])


def rest_answer(player: Player | None, match: Match, body: dict[str, Any]) -> Any:
    headers = {} if player is None else player.headers
    return APIClient().post(
        f"/api/v1/matches/{match.pk}/answer/", body, format="json", headers=headers
    )


def test_a_question_is_shown_to_its_seat_alone_and_refused_as_rest_refuses(
    catalogue: Any,
) -> None:
    host, guest, match = juggler_game()
    mine = pending(host, host.id)
    assert [item["databaseId"] for item in mine] == [match.pk]
    question = mine[0]["question"]
    assert question["kind"] == "ARRANGE_TOP"
    assert pending(guest, host.id) == [] and pending(None, host.id) == []
    cases = [
        (guest, {"question": question["seq"], "answer": question["default"]}),
        (None, {"question": question["seq"], "answer": []}),
        (host, {"question": question["seq"] + 5, "answer": question["default"]}),
        (host, {"question": question["seq"], "answer": [987654]}),
        (host, {"question": question["seq"], "answer": [True]}),
    ]
    for player, body in cases:
        before = everything()
        expected = rest_answer(player, match, body)
        assert expected.status_code >= 400
        found = payload(gql(player), "answer", ANSWERED, matchId=match.pk, **body)
        assert everything() == before
        assert found["match"] is None
        assert found["errors"] == typed(expected.json())


def test_an_answer_resumes_the_match(catalogue: Any) -> None:
    host, _, match = juggler_game()
    question = pending(host, host.id)[0]["question"]
    chosen = list(reversed(question["options"]))
    found = payload(
        gql(host), "answer", ANSWERED, matchId=match.pk, question=question["seq"], answer=chosen
    )
    assert found["errors"] == [] and found["match"]["databaseId"] == match.pk
    match.refresh_from_db()
    assert match.answers[question["seq"]] == chosen
    assert match.status in (MatchStatus.WAITING, MatchStatus.FINISHED)
