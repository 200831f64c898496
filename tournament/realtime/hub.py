"""Per-process fan-out: one channel-layer subscription per room per process, one render per projection.

When a room's game changes, the hub of each process that has sockets in that room loads the new snapshot
once, renders each distinct projection once (all spectators share one; each seat has its own; the host
his own) in each wire format once, and hands the same encoded text to every local socket of that
projection. The hub holds sockets and a cache of the latest render — never game state of its own: the
database is the truth, the version the key.

Sockets apply back-pressure with a small window of unacknowledged frames: a socket that stops reading
receives no more frames (its newest pending frame replaces older ones), so a slow spectator cannot grow
the server's memory nor delay anybody else; when it catches up it notices the sequence gap and resyncs.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from channels.layers import get_channel_layer

from tournament.realtime import frames, gamenight, html
from tournament.realtime.db import consistent, db
from tournament.realtime.driver import driver
from tournament.realtime.lease import RENEW_SECONDS, leases
from tournament.rules.errors import RulesError
from tournament.rules.projection import Viewer
from tournament.selectors import snapshot_by_code
from tournament.services import notify
from tournament.services.notify import room_group
from tournament.services.store import Snapshot, cache, recent_events

log = logging.getLogger(__name__)

POLL_SECONDS = 2.0  # a hub re-reads the version this often, so a lost push is repaired within seconds

# tasks started in the background (a group discard, a refresh woken from another thread): the loop
# holds only weak references, so they are kept here until done
_background: set[asyncio.Future[None]] = set()


class Socket(Protocol):
    """What the hub needs from a connected socket."""

    viewer: Viewer
    fmt: str
    seen_version: int | None  # the newest version written to it (its first frame or a resync's included)

    def push(self, frame: str, seq: int, version: int | None = None) -> bool:
        """Write a frame now, or hold it back under back-pressure, without awaiting; False when the
        socket can only be written through ``deliver``."""
        ...

    async def deliver(self, frame: str, seq: int, version: int | None = None) -> None:
        """Write a frame now, or hold it back under back-pressure (never waits on the network)."""
        ...

    def takes_delta(self, base: int) -> bool:
        """Whether a delta from version ``base`` may be written now (the socket asked for deltas and
        holds ``base``)."""
        ...


def viewer_key(viewer: Viewer) -> str:
    """Sockets with the same key see exactly the same projection."""
    if viewer.host:
        return f"host:{viewer.seat}"
    if viewer.seat is not None:
        return f"seat:{viewer.seat}"
    return "spectator"


@dataclass(slots=True)
class Rendered:
    """The latest version of a room and the frames already rendered for it: its snapshot read from the
    database (or this process's cache), or, for a version another process committed, what its push
    carried (``frames.Carried``: the spectators' data only, so only JSON spectators are served from it)."""

    snap: Snapshot | None
    # all events of the last refresh, with audiences (server-side only); None: the carried version's own
    events: list[dict[str, Any]] | None
    first_seq: int
    json: frames.VersionFrames | None = None  # JSON frames, built when a protocol socket needs one
    pages: html.VersionPages | None = None  # HTML frames, built when a room page needs one
    carried: frames.Carried | None = None

    @property
    def version(self) -> int:
        return self.snap.version if self.snap is not None else self.carried.version  # type: ignore[union-attr]

    @property
    def last_seq(self) -> int:
        return self.snap.last_seq if self.snap is not None else self.carried.last_seq  # type: ignore[union-attr]

    def json_frames(self, previous: Rendered | None) -> frames.VersionFrames:
        """This version's JSON frames; their deltas apply to ``previous`` (the last version pushed)."""
        if self.json is None:
            base = None
            if previous is not None:
                base = previous.json or frames.VersionFrames(
                    previous.snap, [], previous.first_seq, carried=previous.carried
                )
            self.json = frames.VersionFrames(self.snap, self.events, self.first_seq, base, self.carried)
        return self.json

    def html_pages(self, previous: Rendered | None, cache: html.RegionCache) -> html.VersionPages:
        """This version's HTML frames; their deltas apply to ``previous`` (the last version pushed; a
        carried one cannot be a page's base: full frames then)."""
        if self.pages is None:
            base = None
            if previous is not None and previous.snap is not None:
                base = previous.pages or html.VersionPages(previous.json_frames(None), cache)
            self.pages = html.VersionPages(self.json_frames(previous), cache, base)
        return self.pages


class RoomHub:
    """All sockets of one room in this process."""

    def __init__(self, code: str, on_empty: Callable[[RoomHub], None]) -> None:
        self.code = code
        self.sockets: set[Socket] = set()
        self.current: Rendered | None = None
        self._on_empty = on_empty
        self._lock = asyncio.Lock()
        self._dirty = False
        self._hint = 0  # the newest version a push announced
        self._previous: Rendered | None = None  # the version pushed before ``current`` (deltas' base)
        self._regions = html.RegionCache()  # room-page regions of the last two versions
        self._joining = 0  # joins in progress: the hub must not stop under them
        self._channel: str | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._carried: list[frames.Carried] = []  # versions pushes carried, not yet rendered
        self._need_snapshot = False  # the next refresh reads the database even for the same version
        self._all_watch: bool | None = None  # whether every socket here is a JSON spectator (None: unknown)

    # ------------------------------------------------------------------ membership
    async def join(self, sock: Socket) -> None:
        """Add a socket and send it the full state of the current version.

        :raises RulesError: ``unknown_room`` when the room does not exist.
        """
        self._joining += 1  # before the first await: a socket leaving meanwhile cannot stop this hub
        try:
            if not self._tasks:
                await self._start()
            await self.refresh()
            # The first frame is rendered and sent with the fan-out held back (the hub's lock): an update of
            # a newer version can then neither overtake it nor be skipped for this socket after it.
            async with self._lock:
                if self.current is None or self.current.snap is None:
                    # another join or refresh held the lock during our refresh, or the current version
                    # came carried by its push: a first frame needs the snapshot from the database
                    self._need_snapshot = True
                    await self._refresh_once()
                if self.current is None or self.current.snap is None:
                    await db(snapshot_by_code, self.code)  # raises unknown_room
                    raise RulesError("server_error")
                self.sockets.add(sock)
                self._all_watch = None
                current = self.current
                snap = current.snap
                assert snap is not None
                frame = await db(frames.initial_frame, snap, sock.viewer, sock.fmt)
                await sock.deliver(frame, snap.last_seq, snap.version)
        finally:
            self._joining -= 1
            self._stop_if_unused()
        if self._dirty:  # a push arrived while the lock was held: nobody else will look at it
            await self.refresh()

    def leave(self, sock: Socket) -> None:
        """Remove a socket; the last one out stops the room's subscription in this process."""
        self.sockets.discard(sock)
        self._all_watch = None
        self._stop_if_unused()

    def _stop_if_unused(self) -> None:
        if not self.sockets and not self._joining:
            self._stop()
            self._on_empty(self)

    # ------------------------------------------------------------------ subscription
    async def _start(self) -> None:
        layer = get_channel_layer()
        if layer is not None:
            # A channel name of our own, opened by receiving on it: unlike ``new_channel`` on the Redis
            # pub/sub layer this needs no Redis, so a room still opens while Redis is down (its poll keeps it
            # current and joins the group once Redis is back), and a retry reuses the name instead of
            # leaving an abandoned channel behind in the layer.
            self._channel = f"hub.{self.code}.{uuid.uuid4().hex}"
            self._tasks.append(asyncio.create_task(self._listen(layer, self._channel)))
            await asyncio.sleep(0)  # the listener's first receive registers the channel in this process
            try:
                await layer.group_add(room_group(self.code), self._channel)
            except Exception:  # the layer is down: sockets still join; the poll subscribes again later
                log.warning("could not subscribe room %s to the channel layer", self.code, exc_info=True)
        hubs.polled()
        if leases.distributed():
            await leases.claim(self.code)  # before the first refresh, which shows the room to the driver
            self._tasks.append(asyncio.create_task(self._drive()))

    async def _drive(self) -> None:
        """Hold the room's driver lease while this process has sockets in it: renew it, or take it over
        from a process that stopped renewing (died); schedule the room's decisions when it comes to us,
        drop them when it went to another process."""
        while True:
            await asyncio.sleep(RENEW_SECONDS)
            held = leases.holds(self.code)
            try:
                now = await leases.claim(self.code)
            except asyncio.CancelledError:
                raise
            except Exception:  # claim logs and reports Redis outages itself; anything else: next round
                log.warning("driver lease round of room %s failed", self.code, exc_info=True)
                continue
            if now and not held:
                log.info("room %s: this process drives it now", self.code)
                if self.current is not None and self.current.snap is not None:
                    driver.poke(self.current.snap)
                elif self.current is not None:  # a carried version: the driver needs the snapshot
                    self._need_snapshot = True
                    await self.refresh()
            elif held and not now:
                log.info("room %s: another process drives it now", self.code)
                driver.forget(self.code)

    def _stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        self._tasks.clear()
        if leases.distributed():  # another process with sockets in the room drives it from now on
            driver.forget(self.code)
            release = asyncio.ensure_future(leases.release(self.code))
            _background.add(release)
            release.add_done_callback(_background.discard)
        layer = get_channel_layer()
        if layer is not None and self._channel is not None:
            channel = self._channel
            self._channel = None

            async def discard() -> None:
                with contextlib.suppress(Exception):
                    await layer.group_discard(room_group(self.code), channel)

            task = asyncio.ensure_future(discard())
            _background.add(task)  # keep a reference until it is done (the loop holds only weak ones)
            task.add_done_callback(_background.discard)

    async def _listen(self, layer: Any, channel: str) -> None:
        """Receive the room's group messages; survive a channel-layer outage by re-subscribing."""
        while True:
            try:
                message = await layer.receive(channel)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if _idle_timeout(exc):  # nothing arrived within the socket timeout: wait again
                    continue
                log.warning(
                    "channel layer receive failed for room %s; re-subscribing", self.code, exc_info=True
                )
                await asyncio.sleep(0.5)
                with contextlib.suppress(Exception):
                    await layer.group_add(room_group(self.code), channel)
                await self.refresh()
                continue
            kind = message.get("type")
            if kind == "game.changed":
                version = message.get("version", 0)
                log.debug("room %s: push of version %s received", self.code, version)
                if isinstance(version, int) and (self.current is None or version > self.current.version):
                    self._hint = max(self._hint, version)
                    if "carry" in message and self._serves_watchers_only():
                        carried = frames.Carried.of(self.code, message)
                        if carried is not None:
                            self._carried.append(carried)
                    await self.refresh()
            elif kind == "host.alert":
                await self._broadcast_alert(str(message.get("message", "")))
            elif kind in gamenight.MESSAGES:  # chat lines, presence: no game version, forwarded as they are
                await gamenight.forward(self, message)

    def _serves_watchers_only(self) -> bool:
        """Whether every socket here is a JSON spectator and this process does not drive the room: then a
        version's carried data is all its frames need (a driver needs the whole state)."""
        if leases.holds(self.code) or self._joining:
            return False
        if self._all_watch is None:  # asked for every push: known until a socket joins or leaves
            spectator = frames.SPECTATOR_KEY
            self._all_watch = all(
                sock.fmt == "json" and viewer_key(sock.viewer) == spectator for sock in self.sockets
            )
        return self._all_watch

    async def poll(self, version: int | None, layer: Any) -> None:
        """One round of the process's poll (``Hubs._poll``) for this room, given the room's version in
        the database (None: the room is gone).

        The subscription is renewed (a restarted Redis has forgotten every group, and nothing else would
        tell this process to subscribe again); a version this hub has not got (its push was lost) is read;
        and the driver is shown the room again although no new version came: a bot decision that gave up
        (its action failed or was refused, e.g. while a database restarted) is scheduled anew instead of
        stalling the room for good, since only a new version would otherwise schedule it (a flaky check's
        kill -9 run found a room whose bot never decided again).
        """
        if layer is not None and self._channel is not None:
            with contextlib.suppress(Exception):
                await layer.group_add(room_group(self.code), self._channel)
        current = self.current
        if current is None or version is None or version > current.version:
            await self.refresh()
        elif current.snap is None and leases.holds(self.code):
            self._need_snapshot = True  # this process drives the room now: the driver needs the state
            await self.refresh()
        current = self.current
        if current is not None and current.snap is not None:
            driver.poke(current.snap)  # what is already scheduled stays as it is

    # ------------------------------------------------------------------ rendering
    async def refresh(self) -> None:
        """Load the room's current version and push it to every socket (coalescing bursts)."""
        if self._lock.locked():
            self._dirty = True
            return
        async with self._lock:
            while True:
                self._dirty = False
                await self._refresh_once()
                if not self._dirty:
                    break

    async def _refresh_once(self) -> None:
        previous = self.current
        after = previous.last_seq if previous is not None else None
        # The hint is used once: a poll (no hint) must read the database, or a version committed by another
        # process whose push was lost would hide behind this process's own newest snapshot for ever.
        hint, self._hint = self._hint, 0
        need_snapshot, self._need_snapshot = self._need_snapshot, False
        carried = self._take_carried(previous, hint, need_snapshot)
        if carried is not None:
            assert previous is not None
            self._previous = previous
            self.current = carried
            await self._fan_out()
            return
        loaded = _load_local(self.code, after, hint)
        if loaded is None:
            try:
                loaded = await db(_load, self.code, after)
            except RulesError:
                return
        snap, events = loaded
        if previous is not None and snap.version <= previous.version:
            if previous.snap is None and snap.version == previous.version:
                # the carried version's snapshot (a socket joins, or the driver needs it): nothing to send
                carried = previous.carried
                events = previous.events
                if events is None:  # the carried version's own events, if its frame decodes
                    events = carried.events if carried is not None and carried.decode() else []
                self.current = Rendered(snap=snap, events=events, first_seq=previous.first_seq)
                driver.poke(snap)  # this process may have just taken the room over
            return
        first_seq = events[0]["seq"] if events else snap.last_seq + 1
        self._previous = previous
        self.current = Rendered(snap=snap, events=events, first_seq=first_seq)
        driver.poke(snap)
        if previous is None:
            return
        await self._fan_out()

    def _take_carried(self, previous: Rendered | None, hint: int, need_snapshot: bool) -> Rendered | None:
        """The newest version the pushes carried, when it follows ``previous`` without a gap and this
        process may serve it from the carried data alone; None: read the database (a push missing, out
        of order, too large, malformed or not carried, a socket that is no JSON spectator, this process
        driving).

        One version after ``previous`` whose spectators all take full frames is written as its push
        carried it, undecoded; several at once (their events joined) or a delta decode the frames first."""
        found, self._carried = sorted(self._carried, key=lambda c: c.version), []
        if previous is None or need_snapshot or not found or not self._serves_watchers_only():
            return None
        version, last_seq = previous.version, previous.last_seq
        first_seq = last_seq + 1  # the frame's events follow the previous version's, seen or not
        new: list[frames.Carried] = []
        for item in found:
            if item.version <= version:
                continue  # already here (this process's own push came back, or a poll read it)
            if item.first_seq != last_seq + 1:
                return None  # a version in between was not carried (or its push was lost)
            new.append(item)
            version, last_seq = item.version, item.last_seq
        if not new or hint > version:
            return None  # a newer version was announced without its data
        newest = new[-1]
        delta = any(sock.takes_delta(previous.version) for sock in self.sockets)
        if len(new) == 1 and not delta:
            return Rendered(snap=None, events=None, first_seq=first_seq, carried=newest)
        if not all(item.decode() for item in new):
            return None  # (a base that does not decode gets full frames: ``VersionFrames.has``)
        events = [e for item in new for e in item.events]
        return Rendered(snap=None, events=events, first_seq=first_seq, carried=newest)

    async def _fan_out(self) -> None:
        """Every socket gets its projection's frame of the new version: the delta when it holds the
        version pushed before (JSON ``delta=1`` clients, room pages), else the full frame; one frame per
        projection and format, shared by all its sockets."""
        current = self.current
        assert current is not None
        version_number, last_seq = current.version, current.last_seq
        groups: dict[tuple[str, str], list[Socket]] = {}
        for sock in list(self.sockets):
            groups.setdefault((viewer_key(sock.viewer), sock.fmt), []).append(sock)
        for (key, fmt), members in groups.items():
            viewer = members[0].viewer
            version: frames.VersionFrames | html.VersionPages
            if fmt == "json":
                version = current.json_frames(self._previous)
            else:
                version = current.html_pages(self._previous, self._regions)
            base = version.base
            for sock in members:
                if sock.seen_version is not None and sock.seen_version >= version_number:
                    continue  # it holds this version already: a resync answered it from a newer snapshot
                if base is not None and sock.takes_delta(base):
                    frame = version.delta(key, viewer, fmt)
                else:
                    frame = version.full(key, viewer, fmt)
                if not sock.push(frame, last_seq, version_number):
                    await sock.deliver(frame, last_seq, version_number)
        self._previous = None  # the next version's deltas start from this one

    async def _broadcast_alert(self, message: str) -> None:
        for sock in list(self.sockets):
            if sock.viewer.host:
                await sock.deliver(frames.alert_frame(message, sock.fmt), -1)


def _idle_timeout(exc: Exception) -> bool:
    """redis-py 8 gives its sockets a 5 s read timeout, as long as channels_redis's blocking pop: a quiet
    room then ends each receive with ``redis.exceptions.TimeoutError``. That is not an outage."""
    try:
        from redis.exceptions import TimeoutError as RedisTimeout
    except ImportError:  # no Redis layer installed
        return False
    return isinstance(exc, RedisTimeout)


def _load_local(code: str, after_seq: int | None, hint: int) -> tuple[Snapshot, list[dict[str, Any]]] | None:
    """The announced version from this process's own memory (it committed it), without the database."""
    if after_seq is None or not hint:
        return None
    snap = cache.latest(code)
    if snap is None or snap.version < hint:
        return None
    events = recent_events.between(snap.game_id, after_seq, snap.last_seq)
    if events is None:
        return None
    return snap, events


def _versions(codes: list[str]) -> dict[str, int]:
    """The current version of each room (one query for all the rooms a process serves)."""
    from tournament.models import Game

    return dict(Game.objects.filter(code__in=codes).values_list("code", "version"))


def _load(code: str, after_seq: int | None) -> tuple[Snapshot, list[dict[str, Any]]]:
    return consistent(_read, code, after_seq)


def _read(code: str, after_seq: int | None) -> tuple[Snapshot, list[dict[str, Any]]]:
    snap = snapshot_by_code(code)
    if after_seq is None or after_seq >= snap.last_seq:
        return snap, []
    return snap, frames.raw_events(snap.game_id, after_seq, snap.last_seq)


class Hubs:
    """The hubs of this process, by room code (``notify.LocalRooms``: commits in this process wake them
    directly, without the channel layer)."""

    def __init__(self) -> None:
        self._hubs: dict[str, RoomHub] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._poll_task: asyncio.Task[None] | None = None
        notify.local_rooms = self

    def polled(self) -> None:
        """Make sure the process's poll runs (a hub started): one task and one query every
        ``POLL_SECONDS`` for all the rooms of this process, not one per room."""
        task = self._poll_task
        if task is None or task.done() or task.get_loop() is not asyncio.get_running_loop():
            self._poll_task = asyncio.ensure_future(self._poll())

    async def _poll(self) -> None:
        """Repair lost pushes: read the versions of every room this process serves in one query, and let
        each hub renew its subscription, read what it missed and show its room to the driver
        (``RoomHub.poll``). Ends when the process serves no room any more (the next hub starts it again)."""
        layer = get_channel_layer()
        while True:
            await asyncio.sleep(POLL_SECONDS)
            rooms = [hub for hub in self._hubs.values() if hub._tasks]
            if not rooms:
                self._poll_task = None
                return
            try:
                versions = await db(_versions, [hub.code for hub in rooms])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("poll of this process's rooms failed", exc_info=True)
                continue
            for hub in rooms:
                try:
                    await hub.poll(versions.get(hub.code), layer)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.warning("poll of room %s failed", hub.code, exc_info=True)

    def serves(self, code: str) -> bool:
        loop = self._loop
        return code in self._hubs and loop is not None and not loop.is_closed()

    def server_loop(self) -> asyncio.AbstractEventLoop | None:
        return self._loop

    def changed(self, code: str, version: int) -> None:
        """A version committed in this process (any thread): wake the room's hub on the server loop."""
        hub = self._hubs.get(code)
        loop = self._loop
        if hub is None or loop is None or loop.is_closed():
            return

        def wake() -> None:
            if hub.current is None or version > hub.current.version:
                hub._hint = max(hub._hint, version)
                task = asyncio.ensure_future(hub.refresh())
                _background.add(task)
                task.add_done_callback(_background.discard)

        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            wake()
        else:
            # a fresh context: the committing thread's context (asgiref's "single thread in use" flag
            # among it) must not leak into the tasks wake() starts, or their db() calls would refuse
            loop.call_soon_threadsafe(wake, context=contextvars.Context())

    def get(self, code: str) -> RoomHub:
        if self._loop is None:
            with contextlib.suppress(RuntimeError):
                self._loop = asyncio.get_running_loop()
        hub = self._hubs.get(code)
        if hub is None:
            hub = self._hubs[code] = RoomHub(code, self._forget)
        return hub

    def _forget(self, hub: RoomHub) -> None:
        """Drop a hub that stopped (only that one: a newer hub of the same room stays)."""
        if self._hubs.get(hub.code) is hub:
            del self._hubs[hub.code]

    def __len__(self) -> int:
        return len(self._hubs)


hubs = Hubs()
