from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class InfraConfig(AppConfig):
    """The foundation as an app: idempotency keys, heartbeats and leases (``infra.models``).

    Its label stays ``config``, its name before the move. So its tables keep their names."""

    name = "infra"
    label = "config"
    verbose_name = _("Server")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Celery's signals feed the task metrics and carry the log ids (web and worker alike).
        from django.db.backends.signals import connection_created

        import infra.celery_observe  # noqa: F401
        from infra import observe

        # The database answering again is seen as it happens: a new connection (a request's,
        # a task's, the worker clock's) after a loss (infra.observe).
        connection_created.connect(observe.connection_created, dispatch_uid="dependency-seen")
        # A lockout of the admin login is logged and counted as it begins (infra.lockout).
        from axes.signals import user_locked_out

        from infra.lockout import report_lockout

        user_locked_out.connect(report_lockout, dispatch_uid="login-locked-out")
