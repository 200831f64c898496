"""Live bots under the real ASGI app: bot seats decide by themselves, after a readable delay, through
``game_act`` as their seat; a human who lets the decision timer run out gets the default (R19), logged
as a ``decided_by_default`` event."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import ActionRecord, Event, Game
from tournament.realtime import driver as driver_module
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create

pytestmark = [pytest.mark.django_db(transaction=True)]

TIMER = 10  # the smallest decision timer a room allows (R19 house rule: 10–600 s)
SKIP_AHEAD = 9.4  # the test's clock runs this much ahead inside the driver: the timer expires after ~0.6 s


class _ClockAhead:
    """Stands in for the ``time`` module inside the driver only: the decision timer is measured against the
    ``deciding`` event's stored time, so moving the driver's clock forward shortens the wait."""

    @staticmethod
    def time() -> float:
        return time.time() + SKIP_AHEAD


async def _connect(code: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _drain(comm: WebsocketCommunicator) -> None:
    """Read whatever arrived and acknowledge it (protocol flow control)."""
    while not await comm.receive_nothing(timeout=0.05):
        await comm.receive_from()
        await comm.send_to(text_data=json.dumps({"type": "ack"}))


def _records(code: str) -> list[tuple[str, str, dict]]:
    return list(
        ActionRecord.objects.filter(game__code=code)
        .order_by("version_before")
        .values_list("actor", "action_id", "action")
    )


def _default_events(code: str) -> list[dict]:
    return list(
        Event.objects.filter(game__code=code, kind="decided_by_default").values_list("payload", flat=True)
    )


def _stop(code: str) -> None:
    game = Game.objects.get(code=code)
    if game.status == "running":
        game_act(
            code=code, actor=Actor("host"), action={"type": "pause"}, expected_version=None, action_id="stop"
        )


async def _until(check, seconds: float, comm: WebsocketCommunicator):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await _drain(comm)
        value = await database_sync_to_async(check)()
        if value:
            return value
        await asyncio.sleep(0.05)
    return None


def _cancel_driver_tasks() -> None:
    for task in list(driver_module.driver._pending.values()):
        task.cancel()


async def test_bots_act_by_themselves_and_the_timer_decides_for_a_silent_human(settings, monkeypatch):
    settings.BOT_DELAY = 0.2
    monkeypatch.setattr(driver_module, "time", _ClockAhead)
    room = await database_sync_to_async(room_create)(
        nickname="Anna", bots=["strong", "easy"], seed=4242, house_rules={"seats": 3, "decision_timer": TIMER}
    )
    comm = await _connect(room.code)  # a socket keeps the room's hub (and so its driver) running
    try:
        await comm.send_to(
            text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
        )
        await _drain(comm)
        game = await database_sync_to_async(Game.objects.get)(code=room.code)
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=game.version,
            action_id="start",
        )

        def progressed():
            records = _records(room.code)
            bots = {actor for actor, aid, _ in records if aid.startswith("bot-")}
            timed = [r for r in records if r[0] == "system"]
            return records if bots >= {"seat:2", "seat:3"} and timed else None

        records = await _until(progressed, 45, comm)
        await database_sync_to_async(_stop)(room.code)
    finally:
        _cancel_driver_tasks()
        await comm.disconnect()
    assert records, "the bots and the decision timer did not move the game"
    # the bots answered their own prompts as their seats, through game_act (recorded actions)
    bot_records = [r for r in records if r[1].startswith("bot-")]
    assert {r[0] for r in bot_records} == {"seat:2", "seat:3"}
    assert all(r[2]["type"] == "answer" for r in bot_records)
    # Anna (seat 1) never acted: each of her decisions was taken by the timer as the system actor
    assert not any(r[0] == "seat:1" for r in records)
    timed = [r for r in records if r[0] == "system"]
    assert timed and all(r[2]["type"] == "force_default" and r[1].startswith("timer-") for r in timed)
    logged = await database_sync_to_async(_default_events)(room.code)
    assert logged and all(e["seat"] == 1 and e["by"] == "system" for e in logged)


async def test_bots_wait_a_readable_delay_before_acting(settings):
    settings.BOT_DELAY = 0.5
    room = await database_sync_to_async(room_create)(
        nickname="Anna", bots=["easy"], seed=77, house_rules={"seats": 2}
    )
    comm = await _connect(room.code)
    try:
        await _drain(comm)
        game = await database_sync_to_async(Game.objects.get)(code=room.code)
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=game.version,
            action_id="start",
        )

        # play Anna's decisions as soon as they open, until the bot has acted a few times
        def bot_actions():
            rows = list(
                ActionRecord.objects.filter(game__code=room.code, actor="seat:2")
                .order_by("version_before")
                .values_list("version_before", "created_at")
            )
            return rows if len(rows) >= 3 else None

        deadline = time.monotonic() + 30
        rows = None
        while time.monotonic() < deadline and rows is None:
            await _drain(comm)
            await database_sync_to_async(_answer_human)(room.code, 1)
            rows = await database_sync_to_async(bot_actions)()
            await asyncio.sleep(0.05)
        await database_sync_to_async(_stop)(room.code)
    finally:
        _cancel_driver_tasks()
        await comm.disconnect()
    assert rows, "the bot never acted"
    for version_before, acted_at in rows:
        opened = await database_sync_to_async(_version_time)(room.code, version_before)
        # a human is in the room: full delay, halved only for match windows (bot_delay)
        assert (acted_at - opened).total_seconds() >= 0.5 * 0.5 - 0.02


def _version_time(code: str, version: int):
    """When the game reached ``version`` (the action that produced it was recorded)."""
    return ActionRecord.objects.get(game__code=code, version_after=version).created_at


def _answer_human(code: str, seat: int) -> None:
    from tournament.services.actions import current_snapshot

    game = Game.objects.get(code=code)
    st = current_snapshot(game).state
    for p in st.prompts:
        if p.seat == seat:
            with contextlib.suppress(RulesError):  # the bot may have moved the game on meanwhile
                game_act(
                    code=code,
                    actor=Actor("seat", seat),
                    action={"type": "answer", "prompt": p.id, "choice": p.default},
                    expected_version=game.version,
                    action_id=f"h-{game.version}",
                )
            return


async def test_a_bot_whose_version_moved_on_decides_again_instead_of_stalling(settings):
    """Two bots may hold prompts at once (both line-ups of a match); the one answering second finds the
    version moved on. It must decide again on the newest version, or nothing would ever schedule it again."""
    from tournament.services.actions import current_snapshot

    settings.BOT_DELAY = 0

    def setup():
        room = room_create(nickname=None, bots=["easy", "easy"], seed=5, house_rules={"seats": 2})
        game = Game.objects.get(code=room.code)
        game_act(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=game.version,
            action_id="start",
        )
        game.refresh_from_db()
        stale = current_snapshot(game)
        # the game moves on (the host pauses and resumes) while the bot's prompt stays open
        for kind in ("pause", "resume"):
            game_act(
                code=room.code,
                actor=Actor("host"),
                action={"type": kind},
                expected_version=None,
                action_id=kind,
            )
        return room.code, stale

    code, stale = await database_sync_to_async(setup)()
    prompt = stale.state.prompts[0]
    await driver_module.driver._bot(stale, prompt.id, prompt.seat, "easy", 0)
    records = await database_sync_to_async(_records)(code)
    answered = [r for r in records if r[1].startswith("bot-") and r[2].get("prompt") == prompt.id]
    assert len(answered) == 1 and answered[0][0] == f"seat:{prompt.seat}"
    assert answered[0][1] == f"bot-{stale.version + 2}-{prompt.id}"  # decided on the newest version
