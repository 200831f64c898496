"""The Champions Cup's points and the suspensions carried from match to match (§16, GF-21)."""

from __future__ import annotations

import pytest

from games.api import cardless_result
from games.grid_football.competition import Record, Track, after_match, match_points, unavailable


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
