"""Balance by simulation: paired bot matches with and without a card, from the command line and
the admin (on a worker, with progress), stored next to the figures from stored play."""

from __future__ import annotations

from io import StringIO
from typing import Any

import pytest
from celery.signals import task_prerun
from django.core.management import CommandError, call_command
from django.test import Client
from rest_framework.test import APIClient

from cards.catalogue import LoadReport
from cards.models import Card, CardSet
from cards.snapshots import snapshot_specs, snapshot_take
from tournaments.models import CardBalance
from tournaments.rules.balance import balance_trials
from tournaments.services.balance import _pools, _sets_for, card_balance_run

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


@pytest.mark.parametrize("pairs", ["0", "abc", "5001"])
def test_the_admin_says_why_a_pair_count_is_refused(
    dragon: Card, admin_client: Client, pairs: str
) -> None:
    """It said "No action selected." (Django's answer to any invalid action form)."""
    action = {"action": "simulate", "_selected_action": [dragon.pk], "matches": pairs}
    response = admin_client.post("/admin/cards/card/", action, follow=True)
    page = response.content.decode()
    assert "Nothing simulated: pairs" in page
    assert "No action selected" not in page
    assert not CardBalance.objects.exists()


def test_another_action_ignores_the_pair_box(dragon: Card, admin_client: Client) -> None:
    action = {"action": "retire", "_selected_action": [dragon.pk], "matches": "0"}
    admin_client.post("/admin/cards/card/", action)
    assert Card.objects.get(pk=dragon.pk).retired


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


@pytest.mark.django_db(transaction=True)
def test_the_admin_queues_every_card_before_a_worker_starts_one(
    catalogue: LoadReport, admin_client: Client
) -> None:
    """The action writes every row in one transaction and sends the tasks after it: a worker
    (here Celery, eager) never plays a simulation while the request still writes the others."""
    cards = list(Card.objects.filter(card_set__name="Castle", level__in=["A", "B", "C"])[:3])
    rows_seen: list[int] = []

    def seen(**_: Any) -> None:
        rows_seen.append(CardBalance.objects.count())

    task_prerun.connect(seen, weak=False)
    try:
        action = {"action": "simulate", "_selected_action": [c.pk for c in cards], "matches": "2"}
        response = admin_client.post("/admin/cards/card/", action)
    finally:
        task_prerun.disconnect(seen)
    assert response.status_code == 302
    assert rows_seen == [3, 3, 3]
    assert set(CardBalance.objects.values_list("status", flat=True)) == {"done"}


def test_a_card_page_reloads_itself_while_its_simulation_runs(
    dragon: Card, admin_client: Client, django_capture_on_commit_callbacks: Any
) -> None:
    action = {"action": "simulate", "_selected_action": [dragon.pk], "matches": "10"}
    with django_capture_on_commit_callbacks(execute=False) as queued:
        admin_client.post("/admin/cards/card/", action)
    assert len(queued) == 1  # the task waits for the commit
    page = admin_client.get(f"/admin/cards/card/{dragon.pk}/change/")
    assert page.headers.get("Refresh") == "3"
    assert "Simulation queued: 0 of 10 pairs played." in page.content.decode()
    assert admin_client.get("/admin/tournaments/cardbalance/").headers.get("Refresh") == "3"
    queued[0]()  # the worker plays it
    page = admin_client.get(f"/admin/cards/card/{dragon.pk}/change/")
    assert "Refresh" not in page.headers and "Simulation of 10 pairs" in page.content.decode()
    assert "Refresh" not in admin_client.get("/admin/tournaments/cardbalance/").headers


def test_a_card_of_a_retired_set_is_refused_before_queueing_with_a_message(
    dragon: Card, admin_client: Client
) -> None:
    CardSet.objects.filter(name="Castle").update(retired=True)
    action = {"action": "simulate", "_selected_action": [dragon.pk], "matches": "10"}
    answer = admin_client.post("/admin/cards/card/", action, follow=True)
    assert "Castle/Dragon: Its set Castle is retired" in answer.content.decode()
    assert not CardBalance.objects.exists()


def test_a_failed_simulation_shows_its_reason(dragon: Card, admin_client: Client) -> None:
    balance = CardBalance.objects.create(key="Castle/No such card", matches=5)
    with pytest.raises(KeyError):
        card_balance_run(balance_id=balance.pk)
    listing = admin_client.get("/admin/tournaments/cardbalance/").content.decode()
    assert "Failed after 0 of 5 pairs: KeyError" in listing
