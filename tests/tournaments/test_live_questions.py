"""A human seat answers its cards' questions live; the match waits for it, or for the deadline."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from apikit.shapes import to_json
from cards.models import Card
from matches.models import Match, MatchEvent, MatchStatus
from matches.observer import SPECTATOR, Viewer, observe
from matches.selectors import ASKED, match_list
from tests.tournaments.play import Player, open_game
from tournaments.models import CardCopy, Seat, TournamentEvent
from tournaments.selectors.cards import _facts_of_tournament
from tournaments.services.clock import sweep_deadlines

pytestmark = pytest.mark.django_db(transaction=True)


def all_jugglers(tournament_id: int) -> None:
    """Turn the host's whole deck into Jugglers. A started tournament's cards never change in
    play, so its cached card facts are dropped by hand."""
    juggler = Card.objects.get(card_set__name="Funfair", name="Juggler")
    deck = Seat.objects.get(tournament_id=tournament_id, number=0).deck
    CardCopy.objects.filter(tournament_id=tournament_id, uid__in=deck).update(card=juggler)
    _facts_of_tournament.cache_clear()


def juggler_game() -> tuple[Player, Player, Match]:
    """Two humans; the host's deck is all Jugglers, so its first reveal asks it to order cards."""
    host, guest = open_game(seats=2, humans=2, seed=8, live=True, start=False)
    guest.answer_live(False)
    host.post("start")
    all_jugglers(host.id)
    for player in (host, guest):
        display = player.post("draft/draw")["you"]["turn"]["display"]
        player.post("draft/pick", {"card": display[0]["uid"]})
        player.post("draft/pick", {"card": display[1]["uid"]})
        player.post("deck/finish")
    return host, guest, Match.objects.get(tournament_id=host.id, round=1)


def match_of(player: Player, match: Match) -> dict[str, Any]:
    response = player.client.get(f"/api/v1/matches/{match.pk}/", headers=player.headers)
    assert response.status_code == 200
    return dict(response.json())


def answer(player: Player, match: Match, body: dict[str, Any]) -> Any:
    return player.client.post(
        f"/api/v1/matches/{match.pk}/answer/", body, format="json", headers=player.headers
    )


def test_the_match_waits_for_the_live_seat_and_shows_the_question_to_it_alone(
    catalogue: Any,
) -> None:
    host, guest, match = juggler_game()
    mine = match_of(host, match)
    assert mine["status"] == "waiting" and mine["question"]["kind"] == "arrange_top"
    assert match_of(guest, match)["question"] is None
    spectator = host.client.get(f"/api/v1/matches/{match.pk}/").json()
    assert spectator["question"] is None and spectator["winner"] is None


def test_a_wrong_seat_a_stale_question_or_a_bad_answer_is_refused(catalogue: Any) -> None:
    host, guest, match = juggler_game()
    question = match_of(host, match)["question"]
    wrong_seat = answer(guest, match, {"question": question["seq"], "answer": question["default"]})
    assert (wrong_seat.status_code, wrong_seat.json()["code"]) == (403, "not_your_question")
    guessing = answer(guest, match, {"question": question["seq"] + 5, "answer": []})
    assert (guessing.status_code, guessing.json()["code"]) == (403, "not_your_question")
    assert "pending" not in guessing.json()["details"], "the other side learns nothing"
    stale = answer(host, match, {"question": question["seq"] + 5, "answer": question["default"]})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale_question")
    bad = answer(host, match, {"question": question["seq"], "answer": [987654]})
    assert bad.status_code == 400 and bad.json()["code"]
    match.refresh_from_db()
    assert match.status == MatchStatus.WAITING and match.question["seq"] == question["seq"]  # type: ignore[index]


def test_an_answer_resumes_the_match_and_is_kept_in_its_record(catalogue: Any) -> None:
    host, _, match = juggler_game()
    question = match_of(host, match)["question"]
    chosen = list(reversed(question["options"]))
    response = answer(host, match, {"question": question["seq"], "answer": chosen})
    assert response.status_code == 200
    match.refresh_from_db()
    assert match.answers[question["seq"]] == chosen
    assert match.status in (MatchStatus.WAITING, MatchStatus.FINISHED)
    if match.status == MatchStatus.WAITING:
        assert match.question["seq"] > question["seq"]  # type: ignore[index]


def test_an_unanswered_question_is_answered_by_the_policy_at_the_deadline(catalogue: Any) -> None:
    host, _, match = juggler_game()
    first = match_of(host, match)["question"]
    Match.objects.filter(pk=match.pk).update(
        question_deadline=timezone.now() - timedelta(seconds=1)
    )
    assert host.get()["status"] == "match", "a read changes nothing: the clock enforces deadlines"
    match.refresh_from_db()
    assert match.status == MatchStatus.WAITING and match.question["seq"] == first["seq"]  # type: ignore[index]
    sweep_deadlines()  # the clock (Celery beat, or the embedded server's task thread)
    match.refresh_from_db()
    assert match.answers[first["seq"]] == first["default"]
    assert match.status != MatchStatus.WAITING or match.question["seq"] != first["seq"]  # type: ignore[index]


def test_other_matches_of_the_round_go_on_while_one_waits(catalogue: Any) -> None:
    host, *_ = open_game(seats=4, seed=8, live=True, start=False)
    host.post("start")
    all_jugglers(host.id)
    while host.act():
        pass
    statuses = dict(
        Match.objects.filter(tournament_id=host.id, round=1).values_list("park", "status")
    )
    waiting = [park for park, status in statuses.items() if status == MatchStatus.WAITING]
    assert len(waiting) == 1
    assert all(
        status == MatchStatus.FINISHED for park, status in statuses.items() if park not in waiting
    )
    assert host.get()["status"] == "match"


def test_the_cached_match_list_shows_each_viewer_its_own_and_moves_with_the_answer(
    catalogue: Any,
) -> None:
    """The match list is cached per tournament version and viewer: read in every order, each
    viewer gets only what it may see, and an answer (a new version) is seen at once."""
    host, guest, match = juggler_game()

    def listed(player: Player | None) -> dict[str, Any]:
        headers = player.headers if player else {}
        response = host.client.get(f"/api/v1/tournaments/{host.id}/matches/", headers=headers)
        assert response.status_code == 200
        return next(m for m in response.json() if m["id"] == match.pk)

    for order in ((host, guest, None), (None, guest, host), (guest, None, host)):
        for viewer in order:
            question = listed(viewer)["question"]
            assert (question is not None) == (viewer is host), (viewer, question)
    question = listed(host)["question"]
    answer(host, match, {"question": question["seq"], "answer": question["default"]})
    after = listed(host)
    assert after["question"] is None or after["question"]["seq"] != question["seq"]
    for viewer in (None, guest, host):  # what is served is what would be computed now
        seat = Seat.objects.get(tournament_id=host.id, number=0 if viewer is host else 1)
        fresh = match_list(
            tournament_id=host.id, viewer=Viewer(seat.pk, seat.number) if viewer else SPECTATOR
        )
        rendered = json.loads(JSONRenderer().render(to_json(fresh)))  # as the API renders it
        assert listed(viewer) == next(m for m in rendered if m["id"] == match.pk)


def test_everyone_learns_whom_the_match_waits_for_and_until_when(catalogue: Any) -> None:
    host, _guest, match = juggler_game()
    waiting = TournamentEvent.objects.get(tournament_id=host.id, kind="match_waiting")
    assert waiting.audience is None  # public: a spectator shows "waiting for NAME (0:13)"
    assert waiting.payload["seat"] == 0 and waiting.payload["match"] == match.pk
    match.refresh_from_db()
    assert match.question_deadline is not None
    assert waiting.payload["deadline"] == match.question_deadline.isoformat()


def test_a_waiting_match_shows_each_viewer_the_events_before_its_question(catalogue: Any) -> None:
    """The board shows the situation a question is about: the events before it are out."""
    host, guest, match = juggler_game()
    stored = list(
        MatchEvent.objects.filter(match=match).order_by("seq").values_list("payload", flat=True)
    )
    assert [event["seq"] for event in stored] == list(range(len(stored)))
    assert any(event["kind"] == "reveal" for event in stored), "the reveal that asks is out"
    asking = "A" if match.seat_a.number == 0 else "B"
    sides = {asking: host, ("B" if asking == "A" else "A"): guest, None: None}
    for side, player in sides.items():
        headers = player.headers if player else {}
        shown = host.client.get(f"/api/v1/matches/{match.pk}/", headers=headers).json()
        seen = [event for event in stored if observe(event, side) is not None]
        assert shown["status"] == "waiting" and shown["events_released"] == len(seen)
        frames = host.client.get(f"/api/v1/matches/{match.pk}/events/", headers=headers).json()
        assert [f["seq"] - 1 for f in frames if f["kind"] != "hidden"] == [e["seq"] for e in seen]


def test_a_paced_question_and_its_deadline_count_from_its_last_event_before_it(
    catalogue: Any, settings: Any
) -> None:
    settings.MATCH_EVENT_PACE_SECONDS = 0.25
    host, _guest, match = juggler_game()
    last = MatchEvent.objects.filter(match=match).order_by("-seq").first()
    assert last is not None and match.question is not None
    asked = datetime.fromisoformat(match.question[ASKED])
    assert asked == last.visible_at > timezone.now(), "asked once the events before it are out"
    seconds = host.get()["options"]["answer_deadline_seconds"]
    assert match.question_deadline == asked + timedelta(seconds=seconds)
    asking = TournamentEvent.objects.filter(
        tournament_id=host.id, kind__in=["match_question", "match_waiting"]
    )
    assert [row.visible_at for row in asking] == [asked, asked]
    assert match_of(host, match)["question"] is None, "not shown before its instant"
