"""Card statistics kept as matches are recorded equal a recount over the stored play; served by
REST, GraphQL and the admin's card page."""

from __future__ import annotations

from dataclasses import asdict
from importlib import import_module
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from cards.admin import CardAdmin
from cards.models import Card
from matches.models import Match, MatchEvent
from tests.graphql.client import GraphQL
from tests.tournaments.play import play_to_the_end
from tournaments.models import CardStat
from tournaments.rules.cardstats import ALL, COUNTERS, Counts, tally_rows, wilson
from tournaments.selectors.cardstats import set_stats
from tournaments.services.cardstats import card_stats_recount, card_stats_write

pytestmark = pytest.mark.django_db(transaction=True)

FIELDS = (
    *("key", "set_name", "sets", "player", "offered", "picked", "decks", "deck_wins"),
    *("reveals", "power_total", "power_count", "effects"),
)
OTHER_SETS = ["Castle", "Funfair", "Shipwreck", "Toy Store", "University"]


def _rows() -> list[tuple[Any, ...]]:
    return sorted(CardStat.objects.values_list(*FIELDS))


def _busiest_design() -> str | None:
    designs = CardStat.objects.filter(key__contains="/", sets=ALL).order_by("-decks")
    return designs.values_list("key", flat=True).first()


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
    players = {row[3] for row in kept} - {ALL}
    assert {"human", "robot"} <= players and players & {"rookie", "steady", "champion"}
    assert len({row[2] for row in kept} - {ALL}) == 2  # two set combinations
    assert sum(row[4] for row in kept) > 0 and sum(row[5] for row in kept) > 0  # offered, picked
    assert card_stats_recount() == len(kept)
    assert _rows() == kept
    CardStat.objects.all().delete()
    call_command("card_stats_recount", stdout=None)
    assert _rows() == kept


def test_the_reveals_and_decks_agree_with_the_stored_events(played: None) -> None:
    reveals = MatchEvent.objects.filter(kind="reveal").count()
    for grain in ({"sets": ALL}, {"player": ALL}):  # each way of summing holds every count
        designs = CardStat.objects.filter(key__contains="/", **grain)
        sets = CardStat.objects.exclude(key__contains="/").filter(**grain)
        for rows in (designs, sets):
            assert sum(rows.values_list("reveals", flat=True)) == reveals
            sides = Match.objects.filter(status="finished").count() * 2
            wins = Match.objects.filter(status="finished").count()
            decks = sum(rows.values_list("decks", flat=True))
            deck_wins = sum(rows.values_list("deck_wins", flat=True))
            assert decks >= sides and 0 < deck_wins < decks and deck_wins >= wins


def test_a_sets_sample_is_its_distinct_decks_and_its_other_figures_sum_its_designs(
    played: None,
) -> None:
    for name in ("City", "Castle"):
        decks, wins = _decks_drawing_on(name)
        served = set_stats(name=name)
        assert (served.total.decks, served.total.deck_wins) == (decks, wins)
        designs = CardStat.objects.filter(set_name=name, key__startswith=f"{name}/", sets=ALL)
        assert served.total.decks < sum(designs.values_list("decks", flat=True))  # not the sum
        assert served.total.offered == sum(designs.values_list("offered", flat=True))
        combinations = served.by_sets
        assert combinations.count == len(combinations.results)  # two, on the first page
        assert sum(row.decks for row in combinations.results) == served.total.decks
    kept = _rows()
    card_stats_recount()
    assert _rows() == kept


def _decks_drawing_on(set_name: str) -> tuple[int, int]:
    """The match sides whose deck held a card of ``set_name``, and how many of them won, from
    the stored setups."""
    decks = wins = 0
    for match in Match.objects.filter(status="finished").select_related("seat_a"):
        for side, cards in match.setup["decks"].items():
            if any(key.split("/", 1)[0] == set_name for _uid, key in cards):
                decks += 1
                won = (match.winner_id == match.seat_a_id) == (side == "A")
                wins += won
    return decks, wins


def test_a_cards_figures_are_served_by_rest_and_graphql(played: None) -> None:
    key = _busiest_design()
    assert key is not None
    rest = APIClient().get(f"/api/v1/cards/{key}/stats/")
    assert rest.status_code == 200, rest.content
    body = rest.json()
    total = body["total"]
    assert body["key"] == key and total["decks"] > 0
    low, high = total["win_interval"]
    assert low <= total["win_rate"] <= high
    assert sum(row["decks"] for row in body["by_player"]) == total["decks"]
    assert sum(row["decks"] for row in body["by_sets"]["results"]) == total["decks"]
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
    assert body["by_sets"] == {"count": 0, "limit": 20, "offset": 0, "results": []}
    assert body["by_player"] == []


def test_the_card_page_shows_the_figures_with_a_chart(played: None, admin_client: Client) -> None:
    key = _busiest_design()
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


def test_the_card_list_shows_figures_and_filters_them_in_constant_queries(
    catalogue: Any, admin_client: Client
) -> None:
    won = Counts(offered=10, picked=4, decks=40, deck_wins=30)
    lost = Counts(offered=8, picked=1, decks=5, deck_wins=1)
    tally = {("Castle/Dragon", "human"): won, ("Castle/Pig", "rookie"): lost}
    card_stats_write(tally_rows(tally, "Castle+City"))

    def listing(query: str) -> tuple[str, int]:
        with CaptureQueriesContext(connection) as queries:
            response = admin_client.get(f"/admin/cards/card/{query}")
        assert response.status_code == 200
        return response.content.decode(), len(queries)

    castle, few = listing(f"?card_set__id__exact={Card.objects.get(name='Dragon').card_set_id}")
    _everything, many = listing("?retired__exact=0")  # every card: 163 rows, same queries
    assert few == many
    served = APIClient().get("/api/v1/cards/Castle/Dragon/stats/").json()["total"]
    low, high = (f"{bound * 100:.1f} %" for bound in served["win_interval"])
    assert f"75.0 % ({low} to {high}) of 40 decks" in castle  # the API's interval, one function
    assert "40.0 % of 10" in castle  # pick rate
    assert "20.0 % (" in castle and "— of 0 decks" in castle  # a card never played
    high, _count = listing("?win=high")
    assert "Dragon" in high and "Pig" not in high
    few_decks, _count = listing("?played=few")
    assert "Pig" in few_decks and "Dragon" not in few_decks
    castle_id = Card.objects.get(name="Pig").card_set_id
    column = 1 + list(CardAdmin.list_display).index("win_rate")  # after the action checkbox
    best, _count = listing(f"?o=-{column}&card_set__id__exact={castle_id}")
    worst, _count = listing(f"?o={column}&card_set__id__exact={castle_id}")
    assert best.index("Dragon") < best.index("Pig") and worst.index("Pig") < worst.index("Dragon")


def test_the_migration_sums_the_old_rows_as_the_writer_does(db: None) -> None:
    # A set's decks were its designs' sum then: the SET_ONLY counts say so here.
    tally = {
        ("Castle/Dragon", "human"): Counts(
            offered=3, picked=1, decks=4, deck_wins=2, reveals=5, set_decks=4, set_deck_wins=2
        ),
        ("Castle/Pig", "rookie"): Counts(
            decks=2, deck_wins=1, power_total=9, power_count=3, set_decks=2, set_deck_wins=1
        ),
        ("City/Dog", "human"): Counts(offered=7, effects=2),
    }
    robot = {("City/Dog", "robot"): Counts(decks=1, set_decks=1)}
    written = {"Castle+City": tally, "City+Funfair": robot}
    for sets, counts in written.items():
        card_stats_write(tally_rows(counts, sets))
    expected = _rows()
    CardStat.objects.all().delete()
    CardStat.objects.bulk_create(  # the rows as the previous version stored them
        CardStat(key=key, set_name=key.split("/")[0], sets=sets, player=player, **_stored(counts))
        for sets, counts_of in written.items()
        for (key, player), counts in counts_of.items()
    )
    import_module("tournaments.migrations.0010_card_stat_rollup").to_summed_rows(django_apps, None)
    assert _rows() == expected


def _stored(counts: Counts) -> dict[str, int]:
    return {name: value for name, value in asdict(counts).items() if name in COUNTERS}


def test_an_unknown_set_is_not_found_and_an_unplayed_one_has_zeros(catalogue: Any) -> None:
    response = APIClient().get("/api/v1/card-sets/Nowhere/stats/")
    assert (response.status_code, response.json()["code"]) == (404, "not_found")
    query = "query($n: String!) { setStats(name: $n) { set } }"
    answer = GraphQL().post(query, n="Nowhere")
    assert [error["extensions"]["code"] for error in answer["errors"]] == ["not_found"]
    quiet = APIClient().get("/api/v1/card-sets/Castle/stats/")  # in the catalogue, unplayed
    assert (quiet.status_code, quiet.json()["total"]["decks"]) == (200, 0)
