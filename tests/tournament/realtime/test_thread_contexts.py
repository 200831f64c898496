"""A version committed on the database thread wakes the room hub through ``call_soon_threadsafe``. The
tasks that wakes must be able to use the database again: when they inherited the committing thread's
context, asgiref refused their ``db()`` calls ("Single thread executor already being used, would
deadlock"), the bots' decisions failed silently and a live game with only watchers stalled (seen in
Chromium: the bracket never came)."""

from __future__ import annotations

import asyncio
from typing import Any

from tournament.realtime.db import db
from tournament.realtime.hub import Hubs
from tournament.services import notify


class _FakeHub:
    """Stands in for a room hub: its refresh does what a real one does first, a database call."""

    def __init__(self) -> None:
        self.current: Any = None
        self._hint = 0
        self.outcome: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def refresh(self) -> None:
        try:
            self.outcome.set_result(await db(lambda: "read"))
        except Exception as exc:  # the failure this test is about
            self.outcome.set_result(f"{type(exc).__name__}: {exc}")


async def test_a_hub_woken_from_the_database_thread_can_read_the_database():
    registered = notify.local_rooms
    hubs = Hubs()
    try:
        hub = _FakeHub()
        hubs._hubs["room1"] = hub  # type: ignore[assignment]
        hubs._loop = asyncio.get_running_loop()
        await db(hubs.changed, "room1", 7)  # as an on_commit hook runs, on the database thread
        assert await asyncio.wait_for(hub.outcome, 5) == "read"
        assert hub._hint == 7
    finally:
        notify.local_rooms = registered
