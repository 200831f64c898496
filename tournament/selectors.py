"""Reads for pages, sockets and the protocol: who is looking, the snapshot, their view, their events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cards.catalog import get_catalog
from tournament.models import Event, Game, Participant
from tournament.rules.projection import Viewer, project
from tournament.services.actions import UnknownRoom, current_snapshot
from tournament.services.store import Snapshot

SESSION_ROOMS = "rooms"  # session key: {code: {"token": ..., "host_key": ...}}


@dataclass(frozen=True, slots=True)
class Identity:
    """What a browser session or a protocol client proved about itself in one room."""

    seat: int | None = None
    host: bool = False
    nickname: str = ""

    def viewer(self, as_spectator: bool = False) -> Viewer:
        """The projection viewer for this identity (a player may also choose to watch as a spectator)."""
        if as_spectator:
            return Viewer()
        return Viewer(seat=self.seat, host=self.host)


def game_by_code(code: str) -> Game:
    """A room by its code.

    :raises UnknownRoom:
    """
    if not isinstance(code, str) or len(code) > 16:
        raise UnknownRoom()
    try:
        return Game.objects.get(code=code)
    except Game.DoesNotExist:
        raise UnknownRoom() from None


def snapshot_by_code(code: str) -> Snapshot:
    """The current snapshot of a room (one query when the process cache is warm)."""
    return current_snapshot(game_by_code(code))


def identify(game: Game, token: Any = None, host_key: Any = None) -> Identity:
    """Resolve secret credentials to a seat and/or the host role; unknown secrets prove nothing."""
    seat = None
    nickname = ""
    host = isinstance(host_key, str) and bool(host_key) and host_key == game.host_key
    if isinstance(token, str) and token:
        row = Participant.objects.filter(game=game, token=token).values_list("seat", "nickname").first()
        if row is not None:
            seat, nickname = row
    if host and seat is None:
        row = Participant.objects.filter(game=game, is_host=True).values_list("seat", "nickname").first()
        if row is not None:
            seat, nickname = row
    return Identity(seat=seat, host=host, nickname=nickname)


def identify_session(game: Game, session: Mapping[str, Any] | None) -> Identity:
    """The identity a signed browser session holds for this room."""
    rooms = (session or {}).get(SESSION_ROOMS) or {}
    creds = rooms.get(game.code) or {}
    if not isinstance(creds, dict):
        return Identity()
    return identify(game, creds.get("token"), creds.get("host_key"))


def view_for(snap: Snapshot, viewer: Viewer, public: dict[str, Any] | None = None) -> dict[str, Any]:
    """The projection of a snapshot for a viewer, with its version and last event number (``public``:
    the shared part, when one snapshot is projected for many viewers)."""
    view = project(snap.state, viewer, get_catalog(), public)
    view["version"] = snap.version
    view["seq"] = snap.last_seq
    view["code"] = snap.code
    return view


def event_visible(audience: list[int] | None, viewer: Viewer, finished: bool = False) -> bool:
    """Public events for all; private ones for their audience (all of them in a finished game's replay)."""
    if audience is None:
        return True
    if viewer.reveal_all and finished:
        return True
    return viewer.seat is not None and viewer.seat in audience


def events_for(
    game_id: int,
    viewer: Viewer,
    after_seq: int = 0,
    upto_seq: int | None = None,
    limit: int = 500,
    finished: bool = False,
) -> list[dict[str, Any]]:
    """Events after ``after_seq`` (up to ``upto_seq``) that ``viewer`` may see, oldest first."""
    qs = Event.objects.filter(game_id=game_id, seq__gt=after_seq)
    if upto_seq is not None:
        qs = qs.filter(seq__lte=upto_seq)
    rows = qs.order_by("seq").values_list("seq", "kind", "payload", "audience", "actor")[:limit]
    return [
        {"seq": seq, "kind": kind, "payload": payload, "actor": actor}
        for seq, kind, payload, audience, actor in rows
        if event_visible(audience, viewer, finished)
    ]


def recent_events_for(game_id: int, viewer: Viewer, count: int = 60) -> list[dict[str, Any]]:
    """The newest ``count`` visible events, oldest first (for a page's log)."""
    qs = Event.objects.filter(game_id=game_id).order_by("-seq")
    out: list[dict[str, Any]] = []
    for seq, kind, payload, audience, actor in qs.values_list("seq", "kind", "payload", "audience", "actor")[
        : count * 3
    ]:
        if event_visible(audience, viewer):
            out.append({"seq": seq, "kind": kind, "payload": payload, "actor": actor})
            if len(out) >= count:
                break
    out.reverse()
    return out
