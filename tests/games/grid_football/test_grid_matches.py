"""Invariants over seeded random grid-football matches (Hypothesis, sized by tests/sweep.py), played through
the protocol (``decisions``/``apply`` with decision dicts, as a room does):

- at every step the state survives ``to_dict``/``from_dict`` through JSON and the restored copy plays on
  exactly like the original; every pending decision's default is among its choices and applies;
- the players on the pitch stand on distinct squares (only a fouler and his victim share one until the free
  kick is set up, and colliding midfielders until home moves its own, §3.5) and never more than eleven a
  side; the ball lies where the rules allow it;
- the clock moves exactly on counted '1's (a rerolled restart '1' never moves it), or counts rolls in the
  fixed-length variant; the score changes only with a goal event;
- every match ends with a result (a winner in a knock-out match), and the same seed and choices replay to
  the same final state;
- across a Champions Cup the suspensions follow the cards and injuries of the reports, and no suspended
  player is ever named.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from sweep import examples, size

from games.grid_football.bots import random_policy
from games.grid_football.competition import Record, after_match, match_points, unavailable
from games.grid_football.geometry import CORNERS, GOAL_OF, ON_BOARD, PITCH, SIDE
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import (
    P_NORMAL,
    P_SHOOTOUT,
    PH_COLLIDE,
    PH_SAVE,
    S_PITCH,
    S_UNAVAILABLE,
    GridState,
)
from games.rng import BlockRng, Rng

MAX_DECISIONS = 20_000
SET_PIECE_JOBS = {"r_free", "fk_place", "r_penalty"}


def check_position(s: GridState) -> None:
    """Pawns on distinct squares (a foul's pair excepted), at most eleven a side, the ball where it may be."""
    squares: dict[int, int] = {}
    for p, sq in enumerate(s.pos):
        assert (sq >= 0) == (s.status[p] == S_PITCH), (p, sq, s.status[p])
        if sq < 0:
            continue
        assert ON_BOARD[sq], sq
        assert GOAL_OF[sq] < 0 or s.keeper[GOAL_OF[sq]] == p, ("only a side's keeper on its goal squares", p)
        if sq in squares:
            other = squares[sq]
            # a fouler and his victim until the free kick is set up; colliding midfielders while home chooses
            shared = any(j[0] in SET_PIECE_JOBS for j in s.jobs) or s.phase == PH_COLLIDE
            assert shared and SIDE[other] != SIDE[p], ("two pawns on one square", p, other)
        squares[sq] = p
    for side in (0, 1):
        assert sum(1 for p in range(20 * side, 20 * side + 20) if s.pos[p] >= 0) <= 11
    b = s.ball
    if b >= 0:
        held = b in squares
        on_goal_in_a_shot = GOAL_OF[b] >= 0 and s.end == 1  # E_SHOT: the saves and the shot's interceptions
        assert PITCH[b] or held or b in CORNERS[0] + CORNERS[1] or on_goal_in_a_shot or s.phase == PH_SAVE, b


def check_clock(before: GridState, after: GridState, events: list[Any]) -> None:
    """The clock moves on counted '1's only (§15), and the score with goals only."""
    goals = [e for e in events if e.kind == "goal"]
    assert sum(after.score) - sum(before.score) == len(goals)
    if after.period != before.period or after.period == P_SHOOTOUT:
        return
    rolls = [e.data for e in events if e.kind == "roll"]
    counted = [r for r in rolls if r["counts"]]
    assert all(r["value"] == 1 for r in rolls if not r["counts"])  # only a '1' is rolled again uncounted
    if after.fixed:
        assert after.rolls - before.rolls == len(counted)
    else:
        assert after.ones - before.ones == sum(1 for r in counted if r["value"] == 1)


def play(seed: int, knockout: bool, options: dict[str, Any], check: bool = True) -> tuple[GridState, list]:
    """One seeded match between random bots through the protocol, checking every step."""
    state, events = FORMAT.start_with_events(grid_setup(knockout=knockout, **options), BlockRng(seed))
    rng = BlockRng(seed)
    bot = Rng(seed ^ 0x5EED)
    choices: list[tuple[str, dict]] = []
    for _ in range(MAX_DECISIONS):
        pending = FORMAT.decisions(state)
        if not pending:
            break
        stored = FORMAT.to_dict(state)
        if check:
            assert json.loads(json.dumps(stored)) == stored
            check_position(state)
            for d in pending:
                if d.choices:
                    assert d.default in d.choices, (d.kind, d.default)
                FORMAT.apply(FORMAT.from_dict(stored), d.side, d.default, BlockRng(*rng.state()))
        d = pending[bot.randbelow(len(pending))] if len(pending) > 1 else pending[0]
        choice = random_policy(FORMAT, state, d, bot)
        choices.append((d.side, choice))
        before = FORMAT.from_dict(stored)
        twin = FORMAT.from_dict(stored)
        twin_events = FORMAT.apply(twin, d.side, choice, BlockRng(*rng.state()))
        new = FORMAT.apply(state, d.side, choice, rng)
        assert [(e.kind, e.data, e.audience) for e in twin_events] == [
            (e.kind, e.data, e.audience) for e in new
        ]
        assert FORMAT.to_dict(twin) == FORMAT.to_dict(state)
        json.dumps([e.data for e in new])
        if check:
            check_clock(before, state, new)
        events += new
    else:
        raise AssertionError(f"seed {seed}: no result after {MAX_DECISIONS} decisions")
    result = FORMAT.result(state)
    assert result is not None and events[-1].kind == "full_time"
    if knockout:
        assert result.winner in ("home", "away")
        if result.decided_by == "penalties":
            assert result.penalties is not None and result.penalties[0] != result.penalties[1]
    else:
        assert result.decided_by == "regular" and (result.winner is None) == (
            state.score[0] == state.score[1]
        )
    # the same seed and the same choices replay to the same final state
    replay = FORMAT.start(grid_setup(knockout=knockout, **options), BlockRng(seed))
    replay_rng = BlockRng(seed)
    for side, choice in choices:
        FORMAT.apply(replay, side, choice, replay_rng)
    assert FORMAT.to_dict(replay) == FORMAT.to_dict(state)
    return state, events


@st.composite
def matches(draw: Any) -> dict[str, Any]:
    return {
        "seed": draw(st.integers(0, 2**40)),
        "knockout": draw(st.booleans()),
        "options": {
            "normal_ones": draw(st.sampled_from([1, 2, 3, 5])),
            "extra_ones": draw(st.sampled_from([1, 2])),
            "fixed_length": draw(st.sampled_from([False, False, True])),
            "fixed_rolls": draw(st.sampled_from([6, 15])),
            "shootout_kicks": draw(st.sampled_from([1, 3, 5])),
        },
    }


@settings(max_examples=examples(6), deadline=None)
@given(matches())
def test_random_matches_keep_every_invariant(m: dict[str, Any]) -> None:
    play(m["seed"], m["knockout"], m["options"])


def test_full_length_matches_end_and_replay() -> None:
    """Two whole matches of the rules' length (16 counting '1's, extra time, the shoot-out)."""
    for seed, knockout in ((11, False), (12, True)):
        state, _events = play(seed, knockout, {}, check=False)
        assert state.period == P_NORMAL or knockout


CUPS = range(size(ci=1, soak=40))


def test_a_champions_cup_carries_cards_and_injuries() -> None:
    """Short matches in a row between two squads: the suspensions follow the reports (§16), a suspended
    player is never named, and a sent-off player misses the next two matches at least."""
    for cup in CUPS:
        books: dict[str, dict[int, Record]] = {"home": {}, "away": {}}
        history: list[dict[str, dict[int, dict[str, Any]]]] = []
        for match in range(size(ci=6, soak=12)):
            seed = 1000 * cup + match
            options = {"normal_ones": 3, "unavailable": {s: unavailable(books[s]) for s in books}}
            state, _events = play(seed, True, options, check=False)
            report = FORMAT.report(state)
            for side in ("home", "away"):
                base = 20 * ("home", "away").index(side)
                for n in options["unavailable"][side]:
                    assert state.status[base + n - 1] == S_UNAVAILABLE  # never named, never came on
                for earlier, past in enumerate(history[-2:]):
                    for n, line in past[side].items():
                        if line["red"] or line["yellow"] >= 2 or line["injured_out"]:
                            assert n in options["unavailable"][side], (cup, match, earlier, n)
                books[side] = after_match(books[side], report[side])
            assert sum(match_points(FORMAT.result(state)).values()) == 5
            history.append(report)
