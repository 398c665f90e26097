"""A few hot statements, with their SQL built once per model rather than once per call.

Django builds every statement anew from its query tree. That costs 0.6-2.5 ms of CPU for a lock by
key or a ``save(update_fields=…)``. Sending the same SQL through the cursor costs ~0.2 ms
(docs/performance.md, "Fourth pass"). Recording a match sends about eight such statements. So on the
paths every task takes, the SQL is cached per model and field list. Those paths are the tournament
lock, the match and its seats, and the rows a match or a bot's phase writes.

The values still go through the fields (``pre_save``, ``get_db_prep_save``). The rows read come
back through the fields' converters (``from_db_value``) into ``Model.from_db``. That is exactly
what the ORM does. ``tests/config/test_rows.py`` compares both ways on every model served here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TypeAlias, TypeVar

from django.db import connection, models

M = TypeVar("M", bound=models.Model)
Column: TypeAlias = "models.Field[object, object]"  # a concrete field, whatever its values
Converter = Callable[[object, object, object], object]


def quote(name: str | None) -> str:
    """A table's or column's name, quoted for the database (a column always has one)."""
    assert name is not None
    return str(connection.ops.quote_name(name))


def field_of(model: type[models.Model], name: str) -> Column:
    """``model``'s concrete field ``name`` (or a foreign key's attname)."""
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field), f"{model.__name__}.{name} is not a column"
    return field


def column(model: type[models.Model], name: str) -> str:
    """The quoted column of ``model``'s field ``name``."""
    return quote(field_of(model, name).column)


Conversions = list[tuple[int, list[Converter], object]]


@cache
def _converters(model: type[models.Model], names: tuple[str, ...]) -> Conversions:
    """The index and ORM converters of each of ``model``'s fields ``names`` that has any.

    The converters are ``from_db_value`` and the backend's."""
    conversions: Conversions = []
    for index, name in enumerate(names):
        col = field_of(model, name).get_col("t")
        found = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
        if found:
            conversions.append((index, found, col))
    return conversions


def converted(
    model: type[models.Model], names: tuple[str, ...], values: Sequence[object]
) -> list[object]:
    """The database values of ``model``'s fields ``names``, as the ORM would read them."""
    row = list(values)
    for index, found, col in _converters(model, names):
        for convert in found:
            row[index] = convert(row[index], col, connection)
    return row


@cache
def _attnames(model: type[models.Model]) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def columns_of(model: type[models.Model], alias: str) -> str:
    """The ``SELECT`` list of every concrete column of ``model`` under ``alias``."""
    return ", ".join(f"{alias}.{quote(f.column)}" for f in model._meta.concrete_fields)


def instance(model: type[M], alias: str, values: Sequence[object]) -> M:
    """A model instance from the values of ``columns_of(model, alias)``.

    The values are converted as the ORM would."""
    names = _attnames(model)
    return model.from_db(connection.alias, names, converted(model, names, values))


def lock_clause(*aliases: str) -> str:
    """``FOR UPDATE [OF …]`` where the database has row locks (PostgreSQL), else nothing."""
    features = connection.features
    if not features.has_select_for_update:
        return ""
    if aliases and features.has_select_for_update_of:
        return " FOR UPDATE OF " + ", ".join(aliases)
    return " FOR UPDATE"


def _pk_name(model: type[models.Model]) -> str:
    assert model._meta.pk is not None
    return model._meta.pk.attname


def locked(model: type[M], pk: object) -> M | None:
    """The row of ``model`` with primary key ``pk``, locked until the transaction ends."""
    found = locked_where(model, {_pk_name(model): pk})
    return found[0] if found else None


@cache
def _select_sql(model: type[models.Model], keys: tuple[str, ...]) -> tuple[str, list[Column]]:
    matched = _fields(model, keys)
    where = " AND ".join(f"t.{quote(f.column)} = %s" for f in matched)
    table = quote(model._meta.db_table)
    return f"SELECT {columns_of(model, 't')} FROM {table} t WHERE {where}{lock_clause()}", matched


def locked_where(model: type[M], where: dict[str, object]) -> list[M]:
    """The rows of ``model`` whose fields equal ``where``, locked until the transaction ends.

    A foreign key goes by its attname. The rows come in no particular order."""
    sql, matched = _select_sql(model, tuple(where))
    params = [
        f.get_db_prep_value(v, connection) for f, v in zip(matched, where.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return [instance(model, "t", found) for found in cursor.fetchall()]


def save_fields(obj: models.Model, names: Sequence[str] | None = None) -> None:
    """``obj.save(update_fields=names)`` without signals, for a row known to exist.

    ``names=None`` saves every field but the primary key, as ``obj.save()`` does."""
    model = type(obj)
    if names is None:
        names = [f.attname for f in model._meta.concrete_fields if not f.primary_key]
    values = {f.attname: f.pre_save(obj, False) for f in _fields(model, tuple(names))}
    update_where(model, {_pk_name(model): obj.pk}, **values)


@cache
def _fields(model: type[models.Model], names: tuple[str, ...]) -> list[Column]:
    return [field_of(model, name) for name in names]


@cache
def _update_where_sql(
    model: type[models.Model], names: tuple[str, ...], keys: tuple[str, ...]
) -> tuple[str, list[Column], list[Column]]:
    fields, matched = _fields(model, names), _fields(model, keys)
    assignments = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    where = " AND ".join(f"{quote(f.column)} = %s" for f in matched)
    return f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {where}", fields, matched


def update_where(model: type[models.Model], where: dict[str, object], **values: object) -> int:
    """``model.objects.filter(**where).update(**values)``; how many rows it changed.

    Filters are equalities on plain fields. A foreign key goes by its attname."""
    sql, fields, matched = _update_where_sql(model, tuple(values), tuple(where))
    params = [
        f.get_db_prep_save(value, connection)
        for f, value in zip(fields, values.values(), strict=True)
    ]
    params += [
        f.get_db_prep_value(value, connection)
        for f, value in zip(matched, where.values(), strict=True)
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


@cache
def _increment_sql(model: type[models.Model], name: str, key: str) -> tuple[str, Column]:
    field, matched = field_of(model, name), field_of(model, key)
    column, table = quote(field.column), quote(model._meta.db_table)
    return f"UPDATE {table} SET {column} = {column} + 1 WHERE {quote(matched.column)} = %s", matched


def increment_where(model: type[models.Model], name: str, key: str, value: object) -> int:
    """``model.objects.filter(**{key: value}).update(**{name: F(name) + 1})``; rows changed."""
    sql, matched = _increment_sql(model, name, key)
    with connection.cursor() as cursor:
        cursor.execute(sql, [matched.get_db_prep_value(value, connection)])
        return int(cursor.rowcount)


@cache
def _save_many_sql(
    model: type[models.Model], names: tuple[str, ...], count: int, vendor: str
) -> tuple[str, list[Column]]:
    fields = _fields(model, (_pk_name(model), *names))
    # PostgreSQL types a VALUES list's columns from its values: each is cast to its field's
    # type (JSON, booleans); SQLite takes the values as they are.
    if vendor == "postgresql":
        one = ", ".join(f"CAST(%s AS {f.cast_db_type(connection)})" for f in fields)
    else:
        one = ", ".join(["%s"] * len(fields))
    values = ", ".join([f"({one})"] * count)
    table = quote(model._meta.db_table)
    # A VALUES list's columns are column1, column2, … on both databases.
    assignments = ", ".join(
        f"{quote(f.column)} = v.column{index}" for index, f in enumerate(fields[1:], start=2)
    )
    where = f"{table}.{quote(fields[0].column)} = v.column1"
    return f"UPDATE {table} SET {assignments} FROM (VALUES {values}) AS v WHERE {where}", fields


def save_many(objs: Sequence[models.Model], names: Sequence[str]) -> None:
    """``save_fields(obj, names)`` for each of ``objs``, in one statement.

    The rows, of one model, must exist. One round trip serves however many rows
    (``UPDATE … FROM (VALUES …)``)."""
    if not objs:
        return
    model = type(objs[0])
    sql, fields = _save_many_sql(model, tuple(names), len(objs), connection.vendor)
    params = [
        f.get_db_prep_save(f.pre_save(obj, False), connection) for obj in objs for f in fields
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
