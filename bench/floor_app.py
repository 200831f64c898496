"""The floor of this stack: a bare Channels consumer that only rebroadcasts, served by daphne.

``bench/realtime.py`` serves it with ``daphne bench.floor_app:application`` and the same Redis channel
layer settings as the project, and measures it with the same client code as the real rooms:

- every socket of ``/ws/floor/<room>/`` joins the group ``floor.<room>`` (one Redis channel per socket);
- ``{"type": "act", "version": v, "size": n}`` from any socket makes the consumer ``group_send`` one frame
  ``{"type":"update","version":v+1,"pad":"…"}`` of exactly ``n`` bytes to the whole group;
- every member sends the frame it receives to its client as is; ``ack``, ``hello`` and anything else is
  ignored.

No database, no rendering, no flow control: what is left is daphne, Channels and the Redis layer.
Run as a script (``make bench`` runs every bench/*.py) it only explains itself.
"""

from __future__ import annotations

import json
import os
from typing import Any

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "magicfootball.settings")

if __name__ != "__main__":
    import django

    django.setup()  # the channel layer is configured by the project's settings (REDIS_URL)

    from channels.generic.websocket import AsyncWebsocketConsumer
    from channels.routing import ProtocolTypeRouter, URLRouter
    from django.urls import path

    def frame_of_size(version: int, size: int) -> str:
        """An update-like frame of exactly ``size`` bytes (ASCII padding)."""
        head = f'{{"type":"update","version":{version},"pad":"'
        tail = '"}'
        return head + "x" * max(0, size - len(head) - len(tail)) + tail

    class FloorConsumer(AsyncWebsocketConsumer):
        """Group member that rebroadcasts through the channel layer."""

        async def connect(self) -> None:
            self.group = f"floor.{self.scope['url_route']['kwargs']['room']}"
            await self.channel_layer.group_add(self.group, self.channel_name)
            await self.accept()
            await self.send(text_data='{"type":"state","version":0}')

        async def disconnect(self, code: int) -> None:
            await self.channel_layer.group_discard(self.group, self.channel_name)

        async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
            if not text_data or '"act"' not in text_data:  # cheap test first: most frames are acks
                return
            frame: dict[str, Any] = json.loads(text_data)
            if frame.get("type") != "act":
                return
            version = int(frame.get("version", 0)) + 1
            text = frame_of_size(version, int(frame.get("size", 1000)))
            await self.channel_layer.group_send(self.group, {"type": "floor.frame", "text": text})

        async def floor_frame(self, message: dict[str, Any]) -> None:
            await self.send(text_data=message["text"])

    application = ProtocolTypeRouter(
        {"websocket": URLRouter([path("ws/floor/<str:room>/", FloorConsumer.as_asgi())])}
    )

if __name__ == "__main__":
    print(__doc__)
