"""Rulings of §14 that the §15 cases do not reach, one behaviour each."""

from __future__ import annotations

from chess_helpers import ball_targets, moves, play, position, refused, targets

from games.chess_football.rules import FORMAT, chess_setup
from games.rng import Rng


def test_x21_an_offender_with_the_ball_complies_by_playing_it_and_the_obligation_carries():
    st = position({"S": ["Lc12", "Le7"], "N": ["Lg7"]}, ball="c12")
    got = moves(st)
    assert "c12>c8" in got and "forfeit" in got and "Le7-f8" not in got
    play(st, "c12>c8")
    play(st, "Lg7-h8")
    got = moves(st)
    assert "forfeit" in got and got - {"forfeit"} == {"Lc12-b11", "Lc12-d11", "Lc12-a10", "Lc12-e10"}


def test_x35_a_yellow_to_yellow_move_or_a_reentry_does_not_comply():
    st = position({"S": ["Db13", "Lc5"], "N": ["Lg7"]}, ball="i7", cards=[0, 0])
    st.pos[3] = -1  # D2 in the box
    got = moves(st)
    assert not any(m.startswith("+") for m in got)
    assert "a12" not in targets(st, "b13") and "c12" not in targets(st, "b13")


def test_x35_the_exemption_is_judged_at_each_move():
    st = position({"S": ["Db13", "Lc5"], "N": ["Lh12", "Lg7"]}, ball="i7", turn="away")
    play(st, "Lh12-g11")  # N leaves its yellow squares: the S piece is now offside
    assert "Lc5-d6" not in moves(st) and "forfeit" in moves(st)


def test_x30_a_loose_ball_stops_the_captain_and_the_diagonal_two_step():
    st = position({"S": ["Ce3", "Lc5"]}, ball="e5")
    assert "e5" in targets(st, "e3") and "e6" not in targets(st, "e3")
    st = position({"S": ["Lc5"]}, ball="d6")
    assert "d6" in targets(st, "c5") and "e7" not in targets(st, "c5")
    st = position({"S": ["La5"]}, ball="a6")
    assert "a7" in targets(st, "a5")  # the side-strip skip is conditioned on pieces only


def test_x26_no_pass_to_the_keeper_on_a_goal_square():
    st = position({"S": ["Ke0", "Ce3"]}, ball="e3")
    assert "e0" not in ball_targets(st)
    st = position({"S": ["Ke1", "Ce3"]}, ball="e3")
    assert "e1" in ball_targets(st)  # on his red square he may receive


def test_x28_the_own_red_square_carries_no_obligation():
    st = position({"S": ["Ce4"], "N": ["Lg9"]}, ball="e4")
    play(st, "e4>e1")
    assert st.red == -1 and "Lg9-h8" in moves(st)


def test_x16_a_long_throw_may_find_a_team_mate():
    st = position({"S": ["Ke1", "Lg9"], "N": ["De10"]}, ball="e1")
    t = ball_targets(st)
    assert "g9" in t and "e10" not in t and "a13" not in t


def test_x37_a_forfeit_makes_the_holder_holding():
    st = position({"S": ["Lc12", "Dd3"], "N": ["Lg7"]}, ball="d3", fresh=True)
    play(st, "forfeit")
    assert not st.fresh


def test_x10_a_keeper_cannot_be_tackled_and_a_fresh_holder_neither():
    st = position({"S": ["Kd2"], "N": ["Lc3"]}, ball="d2", turn="away")
    assert "d2" not in targets(st, "c3")
    assert "keeper cannot be tackled" in refused(st, "Lc3xd2")


def test_the_same_seed_and_decisions_replay_the_same_match():
    def run(seed: int) -> dict:
        st = FORMAT.start(chess_setup(knockout=True, half_moves=5, extra_time_moves=1), Rng(seed))
        pick = Rng(seed + 1)
        while FORMAT.decisions(st):
            d = FORMAT.decisions(st)[0]
            FORMAT.apply(st, d.side, d.choices[pick.randbelow(len(d.choices))], Rng(0))
        return FORMAT.to_dict(st)

    assert run(4) == run(4)
