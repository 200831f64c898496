"""Competitions (games/competition.py, rulings CP1–CP5): who meets whom, byes, the league table."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.api import cardless_setup
from games.competition import (
    CarryRules,
    CompetitionError,
    Result,
    carry_absent,
    carry_after,
    carry_into,
    carry_start,
    check,
    cup_entries,
    cup_next_entries,
    cup_round,
    cup_rounds,
    knockout,
    league_rounds,
    round_name,
    table,
)


@pytest.mark.parametrize(
    ("kind", "seats"), [("single", 1), ("single", 3), ("cup", 2), ("league", 9), ("x", 4)]
)
def test_a_competition_the_rules_do_not_hold_is_refused(kind: str, seats: int) -> None:
    with pytest.raises(CompetitionError):
        check(kind, seats)


def test_only_cup_matches_must_have_a_winner() -> None:
    assert [knockout(k) for k in ("single", "cup", "league")] == [False, True, False]


@pytest.mark.parametrize("seats", range(3, 9))
def test_a_league_pairs_everyone_once_in_rounds_of_distinct_seats_with_fair_home_matches(seats: int) -> None:
    rounds = league_rounds(list(range(1, seats + 1)))
    pairs = [frozenset((p.home, p.away)) for r in rounds for p in r]
    assert sorted(map(sorted, pairs)) == sorted(map(sorted, itertools.combinations(range(1, seats + 1), 2)))
    for r in rounds:  # CP5: a round's matches involve different seats, so they can run at once
        playing = [s for p in r for s in (p.home, p.away)]
        assert len(playing) == len(set(playing)) and len(r) == seats // 2
    homes = Counter(p.home for r in rounds for p in r)
    counts = [homes.get(s, 0) for s in range(1, seats + 1)]
    assert max(counts) - min(counts) <= 1


@pytest.mark.parametrize("seats", range(3, 9))
def test_a_cup_gives_byes_to_the_first_of_the_draw_and_ends_in_one_final(seats: int) -> None:
    draw = [10 + s for s in range(seats)]
    entries = cup_entries(draw)
    byes = entries.count(None)
    assert len(entries) in (4, 8) and byes == len(entries) - seats
    assert [entries[2 * i + 1] for i in range(byes)] == [None] * byes  # the first seats of the draw
    left = set(draw)
    for number in range(1, cup_rounds(seats) + 1):
        pairings, through = cup_round(entries, number)
        assert all(p.round == number for p in pairings)
        winners = dict(through)
        for p in pairings:
            winners[p.slot] = min(p.home, p.away)  # any winner will do
            left.discard(max(p.home, p.away))
        entries = cup_next_entries(entries, winners)
    assert entries == [min(draw)] and left == {min(draw)}  # the final's winner is the one left


def test_round_names() -> None:
    assert [round_name("cup", r, 3) for r in (1, 2, 3)] == ["quarter_final", "semi_final", "final"]
    assert round_name("single", 1, 1) == "match" and round_name("league", 4, 7) == "round_4"


def test_the_table_counts_three_one_and_zero_and_keeps_the_form() -> None:
    results = [
        Result(1, 2, (2, 0), 1),
        Result(3, 1, (1, 1), None),
        Result(2, 3, (0, 3), 3),
    ]
    rows = table([1, 2, 3], results)
    assert [(r.seat, r.points, r.goal_difference, r.form) for r in rows] == [
        (3, 4, 3, ("D", "W")),
        (1, 4, 2, ("W", "D")),
        (2, 0, -5, ("L", "L")),
    ]
    assert rows[0].to_dict()["goals_for"] == 4


def test_ties_are_broken_by_the_matches_between_them_then_by_the_lot() -> None:
    # 1 and 2 level on points, difference and goals; 2 beat 1 → 2 first. 3 and 4 never met → the lot.
    results = [
        Result(2, 1, (1, 0), 2),
        Result(1, 3, (1, 0), 1),
        Result(2, 4, (0, 1), 4),
        Result(3, 4, (0, 0), None),
    ]
    rows = table([4, 3, 2, 1], results)
    by_seat = {r.seat: r for r in rows}
    assert by_seat[1].points == by_seat[2].points == 3
    assert [r.seat for r in rows][:2] in ([4, 2], [2, 1])
    two_one = [r.seat for r in rows if r.seat in (1, 2)]
    assert two_one == [2, 1]


@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=6, max_size=6),
    st.permutations([1, 2, 3, 4]),
)
def test_the_table_is_a_total_order_that_never_depends_on_the_result_order(
    scores: list[tuple[int, int]], draw: list[int]
) -> None:
    pairs = [p for r in league_rounds([1, 2, 3, 4]) for p in r]
    results = [
        Result(p.home, p.away, s, None if s[0] == s[1] else p.home if s[0] > s[1] else p.away)
        for p, s in zip(pairs, scores, strict=True)
    ]
    rows = table(draw, results)
    assert sorted(r.seat for r in rows) == [1, 2, 3, 4]
    assert sum(r.points for r in rows) in range(2 * 6, 3 * 6 + 1)
    assert [r.seat for r in table(draw, list(reversed(results)))] == [r.seat for r in rows]


# ---------------------------------------------- a game's own points and what a seat carries (CP6, CP7)


def test_a_league_with_its_own_points_scheme_plays_knock_out_matches() -> None:
    assert [knockout(k, points_scheme=True) for k in ("single", "cup", "league")] == [False, True, True]


def test_a_points_scheme_scores_the_table_and_its_head_to_head_and_counts_how_matches_were_won() -> None:
    # 1, 2 and 3 end level on 7 points, goal difference 0 and 2 goals; between them 2 took 7 points, 1 five
    # and 3 three: that orders them, whatever the lot.
    results = [
        Result(1, 2, (1, 1), 1, "penalties", (3, 2)),
        Result(2, 3, (1, 0), 2, "regular", (5, 0)),
        Result(3, 1, (1, 1), 3, "penalties", (3, 2)),
        Result(4, 1, (0, 0), 4, "penalties", (3, 2)),
        Result(2, 4, (0, 1), 4, "regular", (0, 5)),
        Result(3, 4, (1, 0), 3, "extra_time", (4, 1)),
    ]
    rows = table([3, 1, 2, 4], results)
    assert [(r.seat, r.points) for r in rows] == [(4, 9), (2, 7), (1, 7), (3, 7)]
    top = rows[0].to_dict()
    assert (top["won"], top["won_regular"], top["won_penalties"], top["lost"], top["lost_extra_time"]) == (
        2,
        1,
        1,
        1,
        1,
    )
    assert top["drawn"] == 0 and top["form"] == ["W", "W", "L"]
    for draw in itertools.permutations([1, 2, 3, 4]):  # never the lot
        assert [r.seat for r in table(list(draw), results)] == [4, 2, 1, 3]


def _toy_carry() -> CarryRules:
    """A carry that books, per player, the matches he still misses: a report line ``{n: misses}``."""

    def after(book: dict[str, int], part: dict[int, int]) -> dict[str, int]:
        out = {n: left - 1 for n, left in book.items() if left > 1}
        out.update({str(n): misses for n, misses in part.items()})
        return out

    return CarryRules(
        start=dict,
        report=lambda engine: engine,
        after=after,
        absent=lambda book: [
            {"player": int(n), "reason": "suspended", "matches": m} for n, m in book.items()
        ],
        option="out",
    )


def test_a_seat_carries_its_book_from_its_matches_only_into_its_next_match() -> None:
    carry = _toy_carry()
    books = carry_start(carry, [1, 2, 3])
    assert books == {"1": {}, "2": {}, "3": {}}
    books = carry_after(carry, books, 1, 2, {"home": {7: 2}, "away": {}})
    assert books == {"1": {"7": 2}, "2": {}, "3": {}}
    absent = carry_absent(carry, books, 3, 1)
    assert absent == {"home": [], "away": [{"player": 7, "reason": "suspended", "matches": 2}]}
    setup = carry_into(carry, cardless_setup(True, ("p3", "p1"), {"length": "short"}), absent)
    assert setup.options == {"length": "short", "out": {"home": [], "away": [7]}}
    books = carry_after(carry, books, 3, 2, {"home": {}, "away": {}})  # seat 1 rests: nothing moves for it
    assert books["1"] == {"7": 2}
    books = carry_after(carry, books, 1, 3, {"home": {}, "away": {}})
    assert carry_absent(carry, books, 1, 2)["home"] == [{"player": 7, "reason": "suspended", "matches": 1}]
    assert json.loads(json.dumps(books)) == books  # stored with the competition as it is


def test_a_player_missing_for_two_reasons_is_named_once_in_the_match_option() -> None:
    carry = _toy_carry()
    both = {"home": [{"player": 4, "reason": "suspended", "matches": 1}, {"player": 4, "reason": "injured"}]}
    setup = carry_into(carry, cardless_setup(True, ("a", "b"), {}), both)  # type: ignore[arg-type]
    assert setup.options["out"] == {"home": [4], "away": []}


CUP_POINTS = {"regular": (5, 0), "extra_time": (4, 1), "penalties": (3, 2)}


@given(
    st.lists(
        st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from(sorted(CUP_POINTS)), st.booleans()),
        min_size=6,
        max_size=6,
    ),
    st.permutations([1, 2, 3, 4]),
)
def test_a_table_in_a_game_s_own_points_is_total_has_no_draw_and_adds_every_match_s_points(
    matches: list[tuple[int, int, str, bool]], draw: list[int]
) -> None:
    pairs = [p for r in league_rounds([1, 2, 3, 4]) for p in r]
    results = []
    for p, (a, b, how, home_won) in zip(pairs, matches, strict=True):
        win, loss = CUP_POINTS[how]
        low, high = (min(a, b), max(a, b) + 1) if how == "regular" else (a, a + (how == "extra_time"))
        score = (
            (high, low) if home_won else (low, high)
        )  # level after a shoot-out, a golden goal after extra time
        points = (win, loss) if home_won else (loss, win)
        results.append(Result(p.home, p.away, score, p.home if home_won else p.away, how, points))
    rows = table(draw, results)
    assert sorted(r.seat for r in rows) == [1, 2, 3, 4]
    assert sum(r.points for r in rows) == 5 * 6 and sum(r.drawn for r in rows) == 0
    assert all(r.won_extra_time + r.won_penalties <= r.won and r.form.count("D") == 0 for r in rows)
    assert [r.points for r in rows] == sorted((r.points for r in rows), reverse=True)
    assert [r.seat for r in table(draw, list(reversed(results)))] == [r.seat for r in rows]
