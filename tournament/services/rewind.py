"""The host's rewind, service side: the server's salt, the game's history, and the moments one may pick.

The rewind itself is pure (``tournament/rules/rewind.py``) and goes through ``game_act`` like any action:
same transaction, version bump, events and action record. ``game_act`` calls ``rewind_prepare`` for it,
which replaces whatever salt a client sent by fresh server randomness (a host who chose the salt could
predict the reshuffle) and hands the rules the history rebuilt from the action log.
"""

from __future__ import annotations

import html
import secrets
from dataclasses import dataclass
from typing import Any

from django.utils.html import strip_tags

from tournament.models import ActionRecord, Event, Game
from tournament.presentation import eventlog
from tournament.rules.projection import Viewer
from tournament.rules.rewind import MAX_SALT, History
from tournament.selectors import event_visible
from tournament.services.timeline import game_timeline

CHOICES = 40  # the newest moments the host console offers to rewind to
SCAN = 600  # actions looked at to find them (phase 2 is mostly matches, where no rewind may land)
LABEL_LENGTH = 140


def rewind_prepare(*, game_id: int, version: int, action: dict[str, Any]) -> tuple[dict[str, Any], History]:
    """The action to record (with a fresh salt) and the game's history at ``version``.

    Runs inside ``game_act``'s transaction, with the game's row locked at ``version``.
    """
    game = Game.objects.only("id", "code", "seed", "setup", "pre_qualified", "version").get(pk=game_id)
    timeline = game_timeline(game, version)
    salted = {
        "type": "rewind",
        "to_version": action.get("to_version"),
        "salt": secrets.randbelow(MAX_SALT + 1),
    }
    return salted, timeline.history(version)


@dataclass(frozen=True, slots=True)
class RewindChoice:
    """A moment the host may turn the game back to: just before the action that produced ``seq``."""

    to_version: int
    seq: int
    label: str


def rewind_choices(game: Game, host_seat: int | None, limit: int = CHOICES) -> list[RewindChoice]:
    """The newest moments a rewind may go back to, newest first, each named by what happened next.

    Only moments the rules accept: after the start, outside a match, not undone by an earlier rewind.
    The labels are the log lines the host console itself may read (public events and the host's own).
    """
    current = Game.objects.filter(pk=game.pk).values_list("version", flat=True).first() or 0
    timeline = game_timeline(game, current)
    now = len(timeline)
    records = list(
        ActionRecord.objects.filter(game=game, version_before__lt=now, version_before__gte=now - SCAN)
        .order_by("-version_before")
        .values_list("version_before", "first_seq", "last_seq")
    )
    if not records:
        return []
    by_version = {v: (first, last) for v, first, last in records}
    low = min(by_version)
    viewer = Viewer(seat=host_seat, host=True)
    rows = (
        Event.objects.filter(
            game=game,
            seq__gte=min(f for f, _ in by_version.values()),
            seq__lte=max(last for _, last in by_version.values()),
        )
        .order_by("seq")
        .values_list("seq", "kind", "payload", "audience", "actor")
    )
    events = [
        {"seq": seq, "kind": kind, "payload": payload, "actor": actor}
        for seq, kind, payload, audience, actor in rows
        if event_visible(audience, viewer)
    ]
    choices: list[RewindChoice] = []
    state = timeline.state_at(low)
    for version in range(low, now):
        after = timeline.state_at(version + 1)
        allowed = (
            state.status in ("running", "paused")
            and state.running_match is None
            and not timeline.undone(version, now)
        )
        if allowed and version in by_version:
            first, last = by_version[version]
            mine = [e for e in events if first <= e["seq"] <= last]
            lines = eventlog.render(mine, eventlog.LogContext.from_state(after, host_seat, timeline.cat))
            text = html.unescape(" ".join(strip_tags(str(line.html)) for line in lines)).strip()
            if len(text) > LABEL_LENGTH:
                text = text[: LABEL_LENGTH - 1] + "…"
            choices.append(RewindChoice(to_version=version, seq=first, label=text))
        state = after
    choices.reverse()
    return choices[:limit]
