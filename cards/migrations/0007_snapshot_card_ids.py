"""Snapshot entries carry their card design's id: a tournament then finds the card it froze
even after a curator renames it or moves it to another set (before, a running tournament's next
draw failed with a KeyError on the new name). Existing snapshots get the ids of the designs
that still have the names they froze; an entry whose design was renamed since keeps none (its
tournament falls back to names, as before)."""

from __future__ import annotations

from typing import Any

from django.db import migrations


def add_ids(apps: Any, schema_editor: Any) -> None:
    card_model = apps.get_model("cards", "Card")
    snapshot_model = apps.get_model("cards", "CardSnapshot")
    ids = {
        (set_name, name): pk
        for pk, set_name, name in card_model.objects.values_list("pk", "card_set__name", "name")
    }
    for snapshot in snapshot_model.objects.iterator():
        for entry in snapshot.entries:
            found = ids.get((entry["set"], entry["name"]))
            if found is not None:
                entry.setdefault("id", found)
        snapshot.save(update_fields=["entries"])


def drop_ids(apps: Any, schema_editor: Any) -> None:
    snapshot_model = apps.get_model("cards", "CardSnapshot")
    for snapshot in snapshot_model.objects.iterator():
        for entry in snapshot.entries:
            entry.pop("id", None)
        snapshot.save(update_fields=["entries"])


class Migration(migrations.Migration):
    dependencies = [("cards", "0006_card_labels")]

    operations = [migrations.RunPython(add_ids, drop_ids)]
