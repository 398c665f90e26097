from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ServerConfig(AppConfig):
    """The root as an app: its commands (``serve``, ``export_schemas``), GraphiQL's files."""

    name = "server"
    verbose_name = _("Server")
