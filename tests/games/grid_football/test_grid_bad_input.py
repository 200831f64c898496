"""Bad input gets a typed error with a message that says what is wrong, and changes nothing: a player who is
not on the pitch, a walk longer than the roll, a suspended player or a twelfth pawn in the line-up, a target
the rules do not allow, and decisions of the wrong shape, side or moment."""

from __future__ import annotations

import pytest
from grid_helpers import AWAY, HOME, Dice, kick_from, position, refused, turn, walk

from games.api import IllegalDecision, MalformedDecision, NotYourDecision
from games.grid_football.rules import FORMAT, InvalidSetup, grid_setup
from games.grid_football.state import PH_OVER

DEEP = {1: (5, 16), 2: (1, 14)}
LINEUP = [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]


def walking() -> object:
    st = position({1: (5, 0), 9: (2, 5), 10: (6, 6)}, DEEP, ball=(8, 9), dugout={HOME: [15], AWAY: []})
    turn(st, 3)
    return st


def test_a_player_who_is_not_on_the_pitch_cannot_walk() -> None:
    st = walking()
    assert "player 15 is not on the pitch" in refused(st, walk(15, 3, 5), error=IllegalDecision)
    assert "player 12 is not on the pitch" in refused(st, walk(12, 3, 5), error=IllegalDecision)


def test_a_walk_longer_than_the_roll_is_refused() -> None:
    st = walking()
    message = refused(st, walk(9, 2, 10), error=IllegalDecision)
    assert "longer than the roll of 3" in message


@pytest.mark.parametrize(
    ("player", "to", "why"),
    [
        (9, (6, 6), "is taken"),  # a team-mate stands there (§6 A)
        (10, (6, 0), "may not stand"),  # a goal square is his keeper's only (§12.2)
        (9, (4, 5), "cannot end a walk of exactly 3"),  # two steps away: no walk of three ends there
    ],
)
def test_a_walk_to_a_square_the_rules_do_not_allow_is_refused(
    player: int, to: tuple[int, int], why: str
) -> None:
    st = walking()
    assert why in refused(st, walk(player, *to), error=IllegalDecision)


def test_a_kick_along_a_path_the_ball_cannot_take_is_refused() -> None:
    st = position({1: (5, 0), 9: (4, 6)}, {**DEEP, 14: (5, 7)}, ball=(4, 6))
    kick_from(st, HOME, 9, 2)
    assert "cannot take that path" in refused(st, {"kind": "kick", "path": "5,7>6,8"}, error=IllegalDecision)
    assert "cannot take that path" in refused(
        st, {"kind": "kick", "path": "4,7>4,8>4,9"}, error=IllegalDecision
    )
    assert "'x,y'" in refused(st, {"kind": "kick", "path": "4,7>nowhere"}, error=MalformedDecision)


def test_line_ups_refuse_a_twelfth_pawn_a_suspended_player_and_odd_lines() -> None:
    st = FORMAT.start(grid_setup(unavailable={"home": [9], "away": []}), Dice())
    twelve = {"kind": "lineup", "players": [*LINEUP, 16]}
    assert "twelfth pawn" in refused(st, twelve, side="home", error=IllegalDecision)
    message = refused(st, {"kind": "lineup", "players": LINEUP}, side="home", error=IllegalDecision)
    assert "player 9 is suspended or injured" in message
    two_keepers = [1, 20, 2, 3, 4, 8, 9, 10, 11, 14, 15]
    assert "exactly one keeper" in refused(st, {"kind": "lineup", "players": two_keepers}, side="away")
    five_back = [1, 2, 3, 4, 5, 6, 8, 9, 10, 14, 15]
    assert "2, 3 or 4" in refused(st, {"kind": "lineup", "players": five_back}, side="away")
    twice = [1, 2, 2, 4, 5, 8, 9, 10, 11, 14, 15]
    assert "twice" in refused(st, {"kind": "lineup", "players": twice}, side="away")
    assert "squad of 20" in refused(st, {"kind": "lineup", "players": [*LINEUP[:-1], 21]}, side="away")
    bad_column = {"kind": "lineup", "players": LINEUP, "keeper_column": 7}
    assert "keeper_column" in refused(st, bad_column, side="away", error=MalformedDecision)
    # the same line-up without the suspended player is fine, and the side cannot choose twice
    FORMAT.apply(st, "home", {"kind": "lineup", "players": [*LINEUP[:6], 12, *LINEUP[7:]]}, Dice())
    assert "already chosen" in refused(
        st, {"kind": "lineup", "players": LINEUP}, side="home", error=NotYourDecision
    )


@pytest.mark.parametrize(
    ("choice", "error", "why"),
    [
        ("walk", MalformedDecision, "a dict"),
        ({"kind": 5}, MalformedDecision, "a dict"),
        ({"kind": "dance"}, MalformedDecision, "unknown decision kind"),
        ({"kind": "walk", "player": 9}, MalformedDecision, "has the keys"),
        ({"kind": "walk", "player": 9, "to": "3,5", "speed": 2}, MalformedDecision, "has the keys"),
        ({"kind": "walk", "player": "9", "to": "3,5"}, MalformedDecision, "squad number"),
        ({"kind": "walk", "player": True, "to": "3,5"}, MalformedDecision, "squad number"),
        ({"kind": "walk", "player": 9, "to": "13,5"}, MalformedDecision, "square of the board"),
        ({"kind": "walk", "player": 25, "to": "3,5"}, IllegalDecision, "no player 25"),
        ({"kind": "kick", "path": "3,5"}, IllegalDecision, "not asked now"),
        ({"kind": "save", "square": "5,0"}, IllegalDecision, "not asked now"),
    ],
)
def test_malformed_and_misplaced_decisions(choice: object, error: type, why: str) -> None:
    st = walking()
    assert why in refused(st, choice, error=error)


def test_only_the_side_with_a_decision_may_decide() -> None:
    st = walking()
    assert "home's decision" in refused(st, walk(2, 1, 13), side="away", error=NotYourDecision)
    with pytest.raises(MalformedDecision):
        FORMAT.apply(st, "referee", walk(9, 2, 8), Dice())  # type: ignore[arg-type]
    st.phase = PH_OVER
    assert "over" in refused(st, walk(9, 2, 8), side="home", error=NotYourDecision)


def test_bad_setups_and_stored_states_are_refused() -> None:
    with pytest.raises(InvalidSetup):
        FORMAT.start(grid_setup(sudden_death=True), Dice())
    with pytest.raises(InvalidSetup):
        FORMAT.start(grid_setup(fixed_length="yes"), Dice())
    with pytest.raises(InvalidSetup):
        FORMAT.start(grid_setup(unavailable={"home": [1, 20]}), Dice())  # no keeper left to name
    stored = FORMAT.to_dict(walking())
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict({**stored, "format": "chess-football"})
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict({**stored, "pos": [0] * 39})
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict({**stored, "jobs": [["roll", "x"]]})
    broken = dict(stored)
    del broken["ball"]
    with pytest.raises(MalformedDecision):
        FORMAT.from_dict(broken)
