"""The board of ruling X-1 (§2): squares, colours, zones, start squares and the mirror map."""

from __future__ import annotations

from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT, chess_setup
from games.chess_football.state import clone
from games.rng import Rng


def names(squares) -> set[str]:
    return {g.name(s) for s in squares}


def test_the_board_is_nine_by_thirteen_with_goals_outside():
    assert len(g.GRID) == 9 * 13
    assert names(g.GOALS[0]) == {"d0", "e0", "f0"} and names(g.GOALS[1]) == {"d14", "e14", "f14"}
    assert sum(g.ON_BOARD) == 117 + 6


def test_zones_have_the_proposed_sizes():
    for side in (0, 1):
        assert len(g.RED[side]) == 3
        assert len(g.CIRCLED[side]) == 12
        assert len(g.YELLOW[side]) == 15
        assert len(g.ZONE[side]) == 18
        assert g.CIRCLED[side] & g.YELLOW[side]  # circled yellow squares exist (§2)
    assert names(g.RED[0]) == {"d1", "e1", "f1"}


def test_the_mirror_map_swaps_the_teams_and_keeps_colours():
    for s in g.GRID:
        m = g.mirror(s)
        assert g.mirror(m) == s and g.LIGHT_SQ[m] == g.LIGHT_SQ[s]
    for zone in (g.RED, g.CIRCLED, g.YELLOW, g.GOALS, g.ZONE):
        assert {g.mirror(s) for s in zone[0]} == zone[1]
    for p in range(10):
        assert g.START[10 + p] == g.mirror(g.START[p])


def test_start_squares_match_the_kinds_colours():
    for p, s in enumerate(g.START):
        if g.KIND[p] == g.LIGHT:
            assert g.LIGHT_SQ[s]
        if g.KIND[p] == g.DARK:
            assert not g.LIGHT_SQ[s]
    assert g.name(g.START[0]) == "e0" and g.name(g.START[1]) == "e5" and g.LIGHT_SQ[g.CENTRE]


def test_square_names_round_trip():
    for s in range(g.NSQ):
        if g.ON_BOARD[s]:
            assert g.parse_square(g.name(s)) == s
    assert g.parse_square("a0") is None and g.parse_square("j5") is None and g.parse_square("e15") is None


def test_the_state_round_trips_and_clones_independently():
    st = FORMAT.start(chess_setup(knockout=True, toss="away"), Rng(3))
    data = FORMAT.to_dict(st)
    assert FORMAT.to_dict(FORMAT.from_dict(data)) == data
    c = clone(st)
    c.pos[3] = 44
    c.score[0] = 5
    assert st.pos[3] != 44 and st.score[0] == 0
    assert st.turn == 1 and st.pos[11] == g.CENTRE and st.ball == g.CENTRE  # the away captain kicks off
