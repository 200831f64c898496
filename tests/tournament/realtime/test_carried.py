"""Carried versions (issue 22, tournament/realtime/frames.py): the push of a committed version carries what
every viewer of the room may see of it, and a process whose sockets there all watch as JSON spectators
renders its frames from that alone. Those frames are exactly the ones built from the snapshot (the
database path); the carried data is exactly the spectators' projection (nothing a seat or the host sees
alone); a version whose push carried nothing, came too large, out of order or after a gap is read from the
database instead, as is every version for a process that serves a seat or drives the room."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from cards.catalog import get_catalog
from tournament.realtime import frames
from tournament.realtime import hub as hub_module
from tournament.rules import bots
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.projection import SPECTATOR, Viewer, personal_part, public_part
from tournament.rules.setup import new_game
from tournament.services import notify
from tournament.services.store import Snapshot

CODE = "CARRY1"


def _versions(count: int, seed: int = 31) -> list[tuple[Snapshot, list[dict[str, Any]]]]:
    """``count`` consecutive versions of a bot tournament with hidden cards (holdings, teams, matches),
    each with its events and their audiences, as ``game_act`` hands them to the push."""
    cat = get_catalog()
    state = new_game(seed, "world_cup", {"seats": 4})
    for action in [*({"type": "add_bot", "strength": "easy"} for _ in range(4)), {"type": "start"}]:
        state = apply_action(state, Actor("host"), action, cat)[0]
    version, seq = 1, 0
    out = []
    while len(out) < count and state.status == "running":
        prompt = state.prompts[0]
        choice = bots.decide(state, prompt, "easy", cat, bots.bot_rng(state, version))
        action = {"type": "answer", "prompt": prompt.id, "choice": choice}
        state, events = apply_action(state, Actor("seat", prompt.seat), action, cat)
        version += 1
        evs = [
            {
                "seq": seq + 1 + i,
                "kind": e.kind,
                "payload": e.payload,
                "audience": list(e.audience) if e.audience is not None else None,
                "actor": f"seat:{prompt.seat}",
            }
            for i, e in enumerate(events)
        ]
        seq += len(events)
        out.append(
            (Snapshot(game_id=0, code=CODE, version=version, last_seq=seq, ledger_seq=0, state=state), evs)
        )
    return out


def _carried(snap: Snapshot, events: list[dict[str, Any]]) -> frames.Carried | None:
    """What another process makes of the push of ``snap`` (through msgpack, as the Redis layer sends it)."""
    import msgpack

    payload = frames.carry(snap, events)
    frames.shared_parts.take(snap.game_id, snap.version)  # the snapshot path below must build its own
    message = {"type": "game.changed", "version": snap.version, "seq": snap.last_seq}
    if payload is not None:
        message["carry"] = payload
    return frames.Carried.of(snap.code, msgpack.unpackb(msgpack.packb(message)))


@pytest.mark.django_db
def test_frames_from_a_carried_version_are_the_snapshots_frames_and_carry_only_what_spectators_see() -> None:
    spectator = Viewer()
    from_snap: frames.VersionFrames | None = None
    from_push: frames.VersionFrames | None = None
    held: dict[str, Any] | None = None
    hidden_events = 0
    for snap, events in _versions(120):
        carried = _carried(snap, events)
        assert carried is not None
        first_seq = events[0]["seq"] if events else snap.last_seq + 1
        # exactly the spectators' projection and public events: nothing a seat or the host sees alone
        cat = get_catalog()
        assert carried.public == orjson.loads(orjson.dumps(public_part(snap.state, cat)))
        numbered = {"version": snap.version, "seq": snap.last_seq, "code": snap.code}
        spectators = {**personal_part(snap.state, SPECTATOR, cat), **numbered}
        assert carried.spectator == orjson.loads(orjson.dumps(spectators))
        assert carried.events == [e for e in events if e["audience"] is None]
        hidden_events += sum(1 for e in events if e["audience"] is not None)
        seen = [e for e in events if e["audience"] is None]
        from_snap = frames.VersionFrames(snap, events, first_seq, from_snap)
        from_push = frames.VersionFrames(None, seen, first_seq, from_push, carried)
        # the full frame is byte for byte the one built from the snapshot (the database path)
        assert from_push.full("spectator", spectator) == from_snap.full("spectator", spectator)
        if held is not None:  # and the delta gives the same view
            delta = orjson.loads(from_push.delta("spectator", spectator).encode())
            held = frames.apply_update(held, delta)
            assert held == orjson.loads(from_snap.full("spectator", spectator).encode())["view"]
        else:
            held = orjson.loads(from_push.full("spectator", spectator).encode())["view"]
    assert hidden_events > 0  # the tournament had private events, and none of them was carried


@pytest.mark.django_db
def test_a_version_too_large_to_carry_is_pushed_without_its_data(settings: Any) -> None:
    snap, events = _versions(1)[0]
    settings.CARRY_MAX_BYTES = 200
    assert frames.carry(snap, events) is None
    settings.CARRY_MAX_BYTES = 0
    assert frames.carry(snap, events) is None


def test_a_malformed_or_hidden_carried_message_is_not_used() -> None:
    frame = (
        b'{"type":"update","version":5,"first_seq":9,"seq":9,"view":{"phase":"x","version":5},"events":[]}'
    )
    good = {"first_seq": 9, "frame": frame, "personal": ["version"]}
    base = {"type": "game.changed", "version": 5, "seq": 9}
    carried = frames.Carried.of(CODE, {**base, "carry": good})
    assert carried is not None and carried.decode()
    assert carried.public == {"phase": "x"} and carried.spectator == {"version": 5} and carried.events == []
    for carry in (
        None,
        {**good, "first_seq": "9"},
        {**good, "frame": frame.decode()},
        {**good, "personal": "version"},
        {**good, "frame": frame.replace(b'"version":5', b'"version":4', 1)},  # another version's frame
        {**good, "frame": b'{"type":"state"' + frame[15:]},
        {**good, "frame": frame.replace(b'"view":{"phase":"x","version":5}', b'"view":[]')},
        {**good, "frame": frame + b" " * frames.CARRY_MAX_BYTES},
    ):
        assert frames.Carried.of(CODE, {**base, "carry": carry}) is None
    for body in (  # well-labelled, but its view or events cannot be used: the database is read instead
        frame[:-5],
        frame.replace(b'"events":[]', b'"events":[{"seq":9,"audience":[1]}]'),
        frame.replace(b'"events":[]', b'"events":{}'),
        frame.replace(b'"events":[]', b'"events":[{"seq":"9"}]'),
    ):
        carried = frames.Carried.of(CODE, {**base, "carry": {**good, "frame": body}})
        assert carried is not None and not carried.decode()


class FakeSocket:
    """A socket of the hub that keeps what it was sent."""

    def __init__(self, viewer: Viewer = SPECTATOR, fmt: str = "json") -> None:
        self.viewer = viewer
        self.fmt = fmt
        self.sent: list[str] = []
        self.seen_version: int | None = None

    def push(self, frame: str, seq: int, version: int | None = None) -> bool:
        self.sent.append(frame)
        return True

    async def deliver(self, frame: str, seq: int, version: int | None = None) -> None:
        self.sent.append(frame)

    def takes_delta(self, base: int) -> bool:
        return False


class ElsewhereLeases:
    """Another process drives the room (or this one, with ``mine``)."""

    def __init__(self, mine: bool = False) -> None:
        self.mine = mine

    def holds(self, code: str) -> bool:
        return self.mine


@pytest.fixture
def room(monkeypatch: pytest.MonkeyPatch) -> Any:
    """A hub holding the first of a run of versions, its database read counted (``reads``)."""
    versions = _versions(6)
    reads: list[int] = []
    newest = {"at": 0}

    def load(code: str, after: int | None) -> tuple[Snapshot, list[dict[str, Any]]]:
        snap, _ = versions[newest["at"]]
        reads.append(snap.version)
        events = [
            e for s, evs in versions for e in evs if after is not None and after < e["seq"] <= snap.last_seq
        ]
        return snap, events

    monkeypatch.setattr(hub_module, "_load", load)
    monkeypatch.setattr(hub_module, "leases", ElsewhereLeases())
    monkeypatch.setattr(hub_module.driver, "poke", lambda snap: None)
    hub = hub_module.RoomHub(CODE, lambda h: None)
    snap, events = versions[0]
    hub.current = hub_module.Rendered(snap=snap, events=events, first_seq=events[0]["seq"])
    sock = FakeSocket()
    hub.sockets.add(sock)
    return hub, versions, reads, newest, sock


async def _push(hub: Any, item: tuple[Snapshot, list[dict[str, Any]]], carried: bool = True) -> None:
    """What ``_listen`` does with a push of ``item``."""
    snap, events = item
    c = _carried(snap, events) if carried else None
    if c is not None and hub._serves_watchers_only():
        hub._carried.append(c)
    hub._hint = max(hub._hint, snap.version)


@pytest.mark.django_db
def test_a_hub_of_spectators_renders_carried_versions_without_the_database(room: Any) -> None:
    hub, versions, reads, _newest, sock = room

    async def scenario() -> None:
        await _push(hub, versions[2])  # out of order: both are used, in order
        await _push(hub, versions[1])
        await hub.refresh()

    asyncio.run(scenario())
    assert reads == []
    assert hub.current.snap is None and hub.current.version == versions[2][0].version
    frame = orjson.loads(sock.sent[-1].encode())
    wanted = [e["seq"] for _s, evs in versions[1:3] for e in evs if e["audience"] is None]
    assert [e["seq"] for e in frame["events"]] == wanted  # both versions' public events, none lost
    assert frame["first_seq"] == versions[0][0].last_seq + 1  # no gap: private events count too
    expected = frames.VersionFrames(versions[2][0], [], 0).view("spectator", SPECTATOR)
    assert frame["view"] == orjson.loads(orjson.dumps(expected))


class DeltaSocket(FakeSocket):
    """A JSON spectator that asked for deltas (``delta=1``) and holds the version before."""

    def takes_delta(self, base: int) -> bool:
        return self.seen_version == base


@pytest.mark.parametrize("deltas", [False, True])
@pytest.mark.django_db
def test_one_carried_version_is_written_as_it_came_and_decoded_only_for_a_delta(
    room: Any, deltas: bool
) -> None:
    """The usual case of a process whose sockets all watch: one version after the one it holds. Its
    spectators taking full frames get the carried frame itself, never decoded (issue 22: decoding and
    encoding it again was most of what the second process spent on a version); a spectator taking deltas
    gets the delta, made from the decoded frame, that gives the same view."""
    hub, versions, reads, _newest, sock = room
    held = None
    if deltas:
        sock = DeltaSocket()
        sock.seen_version = versions[0][0].version
        hub.sockets = {sock}
        held = orjson.loads(frames.VersionFrames(versions[0][0], [], 0).full("spectator", SPECTATOR).encode())
    snap, events = versions[1]
    carried = _carried(snap, events)
    assert carried is not None
    hub._carried.append(carried)
    hub._hint = snap.version
    asyncio.run(hub.refresh())
    assert reads == []
    full = frames.VersionFrames(snap, events, events[0]["seq"]).full("spectator", SPECTATOR)
    if not deltas:
        assert sock.sent == [full] and sock.sent[0].encode() == carried.frame
        assert carried.decoded is None  # written without decoding
    else:
        frame = orjson.loads(sock.sent[-1].encode())
        assert frame["base"] == versions[0][0].version
        assert frames.apply_update(held["view"], frame) == orjson.loads(full.encode())["view"]


@pytest.mark.parametrize("case", ["gap", "not carried", "a seat here", "a page here", "driving here"])
@pytest.mark.django_db
def test_a_hub_reads_the_database_when_the_carried_data_cannot_serve(
    room: Any, case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    hub, versions, reads, newest, _sock = room
    newest["at"] = 2
    if case == "a seat here":
        hub.sockets.add(FakeSocket(Viewer(seat=1)))
    elif case == "a page here":
        hub.sockets.add(FakeSocket(fmt="html.en"))
    elif case == "driving here":
        monkeypatch.setattr(hub_module, "leases", ElsewhereLeases(mine=True))

    async def scenario() -> None:
        if case != "gap":  # the push of version 2 was lost: 3 does not follow what the hub holds
            await _push(hub, versions[1], carried=case != "not carried")
        await _push(hub, versions[2])
        if case == "a page here":
            monkeypatch.setattr(hub_module.RoomHub, "_fan_out", _no_fan_out)
        await hub.refresh()

    asyncio.run(scenario())
    assert reads == [versions[2][0].version]
    assert hub.current.snap is versions[2][0]


async def _no_fan_out(self: Any) -> None:
    """A room page's frames need templates and the database; only the read matters here."""


@pytest.mark.redis
def test_nothing_is_carried_while_a_rooms_pushes_reach_no_other_process(redis_url: str) -> None:
    """PUBLISH answers how many listened: a room whose last push reached only this process (or nobody) gets
    its next push without data; as soon as another process listens again it is carried."""
    import redis
    from channels_redis.pubsub import RedisPubSubChannelLayer

    layer = RedisPubSubChannelLayer(hosts=[redis_url])
    publisher = notify._ThreadPublisher()
    group = notify.room_group("CARRY2")
    assert publisher.others_may_listen(group, here=True)  # nothing known yet: carry
    assert publisher.publish(layer, group, {"type": "game.changed", "version": 1, "seq": 1})
    assert not publisher.others_may_listen(group, here=False)  # nobody listened
    listeners = [redis.Redis.from_url(redis_url).pubsub() for _ in range(2)]
    try:
        listeners[0].subscribe(f"asgi__group__{group}")  # this process's own hub
        assert publisher.publish(layer, group, {"type": "game.changed", "version": 2, "seq": 2})
        assert not publisher.others_may_listen(group, here=True)
        assert publisher.others_may_listen(group, here=False)  # that listener was another process
        listeners[1].subscribe(f"asgi__group__{group}")  # another process's hub opens the room
        assert publisher.publish(layer, group, {"type": "game.changed", "version": 3, "seq": 3})
        assert publisher.others_may_listen(group, here=True)
    finally:
        for listener in listeners:
            listener.close()


def test_a_process_polls_all_its_rooms_with_one_query_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    """The poll that repairs lost pushes reads the versions of every room the process serves in one query
    per round (it was one snapshot read per room), and hands each hub its room's version."""
    queries: list[list[str]] = []
    polled: list[tuple[str, int | None]] = []

    def versions(codes: list[str]) -> dict[str, int]:
        queries.append(sorted(codes))
        return {code: 7 for code in codes if code != "GONE"}

    async def poll(self: Any, version: int | None, layer: Any) -> None:
        polled.append((self.code, version))

    monkeypatch.setattr(hub_module, "_versions", versions)
    monkeypatch.setattr(hub_module, "POLL_SECONDS", 0.01)
    monkeypatch.setattr(hub_module.RoomHub, "poll", poll)
    monkeypatch.setattr(notify, "local_rooms", notify.local_rooms)  # Hubs() registers itself there
    process = hub_module.Hubs()

    async def scenario() -> None:
        for code in ("ROOMA", "ROOMB", "GONE"):
            process.get(code)._tasks.append(asyncio.ensure_future(asyncio.sleep(60)))  # a started hub
        process.polled()
        process.polled()  # a second hub starting: still one poll
        for _ in range(500):  # bounds a hang
            if len(queries) >= 3:
                break
            await asyncio.sleep(0.01)
        for code in ("ROOMA", "ROOMB", "GONE"):
            for task in process.get(code)._tasks:
                task.cancel()
            process.get(code)._tasks.clear()
        await asyncio.sleep(0.05)  # the poll sees no started hub and ends

    asyncio.run(scenario())
    rounds = len(queries)
    assert rounds >= 3 and all(q == ["GONE", "ROOMA", "ROOMB"] for q in queries)
    assert len(polled) in (3 * rounds, 3 * rounds - 3)  # each round polled every room once
    assert ("ROOMA", 7) in polled and ("GONE", None) in polled
    assert process._poll_task is None  # it ended with the last room
