"""Bad grid-football input over the room socket (issue 25): a twelfth pawn, a line-up of the wrong shape, a
walk while line-ups are asked, the other seat's decision, a forged decision id, a stale version: each answered
on this socket with a clear error, and nothing changed; the legal line-up then counts once."""

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


def _room() -> tuple[str, dict[int, str], dict]:
    """A one-match grid room of two humans, started: the seats' tokens and seat 1's line-up decision."""
    room = room_create(
        nickname="Anna",
        seed=5,
        game="grid-football",
        house_rules={"seats": 2, "competition": "single", "options": {"length": "short"}},
    )
    _seat, token = room_join(code=room.code, nickname="Ben")
    game_act(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="s"
    )
    prompt = next(p for p in current_snapshot(Game.objects.get(code=room.code)).state.prompts if p.seat == 1)
    tokens = {1: room.token or "", 2: token}
    return room.code, tokens, {"id": prompt.id, "default": prompt.default, **prompt.context}


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


async def test_bad_grid_input_over_the_socket_is_refused_clearly_and_changes_nothing():
    code, tokens, prompt = await database_sync_to_async(_room)()
    me, them = await _seat(code, tokens[1]), await _seat(code, tokens[2])
    before = await database_sync_to_async(_version)(code)
    eleven = prompt["default"]["players"]
    answer = lambda choice: {"type": "answer", "prompt": prompt["id"], "choice": choice}  # noqa: E731
    cases = [
        (me, answer({"kind": "lineup", "players": [*eleven, 16]}), "illegal_choice", "a twelfth pawn"),
        (me, answer({"kind": "lineup", "players": "all"}), "malformed", "list of squad numbers"),
        (me, answer({"kind": "lineup", "players": eleven, "keeper_column": 9}), "malformed", "keeper_column"),
        (me, answer({"kind": "walk", "player": 9, "to": "4,6"}), "illegal_choice", "is not asked now"),
        (me, answer({"kind": "walk", "player": 9, "to": "x"}), "malformed", "'x,y'"),
        (me, {"type": "answer", "prompt": prompt["id"], "pick": 0}, "illegal_choice", "no such choice"),
        (them, answer(prompt["default"]), "not_your_prompt", "belongs to"),
        (me, {"type": "answer", "prompt": 999_999, "choice": prompt["default"]}, "unknown_prompt", "#999999"),
        (me, {"type": "pause"}, "forbidden", "You may not do that"),
    ]
    for i, (comm, action, code_wanted, words) in enumerate(cases):
        reply = await _answer(comm, action, f"bad-{i}")
        assert reply["type"] == "error" and reply["code"] == code_wanted, (action, reply)
        assert words in reply["message"], reply
        assert await database_sync_to_async(_version)(code) == before, action
    # a stale version is refused for an action that names no decision, and nothing moves
    stale = await _answer(them, {"type": "join", "nickname": "Cy"}, "stale", version=before - 1)
    assert stale["type"] == "error" and await database_sync_to_async(_version)(code) == before
    # the legal line-up counts, once
    for aid in ("good", "good"):
        reply = await _answer(me, answer(prompt["default"]), aid)
        assert reply["type"] == "result"
    assert await database_sync_to_async(_version)(code) == before + 1
    await me.disconnect()
    await them.disconnect()
