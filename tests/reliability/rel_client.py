"""A websocket protocol client that follows docs/PROTOCOL.md to the letter, for the reliability tests.

It keeps what a careful front end keeps: the newest view and version, and the event log assembled by
sequence number. It acknowledges every 8 frames, asks for what it missed when an update's ``first_seq``
does not follow its last ``seq`` (or after it reconnects), ignores frames older than what it has, and
never applies an event twice. Everything it received is kept (``frames``) so tests can inspect it.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import re
import time
import uuid
from dataclasses import dataclass, field
from typing import Any

import websockets
from websockets.asyncio.client import ClientConnection, connect

ACK_EVERY = 8
SYNC_RE = re.compile(r'<div id="sync"[^>]*>')
ATTR_RE = re.compile(r'data-([a-z-]+)="([^"]*)"')


def sync_attributes(frame: str) -> dict[str, str] | None:
    """The ``data-*`` attributes of an HTML frame's ``#sync`` element (None: not a room frame)."""
    match = SYNC_RE.search(frame)
    if match is None:
        return None
    return {k: html.unescape(v) for k, v in ATTR_RE.findall(match.group(0))}


class ActionRefused(Exception):
    """The server answered an ``act`` with an ``error`` frame."""

    def __init__(self, frame: dict[str, Any]) -> None:
        super().__init__(f"{frame.get('code')}: {frame.get('message')}")
        self.code = frame.get("code")
        self.frame = frame


@dataclass
class Stats:
    """What happened on the wire, for assertions."""

    frames: int = 0
    updates: int = 0
    gaps: int = 0  # updates whose first_seq did not follow the last seq (a lost or held-back frame)
    overlaps: int = 0  # updates that repeated events already received (must never happen)
    syncs: int = 0
    reconnects: int = 0
    stale_frames: int = 0  # state/update frames older than the view the client already had
    duplicate_events_ignored: int = 0
    rate_limited: int = 0
    conflicting_events: list[tuple[int, Any, Any]] = field(default_factory=list)


class ProtocolClient:
    """One protocol client of one room (``format=json``), identified by ``token``/``host_key`` via hello."""

    def __init__(
        self,
        base_url: str,
        code: str,
        *,
        token: str | None = None,
        host_key: str | None = None,
        watch: bool = False,
        name: str = "",
        ack: bool = True,
        fmt: str = "json",
    ) -> None:
        self.base_url = base_url.replace("http://", "ws://")
        self.code = code
        self.token = token
        self.host_key = host_key
        self.watch = watch
        self.name = name or ("spectator" if not (token or host_key) else "client")
        self.ack = ack
        self.fmt = fmt  # "json", or "html" (a room page's socket: its frames are htmx partials)
        self.ws: ClientConnection | None = None
        self.version = -1
        self.seq = 0  # every event up to here is in ``log`` (or is not visible to this viewer)
        self.view: dict[str, Any] | None = None
        self.log: dict[int, dict[str, Any]] = {}
        self.frames: list[str] = []
        self.stats = Stats()
        self.welcome: dict[str, Any] | None = None
        self.alerts: list[str] = []
        self.errors: list[dict[str, Any]] = []
        self._since_ack = 0
        self._syncing = False
        self._buffered: list[dict[str, Any]] = []
        self._pending: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()
        self.closed = asyncio.Event()

    # ------------------------------------------------------------------ connection
    @property
    def url(self) -> str:
        query = f"format={self.fmt}" + ("&as=spectator" if self.watch else "")
        return f"{self.base_url}/ws/r/{self.code}/?{query}"

    async def connect(self, timeout: float = 10.0, wait: bool = True) -> None:
        """Open the socket (retrying until ``timeout``: the server may be restarting), say hello, resync."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                self.ws = await connect(
                    self.url,
                    origin="http://127.0.0.1",
                    max_size=4 * 1024 * 1024,
                    open_timeout=5,
                    ping_interval=None,
                )
                break
            except (OSError, websockets.InvalidHandshake, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(0.1)
        self.closed.clear()
        self._since_ack = 0
        # Until the hello is answered the socket sees the spectator's projection: no resync before it
        # (the events would be the public ones only), so the first sync is sent after the hello.
        self._syncing = True
        self._buffered = []
        self.welcome = None
        self._reader = asyncio.create_task(self._read(self.ws))
        if self.token or self.host_key:
            await self.send({"type": "hello", "token": self.token, "host_key": self.host_key})
        # A (re)connected client asks for everything after its last event (PROTOCOL: "sync").
        await self._ask_sync()
        if wait:
            await self.wait_for(
                lambda c: not c._syncing and (c.welcome is not None or not (c.token or c.host_key)), timeout
            )

    async def reconnect(self, timeout: float = 30.0) -> None:
        """Connect again after the server went away, and resume from the last event."""
        self.stats.reconnects += 1
        await self.close()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionError("connection lost before the answer"))
        self._pending.clear()
        await self.connect(timeout=timeout)

    async def close(self) -> None:
        """Close the socket and stop reading."""
        if self.ws is not None:
            with contextlib.suppress(Exception):
                await self.ws.close()
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(BaseException):
                await self._reader
            self._reader = None
        self.closed.set()

    async def send(self, obj: dict[str, Any]) -> None:
        """Send one frame (raises ConnectionError when the socket is gone)."""
        if self.ws is None:
            raise ConnectionError("not connected")
        try:
            await self.ws.send(json.dumps(obj))
        except websockets.ConnectionClosed as exc:
            raise ConnectionError(str(exc)) from exc

    # ------------------------------------------------------------------ reading
    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for text in ws:
                assert isinstance(text, str)
                self.frames.append(text)
                self.stats.frames += 1
                if text.startswith("{"):
                    await self._handle(json.loads(text))
                else:
                    await self._handle_html(text)
                self._since_ack += 1
                if self.ack and self._since_ack >= ACK_EVERY:
                    self._since_ack = 0
                    await ws.send('{"type":"ack"}')
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self._changed.set()

    async def _handle(self, frame: dict[str, Any]) -> None:
        kind = frame.get("type")
        if kind == "update":
            self.stats.updates += 1
            self._adopt_view(frame)
            if self._syncing:
                self._buffered.append(frame)
            else:
                await self._apply_update(frame)
        elif kind == "state":
            self._adopt_view(frame)
            if frame["seq"] > self.seq and not self._syncing:
                await self._ask_sync()
        elif kind == "events":
            self._merge(frame["events"])
            self.seq = max(self.seq, frame["seq"])
            buffered, self._buffered = self._buffered, []
            self._syncing = False
            for update in buffered:
                await self._apply_update(update, replayed=True)
        elif kind == "result":
            future = self._pending.pop(frame.get("action_id") or "", None)
            if future is not None and not future.done():
                future.set_result(frame)
        elif kind == "error":
            self.errors.append(frame)
            future = self._pending.pop(frame.get("action_id") or "", None)
            if future is not None and not future.done():
                future.set_exception(ActionRefused(frame))
        elif kind == "welcome":
            self.welcome = frame
        elif kind == "alert":
            self.alerts.append(frame.get("message", ""))
        self._changed.set()

    async def _handle_html(self, text: str) -> None:
        """A room page's frame: a full render (``data-full=1``) or an update, told apart by ``#sync``."""
        attrs = sync_attributes(text)
        if attrs is None:  # an alert or a toast
            if "alert" in text:
                self.alerts.append(text)
            self._changed.set()
            return
        version, seq, first = int(attrs["version"]), int(attrs["seq"]), int(attrs["first-seq"])
        if version < self.version:
            self.stats.stale_frames += 1
        else:
            self.version = version
            self.view = {
                "seq": seq,
                "version": version,
                "status": attrs.get("status"),
                "phase": attrs.get("phase"),
            }
        if attrs.get("full") == "1":  # a full render replaces the page: nothing before it is needed
            self._syncing = False
            self.seq = max(self.seq, seq)
        else:
            self.stats.updates += 1
            if seq <= self.seq:
                self.stats.overlaps += 1
            elif first > self.seq + 1:
                self.stats.gaps += 1
                if not self._syncing:
                    await self._ask_sync()
            elif not self._syncing:
                self.seq = seq
        self._changed.set()

    def _adopt_view(self, frame: dict[str, Any]) -> None:
        if frame["version"] < self.version:
            self.stats.stale_frames += 1
            return
        self.version = frame["version"]
        self.view = frame["view"]

    async def _apply_update(self, frame: dict[str, Any], replayed: bool = False) -> None:
        first, last = frame["first_seq"], frame["seq"]
        if last <= self.seq:
            if not replayed:
                self.stats.overlaps += 1
            return
        if first > self.seq + 1:
            self.stats.gaps += 1
            await self._ask_sync()
            return
        if first <= self.seq and not replayed:
            self.stats.overlaps += 1
        self._merge([e for e in frame["events"] if e["seq"] > self.seq])
        self.seq = last

    def _merge(self, events: list[dict[str, Any]]) -> None:
        for e in events:
            known = self.log.get(e["seq"])
            if known is None:
                if e["seq"] > self.seq:
                    self.log[e["seq"]] = e
                continue
            self.stats.duplicate_events_ignored += 1
            if known != e:
                self.stats.conflicting_events.append((e["seq"], known, e))

    async def _ask_sync(self) -> None:
        self._syncing = True
        self.stats.syncs += 1
        with contextlib.suppress(ConnectionError):
            await self.send({"type": "sync", "since": self.seq})

    # ------------------------------------------------------------------ acting
    async def act(
        self,
        action: dict[str, Any],
        version: int | None = None,
        action_id: str | None = None,
        timeout: float = 15.0,
        pace: bool = True,
    ) -> dict[str, Any]:
        """Send an action with the version this client saw; return the ``result`` frame.

        With ``pace`` a ``rate_limited`` refusal (nothing was applied) is retried a moment later with the
        same action id, as a polite client does.

        :raises ActionRefused: with the server's error code.
        """
        aid = action_id or uuid.uuid4().hex
        while True:
            future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
            self._pending[aid] = future
            await self.send(
                {
                    "type": "act",
                    "action": action,
                    "version": self.version if version is None else version,
                    "action_id": aid,
                }
            )
            try:
                return await asyncio.wait_for(future, timeout)
            except ActionRefused as exc:
                if not (pace and exc.code == "rate_limited"):
                    raise
                self.stats.rate_limited += 1
                await asyncio.sleep(0.3)

    async def wait_for(self, predicate: Any, timeout: float = 15.0) -> None:
        """Wait until ``predicate(self)`` holds (checked after every frame)."""
        deadline = time.monotonic() + timeout
        while not predicate(self):
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError(
                    f"{self.name}: condition not met within {timeout} s (version {self.version}, "
                    f"seq {self.seq})"
                )
            self._changed.clear()
            if predicate(self):
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.5))

    async def wait_version(self, version: int, timeout: float = 15.0) -> None:
        """Wait until the client's view and log reach ``version`` (and nothing is being resynced)."""
        await self.wait_for(
            lambda c: c.version >= version and not c._syncing and c.seq >= (c.view or {}).get("seq", 0),
            timeout,
        )

    def my_prompts(self) -> list[dict[str, Any]]:
        """The decisions this client's seat must take in its newest view."""
        return list((self.view or {}).get("my_prompts") or [])

    def events(self) -> list[dict[str, Any]]:
        """The assembled log, oldest first."""
        return [self.log[s] for s in sorted(self.log)]
