"""The ``seed_revealed`` events' ``seed`` as a decimal string (it was a JSON number, which a
JavaScript client rounds past 2^53): the stored rows and the archived logs alike."""

import gzip

import orjson
from django.db import migrations

KIND = "seed_revealed"


def _convert(payload, to_text):
    seed = payload.get("seed")
    if to_text and isinstance(seed, int):
        return {**payload, "seed": str(seed)}
    if not to_text and isinstance(seed, str) and seed.isdigit():
        return {**payload, "seed": int(seed)}
    return None


def _rows(apps, to_text):
    TournamentEvent = apps.get_model("tournaments", "TournamentEvent")
    for event in TournamentEvent.objects.filter(kind=KIND).only("pk", "payload").iterator():
        changed = _convert(event.payload, to_text)
        if changed is not None:
            TournamentEvent.objects.filter(pk=event.pk).update(payload=changed)


def _archives(apps, to_text):
    Archive = apps.get_model("tournaments", "TournamentEventArchive")
    for archive in Archive.objects.only("pk", "events").iterator():
        rows = orjson.loads(gzip.decompress(bytes(archive.events)))
        touched = False
        for row in rows:  # [seq, kind, audience, visible_at, payload]
            changed = _convert(row[4], to_text) if row[1] == KIND else None
            if changed is not None:
                row[4], touched = changed, True
        if touched:
            blob = gzip.compress(orjson.dumps(rows), compresslevel=6, mtime=0)
            Archive.objects.filter(pk=archive.pk).update(events=blob)


def forwards(apps, schema_editor):
    _rows(apps, True)
    _archives(apps, True)


def backwards(apps, schema_editor):
    _rows(apps, False)
    _archives(apps, False)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0014_verbose_names"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
