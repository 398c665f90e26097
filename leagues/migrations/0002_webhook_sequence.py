"""Webhook events carry a per-endpoint ``sequence``: the deliveries already logged are numbered
in the order they were made (by id), and each endpoint remembers its last number."""

from typing import Any

from django.db import migrations, models


def number_deliveries(apps: Any, schema_editor: Any) -> None:
    endpoint_model = apps.get_model("leagues", "WebhookEndpoint")
    delivery_model = apps.get_model("leagues", "WebhookDelivery")
    for endpoint in endpoint_model.objects.all():
        deliveries = delivery_model.objects.filter(endpoint=endpoint).order_by("id")
        number = 0
        for number, delivery in enumerate(deliveries, start=1):
            delivery.sequence = number
            delivery.payload = {**delivery.payload, "sequence": number}
            delivery.save(update_fields=["sequence", "payload"])
        endpoint.last_sequence = number
        endpoint.save(update_fields=["last_sequence"])


class Migration(migrations.Migration):
    dependencies = [("leagues", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="webhookendpoint",
            name="last_sequence",
            field=models.PositiveIntegerField(
                default=0, help_text="The sequence number of the last event logged for it."
            ),
        ),
        migrations.AddField(
            model_name="webhookdelivery",
            name="sequence",
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.RunPython(number_deliveries, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="webhookdelivery",
            name="sequence",
            field=models.PositiveIntegerField(help_text="The event's number for its endpoint."),
        ),
        migrations.AddConstraint(
            model_name="webhookdelivery",
            constraint=models.UniqueConstraint(
                fields=("endpoint", "sequence"), name="delivery_sequence_unique"
            ),
        ),
    ]
