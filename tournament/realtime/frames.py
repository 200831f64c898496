"""Wire frames: what a socket receives, rendered once per projection and format.

Two formats share every frame kind: ``json`` (the documented protocol, docs/PROTOCOL.md) and ``html``
(htmx out-of-band partials for the browser pages, ``tournament/realtime/html.py``).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
from django.conf import settings

from cards.catalog import get_catalog
from tournament.models import Event
from tournament.realtime.wire import Frame
from tournament.rules.projection import SPECTATOR, Viewer, personal_part, public_part
from tournament.selectors import event_visible, recent_events_for, view_for
from tournament.services.store import Snapshot

INITIAL_LOG = 60  # events sent with a full state
SPECTATOR_KEY = "spectator"  # the hub's key of the spectators' projection (``hub.viewer_key``)
CARRY_MAX_BYTES = 64 * 1024  # a push carries its version's public data up to this size, else only "v exists"


_JSON_OPTIONS = orjson.OPT_NON_STR_KEYS  # like json.dumps: integer keys become strings


def encode_bytes(obj: Any) -> bytes:
    """Compact UTF-8 JSON (orjson: several times faster than the standard library on our views).

    What orjson refuses but JSON allows — an integer beyond 64 bits, echoed from a client's own frame —
    is encoded by the standard library, so nothing that encoded before fails now.
    """
    try:
        return orjson.dumps(obj, option=_JSON_OPTIONS)
    except orjson.JSONEncodeError:
        return json.dumps(obj, separators=(",", ":"), ensure_ascii=False).encode()


def encode(obj: Any) -> str:
    """Compact JSON text, encoded once per projection and shared by every socket of it."""
    return encode_bytes(obj).decode()


def raw_events(game_id: int, after_seq: int, upto_seq: int) -> list[dict[str, Any]]:
    """Events in ``(after_seq, upto_seq]`` with their audiences (server-side only)."""
    rows = (
        Event.objects.filter(game_id=game_id, seq__gt=after_seq, seq__lte=upto_seq)
        .order_by("seq")
        .values_list("seq", "kind", "payload", "audience", "actor")
    )
    return [{"seq": s, "kind": k, "payload": p, "audience": a, "actor": ac} for s, k, p, a, ac in rows]


def visible(events: list[dict[str, Any]], viewer: Viewer) -> list[dict[str, Any]]:
    """The events a viewer may see, without their audience field."""
    return [
        {"seq": e["seq"], "kind": e["kind"], "payload": e["payload"], "actor": e["actor"]}
        for e in events
        if event_visible(e["audience"], viewer)
    ]


# ------------------------------------------------------------------------------ carried versions
# The push that tells the other processes "version v exists" carries what every viewer of the room may
# see of it — the public part, the spectators' personal part and the events without an audience — so a
# process whose sockets in the room all watch as spectators renders the version without reading the
# database (issue 22). Nothing else crosses Redis: a seat's or the host's projection is always built in
# the receiving process from the snapshot it reads from the database.


class _SharedParts:
    """The spectators' frames of the last versions this process committed, built once for the push (its
    public part, spectators' part and encodings) and taken by this process's own room hub instead of
    projecting and encoding the same state again."""

    SIZE = 64  # versions committed here whose hub has not rendered them yet (or that no hub here shows)

    def __init__(self) -> None:
        self._data: OrderedDict[tuple[int, int], VersionFrames] = OrderedDict()
        self._lock = threading.Lock()

    def put(self, game_id: int, version: int, frames: VersionFrames) -> None:
        with self._lock:
            self._data[(game_id, version)] = frames
            while len(self._data) > self.SIZE:
                self._data.popitem(last=False)

    def take(self, game_id: int, version: int) -> VersionFrames | None:
        with self._lock:
            return self._data.pop((game_id, version), None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


shared_parts = _SharedParts()


def carry_limit() -> int:
    """The largest carried payload in bytes (``CARRY_MAX_BYTES`` in the settings; 0 carries nothing)."""
    return int(getattr(settings, "CARRY_MAX_BYTES", CARRY_MAX_BYTES))


def carry(snap: Snapshot, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """What the push of a committed version carries (None when it would exceed ``carry_limit``): the
    spectators' full ``update`` frame of the version, encoded, and the names of the view's spectator-only
    members. Runs in the committing thread; the frame and its parts are kept for this process's hub
    (``shared_parts``), so it is encoded once for every spectator of every process.

    A process whose sockets all watch writes the frame as it came, without decoding it (issue 22: decoding
    and encoding the carried parts again cost the second process more than its spectators' writes); it
    decodes it only to combine versions or to make a delta."""
    limit = carry_limit()
    if limit <= 0:
        return None
    first_seq = events[0]["seq"] if events else snap.last_seq + 1
    version = VersionFrames(snap, events, first_seq)
    frame = version.full(SPECTATOR_KEY, SPECTATOR).encode("utf-8")
    shared_parts.put(snap.game_id, snap.version, version)
    if len(frame) > limit:
        return None
    personal = list(version.personal(SPECTATOR_KEY, SPECTATOR))
    return {"first_seq": first_seq, "frame": frame, "personal": personal}


@dataclass(slots=True)
class Carried:
    """One version as its push carried it (``carry``): the spectators' full frame, enough for the
    spectators' frames only; its view and events are decoded only when a frame needs them."""

    code: str
    version: int
    first_seq: int
    last_seq: int
    frame: bytes  # the spectators' full ``update`` frame of this version alone (its own events)
    personal_keys: tuple[str, ...]  # the view's members that are the spectators' part, not the public one
    decoded: tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]] | None = None

    @classmethod
    def of(cls, code: str, message: dict[str, Any]) -> Carried | None:
        """The carried version of a ``game.changed`` message; None when it carries none or is malformed
        (the receiver reads the database then)."""
        payload = message.get("carry")
        version, last_seq = message.get("version"), message.get("seq")
        if not isinstance(payload, dict) or not isinstance(version, int) or not isinstance(last_seq, int):
            return None
        first_seq, frame, personal = payload.get("first_seq"), payload.get("frame"), payload.get("personal")
        if not isinstance(first_seq, int) or not isinstance(frame, bytes) or len(frame) > carry_limit():
            return None
        if not isinstance(personal, list) or not all(isinstance(k, str) for k in personal):
            return None
        head = b'{"type":"update","version":%d,"first_seq":%d,"seq":%d,"view":{'
        if not frame.startswith(head % (version, first_seq, last_seq)):
            return None  # another version's frame, or not a full update frame
        return cls(code, version, first_seq, last_seq, frame, tuple(personal))

    def decode(self) -> bool:
        """Decode the carried frame's view and events (once); False when it is malformed (the receiver
        reads the database then)."""
        if self.decoded is not None:
            return True
        try:
            body = orjson.loads(self.frame)
            view, events = body["view"], body["events"]
        except (orjson.JSONDecodeError, KeyError, TypeError):
            return False
        if not isinstance(view, dict) or not isinstance(events, list):
            return False
        if any(not isinstance(e, dict) or "audience" in e or type(e.get("seq")) is not int for e in events):
            return False
        keys = set(self.personal_keys)
        public = {k: v for k, v in view.items() if k not in keys}
        spectator = {k: v for k, v in view.items() if k in keys}
        # as the database path holds them: with an audience (none: every viewer may see them)
        self.decoded = (public, spectator, [{**e, "audience": None} for e in events])
        return True

    def _parts(self) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
        if not self.decode():
            raise ValueError(f"malformed carried version {self.version} of room {self.code}")
        assert self.decoded is not None
        return self.decoded

    @property
    def public(self) -> dict[str, Any]:
        return self._parts()[0]

    @property
    def spectator(self) -> dict[str, Any]:
        """The spectators' personal part, numbered (``version``, ``seq``, ``code``)."""
        return self._parts()[1]

    @property
    def events(self) -> list[dict[str, Any]]:
        """The version's events a spectator may see (every one carried has no audience)."""
        return self._parts()[2]


def json_update(snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int) -> str:
    """A new version for a protocol client: its view and the events it may see since the last one (the
    full frame exactly as the room hub sends it)."""
    from tournament.realtime.hub import viewer_key

    return VersionFrames(snap, events, first_seq).full(viewer_key(viewer), viewer)


class VersionFrames:
    """Every JSON ``update`` frame of one version, spliced from parts that are diffed and encoded once.

    A view is the public part (the same for every viewer) plus a small personal part (who looks, his
    side of the running match, his cards and decisions, the host's ledger, the version). Each part is
    compared with the previous version once and encoded once, and a viewer's frame is the encoded parts
    joined: 200 spectators and 8 seats cost one public encoding and nine small personal ones instead of
    nine whole views encoded twice (issue 10, docs/PERFORMANCE.md). The frames are exactly what
    ``json_update`` (full) and the documented delta (docs/PROTOCOL.md) contain.
    """

    def __init__(
        self,
        snap: Snapshot | None,
        events: list[dict[str, Any]] | None,
        first_seq: int,
        previous: VersionFrames | None = None,
        carried: Carried | None = None,
    ) -> None:
        self.snap = snap  # None for a version carried by the push (``Carried``): spectators' frames only
        if snap is not None:
            self.code, self.version, self.last_seq = snap.code, snap.version, snap.last_seq
        else:
            assert carried is not None, "a version needs its snapshot or what its push carried"
            self.code, self.version, self.last_seq = carried.code, carried.version, carried.last_seq
        assert events is not None or (carried is not None and first_seq == carried.first_seq)
        self._events = events  # None: the carried version's own, decoded only if a frame needs them
        self.first_seq = first_seq
        # The base of this version's deltas; it needs nothing older, so the chain is cut here.
        self.previous = previous if previous is not None and previous.version < self.version else None
        if previous is not None:
            previous.previous = None
        self._carried = carried if snap is None else None
        self._private_events = events is not None and any(e["audience"] is not None for e in events)
        self._match_views: dict[tuple[str | None, bool], dict[str, Any]] = {}
        self._personal: dict[str, dict[str, Any]] = {}
        self._encoded: dict[Any, bytes] = {}
        self._frames: dict[tuple[str, str], Frame] = {}
        self._public: dict[str, Any] | None = None
        if carried is not None and snap is None:
            if first_seq == carried.first_seq:  # the carried frame is exactly this version's full frame
                self._frames[(SPECTATOR_KEY, "full")] = Frame.of(carried.frame)
        elif snap is not None:
            shared = shared_parts.take(snap.game_id, snap.version)  # built by the push of this process
            if shared is not None:
                self._public = shared.public
                self._personal[SPECTATOR_KEY] = shared.personal(SPECTATOR_KEY, SPECTATOR)
                if shared.first_seq == first_seq:  # the same events: the same frame
                    self._encoded.update(shared._encoded)
                    self._frames.update(shared._frames)
                else:
                    self._encoded.update((k, shared._encoded[k]) for k in _PART_KEYS if k in shared._encoded)

    @property
    def public(self) -> dict[str, Any]:
        """The public part of the view (the same for every viewer), projected or decoded when first needed."""
        if self._public is None:
            if self.snap is not None:
                self._public = public_part(self.snap.state, get_catalog())
            else:
                assert self._carried is not None
                self._public = self._carried.public
        return self._public

    @property
    def events(self) -> list[dict[str, Any]]:
        """The events of this version's frames, with their audiences."""
        if self._events is None:
            assert self._carried is not None
            self._events = self._carried.events
        return self._events

    def _numbered(self, part: dict[str, Any]) -> dict[str, Any]:
        part["version"] = self.version
        part["seq"] = self.last_seq
        part["code"] = self.code
        return part

    @property
    def base(self) -> int | None:
        """The version this version's deltas apply to (None: no delta can be made)."""
        return self.previous.version if self.previous is not None else None

    def has(self, key: str) -> bool:
        """Whether this version can give the viewers sharing ``key`` their part (a carried version has
        only the spectators', when its frame decodes)."""
        if self.snap is not None or key in self._personal:
            return True
        return key == SPECTATOR_KEY and self._carried is not None and self._carried.decode()

    def personal(self, key: str, viewer: Viewer) -> dict[str, Any]:
        """The personal part of the view for the viewers sharing ``key`` (with version and event number)."""
        part = self._personal.get(key)
        if part is None:
            if self.snap is None:
                assert key == SPECTATOR_KEY and self._carried is not None, "carried: spectators' part only"
                part = self._personal[key] = self._numbered(dict(self._carried.spectator))
                return part
            part = personal_part(self.snap.state, viewer, get_catalog(), self._match_views)
            self._personal[key] = self._numbered(part)
        return part

    def view(self, key: str, viewer: Viewer) -> dict[str, Any]:
        """The whole view (``view_for``) as a dict, for renderers that need it."""
        return {**self.public, **self.personal(key, viewer)}

    def full(self, key: str, viewer: Viewer, fmt: str = "json") -> Frame:
        """The full ``update`` frame for ``viewer`` (``fmt``: as ``VersionPages.full``, always JSON here)."""
        frame = self._frames.get((key, "full"))
        if frame is None:
            frame = self._frames[(key, "full")] = Frame.of(
                b'{"type":"update","version":%d,"first_seq":%d,"seq":%d,"view":{%s,%s},"events":%s}'
                % (
                    self.version,
                    self.first_seq,
                    self.last_seq,
                    self._body("public", self.public),
                    self._body(("personal", key), self.personal(key, viewer)),
                    self._events_json(viewer),
                )
            )
        return frame

    def delta(self, key: str, viewer: Viewer, fmt: str = "json") -> Frame:
        """The ``update`` frame with only what changed since ``base`` (there must be one); the full frame
        when the base was a carried version without this viewer's part."""
        previous = self.previous
        assert previous is not None, "no base version: send the full frame"
        if not previous.has(key):
            return self.full(key, viewer, fmt)
        frame = self._frames.get((key, "delta"))
        if frame is None:
            personal = self.personal(key, viewer)
            before = previous.personal(key, viewer)
            changed, items, patches = _changes(before, personal)
            removed = [k for k in before if k not in personal]
            public_changed, public_items, public_patches = self._public_delta()
            members = b",".join(p for p in (public_changed, _members(changed)) if p)
            item_members = b",".join(p for p in (public_items, _members(items)) if p)
            patch_members = b",".join(p for p in (public_patches, _members(patches)) if p)
            frame = self._frames[(key, "delta")] = Frame.of(
                b'{"type":"update","version":%d,"base":%d,"first_seq":%d,"seq":%d,"delta":{%s}%s%s%s,"events":%s}'
                % (
                    self.version,
                    previous.version,
                    self.first_seq,
                    self.last_seq,
                    members,
                    b',"items":{%s}' % item_members if item_members else b"",
                    b',"patch":{%s}' % patch_members if patch_members else b"",
                    b',"removed":' + encode_bytes(removed) if removed else b"",
                    self._events_json(viewer),
                )
            )
        return frame

    def _body(self, cache_key: Any, part: dict[str, Any]) -> bytes:
        """A dict's encoded members, without the braces (every part has members)."""
        body = self._encoded.get(cache_key)
        if body is None:
            body = self._encoded[cache_key] = _members(part)
        return body

    def _public_delta(self) -> tuple[bytes, bytes, bytes]:
        """The public part's changed keys, changed list items and patched objects, encoded once for every
        viewer."""
        bodies = self._encoded.get("public-delta")
        if bodies is None:
            assert self.previous is not None
            changed, items, patches = _changes(self.previous.public, self.public)
            bodies = self._encoded["public-delta"] = (_members(changed), _members(items), _members(patches))
        return bodies

    def _events_json(self, viewer: Viewer) -> bytes:
        """The events the viewer may see: one encoding when all are public (visibility follows the seat)."""
        cache_key = ("events", viewer.seat if self._private_events else None)
        data = self._encoded.get(cache_key)
        if data is None:
            data = self._encoded[cache_key] = encode_bytes(visible(self.events, viewer))
        return data


_PART_KEYS = ("public", ("personal", SPECTATOR_KEY))  # encodings that depend on the state alone
_MISSING = object()
ITEMS_MIN = 4  # lists shorter than this are sent whole: an index per item would save nothing


def _changes(
    before: dict[str, Any], after: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """What a protocol client must re-read, split three ways (docs/PROTOCOL.md):

    - the keys of ``after`` whose value changed, with their new values;
    - for lists that kept their length and changed in at most half their items (the seats when one
      seat's money moved), only those items by index, not eight seats for one;
    - for objects that are objects in both versions and lost no member at any depth (the running match
      when one side's active player changed), only the changed members, nested the same way: the whole
      match is ~1 KB, the change often a few dozen bytes.
    """
    changed: dict[str, Any] = {}
    items: dict[str, Any] = {}
    patches: dict[str, Any] = {}
    for k, v in after.items():
        old = before.get(k, _MISSING)
        if old == v:
            continue
        if type(v) is list and type(old) is list and len(v) == len(old) >= ITEMS_MIN:
            moved = {str(i): new for i, (was, new) in enumerate(zip(old, v, strict=True)) if was != new}
            if 2 * len(moved) <= len(v):
                items[k] = moved
                continue
        if type(v) is dict and type(old) is dict:
            patch = _patch(old, v)
            if patch is not None:
                patches[k] = patch
                continue
        changed[k] = v
    return changed, items, patches


def _patch(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any] | None:
    """The members of ``new`` that differ from ``old``; where both are objects, again only their changed
    members. None when ``old`` has a member ``new`` lacks, at any depth: a merge cannot drop it, so the
    caller sends the whole value instead."""
    if not old.keys() <= new.keys():
        return None
    out: dict[str, Any] = {}
    for k, v in new.items():
        was = old.get(k, _MISSING)
        if was == v:
            continue
        if type(v) is dict and type(was) is dict:
            inner = _patch(was, v)
            if inner is None:
                return None
            out[k] = inner
        else:
            out[k] = v
    return out


def _members(part: dict[str, Any]) -> bytes:
    """A dict's encoded members without the braces (empty for an empty dict)."""
    return encode_bytes(part)[1:-1] if part else b""


def apply_update(view: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any] | None:
    """What a protocol client does with an ``update`` or ``state`` frame: the full ``view``, or the delta
    applied to the view it holds (which must be the frame's ``base``). Returns the new view; the held one
    is updated in place (its nested objects are replaced, never changed, so a copy of the held view made
    before stays as it was). None when a delta arrives without a base to apply it to."""
    if "view" in frame:
        return frame["view"]
    if view is None:
        return None
    view.update(frame["delta"])
    for key in frame.get("removed", ()):
        view.pop(key, None)
    for key, changed in frame.get("items", {}).items():
        items = list(view[key])
        for index, value in changed.items():
            items[int(index)] = value
        view[key] = items
    for key, patch in frame.get("patch", {}).items():
        view[key] = _merged(view[key], patch)
    return view


def _merged(held: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any]:
    """``held`` with ``patch`` merged in: an object member that is an object on both sides is merged
    again, anything else replaces the member."""
    out = dict(held)
    for key, value in patch.items():
        was = out.get(key)
        out[key] = _merged(was, value) if type(value) is dict and type(was) is dict else value
    return out


def json_initial(snap: Snapshot, viewer: Viewer) -> str:
    """Everything a freshly connected protocol client needs."""
    return encode(
        {
            "type": "state",
            "version": snap.version,
            "seq": snap.last_seq,
            "view": view_for(snap, viewer),
            "events": recent_events_for(snap.game_id, viewer, INITIAL_LOG),
        }
    )


def initial_frame(snap: Snapshot, viewer: Viewer, fmt: str) -> str:
    """The first frame of a new socket (runs in a worker thread: it may read the database)."""
    if fmt.startswith("html"):
        from tournament.realtime import html

        return html.initial_renderer(fmt)(snap, viewer)
    return json_initial(snap, viewer)


def alert_frame(message: str, fmt: str) -> str:
    """An alert for the host console (an action refused by an invariant check)."""
    if fmt.startswith("html"):
        from tournament.realtime import html

        return html.alert_renderer(fmt)(message)
    return encode({"type": "alert", "message": message})


def events_frame(events: list[dict[str, Any]], seq: int) -> str:
    """Catch-up after a gap (protocol clients): the missed events up to ``seq``."""
    return encode({"type": "events", "seq": seq, "events": events})


def result_frame(action_id: str, version: int, duplicate: bool) -> str:
    """The answer to an accepted action."""
    return encode({"type": "result", "action_id": action_id, "version": version, "duplicate": duplicate})


def error_frame(code: str, message: str, action_id: str | None = None) -> str:
    """A refused frame or action; the game is unchanged."""
    return encode({"type": "error", "code": code, "message": message, "action_id": action_id})
