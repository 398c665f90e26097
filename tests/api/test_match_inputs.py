"""Bad inputs to the match endpoints: answers of the wrong kind, a spectator answering, `after`."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from matches.models import Match
from tests.api.snapshot import everything
from tests.api.test_rest_bad_input import HUGE, coded
from tests.tournaments.play import Player, open_game
from tests.tournaments.test_live_questions import answer, juggler_game, match_of

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(catalogue: Any) -> tuple[Player, int]:
    """A game whose first round's match has been played; the host and that match's id."""
    (host,) = open_game(seats=2, seed=42)
    while not Match.objects.filter(tournament_id=host.id).exists():
        assert host.act()
    return host, Match.objects.get(tournament_id=host.id).pk


@pytest.fixture
def waiting(catalogue: Any) -> tuple[Player, Player, Match, dict[str, Any]]:
    """A match waiting for the host's live answer, and the pending question."""
    host, guest, match = juggler_game()
    return host, guest, match, match_of(host, match)["question"]


@pytest.mark.parametrize(
    "options",
    [[True], [False], [1.0], [[1]], [{"uid": 1}], [None], ["x" * 17], [-1], [int(HUGE)]],
    ids=["true", "false", "float", "list", "object", "null", "long-word", "negative", "huge"],
)
def test_an_answer_option_of_the_wrong_kind_is_invalid(
    waiting: tuple[Player, Player, Match, dict[str, Any]], options: list[Any]
) -> None:
    host, _, match, question = waiting
    before = everything()
    body = coded(
        answer(host, match, {"question": question["seq"], "answer": options}), 400, "invalid"
    )
    assert "answer" in body["details"]
    assert everything() == before


def test_an_answer_naming_too_many_options_is_invalid(
    waiting: tuple[Player, Player, Match, dict[str, Any]],
) -> None:
    host, _, match, question = waiting
    before = everything()
    body = {"question": question["seq"], "answer": list(range(65))}
    coded(answer(host, match, body), 400, "invalid")
    assert everything() == before


@pytest.mark.parametrize("number", ["exact", "wrong"])
def test_a_spectator_is_refused_before_learning_anything_of_the_question(
    waiting: tuple[Player, Player, Match, dict[str, Any]], number: str
) -> None:
    host, _, match, question = waiting
    spectator = Player(host.client, host.id, "")
    spectator.headers = {}
    seq = question["seq"] if number == "exact" else question["seq"] + 5
    before = everything()
    response = answer(spectator, match, {"question": seq, "answer": question["default"]})
    body = coded(response, 403, "not_your_question")
    assert str(question["seq"]) not in json.dumps(body) and "pending" not in body["details"]
    assert everything() == before


@pytest.mark.parametrize(
    "after", ["²", "-1", "1.5", "abc", "", " 1", HUGE, str(2**31), "1" * 5000, "٣"]
)
def test_a_bad_after_on_match_events_is_invalid(played: tuple[Player, int], after: str) -> None:
    host, match = played
    response = host.client.get(f"/api/v1/matches/{match}/events/", {"after": after})
    coded(response, 400, "invalid")


def test_the_largest_after_is_accepted(played: tuple[Player, int]) -> None:
    host, match = played
    response = host.client.get(f"/api/v1/matches/{match}/events/", {"after": str(2**31 - 1)})
    assert (response.status_code, response.json()) == (200, [])


@pytest.mark.parametrize("lang", ["zh-hans", "ru"])
def test_a_refused_answer_is_told_in_the_players_language(
    waiting: tuple[Player, Player, Match, dict[str, Any]], lang: str
) -> None:
    """The engine words its refusal in English; the player reads it in their language."""
    host, _, match, question = waiting
    body = {"question": question["seq"], "answer": [question["options"][0]] * 2}
    english = coded(answer(host, match, body), 400, "duplicate")["message"]
    host.headers = {**host.headers, "Accept-Language": lang}
    told = coded(answer(host, match, body), 400, "duplicate")["message"]
    assert told != english and not re.search(r"[A-Za-z]{3,}", told), told
