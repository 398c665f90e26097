"""Appending many rows at once: ``COPY`` on PostgreSQL, ``bulk_create`` elsewhere.

Recording a match appends ~100 events to two logs. Django's bulk insert on PostgreSQL quotes every
value into the statement in Python (client-side binding; JSON payloads are long strings), which
cost more CPU than the engine and everything else a match does; ``COPY`` streams the same rows in
about a seventh of the time (docs/performance.md). The rows are plain appends: no ids are read
back, and the caller's transaction holds them like any other write.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from django.db import connection, models


def append_rows(model: type[models.Model], rows: Sequence[models.Model]) -> None:
    """Insert new ``rows`` of ``model`` (their primary keys are left to the database)."""
    if not rows:
        return
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create(rows)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(f.column)) for f in fields)
    sql = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    # COPY's text form takes JSON as text; psycopg adapts the other values (numbers, text,
    # booleans, aware datetimes, None) itself.
    convert = [json.dumps if isinstance(f, models.JSONField) else _same for f in fields]
    names = [f.attname for f in fields]
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            values = row.__dict__
            copy.write_row([to(values[name]) for to, name in zip(convert, names, strict=True)])


def _same(value: Any) -> Any:
    return value
