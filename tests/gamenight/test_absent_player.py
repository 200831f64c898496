"""Absent players (R19 and ruling G12): in a room without a decision timer, the default is taken for a
player who has had no open socket for ABSENT_PLAYER_TIMEOUT seconds while his decision was open, and
logged as ``decided_by_default``; a connected player is never decided for; the game never stalls."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import ActionRecord, Event, Game
from tournament.realtime import driver as driver_module
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create, room_join

pytestmark = [pytest.mark.django_db(transaction=True)]


async def connect(code: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm


async def drain(*comms: WebsocketCommunicator) -> None:
    for comm in comms:
        while not await comm.receive_nothing(timeout=0.02):
            await comm.receive_from()
            await comm.send_to(text_data='{"type":"ack"}')


def defaults(code: str) -> list[dict]:
    return list(
        Event.objects.filter(game__code=code, kind="decided_by_default").values_list("payload", flat=True)
    )


def actors(code: str) -> set[str]:
    return set(ActionRecord.objects.filter(game__code=code).values_list("actor", flat=True))


def stop(code: str) -> None:
    if Game.objects.get(code=code).status == "running":
        game_act(
            code=code, actor=Actor("host"), action={"type": "pause"}, expected_version=None, action_id="stop"
        )


async def wait_for(check, seconds: float, *comms: WebsocketCommunicator):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        await drain(*comms)
        value = await database_sync_to_async(check)()
        if value:
            return value
        await asyncio.sleep(0.05)
    return None


def cancel_driver() -> None:
    for task in list(driver_module.driver._pending.values()):
        task.cancel()


async def test_the_default_decides_for_a_player_who_is_away_and_never_for_one_who_is_here(settings):
    settings.BOT_DELAY = 0.05
    settings.ABSENT_PLAYER_TIMEOUT = 1.0

    def make():
        room = room_create(nickname="Anna", bots=["easy"], seed=4242, house_rules={"seats": 3})
        _seat, token = room_join(code=room.code, nickname="Ben")  # seat 3, never connects
        return room, token

    room, _ben = await database_sync_to_async(make)()
    anna = await connect(room.code)
    await anna.send_to(
        text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
    )
    try:
        await drain(anna)
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="go",
        )
        # Anna never answers: her decisions wait (she is here); Ben's are taken for him after the timeout
        found = await wait_for(lambda: [d for d in defaults(room.code) if d["seat"] == 3], 30, anna)
        anna_waits = await database_sync_to_async(
            lambda: any(p["seat"] == 1 for p in Game.objects.get(code=room.code).flow["prompts"])
        )()
        await database_sync_to_async(stop)(room.code)
    finally:
        cancel_driver()
        await anna.disconnect()
    assert found and all(d["by"] == "system" for d in found)
    logged = await database_sync_to_async(defaults)(room.code)
    assert not [d for d in logged if d["seat"] == 1]
    records = await database_sync_to_async(
        lambda: list(
            ActionRecord.objects.filter(game__code=room.code, actor="system").values_list(
                "action_id", flat=True
            )
        )
    )()
    assert records and all(r.startswith("absent-") for r in records)
    assert anna_waits or "seat:1" in await database_sync_to_async(actors)(room.code)


async def test_leaving_starts_the_clock_and_coming_back_stops_it(settings):
    settings.BOT_DELAY = 0.05
    settings.ABSENT_PLAYER_TIMEOUT = 1.5

    def make():
        return room_create(nickname="Anna", bots=["easy"], seed=77, house_rules={"seats": 2})

    room = await database_sync_to_async(make)()
    watcher = await connect(room.code)  # keeps the room's hub (and so the driver) running
    anna = await connect(room.code)
    await anna.send_to(
        text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
    )
    try:
        await drain(anna, watcher)
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "start"},
            expected_version=None,
            action_id="go",
        )
        await asyncio.sleep(2.5)  # longer than the timeout: she is here, nothing is decided for her
        await drain(anna, watcher)
        assert not await database_sync_to_async(defaults)(room.code)
        await anna.disconnect()
        left = time.monotonic()
        found = await wait_for(lambda: defaults(room.code), 20, watcher)
        waited = time.monotonic() - left
        await database_sync_to_async(stop)(room.code)
    finally:
        cancel_driver()
        await watcher.disconnect()
    assert found and found[0]["seat"] == 1 and found[0]["by"] == "system"
    assert waited >= 1.2  # the absence timeout, counted from when she left


async def test_a_pause_stops_the_absence_clock_and_the_resume_gives_back_what_was_left(settings):
    """A pause freezes every running deadline (R19a), the absent player's too: a pause longer than the
    timeout must not make the default fall at once on the resume."""
    settings.ABSENT_PLAYER_TIMEOUT = 2.0

    def make():
        room = room_create(nickname="Anna", bots=[], seed=4242, house_rules={"seats": 2})
        room_join(code=room.code, nickname="Ben")  # seat 2, never connects
        return room

    def bens_prompt_or_answer_annas(code):
        from tournament.services.actions import current_snapshot

        st = current_snapshot(Game.objects.get(code=code)).state
        for p in st.prompts:
            if p.seat == 2:
                return p.id
            game_act(
                code=code,
                actor=Actor("seat", 1),
                action={"type": "answer", "prompt": p.id, "choice": p.default},
                expected_version=None,
                action_id=f"anna-{p.id}",
            )
        return None

    def host(code, kind):
        game_act(code=code, actor=Actor("host"), action={"type": kind}, expected_version=None, action_id=kind)

    def bens_default(code, prompt_id):
        return [d for d in defaults(code) if d["prompt"] == prompt_id]

    room = await database_sync_to_async(make)()
    anna = await connect(room.code)  # Anna is here (her decisions wait for her); Ben never comes
    await anna.send_to(
        text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
    )
    try:
        await drain(anna)
        await database_sync_to_async(host)(room.code, "start")
        prompt = await wait_for(lambda: bens_prompt_or_answer_annas(room.code), 20, anna)
        await database_sync_to_async(host)(room.code, "pause")
        paused = time.monotonic()
        while time.monotonic() - paused < 3.0:  # longer than the whole timeout
            await drain(anna)
            assert not await database_sync_to_async(bens_default)(room.code, prompt)
            await asyncio.sleep(0.1)
        await database_sync_to_async(host)(room.code, "resume")
        resumed = time.monotonic()
        found = await wait_for(lambda: bens_default(room.code, prompt), 20, anna)
        waited = time.monotonic() - resumed
        await database_sync_to_async(stop)(room.code)
    finally:
        cancel_driver()
        await anna.disconnect()
    assert found and found[0]["by"] == "system"
    assert waited >= 1.2, f"the default fell {waited:.2f} s after the resume; most of the 2 s were left"
