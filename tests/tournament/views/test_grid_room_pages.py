"""The pages of a grid-football room (issue 25), as every game has them: the lobby with its match length, the
game page with the board, the squad sheet of my line-up and then my choices, the watch page without them, the
host console (a seat handed to a bot, a decision by default), the replay, the record, the rematch, a refusal
in the reader's language, and Magic Football's matches drawn on the grid board (R20)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from roomkit import (
    Room,
    act,
    find_seed,
    game_room,
    my_prompt,
    page_text,
    play_defaults,
    start,
    state_of,
    toast_text,
    version_of,
)

from tournament.models import Game

pytestmark = pytest.mark.django_db

GRID = "grid-football"


def grid_room(kind: str = "single", seats: int = 2, bots: int = 1, length: str = "short") -> Room:
    return game_room(GRID, kind, seats, bots, length)


text = page_text


def test_the_lobby_names_the_game_and_its_match_length():
    room = grid_room()
    lobby = text(room.host.get(f"/r/{room.code}/"))
    assert "Grid football" in lobby and "Game night: 30 rolls plus one per foul" in lobby
    dutch = text(Client().get(f"/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Rastervoetbal" in dutch and "Spelavond: 30 worpen plus één per overtreding" in dutch


def test_my_line_up_on_the_game_page_then_my_choices_and_a_refusal_in_my_language():
    room = grid_room()
    start(room)
    prompt = my_prompt(room.code)
    assert prompt is not None and prompt.kind == "lineup"
    page = room.host.get(f"/r/{room.code}/").content.decode()
    assert "grid_football/board.js" in page and "css/boardkit.css" in page
    assert 'class="grid-lineup"' in page and 'name="action" value="lineup"' in page
    # a twelfth pawn, refused in Dutch, changes nothing
    before = version_of(room.code)
    eleven = [str(n) for n in prompt.default["players"]]
    fields = {"prompt": str(prompt.id), "keeper_column": "5", "centre": ["5", "5", "5"]}
    bad = room.host.post(
        f"/r/{room.code}/act",
        {"action": "lineup", "players": [*eleven, "16"], "action_id": "x", "version": "0", **fields},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert "een twaalfde pion mag niet" in toast_text(bad.content.decode())
    assert version_of(room.code) == before
    act(room.host, room.code, action="lineup", players=eleven, **fields)
    assert version_of(room.code) == before + 1
    # the spectator's page has the board without anybody's choices
    watch = Client().get(f"/r/{room.code}/watch").content.decode()
    assert 'class="grid-board' in watch and 'class="grid-choices"' not in watch
    assert 'class="grid-lineup"' not in watch
    st = play_defaults(room.code, lambda st: any(p.seat == 1 and p.choices for p in st.prompts))
    mine = next(p for p in st.prompts if p.seat == 1)
    page = room.host.get(f"/r/{room.code}/").content.decode()
    picks = sorted(int(v) for v in re.findall(r'class="grid-key grid-leaf[^"]*" [^>]*value="(\d+)"', page))
    assert picks == list(range(len(mine.choices)))  # every choice, once
    before = version_of(room.code)
    act(room.host, room.code, action="pick", prompt=str(mine.id), pick="0")
    assert version_of(room.code) == before + 1


def test_the_host_console_hands_a_seat_to_a_bot_and_decides_by_default():
    room = grid_room()
    start(room)
    console = text(room.host.get(f"/r/{room.code}/host"))
    assert "Grid football" in console
    prompt = my_prompt(room.code) or next(p for p in state_of(room.code).prompts)
    before = version_of(room.code)
    act(room.host, room.code, action="force_default", prompt=str(prompt.id))
    assert version_of(room.code) > before
    act(room.host, room.code, action="seat_bot", seat="1", bot="yes")
    assert state_of(room.code).seats[1].automated


def test_a_finished_room_replays_step_by_step_downloads_its_record_and_plays_again():
    room = grid_room()
    start(room)
    st = play_defaults(room.code, lambda st: False, limit=6000)
    assert st.status == "finished"
    last = version_of(room.code)
    record = room.host.get(f"/r/{room.code}/record.json")
    assert record.status_code == 200
    data = json.loads(record.content)
    walks = [e for e in data["events"] if e["kind"] == "m.walk"]
    assert data["setup"]["game"] == GRID and len(walks) >= 10
    revealed = next(e for e in data["events"] if e["kind"] == "m.lineups")
    for step in (revealed["version"], (revealed["version"] + last) // 2):
        page = Client().get(f"/r/{room.code}/replay?step={step}")
        assert page.status_code == 200, step
        assert 'class="grid-board' in page.content.decode()
    assert "Download the game record" in text(Client().get(f"/r/{room.code}/replay"))
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    new = Game.objects.get(code=re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1))
    assert new.kind == GRID and new.house_rules["options"] == {"length": "short"}


def test_magic_football_draws_its_grid_matches_on_the_grid_board(make_room):
    seed = find_seed("lineup", bots=1, seeds=range(5, 400), house_rules={"match_format": GRID})
    room = make_room(bots=1, seed=seed, match_format=GRID)
    lobby = room.host.get(f"/r/{room.code}/").content.decode()
    assert 'name="match_format" value="grid-football"' in lobby
    start(room)
    st = play_defaults(room.code, lambda st: any(p.kind == "lineup" for p in st.prompts if p.seat == 1))
    assert st.running_match is not None and st.running_match.format == GRID
    page = room.host.get(f"/r/{room.code}/").content.decode()
    assert 'id="match-board"' in page and 'class="grid-board' in page and "grid_football/board.css" in page
    assert 'class="grid-lineup"' in page  # my line-up, on the board
    scripts = re.findall(r'<script[^>]+src="([^"]*(?:boardkit|board)\.js)"', page)
    assert scripts[0].endswith("js/boardkit.js") and len(scripts) == len(set(scripts)) >= 4
