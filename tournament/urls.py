"""URLs of the site: the landing page, creating and joining rooms, and each room's pages and actions."""

from django.urls import path

from tournament.views import chat, rematch, replay, rewind, rooms
from tournament.views.landing import landing

urlpatterns = [
    path("", landing, name="landing"),
    path("rooms/new", rooms.create, name="room-create"),
    path("rooms/join", rooms.join, name="room-join"),
    path("r/<str:code>/", rooms.room, name="room"),
    path("r/<str:code>/join", rooms.join_here, name="room-join-here"),
    path("r/<str:code>/act", rooms.act, name="room-act"),
    path("r/<str:code>/watch", rooms.watch, name="room-watch"),
    path("r/<str:code>/bracket", rooms.bracket, name="room-bracket"),
    path("r/<str:code>/host", rooms.host, name="room-host"),
    path("r/<str:code>/rematch", rooms.rematch, name="room-rematch"),
    path("r/<str:code>/next", rooms.next_room, name="room-next"),
    # game night (issue 9): chat, replay and records, the host's rewind, the rematch
    path("rooms/import", replay.import_record, name="room-import"),
    path("r/<str:code>/chat", chat.post, name="room-chat"),
    path("r/<str:code>/chat/mute", chat.mute, name="room-chat-mute"),
    path("r/<str:code>/presence", chat.presence, name="room-presence"),
    path("r/<str:code>/chat/<str:name>", chat.channel, name="room-chat-channel"),
    path("r/<str:code>/replay", replay.replay, name="room-replay"),
    path("r/<str:code>/record.json", replay.record, name="room-record"),
    path("r/<str:code>/rewind", rewind.picker, name="room-rewind"),
    path("r/<str:code>/rematch/join", rematch.join, name="room-rematch-join"),
]
