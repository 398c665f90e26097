from django.apps import AppConfig


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.leagues"
    label = "leagues"

    def ready(self) -> None:
        from config.openapi import register_operations
        from tournaments.leagues.api.schema import OPERATIONS

        register_operations(OPERATIONS)
