"""A When picked prompt lists the very cards a ``resolve`` may name, and the ``box`` preset.

A client following ``pending.eligible`` (and ``pending.optional``) is never refused; a deck card
the list leaves out is refused ``not_eligible``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.graphql.client import GraphQL
from tests.tournaments.play import ROUND_GUARD, Player, open_game
from tournaments.models import Tournament
from tournaments.rules.options import ADDITIONAL_SETS

pytestmark = pytest.mark.django_db(transaction=True)

PROMPTS_WANTED = 4


def _resolve(player: Player, view: dict[str, Any], seen: dict[str, int]) -> None:
    you = view["you"]
    pending = you["turn"]["pending"]
    eligible = [card["uid"] for card in pending["eligible"]]
    if pending["kind"] == "draw_keep":
        assert pending["eligible"] == pending["offered"] and not pending["optional"]
    left_out = [c["uid"] for c in you["deck"] if c["uid"] not in eligible]
    if pending["kind"] != "draw_keep" and left_out and len(eligible) >= pending["count"] - 1:
        wrong = [left_out[0], *eligible][: pending["count"]]
        refused = player.post("draft/resolve", {"cards": wrong}, status=409)
        assert refused["code"] == "not_eligible", refused
        seen["refused"] = seen.get("refused", 0) + 1
    seen[pending["kind"]] = seen.get(pending["kind"], 0) + 1
    if len(eligible) < pending["count"]:
        assert pending["optional"], pending  # nothing can pay: it must be declinable
        answer: list[int] = []
    else:
        answer = eligible[: pending["count"]]
    player.post("draft/resolve", {"cards": answer, "version": you["version"]})


def _play(player: Player, seen: dict[str, int]) -> None:
    for _ in range(ROUND_GUARD):
        view = player.get()
        if view["status"] == "finished":
            return
        if "resolve" in view["you"]["actions"]:
            _resolve(player, view, seen)
        elif not player.act():
            raise AssertionError(f"stuck: {view['status']}")


def test_following_pending_eligible_is_never_refused(catalogue: Any) -> None:
    seen: dict[str, int] = {}
    for seed in range(40):
        (host,) = open_game(seats=2, seed=seed, box="beach_cup" if seed % 2 else None)
        _play(host, seen)
        if sum(seen.values()) >= PROMPTS_WANTED and seen.get("refused"):
            break
    assert sum(seen.values()) >= PROMPTS_WANTED, seen
    assert seen.get("refused"), f"a card the list leaves out was tried and refused: {seen}"


def test_the_beach_cup_box_preset_sets_the_basic_set_the_rules_and_its_sets(
    catalogue: Any,
) -> None:
    (host,) = open_game(seats=2, box="beach_cup", start=False)
    options = host.get()["options"]
    assert (options["basic_set"], options["beach_cup"]) == ("Rainbow", True)
    assert set(options["additional_sets"]) <= set(ADDITIONAL_SETS["beach_cup"])
    assert len(set(options["additional_sets"])) == 5
    before = Tournament.objects.count()
    refused = host.client.post(
        "/api/v1/tournaments/",
        {"name": "X", "seats": 2, "box": "beach_cup", "basic_set": "City"},
        format="json",
    )
    assert refused.status_code == 400 and "box" in refused.json()["details"], refused.json()
    assert Tournament.objects.count() == before
    created = GraphQL().data(
        'mutation { createTournament(input: {seats: 2, name: "G", box: BEACH_CUP}) {'
        " ticket { id } } }"
    )["createTournament"]["ticket"]
    tournament = Tournament.objects.get(pk=created["id"])
    assert (tournament.basic_set, tournament.beach_cup) == ("Rainbow", True)
