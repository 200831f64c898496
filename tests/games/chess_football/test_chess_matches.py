"""Seeded random matches to the end, the hidden penalty choice, and the match-level rulings
(half time X-40, penalty save X-32/X-33, shoot-out §13, re-entry X-38)."""

from __future__ import annotations

import json

import pytest
import sweep
from chess_helpers import moves, play, position, sq

from games.api import MatchEvent, NotYourDecision
from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT, chess_setup
from games.chess_football.state import P_SHOOTOUT, PH_PENALTY, PH_PLAY, ChessState
from games.rng import Rng


def random_policy(decision, rng: Rng) -> dict:
    """The trivial bot the tests need: a uniformly random legal choice."""
    return decision.choices[rng.randbelow(len(decision.choices))]


def run(seed: int, knockout: bool, **options) -> tuple[ChessState, list[MatchEvent]]:
    """One random match, checking the round trip and every default at every step."""
    state, events = FORMAT.start_with_events(chess_setup(knockout=knockout, **options), Rng(seed))
    rng = Rng(seed ^ 0x5EED)
    for _ in range(20_000):
        pending = FORMAT.decisions(state)
        if not pending:
            break
        stored = FORMAT.to_dict(state)
        assert json.loads(json.dumps(stored)) == stored
        restored = FORMAT.from_dict(stored)
        assert FORMAT.to_dict(restored) == stored
        for d in pending:
            assert d.default in d.choices
            trial = FORMAT.from_dict(stored)
            FORMAT.apply(trial, d.side, d.default, Rng(0))
        decision = pending[rng.randbelow(len(pending))]
        choice = random_policy(decision, rng)
        new = FORMAT.apply(state, decision.side, choice, Rng(0))
        twin = FORMAT.apply(restored, decision.side, choice, Rng(0))
        assert twin == new and FORMAT.to_dict(restored) == FORMAT.to_dict(state)
        json.dumps([e.data for e in new])
        events += new
    else:
        pytest.fail("no result")
    return state, events


SEEDS = range(sweep.size(ci=4, soak=60))


@pytest.mark.parametrize("seed", SEEDS)
def test_random_friendly_matches_end_with_a_result(seed: int) -> None:
    state, events = run(seed, False, half_moves=12)
    result = FORMAT.result(state)
    assert result is not None and result.decided_by == "regular"
    assert result.winner is None if state.score[0] == state.score[1] else result.winner is not None
    assert events[-1].kind == "full_time"


@pytest.mark.parametrize("seed", SEEDS)
def test_random_knockout_matches_end_with_a_winner(seed: int) -> None:
    state, events = run(seed, True, half_moves=6, extra_time_moves=2, shootout_kicks=3)
    result = FORMAT.result(state)
    assert result is not None and result.winner in ("home", "away")
    if result.decided_by == "penalties":
        assert result.penalties is not None and result.penalties[0] != result.penalties[1]
        assert any(e.kind == "shootout_kick" for e in events)


def test_a_level_knockout_goes_through_extra_time_to_the_shootout():
    state, events = run(1, True, half_moves=1, extra_time_moves=1, shootout_kicks=2)
    kinds = [e.kind for e in events]
    periods = [e.data["period"] for e in events if e.kind == "period_end"]
    assert periods == [1, 2, 3, 4] and "shootout" in kinds
    assert FORMAT.result(state).decided_by == "penalties"


def test_half_time_after_the_last_move_whatever_is_pending():
    st = position({"S": ["Kf0", "Lc5"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away", half_moves=1)
    st.plies = 0
    play(st, "d4>d1")  # move 1 of N: S is obliged on the red square ...
    assert st.red == sq("d1")
    play(st, "concede")  # ... the 2nd move ends the half: the penalty lapses
    assert st.period == 2 and st.phase == PH_PLAY and st.plies == 0
    assert st.turn == 1 and st.ball == g.CENTRE and st.pos[11] == g.CENTRE  # the other side kicks off


def penalty_state() -> ChessState:
    st = position({"S": ["Kf0", "Lc5", "Dd3", "Ca6"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    play(st, "d4>d1")
    play(st, "concede")
    return st


def test_the_penalty_choices_are_hidden_until_both_are_made():
    st = penalty_state()
    sides = {d.side for d in FORMAT.decisions(st)}
    assert sides == {"home", "away"}  # both pending at once
    events = FORMAT.apply(st, "away", {"kind": "penalty", "aim": "d0", "taker": "C"}, Rng(0))
    assert all(e.audience == "away" for e in events if "choice" in e.data)
    assert FORMAT.view(st, "home")["penalty"] == {
        "kicker": "away",
        "chosen": {"home": False, "away": True},
        "mine": None,
    }
    assert "d0" not in json.dumps(FORMAT.view(st, "home")) and "d0" not in json.dumps(FORMAT.view(st, None))
    assert FORMAT.view(st, "away")["penalty"]["mine"] == {"kind": "penalty", "aim": "d0", "taker": "C"}
    assert FORMAT.view(st, None, reveal_all=True)["penalty"]["choices"][1]["aim"] == "d0"
    assert [d.side for d in FORMAT.decisions(st)] == ["home"]
    with pytest.raises(NotYourDecision):
        FORMAT.apply(st, "away", {"kind": "penalty", "aim": "e0", "taker": "C"}, Rng(0))
    events = FORMAT.apply(st, "home", {"kind": "cover", "square": "d0"}, Rng(0))
    pen = next(e for e in events if e.kind == "penalty")
    assert pen.data == {"side": "away", "aim": "d0", "cover": "d0", "scored": False, "taker": "C"}
    # saved: the keeper holds on the covered square, fresh; the taker on the spot; S moves
    assert st.pos[0] == sq("d0") and st.ball == sq("d0") and st.fresh and st.turn == 0
    assert st.pos[11] == g.PENALTY_SPOT[0] and st.pos[16] == g.START[16]
    assert st.score == [0, 0]


def test_a_penalty_scores_when_the_keeper_covers_another_square():
    st = penalty_state()
    FORMAT.apply(st, "home", {"kind": "cover", "square": "e0"}, Rng(0))
    FORMAT.apply(st, "away", {"kind": "penalty", "aim": "f0", "taker": "L1"}, Rng(0))
    assert st.score == [0, 1] and st.turn == 0 and st.pos[1] == g.CENTRE  # S conceded, S kicks off


def test_no_taker_gives_the_keeper_the_ball():
    st = position({"S": ["Kf0", "Lc5"], "N": ["Dd4"]}, ball="d4", turn="away")
    play(st, "d4>d1")
    events = play(st, "concede")
    assert "penalty_void" in [e.kind for e in events]
    assert st.phase == PH_PLAY and st.pos[0] == g.GOAL_MIDDLE[0] and st.ball == g.GOAL_MIDDLE[0]
    assert st.turn == 0


def test_the_shootout_stops_when_one_side_cannot_catch_up():
    st = FORMAT.start(chess_setup(knockout=True, half_moves=1, extra_time_moves=0, shootout_kicks=3), Rng(2))
    for _ in range(4):
        d = FORMAT.decisions(st)[0]
        FORMAT.apply(st, d.side, d.default, Rng(0))
    assert st.period == P_SHOOTOUT and st.phase == PH_PENALTY
    first = st.pen_side
    kicks = 0
    while FORMAT.decisions(st):  # the first kicking side always scores, the other never
        kicker = st.pen_side
        goal = sorted(g.GOALS[1 - kicker])
        FORMAT.apply(st, ("home", "away")[kicker], {"kind": "penalty", "aim": g.name(goal[0])}, Rng(0))
        cover = goal[1] if kicker == first else goal[0]
        FORMAT.apply(st, ("home", "away")[1 - kicker], {"kind": "cover", "square": g.name(cover)}, Rng(0))
        kicks += 1
    result = FORMAT.result(st)
    assert kicks == 4 and result is not None and result.winner == ("home", "away")[first]
    assert result.penalties in ((2, 0), (0, 2)) and result.decided_by == "penalties"


def test_reentry_goes_to_the_nearest_free_square_of_its_colour():
    st = position({"S": ["Lc5", "Db3"], "N": ["Lg9"]}, ball="i13")
    st.pos[7] = -1  # L2 (start c5, taken by L1) in the box
    st.pos[6] = sq("c5")
    reentries = [m for m in moves(st) if m.startswith("+")]
    assert reentries == ["+L2b4"]  # distance 2 ties b4/b6/d4/d6: nearer its goal line, then its left
    play(st, "+L2b4")
    assert st.cards == [1, 0] and st.pos[7] == sq("b4")
