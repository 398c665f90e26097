"""Play a whole Challengers! tournament as one seat against bots, on the Python SDK.

    python examples/play.py [http://127.0.0.1:8000] [--seats 4] [--drop-every N]

Needs the standard library, ``websockets`` and the SDK of this checkout
(``sdk/python/challengers_client``, generated from schema/: sdk/python/README.md). It:

1. creates a tournament (you are the host, seat 0) and fills the other seats with bots;
2. starts it and follows the live stream (``/ws/tournaments/{id}/``) from the first event; when
   the connection drops, the SDK connects again with ``?after=<the last seq>`` and goes on with
   no gap (``--drop-every N`` drops it on purpose every N events, to see that happen);
3. plays each Deck Phase over REST with a simple policy (the last option, the first card of
   the display, finish) whenever a Deck Phase opens, answering a card's When picked effect with
   the cards ``pending.eligible`` offers;
4. answers each of its cards' questions with the question's own ``default``;
5. prints the champion when ``tournament_finished`` arrives.

The SDK sends every POST with an ``Idempotency-Key`` and sends it again with the same key when
no answer came: the server never does it twice. Protocol: docs/protocol.md; errors:
docs/errors.md.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any, cast

# The SDK of this checkout (sdk/python), standard library and websockets only.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "sdk" / "python"))

from challengers_client import Client, models


def play_deck_phase(api: Client, tournament: int) -> None:
    """Take Deck Phase actions until none is offered (``you.actions`` says what is possible)."""
    view = api.tournaments_retrieve(tournament)
    while (you := view["you"]) and (actions := you["actions"]):
        turn = you["turn"]
        assert turn is not None  # a Deck Phase action is offered: the turn is there
        if "resolve" in actions and turn["pending"]:  # a When picked effect waits
            view = api.tournaments_draft_resolve_create(
                tournament, {"cards": resolve(turn["pending"])}
            )
        elif "choose" in actions:
            view = api.tournaments_draft_choose_create(
                tournament, {"option": len(turn["options"]) - 1}
            )
        elif "draw" in actions:
            view = api.tournaments_draft_draw_create(tournament)
        elif "pick" in actions:
            view = api.tournaments_draft_pick_create(
                tournament, {"card": turn["display"][0]["uid"]}
            )
        else:
            view = api.tournaments_deck_finish_create(tournament)


def resolve(pending: models.Pending) -> list[int]:
    """The cards to name: keep the first card offered (``draw_keep``); decline an optional
    effect; else the first ``count`` of the cards ``eligible`` lists (any of them is taken)."""
    if pending["kind"] == "draw_keep":
        return [card["uid"] for card in pending["eligible"][: pending["count"]]]
    if pending["optional"]:
        return []
    return [card["uid"] for card in pending["eligible"][: pending["count"]]]


async def play(base: str, seats: int, drop_every: int = 0) -> str:
    host = Client(base)
    ticket = host.tournaments_create({"name": "Example", "seats": seats})
    assert ticket["seat"] is not None  # the creator holds seat 0
    tournament = ticket["id"]
    api = Client(base, token=ticket["seat"]["token"])
    print(f"Tournament {tournament}, room code {ticket['code']}, you are seat 0")
    # Note it now: the verifier checks the revealed seed against it (docs/protocol.md §15).
    print(f"Commitment {api.tournaments_retrieve(tournament)['fairness']['commitment']}")
    if seats > 1:
        api.tournaments_bots_create(tournament, {"count": seats - 1})
    api.tournaments_start_create(tournament)

    stream = api.stream(tournament)
    async for event in stream:
        # The payload per kind (docs/protocol.md §13); read here as a plain mapping.
        kind, payload = event["kind"], cast("dict[str, Any]", event["payload"] or {})
        await react(api, tournament, kind, payload)
        if kind == "tournament_finished":
            view = api.tournaments_retrieve(tournament)
            names = {seat["number"]: seat["name"] for seat in view["seats"]}
            champion = " and ".join(names[winner] for winner in payload["winners"])
            print(f"Champion: {champion} ({payload['reason']})")
            return champion
        if drop_every and event["seq"] % drop_every == 0:
            await stream.drop()
            print(f"  (stream dropped after event {event['seq']}: resuming from it)")
    raise RuntimeError("the stream ended before the tournament")


async def react(api: Client, tournament: int, kind: str, payload: dict[str, Any]) -> None:
    if kind == "deck_phase_opened":
        print(f"Round {payload['round']}: Deck Phase")
        await asyncio.to_thread(play_deck_phase, api, tournament)
    elif kind == "match_question":  # our card asks: take its default answer
        question = payload["question"]
        body: models.AnswerInput = {"question": question["seq"], "answer": question["default"]}
        await asyncio.to_thread(api.matches_answer_create, payload["match"], body)
    elif kind == "match_finished":
        print(f"  {payload['park']} park: seat {payload['winner']} wins")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("server", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--seats", type=int, default=4, help="1-8, you and the bots")
    parser.add_argument(
        "--drop-every", type=int, default=0, help="drop the stream every N events (0: never)"
    )
    arguments = parser.parse_args()
    asyncio.run(play(arguments.server, arguments.seats, arguments.drop_every))


if __name__ == "__main__":
    main()
