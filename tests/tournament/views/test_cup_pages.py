"""The pages of a competition whose game has its own points scheme and carries suspensions (CP6, CP7): the
league table counts the cup's points and how matches were won, each match says its points, and the board of a
match says who may not play it and why. Grid football's engine with its Champions Cup hooks is registered
here under a key of its own (``tests/cupgames.py``), with a stand-in board (its own is another branch's)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from typing import Any

import pytest
from cupgames import grid_cup_game, registered
from django.test import Client
from roomkit import Room, login, play_defaults, start

from games.api import Game
from games.grid_football.competition import CARRY
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db

SHORT = {"normal_ones": 2, "extra_ones": 1, "shootout_kicks": 1}
# every seat starts the cup with its number 7 suspended for two matches and its number 19 injured for one
SUSPENDED = {"7": {"cards": [2, 0], "injuries": [0, 0]}, "19": {"cards": [0, 0], "injuries": [1, 0]}}


@pytest.fixture
def cup_game() -> Iterator[Game]:
    game = dataclasses.replace(
        grid_cup_game(**SHORT),
        board="tournament/partials/comp_match.html",  # a stand-in: the page shape is what is tested
        board_context=lambda view, choices, names: {},
        carry=dataclasses.replace(CARRY, start=lambda: dict(SUSPENDED)),
    )
    with registered(game):
        yield game


def text(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def cup_room(key: str, kind: str, seats: int = 3) -> Room:
    created = room_create(
        nickname="Anna",
        bots=["random"] * (seats - 1),
        seed=5,
        game=key,
        house_rules={"seats": seats, "competition": kind, "options": {}},
    )
    client = Client()
    login(client, created.code, token=created.token, host_key=created.host_key)
    room = Room(created.code, client, created.token, created.host_key)
    start(room)
    return room


def test_the_league_table_counts_the_cup_points_and_how_each_match_was_won(cup_game: Game) -> None:
    room = cup_room(cup_game.key, "league")
    st = play_defaults(room.code, lambda st: False)
    assert st.status == "finished"
    tv = Client().get(f"/r/{room.code}/bracket")
    page, body = tv.content.decode(), text(tv)
    for title in ("won after extra time", "won on penalties", "lost on penalties", "lost in normal time"):
        assert f'title="{title}"' in page
    assert 'title="drawn"' not in page  # no draws in this scheme: no drawn column
    names = {s: v.nickname for s, v in st.seats.items()}
    for m in st.matches:
        home, away = m.context["points"]
        assert (
            home + away == 5
            and f"{names[m.home.seat]} {m.score[0]}–{m.score[1]} {names[m.away.seat]}" in body
        )
        assert f"{home}–{away} points" in body
    rows = re.findall(r'<tr class="seat-(\d)">(.*?)</tr>', page, re.S)
    assert len(rows) == 3
    points = {int(seat): int(re.findall(r"<strong>(\d+)</strong>", cells)[0]) for seat, cells in rows}
    expected = {s: 0 for s in st.seats}
    for m in st.matches:
        expected[m.home.seat] += m.context["points"][0]
        expected[m.away.seat] += m.context["points"][1]
    assert points == expected and list(points.values()) == sorted(points.values(), reverse=True)


def test_a_board_says_who_may_not_play_its_match_and_why(cup_game: Game) -> None:
    room = cup_room(cup_game.key, "cup", seats=4)
    st = play_defaults(room.code, lambda st: any(m.status == "playing" for m in st.matches))
    mine = next(m for m in st.matches if 1 in (m.home.seat, m.away.seat))
    side = "home" if mine.home.seat == 1 else "away"
    assert {a["player"] for a in mine.context["absent"][side]} == {7, 19}
    body = text(room.host.get(f"/r/{room.code}/"))
    assert "Not available for this match" in body
    assert "Anna: no. 7, suspended for this match and 1 more match" in body
    assert "Anna: no. 19, injured for this match" in body
    log = re.sub(r"\s+([:;.])", r"\1", body[body.index("What happened") :])  # the log says it too
    assert (
        "Anna: no. 7, suspended for this match and 1 more match; Anna: no. 19, injured for this match" in log
    )
    assert log.count("The semi-finals:") == 3 and "Round cup" not in log  # the round and each match name it
    watch = text(Client().get(f"/r/{room.code}/watch"))  # the stands see every match's absent players
    boards = watch[: watch.index("What happened")]
    assert boards.count("suspended for this match and 1 more match") == len(st.playing_matches()) * 2
