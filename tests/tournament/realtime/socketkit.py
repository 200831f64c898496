"""Helpers for the bad-input tests of the games' room sockets (test_chess_socket.py, test_grid_socket.py): a
seat's socket, an action answered on it, the room's version, and the refusals checked one by one."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import Game


async def seat_socket(code: str, token: str) -> WebsocketCommunicator:
    """A seat's socket on the room, said hello with its token."""
    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    await comm.send_to(text_data=json.dumps({"type": "hello", "token": token}))
    return comm


async def answer_on(comm: WebsocketCommunicator, action: dict, aid: str, version: int | None = None) -> dict:
    """Send an action and return the frame that answers it (by its action id)."""
    await comm.send_to(
        text_data=json.dumps({"type": "act", "action": action, "version": version, "action_id": aid})
    )
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame.get("action_id") == aid:
            return frame


def _version(code: str) -> int:
    return Game.objects.get(code=code).version


async def version_of(code: str) -> int:
    """The room's stored version."""
    return await database_sync_to_async(_version)(code)


async def all_refused(code: str, cases: list[tuple[Any, dict, str, str]]) -> None:
    """Each (socket, action, error code, words) is refused on that socket with that code and a message that
    says ``words``, and the room's version does not move."""
    before = await version_of(code)
    for i, (comm, action, code_wanted, words) in enumerate(cases):
        reply = await answer_on(comm, action, f"bad-{i}")
        assert reply["type"] == "error" and reply["code"] == code_wanted, (action, reply)
        assert words in reply["message"], reply
        assert await version_of(code) == before, action
