"""The catalogue's history: an admin edit, a Retire, a Restore, a Release and a load are each
recorded with the fields' old and new values, their author and their reason, and shown on the
row's History page; frozen snapshots are browsable and never editable."""

from __future__ import annotations

import itertools
import re

from django.test import Client

from cards.catalogue import LoadReport, catalogue_load
from cards.models import Card, CardSet, CardSnapshot
from cards.snapshots import snapshot_take
from tests.cards.test_admin import _post_card


def _submarine() -> Card:
    return Card.objects.get(card_set__name="Shipwreck", name="Submarine")


def _changes(card: Card) -> list[tuple[str, list[tuple[str, object, object]], str | None]]:
    """Each record, newest first: its reason, each changed field with old and new value, author."""
    records = list(card.history.order_by("-history_id"))
    found = []
    for newer, older in itertools.pairwise(records):
        delta = newer.diff_against(older)
        fields = [(change.field, change.old, change.new) for change in delta.changes]
        user = newer.history_user.get_username() if newer.history_user else None
        found.append((newer.history_change_reason or "", fields, user))
    return found


def test_an_admin_edit_is_recorded_with_its_values_and_shown(
    admin_client: Client, catalogue: LoadReport
) -> None:
    submarine = _submarine()
    _post_card(admin_client, submarine)  # a first save: the version before the edit
    response = _post_card(admin_client, submarine, power=8)
    assert response.status_code == 302
    reason, fields, user = _changes(_submarine())[0]
    assert fields == [("power", 9, 8)] and (reason, user) == ("", "admin")
    page = admin_client.get(f"/admin/cards/card/{submarine.pk}/history/").content.decode()
    assert re.search(r"<strong>Power:</strong>\s*9\s*&nbsp;&rarr;&nbsp;&nbsp;8", page)
    assert "revert" not in page  # history is read only: an edit goes through the change page


def test_retire_restore_and_release_are_recorded(
    admin_client: Client, catalogue: LoadReport
) -> None:
    submarine = _submarine()
    for action in ("retire", "restore", "release_to_catalogue"):
        admin_client.post(
            "/admin/cards/card/", {"action": action, "_selected_action": [submarine.pk]}
        )
    records = list(_submarine().history.order_by("history_id"))
    reasons = [record.history_change_reason for record in records]
    assert reasons == ["Retired in admin", "Restored in admin", "Released to the catalogue file"]
    assert [record.retired for record in records] == [True, False, False]
    assert [record.curated for record in records] == [True, True, False]
    assert {record.history_user.get_username() for record in records} == {"admin"}
    page = admin_client.get(f"/admin/cards/card/{submarine.pk}/history/").content.decode()
    assert "Retired in admin" in page


def test_a_retire_of_a_set_and_a_load_are_recorded(
    admin_client: Client, catalogue: LoadReport
) -> None:
    castle = CardSet.objects.get(name="Castle")
    admin_client.post(
        "/admin/cards/cardset/", {"action": "retire", "_selected_action": [castle.pk]}
    )
    assert castle.history.get().history_change_reason == "Retired in admin"
    Card.objects.filter(pk=_submarine().pk).update(power=7)  # a change behind the catalogue's back
    catalogue_load()
    record = _submarine().history.latest("history_id")
    assert (record.history_change_reason, record.power) == ("load_catalogue", 9)


def test_a_frozen_snapshot_is_browsable_and_never_editable(
    admin_client: Client, catalogue: LoadReport
) -> None:
    snapshot = snapshot_take()
    listed = admin_client.get("/admin/cards/cardsnapshot/")
    assert listed.status_code == 200 and snapshot.digest[:12] in listed.content.decode()
    page = admin_client.get(f"/admin/cards/cardsnapshot/{snapshot.pk}/change/").content.decode()
    assert "Submarine" in page and 'name="_save"' not in page
    assert admin_client.get("/admin/cards/cardsnapshot/add/").status_code == 403
    deleted = admin_client.post(f"/admin/cards/cardsnapshot/{snapshot.pk}/delete/", {"post": "yes"})
    assert deleted.status_code == 403 and CardSnapshot.objects.filter(pk=snapshot.pk).exists()
