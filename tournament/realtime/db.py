"""Database calls from the event loop without a fresh connection each time.

Channels' ``database_sync_to_async`` closes the thread's connection after every call when
``CONN_MAX_AGE`` is 0 (as it must be for Django's HTTP threads under ASGI), so every socket action and
every hub reload opened a new connection — 16 ms on PostgreSQL (docs/PERFORMANCE.md). Socket-side
calls all run on asgiref's one thread-sensitive thread, so that thread can keep one connection for
the process's life; a connection that broke (database restart) is closed and the call retried once,
which is safe because every write is idempotent by its action id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.db import InterfaceError, OperationalError, connection, transaction

T = TypeVar("T")


def _with_retry(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    try:
        return fn(*args, **kwargs)
    except (InterfaceError, OperationalError):
        if connection.in_atomic_block:
            raise
        connection.close()
        return fn(*args, **kwargs)


async def db(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """Run ``fn`` on the database thread, keeping its connection open between calls."""
    return await sync_to_async(_with_retry, thread_sensitive=True)(fn, *args, **kwargs)


def consistent(fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """``fn`` reading several tables as of one moment (PostgreSQL: one REPEATABLE READ transaction).

    A snapshot is read in several queries (the game row, then its seats, piles, squares…); under READ
    COMMITTED a commit landing between them gave a snapshot labelled with the old version holding parts
    of the new one (seen by the carried-versions test: a frame of version 5 with version 6's squares).
    SQLite reads see one state already (and its transactions here take the write lock: not for reads).
    """
    if connection.vendor != "postgresql" or connection.in_atomic_block:
        return fn(*args, **kwargs)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        return fn(*args, **kwargs)
