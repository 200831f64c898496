"""Bad decisions get the right error with a stable code and a sentence saying why, and change nothing."""

from __future__ import annotations

import pytest
from chess_helpers import position, refused

from games.api import IllegalDecision, MalformedDecision, MatchError, NotYourDecision
from games.chess_football.rules import FORMAT, InvalidSetup, chess_setup
from games.rng import Rng


def refuse(st, side, choice, error) -> str:
    before = FORMAT.to_dict(st)
    with pytest.raises(error) as info:
        FORMAT.apply(st, side, choice, Rng(0))
    assert FORMAT.to_dict(st) == before
    assert isinstance(info.value, MatchError) and info.value.code == error.code
    return str(info.value)


def start():
    return FORMAT.start(chess_setup(toss="home"), Rng(0))


def test_the_wrong_side_is_refused():
    assert "home's move" in refuse(start(), "away", {"kind": "move", "move": "Ke14-e13"}, NotYourDecision)


@pytest.mark.parametrize("side", ["north", None, 0, "HOME"])
def test_an_unknown_side_is_malformed(side):
    refuse(start(), side, {"kind": "move", "move": "Ke0-e1"}, MalformedDecision)


@pytest.mark.parametrize(
    "choice",
    [
        None,
        "Ke0-e1",
        {},
        {"kind": 3},
        {"kind": "dance"},
        {"kind": "move"},
        {"kind": "move", "move": 5},
        {"kind": "move", "move": "Ke0-e1", "extra": 1},
        {"kind": "move", "move": "knight to e4"},
        {"kind": "move", "move": "Qe0-e1"},
        {"kind": "move", "move": ""},
        {"kind": "cover"},
        {"kind": "penalty", "aim": 4},
    ],
)
def test_malformed_choices_are_refused(choice):
    refuse(start(), "home", choice, MalformedDecision)


@pytest.mark.parametrize(
    ("move", "why"),
    [
        ("Ke0-e2", "cannot reach"),
        ("Ke0-a1", "keeper zone"),
        ("Ke0-d4", "keeper zone"),
        ("Db3-b4", "own colour"),
        ("Lc5-c6", "own colour"),
        ("Lc5-c7", "cannot reach"),
        ("Ce7-e8", "cannot move itself"),
        ("Lz5-c6", "not a move in our notation"),
        ("La5-a15", "not on the board"),
        ("Db3-d1", "red or a goal square"),
        ("Le9-e8", "you have no piece on e9"),
        ("Dc5-d6", "light piece (L), not D"),
        ("e7>e9", "opponent occupies"),
        ("e7>e12", "1 to 4 squares"),
        ("concede", "no red-square obligation"),
        ("forfeit", "none of your pieces is offside"),
        ("pass", "no legal move"),
        ("+L1a5", "not in your admonition box"),
        ("Ke0-d1>e5", "only for a ball on your red square"),
        ("e5=e4;Ke0-e1", "no offside offender"),
    ],
)
def test_illegal_moves_say_why(move, why):
    st = start()
    message = refused(st, move, error=MalformedDecision if "notation" in why else IllegalDecision)
    assert why in message, message


def test_a_penalty_choice_in_play_is_refused():
    assert "it is a move" in refuse(start(), "home", {"kind": "cover", "square": "e0"}, IllegalDecision)


def test_bad_penalty_choices_are_refused():
    st = position({"S": ["Kf0", "Lc5"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    FORMAT.apply(st, "away", {"kind": "move", "move": "d4>d1"}, Rng(0))
    FORMAT.apply(st, "home", {"kind": "move", "move": "concede"}, Rng(0))
    refuse(st, "home", {"kind": "cover", "square": "e14"}, IllegalDecision)
    refuse(st, "away", {"kind": "penalty", "aim": "e0", "taker": "D1"}, IllegalDecision)  # no dark taker
    refuse(st, "home", {"kind": "penalty", "aim": "e0"}, IllegalDecision)  # the keeper's side covers
    refuse(st, "home", {"kind": "move", "move": "Lc5-d6"}, IllegalDecision)


def test_a_finished_match_takes_no_decision():
    st = start()
    st.phase = 2
    refuse(st, "home", {"kind": "move", "move": "Ke0-e1"}, NotYourDecision)


@pytest.mark.parametrize(
    "options",
    [{"half_moves": 0}, {"half_moves": "40"}, {"half_moves": True}, {"toss": "north"}, {"speed": 1}],
)
def test_bad_options_are_refused(options):
    with pytest.raises(InvalidSetup):
        FORMAT.start(chess_setup(**options), Rng(0))


@pytest.mark.parametrize("data", [None, {}, {"format": "chess-football"}, {"format": "dice-football"}])
def test_a_bad_stored_state_is_refused(data):
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict(data)


def test_another_goal_square_is_the_same_goal():
    st = position({"S": ["Ce11"], "N": ["Kc13"]}, ball="e11")
    goals = [m for m in FORMAT.decisions(st)[0].choices if m["move"].endswith("14")]
    assert len(goals) == 1  # one move for the three goal squares
    FORMAT.apply(st, "home", {"kind": "move", "move": "e11>f14"}, Rng(0))
    assert st.score == [1, 0]
