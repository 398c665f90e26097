from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ProjectConfig(AppConfig):
    """``config`` as an app: it owns the idempotency keys (``config.models``)."""

    name = "config"
    label = "config"
    verbose_name = _("Server")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Celery's signals feed the task metrics and carry the log ids (web and worker alike).
        from django.db.backends.signals import connection_created

        import config.celery_observe  # noqa: F401
        from config import observe

        # The database answering again is seen as it happens: a new connection (a request's,
        # a task's, the worker clock's) after a loss (config.observe).
        connection_created.connect(observe.connection_created, dispatch_uid="dependency-seen")
