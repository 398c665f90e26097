from django.apps import AppConfig


class ProjectConfig(AppConfig):
    """``config`` as an app: it owns the idempotency keys (``config.models``)."""

    name = "config"
    label = "config"
    verbose_name = "Server"
    default_auto_field = "django.db.models.BigAutoField"
