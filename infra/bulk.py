"""Appending many rows at once: ``COPY`` on PostgreSQL, ``bulk_create`` elsewhere.

Recording a match appends ~100 events to two logs. Django's bulk insert on PostgreSQL quotes every
value into the statement in Python. That is client-side binding; JSON payloads are long strings. It
cost more CPU than the engine and everything else a match does. ``COPY`` streams the same rows in
about a seventh of the time (docs/performance.md). The rows are plain appends. No ids are read back.
The caller's transaction holds them like any other write.

A block that appends many times may gather its appends (``appends_gathered``). An example is a
round's matches, each adding its events to two logs. The rows are written at the block's end,
one ``COPY`` per table. They keep the order they were appended in.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

import orjson
from django.db import connection, models

Gathered = dict[type[models.Model], list[Mapping[str, Any]]]
_gathered: ContextVar[Gathered | None] = ContextVar("gathered_appends", default=None)


@contextmanager
def appends_gathered() -> Iterator[None]:
    """Hold the block's ``append_rows`` and write them when it ends without an error.

    Each table gets one ``COPY``, with the rows in the order they were appended. An error drops
    them, as the transaction around the block rolls back. Inside the block the rows are not yet
    stored. So the block must not read them back. The log's callers keep its tail and counter in the
    tournament row instead. A nested block joins the outer one."""
    if _gathered.get() is not None:
        yield
        return
    gathered: Gathered = {}
    token = _gathered.set(gathered)
    try:
        yield
    finally:
        _gathered.reset(token)
    for model, rows in gathered.items():
        _write_rows(model, rows)


def append_rows(model: type[models.Model], rows: Sequence[Mapping[str, object]]) -> None:
    """Insert new rows of ``model``, each a ``{attname: value}`` with the same keys.

    The database assigns the primary keys. The rows are plain mappings, not model instances.
    Building ~100 instances per match cost more than writing. Inside ``appends_gathered``, they are
    written at the block's end."""
    if not rows:
        return
    gathered = _gathered.get()
    if gathered is not None:
        gathered.setdefault(model, []).extend(rows)
        return
    _write_rows(model, rows)


def _write_rows(model: type[models.Model], rows: Sequence[Mapping[str, object]]) -> None:
    if connection.vendor != "postgresql":
        model._default_manager.bulk_create([model(**row) for row in rows])
        return
    names = list(rows[0])
    by_attname = {f.attname: f for f in model._meta.concrete_fields}
    fields = [by_attname[name] for name in names]
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(f.column)) for f in fields)
    sql = f"COPY {quote(model._meta.db_table)} ({columns}) FROM STDIN"
    # COPY's text form takes JSON as text (orjson: a fifth of json's CPU; non-text keys become
    # text, as with json); psycopg adapts the other values (numbers, text, booleans, aware
    # datetimes, None) itself.
    json_at = [i for i, f in enumerate(fields) if isinstance(f, models.JSONField)]
    with connection.cursor() as cursor, cursor.cursor.copy(sql) as copy:
        for row in rows:
            values = [row[name] for name in names]
            for i in json_at:
                values[i] = orjson.dumps(values[i], option=orjson.OPT_NON_STR_KEYS).decode()
            copy.write_row(values)
