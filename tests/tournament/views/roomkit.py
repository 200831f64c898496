"""Helpers for the room views: rooms whose browsers hold credentials, and games driven to a given decision.

The fixtures live in conftest.py next to this file; tests import the plain helpers from here.
"""

from __future__ import annotations

import html
import re
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.test import Client

from cards.catalog import get_catalog
from tournament.models import Game
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.setup import new_game
from tournament.rules.state import GameState
from tournament.services.actions import current_snapshot, game_act
from tournament.services.store import load_snapshot


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


def state_of(code: str) -> GameState:
    """The game's state as stored in the database."""
    return load_snapshot(Game.objects.get(code=code)).state


def version_of(code: str) -> int:
    return Game.objects.get(code=code).version


def act(client: Client, code: str, htmx: bool = True, **fields: Any) -> Any:
    """Post a room form (with a fresh action id and the current version unless given)."""
    data = {"action_id": uuid.uuid4().hex, "version": str(version_of(code))}
    data.update({k: v for k, v in fields.items()})
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(f"/r/{code}/act", data, **headers)


def toast_text(html: str) -> str:
    """The message of a toast in an htmx answer ("" when there is none)."""
    match = re.search(r'class="toast toast--\w+"[^>]*>.*?<span>(.*?)</span>', html, re.S)
    return match.group(1) if match else ""


@dataclass
class Room:
    """A room whose host browser (``host``) holds the host key and seat 1."""

    code: str
    host: Client
    token: str | None
    host_key: str


def game_room(game: str, kind: str = "single", seats: int = 2, bots: int = 1, length: str = "short") -> Room:
    """A room of another game (its ``length`` option), Anna hosting in seat 1 with easy bots, in the lobby."""
    from tournament.services.rooms import room_create

    created = room_create(
        nickname="Anna",
        bots=["easy"] * bots,
        seed=13,
        game=game,
        house_rules={"seats": seats, "competition": kind, "options": {"length": length}},
    )
    client = Client()
    login(client, created.code, token=created.token, host_key=created.host_key)
    return Room(created.code, client, created.token, created.host_key)


def page_text(response: Any) -> str:
    """A page's text as a reader gets it: tags gone, entities decoded, spaces collapsed."""
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def my_prompt(code: str, seat: int = 1) -> Any:
    """The open prompt of ``seat`` (None: it has none)."""
    return next((p for p in state_of(code).prompts if p.seat == seat), None)


def start(room: Room) -> None:
    """The host starts the game (through the service)."""
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=None,
        action_id=uuid.uuid4().hex,
    )


def play_defaults(code: str, until: Callable[[GameState], bool], limit: int = 4000) -> GameState:
    """Answer every prompt with its default (bots and humans alike) until ``until(state)`` holds."""
    for _ in range(limit):
        # the service's snapshot of the stored version (equal to the rows, tests/tournament/services/
        # test_tournament_db.py): rebuilding it from the rows at every step cost most of a long fast-forward
        st = current_snapshot(Game.objects.get(code=code)).state
        if until(st) or st.status != "running" or not st.prompts:
            return st
        take_default(code, st.prompts[0])
    raise AssertionError("the game did not reach the wanted moment")


def take_default(code: str, prompt: Any) -> None:
    """The prompt's seat takes its default (through the service, as a bot does)."""
    game_act(
        code=code,
        actor=Actor("seat", prompt.seat),
        action={"type": "answer", "prompt": prompt.id, "choice": prompt.default},
        expected_version=None,
        action_id=uuid.uuid4().hex,
    )


def answer_elsewhere(code: str, mine: Any) -> None:
    """The other match of the room moves on: a seat of another match than ``mine``'s (a prompt) takes its
    decision's default, as a bot there would while ``mine``'s owner is still reading his board."""
    st = state_of(code)
    take_default(
        code,
        next(
            p
            for p in st.prompts
            if p.seat != mine.seat and p.context.get("match") != mine.context.get("match")
        ),
    )


def wants(
    kind: str, seat: int = 1, choice: Callable[[dict[str, Any]], bool] | None = None
) -> Callable[[GameState], bool]:
    """A predicate: ``seat`` has a prompt of ``kind`` (with a choice matching ``choice``, if given)."""

    def check(st: GameState) -> bool:
        return any(
            p.seat == seat and p.kind == kind and (choice is None or any(choice(c) for c in p.choices))
            for p in st.prompts
        )

    return check


def find_seed(
    kind: str,
    seat: int = 1,
    bots: int = 3,
    seeds: range = range(1, 400),
    limit: int = 3000,
    choice: Callable[[dict[str, Any]], bool] | None = None,
    house_rules: dict[str, Any] | None = None,
) -> int:
    """A seed whose default-played game gives ``seat`` a prompt of ``kind`` (searched on the pure rules)."""
    cat = get_catalog()
    wanted = wants(kind, seat, choice)
    for seed in seeds:
        st = new_game(seed, "world_cup", {"seats": 6, **(house_rules or {})})
        st, _ = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
        for _ in range(bots):
            st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "easy"}, cat)
        st, _ = apply_action(st, Actor("host"), {"type": "start"}, cat)
        for _ in range(limit):
            if st.status != "running" or not st.prompts:
                break
            if wanted(st):
                return seed
            p = st.prompts[0]
            answer = {"type": "answer", "prompt": p.id, "choice": p.default}
            st, _ = apply_action(st, Actor("seat", p.seat), answer, cat)
    raise AssertionError(f"no seed gives seat {seat} a {kind} prompt")
