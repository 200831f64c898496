"""Websocket URL routing: one socket per open room page or protocol client."""

from django.urls import path

from tournament import converters  # noqa: F401  (registers <room:code>: a room code in any case)
from tournament.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/r/<room:code>/", RoomConsumer.as_asgi()),
]
