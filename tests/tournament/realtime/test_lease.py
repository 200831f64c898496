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
