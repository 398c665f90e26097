from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from django.db.models.signals import post_save, pre_save

        from apikit.openapi import register_components
        from cards.models import Card
        from tournaments.log_shapes import TournamentEventView
        from tournaments.receivers import follow_renamed_card, remember_stored_key

        pre_save.connect(remember_stored_key, sender=Card, dispatch_uid="card-stored-key")
        post_save.connect(follow_renamed_card, sender=Card, dispatch_uid="card-renamed")

        # The stream's frames (``/ws/tournaments/{id}/``): no REST operation answers with them.
        register_components(TournamentEventView)
