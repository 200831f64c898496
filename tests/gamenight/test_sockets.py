"""Chat lines and presence on the room sockets (Channels' communicator, the real ASGI app): each line goes
only to sockets that may read its channel; a seat's open sockets are counted in the database and every
change is pushed as a presence frame (no game version)."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from magicfootball.asgi import application
from tournament.models import Game, Participant
from tournament.services.presence import presence_of
from tournament.services.rooms import room_create, room_join

pytestmark = [pytest.mark.django_db(transaction=True)]


async def connect(code: str, query: str = "") -> WebsocketCommunicator:
    comm = WebsocketCommunicator(
        application, f"/ws/r/{code}/{query}", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


async def hello(comm: WebsocketCommunicator, **creds: str) -> None:
    await comm.send_to(text_data=json.dumps({"type": "hello", **creds}))


async def frames(comm: WebsocketCommunicator, seconds: float = 0.6) -> list[dict]:
    """Everything a socket receives within ``seconds`` (acknowledged as a client must)."""
    out: list[dict] = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if await comm.receive_nothing(timeout=0.05):
            continue
        text = await comm.receive_from(timeout=2)
        out.append(json.loads(text) if text.startswith("{") else {"type": "html", "text": text})
        if len(out) % 8 == 0:
            await comm.send_to(text_data='{"type":"ack"}')
    return out


async def until(comm: WebsocketCommunicator, predicate, seconds: float = 5.0) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for frame in await frames(comm, 0.2):
            if predicate(frame):
                return frame
    raise AssertionError("the frame never came")


def of_type(kind: str):
    return lambda f: f.get("type") == kind


def _room():
    room = room_create(nickname="Anna", bots=["easy"], seed=3)
    _seat, token = room_join(code=room.code, nickname="Ben")
    return room, token


async def test_a_table_line_reaches_the_table_and_never_the_stands():
    room, ben_token = await database_sync_to_async(_room)()
    anna = await connect(room.code)
    await hello(anna, token=room.token, host_key=room.host_key)
    ben = await connect(room.code)
    await hello(ben, token=ben_token)
    fan = await connect(room.code)
    watcher = await connect(room.code, "?as=spectator")
    await hello(watcher, token=ben_token)  # Ben's own credentials on a watch-only socket
    for comm in (anna, ben, fan, watcher):
        await frames(comm, 0.3)
    await ben.send_to(text_data=json.dumps({"type": "chat", "channel": "players", "text": "<b>psst</b>"}))
    sent = await until(ben, of_type("chat_sent"))
    line = await until(anna, of_type("chat"))
    assert line["message"]["text"] == "<b>psst</b>" and line["message"]["author"] == "Ben"
    assert line["message"]["id"] == sent["id"] and line["message"]["channel"] == "players"
    assert not [f for f in await frames(fan) if f["type"] == "chat"]
    assert not [f for f in await frames(watcher) if f["type"] == "chat"]
    # the stands: a spectator names himself; everybody reads it
    await fan.send_to(
        text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "Olé", "name": "Ultra"})
    )
    for comm in (anna, ben, fan, watcher):
        got = await until(comm, of_type("chat"))
        assert got["message"]["author"] == "Ultra" and got["message"]["spectator"] is True
    # a spectator cannot write at the table, and reads only the stands' history
    await fan.send_to(text_data=json.dumps({"type": "chat", "channel": "players", "text": "let me in"}))
    assert (await until(fan, of_type("error")))["code"] == "forbidden"
    await fan.send_to(text_data=json.dumps({"type": "chat_history", "channel": "players"}))
    assert (await until(fan, of_type("error")))["code"] == "forbidden"
    await anna.send_to(text_data=json.dumps({"type": "chat_history", "channel": "players"}))
    history = await until(anna, of_type("chat_history"))
    assert [m["text"] for m in history["messages"]] == ["<b>psst</b>"]
    for comm in (anna, ben, fan, watcher):
        await comm.disconnect()


async def test_html_pages_get_an_escaped_line_in_their_language():
    room, ben_token = await database_sync_to_async(_room)()
    page = await connect(room.code, "?format=html&lang=nl")
    await frames(page, 0.3)
    ben = await connect(room.code)
    await hello(ben, token=ben_token)
    await frames(ben, 0.3)
    await ben.send_to(text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "x"}))
    assert (await until(ben, of_type("error")))["code"] == "forbidden"  # a player reads the stands only
    fan = await connect(room.code)
    await fan.send_to(
        text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "<i>hoi</i>", "name": "Fan"})
    )
    got = await until(page, lambda f: f["type"] == "html" and 'data-frame="chat"' in f["text"])
    assert "&lt;i&gt;hoi&lt;/i&gt;" in got["text"] and "<i>hoi" not in got["text"]
    assert "toeschouwer" in got["text"]  # the page's language
    for comm in (page, ben, fan):
        await comm.disconnect()


async def test_presence_counts_sockets_and_pushes_every_change():
    room, ben_token = await database_sync_to_async(_room)()
    game = await database_sync_to_async(Game.objects.get)(code=room.code)
    anna = await connect(room.code, "?presence=1")
    await hello(anna, token=room.token, host_key=room.host_key)
    first = await until(anna, lambda f: f["type"] == "presence" and f["seats"]["1"])
    assert first["seats"] == {"1": True, "2": False, "3": False}  # seat 2 is a bot: never "present"
    ben = await connect(room.code)
    await hello(ben, token=ben_token)
    ben_again = await connect(room.code)  # a second tab
    await hello(ben_again, token=ben_token)
    await until(anna, lambda f: f["type"] == "presence" and f["seats"]["3"])
    assert await database_sync_to_async(Participant.objects.get)(game=game, seat=3) is not None
    count = await database_sync_to_async(
        lambda: Participant.objects.filter(game=game, seat=3).values_list("connections", flat=True).get()
    )()
    assert count == 2
    assert not [f for f in await frames(ben, 0.4) if f["type"] == "presence"]  # not asked for: never sent
    await ben.disconnect()
    await asyncio.sleep(0.2)
    assert (await database_sync_to_async(presence_of)(code=room.code))[3] is True  # one tab still open
    await ben_again.disconnect()
    gone = await until(anna, lambda f: f["type"] == "presence" and not f["seats"]["3"])
    assert gone["seats"]["1"] is True
    count = await database_sync_to_async(
        lambda: Participant.objects.filter(game=game, seat=3).values_list("connections", flat=True).get()
    )()
    assert count == 0
    # a watch-only socket of a seat never counts as being at the table
    watch = await connect(room.code, "?as=spectator")
    await hello(watch, token=ben_token)
    await frames(watch, 0.3)
    assert (await database_sync_to_async(presence_of)(code=room.code))[3] is False
    # a protocol client may ask once; it is answered at once
    await watch.send_to(text_data='{"type":"presence"}')
    asked = await until(watch, of_type("presence"))
    assert asked["seats"]["1"] is True and asked["seats"]["3"] is False
    await watch.disconnect()
    await anna.disconnect()


async def test_a_seat_whose_server_vanished_is_absent_after_the_stale_time(settings):
    settings.PRESENCE_STALE = 0.5
    room, _ben_token = await database_sync_to_async(_room)()

    def crashed() -> None:  # connections left counted by a server that died without closing them
        Participant.objects.filter(game__code=room.code, seat=3).update(connections=1)

    await database_sync_to_async(crashed)()
    await asyncio.sleep(0.7)
    assert (await database_sync_to_async(presence_of)(code=room.code))[3] is False


# ------------------------------------------------------------------------------------------ a browser's voice


def _fan_browser(code: str, name: str) -> tuple[str, str]:
    """A spectator's browser that wrote once in the stands through the page's form: its session cookie
    and its chat key."""
    from django.conf import settings
    from django.test import Client

    from tournament.models import ChatMessage

    fan = Client()
    fan.get(f"/r/{code}/watch")
    fan.post(
        f"/r/{code}/chat", {"channel": "spectators", "text": "hello", "name": name}, HTTP_HX_REQUEST="true"
    )
    key = (
        ChatMessage.objects.filter(game__code=code, author_name=name)
        .values_list("author_key", flat=True)
        .get()
    )
    return fan.cookies[settings.SESSION_COOKIE_NAME].value, key


async def connect_as(code: str, cookie: str, query: str = "") -> WebsocketCommunicator:
    """A socket of a browser: its session cookie goes with the handshake, as a browser sends it."""
    comm = WebsocketCommunicator(
        application,
        f"/ws/r/{code}/{query}",
        headers=[(b"origin", b"http://127.0.0.1"), (b"cookie", f"sessionid={cookie}".encode())],
    )
    connected, _ = await comm.connect()
    assert connected
    return comm


def _mute(code: str, key: str, muted: bool) -> None:
    from tournament.services import chat

    chat.chat_mute(game=Game.objects.get(code=code), key=key, muted=muted)


def _lines(code: str, text: str) -> int:
    from tournament.models import ChatMessage

    return ChatMessage.objects.filter(game__code=code, text=text).count()


async def test_a_muted_spectator_stays_muted_on_every_socket_of_his_browser():
    room, _ben_token = await database_sync_to_async(_room)()
    cookie, key = await database_sync_to_async(_fan_browser)(room.code, "Loud")
    other_cookie, _other = await database_sync_to_async(_fan_browser)(room.code, "Calm")
    await database_sync_to_async(_mute)(room.code, key, True)
    for attempt in range(2):  # the page's socket, then a brand-new one: the same browser, still muted
        sock = await connect_as(room.code, cookie)
        await frames(sock, 0.3)
        await sock.send_to(
            text_data=json.dumps({"type": "chat", "channel": "spectators", "text": f"boo {attempt}"})
        )
        assert (await until(sock, of_type("error")))["code"] == "chat_muted"
        await sock.send_to(
            text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "boo", "name": "New name"})
        )
        assert (await until(sock, of_type("error")))["code"] == "chat_muted"
        await sock.disconnect()
    assert await database_sync_to_async(_lines)(room.code, "boo 0") == 0
    # another browser is not muted by it, and writes under its page's name without naming itself again
    calm = await connect_as(room.code, other_cookie)
    await frames(calm, 0.3)
    await calm.send_to(text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "hi all"}))
    line = await until(calm, of_type("chat"))
    assert line["message"]["author"] == "Calm" and line["message"]["text"] == "hi all"
    # un-muted, the same browser writes again, over a socket, under the key the host muted
    await database_sync_to_async(_mute)(room.code, key, False)
    loud = await connect_as(room.code, cookie)
    await frames(loud, 0.3)
    await loud.send_to(text_data=json.dumps({"type": "chat", "channel": "spectators", "text": "sorry"}))
    line = await until(loud, of_type("chat"))
    assert line["message"]["author"] == "Loud" and line["message"]["text"] == "sorry"
    for comm in (calm, loud):
        await comm.disconnect()


async def test_the_muted_browser_is_told_at_once_on_its_open_sockets_and_nobody_else():
    room, ben_token = await database_sync_to_async(_room)()
    cookie, key = await database_sync_to_async(_fan_browser)(room.code, "Loud")
    ben = await connect(room.code)
    await hello(ben, token=ben_token)
    fan_page = await connect_as(room.code, cookie, "?format=html&lang=en")
    fan_client = await connect_as(room.code, cookie)
    anna = await connect(room.code)
    await hello(anna, token=room.token, host_key=room.host_key)
    for comm in (ben, fan_page, fan_client, anna):
        await frames(comm, 0.3)
    await database_sync_to_async(_mute)(room.code, key, True)
    told = await until(fan_page, lambda f: f["type"] == "html" and 'data-frame="chat-mute"' in f["text"])
    assert 'data-muted="true"' in told["text"]
    assert (await until(fan_client, of_type("chat_mute")))["muted"] is True
    await database_sync_to_async(_mute)(room.code, "seat:3", True)
    assert (await until(ben, of_type("chat_mute")))["muted"] is True
    await database_sync_to_async(_mute)(room.code, key, False)
    assert (await until(fan_client, of_type("chat_mute")))["muted"] is False
    assert not [f for f in await frames(anna) if f["type"] == "chat_mute"]  # only the voice muted is told
    for comm in (ben, fan_page, fan_client, anna):
        await comm.disconnect()
