from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from config.openapi import register_components
        from tournaments.log_shapes import TournamentEventView

        # The stream's frames (``/ws/tournaments/{id}/``): no REST operation answers with them.
        register_components(TournamentEventView)
