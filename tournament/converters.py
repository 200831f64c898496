"""The ``<room:code>`` path converter: a room code in any case, on every page, post and socket.

Room codes are lower case (``tournament.services.rooms.CODE_ALPHABET``); people read them aloud, type them
and paste them in capitals. The converter hands every view and consumer the canonical code, so a code in
another case finds its room; page views redirect to the canonical address (``views.rooms.canonical``).
"""

from __future__ import annotations

from django.urls import register_converter


class RoomCodeConverter:
    """Any path segment; the view receives it in lower case (the form's code cleaning does the same)."""

    regex = "[^/]+"

    def to_python(self, value: str) -> str:
        return value.lower()

    def to_url(self, value: str) -> str:
        return str(value)


register_converter(RoomCodeConverter, "room")
