"""The pages of a chess-football room (issue 24), as every game has them: the lobby with its match length, the
game page with the board and my choices, the host console (a seat handed to a bot, a decision by default),
the replay that steps through the move list, the record, the rematch, a refusal in the reader's language,
and Magic Football's matches drawn on the chess board (R20)."""

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

CHESS = "chess-football"


def chess_room(kind: str = "single", seats: int = 2, bots: int = 1, length: str = "short") -> Room:
    return game_room(CHESS, kind, seats, bots, length)


text = page_text


def test_the_lobby_names_the_game_and_its_match_length():
    room = chess_room()
    lobby = text(room.host.get(f"/r/{room.code}/"))
    assert "Chess football" in lobby and "Game night: halves of 10 moves per side" in lobby
    dutch = text(Client().get(f"/r/{room.code}/", HTTP_ACCEPT_LANGUAGE="nl"))
    assert "Schaakvoetbal" in dutch and "Spelavond: helften van 10 zetten per kant" in dutch


def test_my_move_on_the_game_page_and_a_refusal_in_my_language():
    room = chess_room()
    start(room)
    play_defaults(room.code, lambda st: any(p.seat == 1 for p in st.prompts))
    prompt = my_prompt(room.code)
    assert prompt is not None and prompt.kind == "move"
    page = room.host.get(f"/r/{room.code}/").content.decode()
    assert "chess_football/board.js" in page and "css/boardkit.css" in page
    picks = sorted(int(v) for v in re.findall(r'class="chess-key chess-leaf[^"]*" [^>]*value="(\d+)"', page))
    assert picks == list(range(len(prompt.choices)))  # every choice, once
    # the spectator's page has the board without my choices
    watch = Client().get(f"/r/{room.code}/watch").content.decode()
    assert 'class="chess-board' in watch and "chess-choices" not in watch
    # a move in notation over the protocol's answer, refused, is told why in Dutch
    bad = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "pick",
            "prompt": str(prompt.id),
            "pick": str(len(prompt.choices)),
            "action_id": "x",
            "version": "0",
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert "Die keuze mag hier niet" in toast_text(bad.content.decode())
    before = version_of(room.code)
    act(room.host, room.code, action="pick", prompt=str(prompt.id), pick="0")
    assert version_of(room.code) == before + 1


def test_the_table_chats_during_a_match():
    room = chess_room()
    start(room)
    before = version_of(room.code)
    said = room.host.post(
        f"/r/{room.code}/chat", {"channel": "players", "text": "Nice double pass!"}, HTTP_HX_REQUEST="true"
    )
    assert said.status_code == 200
    assert "Nice double pass!" in room.host.get(f"/r/{room.code}/").content.decode()
    assert version_of(room.code) == before  # a chat line is no game action


def test_the_host_console_hands_a_seat_to_a_bot_and_decides_by_default():
    room = chess_room()
    start(room)
    console = text(room.host.get(f"/r/{room.code}/host"))
    assert "Chess football" in console
    prompt = my_prompt(room.code) or next(p for p in state_of(room.code).prompts)
    before = version_of(room.code)
    act(room.host, room.code, action="force_default", prompt=str(prompt.id))
    assert version_of(room.code) > before
    act(room.host, room.code, action="seat_bot", seat="1", bot="yes")
    assert state_of(room.code).seats[1].automated


def test_a_finished_room_replays_its_moves_step_by_step_downloads_its_record_and_plays_again():
    room = chess_room()
    start(room)
    st = play_defaults(room.code, lambda st: False, limit=6000)
    assert st.status == "finished"
    last = version_of(room.code)
    record = room.host.get(f"/r/{room.code}/record.json")
    assert record.status_code == 200
    data = json.loads(record.content)
    moves = [e for e in data["events"] if e["kind"] == "m.move"]
    assert data["setup"]["game"] == CHESS and len(moves) >= 40
    assert all(re.fullmatch(r"[KCDL+a-i0-9x>=;-]+|concede|forfeit|pass", e["payload"]["move"]) for e in moves)
    first = moves[0]
    for step in (first["version"], last // 2):
        page = Client().get(f"/r/{room.code}/replay?step={step}")
        assert page.status_code == 200, step
        if step == first["version"]:
            assert first["payload"]["move"] in text(page)  # the board's move list, in notation
    assert "Download the game record" in text(Client().get(f"/r/{room.code}/replay"))
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    new = Game.objects.get(code=re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1))
    assert new.kind == CHESS and new.house_rules["options"] == {"length": "short"}


def test_magic_football_draws_its_chess_matches_on_the_chess_board(make_room):
    # one bot, and a seed that gets there in few actions: each action here is a database transaction
    seed = find_seed("move", bots=1, seeds=range(5, 400), house_rules={"match_format": CHESS})
    room = make_room(bots=1, seed=seed, match_format=CHESS)
    lobby = room.host.get(f"/r/{room.code}/").content.decode()
    assert 'name="match_format" value="chess-football"' in lobby
    start(room)
    st = play_defaults(room.code, lambda st: any(p.kind == "move" for p in st.prompts if p.seat == 1))
    assert st.running_match is not None and st.running_match.format == CHESS
    page = room.host.get(f"/r/{room.code}/").content.decode()
    assert 'id="match-board"' in page and 'class="chess-board' in page and "chess_football/board.css" in page
    # the boards of every game Magic Football may play its matches as, their shared kit loaded once, first
    scripts = re.findall(r'<script[^>]+src="([^"]*(?:boardkit|board)\.js)"', page)
    assert scripts[0].endswith("js/boardkit.js") and len(scripts) == len(set(scripts)) >= 3
    match = st.running_match
    names = {match.home.country, match.away.country}
    assert all(name for name in names)  # the sides are countries, the board names them
