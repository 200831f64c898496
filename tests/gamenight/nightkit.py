"""Helpers of the game-night tests: rooms with logged-in browsers, games driven by defaults, pure games.

The fixtures live in conftest.py next to this file; tests import these plain helpers.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.test import Client

from cards.catalog import get_catalog
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.rules.replay import Timeline
from tournament.rules.state import GameState
from tournament.services.actions import current_snapshot, game_act
from tournament.services.rooms import room_create
from tournament.services.store import load_snapshot

HIDDEN_PILES = ("box1", "box2", "box3", "official_fields", "official_countries", "official_rivals")
CARD_ID = re.compile(r"\b(?:[FKMGR]\d{2,3}|[A-Z]{3})\b")


def login(client: Client, code: str, token: str | None = None, host_key: str | None = None) -> None:
    """Give a test browser the credentials of a room in its signed-cookie session."""
    session = client.session
    rooms = dict(session.get("rooms") or {})
    entry: dict[str, str] = {}
    if token:
        entry["token"] = token
    if host_key:
        entry["host_key"] = host_key
    rooms[code] = entry
    session["rooms"] = rooms
    session.save()
    client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key


@dataclass
class Room:
    """A room whose host browser holds the host key and seat 1."""

    code: str
    host: Client
    token: str | None
    host_key: str


def new_room(bots: int = 3, seed: int = 7, nickname: str = "Anna", **rules: Any) -> Room:
    created = room_create(
        nickname=nickname, bots=["easy"] * bots, seed=seed, house_rules={"seats": 6, **rules}
    )
    client = Client()
    login(client, created.code, token=created.token, host_key=created.host_key)
    return Room(created.code, client, created.token, created.host_key)


def state_of(code: str) -> GameState:
    return load_snapshot(Game.objects.get(code=code)).state


def version_of(code: str) -> int:
    return Game.objects.get(code=code).version


def act(code: str, actor: Actor, action: dict[str, Any], **kwargs: Any) -> Any:
    return game_act(
        code=code, actor=actor, action=action, expected_version=None, action_id=uuid.uuid4().hex, **kwargs
    )


def start(code: str) -> None:
    act(code, Actor("host"), {"type": "start"})


def play(code: str, until: Callable[[GameState], bool] | None = None, limit: int = 5000) -> GameState:
    """Answer every prompt with its default until ``until(state)`` holds or the game ends."""
    for _ in range(limit):
        st = current_snapshot(Game.objects.get(code=code)).state  # the stored version, cached (roomkit)
        if (until is not None and until(st)) or st.status != "running" or not st.prompts:
            return st
        p = st.prompts[0]
        act(code, Actor("seat", p.seat), {"type": "answer", "prompt": p.id, "choice": p.default})
    raise AssertionError("the game did not reach the wanted moment")


def post(client: Client, code: str, **fields: Any) -> Any:
    """Post a room form (fresh action id, current version) as htmx would."""
    data = {"action_id": uuid.uuid4().hex, "version": str(version_of(code))}
    data.update(fields)
    return client.post(f"/r/{code}/act", data, HTTP_HX_REQUEST="true")


def pure_game(seed: int = 11, bots: int = 3, steps: int = 200, **rules: Any) -> Timeline:
    """A game on the pure rules only: the host (seat 1) and bots, started, then ``steps`` default answers."""
    timeline = Timeline(seed, {"mode": "world_cup", "house_rules": {"seats": 6, **rules}}, "", get_catalog())
    timeline.append("host", {"type": "join", "nickname": "Anna", "host": True})
    for _ in range(bots):
        timeline.append("host", {"type": "add_bot", "strength": "easy"})
    timeline.append("host", {"type": "start"})
    advance(timeline, steps)
    return timeline


def advance(timeline: Timeline, steps: int, until: Callable[[GameState], bool] | None = None) -> GameState:
    state = timeline.state_at(len(timeline))
    for _ in range(steps):
        if (until is not None and until(state)) or state.status != "running" or not state.prompts:
            break
        p = state.prompts[0]
        timeline.append(f"seat:{p.seat}", {"type": "answer", "prompt": p.id, "choice": p.default})
        state = timeline.state_at(len(timeline))
    return state


def hidden_cards(state: GameState) -> set[str]:
    """Every card lying in a blind pile (its id must never reach a page or a frame)."""
    return {c for key in HIDDEN_PILES for c in state.piles.get(key, [])}
