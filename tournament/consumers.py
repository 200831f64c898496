"""The room socket: thin. It proves who is connected, joins the room's hub, turns each received frame
into one service call, and answers errors on this socket only. Frames are documented in docs/PROTOCOL.md.
"""

from __future__ import annotations

import json
import logging
import math
import time
from typing import Any
from urllib.parse import parse_qs

from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncWebsocketConsumer
from django.utils.translation import gettext_noop

from tournament.messages import error_text
from tournament.realtime import frames, gamenight, wire
from tournament.realtime.db import consistent, db
from tournament.realtime.html import html_format
from tournament.realtime.hub import hubs
from tournament.rules.errors import Forbidden, MalformedAction, RulesError
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer
from tournament.selectors import (
    Identity,
    events_for,
    game_by_code,
    identify,
    identify_session,
    snapshot_by_code,
)
from tournament.services import timers
from tournament.services.actions import game_act

log = logging.getLogger(__name__)

MAX_FRAME = 16 * 1024  # bytes; a legitimate frame is a few hundred
SYNC_PAGE = 500  # events per ``events`` frame of a resync (sequence numbers are gap-free, so one page
# is one range of numbers and a long catch-up arrives in several frames instead of being cut short)
WINDOW = 16  # frames in flight before a socket must acknowledge
RATE_BURST = 12  # actions a socket may send at once ...
RATE_PER_SECOND = 4.0  # ... and sustained per second
HOST_ACTIONS = frozenset(
    {
        "add_bot",
        "house_rules",
        "start",
        "pause",
        "resume",
        "end_game",
        "transfer",
        "seat_bot",
        "force_default",
        "rewind",
    }
)
CLOSE_UNKNOWN_ROOM = 4404


def actor_for(identity: Identity, action: Any) -> Actor:
    """The actor a frame acts as: the host for host powers, else the seat, else a guest (may only join)."""
    kind = action.get("type") if isinstance(action, dict) else None
    other_seat = kind == "remove_seat" and action.get("seat") != identity.seat
    if identity.host and (kind in HOST_ACTIONS or other_seat):
        return Actor("host")
    if identity.seat is not None:
        return Actor("seat", identity.seat)
    return Actor("guest")


def pong(frame: dict[str, Any]) -> dict[str, Any]:
    """The answer to a ``ping``: the server's clock (epoch ms), and the client's own ``t`` echoed, so a
    client measures its clock's offset from one round trip (docs/PROTOCOL.md, "Clock"): the decision
    timer's deadlines are in server time."""
    answer: dict[str, Any] = {"type": "pong", "now": timers.clock_ms()}
    t = frame.get("t")
    if isinstance(t, (int, float)) and not isinstance(t, bool) and math.isfinite(t) and abs(t) <= 2**53:
        answer["t"] = t
    return answer


class RoomConsumer(AsyncWebsocketConsumer):
    """One websocket of a room page (``format=html``) or of a protocol client (``format=json``)."""

    # No channel per socket: the room's hub holds one subscription per process and fans out.
    channel_layer_alias = "__no_layer__"
    writer: wire.Writer | None = None  # the server's socket, once accepted (tournament/realtime/wire.py)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' consumer loop without a channel layer to wait on beside the socket.

        ``AsyncConsumer.__call__`` waits on the socket and the layer together, which costs a task and an
        ``asyncio.wait`` for every frame a client sends; this consumer has only the socket.
        """
        self.scope = scope
        self.channel_layer = None
        self.base_send = send
        try:
            while True:
                await self.dispatch(await receive())
        except StopConsumer:
            pass

    async def connect(self) -> None:
        self.code: str = self.scope["url_route"]["kwargs"]["code"]
        query = parse_qs(self.scope.get("query_string", b"").decode("latin-1"))
        self.fmt = "html" if query.get("format") == ["html"] else "json"
        if self.fmt == "html":  # HTML frames are rendered in the page's language (one render per language)
            self.fmt = html_format(query.get("lang", [""])[0])
        # updates may carry only what changed since the version this socket holds (docs/PROTOCOL.md): the
        # client asks for it, so a page running an older script (cached) never gets what it cannot apply
        self.deltas = query.get("delta") == ["1"]
        self.watch = query.get("as") == ["spectator"]  # watch only, even with credentials
        self.identity = Identity()
        self.viewer = Viewer()
        self.unacked = 0
        self.held: tuple[str, int, int | None] | None = None
        self.seen_version: int | None = None  # the view version this socket holds (deltas, the hub)
        self.last_sent_seq = 0
        self.tokens = float(RATE_BURST)
        self.refilled = time.monotonic()
        self.joined = False
        self.hub: Any = None
        await self.accept()
        self.writer = wire.writer_of(self.base_send)  # the server's socket: frames are written directly
        try:
            game = await db(game_by_code, self.code)
        except RulesError as exc:
            await self.send_frame(frames.error_frame(exc.code, error_text(exc)))
            await self.close(CLOSE_UNKNOWN_ROOM)
            return
        self.game_id = game.pk
        self.identity = await db(identify_session, game, self.scope.get("session"))
        self.viewer = self.identity.viewer(as_spectator=self.watch)
        await self._join()

    async def _join(self) -> None:
        hub = hubs.get(self.code)
        try:
            await hub.join(self)
            self.hub = hub
            self.joined = True
            await gamenight.socket_joined(self)  # presence: count this seat's socket
        except RulesError as exc:
            await self.send_frame(frames.error_frame(exc.code, error_text(exc)))
            await self.close(CLOSE_UNKNOWN_ROOM)

    async def disconnect(self, code: int) -> None:
        if getattr(self, "joined", False):
            self.hub.leave(self)  # the hub it joined (a newer hub of the room may exist meanwhile)
            self.joined = False
            await gamenight.socket_left(self)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale DB connections on every message (a thread hop); socket frames here only
        # touch the database through tournament.realtime.db, which keeps one connection open.
        handler = getattr(self, message["type"].replace(".", "_"), None)
        if handler is None:
            raise ValueError(f"no handler for {message['type']}")
        await handler(message)

    # ------------------------------------------------------------------ delivery (called by the hub)
    def push(self, frame: str, seq: int, version: int | None = None) -> bool:
        """Write now, or hold back only the newest frame while the client is behind on acknowledgements,
        without awaiting anything; False when only the ASGI ``send`` can write (then ``deliver``).

        ``version`` is the view version a full frame carries (it becomes the base of later deltas).
        """
        if self.unacked >= WINDOW:
            self.held = (frame, seq, version)
            return True
        if self.writer is None:
            return False
        self._count(seq, version)
        self.writer(wire.wire_of(frame))  # False: the socket is closing, the frame has nowhere to go
        return True

    async def deliver(self, frame: str, seq: int, version: int | None = None) -> None:
        """``push``, through the ASGI ``send`` where there is no direct writer (other servers, tests)."""
        if not self.push(frame, seq, version):
            self._count(seq, version)
            await self.send(text_data=frame)

    def _count(self, seq: int, version: int | None) -> None:
        self.unacked += 1
        if seq >= 0:
            self.last_sent_seq = max(self.last_sent_seq, seq)
        if version is not None:
            self.seen_version = version

    async def send_frame(self, frame: str) -> None:
        """Write a frame to this socket: straight to the server's socket when there is one (framed once,
        for the hub's shared frames), else through the ASGI ``send``. Order is kept either way."""
        if self.writer is not None and self.writer(wire.wire_of(frame)):
            return
        await self.send(text_data=frame)

    def takes_delta(self, base: int) -> bool:
        """A delta is written only to a socket that asked for deltas, holds their base and will not hold it
        back (a held frame replaces older ones, so it must be complete)."""
        return self.deltas and self.unacked < WINDOW and self.seen_version == base

    async def _release_held(self) -> None:
        if self.held is not None and self.unacked < WINDOW:
            frame, seq, version = self.held
            self.held = None
            await self.deliver(frame, seq, version)

    # ------------------------------------------------------------------ frames from the client
    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        # The limit is in bytes, as documented (a character may take four); daphne itself closes the
        # connection on a message over 1 MiB before it gets here.
        if text_data is None:
            size = len(bytes_data or b"")
        else:
            size = len(text_data.encode("utf-8", "surrogatepass"))
        if size > MAX_FRAME:
            await self._error(MalformedAction(detail=f"a frame may be at most {MAX_FRAME} bytes"))
            return
        raw = text_data if text_data is not None else (bytes_data or b"").decode("utf-8", "replace")
        try:
            frame = json.loads(raw)
        except ValueError:
            await self._error(MalformedAction(detail="frames are JSON objects"))
            return
        if not isinstance(frame, dict) or not isinstance(frame.get("type"), str):
            await self._error(MalformedAction(detail="frames are JSON objects with a type"))
            return
        kind = frame["type"]
        if kind == "ack":
            self.unacked = 0
            await self._release_held()
        elif kind == "act":
            await self._act(frame)
        elif kind == "sync":
            await self._resync(frame)
        elif kind == "hello":
            await self._hello(frame)
        elif kind == "ping":
            await self.send_frame(frames.encode(pong(frame)))
        elif kind in (
            "chat",
            "chat_history",
            "presence",
        ):  # no game actions (tournament/realtime/gamenight.py)
            await gamenight.frame_in(self, frame)
        else:
            await self._error(RulesError("unknown_action", action=kind[:40]))

    def _take_token(self) -> bool:
        now = time.monotonic()
        self.tokens = min(RATE_BURST, self.tokens + (now - self.refilled) * RATE_PER_SECOND)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    async def _act(self, frame: dict[str, Any]) -> None:
        action_id = frame.get("action_id")
        if not self._take_token():
            await self._error(RulesError("rate_limited"), action_id)
            return
        action = frame.get("action")
        version = frame.get("version")
        if not isinstance(action_id, str):
            await self._error(MalformedAction(detail="action_id is required"), None)
            return
        credentials = self.identity.seat is not None or self.identity.host
        if self.viewer.kind == "spectator" and (self.watch or credentials):
            # A watching socket (``as=spectator``, or ``hello`` with ``spectator: true``) never acts, even
            # when it holds a seat's or the host's credentials (docs/PROTOCOL.md).
            await self._error(Forbidden(detail=gettext_noop("this connection only watches")), action_id)
            return
        actor = actor_for(self.identity, action)
        try:
            result = await db(
                game_act,
                code=self.code,
                actor=actor,
                action=action,
                expected_version=version,
                action_id=action_id,
            )
        except RulesError as exc:
            await self._error(exc, action_id)
            return
        except Exception:  # never let a bug take the socket down silently
            log.exception("action failed in room %s", self.code)
            await self._error(RulesError("server_error"), action_id)
            return
        reply: dict[str, Any] = {
            "type": "result",
            "action_id": action_id,
            "version": result.version,
            "duplicate": result.duplicate,
        }
        if isinstance(action, dict) and action.get("type") == "join" and not result.duplicate:
            await self._adopt_joined_seat(result, reply)
        await self.send_frame(frames.encode(reply))

    async def _adopt_joined_seat(self, result: Any, reply: dict[str, Any]) -> None:
        seat = next((int(e.payload["seat"]) for e in result.events if e.kind == "joined"), None)
        if seat is None:
            return

        def token_of() -> str:
            from tournament.models import Participant

            return Participant.objects.get(game_id=self.game_id, seat=seat).token

        token = await db(token_of)
        reply["seat"] = seat
        reply["token"] = token
        await self._switch_identity(Identity(seat=seat, host=self.identity.host))

    async def _hello(self, frame: dict[str, Any]) -> None:
        """A protocol client proves its seat (token) and/or host role (host_key)."""
        token, host_key = frame.get("token"), frame.get("host_key")

        def resolve() -> Identity:
            return identify(game_by_code(self.code), token, host_key)

        identity = await db(resolve)
        if (token or host_key) and identity.seat is None and not identity.host:
            await self._error(RulesError("forbidden", detail="unknown credentials"))
            return
        welcome = {"type": "welcome", "seat": identity.seat, "host": identity.host}
        await self.send_frame(frames.encode(welcome))
        await self._switch_identity(identity, as_spectator=bool(frame.get("spectator")))

    async def _switch_identity(self, identity: Identity, as_spectator: bool = False) -> None:
        self.identity = identity
        viewer = identity.viewer(as_spectator=as_spectator or self.watch)
        if viewer == self.viewer:
            return
        if self.joined:
            self.hub.leave(self)
            self.joined = False
            await gamenight.socket_left(self)
        self.viewer = viewer
        self.unacked = 0
        self.held = None
        await self._join()

    async def _resync(self, frame: dict[str, Any]) -> None:
        """A client saw a gap (or reconnected): the events it missed, then the full current state."""
        since = frame.get("since", 0)
        if not isinstance(since, int) or isinstance(since, bool) or since < 0:
            await self._error(MalformedAction(detail="since must be a whole number"))
            return
        hub = self.hub if self.joined else hubs.get(self.code)
        if hub.current is None:
            await hub.refresh()
        if hub.current is None:
            await self._error(RulesError("server_error"))
            return
        snap = hub.current.snap
        if snap is None:  # the hub holds a version its push carried: read the snapshot here, not in the hub
            snap = await db(consistent, snapshot_by_code, self.code)
        if self.fmt == "json":
            after = since
            while True:
                upto = max(after, min(snap.last_seq, after + SYNC_PAGE))
                missed = await db(events_for, self.game_id, self.viewer, after, upto, SYNC_PAGE)
                await self.send_frame(frames.events_frame(missed, upto))
                if upto >= snap.last_seq:
                    break
                after = upto
        self.unacked = 0
        self.held = None
        initial = await db(frames.initial_frame, snap, self.viewer, self.fmt)
        if self.seen_version is not None and self.seen_version > snap.version:
            return  # the hub wrote a newer version meanwhile (it follows the events sent): this one is stale
        await self.deliver(initial, snap.last_seq, snap.version)

    async def _error(self, exc: RulesError, action_id: Any = None) -> None:
        aid = action_id if isinstance(action_id, str) else None
        await self.send_frame(frames.error_frame(exc.code, error_text(exc), aid))
