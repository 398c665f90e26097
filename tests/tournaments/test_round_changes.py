"""A phase or round change is one commit: the first view of a new Deck Phase is final.

A client that acts at once on each fresh view (with the ``you.version`` it read) must never be
told ``409 stale`` on the first action of a Deck Phase, while the clock releases the matches and
changes the round in a worker thread of its own.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from infra.taskqueue import clear_runner
from tests.tournaments.play import Player, open_game

pytestmark = pytest.mark.django_db(transaction=True)

ROUND_CHANGES = 50
DEADLINE_SECONDS = 400


@pytest.fixture
def _quiet_runner_afterwards() -> Iterator[None]:
    yield
    clear_runner()


def _first_step(view: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """The first action the view offers, as a client following it would send it."""
    actions, turn = view["you"]["actions"], view["you"]["turn"]
    version = {"version": view["you"]["version"]}
    if "choose" in actions:
        return "draft/choose", {"option": len(turn["options"]) - 1, **version}
    if "draw" in actions:
        return "draft/draw", version
    if "pick" in actions:
        return "draft/pick", {"card": turn["display"][0]["uid"], **version}
    return "deck/finish", version


def _play_acting_at_once(player: Player, stop: float) -> int:
    """Play one tournament; act on the first view of each new Deck Phase at once. Returns the
    number of round changes acted on."""
    acted_on: set[int] = set()
    while time.monotonic() < stop:
        view = player.get()
        if view["status"] == "finished":
            return len(acted_on) - 1  # round 1's Deck Phase opened with the start, not a change
        if view["status"] != "deck" or not view["you"]["actions"]:
            continue  # poll again at once: the change is caught as soon as it commits
        if view["round"] not in acted_on:
            acted_on.add(view["round"])
            path, body = _first_step(view)
            response = player.client.post(
                f"/api/v1/tournaments/{player.id}/{path}/",
                body,
                format="json",
                headers=player.headers,
            )
            assert response.status_code == 200, (view["round"], view["you"], response.json())
            continue
        player.act()
    raise AssertionError("the tournament did not end in time")


@pytest.mark.long
@pytest.mark.usefixtures("_quiet_runner_afterwards")
def test_the_first_action_on_each_new_deck_phase_is_never_stale(
    catalogue: Any, settings: Any
) -> None:
    settings.TASK_RUNNER = "thread"  # the clock releases matches and closes rounds on its own
    settings.MATCH_EVENT_PACE_SECONDS = 0.002
    stop = time.monotonic() + DEADLINE_SECONDS
    changes, seed = 0, 100
    while changes < ROUND_CHANGES:
        (player,) = open_game(seats=3, seed=seed)
        changes += _play_acting_at_once(player, stop)
        seed += 1
    assert changes >= ROUND_CHANGES
