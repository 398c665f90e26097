"""gunicorn's settings for the compose stack's ``http`` service
(``gunicorn -c python:config.gunicorn config.wsgi:application``): each worker opens its
database pool once it has loaded the app, so readiness is truthful from the first probe
(``config.dbpool``). ``config.wsgi`` itself opens nothing: the tests import it."""

from __future__ import annotations

from typing import Any


def post_worker_init(worker: Any) -> None:
    from config.dbpool import open_pool

    open_pool()


# No control socket (gunicornc, gunicorn 25+): its default is under $HOME, which the image's user
# has not got (`useradd --no-create-home`): gunicorn logged "Control server error: Permission
# denied: '/home/app'" at every start. Nothing here uses gunicornc.
control_socket_disable = True
