from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from config.openapi import register_components
        from tournaments.log_shapes import TournamentEventView

        # The stream's frames (``/ws/tournaments/{id}/``): no REST operation answers with them.
        register_components(TournamentEventView)
