"""Card statistics kept as matches are recorded equal a recount over the stored play; served by
REST, GraphQL and the admin's card page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from rest_framework.test import APIClient

from cards.models import Card
from matches.models import Match, MatchEvent
from tests.graphql.client import GraphQL
from tests.tournaments.play import play_to_the_end
from tournaments.models import CardStat
from tournaments.rules.cardstats import wilson
from tournaments.services.cardstats import card_stats_recount

pytestmark = pytest.mark.django_db(transaction=True)

FIELDS = (
    *("key", "set_name", "sets", "player", "offered", "picked", "decks", "deck_wins"),
    *("reveals", "power_total", "power_count", "effects"),
)
OTHER_SETS = ["Castle", "Funfair", "Shipwreck", "Toy Store", "University"]


def _rows() -> list[tuple[Any, ...]]:
    return sorted(CardStat.objects.values_list(*FIELDS))


@pytest.fixture
def played(catalogue: Any) -> None:
    """Seeded tournaments of humans and bots of each strength, two set combinations."""
    play_to_the_end(seats=3, seed=7)
    play_to_the_end(
        seats=4,
        humans=2,
        seed=8,
        additional_sets=["Castle", "Funfair", "Shipwreck", "Toy Store", "University"],
    )


def test_the_figures_kept_while_playing_equal_a_recount(played: None) -> None:
    kept = _rows()
    assert kept and Match.objects.filter(status="finished").count() > 20
    players = {row[3] for row in kept}
    assert {"human", "robot"} <= players and players & {"rookie", "steady", "champion"}
    assert len({row[2] for row in kept}) == 2  # two set combinations
    assert sum(row[4] for row in kept) > 0 and sum(row[5] for row in kept) > 0  # offered, picked
    assert card_stats_recount() == len(kept)
    assert _rows() == kept
    CardStat.objects.all().delete()
    call_command("card_stats_recount", stdout=None)
    assert _rows() == kept


def test_the_reveals_and_decks_agree_with_the_stored_events(played: None) -> None:
    reveals = MatchEvent.objects.filter(kind="reveal").count()
    assert sum(CardStat.objects.values_list("reveals", flat=True)) == reveals
    sides = Match.objects.filter(status="finished").count() * 2
    wins = Match.objects.filter(status="finished").count()
    decks = sum(CardStat.objects.values_list("decks", flat=True))
    deck_wins = sum(CardStat.objects.values_list("deck_wins", flat=True))
    assert decks >= sides and 0 < deck_wins < decks and deck_wins >= wins


def test_a_cards_figures_are_served_by_rest_and_graphql(played: None) -> None:
    key = CardStat.objects.order_by("-decks").values_list("key", flat=True).first()
    assert key is not None
    rest = APIClient().get(f"/api/v1/cards/{key}/stats/")
    assert rest.status_code == 200, rest.content
    body = rest.json()
    total = body["total"]
    assert body["key"] == key and total["decks"] > 0
    low, high = total["win_interval"]
    assert low <= total["win_rate"] <= high
    assert sum(row["decks"] for row in body["by_player"]) == total["decks"]
    assert sum(row["decks"] for row in body["by_sets"]) == total["decks"]
    query = "query($k: String!) { cardStats(key: $k) { key total { decks winRate winInterval } } }"
    answer = GraphQL().post(query, k=key)
    got = answer["data"]["cardStats"]
    assert got["total"] == {
        "decks": total["decks"],
        "winRate": total["win_rate"],
        "winInterval": total["win_interval"],
    }
    set_name = key.split("/")[0]
    assert APIClient().get(f"/api/v1/card-sets/{set_name}/stats/").json()["total"]["decks"] > 0


def test_an_unknown_card_is_not_found_and_an_unplayed_one_has_no_figures(catalogue: Any) -> None:
    response = APIClient().get("/api/v1/cards/Nowhere/Nobody/stats/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    quiet = APIClient().get("/api/v1/cards/Castle/Dragon/stats/")  # in the catalogue, unplayed
    assert quiet.status_code == 200
    body = quiet.json()
    assert (body["total"]["decks"], body["total"]["win_rate"], body["simulation"]) == (
        0,
        None,
        None,
    )
    assert body["by_sets"] == body["by_player"] == []


def test_the_card_page_shows_the_figures_with_a_chart(played: None, admin_client: Client) -> None:
    key = CardStat.objects.order_by("-decks").values_list("key", flat=True).first()
    assert key is not None
    set_name, name = key.split("/", 1)
    card = Card.objects.get(card_set__name=set_name, name=name)
    page = admin_client.get(f"/admin/cards/card/{card.pk}/change/").content.decode()
    assert "Figures from stored play" in page, page[:300]
    assert 'aria-label="Win rate and pick rate by player"' in page and "Win rate" in page
    listing = admin_client.get("/admin/tournaments/cardstat/?player__exact=human")
    assert listing.status_code == 200


def test_the_wilson_interval() -> None:
    assert wilson(0, 0) is None
    low, high = wilson(50, 100)  # type: ignore[misc]
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0  # type: ignore[index]
