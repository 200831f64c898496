"""Channel layers that lose pushes on purpose: they exist for the reliability tests (tests/reliability/).

A real channel layer may drop a message silently (a full channel, a Redis hiccup, a restart). The game
must not depend on pushes arriving: every push only says "version v exists", each room hub re-reads the
database every few seconds and clients resync by sequence number. These layers make that failure
happen on demand so tests can show every client still converges.

They are selected by the ``CHANNEL_LAYER_DROP`` environment variable (a fraction from 0 to 1, read in
``magicfootball/settings.py``): the Redis variant when ``REDIS_URL`` is set, else the in-memory one.
``CHANNEL_LAYER_DROP_SEED`` makes the drops repeatable. Never set them in production.
"""

from __future__ import annotations

import logging
import random
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer

log = logging.getLogger(__name__)


class _Dropper:
    """Decides, repeatably, which ``group_send`` calls are lost, and counts them."""

    def __init__(self, drop: float, seed: int) -> None:
        if not 0.0 <= drop <= 1.0:
            raise ValueError(f"drop must be a fraction from 0 to 1, not {drop!r}")
        self.drop = drop
        self.random = random.Random(seed)
        self.sent = 0
        self.dropped = 0

    def lose(self, group: str, message: dict[str, Any]) -> bool:
        """True when this push is to be lost (logged, so a test can count drops in a server's log)."""
        self.sent += 1
        if self.drop and self.random.random() < self.drop:
            self.dropped += 1
            log.warning(
                "CHANNEL_LAYER_DROP: dropped push %d of %d to %s (%s)",
                self.dropped,
                self.sent,
                group,
                message.get("type"),
            )
            return True
        return False


class DroppingInMemoryChannelLayer(InMemoryChannelLayer):
    """The in-memory layer (one process) losing a fraction of its group messages."""

    def __init__(self, drop: float = 0.5, drop_seed: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dropper = _Dropper(drop, drop_seed)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Deliver to the group, or silently not."""
        if self.dropper.lose(group, message):
            return
        await super().group_send(group, message)


class DroppingRedisChannelLayer(RedisPubSubChannelLayer):
    """The Redis layer (several processes) losing a fraction of its group messages."""

    def __init__(self, drop: float = 0.5, drop_seed: int = 0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.dropper = _Dropper(drop, drop_seed)

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Deliver to the group, or silently not (the pub/sub layer forwards to its per-loop layer)."""
        if self.dropper.lose(group, message):
            return
        await self._get_layer().group_send(group, message)
