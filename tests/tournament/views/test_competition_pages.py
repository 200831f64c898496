"""The pages of a room of another game (dice football, the card duel's practice match): one page shape for
every game — lobby, game, watch, TV, host console — and the frames pushed to them."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from roomkit import Room, act, answer_elsewhere, login, play_defaults, start, state_of, version_of

from tournament.models import Game
from tournament.realtime import html
from tournament.rules.projection import SPECTATOR, Viewer
from tournament.services.actions import current_snapshot
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def dice_room(kind: str = "cup", seats: int = 3, bots: int = 2, **rules: Any) -> Room:
    created = room_create(
        nickname="Anna",
        bots=["easy"] * bots,
        seed=11,
        game="dice-football",
        house_rules={"seats": seats, "competition": kind, "options": {"length": "short"}, **rules},
    )
    client = Client()
    login(client, created.code, token=created.token, host_key=created.host_key)
    return Room(created.code, client, created.token, created.host_key)


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_lobby_of_a_dice_room_shows_its_game_and_competition_and_the_host_can_change_them():
    room = dice_room()
    page = room.host.get(f"/r/{room.code}/")
    assert page.status_code == 200
    body = text(page)
    assert "Dice football" in body and "A knock-out cup" in body
    assert "World Cup" not in body and "Visit fees" not in body  # Magic Football's rules are not offered
    assert "Short: halves of 15 rolls" in body  # the game's option, as chosen
    response = act(
        room.host, room.code, action="room_rules", competition="league", seats="4", decision_timer="30"
    )
    assert response.status_code == 200
    rules = state_of(room.code).house_rules
    assert rules["competition"] == "league" and rules["seats"] == 4 and rules["decision_timer"] == 30
    assert rules["options"] == {"length": "short", "boskov": rules["options"]["boskov"]}  # options kept
    guest = Client().get(f"/r/{room.code}/")
    assert "A league: everyone plays everyone" in text(guest) and "Save the house rules" not in text(guest)


def test_a_running_dice_cup_has_its_game_watch_tv_and_host_pages():
    room = dice_room()
    start(room)
    play_defaults(room.code, lambda st: any(m.status == "finished" for m in st.matches))
    pages = {
        "game": room.host.get(f"/r/{room.code}/"),
        "watch": Client().get(f"/r/{room.code}/watch"),
        "tv": Client().get(f"/r/{room.code}/bracket"),
        "host": room.host.get(f"/r/{room.code}/host"),
    }
    assert {name: r.status_code for name, r in pages.items()} == dict.fromkeys(pages, 200)
    for name in ("game", "watch", "tv"):
        body = text(pages[name])
        assert "Dice football" in body and "Cup" in body, name
        assert "Bonus Fund" not in body and "money" not in body.lower(), name
    host = text(pages["host"])
    assert "Open decisions" in host and "Ledger" not in host and "Manual transfer" not in host
    assert "Pause" in host


def test_the_frames_of_a_dice_room_carry_its_regions_for_players_and_spectators():
    room = dice_room("single", seats=2, bots=1)
    start(room)
    game = Game.objects.get(code=room.code)
    snap = current_snapshot(game)
    for viewer in (Viewer(1), Viewer(2), SPECTATOR, Viewer(1, host=True)):
        frame = html.render_initial(snap, viewer)
        for region in ("comp-banner", "comp-boards", "comp-standings", "players", "log-list", "comp-prompt"):
            assert f'id="{region}"' in frame, (viewer, region)
        assert ('id="host-prompts"' in frame) == viewer.host and 'id="host-ledger"' not in frame
        assert "Event:" not in frame
    assert version_of(room.code) == snap.version


def test_the_hub_renders_every_version_of_a_dice_room_for_every_page_alike():
    """What the sockets push (``VersionPages``, full frames and deltas) for each version of a played room."""
    from tournament.models import Event
    from tournament.realtime.frames import VersionFrames
    from tournament.realtime.html import RegionCache, VersionPages
    from tournament.realtime.hub import viewer_key

    room = dice_room("single", seats=2, bots=1)
    start(room)
    play_defaults(room.code, lambda st: len(st.prompts) and st.prompts[0].id > 12)
    game = Game.objects.get(code=room.code)
    snap = current_snapshot(game)
    events = [
        {"seq": e.seq, "kind": e.kind, "payload": e.payload, "audience": e.audience}
        for e in Event.objects.filter(game=game).order_by("seq")
    ]
    cache = RegionCache()
    before = VersionPages(VersionFrames(snap, events[:-3], events[-3]["seq"]), cache)
    pages = VersionPages(VersionFrames(snap, events[-3:], events[-3]["seq"]), cache, before)
    for viewer in (Viewer(1), Viewer(2), SPECTATOR):
        full = str(pages.full(viewer_key(viewer), viewer))
        assert 'id="comp-boards"' in full and "Event:" not in full


def test_a_finished_dice_room_replays_step_by_step_and_its_record_downloads():
    room = dice_room("cup", seats=3, bots=2)
    start(room)
    st = play_defaults(room.code, lambda st: False, limit=6000)
    assert st.status == "finished"
    last = version_of(room.code)
    for step in (0, 3, last // 2, last):
        page = Client().get(f"/r/{room.code}/replay?step={step}")
        assert page.status_code == 200, step
        assert "Event:" not in text(page)
    end = text(Client().get(f"/r/{room.code}/replay"))
    assert "wins the cup!" in end and "Download the game record" in end
    record = Client().get(f"/r/{room.code}/record.json")
    assert record.status_code == 200 and b'"game":"dice-football"' in record.content


@pytest.fixture
def dice_with_a_board(monkeypatch):
    """Dice football as registered once its board exists (the landing page offers only games with one)."""
    import dataclasses

    from games import api

    dice = api.get_game("dice-football")
    board = dataclasses.replace(
        dice, board="tournament/partials/comp_match.html", board_context=lambda v, c: {}
    )
    monkeypatch.setitem(api._GAMES, dice.key, board)
    return board


def test_the_landing_page_offers_only_games_whose_pages_exist(dice_with_a_board, monkeypatch):
    from games import api

    page = text(Client().get("/"))
    assert "Dice football" in page and "Card duel" in page  # both have their board
    monkeypatch.setitem(api._GAMES, "dice-football", dataclasses_replace_board(dice_with_a_board))
    page = text(Client().get("/"))
    assert "Dice football" not in page and "Card duel" in page
    duel = api.get_game("duel")
    monkeypatch.setitem(api._GAMES, "duel", dataclasses_replace_board(duel))
    assert "Card duel" not in text(Client().get("/"))


def dataclasses_replace_board(game):
    import dataclasses

    return dataclasses.replace(game, board="", board_context=None)


def test_a_dice_cup_is_created_from_the_landing_page_with_its_options(dice_with_a_board):
    browser = Client()
    fields = {
        "nickname": "Anna",
        "game": "dice-football",
        "competition": "cup",
        "seats": "4",
        "bots": "3",
        "decision_timer": "60",
        "opt_length": "1",
        "opt_boskov": "0",
    }
    response = browser.post("/rooms/new", fields)
    assert response.status_code == 302
    code = response["Location"].strip("/").split("/")[-1]
    game = Game.objects.get(code=code)
    assert game.kind == "dice-football" and game.participants.count() == 4
    assert game.house_rules["competition"] == "cup" and game.house_rules["decision_timer"] == 60
    assert game.house_rules["options"]["length"] == "short"
    for bad, field in (
        ({"competition": "single"}, "One match is for 2 players"),
        ({"opt_length": "7"}, "Choose one of the offered settings"),
        ({"game": "tiddlywinks"}, "Choose one of the games offered here"),
    ):
        refused = browser.post("/rooms/new", {**fields, **bad})
        assert refused.status_code == 400 and field in text(refused)
    assert Game.objects.count() == 1


def test_a_click_on_the_board_counts_although_the_other_match_moved_the_room_on():
    """In a league of four two matches run at once: while Anna reads her board the other match's rolls
    move the room's version on, and her click (which names her open decision) must still count."""
    room = dice_room("league", seats=4, bots=3)
    start(room)
    st = play_defaults(room.code, lambda st: any(p.seat == 1 for p in st.prompts))
    mine = next(p for p in st.prompts if p.seat == 1)
    seen = version_of(room.code)
    answer_elsewhere(room.code, mine)
    assert version_of(room.code) == seen + 1
    response = act(room.host, room.code, action="pick", prompt=str(mine.id), pick="0", version=str(seen))
    assert response.status_code == 200 and "moved on" not in response.content.decode()
    assert version_of(room.code) == seen + 2
    assert all(p.id != mine.id for p in state_of(room.code).prompts)  # her decision was taken


def test_the_tv_shows_the_running_matches_score_as_it_stands():
    room = dice_room("league", seats=4, bots=3)
    start(room)
    st = play_defaults(
        room.code, lambda st: any(m.status == "playing" and sum(m.engine.score) for m in st.matches)
    )
    scored = next(m for m in st.matches if m.status == "playing" and sum(m.engine.score))
    names = {s: v.nickname for s, v in st.seats.items()}
    response = Client().get(f"/r/{room.code}/bracket")
    page, tv = response.content.decode(), text(response)
    home, away = names[scored.home.seat], names[scored.away.seat]
    assert f"{home} {scored.engine.score[0]}–{scored.engine.score[1]} {away}" in tv
    # and beside the table, every running match's board as the stands see it, live (its region is pushed)
    playing = [m for m in st.matches if m.status == "playing"]
    assert 'id="comp-boards"' in page and page.count('class="panel comp-board') == len(playing) > 0
    assert f"{home} v {away}" in tv and "pick" not in page  # a board to watch: no choice on it


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("de", ("Würfelfußball", "Tabelle")),
        ("es", ("Fútbol de dados", "Clasificación")),
        ("nl", ("Dobbelvoetbal", "Stand")),
    ],
)
def test_a_dice_room_speaks_german_spanish_and_dutch(lang, words):
    room = dice_room("league", seats=3, bots=2)
    start(room)
    play_defaults(room.code, lambda st: st.prompts and st.prompts[0].id > 6)
    room.host.cookies["django_language"] = lang
    for page in ("", "watch", "bracket", "host", "replay"):
        response = room.host.get(f"/r/{room.code}/{page}")
        body = response.content.decode()
        assert response.status_code == 200 and f'lang="{lang}"' in body, page
        shown = text(response)
        for english in ("League table", "Your decision", "What happened", "Players", "wins the"):
            assert english not in shown, (lang, page, english)
    game_page = text(room.host.get(f"/r/{room.code}/"))
    assert all(word in game_page for word in words), (lang, words)
