from django.apps import AppConfig


class ProjectConfig(AppConfig):
    """``config`` as an app: it owns the idempotency keys (``config.models``)."""

    name = "config"
    label = "config"
    verbose_name = "Server"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Celery's signals feed the task metrics and carry the log ids (web and worker alike).
        import config.celery_observe  # noqa: F401
