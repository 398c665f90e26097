"""gunicorn's settings for the compose stack's ``http`` service
(``gunicorn -c python:config.gunicorn config.wsgi:application``): each worker opens its
database pool once it has loaded the app, so readiness is truthful from the first probe
(``config.dbpool``). ``config.wsgi`` itself opens nothing: the tests import it."""

from __future__ import annotations

from typing import Any

# The longest request line gunicorn reads (its most), a header line, and the headers: the proxy
# refuses longer ones first, in JSON (deploy/nginx.conf); gunicorn's own refusal is an HTML 400.
limit_request_line = 8190
limit_request_field_size = 8190
limit_request_fields = 32768


def post_worker_init(worker: Any) -> None:
    from config.dbpool import open_pool

    open_pool()
