"""Rules beyond the digest's scenarios: the STAR windows, §12.3's other keeper results, corners after a
central shot, extra time (option) and the shoot-out, draws, and the STAR toss."""

from __future__ import annotations

from dice_helpers import FMT, Faces, ball, choices, dice_allowed, first, kinds, pending, play, position, roll

from games.dice_football.rules import dice_setup
from games.dice_football.state import R_CORNER


def test_the_toss_winner_holds_star_and_the_other_side_kicks_off():
    st, ev = FMT.start_with_events(dice_setup(), Faces(1, ("star", "FOUL")))
    assert kinds(ev) == ["toss", "star_rolled", "kickoff"]
    assert ev[0].data["winner"] == "away" and ev[2].data["side"] == "home"
    assert st.star == 1 and pending(st) == ("away", "star")  # FOUL can be played before the first roll


def test_perfect_save_replaces_the_keeper_roll_or_the_keeper_rolls():
    st = position((3, 10), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "ON_TARGET"))
    assert pending(st) == ("away", "star") and FMT.view(st, None)["to_decide"]["window"] == "goal_mouth"
    play(st, "away", {"kind": "pass"}, ("gk", "NOT_SAVED"))
    assert st.score == [1, 0]
    st = position((3, 10), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "ON_TARGET"))
    ev = play(st, "away", {"kind": "star"}, ("star", "ASSIST"))
    assert "roll" not in kinds(ev) and pending(st) == ("away", "place") and st.star == 0


def test_perfect_save_against_an_unstoppable_shot_from_the_area():
    st = position((4, 10), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "UNSTOPPABLE"))
    d = FMT.decisions(st)[0]
    assert d.side == "away" and d.default == {"kind": "star"}  # the default saves a certain goal
    play(st, "away", {"kind": "pass"})
    assert st.score == [1, 0]


def test_the_crossbar_offers_the_perfect_save_too():
    st = position((3, 11), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "CROSSBAR"))
    assert {"kind": "star"} in choices(st)
    ev = play(st, "away", {"kind": "keeper"}, ("gk", "NOT_SAVED"))
    assert first(ev, "goal").data["own_goal"] and st.score == [1, 0]


def test_after_an_assist_only_recovery_answers():
    st = position((3, 8), star=("home", "ASSIST"))
    ev = play(st, "home", {"kind": "star"}, ("star", "FOUL"))
    assert first(ev, "move").data["path"] == [[3, 8], [3, 10]]
    assert pending(st) == ("home", "action")  # the defender's FOUL is not offered (B-40)
    st = position((1, 8), star=("home", "ASSIST"))
    play(st, "home", {"kind": "star"}, ("star", "RECOVERY"))
    assert ball(st) == [2, 10] and pending(st) == ("away", "star")
    play(st, "away", {"kind": "star"}, ("star", "LONG_SHOT"))
    assert pending(st) == ("away", "action") and dice_allowed(st) == {"control"}


def test_long_shot_from_the_halfway_row():
    assert {"kind": "star"} not in choices(position((3, 5), star=("home", "LONG_SHOT")))
    st = position((1, 6), star=("home", "LONG_SHOT"))
    ev = play(st, "home", {"kind": "star"}, ("star", "ASSIST"), ("gk", "CORNER"))
    assert first(ev, "move").data["path"] == [[1, 6], [3, 11]]
    assert first(ev, "restart").data["square"] == [1, 11]  # the corner on the side of the shot (§9)


def test_keeper_corner_after_a_central_shot_lets_the_attacker_choose():
    st = position((3, 10))
    play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "CORNER"))
    assert pending(st) == ("home", "place")
    play(st, "home", {"kind": "place", "square": [5, 11]})
    assert st.restart == R_CORNER and ball(st) == [5, 11]


def test_clearance_keeper_parries_and_tips_over():
    st = position((3, 3))
    ev = play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"), ("gk", "PARRIED"))
    assert first(ev, "possession").data == {"side": "away", "reason": "parried", "square": [3, 2]}
    assert ball(st) == [3, 2] and dice_allowed(st) >= {"pass", "long"}  # free choice, no CONTROL duty
    st = position((3, 1))
    play(st, "home", roll("control"), ("control", "?"), ("def", "CLEAR"), ("gk", "CORNER"))
    assert pending(st) == ("away", "place") and [c["square"] for c in choices(st)] == [[5, 1], [1, 1]]


def test_an_own_goal_by_an_arrow_die():
    st = position((3, 1))
    ev = play(st, "home", roll("control"), ("control", "B1"))
    assert first(ev, "move").data["exit"] == "own_goal" and st.score == [0, 1]
    st = position((2, 1))  # out beside the goal: a corner for away on that side (B-7)
    ev = play(st, "home", roll("control"), ("control", "B1"))
    assert first(ev, "restart").data == {"side": "away", "restart": "corner", "square": [1, 1]}


def test_a_normal_match_may_end_level():
    st = position((3, 5), half_ticks=1, ticks=1)
    play(st, "home", roll("long"), ("long", "X"))
    play(st, "away", roll("long"), ("long", "X"))
    r = FMT.result(st)
    assert r.winner is None and r.score == (0, 0) and r.decided_by == "regular" and r.penalties is None


def test_extra_time_option_then_a_goal_decides():
    st = position((3, 5), knockout=True, half_ticks=1, ticks=1, extra_time_ticks=2)
    play(st, "home", roll("long"), ("long", "X"))
    ev = play(st, "away", roll("long"), ("long", "X"))
    assert "extra_time" in kinds(ev) and st.period == 3 and first(ev, "kickoff").data["side"] == "home"
    play(st, "home", roll("long"), ("long", "X"))
    play(st, "away", roll("control"), ("control", "F1"))
    ev = play(st, "away", roll("long"), ("long", "X"))  # the third roll: time was up, the ball is lost
    assert st.period == 4 and first(ev, "kickoff").data["side"] == "away"
    st.score[0] = 1  # a goal in the second period of extra time
    play(st, "away", roll("long"), ("long", "F4"))
    play(st, "away", roll("long"), ("long", "X"))
    r = FMT.result(st)
    assert r.winner == "home" and r.decided_by == "extra_time"


def test_shootout_goes_to_sudden_death():
    st = position((3, 5), knockout=True, half_ticks=1, ticks=1)
    play(st, "home", roll("long"), ("long", "X"))
    kicks = [("pen", "GOAL")] * 10 + [("pen", "OUT"), ("pen", "OUT"), ("pen", "GOAL"), ("pen", "PARRIED")]
    ev = play(st, "away", roll("long"), ("long", "X"), *kicks)
    assert [e.data["round"] for e in ev if e.kind == "shootout_kick"][-1] == 7
    r = FMT.result(st)
    assert r.penalties == (6, 5) and r.winner == "home" and r.decided_by == "penalties"
