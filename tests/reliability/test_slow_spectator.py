"""A slow spectator hurts nobody (issue 8): the mechanism, without timing thresholds.

A socket that stops reading (and so stops acknowledging) receives at most ``WINDOW`` frames; after
that the server keeps only the newest frame for it, however many versions follow, and the players keep
receiving every version. When the spectator reads again it acknowledges, gets the newest version, sees
the sequence gap and resyncs to exactly the players' log. The latency comparison (players' p99 with and
without slow spectators) is a benchmark: bench/slow_spectator.py, figures in docs/PERFORMANCE.md.
"""

from __future__ import annotations

import asyncio
import itertools
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rel_client import ProtocolClient

from tournament import consumers
from tournament.consumers import WINDOW
from tournament.models import Event, Game
from tournament.realtime.hub import hubs
from tournament.rules.events import Actor
from tournament.selectors import events_for
from tournament.services.actions import game_act
from tournament.services.store import load_snapshot

ACTIONS = 3 * WINDOW


class Reader:
    """An in-process protocol client that reads everything and acknowledges every 8 frames."""

    def __init__(self, comm: WebsocketCommunicator) -> None:
        self.comm = comm
        self.frames: list[dict[str, Any]] = []
        self.since_ack = 0

    async def drain(self, until_version: int | None = None, quiet: float = 0.3) -> None:
        while True:
            if until_version is not None and self.version() >= until_version:
                if await self.comm.receive_nothing(timeout=0.05):
                    return
            elif await self.comm.receive_nothing(timeout=quiet):
                if until_version is None:
                    return
                continue
            self.frames.append(json.loads(await self.comm.receive_from(timeout=5)))
            self.since_ack += 1
            if self.since_ack >= 8:
                self.since_ack = 0
                await self.comm.send_to(text_data='{"type":"ack"}')

    def version(self) -> int:
        return max((f["version"] for f in self.frames if f["type"] in ("state", "update")), default=-1)

    def updates(self) -> list[dict[str, Any]]:
        return [f for f in self.frames if f["type"] == "update"]


async def _connect(code: str) -> WebsocketCommunicator:
    from magicfootball.asgi import application

    comm = WebsocketCommunicator(application, f"/ws/r/{code}/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm


def _setup() -> tuple[Any, str]:
    from tournament.services.rooms import room_create, room_join

    room = room_create(nickname="Hosta", seed=11, house_rules={"seats": 4})
    _seat, token = room_join(code=room.code, nickname="Ben")
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=None,
        action_id="start",
    )
    return room, token


def _next_move(code: str) -> int:
    """Answer the first open prompt with its default; return the new version."""
    game = Game.objects.get(code=code)
    prompt = load_snapshot(game).state.prompts[0]
    return game_act(
        code=code,
        actor=Actor("seat", prompt.seat),
        action={"type": "answer", "prompt": prompt.id, "choice": prompt.default},
        expected_version=game.version,
        action_id=f"move-{game.version}",
    ).version


@pytest.mark.django_db(transaction=True)
async def test_a_spectator_that_stops_reading_gets_a_window_then_only_the_newest_frame() -> None:
    room, token = await database_sync_to_async(_setup)()
    p1 = Reader(await _connect(room.code))
    await p1.comm.send_to(text_data=json.dumps({"type": "hello", "token": room.token}))
    p2 = Reader(await _connect(room.code))
    await p2.comm.send_to(text_data=json.dumps({"type": "hello", "token": token}))
    slow = await _connect(room.code)  # connects, then never reads nor acknowledges
    await p1.drain()
    await p2.drain()
    hub = hubs.get(room.code)
    spectator = next(s for s in hub.sockets if s.viewer.kind == "spectator")

    versions = []
    held_sizes = set()
    for _ in range(ACTIONS):
        version = await database_sync_to_async(_next_move)(room.code)
        versions.append(version)
        await p1.drain(until_version=version)
        await p2.drain(until_version=version)
        held_sizes.add(0 if spectator.held is None else 1)

    # the players received every version, in order, without a gap
    for reader in (p1, p2):
        updates = reader.updates()
        assert [u["version"] for u in updates] == versions
        assert all(b["first_seq"] == a["seq"] + 1 for a, b in itertools.pairwise(updates))

    # the spectator's connection carries exactly one window of frames: the state and WINDOW - 1 updates
    queued = slow.output_queue.qsize()
    assert queued == WINDOW, queued
    # ... and the server holds exactly one frame for it: the newest version, replacing older ones
    assert spectator.held is not None and held_sizes == {0, 1}
    frame, seq, _version = spectator.held
    held = json.loads(frame)
    assert held["version"] == versions[-1] and seq == held["seq"]
    assert spectator.unacked == WINDOW

    # the spectator reads again: the window's frames, then (after its ack) the newest version ...
    received = [json.loads(await slow.receive_from(timeout=5)) for _ in range(queued)]
    assert [f["type"] for f in received] == ["state"] + ["update"] * (WINDOW - 1)
    last_seen = received[-1]["seq"]
    await slow.send_to(text_data='{"type":"ack"}')
    newest = json.loads(await slow.receive_from(timeout=5))
    assert newest["type"] == "update" and newest["version"] == versions[-1]
    assert newest["first_seq"] > last_seen + 1  # ... it sees the gap and asks for what it missed
    await slow.send_to(text_data=json.dumps({"type": "sync", "since": last_seen}))
    catch_up = json.loads(await slow.receive_from(timeout=5))
    assert catch_up["type"] == "events"
    state = json.loads(await slow.receive_from(timeout=5))
    assert state["type"] == "state" and state["version"] == versions[-1]
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    public = await database_sync_to_async(events_for)(game.pk, spectator.viewer, last_seen, None, 10_000)
    assert catch_up["events"] == public and catch_up["seq"] == game.last_seq
    for comm in (p1.comm, p2.comm, slow):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_resync_of_several_pages_misses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long catch-up arrives in pages (a single capped page used to end the log silently). The page is
    made 40 events long, so a game of 130 events needs four pages (at 500 a page the same check cost
    1,200 events played through the database)."""
    monkeypatch.setattr(consumers, "SYNC_PAGE", 40)
    room, _token = await database_sync_to_async(_setup)()
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    while game.last_seq < 130:
        await database_sync_to_async(_next_move)(room.code)
        game = await database_sync_to_async(Game.objects.get)(code=room.code)
    comm = await _connect(room.code)
    await comm.receive_from(timeout=5)
    await comm.send_to(text_data='{"type":"sync","since":0}')
    events: list[dict[str, Any]] = []
    pages = 0
    while True:
        frame = json.loads(await comm.receive_from(timeout=5))
        if frame["type"] == "state":
            break
        assert frame["type"] == "events"
        events.extend(frame["events"])
        last = frame["seq"]
        pages += 1
    assert last == game.last_seq and pages >= 4
    public = await database_sync_to_async(
        lambda: list(
            Event.objects.filter(game=game, audience__isnull=True)
            .order_by("seq")
            .values_list("seq", flat=True)
        )
    )()
    assert [e["seq"] for e in events] == public
    await comm.disconnect()


# ------------------------------------------------------------------------------- over real TCP
def test_over_tcp_a_non_reading_spectator_receives_one_window_and_players_everything(
    pg_catalog_default: str, session_redis: Any, daphne_live: Any, game_room: Any
) -> None:
    """daphne and a real socket whose reader stopped: TCP back-pressure plus the window bound the frames."""
    room = game_room(humans=2, bots=0)
    server = daphne_live(database_url=pg_catalog_default, redis_url=session_redis.url)

    async def scenario() -> None:
        players = [
            ProtocolClient(server.url, room.code, token=t, name=f"seat {s}") for s, t in room.tokens.items()
        ]
        for c in players:
            await c.connect()
        slow = ProtocolClient(server.url, room.code, name="slow spectator", ack=False)
        await slow.connect()
        await slow.wait_version(players[0].version)
        slow._reader.cancel()  # stop reading: the socket's buffers fill, nothing is acknowledged
        base = len(slow.frames)
        start = players[0].version
        for _ in range(ACTIONS):
            mover = next(c for c in players if c.my_prompts())
            p = mover.my_prompts()[0]
            result = await mover.act({"type": "answer", "prompt": p["id"], "choice": p["default"]})
            for c in players:
                await c.wait_version(result["version"])
        final = players[0].version
        assert final >= start + ACTIONS
        for c in players:
            assert c.stats.gaps == 0 and c.stats.overlaps == 0
            assert [e["seq"] for e in c.events()] == sorted(c.log)
        # read what reached the slow socket: at most one window of frames since it stopped (it had
        # acknowledged nothing), then, after one ack, the newest version
        got = []
        while True:
            try:
                got.append(json.loads(await asyncio.wait_for(slow.ws.recv(), 1.0)))
            except TimeoutError:
                break
        # (its last sync restarted the window: the state answering it is the window's first frame)
        seen = [json.loads(f) for f in slow.frames[:base]]
        last_sync = max(i for i, f in enumerate(seen) if f["type"] == "events")
        deliveries = [f for f in seen[last_sync:] + got if f["type"] in ("state", "update")]
        assert len(deliveries) == WINDOW, [f["type"] for f in got]
        assert max(f["version"] for f in deliveries) < final
        await slow.ws.send('{"type":"ack"}')
        newest = json.loads(await asyncio.wait_for(slow.ws.recv(), 5))
        assert newest["type"] == "update" and newest["version"] == final
        for c in (*players, slow):
            await c.close()

    asyncio.run(scenario())
