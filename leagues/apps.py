from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from apikit.openapi import register_operations
        from leagues.api import organizing_schema
        from leagues.api.schema import OPERATIONS
        from leagues.services.leagues import organizes_league_of
        from tournaments.services.lobby import CO_HOSTS

        register_operations(OPERATIONS)
        register_operations(organizing_schema.OPERATIONS)
        CO_HOSTS.append(organizes_league_of)
