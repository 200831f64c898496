"""One driver per room (issue 22, tournament/realtime/lease.py): of the processes with sockets in a room,
one holds the room's lease in Redis and takes its decisions; a holder that stops renewing (dies) loses it
within ``LEASE_MS``, and one that leaves hands it over at once. Two ``Leases`` stand for two processes
here; tests/reliability/test_driver_lease.py runs two real servers."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from tournament.realtime import lease as lease_module
from tournament.realtime.driver import Driver
from tournament.realtime.lease import LEASE_MS, Leases

pytestmark = [pytest.mark.redis]


@pytest.fixture
def shared(redis_url: str, settings: Any) -> str:
    settings.REDIS_URL = redis_url
    return redis_url


def test_of_two_processes_one_holds_a_rooms_lease_and_renews_it(shared: str) -> None:
    a, b = Leases(), Leases()

    async def scenario() -> None:
        assert await a.claim("ROOM1") is True
        assert await b.claim("ROOM1") is False
        assert a.holds("ROOM1") and not b.holds("ROOM1")
        for _ in range(3):  # renewing keeps it well past one lease's length
            await asyncio.sleep(LEASE_MS / 1000 / 2)
            assert await a.claim("ROOM1") is True
            assert await b.claim("ROOM1") is False
        assert await b.claim("ROOM2") is True  # another room is another lease
        assert not a.holds("ROOM2")

    asyncio.run(scenario())


def test_a_holder_that_stops_renewing_loses_the_lease_and_another_takes_it(shared: str) -> None:
    a, b = Leases(), Leases()

    async def scenario() -> float:
        assert await a.claim("ROOM3") is True
        died = time.monotonic()  # a stops renewing, as a killed process does
        while not await b.claim("ROOM3"):
            await asyncio.sleep(0.1)
        taken = time.monotonic() - died
        assert not a.holds("ROOM3")  # a stopped believing in it before b got it
        assert await a.claim("ROOM3") is False  # and cannot take it back while b renews
        return taken

    taken = asyncio.run(scenario())
    assert LEASE_MS / 1000 - 0.2 <= taken <= LEASE_MS / 1000 + 1.0


def test_a_holder_whose_last_socket_left_hands_the_lease_over_at_once(shared: str) -> None:
    a, b = Leases(), Leases()

    async def scenario() -> None:
        assert await a.claim("ROOM4") is True
        assert await b.claim("ROOM4") is False
        await b.release("ROOM4")  # not his: changes nothing
        assert await b.claim("ROOM4") is False
        await a.release("ROOM4")
        assert not a.holds("ROOM4")
        assert await b.claim("ROOM4") is True

    asyncio.run(scenario())


def test_without_redis_one_process_drives_every_room(settings: Any) -> None:
    settings.REDIS_URL = ""
    leases = Leases()
    assert leases.holds("ANY") and asyncio.run(leases.claim("ANY"))


def test_when_redis_cannot_be_reached_every_process_drives_as_before(
    settings: Any, caplog: pytest.LogCaptureFixture
) -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"
    a, b = Leases(), Leases()

    async def scenario() -> None:
        assert await a.claim("ROOM5") is True
        assert await b.claim("ROOM5") is True  # liveness first: duplicates are refused by action id

    asyncio.run(scenario())
    assert a.holds("ROOM5") and "not reachable" in caplog.text


def test_a_driver_schedules_nothing_for_a_room_another_process_drives(
    shared: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    other, mine = Leases(), Leases()
    monkeypatch.setattr("tournament.realtime.driver.leases", mine)
    scheduled: list[str] = []

    class Snap:  # only what poke reads before it decides who drives
        code = "ROOM6"

        @property
        def state(self) -> Any:
            scheduled.append(self.code)
            raise AssertionError("a room driven elsewhere must not be looked at")

    async def scenario() -> None:
        assert await other.claim("ROOM6") is True
        assert await mine.claim("ROOM6") is False
        Driver().poke(Snap())  # type: ignore[arg-type]

    asyncio.run(scenario())
    assert scheduled == []
    assert lease_module.lease_key("ROOM6") == "mf:driver:ROOM6"


def test_a_decision_whose_lease_moved_while_the_bot_thought_never_reaches_the_database(
    shared: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The re-check right before writing: the lease handed over between scheduling and writing stops the
    decision (counted), and a decision of the holder goes through (counted as an attempt)."""
    from tournament.realtime import driver as driver_module
    from tournament.services.actions import ActResult

    mine, other = Leases(), Leases()
    monkeypatch.setattr("tournament.realtime.driver.leases", mine)
    monkeypatch.setattr(driver_module, "counts", driver_module.DecisionCounts())
    written: list[str] = []

    def game_act(*, code: str, action_id: str, **_: Any) -> ActResult:
        written.append(action_id)
        return ActResult(version=2, first_seq=1, last_seq=1, duplicate=action_id == "timer-5")

    monkeypatch.setattr(driver_module, "game_act", game_act)
    act = {"actor": None, "action": {}, "expected_version": 1}

    async def scenario() -> None:
        assert await mine.claim("ROOM7") is True
        assert driver_module._act_if_driving("bot", 3, code="ROOM7", action_id="bot-1-3", **act) is not None
        await mine.release("ROOM7")  # the lease moves while the next decision is being thought
        assert await other.claim("ROOM7") is True
        assert driver_module._act_if_driving("bot", 4, code="ROOM7", action_id="bot-1-4", **act) is None
        assert await mine.claim("ROOM8") is True  # the database refuses a duplicate: counted
        assert driver_module._act_if_driving("timer", 5, code="ROOM8", action_id="timer-5", **act) is not None
        # a renewal that came late (a busy event loop): the local belief ran out, Redis still says mine
        assert await mine.claim("ROOM9") is True
        mine._until["ROOM9"] = time.monotonic() - 1
        assert not mine.holds("ROOM9")
        assert driver_module._act_if_driving("bot", 6, code="ROOM9", action_id="bot-1-6", **act) is not None
        assert mine.holds("ROOM9")  # renewed by the re-check itself
        assert await other.claim("ROOM9") is False

    asyncio.run(scenario())
    assert written == ["bot-1-3", "timer-5", "bot-1-6"]
    counted = driver_module.counts
    assert (counted.attempts, counted.lease_moved, counted.duplicates) == (3, 1, 1)
