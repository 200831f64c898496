"""The room socket with Channels' WebsocketCommunicator: join, act, errors, projections, reconnect."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import Game
from tournament.realtime.frames import apply_update
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create

pytestmark = [pytest.mark.django_db(transaction=True)]


def _room(n_bots: int = 2):
    room = room_create(nickname="Anna", bots=["easy"] * n_bots, seed=99, house_rules={"seats": n_bots + 1})
    return room


async def _connect(code: str, query: str = "") -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application, f"/ws/r/{code}/{query}", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


async def _recv(comm: WebsocketCommunicator) -> dict:
    return json.loads(await comm.receive_from(timeout=5))


async def test_spectator_gets_the_state_and_then_every_version():
    room = await database_sync_to_async(_room)()
    comm = await _connect(room.code)
    first = await _recv(comm)
    assert first["type"] == "state" and first["view"]["viewer"] == "spectator"
    version = first["version"]
    await database_sync_to_async(game_act)(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=version,
        action_id="s1",
    )
    update = await _recv(comm)
    assert update["type"] == "update" and update["version"] == version + 1
    assert update["view"]["phase"] == "phase1"
    assert update["view"]["me"] is None and update["view"]["my_prompts"] == []
    assert any(e["kind"] == "game_started" for e in update["events"])
    await comm.disconnect()


async def test_protocol_client_authenticates_and_acts_with_version_and_action_id():
    room = await database_sync_to_async(_room)()
    comm = await _connect(room.code)
    state = await _recv(comm)
    await comm.send_to(
        text_data=json.dumps({"type": "hello", "host_key": room.host_key, "token": room.token})
    )
    welcome = await _recv(comm)
    assert welcome == {"type": "welcome", "seat": 1, "host": True}
    mine = await _recv(comm)
    assert mine["type"] == "state" and mine["view"]["viewer"] == "host"
    await comm.send_to(
        text_data=json.dumps(
            {"type": "act", "action": {"type": "start"}, "version": state["version"], "action_id": "go"}
        )
    )
    frames = [await _recv(comm), await _recv(comm)]
    kinds = {f["type"] for f in frames}
    assert kinds == {"update", "result"}
    await comm.disconnect()


async def test_errors_go_to_this_socket_only_and_change_nothing():
    room = await database_sync_to_async(_room)()
    comm = await _connect(room.code)
    state = await _recv(comm)
    await comm.send_to(text_data="{not json")
    err = await _recv(comm)
    assert err["type"] == "error" and err["code"] == "malformed"
    await comm.send_to(
        text_data=json.dumps(
            {"type": "act", "action": {"type": "start"}, "version": state["version"], "action_id": "x"}
        )
    )
    err = await _recv(comm)
    assert err["code"] == "forbidden"  # a spectator is not the host
    await comm.send_to(text_data="x" * 20000)
    err = await _recv(comm)
    assert err["code"] == "malformed"
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    assert game.version == state["version"]
    await comm.disconnect()


async def test_unknown_room_gets_an_error_and_is_closed():
    comm = WebsocketCommunicator(application, "/ws/r/nosuchroom/", headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    err = json.loads(await comm.receive_from(timeout=5))
    assert err["code"] == "unknown_room"
    await comm.wait()


async def test_other_origin_is_refused():
    room = await database_sync_to_async(_room)()
    comm = WebsocketCommunicator(
        application, f"/ws/r/{room.code}/", headers=[(b"origin", b"http://evil.example")]
    )
    connected, _ = await comm.connect()
    assert not connected


async def test_delta_clients_rebuild_exactly_the_full_view():
    """``delta=1`` updates carry only changed parts; applied to the base they equal the full view."""
    room = await database_sync_to_async(_room)()
    full_client = await _connect(room.code)
    delta_client = await _connect(room.code, "?format=json&delta=1")
    base = await _recv(full_client)
    held = (await _recv(delta_client))["view"]
    version = base["version"]
    await database_sync_to_async(game_act)(
        code=room.code,
        actor=Actor("host"),
        action={"type": "start"},
        expected_version=version,
        action_id="s1",
    )
    for step in range(6):
        full = await _recv(full_client)
        upd = await _recv(delta_client)
        assert upd["version"] == full["version"]
        if "delta" in upd:
            assert upd["base"] == version
            assert set(upd["delta"]) < set(full["view"])  # only what changed
            held = apply_update(held, upd)
        else:
            held = upd["view"]
        assert held == full["view"]
        version = full["version"]
        prompt = full["view"]["prompts"][0]
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "force_default", "prompt": prompt["id"]},
            expected_version=version,
            action_id=f"a{step}",
        )
    await full_client.disconnect()
    await delta_client.disconnect()


async def test_delta_sends_only_the_seats_that_changed():
    """With many seats, a move that changes one seat's money sends that seat's entry (``items``), not the
    whole list; the client's copy still equals the full view after every version."""
    room = await database_sync_to_async(_room)(6)
    full_client = await _connect(room.code)
    delta_client = await _connect(room.code, "?format=json&delta=1")
    version = (await _recv(full_client))["version"]
    held = (await _recv(delta_client))["view"]
    await database_sync_to_async(game_act)(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=version, action_id="s"
    )
    seen_items = 0
    for step in range(30):
        full = await _recv(full_client)
        upd = await _recv(delta_client)
        seats = upd.get("items", {}).get("seats")
        if seats is not None:
            assert "seats" not in upd["delta"]
            assert 0 < len(seats) <= len(full["view"]["seats"]) // 2
            assert all(full["view"]["seats"][int(i)] == seat for i, seat in seats.items())
            assert len(json.dumps(upd)) < len(json.dumps({**upd, "delta": full["view"]}))
            seen_items += 1
        held = apply_update(held, upd)
        assert held == full["view"], f"step {step}"
        if seen_items >= 2:
            break
        prompt = full["view"]["prompts"][0]
        await database_sync_to_async(game_act)(
            code=room.code,
            actor=Actor("host"),
            action={"type": "force_default", "prompt": prompt["id"]},
            expected_version=full["version"],
            action_id=f"a{step}",
        )
    assert seen_items >= 2
    await full_client.disconnect()
    await delta_client.disconnect()


async def test_numbers_beyond_64_bits_in_a_frame_are_answered_and_the_socket_lives_on():
    """Frames are encoded with orjson, which refuses integers beyond 64 bits that JSON allows: a client
    that asks to resync from such an event number still gets its catch-up and the state (found by the
    fuzzer, tests/reliability/test_fuzz.py)."""
    room = await database_sync_to_async(_room)()
    comm = await _connect(room.code, "?format=json")
    state = await _recv(comm)
    await comm.send_to(text_data=json.dumps({"type": "sync", "since": 2**64}))
    caught_up = await _recv(comm)
    assert caught_up == {"type": "events", "seq": 2**64, "events": []}
    again = await _recv(comm)
    assert again["type"] == "state" and again["version"] == state["version"]
    await comm.send_to(text_data=json.dumps({"type": "ping", "t": 2**64}))
    pong = await _recv(comm)
    assert pong["type"] == "pong" and isinstance(pong["now"], int) and "t" not in pong
    await comm.disconnect()
