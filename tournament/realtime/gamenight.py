"""Chat lines and presence on the room sockets: no game version, forwarded by the room hubs as they arrive.

The services push ``chat.message`` (a stored chat line's id) and ``presence.changed`` to the room's
channel group; each process's hub hands them to ``forward``, which reads the line (or who is present)
once, renders it once per wire format and language, and delivers it only to sockets allowed to read it:
the players' chat to seats and the host, the stands to everyone (``tournament.services.chat.may_read``).

These frames never displace a game frame held back for a slow socket (back-pressure): a socket that is
behind simply misses them and reads the chat again when it reconnects or reloads.

This module also counts this process's sockets per seat (``Participant.connections``) and refreshes their
``last_seen`` every few seconds (``tournament.services.presence``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Iterable
from typing import Any

from django.template.loader import render_to_string
from django.utils import translation

from tournament.models import ChatMessage
from tournament.realtime import frames, wire
from tournament.realtime.db import db
from tournament.services import chat, presence

log = logging.getLogger(__name__)

MESSAGES = frozenset({"chat.message", "presence.changed"})
HTML_FRAME_PREFIX = '<div hidden data-frame="'  # room.js tells these frames from game frames by it


# ------------------------------------------------------------------------------------------ rendering


def chat_item(message: ChatMessage) -> dict[str, Any]:
    """A chat line as the templates and the JSON protocol show it."""
    key = message.author_key
    seat = int(key[5:]) if key.startswith("seat:") and key[5:].isdigit() else None
    author = message.author if message.author_id else None
    return {
        "id": message.pk,
        "channel": message.channel,
        "kind": message.kind,
        "author": message.author_name,
        "seat": seat,
        "host": key == chat.HOST_KEY or bool(author and author.is_host),
        "spectator": key.startswith(chat.SPECTATOR_PREFIX),
        "text": message.text,
        "at": message.created_at,
    }


def chat_json(message: ChatMessage) -> dict[str, Any]:
    """A chat line in the JSON protocol (``docs/PROTOCOL.md``, "Chat")."""
    item = chat_item(message)
    item["at"] = item["at"].isoformat() if item["at"] else None
    return item


def chat_frame(message: ChatMessage, fmt: str) -> str:
    """The frame that adds one chat line to a page (HTML) or tells a protocol client (JSON)."""
    if not fmt.startswith("html"):
        return frames.encode({"type": "chat", "message": chat_json(message)})
    from tournament.realtime.html import language_of

    with translation.override(language_of(fmt)):
        return render_to_string("tournament/partials/chat_frame.html", {"line": chat_item(message)})


def mute_frame(muted: bool, fmt: str) -> str:
    """Tells a muted (or un-muted) author's own sockets, so his page swaps its chat box for the notice."""
    if not fmt.startswith("html"):
        return frames.encode({"type": "chat_mute", "muted": muted})
    return f'{HTML_FRAME_PREFIX}chat-mute" data-muted="{"true" if muted else "false"}"></div>'


def presence_frame(present: dict[int, bool], fmt: str) -> str:
    """Who is at the table: seat numbers present and away."""
    if not fmt.startswith("html"):
        return frames.encode({"type": "presence", "seats": {str(s): on for s, on in sorted(present.items())}})
    on = " ".join(str(s) for s, here in sorted(present.items()) if here)
    off = " ".join(str(s) for s, here in sorted(present.items()) if not here)
    return f'{HTML_FRAME_PREFIX}presence" data-present="{on}" data-away="{off}"></div>'


# ------------------------------------------------------------------------------------------ delivery


def _may_send(sock: Any) -> bool:
    """Never displace a held-back game frame, never exceed the socket's window."""
    from tournament.consumers import WINDOW

    return getattr(sock, "held", None) is None and getattr(sock, "unacked", 0) < WINDOW


async def _deliver(sock: Any, frame: str) -> None:
    if _may_send(sock):
        with contextlib.suppress(Exception):  # a socket closing meanwhile
            await sock.deliver(frame, -1)


async def forward(hub: Any, message: dict[str, Any]) -> None:
    """Deliver a ``chat.message`` or ``presence.changed`` to the hub's sockets that may read it."""
    kind = message.get("type")
    sockets = list(hub.sockets)
    if not sockets:
        return
    if kind == "chat.message":
        message_id = message.get("id")
        if not isinstance(message_id, int) or isinstance(message_id, bool):
            return
        line = await db(chat.chat_line, message_id)
        if line is None or line.game.code != hub.code:
            return
        rendered: dict[str, str] = {}
        for sock in sockets:
            viewer = sock.viewer
            if not chat.may_read(line.channel, seat=viewer.seat, host=viewer.host):
                continue
            if sock.fmt not in rendered:
                rendered[sock.fmt] = wire.Frame(await db(chat_frame, line, sock.fmt))
            await _deliver(sock, rendered[sock.fmt])
        target = message.get("target")
        if line.kind != ChatMessage.Kind.TEXT and isinstance(target, str):
            muted = line.kind == ChatMessage.Kind.MUTED
            for sock in sockets:
                if socket_key(sock) == target:
                    await _deliver(sock, wire.Frame(mute_frame(muted, sock.fmt)))
    elif kind == "presence.changed":
        await send_presence(hub.code, sockets)


def wants_presence(sock: Any) -> bool:
    """Room pages always follow presence; a protocol client asks for it (``presence=1`` or a ``presence``
    frame), so clients that do not know these frames never receive them."""
    if sock.fmt.startswith("html"):
        return True
    if getattr(sock, "presence", None) is None:
        from urllib.parse import parse_qs

        scope = getattr(sock, "scope", None) or {}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        sock.presence = query.get("presence") == ["1"]
    return bool(sock.presence)


async def send_presence(code: str, sockets: Iterable[Any]) -> None:
    """Tell sockets who is present now (one database read, one render per format)."""
    sockets = [sock for sock in sockets if wants_presence(sock)]
    if not sockets:
        return
    present = await db(presence.presence_of, code=code)
    rendered: dict[str, str] = {}
    for sock in sockets:
        if sock.fmt not in rendered:
            rendered[sock.fmt] = wire.Frame(presence_frame(present, sock.fmt))
        await _deliver(sock, rendered[sock.fmt])


# ------------------------------------------------------------------------------------------ presence


class SeatSockets:
    """This process's sockets that play a seat, and the heartbeat that keeps their ``last_seen`` fresh."""

    def __init__(self) -> None:
        self._socks: dict[int, tuple[int, str, int]] = {}  # id(socket) -> (game id, room code, seat)
        self._task: asyncio.Task[None] | None = None

    async def joined(self, sock: Any) -> None:
        """A socket joined its room's hub: count it for its seat (watch-only and host-only sockets don't)."""
        seat = sock.viewer.seat
        if seat is None or id(sock) in self._socks:
            return
        entry = (sock.game_id, sock.code, seat)
        self._socks[id(sock)] = entry
        try:
            await db(presence.presence_join, game_id=entry[0], code=entry[1], seat=seat)
        except Exception:
            log.warning("presence of seat %s in %s not recorded", seat, entry[1], exc_info=True)
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._beat())

    async def left(self, sock: Any) -> None:
        """A counted socket closed (or changed identity)."""
        entry = self._socks.pop(id(sock), None)
        if entry is None:
            return
        try:
            await db(presence.presence_leave, game_id=entry[0], code=entry[1], seat=entry[2])
        except Exception:
            log.warning("absence of seat %s in %s not recorded", entry[2], entry[1], exc_info=True)

    async def _beat(self) -> None:
        while self._socks:
            await asyncio.sleep(presence.HEARTBEAT)
            by_game: dict[int, set[int]] = {}
            for game_id, _code, seat in list(self._socks.values()):
                by_game.setdefault(game_id, set()).add(seat)
            for game_id, seats in by_game.items():
                try:
                    await db(presence.presence_touch, game_id=game_id, seats=seats)
                except Exception:
                    log.warning("presence heartbeat of game %s failed", game_id, exc_info=True)

    def __len__(self) -> int:
        return len(self._socks)


seat_sockets = SeatSockets()


async def socket_joined(sock: Any) -> None:
    """Hook for the consumer: a socket joined (count its seat; every socket in the room is told)."""
    await seat_sockets.joined(sock)


async def socket_left(sock: Any) -> None:
    """Hook for the consumer: a socket left its hub."""
    await seat_sockets.left(sock)


# ------------------------------------------------------------------------------------------ chat frames in


async def frame_in(sock: Any, frame: dict[str, Any]) -> None:
    """A protocol client's ``chat`` (post a line), ``chat_history`` (read a channel) or ``presence``
    (who is connected now, and from then on every change) frame.

    Spectators name themselves with ``name`` in their first ``chat`` frame (kept for the connection).
    """
    from tournament.messages import error_text
    from tournament.rules.errors import Forbidden, MalformedAction, RulesError
    from tournament.selectors import game_by_code

    if frame["type"] == "presence":
        sock.presence = True
        await send_presence(sock.code, [sock])
        return
    channel = frame.get("channel")
    viewer = sock.viewer
    try:
        if channel not in chat.CHANNELS:
            raise MalformedAction(detail="unknown chat")
        if frame["type"] == "chat_history":
            if not chat.may_read(channel, seat=viewer.seat, host=viewer.host):
                raise Forbidden(detail="you cannot read that chat")
            after = frame.get("after", 0)
            after = after if isinstance(after, int) and not isinstance(after, bool) and after >= 0 else 0

            def history() -> list[dict[str, Any]]:
                game = game_by_code(sock.code)
                return [chat_json(m) for m in chat.chat_history(game, channel, after=after)]

            lines = await db(history)
            await sock.send(
                text_data=frames.encode({"type": "chat_history", "channel": channel, "messages": lines})
            )
            return
        if not sock._take_token():
            raise RulesError("rate_limited")
        name = frame.get("name")

        def post() -> int:
            game = game_by_code(sock.code)
            author = socket_author(sock, game, name)
            return chat.chat_post(game=game, channel=channel, author=author, text=frame.get("text")).pk

        message_id = await db(post)
    except RulesError as exc:
        await sock.send(text_data=frames.error_frame(exc.code, error_text(exc)))
        return
    await sock.send(text_data=frames.encode({"type": "chat_sent", "id": message_id}))


def socket_key(sock: Any) -> str:
    """The chat author key of a socket: its seat, the host, or the stands identity of its browser.

    A browser's sockets carry its session cookie, so they share the key of its page and its chat form
    (``chat.session_spectator``); only a socket without one (a protocol client without cookies) gets a key
    of its own, for as long as it is open.
    """
    identity = sock.identity  # who the socket is, even when it only watches
    if identity.seat is not None:
        return chat.seat_key(identity.seat)
    if identity.host:
        return chat.HOST_KEY
    if not getattr(sock, "chat_key", ""):
        key, _name = _session_voice(sock)
        sock.chat_key = key or f"{chat.SPECTATOR_PREFIX}ws-{secrets.token_hex(8)}"
    return sock.chat_key


def _session_voice(sock: Any) -> tuple[str, str]:
    """The stands identity (key, name) the socket's browser session holds, ``("", "")`` without one."""
    return chat.session_spectator((getattr(sock, "scope", None) or {}).get("session"))


def socket_author(sock: Any, game: Any, name: Any) -> chat.ChatAuthor:
    """Who a socket writes as: its seat, the host, or a spectator (named by his page, or in a chat frame).

    :raises RulesError: a spectator without a valid name.
    """
    from tournament.models import Participant

    identity = sock.identity
    key = socket_key(sock)
    if identity.seat is not None:
        row = Participant.objects.filter(game=game, seat=identity.seat).values_list("pk", "nickname").first()
        if row is not None:
            return chat.ChatAuthor(key, row[1], identity.seat, identity.host, row[0])
    if identity.host:
        return chat.ChatAuthor(chat.HOST_KEY, "", None, True)
    if name is not None:
        sock.chat_name = chat.clean_spectator_name(name, game)
    elif not getattr(sock, "chat_name", ""):
        sock.chat_name = chat.clean_spectator_name(_session_voice(sock)[1] or None, game)
    return chat.ChatAuthor(key, sock.chat_name)
