"""Tell the room's sockets that the game moved on — only ever after the transaction committed.

Publishing must be cheap: it follows every action. ``async_to_sync`` outside a server starts a fresh
event loop (and thread) per call, so pushes to an out-of-process layer (Redis) go through one
long-lived publisher loop instead; the in-process layer is skipped when this process has nobody in the
room's group (then nobody anywhere can be listening to it).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Coroutine
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

log = logging.getLogger(__name__)

PUBLISH_TIMEOUT = 5.0


def room_group(code: str) -> str:
    """The Channels group of a room (group names allow ASCII letters, digits, hyphens and periods)."""
    return f"room.{code}"


class _Publisher:
    """One background event loop that owns the out-of-process layer's connections for sync callers."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="channel-publisher", daemon=True)
                thread.start()
                self._loop = loop
            return self._loop

    def run(self, coro: Coroutine[Any, Any, Any]) -> None:
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure())
        future.result(PUBLISH_TIMEOUT)


_publisher = _Publisher()


def _in_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def _send(code: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    group = room_group(code)
    try:
        if isinstance(layer, InMemoryChannelLayer):
            if not layer.groups.get(group):
                return
            # the in-process layer's queues belong to the server's loop: asgiref runs the send there
            async_to_sync(layer.group_send)(group, message)
        elif _in_event_loop():
            asyncio.ensure_future(layer.group_send(group, message))  # noqa: RUF006 — fire and forget
        else:
            _publisher.run(layer.group_send(group, message))
    except Exception:  # a lost push is harmless: hubs poll and clients resync by sequence number
        log.warning("push to room %s failed", code, exc_info=True)


# Callables (code, version) told first, in this process, before the channel layer carries the news to
# the other processes: the room hub of this process registers one (no Redis round trip for its sockets).
local_listeners: list[Callable[[str, int], None]] = []


def game_changed(code: str, version: int, last_seq: int) -> None:
    """Broadcast the new version; each socket renders its own viewer's projection of it."""
    for listener in local_listeners:
        try:
            listener(code, version)
        except Exception:
            log.warning("local push to room %s failed", code, exc_info=True)
    _send(code, {"type": "game.changed", "version": version, "seq": last_seq})


def host_alert(code: str, message: str) -> None:
    """An action was refused because it would have broken an invariant: the host console shows it."""
    _send(code, {"type": "host.alert", "message": message[:500]})


def room_message(code: str, message: dict[str, Any]) -> None:
    """A message that is no game version (a chat line, a presence change): the hubs forward it as it is."""
    _send(code, message)
