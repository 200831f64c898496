"""A few hand-written statements for the per-action hot path.

Why: building ORM queries costs more Python time than the rules of an action (profiled in
bench/tournament.py). Values still go through each model field's ``get_db_prep_save``, so JSON,
datetimes and booleans are adapted exactly as the ORM would for SQLite and PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

from django.db import connections
from django.db.models import DateTimeField, JSONField, Model

# The columns game_act (and a record import) writes for each row of the append-only tables.
EVENT_COLUMNS = ("game_id", "seq", "version", "kind", "payload", "audience", "actor", "created_at")
LEDGER_COLUMNS = (
    "game_id",
    "seq",
    "debit_id",
    "credit_id",
    "amount",
    "reason",
    "memo",
    "event_seq",
    "created_at",
)
ACTION_RECORD_COLUMNS = (
    "game_id",
    "actor",
    "action_id",
    "action",
    "version_before",
    "version_after",
    "first_seq",
    "last_seq",
    "created_at",
)

# Only these need adapting; integers, strings and None go to the driver as they are.
_ADAPTED = (JSONField, DateTimeField)


@cache
def _fields(model: type[Model]) -> dict[str, Any]:
    return {f.attname: f for f in model._meta.concrete_fields}


@cache
def _statement(
    kind: str, vendor: str, model: type[Model], columns: tuple[str, ...], where: tuple[str, ...]
) -> str:
    """The SQL text of a statement shape, built once per process and database vendor."""
    ops = connections["default"].ops
    fields = _fields(model)
    table = ops.quote_name(model._meta.db_table)
    cols = [ops.quote_name(fields[c].column) for c in columns]
    conds = " AND ".join(f"{ops.quote_name(fields[c].column)} = %s" for c in where)
    if kind == "insert":
        return f"INSERT INTO {table} ({', '.join(cols)}) VALUES ({', '.join(['%s'] * len(cols))})"
    if kind == "update":
        return f"UPDATE {table} SET {', '.join(f'{c} = %s' for c in cols)} WHERE {conds}"
    lock = " FOR UPDATE" if kind == "select_for_update" else ""
    return f"SELECT {', '.join(cols)} FROM {table} WHERE {conds}{lock}"


@cache
def _adapters(model: type[Model], columns: tuple[str, ...]) -> tuple[Any, ...]:
    fields = _fields(model)
    return tuple(fields[c] if isinstance(fields[c], _ADAPTED) else None for c in columns)


def _prep_row(
    conn: Any, adapters: tuple[Any, ...], row: Sequence[Any], times: dict[Any, Any] | None = None
) -> tuple[Any, ...]:
    """A row's values as the driver takes them; ``times`` remembers adapted datetimes across rows
    (an action stamps all its rows with the same time)."""
    out = []
    for f, v in zip(adapters, row, strict=True):
        if f is None:
            out.append(v)
        elif times is not None and isinstance(f, DateTimeField):
            adapted = times.get(v, _NONE)
            if adapted is _NONE:
                adapted = times[v] = f.get_db_prep_save(v, conn)
            out.append(adapted)
        else:
            out.append(f.get_db_prep_save(v, conn))
    return tuple(out)


_NONE = object()


def insert_rows(model: type[Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """``INSERT`` many rows in one ``executemany`` (no primary keys returned)."""
    conn = connections["default"]
    cols = tuple(columns)
    adapters = _adapters(model, cols)
    times: dict[Any, Any] = {}
    prepared = [_prep_row(conn, adapters, row, times) for row in rows]
    if not prepared:
        return
    with conn.cursor() as cursor:
        cursor.executemany(_statement("insert", conn.vendor, model, cols, ()), prepared)


def update_where(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """``UPDATE … SET … WHERE a = %s AND b = %s``; returns the number of rows changed."""
    conn = connections["default"]
    cols = tuple(values)
    params = [*_prep_row(conn, _adapters(model, cols), list(values.values())), *where.values()]
    with conn.cursor() as cursor:
        cursor.execute(_statement("update", conn.vendor, model, cols, tuple(where)), params)
        return cursor.rowcount


def select_one(
    model: type[Model], columns: Sequence[str], where: dict[str, Any], for_update: bool = False
) -> tuple[Any, ...] | None:
    """One row's raw column values, or None."""
    conn = connections["default"]
    kind = "select_for_update" if for_update and conn.features.has_select_for_update else "select"
    with conn.cursor() as cursor:
        cursor.execute(
            _statement(kind, conn.vendor, model, tuple(columns), tuple(where)), list(where.values())
        )
        return cursor.fetchone()
