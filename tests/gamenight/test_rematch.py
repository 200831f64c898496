"""Play again (R18): the host's new room keeps the seats (bots recreated, humans join in one click with
their nickname, their browser's seat moving to the new room) and pre-qualifies the Cup winner's country on
the last country square before Start."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from nightkit import login, new_room, play, start, state_of

from cards.catalog import get_catalog
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_join

pytestmark = pytest.mark.django_db


def test_the_rematch_keeps_the_seats_and_pre_qualifies_the_cup_winner():
    room = new_room(bots=2, seed=51)
    _seat, token = room_join(code=room.code, nickname="Ben")
    ben = Client()
    login(ben, room.code, token=token)
    start(room.code)
    final = play(room.code, limit=6000)
    assert final.status == "finished" and final.winner
    winner = final.winner["country"]

    banner = ben.get(f"/r/{room.code}/next").content.decode()
    assert "When the host starts a new game" in banner and "Watch the replay" in banner
    name = get_catalog().countries[winner].name_en
    offer = room.host.get(f"/r/{room.code}/next").content.decode()
    assert f"{name}, the Cup winner, is qualified from the start." in html.unescape(offer)
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    new_code = re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1)
    new = Game.objects.get(code=new_code)
    assert new.previous.code == room.code and new.pre_qualified == winner
    # the new lobby says which country starts qualified, to the host and to whoever comes to join
    for browser in (room.host, Client()):
        lobby = html.unescape(browser.get(f"/r/{new_code}/").content.decode())
        assert f"{name}, the last Cup winner, is qualified from the start." in lobby

    banner = ben.get(f"/r/{room.code}/next").content.decode()
    assert "Join the rematch as Ben" in banner
    response = ben.post(f"/r/{room.code}/rematch/join")
    assert response.status_code == 302 and response["Location"] == f"/r/{new_code}/"
    assert sorted(new.participants.values_list("nickname", flat=True)) == [
        "Anna",
        "Ben",
        "Robin (bot)",
        "Sam (bot)",
    ]
    rooms = ben.session["rooms"]
    assert "token" in rooms[new_code] and room.code not in rooms  # the seat credentials moved
    assert "Join the rematch" not in ben.get(f"/r/{room.code}/next").content.decode()  # nothing left to join
    assert (
        ben.post(f"/r/{room.code}/rematch/join")["Location"] == f"/r/{new_code}/"
    )  # a second click: no 2nd seat
    assert new.participants.count() == 4

    game_act(
        code=new_code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="go"
    )
    started = state_of(new_code)
    last = get_catalog().board.country_squares[-1]
    assert started.on_square[last] == winner and started.squares[last].status == "qualified"
    assert winner not in started.piles["official_countries"]


def test_an_ended_game_has_no_cup_winner_to_pre_qualify():
    room = new_room(bots=1, seed=52)
    start(room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "end_game"},
        expected_version=None,
        action_id="end",
    )
    offer = html.unescape(room.host.get(f"/r/{room.code}/next").content.decode())
    assert "Play again" in offer and "Cup winner is qualified" not in offer
    assert "The game ended without a Cup winner, so no country is qualified from the start." in offer
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    new_code = re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1)
    assert Game.objects.get(code=new_code).pre_qualified == ""
    assert "qualified from the start" not in room.host.get(f"/r/{new_code}/").content.decode()


def test_a_world_cup_winner_from_outside_europe_is_not_pre_qualified_in_a_european_championship():
    previous = new_room(bots=1, seed=54)
    Game.objects.filter(code=previous.code).update(status="finished", winner_country="BRA")
    response = previous.host.post(f"/r/{previous.code}/rematch", HTTP_HX_REQUEST="true")
    code = re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1)
    lobby = html.unescape(previous.host.get(f"/r/{code}/").content.decode())
    assert "Brazil, the last Cup winner, is qualified from the start." in lobby
    previous.host.post(
        f"/r/{code}/act",
        {
            "action": "house_rules",
            "mode": "euro",
            "seats": "6",
            "visit_fee_to": "coach",
            "decision_timer": "0",
            "version": str(Game.objects.get(code=code).version),
            "action_id": "to-euro",
        },
        HTTP_HX_REQUEST="true",
    )
    lobby = html.unescape(previous.host.get(f"/r/{code}/").content.decode())
    assert "Brazil, the last Cup winner, is not European: no country is qualified from the start." in lobby


def test_joining_the_rematch_before_it_exists_says_so():
    room = new_room(bots=1, seed=53)
    start(room.code)
    game_act(
        code=room.code,
        actor=Actor("host"),
        action={"type": "end_game"},
        expected_version=None,
        action_id="end",
    )
    response = room.host.post(f"/r/{room.code}/rematch/join", follow=True)
    assert "has not opened the new game yet" in response.content.decode()
