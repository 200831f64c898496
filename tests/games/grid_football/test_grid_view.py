"""What each side sees (GF-30): the whole match but the other side's line-up while it is still secret, and
always JSON."""

from __future__ import annotations

import json

from grid_helpers import Dice

from games.grid_football.rules import FORMAT, grid_setup

LINEUP = {"kind": "lineup", "players": [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]}


def test_nothing_home_sees_depends_on_away_s_secret_line_up() -> None:
    seen = []
    for players in ([20, 2, 3, 6, 7, 8, 9, 12, 13, 16, 17], [1, 2, 3, 4, 5, 8, 9, 10, 11, 14, 15]):
        st = FORMAT.start(grid_setup(), Dice())
        FORMAT.apply(st, "away", {**LINEUP, "players": players, "keeper_column": 6}, Dice())
        seen.append(
            (FORMAT.view(st, "home"), FORMAT.view(st, None), [d.options for d in FORMAT.decisions(st)])
        )
    assert seen[0] == seen[1]


def test_a_line_up_stays_secret_until_both_are_in() -> None:
    st = FORMAT.start(grid_setup(), Dice())
    events = FORMAT.apply(st, "away", {**LINEUP, "players": [20, 2, 3, 6, 7, 8, 9, 12, 13, 16, 17]}, Dice())
    assert {e.audience for e in events if e.kind == "lineup"} == {"away"}  # only away hears its own
    for viewer in ("home", None):
        seen = FORMAT.view(st, viewer)
        assert seen["lineups"]["away"] == {"chosen": True, "players": None}
        assert "17" not in json.dumps(seen["lineups"])
    assert FORMAT.view(st, "away")["lineups"]["away"]["players"] == [20, 2, 3, 6, 7, 8, 9, 12, 13, 16, 17]
    home = {"kind": "lineup", "players": [1, 2, 3, 4, 5, 8, 9, 10, 14, 15, 16], "centre": [5, 6, 5]}
    FORMAT.apply(st, "home", home, Dice(5, 3))  # 4-3-3 against 4-4-2: no collision; away kicks off
    assert FORMAT.view(st, "home")["lineups"]["away"]["players"][0] == 20  # both in: public
    view = FORMAT.view(st, None)
    assert json.loads(json.dumps(view)) == view
    assert view["ball"] == "5,8" and view["keepers"] == {"home": 1, "away": 20}
    pitch = [p for p in view["squads"]["home"] if p["status"] == "pitch"]
    assert len(pitch) == 11 and all(p["square"] for p in pitch)


def test_the_report_lists_cards_and_injuries_for_the_cup() -> None:
    st = FORMAT.start(grid_setup(), Dice())
    st.yellow[15] = 2
    st.red[15] = 1
    st.bandage[27] = 1
    assert FORMAT.report(st) == {
        "home": {16: {"yellow": 2, "red": True, "injuries": 0, "injured_out": False}},
        "away": {8: {"yellow": 0, "red": False, "injuries": 1, "injured_out": False}},
    }
