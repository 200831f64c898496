"""Room addresses as people type, paste and reload them (issue 23): the code in any case, on every page,
post and socket; the address a failed join leaves in the address bar."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from roomkit import Room, act, version_of

from magicfootball.asgi import application
from tournament.models import ChatMessage, Game, Participant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("page", ["", "watch", "bracket", "host", "replay"])
def test_a_room_page_in_another_case_goes_to_the_canonical_address(make_room, page, monkeypatch):
    from tournament.services import rooms

    # a code with letters where the test changes their case (a random code may start with four digits,
    # which made the mixed-case address the canonical one: a failed CI run)
    monkeypatch.setattr(rooms, "new_code", lambda: "k2m3n4p5q6")
    room: Room = make_room()
    assert room.code == "k2m3n4p5q6"
    shouting = room.code.upper()
    response = room.host.get(f"/r/{shouting}/{page}?nickname=Ben")
    assert response.status_code == 301
    assert response["Location"] == f"/r/{room.code}/{page}?nickname=Ben"
    assert room.host.get(response["Location"]).status_code == 200
    mixed = room.code[:4].upper() + room.code[4:]
    assert Client().get(f"/r/{mixed}/watch")["Location"] == f"/r/{room.code}/watch"


def test_an_unknown_room_stays_unknown_in_any_case():
    response = Client().get("/r/ZZZZZZZZZZ/", follow=True)
    assert response.status_code == 404 and "zzzzzzzzzz" in response.content.decode()


def test_posts_to_a_room_accept_any_case(make_room):
    room: Room = make_room(bots=1)
    shouting = room.code.upper()
    ben = Client()
    assert ben.post(f"/r/{shouting}/join", {"nickname": "Ben"})["Location"] == f"/r/{room.code}/"
    assert Participant.objects.filter(game__code=room.code, nickname="Ben").exists()
    said = room.host.post(
        f"/r/{shouting}/chat", {"channel": "players", "text": "Welcome"}, HTTP_HX_REQUEST="true"
    )
    assert said.status_code == 200 and ChatMessage.objects.filter(game__code=room.code).count() == 1
    before = version_of(room.code)
    response = room.host.post(
        f"/r/{shouting}/act",
        {"action": "add_bot", "strength": "easy", "version": str(before), "action_id": "bot-upper"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200 and version_of(room.code) == before + 1


@pytest.mark.django_db(transaction=True)
async def test_a_socket_accepts_the_code_in_any_case(make_room):
    room: Room = await database_sync_to_async(make_room)(bots=1)
    comm = WebsocketCommunicator(
        application, f"/ws/r/{room.code.upper()}/", headers=[(b"origin", b"http://127.0.0.1")]
    )
    connected, _ = await comm.connect()
    assert connected
    first = json.loads(await comm.receive_from(timeout=5))
    assert first["type"] == "state" and first["view"]["code"] == room.code
    await comm.disconnect()


def test_the_join_address_reloaded_sends_you_back_to_the_room_with_a_word(make_room):
    room: Room = make_room(bots=1, seats=2)  # full: the join fails, the address bar shows /join
    visitor = Client()
    failed = visitor.post(f"/r/{room.code}/join", {"nickname": "Dora"})
    assert failed.status_code == 400 and "The room is full" in failed.content.decode()
    reloaded = visitor.get(f"/r/{room.code}/join")  # a reload (or the address typed again) is a GET
    assert reloaded.status_code == 302 and reloaded["Location"] == f"/r/{room.code}/"
    page = visitor.get(reloaded["Location"]).content.decode()
    assert "To take a seat, enter a nickname and press" in page
    act(room.host, room.code, action="start")
    started = visitor.get(f"/r/{room.code.upper()}/join", follow=True)
    assert started.redirect_chain[-1][0] == f"/r/{room.code}/watch"
    assert "The game has already started." in started.content.decode()
    seated = room.host.get(f"/r/{room.code}/join")  # a seated browser just goes back to its seat
    assert seated["Location"] == f"/r/{room.code}/"
    assert "To take a seat" not in room.host.get(seated["Location"]).content.decode()
    assert Game.objects.get(code=room.code).participants.count() == 2
