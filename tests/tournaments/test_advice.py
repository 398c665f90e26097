"""The draft advisor: each choice with its chance to win, from what the seat may know only."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.tournaments.play import open_game
from tests.tournaments.test_bot_levels import outlook, tournament_table
from tournaments.models import Pile, Seat, Tournament
from tournaments.rules.bots.advice import advise
from tournaments.rules.data import draft_options
from tournaments.rules.draft import DraftTurn
from tournaments.selectors.cards import card_facts


def test_the_advisor_rates_each_option_of_a_round_with_its_sample_size() -> None:
    table = tournament_table(random.Random(3), 12)
    turn = DraftTurn(draft_options(beach_cup=False, round_number=4))
    found = advise(turn, table, outlook("steady", table, 4, 3), sims=10)
    assert found["kind"] == "option"
    assert [c["option"] for c in found["choices"]] == [0, 1]
    assert {c["text"] for c in found["choices"]} == {"2 from A", "2 from B"}
    for choice in found["choices"]:
        assert choice["sample_size"] == 10 and 0 <= choice["win_probability"] <= 1


def advice(player: Any, status: int = 200) -> dict[str, Any]:
    response = player.client.get(f"/api/v1/tournaments/{player.id}/advice/", headers=player.headers)
    assert response.status_code == status, response.json()
    return dict(response.json())


def scramble(tournament: Tournament, viewer: int) -> None:
    """Shuffle every pile and every other seat's deck, and trade their cards with the piles."""
    rng = random.Random(99)
    facts = card_facts(tournament)
    piles = {pile.level: pile for pile in Pile.objects.filter(tournament=tournament)}
    for seat in Seat.objects.filter(tournament=tournament).exclude(number=viewer):
        deck = list(seat.deck)
        for index, uid in enumerate(deck):  # each A/B/C card changes places with a pile card
            pile = piles.get(facts[uid].level)
            if pile is not None and pile.cards:
                deck[index], pile.cards[-1] = pile.cards[-1], uid
        rng.shuffle(deck)
        seat.deck = deck
        seat.save(update_fields=["deck"])
    for pile in piles.values():
        rng.shuffle(pile.cards)
        rng.shuffle(pile.discard)
        pile.save(update_fields=["cards", "discard"])


@pytest.mark.django_db(transaction=True)
@pytest.mark.timeout(600)
def test_the_advice_rates_the_display_and_ignores_hidden_cards(catalogue: Any) -> None:
    host, guest = open_game(seats=3, humans=2, seed=31)
    assert advice(host)["kind"] == "none"  # round 1: one option, nothing drawn yet
    host.post("draft/draw")
    first = advice(host)
    assert first["kind"] == "card" and first["round"] == 1 and first["rival"] is not None
    display = [card["uid"] for card in host.get()["you"]["turn"]["display"]]
    assert sorted(c["card"] for c in first["choices"]) == sorted(display)
    for choice in first["choices"]:
        assert choice["sample_size"] == 100 and 0 <= choice["win_probability"] <= 1
    scramble(Tournament.objects.get(pk=host.id), viewer=0)
    guest.post("draft/draw")  # another seat's moves change nothing either
    assert advice(host) == first


@pytest.mark.django_db(transaction=True)
def test_advice_is_refused_where_it_is_not_allowed_and_to_spectators(catalogue: Any) -> None:
    (host,) = open_game(seats=2, seed=32)
    response = host.client.get(f"/api/v1/tournaments/{host.id}/advice/")
    assert response.status_code == 403 and response.json()["code"] == "seat_required"
    Tournament.objects.filter(pk=host.id).update(advice_allowed=False)
    assert advice(host, status=403)["code"] == "advice_not_allowed"
