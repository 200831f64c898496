"""Wire frames: what a socket receives, rendered once per projection and format.

Two formats share every frame kind: ``json`` (the documented protocol, docs/PROTOCOL.md) and ``html``
(htmx out-of-band partials for the browser pages, ``tournament/realtime/html.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from tournament.models import Event
from tournament.rules.projection import Viewer
from tournament.selectors import event_visible, recent_events_for, view_for
from tournament.services.store import Snapshot

Renderer = Callable[[Snapshot, Viewer, list[dict[str, Any]], int], str]

INITIAL_LOG = 60  # events sent with a full state


def encode(obj: Any) -> str:
    """Compact JSON, encoded once per projection and shared by every socket of it."""
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


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


def json_update(snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int) -> str:
    """A new version for a protocol client: its view and the events it may see since the last one."""
    return encode(
        {
            "type": "update",
            "version": snap.version,
            "first_seq": first_seq,
            "seq": snap.last_seq,
            "view": view_for(snap, viewer),
            "events": visible(events, viewer),
        }
    )


def json_delta(
    snap: Snapshot,
    viewer: Viewer,
    events: list[dict[str, Any]],
    first_seq: int,
    view: dict[str, Any],
    base: tuple[int, dict[str, Any]],
) -> str:
    """A new version as the top-level parts of the view that changed since version ``base[0]``
    (``format=json&delta=1`` clients; a client that does not hold ``base`` gets a full update instead)."""
    base_version, base_view = base
    frame: dict[str, Any] = {
        "type": "update",
        "version": snap.version,
        "base": base_version,
        "first_seq": first_seq,
        "seq": snap.last_seq,
        "delta": {k: v for k, v in view.items() if base_view.get(k, _MISSING) != v},
        "events": visible(events, viewer),
    }
    removed = [k for k in base_view if k not in view]
    if removed:  # a part of the view that no longer exists (e.g. the match after the final whistle)
        frame["removed"] = removed
    return encode(frame)


_MISSING = object()


def json_full(
    snap: Snapshot, viewer: Viewer, events: list[dict[str, Any]], first_seq: int, view: dict[str, Any]
) -> str:
    """``json_update`` with an already computed view (shared by full and delta frames)."""
    return encode(
        {
            "type": "update",
            "version": snap.version,
            "first_seq": first_seq,
            "seq": snap.last_seq,
            "view": view,
            "events": visible(events, viewer),
        }
    )


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


def update_renderer(fmt: str) -> Renderer:
    """The update renderer of a wire format (``html.<lang>``: HTML frames in that language)."""
    if fmt.startswith("html"):
        from tournament.realtime import html

        return html.update_renderer(fmt)
    # "jsond" (deltas) renders its full frames like "json"
    return json_update


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
