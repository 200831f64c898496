"""Websocket URL routing: one socket per open room page or protocol client."""

from django.urls import path

from tournament.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/r/<str:code>/", RoomConsumer.as_asgi()),
]
