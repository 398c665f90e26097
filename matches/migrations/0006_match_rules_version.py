from django.db import migrations, models


class Migration(migrations.Migration):
    """Each match keeps the rules version it is played by. Every match stored before this
    migration was played by version 1 (a look-at effect with fewer cards fills its exhaust slot
    first), so the column is added with 1 for them; new matches get version 2 (the slots in the
    card's printed order)."""

    dependencies = [
        ("matches", "0005_match_event_counts"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="rules_version",
            field=models.PositiveSmallIntegerField(default=1),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="match",
            name="rules_version",
            field=models.PositiveSmallIntegerField(
                default=2,
                help_text="The rules version the match is played and replayed by (engine RULES_VERSIONS).",
            ),
        ),
    ]
