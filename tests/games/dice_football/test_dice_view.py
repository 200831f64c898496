"""The per-viewer projection, the exported geometry and the log sentences."""

from __future__ import annotations

import json

import pytest
from dice_helpers import FMT, Faces, play, position, roll

from games.api import MalformedDecision, MatchEvent
from games.dice_football.dice import FACES, STAR
from games.dice_football.geometry import board_geometry, square_name
from games.dice_football.rules import dice_setup
from games.dice_football.sentences import sentence


def test_only_the_deciding_side_sees_its_choices():
    st = position((3, 5))
    mine, theirs, public = FMT.view(st, "home"), FMT.view(st, "away"), FMT.view(st, None)
    assert mine["decision"]["choices"] == [dict(c) for c in FMT.decisions(st)[0].choices]
    assert theirs["decision"] is None and public["decision"] is None
    assert theirs["to_decide"] == public["to_decide"] == {"side": "home", "kind": "action"}
    assert FMT.view(st, None, reveal_all=True)["decision"] == mine["decision"]
    for v in (mine, theirs, public):
        json.dumps(v)


def test_the_star_face_is_public_and_the_ball_is_absolute():
    st = position((2, 9), att="away", star=("home", "RECOVERY"))
    for viewer in ("home", "away", None):
        v = FMT.view(st, viewer)
        assert v["star"] == {"holder": "home", "face": "RECOVERY"}
        assert v["ball"] == [2, 9] and v["ball_relative"] == [4, 3] and v["attacker"] == "away"
    assert FMT.view(st, "home")["to_decide"]["window"] == "before_action"


def test_the_view_shows_the_last_roll_the_clock_and_a_pending_direction():
    st = position((3, 5), half_ticks=30, ticks=10)
    play(st, "home", roll("pass"), ("pass", "DF2"))
    v = FMT.view(st, None)
    assert v["last_roll"] == {"side": "home", "die": "pass", "face": "DF2"}
    assert v["ticks"] == 11 and v["ticks_left"] == 19 and not v["time_up"]
    assert v["to_decide"] == {
        "side": "home",
        "kind": "direction",
        "die": "pass",
        "face": "DF2",
        "rotated": False,
        "long_kick": False,
    }


def test_second_half_ends_are_swapped():
    st = position((3, 5), half_ticks=1)
    play(st, "home", roll("long"), ("long", "X"))
    assert st.period == 2
    v = FMT.view(st, None)
    assert v["attacks_row_11"] == "away" and v["attacker"] == "away" and v["ball"] == [3, 6]
    play(st, "away", roll("control"), ("control", "F2"))
    assert FMT.view(st, None)["ball"] == [3, 8]  # away now attacks towards row 11


def test_unknown_viewer_is_refused():
    with pytest.raises(MalformedDecision):
        FMT.view(position((3, 5)), "north")


def test_a_finished_match_shows_its_result():
    st = FMT.start(dice_setup(knockout=True, half_ticks=1), Faces(0, ("star", "ASSIST")))
    play(st, "away", roll("long"), ("long", "X"))  # home won the toss: away kicks off
    # level after the second half: away (the first to kick off) shoots first; home misses three times
    ev = play(st, "home", roll("long"), ("long", "X"), *[("pen", "GOAL"), ("pen", "OUT")] * 3)
    assert [e.data["side"] for e in ev if e.kind == "shootout_kick"] == ["away", "home"] * 3
    v = FMT.view(st, "home")
    assert v["phase"] == "over" and v["decision"] is None and v["to_decide"] is None
    assert v["result"]["winner"] == "away" and v["result"]["decided_by"] == "penalties"
    assert v["result"]["penalties"] == [0, 3] and len(v["result"]["kicks"]) == 6
    assert FMT.result(st).penalties == (0, 3) and FMT.result(st).score == (0, 0)


def test_board_geometry_is_json_and_matches_the_digest():
    g = board_geometry()
    json.dumps(g)
    z = g["zones"]
    assert (g["columns"], g["rows"], g["goal_column"]) == (5, 11, 3)
    assert len(z["penalty_area"]) == 6 and len(z["outside_shots"]) == 7 and len(z["red"]) == 2
    assert z["corners"] == [[1, 11], [5, 11]] and len(z["wing"]) == 6
    assert g["goal_mouth"] == [3, 11] and g["penalty_spot"] == [3, 10]
    assert g["dice"]["star"]["faces"] == list(FACES[STAR])
    assert g["dice"]["control"]["faces"].count("?") == 1


def test_square_names_read_like_the_board():
    assert square_name(3, 6) == "c6" and square_name(1, 11) == "a11" and square_name(3, 12) == "goal"


def test_sentences_read_well():
    ev = MatchEvent("roll", {"side": "home", "die": "pass", "face": "F3", "use": "attack", "tick": 4})
    assert sentence(ev) == (
        "%(player)s rolls the PASS die: forward %(n)s.",
        {"player": "home", "opponent": "away", "n": 3},
    )
    st = position((3, 9))
    events = play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("def", "MISS"), ("gk", "NOT_SAVED"))
    lines = [sentence(e) for e in events]
    text = [
        m % {k: (v.upper() if k in ("player", "opponent") else v) for k, v in p.items()} for m, p in lines
    ]
    assert text[:4] == [
        "HOME shoots: on target!",
        "The shot flies from c9 to c10.",
        "AWAY's defender rolls: missed.",
        "The shot flies from c10 to c11.",
    ]
    assert text[-2] == "GOAL for HOME! The keeper is beaten. 1–0."
    assert text[-1] == "AWAY kicks off."
