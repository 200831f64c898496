"""House rule R20 on the pages: Magic Football's matches played as dice football. The host chooses it in the
lobby, a coach plays his match on the dice board inside the game page, spectators follow it on the watch
page, and the replay draws it."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from roomkit import act, find_seed, login, play_defaults, start, state_of, toast_text, version_of

from tournament.models import Game

pytestmark = pytest.mark.django_db

DICE = {"match_format": "dice-football"}


def _my_match_prompt(st, seat: int = 1):
    return next((p for p in st.prompts if p.seat == seat and p.context.get("match") is not None), None)


@pytest.fixture
def dice_match(make_room):
    """A started room (dice house rule) where Anna, seat 1, has a decision in a dice-football match."""
    # one bot, and a seed that gets there in few actions: each action here is a database transaction
    seed = find_seed("action", bots=1, seeds=range(5, 400), house_rules=DICE)
    room = make_room(bots=1, seed=seed, **DICE)
    start(room)
    st = play_defaults(room.code, lambda st: _my_match_prompt(st) is not None)
    prompt = _my_match_prompt(st)
    assert prompt is not None and prompt.kind == "action"
    return room, prompt


def test_the_host_chooses_dice_football_for_the_matches_in_the_lobby_and_the_others_read_it(make_room):
    room = make_room(bots=1)
    lobby = room.host.get(f"/r/{room.code}/").content.decode()
    assert "Matches are played as…" in lobby
    assert re.search(r'name="match_format" value="duel" checked', lobby)
    assert 'name="match_format" value="dice-football"' in lobby
    rules = {"mode": "world_cup", "seats": "6", "visit_fee_to": "coach", "decision_timer": "0"}
    act(room.host, room.code, action="house_rules", match_format="dice-football", **rules)
    assert Game.objects.get(code=room.code).house_rules["match_format"] == "dice-football"
    guest = Client().get(f"/r/{room.code}/").content.decode()
    assert re.search(r"<dt>Matches are played as…</dt><dd>Dice football</dd>", guest)
    refused = act(room.host, room.code, action="house_rules", match_format="tiddlywinks", **rules)
    assert toast_text(refused.content.decode())  # told why, in a toast
    assert Game.objects.get(code=room.code).house_rules["match_format"] == "dice-football"


def test_a_coach_plays_his_match_on_the_dice_board_of_the_game_page(dice_match):
    room, prompt = dice_match
    page = room.host.get(f"/r/{room.code}/").content.decode()
    assert 'id="match-board"' in page
    assert "dice_football/board.js" in page and "dice_football/board.css" in page
    assert "choose on the match board" in page  # the decision panel sends him to the board
    buttons = re.findall(r'<button[^>]*class="[^"]*dice-choice[^"]*"[^>]*name="pick" value="(\d+)"', page)
    assert buttons and len(buttons) == len(prompt.choices)
    assert f'name="prompt" value="{prompt.id}"' in page
    before = version_of(room.code)
    response = act(room.host, room.code, action="pick", prompt=str(prompt.id), pick=buttons[0])
    assert response.status_code == 200
    assert version_of(room.code) > before
    assert all(p.id != prompt.id for p in state_of(room.code).prompts)  # answered
    after = version_of(room.code)
    again = act(room.host, room.code, action="pick", prompt=str(prompt.id), pick=buttons[0])  # a double click
    assert toast_text(again.content.decode())
    assert version_of(room.code) == after  # changes nothing
    told = room.host.get(f"/r/{room.code}/").content.decode()
    assert re.search(r'id="duel-feed".*? rolls the ', told, re.S)  # the roll is told in the match commentary


def test_spectators_and_the_replay_follow_the_dice_match_without_anyone_s_buttons(dice_match):
    room, _prompt = dice_match
    watch = Client().get(f"/r/{room.code}/watch").content.decode()
    assert 'id="match-board"' in watch and "dice-choice" not in watch and "dice-board" in watch
    viewer = Client()
    login(viewer, room.code)
    replay = viewer.get(f"/r/{room.code}/replay").content.decode()
    assert 'id="match-board"' in replay and "dice_football/board.js" in replay
