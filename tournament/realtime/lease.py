"""One driver per room (issue 22): which process takes a room's bot and timer decisions.

Every process with sockets in a room keeps a hub for it, and each hub used to hand every new version to
its own driver: with a room's sockets on two processes both took every decision, the second losing in
the database (harmless by the action ids, but each duplicate is a transaction and a reload). Now a room
is driven by the process that holds the room's lease in Redis (``SET key owner NX PX``, renewed every
``RENEW_SECONDS`` while the process has sockets in the room, released when its last socket leaves).
A process that dies (``kill -9``) stops renewing; the lease runs out after ``LEASE_MS`` and the next
process with sockets in the room takes it at its next renewal round, then schedules what is open from the
database (deadlines and prompts are stored there): nothing is lost, nothing decided twice.

Without Redis (one process, the in-memory channel layer) the process drives every room it serves. When
Redis cannot be reached, each process drives as before (liveness first): a duplicate is refused by its
action id or its version, and the leases sort it out once Redis is back.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import threading
import time
import uuid
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

LEASE_MS = 3000  # a lease not renewed for this long is free: a dead driver's room moves within ~4 s
RENEW_SECONDS = 1.0  # renewal (and takeover) round of every process with sockets in the room
SAFETY_SECONDS = 0.5  # a holder stops believing in its lease this much before Redis lets it go

# only the owner may renew or release: a lease that ran out and was taken by another process stays his
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


def lease_key(code: str) -> str:
    """The Redis key of a room's lease."""
    return f"mf:driver:{code}"


class Leases:
    """The leases this process holds, and the Redis client that takes them (one per event loop)."""

    def __init__(self) -> None:
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self._until: dict[str, float] = {}  # room code → monotonic time this process drives it until
        self._clients: dict[int, tuple[asyncio.AbstractEventLoop, Any]] = {}
        self._local = threading.local()

    @staticmethod
    def distributed() -> bool:
        """Whether rooms are shared between processes (a Redis channel layer), so leases are needed."""
        return bool(getattr(settings, "REDIS_URL", ""))

    def holds(self, code: str) -> bool:
        """Whether this process drives ``code`` now."""
        if not self.distributed():
            return True
        until = self._until.get(code)
        return until is not None and time.monotonic() < until

    async def claim(self, code: str) -> bool:
        """Take the room's lease, or renew it when this process holds it; whether it holds it now."""
        if not self.distributed():
            return True
        started = time.monotonic()
        key = lease_key(code)
        try:
            client = self._client()
            ok = False
            if code in self._until:
                ok = bool(await client.eval(_RENEW, 1, key, self.owner, LEASE_MS))
            if not ok:
                ok = bool(await client.set(key, self.owner, nx=True, px=LEASE_MS))
        except Exception as exc:  # Redis unreachable: drive anyway (see the module docstring)
            return self._unreachable(code, started, exc)
        return self._believe(code, started, ok)

    def confirm(self, code: str) -> bool:
        """Whether this process still drives ``code``, asked right before a decision is written (from the
        database thread): locally, or — when the local belief ran out because a renewal came late (an
        event loop busy under load) — by renewing the lease in Redis now, which only its owner can do.

        So a late renewal costs one Redis round trip instead of the decision (the scale benchmark under a
        load average of 16 stopped about one decision in 250 so), and a lease another process holds
        stops it. Redis unreachable: drive, as ``claim`` does (the action id refuses a duplicate).
        """
        if self.holds(code):
            return True
        if not self.distributed() or code not in self._until:
            return False  # never held, released, or taken by another process at the last round
        started = time.monotonic()
        try:
            renewed = bool(self._sync_client().eval(_RENEW, 1, lease_key(code), self.owner, LEASE_MS))
        except Exception as exc:
            return self._unreachable(code, started, exc)
        return self._believe(code, started, renewed)

    def _believe(self, code: str, started: float, held: bool) -> bool:
        """Note what Redis answered to a claim or renewal sent at ``started``."""
        if held:
            self._until[code] = started + LEASE_MS / 1000 - SAFETY_SECONDS
        else:
            self._until.pop(code, None)
        return held

    def _unreachable(self, code: str, started: float, exc: Exception) -> bool:
        log.warning("driver lease of room %s not reachable (%s); driving it meanwhile", code, exc)
        self._until[code] = started + RENEW_SECONDS + SAFETY_SECONDS
        return True

    def _sync_client(self) -> Any:
        """A synchronous client for the thread that asks (the database thread)."""
        client = getattr(self._local, "client", None)
        if client is None:
            import redis

            client = redis.Redis.from_url(settings.REDIS_URL, socket_timeout=1.0, socket_connect_timeout=1.0)
            self._local.client = client
        return client

    async def release(self, code: str) -> None:
        """Give the room's lease back at once (its last socket here left), so another process takes it."""
        if self._until.pop(code, None) is None or not self.distributed():
            return
        try:
            await self._client().eval(_RELEASE, 1, lease_key(code), self.owner)
        except Exception as exc:  # it runs out by itself
            log.debug("driver lease of room %s not released: %s", code, exc)

    def _client(self) -> Any:
        from redis.asyncio import Redis

        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is None or entry[0] is not loop:
            for key in [k for k, (other, _c) in self._clients.items() if other.is_closed()]:
                del self._clients[key]
            client = Redis.from_url(settings.REDIS_URL, socket_timeout=1.0, socket_connect_timeout=1.0)
            entry = self._clients[id(loop)] = (loop, client)
        return entry[1]


leases = Leases()
