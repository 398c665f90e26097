"""Play a whole Challengers! tournament as one seat against bots, over the public API only.

    python examples/play.py [http://127.0.0.1:8000] [--seats 4]

Needs the standard library and ``websockets`` (``pip install websockets``). It:

1. creates a tournament (you are the host, seat 0) and fills the other seats with bots;
2. starts it and watches the live stream (``/ws/tournaments/{id}/``) from the first event;
3. plays each Deck Phase over REST with a simple policy (the last option, the first card of
   the display, finish) whenever a Deck Phase opens;
4. answers each of its cards' questions with the question's own ``default``;
5. prints the champion when ``tournament_finished`` arrives.

Every POST carries an ``Idempotency-Key``, so a request whose answer was lost is simply sent
again: the server never does it twice. Protocol: docs/protocol.md; error codes: docs/errors.md.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import urllib.error
import urllib.request
import uuid
from typing import Any

from websockets.asyncio.client import connect
from websockets.typing import Subprotocol


class Api:
    """The REST API as one seat: JSON in and out, the seat token on every request."""

    def __init__(self, base: str) -> None:
        self.base = base.rstrip("/")
        self.token: str | None = None

    def request(self, method: str, path: str, body: Any = None, key: str | None = None) -> Any:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.token:
            headers["Authorization"] = f"Bearer {self.token}"
        if key:
            headers["Idempotency-Key"] = key
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.base}/api/v1/{path}", data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return json.load(response)
        except urllib.error.HTTPError as error:  # a coded refusal: {code, message, details}
            refusal = json.load(error)
            raise RuntimeError(f"{method} {path}: {error.code} {refusal['code']}") from error

    def get(self, path: str) -> Any:
        return self.request("GET", path)

    def post(self, path: str, body: Any = None) -> Any:
        key = str(uuid.uuid4())  # one key per action: a retry with it is never done twice
        for attempt in range(3):
            try:
                return self.request("POST", path, {} if body is None else body, key)
            except urllib.error.URLError:  # no answer: send the same request again
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def play_deck_phase(api: Api, tournament: int) -> None:
    """Take Deck Phase actions until none is offered (``you.actions`` says what is possible)."""
    path = f"tournaments/{tournament}/"
    view = api.get(path)
    while actions := view["you"]["actions"]:
        turn = view["you"]["turn"]
        if "resolve" in actions:  # a When picked effect waits: answer it
            view = resolve(api, path, view, turn["pending"])
        elif "choose" in actions:
            view = api.post(path + "draft/choose/", {"option": len(turn["options"]) - 1})
        elif "draw" in actions:
            view = api.post(path + "draft/draw/")
        elif "pick" in actions:
            view = api.post(path + "draft/pick/", {"card": turn["display"][0]["uid"]})
        else:
            view = api.post(path + "deck/finish/")


def resolve(api: Api, path: str, view: dict[str, Any], pending: dict[str, Any]) -> Any:
    """Keep the first card offered; decline what may be declined; else pay with what is taken."""
    if pending["kind"] == "draw_keep":
        return api.post(path + "draft/resolve/", {"cards": [pending["offered"][0]["uid"]]})
    try:
        return api.post(path + "draft/resolve/", {"cards": []})
    except RuntimeError:  # `required`: this effect must be paid; find cards the card accepts
        pass
    deck, count = [card["uid"] for card in view["you"]["deck"]], pending["count"]
    for start in range(len(deck) - count + 1):
        try:
            return api.post(path + "draft/resolve/", {"cards": deck[start : start + count]})
        except RuntimeError:  # `not_eligible`: try the next cards of the deck
            continue
    raise RuntimeError(f"no way to resolve {pending}")


async def play(base: str, seats: int) -> str:
    api = Api(base)
    ticket = api.post("tournaments/", {"name": "Example", "seats": seats})
    api.token, tournament = ticket["seat"]["token"], ticket["id"]
    print(f"Tournament {tournament}, room code {ticket['code']}, you are seat 0")
    if seats > 1:
        api.post(f"tournaments/{tournament}/bots/", {"count": seats - 1})
    api.post(f"tournaments/{tournament}/start/")

    stream = base.replace("http", "ws", 1).rstrip("/") + f"/ws/tournaments/{tournament}/"
    # The seat token rides in the handshake's subprotocols, out of the URL and its access logs.
    protocols = [Subprotocol("challengers.v1"), Subprotocol(f"bearer.{api.token}")]
    async with connect(f"{stream}?after=0", subprotocols=protocols) as websocket:
        async for message in websocket:
            frame = json.loads(message)
            kind, payload = frame["kind"], frame["payload"]
            if kind == "deck_phase_opened":
                print(f"Round {payload['round']}: Deck Phase")
                await asyncio.to_thread(play_deck_phase, api, tournament)
            elif kind == "match_question":  # our card asks: take its default answer
                question = payload["question"]
                body = {"question": question["seq"], "answer": question["default"]}
                await asyncio.to_thread(api.post, f"matches/{payload['match']}/answer/", body)
            elif kind == "match_finished":
                print(f"  {payload['park']} park: seat {payload['winner']} wins")
            elif kind == "tournament_finished":
                view = api.get(f"tournaments/{tournament}/")
                names = {seat["number"]: seat["name"] for seat in view["seats"]}
                champion = " and ".join(names[winner] for winner in payload["winners"])
                print(f"Champion: {champion} ({payload['reason']})")
                return champion
    raise RuntimeError("the stream closed before the end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("server", nargs="?", default="http://127.0.0.1:8000")
    parser.add_argument("--seats", type=int, default=4, help="1-8, you and the bots")
    arguments = parser.parse_args()
    asyncio.run(play(arguments.server, arguments.seats))


if __name__ == "__main__":
    main()
