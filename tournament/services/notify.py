"""Tell the room's sockets that the game moved on — only ever after the transaction committed.

Publishing follows every action, so it must cost next to nothing on the way to the sockets (issue 10,
docs/PERFORMANCE.md): this process's own room hub is woken directly on the server's event loop, and the
committing thread then sends the Redis ``PUBLISH`` to the other processes itself, on a connection it keeps,
while the loop already fans out (channels-redis's ``group_send`` on the loop cost ~0.2 ms of the loop before
the local fan-out could start). Other layers get the push handed to the server loop; outside a server
(management commands, tests) one long-lived publisher loop sends it, because ``async_to_sync`` would start a
fresh event loop and thread per call. The in-process layer is skipped when this process's hub was woken
directly: that layer reaches nobody else.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import socket
import threading
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import unquote, urlsplit

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

try:  # the Redis layer is optional (SQLite + in-memory layer needs no Redis)
    import redis
    from channels_redis.pubsub import RedisPubSubChannelLayer
    from channels_redis.utils import _consistent_hash, decode_hosts
except ImportError:  # pragma: no cover - the project installs channels-redis
    RedisPubSubChannelLayer = None  # type: ignore[assignment,misc]

if TYPE_CHECKING:
    from tournament.services.store import Snapshot

log = logging.getLogger(__name__)

PUBLISH_TIMEOUT = 5.0
# The committing thread's own PUBLISH answers in well under a millisecond. It runs on the database thread,
# which every action of this process waits behind, so a Redis that stops answering (paused, or a network
# that drops packets) must cost it this much at most, not the loop path's five seconds.
THREAD_PUBLISH_TIMEOUT = 0.5


def room_group(code: str) -> str:
    """The Channels group of a room (group names allow ASCII letters, digits, hyphens and periods)."""
    return f"room.{code}"


class _Publisher:
    """One background event loop that owns the out-of-process layer's connections for sync callers."""

    def __init__(self) -> None:
        self._loop: asyncio.AbstractEventLoop | None = None
        self._lock = threading.Lock()

    def _ensure(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None or self._loop.is_closed():
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="channel-publisher", daemon=True)
                thread.start()
                self._loop = loop
            return self._loop

    def run(self, coro: Coroutine[Any, Any, Any]) -> None:
        future = asyncio.run_coroutine_threadsafe(coro, self._ensure())
        future.result(PUBLISH_TIMEOUT)


_publisher = _Publisher()


class _ThreadPublisher:
    """``PUBLISH`` from a synchronous thread exactly as channels-redis's pub/sub layer would (its group
    channel name, shard and serializer), on a connection each thread keeps.

    Only for ``RedisPubSubChannelLayer`` itself (a subclass may change how it sends, as the tests' dropping
    layer does). After a failure the thread leaves Redis alone for a few seconds (the pushes go through the
    server loop meanwhile), so an outage never stalls every action on a connect timeout.
    """

    RETRY_SECONDS = 5.0
    KEPT_GROUPS = 10_000  # receiver counts kept (one per room published to lately)

    def __init__(self) -> None:
        self._local = threading.local()
        self._receivers: dict[str, int] = {}  # group → processes its last PUBLISH reached (PUBLISH's answer)

    def others_may_listen(self, group: str, here: bool) -> bool:
        """Whether the last push to ``group`` reached another process than this one (unknown: yes), so a
        push is worth carrying the version's data: nobody else would read it otherwise."""
        reached = self._receivers.get(group)
        return reached is None or reached > (1 if here else 0)

    def applies(self, layer: Any) -> bool:
        if RedisPubSubChannelLayer is None or type(layer) is not RedisPubSubChannelLayer:
            return False
        return time.monotonic() >= getattr(self._local, "down_until", 0.0)

    def publish(self, layer: Any, group: str, message: dict[str, Any]) -> bool:
        """Publish ``message`` to ``group``; False (and logged) when Redis could not be reached."""
        local = self._local
        if getattr(local, "layer", None) is not layer:
            hosts = decode_hosts(layer._kwargs.get("hosts") or (layer._args[0] if layer._args else None))
            local.clients = [_sync_client(host) for host in hosts]
            local.layer = layer
        channel = f"{layer._kwargs.get('prefix', 'asgi')}__group__{group}"
        client = local.clients[_consistent_hash(channel, len(local.clients))]
        try:
            reached = client.publish(channel, layer.serialize(message))
        except (redis.RedisError, OSError):
            local.down_until = time.monotonic() + self.RETRY_SECONDS
            log.warning("push to group %s failed; retrying through the server loop", group, exc_info=True)
            return False
        if len(self._receivers) > self.KEPT_GROUPS:
            self._receivers.clear()
        self._receivers[group] = int(reached)
        return True


def _sync_client(host: dict[str, Any]) -> Any:
    """A synchronous publisher for one of channels-redis's host entries (an address or connection options):
    a bare RESP connection when the entry is a plain ``redis://`` or ``unix://`` address or host and port
    (``_RespPublisher``), else redis-py's client (TLS, other connection options)."""
    raw = _RespPublisher.of(host)
    if raw is not None:
        return raw
    options = {
        "socket_connect_timeout": THREAD_PUBLISH_TIMEOUT,
        "socket_timeout": THREAD_PUBLISH_TIMEOUT,
        **host,
    }
    address = options.pop("address", None)
    if address is not None:
        return redis.Redis.from_url(address, **options)
    return redis.Redis(**options)


class _RespPublisher:
    """``PUBLISH`` written as RESP on a blocking socket of its own.

    The committing thread publishes once per action, on the database thread that every action of its
    process waits behind: through redis-py 8 (its command machinery, connection pool and telemetry) a
    5 KB push cost ~74 µs of CPU, written directly ~26 µs (docs/PERFORMANCE.md, issue 22). Only
    ``PUBLISH`` and an optional ``AUTH``; a socket that failed is closed and opened again at the next push.
    """

    def __init__(self, address: tuple[str, int] | str, username: str | None, password: str | None) -> None:
        self._address = address
        self._auth = [a for a in (username, password) if a] if password else []
        self._sock: socket.socket | None = None

    @classmethod
    def of(cls, host: dict[str, Any]) -> _RespPublisher | None:
        """The publisher for a host entry it can serve (None: redis-py's client serves it)."""
        if "address" in host:
            if set(host) != {"address"}:
                return None
            url = urlsplit(str(host["address"]))
            user, password = unquote(url.username or "") or None, unquote(url.password or "") or None
            if url.scheme == "unix":
                return cls(url.path, user, password)
            if url.scheme != "redis" or not url.hostname:
                return None  # rediss (TLS) and the rest
            return cls((url.hostname, url.port or 6379), user, password)
        if set(host) <= {"host", "port"}:
            return cls((str(host.get("host", "localhost")), int(host.get("port", 6379))), None, None)
        return None

    def publish(self, channel: str, data: bytes) -> int:
        """Publish; how many subscribers received it. Raises ``redis.RedisError`` (refused, closed) or
        ``OSError`` (unreachable, timed out), after which the next call reconnects."""
        try:
            sock = self._sock or self._connect()
            reply = self._call(sock, b"PUBLISH", channel.encode(), data)
        except BaseException:
            self.close()
            raise
        return int(reply)

    def close(self) -> None:
        if self._sock is not None:
            with contextlib.suppress(OSError):
                self._sock.close()
            self._sock = None

    def _connect(self) -> socket.socket:
        if isinstance(self._address, str):
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.settimeout(THREAD_PUBLISH_TIMEOUT)
            sock.connect(self._address)
        else:
            sock = socket.create_connection(self._address, timeout=THREAD_PUBLISH_TIMEOUT)
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock = sock
        if self._auth:
            self._call(sock, b"AUTH", *(a.encode() for a in self._auth))
        return sock

    @staticmethod
    def _call(sock: socket.socket, *args: bytes) -> bytes:
        """Send one command and read its one-line reply (an integer or a status)."""
        parts = [b"*%d\r\n" % len(args)]
        for arg in args:
            parts += (b"$%d\r\n" % len(arg), arg, b"\r\n")
        sock.sendall(b"".join(parts))
        reply = b""
        while not reply.endswith(b"\r\n"):
            chunk = sock.recv(256)
            if not chunk:
                raise redis.ConnectionError("Redis closed the connection")
            reply += chunk
        if reply[:1] == b"-":
            raise redis.ResponseError(reply[1:-2].decode(errors="replace"))
        return reply[1:-2]


_thread_publisher = _ThreadPublisher()


class LocalRooms(Protocol):
    """This process's room hubs, as the publisher sees them (registered by tournament/realtime/hub.py)."""

    def serves(self, code: str) -> bool:
        """Whether a hub of this process, on a running server loop, holds sockets of the room."""
        ...

    def changed(self, code: str, version: int) -> None:
        """Wake the room's hub for ``version``; callable from any thread."""
        ...

    def server_loop(self) -> asyncio.AbstractEventLoop | None:
        """The server's event loop, once a socket has connected."""
        ...


local_rooms: LocalRooms | None = None


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _send(code: str, message: dict[str, Any], reached_here: bool = False) -> None:
    """Publish ``message`` to the room's group: to the other processes (and this one, unless its hub was
    woken directly); never waits for the layer when a server loop can send it."""
    layer = get_channel_layer()
    if layer is None:
        return
    group = room_group(code)
    try:
        if isinstance(layer, InMemoryChannelLayer):
            if reached_here or not layer.groups.get(group):
                return  # the in-process layer reaches nobody the direct wake-up did not
            # the in-process layer's queues belong to the server's loop: asgiref runs the send there
            async_to_sync(layer.group_send)(group, message)
            return
        running = _running_loop()
        server = local_rooms.server_loop() if local_rooms is not None else None
        if running is not None:
            _spawn(layer.group_send(group, message))
        elif _thread_publisher.applies(layer) and _thread_publisher.publish(layer, group, message):
            return
        elif server is not None and not server.is_closed():
            # The push is the first thing the server loop does next (before this process's own fan-out,
            # which the caller schedules after it): the other processes hear of the version at once.
            server.call_soon_threadsafe(
                _spawn, layer.group_send(group, message), context=contextvars.Context()
            )
        else:
            _publisher.run(layer.group_send(group, message))
    except Exception:  # a lost push is harmless: hubs poll and clients resync by sequence number
        log.warning("push to room %s failed", code, exc_info=True)


_tasks: set[asyncio.Future[Any]] = set()  # sends in flight (the loop keeps only weak references)


def _spawn(coro: Coroutine[Any, Any, Any]) -> None:
    task = asyncio.ensure_future(coro)
    _tasks.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Future[Any]) -> None:
    _tasks.discard(task)
    if not task.cancelled() and task.exception() is not None:
        log.warning("push failed: %s", task.exception())


def game_changed(
    code: str,
    version: int,
    last_seq: int,
    snap: Snapshot | None = None,
    events: list[dict[str, Any]] | None = None,
) -> None:
    """Broadcast the new version; each socket renders its own viewer's projection of it.

    Given the committed ``snap`` and its ``events`` (with their audiences), a push to other processes
    carries what every viewer of the room may see of the version (``frames.carry``: the public part, the
    spectators' part, the events without an audience; at most ``CARRY_MAX_BYTES``), so a process whose
    sockets there all watch renders it without reading the database. A seat's, the host's or a hidden
    event's data never go into the message: the process that serves such a viewer reads the database.
    Nothing is carried while the room's last push reached no other process (one server, or a room whose
    sockets are all here): the first push after another process subscribes then goes without data, and
    that process reads the database once.
    """
    rooms = local_rooms
    here = rooms is not None and rooms.serves(code)
    message: dict[str, Any] = {"type": "game.changed", "version": version, "seq": last_seq}
    layer = get_channel_layer()
    counted = _thread_publisher.applies(layer)  # this thread's PUBLISH tells how many processes listen
    worth = not counted or _thread_publisher.others_may_listen(room_group(code), here)
    if snap is not None and events is not None and _reaches_others(layer) and worth:
        try:
            carried = _carry(snap, events)
        except Exception:  # the push itself matters more: the others read the database then
            log.warning("could not carry version %s of room %s", version, code, exc_info=True)
            carried = None
        if carried is not None:
            message["carry"] = carried
    # Published from this thread, the push to the others goes out while the loop already fans out here;
    # handed to the loop, it goes first, so that the other processes hear at once (module docstring).
    local_first = here and _running_loop() is None and _thread_publisher.applies(layer)
    if not local_first:
        _send(code, message, reached_here=here)
    if here:
        try:
            rooms.changed(code, version)  # type: ignore[union-attr]
        except Exception:
            log.warning("local push to room %s failed", code, exc_info=True)
    if local_first:
        _send(code, message, reached_here=here)


def _reaches_others(layer: Any) -> bool:
    """Whether the layer reaches other processes (the in-process layer does not: nothing to carry)."""
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def _carry(snap: Snapshot, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    from tournament.realtime.frames import carry  # the realtime package imports this module

    return carry(snap, events)


def host_alert(code: str, message: str) -> None:
    """An action was refused because it would have broken an invariant: the host console shows it."""
    _send(code, {"type": "host.alert", "message": message[:500]})


def room_message(code: str, message: dict[str, Any]) -> None:
    """A message that is no game version (a chat line, a presence change): the hubs forward it as it is."""
    _send(code, message)
