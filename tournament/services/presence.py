"""Who is at the table: a participant's open sockets, counted in the database across server processes.

Every socket that plays a seat (the lobby or game page, the host console, a protocol client that said
``hello`` with its token; not a watch-only socket) adds one to ``Participant.connections`` when it joins
and takes one off when it leaves; its server refreshes ``last_seen`` every ``HEARTBEAT`` seconds while it
stays. A seat is *present* when it has a connection seen within ``stale_after()`` seconds, so a server
that crashed without closing its sockets cannot keep a seat "present" for ever. A change is pushed to the
room as ``presence.changed`` (no game version); the hubs send each socket a small presence frame.
"""

from __future__ import annotations

import time
from collections.abc import Iterable

from django.conf import settings
from django.db.models import Case, F, Value, When
from django.utils import timezone

from tournament.models import Participant
from tournament.services import notify

HEARTBEAT = 15.0  # seconds between two refreshes of last_seen by a server holding the seat's socket


def stale_after() -> float:
    """Seconds after which an unrefreshed connection no longer counts (three missed heartbeats)."""
    return float(getattr(settings, "PRESENCE_STALE", 3 * HEARTBEAT))


def presence_join(*, game_id: int, code: str, seat: int) -> None:
    """A socket of ``seat`` opened."""
    Participant.objects.filter(game_id=game_id, seat=seat).update(
        connections=F("connections") + 1, last_seen=timezone.now()
    )
    notify.room_message(code, {"type": "presence.changed"})


def presence_leave(*, game_id: int, code: str, seat: int) -> None:
    """A socket of ``seat`` closed (never below zero)."""
    Participant.objects.filter(game_id=game_id, seat=seat).update(
        connections=Case(When(connections__gt=0, then=F("connections") - 1), default=Value(0)),
        last_seen=timezone.now(),
    )
    notify.room_message(code, {"type": "presence.changed"})


def presence_touch(*, game_id: int, seats: Iterable[int]) -> None:
    """This server still holds sockets of these seats."""
    seats = list(seats)
    if seats:
        Participant.objects.filter(game_id=game_id, seat__in=seats).update(last_seen=timezone.now())


def _present(connections: int, last_seen: object, now: float) -> bool:
    seen = last_seen.timestamp() if hasattr(last_seen, "timestamp") else None
    return connections > 0 and seen is not None and now - seen <= stale_after()


def presence_of(*, code: str) -> dict[int, bool]:
    """Every seat of the room: is it present? (Bots are never present: nobody sits there.)"""
    now = time.time()
    rows = Participant.objects.filter(game__code=code).values_list("seat", "kind", "connections", "last_seen")
    return {
        seat: kind == Participant.Kind.HUMAN and _present(connections, last_seen, now)
        for seat, kind, connections, last_seen in rows
    }


def seat_presence(*, game_id: int, seat: int) -> tuple[bool, float | None]:
    """Whether ``seat`` is present, and when it was last seen (epoch seconds; None if never)."""
    rows = Participant.objects.filter(game_id=game_id, seat=seat).values_list("connections", "last_seen")
    row = rows.first()
    if row is None:
        return False, None
    connections, last_seen = row
    return _present(connections, last_seen, time.time()), (last_seen.timestamp() if last_seen else None)


def absent_since(*, game_id: int, seat: int) -> float | None:
    """Since when ``seat`` has been away (epoch seconds), or None while it is present."""
    present, seen = seat_presence(game_id=game_id, seat=seat)
    if present:
        return None
    return seen if seen is not None else 0.0  # the last sign of life (never connected: since ever)


__all__ = [
    "HEARTBEAT",
    "absent_since",
    "presence_join",
    "presence_leave",
    "presence_of",
    "presence_touch",
    "seat_presence",
    "stale_after",
]
