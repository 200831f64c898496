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
from django.db import InterfaceError, OperationalError, connection

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
