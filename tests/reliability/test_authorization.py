"""Authorization matrix (issue 8): anonymous, spectator, each player, host × every action and page;
only the allowed ones succeed, and a refused one changes nothing.

Roles: ``anonymous`` (no credentials), ``spectator`` (seat 2's credentials on a watching connection —
``as=spectator`` — or, for pages, a browser seated in another room), ``seat 1``–``seat 3`` (players;
in a running game one of them holds the open roll), ``host`` (the room's host key; the host does not
play in these rooms). Each cell gets a fresh room, so an allowed action cannot hide a refused one.
Actions are tried over the websocket protocol and as the room pages' form posts. Every cell is tried in a
Magic Football room and in a room of another game (a dice-football cup: its decisions answered by ``pick``,
its house rules by the ``room_rules`` form, no money to transfer), and the decisions of a chess-football cup,
answered by ``pick`` and by a move in notation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client

from tournament.models import ActionRecord, Game
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create, room_join
from tournament.services.store import load_snapshot

ROLES = ("anonymous", "spectator", "seat 1", "seat 2", "seat 3", "host")
ACTIVE = "active seat"  # stands for whichever seat holds the open roll in a running game


DICE = "dice-football"
CHESS = "chess-football"
GRID = "grid-football"


@dataclass
class Setup:
    game: str
    code: str
    host_key: str
    tokens: dict[int, str]
    other_room_token: str
    active: int | None
    prompt: int | None
    version: int
    choice: dict[str, Any] | None = None  # the open prompt's first listed choice


def _setup(phase: str, game: str = "magic-football") -> Setup:
    other = room_create(nickname="Elsewhere", seed=1, house_rules={"seats": 2})
    rules = {"seats": 5} if game == "magic-football" else {"seats": 5, "competition": "cup"}
    room = room_create(nickname=None, seed=31, house_rules=rules, game=game)
    tokens = {}
    for name in ("Ann", "Ben", "Cy"):
        seat, token = room_join(code=room.code, nickname=name)
        tokens[seat] = token
    active = prompt = choice = None
    if phase in ("running", "paused"):
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="start",
        )
        state = load_snapshot(Game.objects.get(code=room.code)).state
        active, prompt = state.prompts[0].seat, state.prompts[0].id
        # the first listed choice; a line-up, which lists none, by its default
        choice = (state.prompts[0].choices or [state.prompts[0].default])[0]
    if phase == "paused":
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "pause"},
            expected_version=None,
            action_id="pause",
        )
    game = Game.objects.get(code=room.code)
    return Setup(
        game.kind, room.code, room.host_key, tokens, other.token or "", active, prompt, game.version, choice
    )


# (phase, name) -> (action, form fields, roles allowed)
def _cases() -> list[tuple[str, str, set[str]]]:
    host, players = {"host"}, {"seat 1", "seat 2", "seat 3"}
    return [
        ("lobby", "join", {"anonymous", "host"}),
        ("lobby", "add_bot", host),
        ("lobby", "house_rules", host),
        ("lobby", "start", host),
        ("lobby", "remove_seat 3", {"seat 3", "host"}),
        ("lobby", "pause", set()),
        ("running", "roll", {ACTIVE}),
        ("running", "answer roll", {ACTIVE}),
        ("running", "force_default", host),
        ("running", "pause", host),
        ("running", "end_game", host),
        ("running", "transfer", host),
        ("running", "seat_bot", host),
        ("running", "join", set()),
        ("running", "add_bot", set()),
        ("running", "start", set()),
        ("running", "remove_seat 3", set()),
        ("paused", "resume", host),
        ("paused", "roll", set()),
        ("paused", "transfer", host),
        ("lobby", "leave", players),
    ]


def _dice_cases() -> list[tuple[str, str, set[str]]]:
    """The same matrix in a dice-football cup: its decisions, its house rules, and no money at all."""
    host, players = {"host"}, {"seat 1", "seat 2", "seat 3"}
    return [
        ("lobby", "join", {"anonymous", "host"}),
        ("lobby", "add_bot", host),
        ("lobby", "room_rules", host),
        ("lobby", "start", host),
        ("lobby", "remove_seat 3", {"seat 3", "host"}),
        ("lobby", "leave", players),
        ("running", "pick", {ACTIVE}),
        ("running", "force_default", host),
        ("running", "pause", host),
        ("running", "end_game", host),
        ("running", "transfer", set()),
        ("running", "seat_bot", host),
        ("running", "join", set()),
        ("running", "room_rules", set()),
        ("paused", "resume", host),
        ("paused", "pick", set()),
    ]


def _chess_cases() -> list[tuple[str, str, set[str]]]:
    """A chess-football cup's decisions: by the number of a listed choice and by the move in notation (the
    rest of the room is the dice cup's, tried in full above)."""
    return [
        ("running", "pick", {ACTIVE}),
        ("running", "move", {ACTIVE}),
        ("paused", "move", set()),
    ]


def _grid_cases() -> list[tuple[str, str, set[str]]]:
    """A grid-football cup starts with both sides of each match naming their line-ups at once: a line-up is
    answered with its own form (squad numbers, the keeper's column, the centre columns), by its seat only."""
    return [
        ("running", "lineup", {ACTIVE}),
        ("paused", "lineup", set()),
    ]


def _action(name: str, s: Setup) -> tuple[dict[str, Any], dict[str, str]]:
    """The protocol action and the equivalent room-page form fields."""
    if name == "join":
        return {"type": "join", "nickname": "Dana"}, {"nickname": "Dana"}
    if name == "add_bot":
        return {"type": "add_bot", "strength": "easy"}, {"action": "add_bot", "strength": "easy"}
    if name == "house_rules":
        return (
            {"type": "house_rules", "seats": 6},
            {
                "action": "house_rules",
                "mode": "world_cup",
                "seats": "6",
                "visit_fee_to": "coach",
                "decision_timer": "0",
            },
        )
    if name in ("start", "pause", "resume", "end_game", "roll"):
        return {"type": name}, {"action": name}
    if name == "remove_seat 3":
        return {"type": "remove_seat", "seat": 3}, {"action": "remove_seat", "seat": "3"}
    if name == "leave":
        return {"type": "remove_seat", "seat": None}, {"action": "leave"}
    if name == "room_rules":
        return (
            {"type": "house_rules", "competition": "league"},
            {"action": "room_rules", "competition": "league", "seats": "5", "decision_timer": "0"},
        )
    if name == "pick":
        return {"type": "answer", "prompt": s.prompt, "pick": 0}, {
            "action": "pick",
            "prompt": str(s.prompt),
            "pick": "0",
        }
    if name == "move":  # the listed move in notation; a page posts the same move by its number
        return {"type": "answer", "prompt": s.prompt, "choice": s.choice}, {
            "action": "pick",
            "prompt": str(s.prompt),
            "pick": "0",
        }
    if name == "lineup":
        assert s.choice is not None
        return {"type": "answer", "prompt": s.prompt, "choice": s.choice}, {
            "action": "lineup",
            "prompt": str(s.prompt),
            "players": [str(n) for n in s.choice["players"]],
            "keeper_column": str(s.choice["keeper_column"]),
            "centre": [str(c) for c in s.choice["centre"]],
        }
    if name == "answer roll":
        return ({"type": "answer", "prompt": s.prompt, "choice": {"roll": True}}, {"action": "roll"})
    if name == "force_default":
        return {"type": "force_default", "prompt": s.prompt}, {
            "action": "force_default",
            "prompt": str(s.prompt),
        }
    if name == "transfer":
        return (
            {"type": "transfer", "src": "bank", "dst": "p2", "amount": 12_345, "memo": "a fine"},
            {"action": "transfer", "src": "bank", "dst": "p2", "amount": "12.345", "memo": "a fine"},
        )
    if name == "seat_bot":
        seat = s.active or 1
        return {"type": "seat_bot", "seat": seat, "bot": True}, {
            "action": "seat_bot",
            "seat": str(seat),
            "bot": "yes",
        }
    raise AssertionError(name)


def _allowed(role: str, allowed: set[str], s: Setup) -> bool:
    if ACTIVE in allowed and s.active is not None and role == f"seat {s.active}":
        return True
    return role in allowed


def _state(code: str) -> tuple[int, int, int]:
    game = Game.objects.get(code=code)
    return game.version, game.last_seq, ActionRecord.objects.filter(game=game).count()


CASES = {"magic-football": _cases(), DICE: _dice_cases(), CHESS: _chess_cases(), GRID: _grid_cases()}
CELLS = [
    (game, phase, name, role) for game, cases in CASES.items() for phase, name, _ in cases for role in ROLES
]
ALLOWED = {(game, phase, name): allowed for game, cases in CASES.items() for phase, name, allowed in cases}


def _expect(
    s: Setup,
    phase: str,
    name: str,
    role: str,
    before: tuple[int, int, int],
    after: tuple[int, int, int],
    answer: str,
) -> None:
    allowed = _allowed(role, ALLOWED[(s.game, phase, name)], s)
    if name == "leave" and role in ("seat 1", "seat 2", "seat 3"):
        allowed = True
    if allowed:
        assert after[0] == before[0] + 1, f"{role} may {name} in a {phase} game, but: {answer}"
    else:
        assert after == before, f"{role} must not {name} in a {phase} game, but it changed the game: {answer}"


# --------------------------------------------------------------------------------- over the socket
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game", "phase", "name", "role"), CELLS)
async def test_protocol_action(game: str, phase: str, name: str, role: str) -> None:
    from magicfootball.asgi import application

    s = await database_sync_to_async(_setup)(phase, game)
    query = "?as=spectator" if role == "spectator" else ""
    comm = WebsocketCommunicator(
        application, f"/ws/r/{s.code}/{query}", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    hello: dict[str, Any] | None = None
    if role == "spectator":
        hello = {"type": "hello", "token": s.tokens[2]}
    elif role.startswith("seat"):
        hello = {"type": "hello", "token": s.tokens[int(role[5:])]}
    elif role == "host":
        hello = {"type": "hello", "host_key": s.host_key}
    if hello:
        await comm.send_to(text_data=json.dumps(hello))
    action, _form = _action(name, s)
    if name == "leave":
        seat = int(role[5:]) if role.startswith("seat") else 3
        action = {"type": "remove_seat", "seat": seat}
    before = await database_sync_to_async(_state)(s.code)
    await comm.send_to(
        text_data=json.dumps({"type": "act", "action": action, "version": s.version, "action_id": "matrix"})
    )
    answer: dict[str, Any] = {}
    while answer.get("action_id") != "matrix":
        answer = json.loads(await comm.receive_from(timeout=10))
    after = await database_sync_to_async(_state)(s.code)
    await comm.disconnect()
    if name == "leave" and role in ("anonymous", "spectator", "host"):
        # leaving is "remove my own seat": these have none; as the host, seat 3 is his to remove
        expected = role == "host"
        assert (after[0] == before[0] + 1) is expected, (role, answer)
        return
    _expect(s, phase, name, role, before, after, json.dumps(answer))
    assert answer["type"] == ("result" if after != before else "error")
    if answer["type"] == "error":
        assert answer["code"] != "server_error"


# ------------------------------------------------------------------------------ as form posts
def _browser(s: Setup, role: str) -> Client:
    client = Client(HTTP_HX_REQUEST="true")
    creds: dict[str, dict[str, str]] = {}
    if role.startswith("seat"):
        creds = {s.code: {"token": s.tokens[int(role[5:])]}}
    elif role == "host":
        creds = {s.code: {"host_key": s.host_key}}
    elif role == "spectator":
        creds = {"elsewhere": {"token": s.other_room_token}}
    if creds:
        session = client.session
        session["rooms"] = creds
        session.save()
        client.cookies[settings.SESSION_COOKIE_NAME] = session.session_key
    return client


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("game", "phase", "name", "role"), CELLS)
def test_form_post(game: str, phase: str, name: str, role: str) -> None:
    s = _setup(phase, game)
    browser = _browser(s, role)
    _action_json, form = _action(name, s)
    before = _state(s.code)
    if name == "join":
        response = browser.post(f"/r/{s.code}/join", form)
    else:
        response = browser.post(
            f"/r/{s.code}/act", {**form, "version": str(s.version), "action_id": "matrix"}
        )
    after = _state(s.code)
    assert response.status_code < 500
    if name == "leave":
        assert (after[0] == before[0] + 1) is role.startswith("seat"), (role, response.status_code)
        return
    if name == "join" and role.startswith("seat"):  # already seated: sent back to the seat, nothing joined
        assert after == before
        return
    if name == "join" and role == "spectator" and phase == "lobby":
        # a browser that only watches this room may still take a free seat in its lobby (like anyone)
        assert after[0] == before[0] + 1
        return
    _expect(s, phase, name, role, before, after, response.content.decode()[:300])


# ---------------------------------------------------------------------------------------- pages
PAGES = [
    # (page, phase, role -> expected status)
    ("", "lobby", dict.fromkeys(ROLES, 200)),
    (
        "",
        "running",
        {"anonymous": 302, "spectator": 302, "seat 1": 200, "seat 2": 200, "seat 3": 200, "host": 200},
    ),
    ("watch", "running", dict.fromkeys(ROLES, 200)),
    ("bracket", "running", dict.fromkeys(ROLES, 200)),
    ("host", "lobby", {**dict.fromkeys(ROLES, 403), "host": 200}),
    ("host", "running", {**dict.fromkeys(ROLES, 403), "host": 200}),
    ("next", "running", dict.fromkeys(ROLES, 200)),
]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("game", ["magic-football", DICE])
@pytest.mark.parametrize(
    ("page", "phase", "expected"), PAGES, ids=[f"{p or 'room'}-{ph}" for p, ph, _ in PAGES]
)
def test_pages(game: str, page: str, phase: str, expected: dict[str, int]) -> None:
    s = _setup(phase, game)
    for role in ROLES:
        browser = _browser(s, role)
        browser.defaults.pop("HTTP_HX_REQUEST", None)
        response = browser.get(f"/r/{s.code}/{page}")
        assert response.status_code == expected[role], (page, phase, role, response.status_code)
        if response.status_code == 200 and page != "next":
            text = response.content.decode()
            assert ("Bank/Official" in text or 'id="host-' in text) == (page == "host"), (page, role)


@pytest.mark.django_db(transaction=True)
def test_rematch_is_the_hosts_alone() -> None:
    s = _setup("running")
    for role in ROLES:
        before = Game.objects.count()
        response = _browser(s, role).post(f"/r/{s.code}/rematch")
        assert response.status_code == (200 if role == "host" else 403), role  # the host is told to finish
        assert Game.objects.count() == before
    game_act(
        code=s.code, actor=Actor("host"), action={"type": "end_game"}, expected_version=None, action_id="end"
    )
    for role in ROLES:
        before = Game.objects.count()
        response = _browser(s, role).post(f"/r/{s.code}/rematch")
        assert (Game.objects.count() == before + 1) is (role == "host"), role
        assert response.status_code in ((204, 302) if role == "host" else (403,)), (
            role,
            response.status_code,
        )
