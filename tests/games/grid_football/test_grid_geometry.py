"""The board of §2 (A-1, GF-1) as the tables hold it, and the square notation."""

from __future__ import annotations

from games.grid_football import geometry as g


def test_the_board_has_the_proposed_squares() -> None:
    pitch = [s for s in range(g.NSQ) if g.PITCH[s]]
    outside = [s for s in range(g.NSQ) if g.OUTSIDE[s]]
    backline = [s for s in range(g.NSQ) if g.BACKLINE[s]]
    assert len(pitch) == 10 * 15 and len(outside) == 2 * 15 and len(backline) == 2 * 10
    assert not g.ON_BOARD[g.sq(0, 0)] and not g.ON_BOARD[g.sq(11, 16)]  # GF-1: no outer corner squares
    assert [g.name(s) for s in g.GOALS[0]] == ["5,0", "6,0"] and [g.name(s) for s in g.GOALS[1]] == [
        "5,16",
        "6,16",
    ]
    assert sum(1 for s in range(g.NSQ) if g.AREA_OF[s] == 0) == 18  # x 3..8, rows 1..3
    assert sum(1 for s in range(g.NSQ) if g.GOAL_AREA_OF[s] == 1) == 4  # x 4..7, row 15
    assert g.PENALTY_SPOTS[0] == (g.sq(5, 2), g.sq(6, 2))
    assert g.row(g.sq(3, 15), 1) == 1 and g.row(g.sq(3, 15), 0) == 15  # rows are counted from each end
    assert g.HALF[g.sq(4, 7)] == 0 and g.HALF[g.sq(4, 8)] == -1 and g.HALF[g.sq(4, 9)] == 1


def test_the_ball_moves_in_eight_directions_players_in_four() -> None:
    centre = g.sq(5, 8)
    assert sorted(g.name(g.STEP[d][centre]) for d in range(8)) == sorted(
        ["5,9", "6,9", "6,8", "6,7", "5,7", "4,7", "4,8", "4,9"]
    )
    assert len(g.N4[centre]) == 4 and len(g.N8[centre]) == 8
    assert g.STEP[5][g.sq(1, 1)] == -1  # south-west of (1,1) there is no square
    assert g.STEP[6][g.sq(1, 6)] == g.sq(0, 6)  # west of (1,6): the outside square of a throw-in


def test_square_names_round_trip_and_refuse_what_is_not_a_square() -> None:
    for s in range(g.NSQ):
        if g.ON_BOARD[s]:
            assert g.parse_square(g.name(s)) == s
    for bad in ("0,0", "12,5", "5,17", "5", "a,b", "5,-1", " 5,8", 58, None):
        assert g.parse_square(bad) is None


def test_squad_numbers_give_the_kinds_of_section_1() -> None:
    assert [g.kind_of(n) for n in (1, 20)] == [g.KEEPER, g.KEEPER]
    assert {g.kind_of(n) for n in range(2, 8)} == {g.DEFENDER}
    assert {g.kind_of(n) for n in range(8, 14)} == {g.MIDFIELDER}
    assert {g.kind_of(n) for n in range(14, 20)} == {g.ATTACKER}
    assert g.pawn(1, 8) == 27 and g.NUMBER[27] == 8 and g.SIDE[27] == 1
