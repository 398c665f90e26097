"""Balance by simulation: paired bot matches with and without a card, from the command line and
the admin (on a worker, with progress), stored next to the figures from stored play."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from cards.catalogue import LoadReport
from cards.models import Card
from cards.snapshots import snapshot_specs, snapshot_take
from tournaments.models import CardBalance
from tournaments.rules.balance import balance_trials
from tournaments.services.balance import _pools, _sets_for

DRAGON = "Castle/Dragon"


@pytest.fixture
def dragon(catalogue: LoadReport) -> Card:
    card = Card.objects.get(card_set__name="Castle", name="Dragon")
    assert card.level in ("A", "B", "C")
    return card


def test_the_command_plays_the_pairs_and_stores_the_result(dragon: Card) -> None:
    out = StringIO()
    call_command("card_balance", DRAGON, "--matches", "20", stdout=out)
    balance = CardBalance.objects.get(key=DRAGON)
    assert (balance.status, balance.done, balance.matches) == ("done", 20, 20)
    assert balance.wins_with + balance.wins_without > 0
    assert "over 20 pairs" in out.getvalue()
    simulation = APIClient().get(f"/api/v1/cards/{DRAGON}/stats/").json()["simulation"]
    assert simulation["done"] == 20
    assert simulation["difference"] == round((balance.wins_with - balance.wins_without) / 20, 4)


def test_a_starter_card_or_a_bad_count_is_refused(catalogue: LoadReport) -> None:
    with pytest.raises(CommandError, match="not_simulated"):
        call_command("card_balance", "Starter/Newcomer", "--matches", "5")
    with pytest.raises(CommandError, match="invalid"):
        call_command("card_balance", DRAGON, "--matches", "0")
    assert not CardBalance.objects.exists()


def test_the_admin_queues_a_simulation_and_the_card_page_shows_it(
    dragon: Card, admin_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    action = {"action": "simulate", "_selected_action": [dragon.pk], "matches": "10"}
    with django_capture_on_commit_callbacks(execute=True):
        response = admin_client.post("/admin/cards/card/", action)
    assert response.status_code == 302
    balance = CardBalance.objects.get(key=DRAGON)
    assert (balance.status, balance.done) == ("done", 10)  # the worker ran (tasks in process)
    page = admin_client.get(f"/admin/cards/card/{dragon.pk}/change/").content.decode()
    assert "Simulation of 10 pairs" in page
    listing = admin_client.get("/admin/tournaments/cardbalance/").content.decode()
    assert "10 of 10" in listing


def test_the_trials_are_seeded_and_pair_the_same_decks(dragon: Card) -> None:
    specs = snapshot_specs(snapshot_take().pk)
    sets = _sets_for("Castle", 3)
    assert sets[:2] == ["City", "Castle"] and len(sets) == 6
    options: dict[str, Any] = {
        "key": DRAGON,
        "specs": specs,
        "pools": _pools(sets),
        "starter": [f"Starter/{n}" for n in ("Newcomer",) * 3 + ("Talent", "Dog", "Champion")],
        "sets_in_play": sets,
        "matches": 12,
    }
    seen: list[int] = []
    first = balance_trials(**options, seed=5, progress=lambda done, _: seen.append(done))
    assert first == balance_trials(**options, seed=5)
    assert seen == [10] and first.matches == 12
