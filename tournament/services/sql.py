"""A few hand-written statements for the per-action hot path.

Why: building ORM queries costs more Python time than the rules of an action (profiled in
bench/tournament.py). Values still go through each model field's ``get_db_prep_save``, so datetimes and
booleans are adapted exactly as the ORM would for SQLite and PostgreSQL; JSON on SQLite is the same
document encoded by orjson. On SQLite the statements run on the driver's cursor (``_Raw``): an action's
``game_act`` went from 0.95 to 0.75 ms (median, bench/_driver.py games, docs/PERFORMANCE.md), and every
millisecond before the commit is a millisecond before any screen sees the move (issue 10).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from typing import Any

import orjson
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
def _adapters(model: type[Model], columns: tuple[str, ...], vendor: str) -> tuple[Any, ...]:
    """Per column: None (the driver takes the value as it is), a ``_JsonText`` (SQLite's JSON text,
    encoded by orjson) or the model field (its ``get_db_prep_save``)."""
    fields = _fields(model)
    out: list[Any] = []
    for c in columns:
        f = fields[c]
        if not isinstance(f, _ADAPTED):
            out.append(None)
        elif vendor == "sqlite" and isinstance(f, JSONField) and f.encoder is None:
            out.append(_JsonText(f))
        else:
            out.append(f)
    return tuple(out)


class _JsonText:
    """A JSON column on SQLite: the document ``json.dumps`` would store, encoded by orjson (several times
    faster: every action writes its flow, events and action record). The text is compact UTF-8 instead of
    ``\\u`` escapes; every reader parses it alike. SQL NULL stays NULL, and whatever orjson refuses (an
    integer beyond 64 bits) goes through the field as before."""

    __slots__ = ("field",)

    def __init__(self, field: JSONField) -> None:
        self.field = field

    def adapt(self, value: Any, conn: Any) -> Any:
        if value is None:
            return None
        try:
            return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
        except (orjson.JSONEncodeError, TypeError):
            return self.field.get_db_prep_save(value, conn)


def _prep_row(
    conn: Any, adapters: tuple[Any, ...], row: Sequence[Any], times: dict[Any, Any] | None = None
) -> tuple[Any, ...]:
    """A row's values as the driver takes them; ``times`` remembers adapted datetimes across rows
    (an action stamps all its rows with the same time)."""
    out = []
    for f, v in zip(adapters, row, strict=True):
        if f is None:
            out.append(v)
        elif type(f) is _JsonText:
            out.append(f.adapt(v, conn))
        elif times is not None and isinstance(f, DateTimeField):
            adapted = times.get(v, _NONE)
            if adapted is _NONE:
                adapted = times[v] = f.get_db_prep_save(v, conn)
            out.append(adapted)
        else:
            out.append(f.get_db_prep_save(v, conn))
    return tuple(out)


_NONE = object()


class _Raw:
    """The driver's own cursor on SQLite, where Django's cursor wrapper (its ``%s`` → ``?`` rewrite by
    regular expression, a cursor object per statement, ``executemany`` through ``itertools.tee``) cost
    more than SQLite's work for the few statements of an action. Errors still come out as Django's
    (``wrap_database_errors``); where something watches the statements (an ``execute_wrapper``, the
    debug query log) Django's own cursor is used, so they see every statement."""

    __slots__ = ("conn", "cursor", "raw")

    def __init__(self, conn: Any) -> None:
        self.conn = conn
        self.raw = conn.vendor == "sqlite" and not conn.execute_wrappers and not conn.queries_logged
        self.cursor: Any = None

    def __enter__(self) -> Any:
        conn = self.conn
        if not self.raw:
            self.cursor = conn.cursor()
            return self.cursor
        conn.ensure_connection()
        conn.validate_no_broken_transaction()
        self.cursor = conn.connection.cursor()
        return self.cursor

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        self.cursor.close()
        if exc is not None and self.raw:
            with self.conn.wrap_database_errors:  # re-raised as django.db's exception of the same kind
                raise exc

    def statement(self, text: str) -> str:
        return _qmark(text) if self.raw else text


@cache
def _qmark(text: str) -> str:
    """A statement of ours (no literal ``%``) with the driver's ``?`` placeholders."""
    return text.replace("%s", "?")


def insert_rows(model: type[Model], columns: Sequence[str], rows: Iterable[Sequence[Any]]) -> None:
    """``INSERT`` many rows in one ``executemany`` (no primary keys returned)."""
    conn = connections["default"]
    cols = tuple(columns)
    adapters = _adapters(model, cols, conn.vendor)
    times: dict[Any, Any] = {}
    prepared = [_prep_row(conn, adapters, row, times) for row in rows]
    if not prepared:
        return
    run = _Raw(conn)
    with run as cursor:
        cursor.executemany(run.statement(_statement("insert", conn.vendor, model, cols, ())), prepared)


def update_where(model: type[Model], values: dict[str, Any], where: dict[str, Any]) -> int:
    """``UPDATE … SET … WHERE a = %s AND b = %s``; returns the number of rows changed."""
    conn = connections["default"]
    cols = tuple(values)
    params = [*_prep_row(conn, _adapters(model, cols, conn.vendor), list(values.values())), *where.values()]
    run = _Raw(conn)
    with run as cursor:
        cursor.execute(run.statement(_statement("update", conn.vendor, model, cols, tuple(where))), params)
        return cursor.rowcount


def update_rows(model: type[Model], columns: Sequence[str], rows: list[tuple[Any, ...]]) -> None:
    """``UPDATE <table> SET <columns> WHERE id = %s`` for many rows in one ``executemany``; each tuple is
    the new column values (plain strings and integers, no adaptation) followed by the row's id.

    Why not ``bulk_update``: it builds one ``CASE WHEN id = … THEN …`` expression per column and row,
    which cost more than the rules themselves on every action (bench/tournament.py)."""
    conn = connections["default"]
    run = _Raw(conn)
    with run as cursor:
        statement = _statement("update", conn.vendor, model, tuple(columns), ("id",))
        cursor.executemany(run.statement(statement), rows)


def select_one(
    model: type[Model], columns: Sequence[str], where: dict[str, Any], for_update: bool = False
) -> tuple[Any, ...] | None:
    """One row's raw column values, or None."""
    conn = connections["default"]
    kind = "select_for_update" if for_update and conn.features.has_select_for_update else "select"
    run = _Raw(conn)
    with run as cursor:
        cursor.execute(
            run.statement(_statement(kind, conn.vendor, model, tuple(columns), tuple(where))),
            list(where.values()),
        )
        return cursor.fetchone()
