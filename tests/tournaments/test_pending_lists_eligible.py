"""A When picked prompt lists the very cards a ``resolve`` may name (``pending.eligible``).

The web client offers only these: following the list is never refused, and a deck card the list
leaves out is refused ``not_eligible``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.play import ROUND_GUARD, Player, open_game

pytestmark = pytest.mark.django_db(transaction=True)

PROMPTS_WANTED = 3


def resolve(player: Player, you: dict[str, Any], seen: dict[str, int]) -> None:
    pending = you["turn"]["pending"]
    eligible = [card["uid"] for card in pending["eligible"]]
    seen[pending["kind"]] = seen.get(pending["kind"], 0) + 1
    if pending["kind"] == "draw_keep":
        assert pending["eligible"] == pending["offered"] and not pending["optional"]
    left_out = [card["uid"] for card in you["deck"] if card["uid"] not in eligible]
    if pending["kind"] != "draw_keep" and left_out and len(eligible) >= pending["count"] - 1:
        wrong = [left_out[0], *eligible][: pending["count"]]
        refused = player.post("draft/resolve", {"cards": wrong}, status=409)
        assert refused["code"] == "not_eligible", refused
        seen["refused"] = seen.get("refused", 0) + 1
    if len(eligible) < pending["count"]:
        assert pending["optional"], pending  # nothing can pay: it must be declinable
        answer: list[int] = []
    else:
        answer = eligible[: pending["count"]]
    player.post("draft/resolve", {"cards": answer, "version": you["version"]})


def play(player: Player, seen: dict[str, int]) -> None:
    for _ in range(ROUND_GUARD):
        view = player.get()
        if view["status"] == "finished":
            return
        if "resolve" in view["you"]["actions"]:
            resolve(player, view["you"], seen)
        elif not player.act():
            raise AssertionError(f"stuck: {view['status']}")


def test_following_pending_eligible_is_never_refused(catalogue: Any) -> None:
    seen: dict[str, int] = {}
    for seed in range(40):
        (host,) = open_game(seats=2, seed=seed)
        play(host, seen)
        if sum(seen.values()) >= PROMPTS_WANTED and seen.get("refused"):
            break
    assert sum(seen.values()) >= PROMPTS_WANTED, seen
    assert seen.get("refused"), f"a card the list leaves out was tried and refused: {seen}"
