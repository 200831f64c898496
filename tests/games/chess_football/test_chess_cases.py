"""The digest's test scenarios C-01..C-15 (§15), each as it is stated there."""

from __future__ import annotations

from chess_helpers import ball_targets, moves, piece_at, play, position, refused, sq, targets

from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT
from games.chess_football.state import BOX, OFF, PH_PENALTY


def test_c01_light_piece_moves():
    st = position({"S": ["Lc5"]}, ball="i13")
    assert targets(st, "c5") == {"b4", "d4", "b6", "d6", "a3", "e3", "a7", "e7"}
    assert not {"c7", "c3", "e5", "a5"} & targets(st, "c5")
    st = position({"S": ["Lc5", "Ld4"]}, ball="i13")
    assert "e3" not in targets(st, "c5") and "d4" not in targets(st, "c5")
    assert "cannot reach e3" in refused(st, "Lc5-e3")


def test_c02_side_strip_skip():
    st = position({"S": ["La5"]}, ball="i13")
    assert {"a3", "a7"} <= targets(st, "a5")
    st = position({"S": ["La5", "Da6"]}, ball="i13")
    assert "a7" not in targets(st, "a5") and "a3" in targets(st, "a5")
    st = position({"S": ["Lc5"]}, ball="i13")
    assert not {"c3", "c7", "a5", "e5"} & targets(st, "c5")


def test_c03_dark_piece_colour_lock():
    st = position({"S": ["Db3"]}, ball="i13")
    assert targets(st, "b3") == {"a2", "c2", "a4", "c4", "d5"}
    assert "outfield pieces may not enter a red" in refused(st, "Db3-d1")
    assert "own colour" in refused(st, "Db3-b4") and "own colour" in refused(st, "Db3-c3")
    st = position({"S": ["Db3", "Dc4"]}, ball="i13")
    assert "d5" not in targets(st, "b3")


def test_c04_captain_stops_on_the_halfway_row():
    st = position({"S": ["Ce5"]}, ball="a13")
    t = targets(st, "e5")
    assert "e7" in t and not {"e8", "e9", "e10", "e11", "e12"} & t
    assert "halfway row" in refused(st, "Ce5-i9")
    play(st, "Ce5-e7")
    play(st, "Ke14-e13")
    assert "e12" in targets(st, "e7")
    play(st, "Ce7-e12")
    play(st, "Ke13-e14")
    assert moves(st) >= {"forfeit"} and all(m.startswith("Ce12-") or m == "forfeit" for m in moves(st))


def test_c05_keeper_zone():
    st = position({"S": ["Ke0"]}, ball="a13")
    assert targets(st, "e0") == {"d0", "f0", "d1", "e1", "f1"}
    st = position({"S": ["Kc3"]}, ball="a13")
    assert targets(st, "c3") == {"c2", "d2", "d3"}
    assert "keeper zone" in refused(st, "Kc3-b4") and "keeper zone" in refused(st, "Kc3-c4")


def test_c06_possession_and_no_dribbling():
    st = position({"S": ["Lc5", "Dd3"]}, ball="d6")
    play(st, "Lc5-d6")
    assert st.ball == sq("d6") and st.fresh
    play(st, "Ke14-e13")
    assert targets(st, "d6") == set() and ball_targets(st)
    assert "cannot move itself" in refused(st, "Ld6-e7")
    play(st, "Dd3-e4")  # S moves another piece: the holder is now holding
    assert not st.fresh and st.ball == sq("d6")


def test_c07_ball_geometry():
    st = position({"S": ["Ce5"], "N": ["De6", "Le7", "De8"]}, ball="e5")
    t = ball_targets(st)
    assert {"e9", "i9", "f8", "g6"} <= t
    assert not {"e10", "g8"} & t
    assert {"e6", "e7", "e8"}.isdisjoint(t)  # opponents' squares: never a landing square


def test_c08_goal_and_keeper_block():
    st = position({"S": ["Dd11"], "N": ["Ke14", "Cc9"]}, ball="d11")
    t = ball_targets(st)
    assert "d14" in t and "e14" not in t and "f14" not in t
    events = play(st, "d11>d14")
    assert st.score == [1, 0] and [e.kind for e in events if e.kind == "goal"] == ["goal"]
    assert st.turn == 1 and st.pos[11] == g.CENTRE and st.ball == g.CENTRE  # N kicks off
    assert st.pos[2] == g.START[2]  # the scorer is back on his start square


def test_c09_no_landing_on_opponents():
    st = position({"S": ["Ce5"], "N": ["De8"]}, ball="e5")
    assert "e8" not in ball_targets(st) and "e9" in ball_targets(st)
    assert "opponent occupies" in refused(st, "e5>e8")


def test_c10_pass_then_wait():
    st = position({"S": ["Lc5", "Dd7"], "N": ["De8"]}, ball="c5")
    play(st, "c5>d7")
    assert st.ball == sq("d7") and st.fresh and st.turn == 1
    assert "d7" not in targets(st, "e8")
    assert "cannot be tackled before" in refused(st, "De8xd7")
    play(st, "De8-f9")
    assert ball_targets(st)  # S's next move: the receiver may play


def test_c11_triangulation():
    st = position({"S": ["Lc9", "De10", "Lg11"]}, ball="c9")
    assert "g11" in ball_targets(st)  # c9 -> e10 -> g11; g11 is no direct ball vector from c9
    play(st, "c9>g11")
    assert st.ball == sq("g11") and st.fresh
    st = position({"S": ["Dc6", "Ld8", "Le11"]}, ball="c6")
    t = ball_targets(st)
    assert "d8" in t and "e11" not in t  # halves differ: only the first pass


def test_c12_offside():
    st = position({"S": ["Dd11", "Le3"], "N": ["Lg7"]}, ball="i7")
    play(st, "Dd11-b13")
    play(st, "Ke14-e13")
    offside = refused(st, "Le3-f4")
    assert "offside" in offside and "b13" in offside
    play(st, "forfeit")
    assert st.relocate and st.turn == 1
    relocations = moves(st)
    assert relocations and all(m.startswith("b13=") for m in relocations)
    squares = {m.split(";")[0][4:] for m in relocations}
    for name in squares:
        s = sq(name)
        assert s // 10 <= 6 and not g.LIGHT_SQ[s] and s not in g.RED[0]
    assert "relocate" in refused(st, "Lg7-h8")
    play(st, "b13=b3;Lg7-h8")
    assert st.pos[2] == sq("b3") and st.pos[st.pos.index(sq("h8"))] >= 0 and st.turn == 0 and not st.relocate
    st = position({"S": ["Dd11", "Le3"], "N": ["Lh12"]}, ball="i7")
    play(st, "Dd11-b13")
    play(st, "Ke14-e13")
    assert "Le3-f4" in moves(st)  # an N outfield piece on N's yellow squares: no obligation


def test_c13_keeper_receives_and_throws():
    st = position({"S": ["Ke2", "Ce5"]}, ball="e5")
    play(st, "e5>e2")
    assert st.ball == sq("e2")
    play(st, "Ke14-e13")
    t = ball_targets(st)
    assert "e10" in t and "e6" in t
    assert not {"e11", "c12"} & t
    st = position({"S": ["Ke3"]}, ball="e3")
    assert "e7" not in ball_targets(st) and "own half" in refused(st, "e3>e7")


def test_c14_red_square_obligation():
    st = position({"S": ["Ke0", "Lc5"], "N": ["Ld4"]}, ball="d4", turn="away")
    play(st, "d4>d1")
    assert st.red == sq("d1")
    got = moves(st)
    assert "concede" in got and all(m.startswith("Ke0-d1>") or m == "concede" for m in got) and len(got) > 1
    assert "red square" in refused(st, "Lc5-d6")
    play(st, "Ke0-d1>e4")
    assert st.pos[0] == sq("d1") and st.ball == sq("e4") and st.red == -1
    st = position({"S": ["Kf0", "Lc5"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    play(st, "d4>d1")
    assert moves(st) == {"concede"}
    play(st, "concede")
    assert st.phase == PH_PENALTY and st.pen_side == 1
    assert {d.side: d.kind for d in FORMAT.decisions(st)} == {"home": "cover", "away": "penalty"}


def test_c15_tackle_caution_send_off():
    st = position({"S": ["De8", "Lc5"], "N": ["Df9"]}, ball="e8", turn="away", fresh=False)
    events = play(st, "Df9xe8")
    kinds = [e.kind for e in events]
    assert "tackle" in kinds and "caution" in kinds
    assert st.pos[2] == BOX and st.ball == sq("e8") and piece_at(st, "e8") == 12 and st.fresh
    assert "+D1b3" in moves(st)
    play(st, "+D1b3")
    assert st.cards == [1, 0] and st.pos[2] == sq("b3")
    st = position({"S": ["De8", "Lc5"], "N": ["Df9"]}, ball="e8", turn="away", fresh=False, cards=[2, 0])
    events = play(st, "Df9xe8")
    assert st.pos[2] == OFF and "send_off" in [e.kind for e in events]
    assert not any(m.startswith("+") for m in moves(st))
