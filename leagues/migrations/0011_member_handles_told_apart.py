# Written for issue 43 (a data migration), 2026-12-06

from django.db import migrations


def distinguish_handles(apps, schema_editor):
    """Handles that differ only in case (Ann and ann, made before this constraint) are told apart
    first: the older member keeps its handle, a later one gets " (2)", " (3)", … so the constraint
    can be made. None is merged: their results stay their own."""
    Member = apps.get_model("leagues", "Member")
    seen = set()
    for member in Member.objects.order_by("league_id", "pk"):
        key = (member.league_id, member.handle.lower())
        if key not in seen:
            seen.add(key)
            continue
        number = 2
        while True:
            suffix = f" ({number})"
            handle = member.handle[: 40 - len(suffix)] + suffix
            if (member.league_id, handle.lower()) not in seen and not Member.objects.filter(
                league_id=member.league_id, handle__iexact=handle
            ).exists():
                break
            number += 1
        member.handle = handle
        member.save(update_fields=["handle"])
        seen.add((member.league_id, handle.lower()))


class Migration(migrations.Migration):

    dependencies = [
        ('leagues', '0010_verbose_names'),
    ]

    operations = [
        migrations.RunPython(distinguish_handles, migrations.RunPython.noop),
    ]
