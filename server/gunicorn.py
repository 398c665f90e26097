"""gunicorn's settings for the compose stack's ``http`` service.

It runs ``gunicorn -c python:server.gunicorn server.wsgi:application``.

- Each worker opens its database pool once it has loaded the app. So readiness is truthful from
  the first probe (``infra.dbpool``). ``server.wsgi`` itself opens nothing: the tests import it.
- gunicorn's own lines go through the project's ``LOGGING``, as every other process's. (That is
  its error log and an access line per request.) They are JSON with ``LOG_FORMAT=json``, with the
  same filters.
"""

from __future__ import annotations

from gunicorn import glogging

# The longest request line gunicorn reads (its most), a header line, and the headers: the proxy
# refuses longer ones first, in JSON (deploy/nginx.conf); gunicorn's own refusal is an HTML 400.
limit_request_line = 8190
limit_request_field_size = 8190
limit_request_fields = 32768

# An access line per request; the JSON line around it carries the time.
accesslog = "-"
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
logger_class = "server.gunicorn.ProjectLogger"


class ProjectLogger(glogging.Logger):
    """gunicorn's logger with no handler of its own.

    Its records go to the root logger's handlers. They are configured from ``LOGGING`` here
    too. The master process loads no Django app."""

    def setup(self, cfg: object) -> None:
        super().setup(cfg)
        from infra.logformat import configure_from_settings

        configure_from_settings()
        for log in (self.error_log, self.access_log):
            for handler in list(log.handlers):
                log.removeHandler(handler)
            log.propagate = True


def post_worker_init(worker: object) -> None:
    from infra.dbpool import open_pool

    open_pool()


# No control socket (gunicornc, gunicorn 25+): its default is under $HOME, which the image's user
# has not got (`useradd --no-create-home`): gunicorn logged "Control server error: Permission
# denied: '/home/app'" at every start. Nothing here uses gunicornc.
control_socket_disable = True
