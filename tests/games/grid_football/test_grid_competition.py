"""The Champions Cup's points and the suspensions carried from match to match (§16, GF-21), and the hooks
through which the platform's competitions use them (CP6, CP7)."""

from __future__ import annotations

import json

import pytest

from games.api import IllegalDecision, cardless_result
from games.competition import carry_into
from games.grid_football.competition import (
    CARRY,
    LEAGUE_POINTS,
    Record,
    Track,
    absences,
    after_match,
    book_from_json,
    book_to_json,
    match_points,
    unavailable,
)
from games.grid_football.geometry import pawn
from games.grid_football.rules import FORMAT, grid_setup
from games.rng import Rng


@pytest.mark.parametrize(
    ("how", "winner", "points"),
    [
        ("regular", "home", {"home": 5, "away": 0}),
        ("extra_time", "away", {"away": 4, "home": 1}),
        ("penalties", "home", {"home": 3, "away": 2}),
    ],
)
def test_points_by_how_the_match_was_won(how: str, winner: str, points: dict) -> None:
    assert match_points(cardless_result([1, 0], winner, how, None)) == points  # type: ignore[arg-type]


def test_a_cup_match_needs_a_winner() -> None:
    with pytest.raises(ValueError, match="winner"):
        match_points(cardless_result([1, 1], None, "regular", None))


def season(book: dict, *matches: dict) -> list[list[int]]:
    """Who is unavailable before each of the following matches."""
    out = [unavailable(book)]
    for report in matches:
        book = after_match(book, report)
        out.append(unavailable(book))
    return out


YELLOW = {7: {"yellow": 1, "red": False, "injuries": 0, "injured_out": False}}
RED = {7: {"yellow": 1, "red": True, "injuries": 0, "injured_out": False}}
NOTHING: dict = {}


def test_a_second_yellow_within_three_matches_suspends_for_one() -> None:
    assert season({}, YELLOW, NOTHING, YELLOW, NOTHING) == [[], [], [], [7], []]
    # three card-free matches: a clean slate, the next yellow opens a window again
    assert season({}, YELLOW, NOTHING, NOTHING, NOTHING, YELLOW, NOTHING) == [[], [], [], [], [], [], []]


def test_a_red_suspends_for_two_and_for_three_inside_a_window() -> None:
    assert season({}, RED, NOTHING, NOTHING, NOTHING) == [[], [7], [7], [], []]
    assert season({}, YELLOW, RED, NOTHING, NOTHING, NOTHING, NOTHING) == [[], [], [7], [7], [7], [], []]
    two_yellows = {7: {"yellow": 2, "red": True, "injuries": 0, "injured_out": False}}
    assert season({}, two_yellows, NOTHING)[1] == [7]


def test_after_a_suspension_the_window_opens_again() -> None:
    # yellow, yellow (suspended for the next), then a yellow in the first match back: suspended again
    book = {}
    for report in (YELLOW, YELLOW, NOTHING):
        book = after_match(book, report)
    assert book[7] == Record(cards=Track(0, 3))
    assert unavailable(after_match(book, YELLOW)) == [7]


def test_injuries_work_like_cards_with_a_window_of_two() -> None:
    hurt = {9: {"yellow": 0, "red": False, "injuries": 1, "injured_out": False}}
    out = {9: {"yellow": 0, "red": False, "injuries": 2, "injured_out": True}}
    assert season({}, hurt, NOTHING, hurt) == [[], [], [], [9]]  # the second within two matches
    assert season({}, hurt, NOTHING, NOTHING, hurt) == [[], [], [], [], []]  # the window of two has closed
    assert season({}, hurt, hurt, NOTHING) == [[], [], [9], []]
    assert season({}, out, NOTHING, NOTHING) == [[], [9], [9], []]
    assert after_match({}, NOTHING) == {}  # clean records are not kept


# ------------------------------------------------- the platform's hooks (CP6, CP7 of games/competition.py)


def test_the_league_points_hook_is_the_cup_points() -> None:
    assert LEAGUE_POINTS is match_points


def test_a_book_is_stored_as_json_and_read_back_as_it_was() -> None:
    book = after_match(
        after_match({}, RED), {9: {"yellow": 1, "red": False, "injuries": 1, "injured_out": False}}
    )
    data = book_to_json(book)
    assert json.loads(json.dumps(data)) == data and book_from_json(data) == book
    assert data == {"7": {"cards": [1, 0], "injuries": [0, 0]}, "9": {"cards": [0, 3], "injuries": [0, 2]}}


def test_the_absent_say_why_and_for_how_many_matches() -> None:
    out = {7: {"yellow": 2, "red": True, "injuries": 2, "injured_out": True}, 9: YELLOW[7]}
    book = after_match({}, out)
    assert absences(book) == [
        {"player": 7, "reason": "suspended", "matches": 2},
        {"player": 7, "reason": "injured", "matches": 2},
    ]


def test_the_carry_hook_moves_a_seat_s_book_on_from_the_match_report_and_keeps_the_player_out() -> None:
    """A red card in a real match (the report of the engine's state) keeps him out of the next two: the
    option the engine gets refuses him in the line-up and the squad shows him unavailable."""
    rng = Rng(1)
    state = FORMAT.start(grid_setup(knockout=True), rng)
    state.red[pawn(0, 9)] = 1  # home's number 9 was sent off in this match (the engine's own bookkeeping)
    state.yellow[pawn(0, 9)] = 2
    book = CARRY.after(CARRY.start(), CARRY.report(state)["home"])
    assert CARRY.absent(book) == [{"player": 9, "reason": "suspended", "matches": 2}]
    absent = {"home": CARRY.absent(book), "away": []}
    setup = carry_into(CARRY, grid_setup(knockout=True), absent)
    assert setup.options["unavailable"] == {"home": [9], "away": []}
    nxt = FORMAT.start(setup, Rng(2))
    lineup = next(d for d in FORMAT.decisions(nxt) if d.side == "home")
    squad = {p["number"]: p["available"] for p in lineup.options["squad"]}
    assert squad[9] is False and 9 not in lineup.default["players"]
    named = [n for n in lineup.default["players"] if n != 8] + [9]  # 9 in place of another midfielder
    with pytest.raises(IllegalDecision, match="suspended or injured"):
        FORMAT.apply(nxt, "home", dict(lineup.default, players=sorted(named)), Rng(3))
    book = CARRY.after(book, {})  # he sat the next match out (it counts his suspension down, GF-21) …
    assert CARRY.absent(book) == [{"player": 9, "reason": "suspended", "matches": 1}]
    assert CARRY.absent(CARRY.after(book, {})) == []  # … and the one after
