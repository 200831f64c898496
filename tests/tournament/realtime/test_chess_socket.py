"""Bad chess-football input over the room socket (issue 24): a malformed move string, an illegal move, the
other seat's decision, a forged decision id, a stale version: each answered on this socket with a clear
error, and nothing changed; the legal move then counts once."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.services.actions import current_snapshot, game_act
from tournament.services.rooms import room_create, room_join

pytestmark = [pytest.mark.django_db(transaction=True)]


def _room() -> tuple[str, dict[int, str], int, dict]:
    """A one-match chess room of two humans, started: the seats' tokens and the open decision."""
    room = room_create(
        nickname="Anna", seed=5, game="chess-football", house_rules={"seats": 2, "competition": "single"}
    )
    _seat, token = room_join(code=room.code, nickname="Ben")
    game_act(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="s"
    )
    prompt = current_snapshot(Game.objects.get(code=room.code)).state.prompts[0]
    tokens = {1: room.token or "", 2: token}
    return room.code, tokens, prompt.seat, {"id": prompt.id, "choices": prompt.choices, **prompt.context}


async def _seat(code: str, token: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "hello", "token": token}))
    return comm


async def _answer(comm: WebsocketCommunicator, action: dict, aid: str, version: int | None = None) -> dict:
    await comm.send_to(
        text_data=json.dumps({"type": "act", "action": action, "version": version, "action_id": aid})
    )
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame.get("action_id") == aid:
            return frame


def _version(code: str) -> int:
    return Game.objects.get(code=code).version


async def test_bad_chess_input_over_the_socket_is_refused_clearly_and_changes_nothing():
    code, tokens, mover, prompt = await database_sync_to_async(_room)()
    other = 2 if mover == 1 else 1
    me, them = await _seat(code, tokens[mover]), await _seat(code, tokens[other])
    before = await database_sync_to_async(_version)(code)
    move = lambda text: {"type": "answer", "prompt": prompt["id"], "choice": {"kind": "move", "move": text}}  # noqa: E731
    two_steps = "Ke0-e2" if prompt["side"] == "home" else "Ke14-e12"  # the keeper goes one step (§5.3)
    cases = [
        (me, move("Qe0-x9"), "malformed", "is not a move in our notation"),
        (me, move(two_steps), "illegal_choice", "cannot reach " + two_steps[-3:].lstrip("-")),
        (
            me,
            {"type": "answer", "prompt": prompt["id"], "choice": {"kind": "cover", "square": "e0"}},
            "illegal_choice",
            "it is a move",
        ),
        (me, {"type": "answer", "prompt": prompt["id"], "pick": 10**6}, "illegal_choice", "no such choice"),
        (
            them,
            {"type": "answer", "prompt": prompt["id"], "choice": prompt["choices"][0]},
            "not_your_prompt",
            "belongs to",
        ),
        (
            me,
            {"type": "answer", "prompt": 999_999, "choice": prompt["choices"][0]},
            "unknown_prompt",
            "#999999",
        ),
        (me, {"type": "pause"}, "forbidden", "You may not do that"),
    ]
    for i, (comm, action, code_wanted, words) in enumerate(cases):
        answer = await _answer(comm, action, f"bad-{i}")
        assert answer["type"] == "error" and answer["code"] == code_wanted, answer
        assert words in answer["message"], answer
        assert await database_sync_to_async(_version)(code) == before, action
    # a stale version is refused for an action that names no decision, and nothing moves
    stale = await _answer(them, {"type": "join", "nickname": "Cy"}, "stale", version=before - 1)
    assert stale["type"] == "error" and await database_sync_to_async(_version)(code) == before
    # the legal move counts, once
    legal = prompt["choices"][0]
    for aid in ("good", "good"):
        answer = await _answer(me, move(legal["move"]), aid)
        assert answer["type"] == "result"
    assert await database_sync_to_async(_version)(code) == before + 1
    await me.disconnect()
    await them.disconnect()
