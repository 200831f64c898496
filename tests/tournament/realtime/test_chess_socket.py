"""Bad chess-football input over the room socket (issue 24): a malformed move string, an illegal move, the
other seat's decision, a forged decision id, a stale version: each answered on this socket with a clear
error, and nothing changed; the legal move then counts once."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from socketkit import all_refused, answer_on, seat_socket, version_of

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


async def test_bad_chess_input_over_the_socket_is_refused_clearly_and_changes_nothing():
    code, tokens, mover, prompt = await database_sync_to_async(_room)()
    other = 2 if mover == 1 else 1
    me, them = await seat_socket(code, tokens[mover]), await seat_socket(code, tokens[other])
    before = await version_of(code)
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
    await all_refused(code, cases)
    # a stale version is refused for an action that names no decision, and nothing moves
    stale = await answer_on(them, {"type": "join", "nickname": "Cy"}, "stale", version=before - 1)
    assert stale["type"] == "error" and await version_of(code) == before
    # the legal move counts, once
    legal = prompt["choices"][0]
    for aid in ("good", "good"):
        answer = await answer_on(me, move(legal["move"]), aid)
        assert answer["type"] == "result"
    assert await version_of(code) == before + 1
    await me.disconnect()
    await them.disconnect()
