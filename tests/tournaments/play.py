"""A REST client that plays whole tournaments the way a third-party client would."""

from __future__ import annotations

from typing import Any

from rest_framework.test import APIClient

from tournaments.models import CardCopy, Pile, Tournament

ROUND_GUARD = 400


class Player:
    """One human seat driven over the REST API with a simple draft policy."""

    def __init__(self, client: APIClient, tournament_id: int, token: str) -> None:
        self.client = client
        self.id = tournament_id
        self.token = token
        self.headers = {"Authorization": f"Bearer {token}"}

    def answer_live(self, live: bool) -> None:
        """Choose whether this seat answers its cards' questions itself."""
        response = self.client.patch(
            f"/api/v1/tournaments/{self.id}/seat/",
            {"answers_live": live},
            format="json",
            headers=self.headers,
        )
        assert response.status_code == 200, response.json()

    def get(self) -> dict[str, Any]:
        response = self.client.get(f"/api/v1/tournaments/{self.id}/", headers=self.headers)
        assert response.status_code == 200, response.json()
        return response.json()

    def post(self, path: str, body: dict[str, Any] | None = None, status: int = 200) -> Any:
        response = self.client.post(
            f"/api/v1/tournaments/{self.id}/{path}/",
            body or {},
            format="json",
            headers=self.headers,
        )
        assert response.status_code == status, (path, response.json())
        return response.json()

    def act(self, round_number: int | None = None) -> bool:
        """Take the next Deck Phase step (of round ``round_number`` only, when given); ``False``
        when there is nothing to do."""
        view = self.get()
        actions = view["you"]["actions"]
        turn = view["you"]["turn"]
        if not actions or round_number not in (None, view["round"]):
            return False
        if "resolve" in actions:
            pending = turn["pending"]
            answer = [pending["offered"][0]["uid"]] if pending["kind"] == "draw_keep" else []
            if pending["kind"] == "must_remove":
                answer = self._payment(view, pending)
            self.post("draft/resolve", {"cards": answer})
        elif "choose" in actions:
            self.post("draft/choose", {"option": len(turn["options"]) - 1})
        elif "draw" in actions:
            self.post("draft/draw")
        elif "pick" in actions:
            self.post("draft/pick", {"card": turn["display"][0]["uid"]})
        else:
            self.post("deck/finish")
        return True

    def _payment(self, view: dict[str, Any], pending: dict[str, Any]) -> list[int]:
        from cards.models import Card

        for card in view["you"]["deck"]:
            set_name, name = card["card"].split("/", 1)
            power = Card.objects.get(card_set__name=set_name, name=name).power or 0
            if power >= 3 and card["card"] != pending["card"]:
                return [card["uid"]]
        return []


def create(client: APIClient, **options: Any) -> dict[str, Any]:
    body = {"name": "Host", "seats": 2, **options}
    response = client.post("/api/v1/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return dict(response.json())


def open_game(
    *, seats: int, humans: int = 1, live: bool = False, start: bool = True, **options: Any
) -> list[Player]:
    """A tournament with ``humans`` players (the host first) and bots in the other seats.

    Each player has a client of its own; ``live=False`` lets their policies answer card questions.
    """
    client = APIClient()
    ticket = create(client, seats=seats, **options)
    players = [Player(client, ticket["id"], ticket["seat"]["token"])]
    for n in range(1, humans):
        body = {"code": ticket["code"], "name": f"P{n}"}
        joined = client.post("/api/v1/tournaments/join/", body, format="json").json()
        players.append(Player(APIClient(), ticket["id"], joined["seat"]["token"]))
    for player in players:
        player.answer_live(live)
    if seats > humans:
        players[0].post("bots", {"count": seats - humans})
    if start:
        players[0].post("start")
    return players


def play_to_the_end(*, humans: int = 1, **options: Any) -> Player:
    """Start a game (bots in the other seats) and drive the humans until the end."""
    players = open_game(humans=humans, **{"seats": 2, **options})
    for _ in range(ROUND_GUARD):
        if players[0].get()["status"] == "finished":
            return players[0]
        if not any(player.act() for player in players):
            raise AssertionError(f"stuck: {players[0].get()}")
    raise AssertionError("the tournament did not end")


def card_locations(tournament: Tournament) -> list[int]:
    """Every physical card's uid, wherever it is: decks, piles, discards, out of the game."""
    uids: list[int] = [uid for seat in tournament.seats.all() for uid in seat.deck]
    for pile in Pile.objects.filter(tournament=tournament):
        uids += pile.cards + pile.discard
    return sorted(uids + list(tournament.left_game))


def all_uids(tournament: Tournament) -> list[int]:
    return sorted(CardCopy.objects.filter(tournament=tournament).values_list("uid", flat=True))
