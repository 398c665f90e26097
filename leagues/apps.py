from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaguesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leagues"
    verbose_name = _("Leagues")

    def ready(self) -> None:
        from leagues.services.leagues import organizes_league_of
        from tournaments.services.lobby import CO_HOSTS

        CO_HOSTS.append(organizes_league_of)
