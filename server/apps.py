from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ServerConfig(AppConfig):
    """The root as an app: its commands (``serve``, ``export_schemas``), GraphiQL's files."""

    name = "server"
    verbose_name = _("Server")

    def ready(self) -> None:
        from apikit.openapi import Operation, register_operations

        register_operations(
            {
                ("GET", "/api/v1/health/"): Operation(
                    "Server health", "Each backend's state: `200` when all work, `503` otherwise."
                )
            }
        )
