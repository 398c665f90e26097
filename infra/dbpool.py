"""The process's database connection pool, opened when a server starts, and one short probe.

Django creates psycopg's pool closed and opens it on the first connection a request asks for.
A probe that asks the pool directly (``/api/v1/health/``, ``/api/v1/ready/``, ``/metrics``)
would find it closed on a fresh server that nothing else has touched yet (``PoolClosed``) and
report the database down. So the serving entry points (``server.serve`` for Daphne,
``server.gunicorn`` for gunicorn) open it at start, and every probe opens it too (opening an
open pool does nothing). Tests never open it at import: the test database is chosen later.
"""

from __future__ import annotations

from django.db import connection


def open_pool() -> None:
    """Start the pool's connections in the background (no wait: a server starts even while
    PostgreSQL is down, and its readiness says so). Nothing to do without a pool (SQLite)."""
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.open(wait=False)


def select_one(timeout: float) -> None:
    """``SELECT 1`` within ``timeout`` seconds of waiting for a pooled connection; raises when
    the database does not answer (the caller logs why)."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return
    pool.open(wait=False)
    with pool.connection(timeout=timeout) as pooled:
        pooled.execute("SELECT 1")
