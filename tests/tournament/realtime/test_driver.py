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
from tournament.services import timers
from tournament.services.actions import current_snapshot, game_act
from tournament.services.rooms import room_create, room_join

pytestmark = [pytest.mark.django_db(transaction=True)]

TIMER = 10  # the smallest decision timer a room allows (R19 house rule: 10–600 s)


class FastClock:
    """Stands in for ``timers.clock_ms``, the clock the decision timer's deadlines are set and judged by
    (in ``game_act`` and in the driver): it runs ``speed`` times as fast as the real one, so a 10 s timer
    runs out in 10/speed real seconds, and ``at`` tells what it read at a real moment."""

    def __init__(self, speed: float) -> None:
        self.speed = speed
        self.start = time.time()

    def at(self, real: float) -> int:
        return int((self.start + (real - self.start) * self.speed) * 1000)

    def __call__(self) -> int:
        return self.at(time.time())


def fast_clock(monkeypatch: pytest.MonkeyPatch, speed: float) -> FastClock:
    clock = FastClock(speed)
    monkeypatch.setattr(timers, "clock_ms", clock)
    monkeypatch.setattr(driver_module, "TIMER_POLL", 0.02)  # the driver follows the fast clock closely
    return clock


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
    fast_clock(monkeypatch, speed=16)  # each timer runs out after ~0.6 s
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


def _two_bots_started(seed: int):
    """A started room of two easy bots (no socket: its driver is the test's) and its first snapshot."""
    room = room_create(nickname=None, bots=["easy", "easy"], seed=seed, house_rules={"seats": 2})
    game = Game.objects.get(code=room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=game.version,
        action_id="start",
    )
    game.refresh_from_db()
    return room, current_snapshot(game)


async def test_a_bot_whose_version_moved_on_decides_again_instead_of_stalling(settings):
    """Two bots may hold prompts at once (both line-ups of a match); the one answering second finds the
    version moved on. It must decide again on the newest version, or nothing would ever schedule it again."""
    settings.BOT_DELAY = 0

    def setup():
        room, stale = _two_bots_started(seed=5)
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


def _host(code: str, kind: str) -> None:
    game_act(code=code, actor=Actor("host"), action={"type": kind}, expected_version=None, action_id=kind)


def _open_prompt(code: str, seat: int):
    return next(
        (p for p in current_snapshot(Game.objects.get(code=code)).state.prompts if p.seat == seat), None
    )


def _timer_record(code: str, prompt_id: int):
    return (
        ActionRecord.objects.filter(game__code=code, actor="system", action__prompt=prompt_id)
        .values_list("created_at", flat=True)
        .first()
    )


async def test_a_pause_freezes_the_decision_timer_and_the_resume_gives_back_what_was_left(
    settings, monkeypatch
):
    """Issue 23: with 9 s left the host paused for 40 s and resumed; the server took the default 0.3 s
    after the resume. The pause must stop the clock and the resume give back the time that was left."""
    settings.BOT_DELAY = 0.05
    clock = fast_clock(monkeypatch, speed=5)  # the 10 s timer runs out in 2 real seconds
    room = await database_sync_to_async(room_create)(
        nickname="Anna", bots=["easy"], seed=11, house_rules={"seats": 2, "decision_timer": TIMER}
    )
    comm = await _connect(room.code)
    try:
        await comm.send_to(
            text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
        )
        await _drain(comm)
        await database_sync_to_async(_host)(room.code, "start")
        prompt = await _until(lambda: _open_prompt(room.code, 1), 20, comm)
        assert prompt is not None and prompt.deadline is not None
        await database_sync_to_async(_host)(room.code, "pause")
        frozen = await database_sync_to_async(_open_prompt)(room.code, 1)
        assert frozen.id == prompt.id and frozen.deadline is None and 0 < frozen.left <= TIMER * 1000
        paused_at = time.monotonic()
        while time.monotonic() - paused_at < 3.0:  # 15 s of the clock: longer than the whole timer
            await _drain(comm)
            assert await database_sync_to_async(_timer_record)(room.code, prompt.id) is None, (
                "taken in the pause"
            )
            await asyncio.sleep(0.1)
        await database_sync_to_async(_host)(room.code, "resume")
        resumed = await database_sync_to_async(_open_prompt)(room.code, 1)
        taken = await _until(lambda: _timer_record(room.code, prompt.id), 20, comm)
        await database_sync_to_async(_stop)(room.code)
    finally:
        _cancel_driver_tasks()
        await comm.disconnect()
    assert resumed.id == prompt.id and resumed.left is None
    # re-armed with exactly what was left, from the resume (the clock moved on during the pause)
    assert resumed.deadline - frozen.left >= clock.at(paused_at) + 14_000
    assert taken is not None, "the timer never decided after the resume"
    decided = clock.at(taken.timestamp())
    assert resumed.deadline <= decided <= resumed.deadline + 2_000  # at the deadline, not at the resume


async def _view_of_state(comm: WebsocketCommunicator) -> dict:
    while True:
        frame = json.loads(await comm.receive_from(timeout=10))
        if frame["type"] == "state":
            return frame["view"]


async def test_every_socket_and_a_reconnect_get_the_servers_deadline_and_clock():
    """Issue 23: a reload at 44 s left showed 58 s. Every client reads the deadline the server stored, in
    the server's clock, which ``pong`` tells (a client measures its offset from it)."""

    def make():
        room = room_create(nickname="Anna", bots=[], seed=5, house_rules={"seats": 2, "decision_timer": 60})
        room_join(code=room.code, nickname="Ben")
        _host(room.code, "start")
        return room, current_snapshot(Game.objects.get(code=room.code)).state.prompts[0]

    room, prompt = await database_sync_to_async(make)()
    assert prompt.deadline is not None
    views = []
    try:
        for hello in ({"type": "hello", "token": room.token}, None, None):  # Anna, a spectator, a reload
            comm = await _connect(room.code)
            try:
                if hello is not None:
                    await comm.send_to(text_data=json.dumps(hello))
                views.append(await _view_of_state(comm))
                before = time.time() * 1000
                await comm.send_to(text_data=json.dumps({"type": "ping", "t": before}))
                pong = json.loads(await comm.receive_from(timeout=10))
                while pong["type"] != "pong":
                    pong = json.loads(await comm.receive_from(timeout=10))
            finally:
                await comm.disconnect()
            assert pong["t"] == before and before - 1000 < pong["now"] < time.time() * 1000 + 1000
            await asyncio.sleep(0.3)  # the reload comes later: it must not see a fresh timer
    finally:
        _cancel_driver_tasks()
    for view in views:
        assert {p["id"]: (p["deadline"], p["left"]) for p in view["prompts"]} == {
            prompt.id: (prompt.deadline, None)
        }


async def test_a_bot_decision_that_gave_up_is_scheduled_again_by_the_rooms_poll(settings, monkeypatch):
    """A bot's action may fail for good (refused, or the database away after a restart): the driver then
    gives up, and only a new version used to schedule the decision again, which a room waiting for that bot
    never gets. The hub's poll shows the driver the room again, so the bot decides a moment later."""
    from tournament.realtime import hub as hub_module

    settings.BOT_DELAY = 0
    monkeypatch.setattr(hub_module, "POLL_SECONDS", 0.2)
    real = driver_module.game_act
    refused: list[str] = []

    def refuse_the_first(**kwargs):
        if kwargs["action_id"].startswith("bot-") and not refused:
            refused.append(kwargs["action_id"])
            raise RulesError("not_your_prompt", owner="?")  # e.g. overtaken, as the driver reads it
        return real(**kwargs)

    monkeypatch.setattr(driver_module, "game_act", refuse_the_first)
    room = await database_sync_to_async(room_create)(
        nickname="Anna", bots=["easy"], seed=5, house_rules={"seats": 2}
    )
    comm = await _connect(room.code)  # a socket keeps the room's hub (its poll and its driver) running
    try:
        await comm.send_to(
            text_data=json.dumps({"type": "hello", "token": room.token, "host_key": room.host_key})
        )
        await _drain(comm)
        await database_sync_to_async(_host)(room.code, "start")

        def bot_decided():
            return [r for r in _records(room.code) if r[1].startswith("bot-")]

        decided = await _until(bot_decided, 20, comm)
        await database_sync_to_async(_stop)(room.code)
    finally:
        _cancel_driver_tasks()
        await comm.disconnect()
    assert refused, "the bot never tried"
    assert decided, "the bot's decision was never scheduled again after it gave up"


@pytest.mark.parametrize(("thinking", "pause"), [(0.3, 0.6), (1.5, 0.0)])
async def test_a_bots_thinking_time_counts_toward_its_pause(monkeypatch, thinking: float, pause: float):
    """A bot that searches (chess football's strong bot may think half a second) acts after the same
    readable delay as one that answers at once: it thinks first, and waits only what is left of the delay
    (nothing once the thinking took longer). The clock and the sleep are the test's, so nothing is timed."""
    from tournament.rules import bots as bots_module

    def setup():
        room = room_create(nickname=None, bots=["easy", "easy"], seed=5, house_rules={"seats": 2})
        _host(room.code, "start")
        return room.code, current_snapshot(Game.objects.get(code=room.code))

    code, snap = await database_sync_to_async(setup)()
    prompt = snap.state.prompts[0]
    now = [1000.0]
    steps: list[tuple[str, float]] = []
    decide = bots_module.decide

    def thinks(*args, **kwargs):
        steps.append(("think", now[0]))
        now[0] += thinking
        return decide(*args, **kwargs)

    async def sleeps(seconds: float) -> None:
        steps.append(("pause", seconds))
        now[0] += seconds

    monkeypatch.setattr(bots_module, "decide", thinks)
    driver = driver_module.Driver(clock=lambda: now[0], sleep=sleeps)
    await driver._bot(snap, prompt.id, prompt.seat, "easy", 0.9)
    assert [s[0] for s in steps] == ["think", "pause"]
    assert steps[1][1] == pytest.approx(pause)
    assert now[0] == pytest.approx(1000.0 + max(0.9, thinking))  # acted when the delay or the thought ended
    records = await database_sync_to_async(_records)(code)
    answered = [r for r in records if r[1].startswith("bot-") and r[2].get("prompt") == prompt.id]
    assert len(answered) == 1 and answered[0][0] == f"seat:{prompt.seat}"


async def test_a_decision_made_here_is_not_taken_again_from_a_snapshot_older_than_it(settings, monkeypatch):
    """After a bot's decision is written, this process's hub may still show the driver the version before
    it (a poll or a lease round comes before the hub read the new one). That must not schedule the same
    decision again: it would reach the database as a duplicate (issue 22, bench/scale.py counts them)."""
    settings.BOT_DELAY = 0
    monkeypatch.setattr(driver_module, "counts", driver_module.DecisionCounts())

    room, before = await database_sync_to_async(_two_bots_started)(seed=8)
    code = room.code
    driver = driver_module.Driver()
    prompt = before.state.prompts[0]
    await driver._bot(before, prompt.id, prompt.seat, "easy", 0)  # decided and written
    driver.poke(before)  # the hub shows the version before the decision once more
    pending = [task for key, task in driver._pending.items() if key == (code, prompt.id)]
    await asyncio.gather(*pending)
    driver.forget(code)
    counted = driver_module.counts
    assert (counted.attempts, counted.duplicates) == (1, 0)
    records = await database_sync_to_async(_records)(code)
    assert len([r for r in records if r[1].startswith("bot-") and r[2].get("prompt") == prompt.id]) == 1
