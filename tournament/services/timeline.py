"""A game's history from the database: one ``Timeline`` per game per process, extended as actions arrive.

Why a process cache: a replay page steps one action at a time and a host's rewind needs the state of an
earlier version; rebuilding ~1,000 actions from the seed on every click would be wasteful. The action log
is append-only (a rewind is appended too), so a cached timeline stays valid: it only ever needs the
records after its last one. Keyed by (game id, room code, seed), so a reused id is never mistaken.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Game
from tournament.rules.replay import Timeline

CACHE_SIZE = 8  # games; a timeline keeps a state every 32 versions (a whole game: a few MB)


class _Timelines:
    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[tuple[int, str, int], Timeline] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game: Game, version: int | None = None) -> Timeline:
        """The timeline of ``game`` with its first ``version`` actions (default: the game's version).

        Reads only the action records it does not have yet.
        """
        upto = game.version if version is None else version
        key = (game.pk, game.code, game.seed)
        with self._lock:
            timeline = self._data.get(key)
            if timeline is None or len(timeline) > upto:
                timeline = Timeline(game.seed, game.setup, game.pre_qualified, get_catalog())
                self._data[key] = timeline
            self._data.move_to_end(key)
            while len(self._data) > self.size:
                self._data.popitem(last=False)
        if len(timeline) < upto:
            rows = (
                ActionRecord.objects.filter(game_id=game.pk, version_before__gte=len(timeline))
                .filter(version_before__lt=upto)
                .order_by("version_before")
                .values_list("version_before", "actor", "action")
            )
            for before, actor, action in rows:
                timeline.append(actor, action, index=before)  # two threads may extend it: added once
        return timeline

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


timelines = _Timelines(CACHE_SIZE)


def game_timeline(game: Game, version: int | None = None) -> Timeline:
    """The history of a game up to ``version`` (default: now)."""
    return timelines.get(game, version)
