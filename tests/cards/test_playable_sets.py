"""A set curated in admin plays like a printed one once complete; retiring keeps history."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from cards.catalogue import LoadReport
from cards.models import Card, CardSet, CardSnapshot
from tests.tournaments.play import create, open_game, play_to_the_end
from tournaments.models import CardCopy, Status, Tournament, TournamentEvent

LAB_CARDS = (("Beaker", "A", 2, 14), ("Burner", "B", 4, 13), ("Reactor", "C", 8, 13))
FIVE = ["Test Lab", "Castle", "Film Studio", "Funfair", "Shipwreck"]
PRINTED_FIVE = [*FIVE[1:], "Outer Space"]


def _add_lab(client: Client, cards: tuple[tuple[str, str, int, int], ...] = LAB_CARDS) -> None:
    """Test Lab, added on the set's admin page with its cards as rows (as a curator would)."""
    data: dict[str, Any] = {
        **{"name": "Test Lab", "box": "base", "kind": "additional", "expected_copies": 40},
        **{"position": 99, "note": "", "cards-TOTAL_FORMS": len(cards), "cards-INITIAL_FORMS": 0},
    }
    for index, (name, level, power, copies) in enumerate(cards):
        row = {"name": name, "level": level, "power": power, "copies": copies}
        row |= {"timing": "plain", "effect_params": "{}", "confidence": "medium"}
        data |= {f"cards-{index}-{key}": value for key, value in row.items()}
    response = client.post("/admin/cards/cardset/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]


def _create(**options: Any) -> Any:
    body = {"name": "Host", "seats": 2, **options}
    return APIClient().post("/api/v1/tournaments/", body, format="json")


def _lab_row() -> dict[str, Any]:
    sets = APIClient().get("/api/v1/card-sets/").json()
    return next(row for row in sets if row["name"] == "Test Lab")


@pytest.mark.django_db(transaction=True)
def test_a_set_added_in_admin_is_offered_and_played_to_a_champion(
    admin_client: Client, catalogue: LoadReport
) -> None:
    _add_lab(admin_client)
    assert (_lab_row()["playable"], _lab_row()["missing"]) == (True, [])
    host = play_to_the_end(seats=3, seed=4, additional_sets=FIVE)
    view = host.get()
    assert view["status"] == "finished" and view["winners"]
    tournament = Tournament.objects.get(pk=view["id"])
    assert tournament.snapshot is not None
    in_snapshot = {(entry["set"], entry["name"]) for entry in tournament.snapshot.entries}
    assert {("Test Lab", name) for name, *_ in LAB_CARDS} <= in_snapshot


def test_an_incomplete_set_is_refused_naming_what_it_lacks(
    admin_client: Client, catalogue: LoadReport
) -> None:
    _add_lab(admin_client, LAB_CARDS[:2])  # no level C card: 27 of 40 copies
    response = _create(additional_sets=FIVE)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "set_incomplete"
    assert body["details"]["sets"] == {"Test Lab": ["27 of 40 copies", "no level C card"]}
    assert (_lab_row()["playable"], _lab_row()["missing"]) == (
        False,
        body["details"]["sets"]["Test Lab"],
    )
    assert not Tournament.objects.exists()


def test_the_incomplete_set_refusal_is_translated_around_its_listing(
    admin_client: Client, catalogue: LoadReport
) -> None:
    _add_lab(admin_client, LAB_CARDS[:2])
    body = {"name": "Host", "seats": 2, "additional_sets": FIVE}
    response = APIClient().post("/api/v1/tournaments/?lang=zh-hans", body, format="json")
    assert response.json()["code"] == "set_incomplete"
    listing = "Test Lab: 27 of 40 copies, no level C card"
    assert response.json()["details"]["listing"] == listing
    assert response.json()["message"] == f"并非每个系列都能使用（{listing}）。"  # noqa: RUF001
    assert not Tournament.objects.exists()


def test_an_unknown_set_is_refused_listing_the_playable_ones(catalogue: LoadReport) -> None:
    body = _create(additional_sets=["Nowhere", *FIVE[1:]]).json()
    assert (body["code"], body["details"]["sets"]) == ("unknown_set", ["Nowhere"])
    assert "Castle" in body["details"]["known"] and "Nowhere" not in body["details"]["known"]


def test_a_retired_card_stays_listed_and_leaves_new_tournaments_only(
    admin_client: Client, catalogue: LoadReport
) -> None:
    running = open_game(seats=2)[0].id
    submarine = Card.objects.get(card_set__name="Shipwreck", name="Submarine")
    action = {"action": "retire", "_selected_action": [submarine.pk]}
    assert admin_client.post("/admin/cards/card/", action).status_code == 302
    assert Card.objects.get(pk=submarine.pk).retired
    api = APIClient()
    retired = api.get("/api/v1/cards/?retired=true").json()
    assert [card["key"] for card in retired] == ["Shipwreck/Submarine"]
    in_play = api.get("/api/v1/cards/?retired=false").json()
    assert "Shipwreck/Submarine" not in {card["key"] for card in in_play}
    assert len(api.get("/api/v1/cards/").json()) == len(in_play) + 1
    old = Tournament.objects.get(pk=running).snapshot
    assert old is not None and "Shipwreck" in {entry["set"] for entry in old.entries}
    new = Tournament.objects.get(pk=open_game(seats=2)[0].id).snapshot
    assert new is not None and new.pk != old.pk
    assert ("Shipwreck", "Submarine") not in {(e["set"], e["name"]) for e in new.entries}
    assert CardSnapshot.objects.filter(pk=old.pk).exists()  # history intact
    # Shipwreck lost the Submarine's copies: it is no longer complete
    assert _create(additional_sets=PRINTED_FIVE).json()["code"] == "set_incomplete"
    restore = {"action": "restore", "_selected_action": [submarine.pk]}
    admin_client.post("/admin/cards/card/", restore)
    assert _create(additional_sets=PRINTED_FIVE).status_code == 201


def test_a_retired_set_is_refused_and_not_offered(
    admin_client: Client, catalogue: LoadReport
) -> None:
    castle = CardSet.objects.get(name="Castle")
    admin_client.post(
        "/admin/cards/cardset/", {"action": "retire", "_selected_action": [castle.pk]}
    )
    body = _create(additional_sets=PRINTED_FIVE).json()
    assert body["details"]["sets"] == {"Castle": ["the set is retired"]}
    sets = {row["name"]: row for row in APIClient().get("/api/v1/card-sets/").json()}
    assert (sets["Castle"]["retired"], sets["Castle"]["playable"]) == (True, False)
    for seed in range(8):  # the default draw never picks it
        drawn = Tournament.objects.get(pk=create(APIClient(), seed=seed)["id"]).additional_sets
        assert len(drawn) == 5 and "Castle" not in drawn


def test_staff_cancel_a_running_tournament_with_a_reason(
    admin_client: Client, catalogue: LoadReport
) -> None:
    tid = open_game(seats=2)[0].id
    action = {"action": "cancel", "_selected_action": [tid], "reason": ""}
    admin_client.post("/admin/tournaments/tournament/", action)
    assert Tournament.objects.get(pk=tid).status == Status.DECK  # no reason: nothing done
    action["reason"] = "Server maintenance"
    assert admin_client.post("/admin/tournaments/tournament/", action).status_code == 302
    assert Tournament.objects.get(pk=tid).status == Status.CANCELLED
    event = TournamentEvent.objects.filter(tournament_id=tid).order_by("seq").last()
    assert event is not None
    assert (event.kind, event.payload["reason"]) == ("tournament_cancelled", "Server maintenance")
    page = admin_client.post("/admin/tournaments/tournament/", action, follow=True)
    assert "already ended" in page.content.decode()


def test_a_retired_city_card_is_dealt_to_no_new_tournament(
    admin_client: Client, catalogue: LoadReport
) -> None:
    reporter = Card.objects.get(card_set__name="City", name="Reporter")
    admin_client.post("/admin/cards/card/", {"action": "retire", "_selected_action": [reporter.pk]})
    host = open_game(seats=2)[0]
    assert host.get()["status"] == "deck"
    assert not CardCopy.objects.filter(tournament_id=host.id, card=reporter).exists()
    assert CardCopy.objects.filter(tournament_id=host.id, card__card_set__name="City").exists()
