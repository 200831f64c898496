"""Bad grid-football input over the room socket (issue 25): a twelfth pawn, a line-up of the wrong shape, a
walk while line-ups are asked, the other seat's decision, a forged decision id, a stale version: each answered
on this socket with a clear error, and nothing changed; the legal line-up then counts once."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from socketkit import all_refused, answer_on, seat_socket, version_of

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


async def test_bad_grid_input_over_the_socket_is_refused_clearly_and_changes_nothing():
    code, tokens, prompt = await database_sync_to_async(_room)()
    me, them = await seat_socket(code, tokens[1]), await seat_socket(code, tokens[2])
    before = await version_of(code)
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
    await all_refused(code, cases)
    # a stale version is refused for an action that names no decision, and nothing moves
    stale = await answer_on(them, {"type": "join", "nickname": "Cy"}, "stale", version=before - 1)
    assert stale["type"] == "error" and await version_of(code) == before
    # the legal line-up counts, once
    for aid in ("good", "good"):
        reply = await answer_on(me, answer(prompt["default"]), aid)
        assert reply["type"] == "result"
    assert await version_of(code) == before + 1
    await me.disconnect()
    await them.disconnect()
