"""URLs of the site: the landing page, creating and joining rooms, and each room's pages and actions."""

from django.urls import path

from tournament import converters  # noqa: F401  (registers <room:code>: a room code in any case)
from tournament.views import chat, rematch, replay, rewind, rooms
from tournament.views.landing import landing

urlpatterns = [
    path("", landing, name="landing"),
    path("rooms/new", rooms.create, name="room-create"),
    path("rooms/join", rooms.join, name="room-join"),
    path("r/<room:code>/", rooms.room, name="room"),
    path("r/<room:code>/join", rooms.join_here, name="room-join-here"),
    path("r/<room:code>/act", rooms.act, name="room-act"),
    path("r/<room:code>/watch", rooms.watch, name="room-watch"),
    path("r/<room:code>/bracket", rooms.bracket, name="room-bracket"),
    path("r/<room:code>/host", rooms.host, name="room-host"),
    path("r/<room:code>/rematch", rooms.rematch, name="room-rematch"),
    path("r/<room:code>/next", rooms.next_room, name="room-next"),
    # game night (issue 9): chat, replay and records, the host's rewind, the rematch
    path("rooms/import", replay.import_record, name="room-import"),
    path("r/<room:code>/chat", chat.post, name="room-chat"),
    path("r/<room:code>/chat/mute", chat.mute, name="room-chat-mute"),
    path("r/<room:code>/presence", chat.presence, name="room-presence"),
    path("r/<room:code>/chat/<str:name>", chat.channel, name="room-chat-channel"),
    path("r/<room:code>/replay", replay.replay, name="room-replay"),
    path("r/<room:code>/record.json", replay.record, name="room-record"),
    path("r/<room:code>/rewind", rewind.picker, name="room-rewind"),
    path("r/<room:code>/rematch/join", rematch.join, name="room-rematch-join"),
]
