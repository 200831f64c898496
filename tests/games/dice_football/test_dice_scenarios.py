"""The digest's test scenarios S-01 … S-26 (§15), each set up directly with the dice forced.

Squares are absolute, home = player S attacking towards row 11 (the first half), away = N.
"""

from __future__ import annotations

import pytest
from dice_helpers import (
    FMT,
    ball,
    choices,
    dice_allowed,
    first,
    kinds,
    pending,
    play,
    position,
    roll,
)

from games.dice_football.state import R_CORNER, R_GOAL_KICK, R_KEEPER


def test_s01_straight_advance():
    st = position((3, 5))
    ev = play(st, "home", roll("control"), ("control", "F2"))
    assert first(ev, "move").data["path"] == [[3, 5], [3, 6], [3, 7]]
    assert ball(st) == [3, 7] and pending(st) == ("home", "action")


@pytest.mark.parametrize(
    ("die", "face_name", "to", "square"),
    [
        ("control", "DF1", "left", [2, 6]),
        ("control", "DF1", "right", [4, 6]),
        ("pass", "L2", "left", [1, 5]),
        ("pass", "L2", "right", [5, 5]),
    ],
)
def test_s02_the_attacker_chooses_left_or_right_after_seeing_the_face(die, face_name, to, square):
    st = position((3, 5))
    play(st, "home", roll(die), (die, face_name))
    assert pending(st) == ("home", "direction")
    assert {c["to"] for c in choices(st)} == {"left", "right"}
    play(st, "home", {"kind": "direction", "to": to})
    assert ball(st) == square and pending(st) == ("home", "action")


def test_s03_forward_exit_gives_a_goal_kick_to_the_opponent():
    st = position((3, 9))
    ev = play(st, "home", roll("long"), ("long", "F3"))
    move = first(ev, "move")
    assert move.data["path"] == [[3, 9], [3, 10], [3, 11], [3, 12]] and move.data["exit"] == "goal_line"
    assert pending(st) == ("away", "place")
    assert [c["square"] for c in choices(st)] == [[4, 11], [2, 11]]
    play(st, "away", {"kind": "place", "square": [4, 11]})
    assert ball(st) == [4, 11]
    assert dice_allowed(st) == {"control", "pass", "long"}
    assert {"kind": "roll", "die": "long", "long_kick": True} in choices(st)


def test_s04_side_exit_gives_a_throw_in_from_the_last_square():
    st = position((4, 5))
    play(st, "home", roll("pass"), ("pass", "L2"))
    ev = play(st, "home", {"kind": "direction", "to": "right"})
    assert first(ev, "move").data["exit"] == "side_line"
    assert first(ev, "restart").data == {"side": "away", "restart": "throw_in", "square": [5, 5]}
    assert ball(st) == [5, 5] and pending(st) == ("away", "action")
    assert dice_allowed(st) == {"control", "pass", "long"}


def test_s05_an_x_loses_the_ball_and_the_winner_starts_with_control():
    st = position((2, 7))
    ev = play(st, "home", roll("long"), ("long", "X"))
    assert first(ev, "possession").data == {"side": "away", "reason": "lost", "square": [2, 7]}
    assert ball(st) == [2, 7] and dice_allowed(st) == {"control"}
    play(st, "away", roll("control"), ("control", "F1"))
    assert ball(st) == [2, 6]  # N attacks towards row 1
    assert dice_allowed(st) == {"pass", "long"}


def test_s06_question_mark_steal_and_miss():
    st = position((3, 7))
    play(st, "home", roll("control"), ("control", "?"), ("def", "STEAL"))
    assert pending(st) == ("away", "action") and ball(st) == [3, 7] and dice_allowed(st) == {"control"}

    st = position((3, 7))
    play(st, "home", roll("control"), ("control", "?"), ("def", "MISS"))
    assert pending(st) == ("home", "action") and ball(st) == [3, 7]
    assert "control" in dice_allowed(st)  # an intervention frees the die choice (§6.1)


def test_s07_control_never_twice_in_a_row():
    st = position((3, 3))
    play(st, "home", roll("control"), ("control", "F1"))
    assert dice_allowed(st) == {"pass", "long"}
    play(st, "home", roll("pass"), ("pass", "F2"))
    assert "control" in dice_allowed(st)


def test_s08_inside_shot_and_every_keeper_result():
    st = position((2, 10))
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "SAVED"))
    assert first(ev, "move").data["path"] == [[2, 10], [3, 11]]
    assert pending(st) == ("away", "place")
    assert [c["square"] for c in choices(st)] == [[4, 10], [3, 10], [2, 10]]
    play(st, "away", {"kind": "place", "square": [3, 10]})
    assert dice_allowed(st) == {"control", "pass", "long"}
    assert sum(1 for c in choices(st) if c.get("long_kick")) == 3

    st = position((2, 10))
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "NOT_SAVED"))
    assert st.score == [1, 0] and first(ev, "kickoff").data["side"] == "away" and ball(st) == [3, 6]

    st = position((2, 10))
    play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "PARRIED"))
    assert ball(st) == [3, 10] and pending(st) == ("home", "action") and "shot" in dice_allowed(st)

    st = position((2, 10))
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "CORNER"))
    assert first(ev, "restart").data == {"side": "home", "restart": "corner", "square": [1, 11]}
    assert st.restart == R_CORNER and ball(st) == [1, 11]


def test_s09_crossbar_then_defender_miss_in_front_of_goal_is_an_own_goal():
    st = position((4, 11))
    play(st, "home", roll("shot"), ("shot", "CROSSBAR"))
    assert ball(st) == [3, 11] and pending(st) == ("away", "crossbar")
    assert choices(st) == [{"kind": "defender"}, {"kind": "keeper"}]
    ev = play(st, "away", {"kind": "defender"}, ("def", "MISS_OR_OWN_GOAL"))
    goal = first(ev, "goal").data
    assert goal["side"] == "home" and goal["own_goal"] and st.score == [1, 0]


@pytest.mark.parametrize(
    ("result", "check"),
    [
        (
            "MISS",
            lambda st, ev: (
                ball(st) == [3, 11] and [e.data["die"] for e in ev if e.kind == "roll"][-1] == "gk"
            ),
        ),
        ("STEAL", lambda st, ev: pending(st) == ("away", "action") and ball(st) == [3, 10]),
        ("MISS_OR_OWN_GOAL", lambda st, ev: st.score == [1, 0] and first(ev, "goal").data["own_goal"]),
        ("FOUL", lambda st, ev: first(ev, "restart").data["restart"] == "penalty"),
        ("CLEAR", lambda st, ev: ball(st) == [3, 7] and pending(st) == ("home", "action")),
    ],
)
def test_s10_outside_shot_central(result, check):
    st = position((3, 9))
    rolls = [("shot", "ON_TARGET"), ("def", result)]
    if result == "MISS":
        rolls.append(("gk", "SAVED"))
    if result == "FOUL":
        rolls.append(("pen", "OUT"))
    ev = play(st, "home", roll("shot"), *rolls)
    assert first(ev, "move").data["path"] == [[3, 9], [3, 10]]
    assert check(st, ev)


def test_s11_outside_shot_wide_miss_or_own_goal_is_a_plain_miss():
    st = position((1, 9))
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("def", "MISS_OR_OWN_GOAL"), ("gk", "PARRIED"))
    moves = [e.data["path"] for e in ev if e.kind == "move"]
    assert moves[:2] == [[[1, 9], [2, 10]], [[2, 10], [3, 11]]]
    assert st.score == [0, 0] and ball(st) == [3, 10]


def test_s12_outside_unstoppable_is_no_goal_but_goes_to_the_keeper():
    st = position((5, 9))
    play(st, "home", roll("shot"), ("shot", "UNSTOPPABLE"), ("gk", "NOT_SAVED"))
    assert st.score == [1, 0]
    st = position((5, 9), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "UNSTOPPABLE"))
    assert ball(st) == [3, 11] and pending(st) == ("away", "star") and st.score == [0, 0]
    ev = play(st, "away", {"kind": "star"}, ("star", "RECOVERY"))
    assert kinds(ev)[:2] == ["star_played", "star_rolled"] and pending(st) == ("away", "place")


def test_s13_no_shot_from_a_corner_square():
    assert "shot" not in dice_allowed(position((1, 11)))
    assert "shot" not in dice_allowed(position((5, 11)))
    assert "shot" in dice_allowed(position((1, 10)))


@pytest.mark.parametrize(
    ("die", "face_name", "to", "square", "exit_"),
    [
        ("control", "F2", None, [3, 11], None),
        ("pass", "F3", None, [4, 11], None),
        ("control", "L1", "right", [1, 10], None),
        ("control", "L1", "left", None, "goal_line"),
    ],
)
def test_s14_corner_arrows_run_along_the_goal_line(die, face_name, to, square, exit_):
    st = position((1, 11), restart=R_CORNER)
    assert not any(c.get("rotate") for c in choices(st))  # the rotation is compulsory, not declared
    ev = play(st, "home", roll(die), (die, face_name))
    if to is not None:
        ev = play(st, "home", {"kind": "direction", "to": to})
    if exit_ is None:
        assert ball(st) == square
    else:
        assert first(ev, "move").data["exit"] == exit_ and pending(st) == ("away", "place")


def test_s15_goal_kick_back_pass_gives_a_corner():
    st = position((4, 11), att="away", restart=R_GOAL_KICK)
    ev = play(st, "away", roll("long"), ("long", "B1"))
    assert first(ev, "move").data["path"] == [[4, 11], [4, 12]]
    assert first(ev, "restart").data == {"side": "home", "restart": "corner", "square": [5, 11]}
    assert pending(st) == ("home", "action")


def test_s16_doubled_back_pass_from_the_keeper_is_an_own_goal():
    st = position((3, 10), att="away", restart=R_KEEPER)
    ev = play(st, "away", roll("long", long_kick=True), ("long", "B1"))
    assert first(ev, "move").data["path"] == [[3, 10], [3, 11], [3, 12]]
    assert st.score == [1, 0] and first(ev, "kickoff").data["side"] == "away"
    st = position((3, 10), att="away", restart=R_KEEPER)
    play(st, "away", roll("long"), ("long", "B1"))
    assert ball(st) == [3, 11] and st.score == [0, 0]


@pytest.mark.parametrize(("to", "square"), [("left", [1, 6]), ("right", [5, 6])])
def test_s17_long_diagonal_three_from_the_centre_column_goes_out(to, square):
    st = position((3, 4))
    play(st, "home", roll("long"), ("long", "DF3"))
    ev = play(st, "home", {"kind": "direction", "to": to})
    assert first(ev, "restart").data == {"side": "away", "restart": "throw_in", "square": square}


def test_s18_clearance_near_his_own_goal():
    st = position((3, 2))
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"), ("gk", "NOT_SAVED"))
    assert first(ev, "move").data["path"] == [[3, 2], [3, 1]]
    gk = [e for e in ev if e.kind == "roll"][-1].data
    assert gk["side"] == "home" and gk["die"] == "gk"  # the attacker's own keeper
    assert st.score == [0, 1] and first(ev, "goal").data["own_goal"]

    st = position((3, 2))
    play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"), ("gk", "SAVED"))
    assert pending(st) == ("home", "place") and st.ctx == R_KEEPER

    st = position((2, 2))
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"))
    assert first(ev, "restart").data["restart"] == "goal_kick"
    assert pending(st) == ("home", "place")  # the attacker keeps the ball


def test_s19_foul_in_the_area_penalty_and_boskov():
    st = position((2, 10))
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"), ("pen", "GOAL"))
    assert next(e.data["path"] for e in ev if e.kind == "move") == [[2, 10], [3, 10]]
    assert st.score == [1, 0]

    st = position((2, 10), boskov=True)
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"), ("control", "?"))
    assert "no_penalty" in kinds(ev) and ball(st) == [2, 10] and "control" in dice_allowed(st)

    st = position((2, 10), boskov=True)
    play(st, "home", roll("pass"), ("pass", "?"), ("def", "FOUL"), ("control", "F1"), ("pen", "GOAL"))
    assert st.score == [1, 0]


def test_s20_penalty_outcomes():
    def penalty(result, *more):
        st = position((3, 11))
        ev = play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"), ("pen", result), *more)
        return st, ev

    st, ev = penalty("GOAL")
    assert st.score == [1, 0] and first(ev, "kickoff").data["side"] == "away"
    st, _ = penalty("PARRIED")
    assert ball(st) == [3, 10] and "shot" in dice_allowed(st)
    st, _ = penalty("OUT")
    assert pending(st) == ("away", "place") and st.ctx == R_GOAL_KICK
    st, _ = penalty("CORNER")
    assert pending(st) == ("home", "place") and [c["square"] for c in choices(st)] == [[1, 11], [5, 11]]


def test_s21_direct_free_kicks():
    def foul_at(square, *after):
        st = position(square)
        play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"))
        return st

    st = foul_at((2, 9))
    assert "shot" in dice_allowed(st)
    play(st, "home", roll("shot"), ("shot", "UNSTOPPABLE"))
    assert st.score == [1, 0]
    st = foul_at((2, 9))
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "SAVED"))
    assert first(ev, "move").data["path"] == [[2, 9], [3, 11]]

    st = foul_at((3, 8))
    assert "shot" in dice_allowed(st)
    ev = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("def", "STEAL"))
    assert first(ev, "move").data["path"] == [[3, 8], [3, 10]]
    st = foul_at((3, 8))
    ev = play(st, "home", roll("shot"), ("shot", "UNSTOPPABLE"), ("gk", "SAVED"))
    assert first(ev, "move").data["path"] == [[3, 8], [3, 11]] and st.score == [0, 0]

    st = foul_at((3, 7))
    assert first_restart(st) == "free_kick" and "shot" not in dice_allowed(st)
    st = foul_at((1, 10))  # B-39: the wing squares of row 10 are zone N
    assert first_restart(st) == "direct_free_kick"
    st = foul_at((1, 11))  # a corner square: ordinary free kick
    assert first_restart(st) == "free_kick" and "shot" not in dice_allowed(st)


def first_restart(st):
    return FMT.view(st, None)["restart"]


def test_s22_two_fouls_in_a_row_send_the_defender_off_and_the_star_goes_over():
    st = position((3, 5), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"))
    assert st.fouls == [0, 1]
    ev = play(st, "home", roll("pass"), ("pass", "?"), ("def", "FOUL"), ("star", "LONG_SHOT"))
    assert first(ev, "sent_off").data == {"side": "away", "star": True}
    assert first(ev, "star_rolled").data == {"side": "home", "face": "LONG_SHOT", "reason": "sent_off"}
    assert st.fouls == [0, 0] and st.star == 0
    # another DEF result in between resets the count
    st = position((3, 5))
    play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"))
    play(st, "home", roll("pass"), ("pass", "?"), ("def", "MISS"))
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "FOUL"))
    assert "sent_off" not in kinds(ev) and st.fouls == [0, 1]


def test_s23_star_unstoppable_and_its_answers():
    st = position((2, 10), star=("home", "UNSTOPPABLE"))
    assert {"kind": "star"} in choices(st)
    play(st, "home", {"kind": "star"}, ("star", "PERFECT_SAVE"))
    assert pending(st) == ("away", "star")
    play(st, "away", {"kind": "star"}, ("star", "FOUL"))
    assert pending(st) == ("away", "place") and st.score == [0, 0] and st.star == 0

    st = position((2, 10), star=("home", "UNSTOPPABLE"))
    play(st, "home", {"kind": "star"}, ("star", "RECOVERY"))  # inside the area RECOVERY cannot answer
    assert st.score == [1, 0]

    st = position((2, 9), star=("home", "UNSTOPPABLE"))
    play(st, "home", {"kind": "star"}, ("star", "RECOVERY"))
    assert pending(st) == ("away", "star")
    ev = play(st, "away", {"kind": "star"}, ("star", "ASSIST"))
    assert first(ev, "possession").data == {"side": "away", "reason": "recovery", "square": [2, 9]}
    assert dice_allowed(st) == {"control"}


def test_s24_defensive_star_foul_in_the_attackers_own_area_is_a_direct_free_kick():
    st = position((3, 2), star=("away", "FOUL"))
    assert pending(st) == ("away", "star")
    ev = play(st, "away", {"kind": "star"}, ("star", "ASSIST"))
    restart = first(ev, "restart").data
    assert restart == {"side": "away", "restart": "direct_free_kick", "square": [3, 2], "zone": "N"}
    assert pending(st) == ("away", "action") and "shot" in dice_allowed(st)
    ev = play(st, "away", roll("shot"), ("shot", "UNSTOPPABLE"))
    assert st.score == [0, 1]


def test_s25_wing_rotation():
    st = position((1, 10))
    assert {"kind": "roll", "die": "control", "rotate": True} in choices(st)
    play(st, "home", roll("control", rotate=True), ("control", "F2"))
    assert ball(st) == [3, 10]
    st = position((1, 10))
    ev = play(st, "home", roll("control", rotate=True), ("control", "B1"))
    assert first(ev, "restart").data == {"side": "away", "restart": "throw_in", "square": [1, 10]}


def test_s26_after_time_is_up_the_half_ends_at_the_defences_first_ball_win():
    st = position((3, 5), half_ticks=10, ticks=9)
    ev = play(st, "home", roll("pass"), ("pass", "F2"))
    assert "time_up" in kinds(ev) and st.period == 1 and pending(st) == ("home", "action")
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "MISS"))
    assert st.period == 1  # the attacker keeps the ball: play goes on
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "STEAL"))
    assert kinds(ev)[-2:] == ["half_over", "kickoff"]
    assert st.period == 2 and st.ticks == 0 and ball(st) == [3, 6]
    assert first(ev, "kickoff").data["side"] == "away"  # the toss winner kicks off the second half

    st = position((3, 5), half_ticks=10, ticks=12)
    ev = play(st, "home", roll("long"), ("long", "X"))
    assert "half_over" in kinds(ev) and st.period == 2

    st = position((3, 5), half_ticks=10, ticks=12)  # B-42: a clearance ends it at once
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"))
    assert "half_over" in kinds(ev) and "move" not in kinds(ev)
