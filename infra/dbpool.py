"""The process's database connection pool, opened when a server starts, and one short probe.

Django creates psycopg's pool closed. It opens the pool on the first connection a request asks for.
A probe asks the pool directly (``/api/v1/health/``, ``/api/v1/ready/``, ``/metrics``). On a fresh,
untouched server it would find the pool closed (``PoolClosed``). It would then report the database
down. So the serving entry points open the pool at start. They are ``server.serve`` for Daphne and
``server.gunicorn`` for gunicorn. Every probe opens it too (a no-op when open). Tests never
open it at import, since the test database is chosen later.
"""

from __future__ import annotations

from django.db import connection


def open_pool() -> None:
    """Start the pool's connections in the background, without waiting.

    A server starts even while PostgreSQL is down, and its readiness says so. Without a pool
    (SQLite) there is nothing to do."""
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.open(wait=False)


def select_one(timeout: float) -> None:
    """``SELECT 1``, waiting at most ``timeout`` seconds for a pooled connection.

    Raises when the database does not answer (the caller logs why)."""
    pool = getattr(connection, "pool", None)
    if pool is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return
    pool.open(wait=False)
    with pool.connection(timeout=timeout) as pooled:
        pooled.execute("SELECT 1")
