"""Invariants over many random dice-football matches (Hypothesis, sized by tests/sweep.py).

Every match ends; every decision lists its default among its legal choices and the default applies; the
stored state round-trips through JSON at every step and continues identically; the ball is always on the
pitch (a path leaves it only in its last square, off the pitch or into a goal); the score changes only by
goal events; the events alone tell where the ball is; the clock runs forward; no viewer's projection shows
another side's pending choices; every event has a log sentence whose params fill it.
"""

from __future__ import annotations

import json

from dice_helpers import FMT
from hypothesis import given, settings
from hypothesis import strategies as st
from sweep import examples, size

from games.dice_football.bots import get_policy, play_match
from games.dice_football.rules import dice_setup
from games.dice_football.sentences import SIDE_PARAMS, sentence
from games.dice_football.state import clone
from games.rng import Rng

POLICIES = ["random", "random", "easy", "strong", "default"]
MAX_DECISIONS = 20_000


@st.composite
def matches(draw):
    return {
        "seed": draw(st.integers(0, 2**40)),
        "knockout": draw(st.booleans()),
        "options": {
            "half_ticks": draw(st.sampled_from([60, 40, 12, 3, 1])),
            "extra_time_ticks": draw(st.sampled_from([0, 0, 4])),
            "boskov": draw(st.booleans()),
        },
        "policies": (draw(st.sampled_from(POLICIES)), draw(st.sampled_from(POLICIES))),
    }


def on_board(sq):
    return 1 <= sq[0] <= 5 and 1 <= sq[1] <= 11


def check_events(events, score):
    """Paths, goals and the clock in one apply's events; returns the score they account for."""
    score = list(score)
    for e in events:
        json.dumps(e.data)
        d = e.data
        if e.kind in ("move", "goal") and "path" in d:
            path = d["path"]
            assert all(on_board(sq) for sq in path[:-1]), path
            if e.kind == "goal" or "exit" in d:
                last = path[-1]
                assert not on_board(last) and 0 <= last[0] <= 6 and 0 <= last[1] <= 12, path
                if d.get("exit") == "own_goal" or e.kind == "goal":
                    assert last[0] == 3 and last[1] in (0, 12), path
            else:
                assert on_board(path[-1]), path
        if e.kind == "goal":
            score[0 if d["side"] == "home" else 1] += 1
            assert d["score"] == score
        msgid, params = sentence(e)
        filled = {k: (f"<{v}>" if k in SIDE_PARAMS else v) for k, v in params.items()}
        assert "%(" not in msgid % filled
    return score


def follow_ball(events, square):
    """Where the events alone put the ball (what an animation shows), starting from ``square``."""
    for e in events:
        d = e.data
        if e.kind == "move":  # off the pitch it is shown where it left until it is placed again
            square = d["path"][-2] if "exit" in d else d["path"][-1]
        elif e.kind in ("restart", "ball_placed", "possession", "no_penalty", "kickoff") and d.get("square"):
            square = d["square"]
    return square


def check_views(state, decision):
    for viewer in ("home", "away", None):
        v = FMT.view(state, viewer)
        json.dumps(v)
        assert v["star"]["face"]  # public by the rules (DF-3)
        if decision is not None and viewer == decision.side:
            assert v["decision"]["choices"] == list(decision.choices)
        else:
            assert v["decision"] is None
    full = FMT.view(state, None, reveal_all=True)
    if decision is not None:
        assert full["decision"]["choices"] == list(decision.choices)


def run_checked(case):
    rng = Rng(case["seed"])
    brng = Rng(case["seed"] + 1)
    setup = dice_setup(knockout=case["knockout"], **case["options"])
    state, events = FMT.start_with_events(setup, rng)
    pols = {"home": get_policy(case["policies"][0]), "away": get_policy(case["policies"][1])}
    score = check_events(events, [0, 0])
    clock = (state.period, state.ticks)
    seen = follow_ball(events, None)
    for _ in range(MAX_DECISIONS):
        pending = FMT.decisions(state)
        assert 1 <= state.bx <= 5 and 1 <= state.by <= 11
        if not pending:
            break
        (d,) = pending
        assert d.default in d.choices
        assert len({json.dumps(c, sort_keys=True) for c in d.choices}) == len(d.choices)
        check_views(state, d)
        data = FMT.to_dict(state)
        restored = FMT.from_dict(json.loads(json.dumps(data)))
        assert restored == state
        trial = clone(state)
        FMT.apply(trial, d.side, d.default, Rng(*rng.state()))  # the default is legal
        choice = pols[d.side](FMT, state, d, brng)
        assert choice in d.choices
        ev = FMT.apply(state, d.side, choice, rng)
        score = check_events(ev, score)
        seen = follow_ball(ev, seen)
        if state.phase != 5:  # the match is not over: the events told where the ball is
            assert seen == FMT.view(state, None)["ball"], ev
        assert state.score == score
        now = (state.period, state.ticks)
        assert now >= clock or now[0] > clock[0]
        clock = now
    else:
        raise AssertionError("the match did not end")
    result = FMT.result(state)
    assert result is not None and result.score == tuple(score)
    if case["knockout"]:
        assert result.winner in ("home", "away")
    elif result.winner is None:
        assert score[0] == score[1] and result.decided_by == "regular"
    assert result.used == {"home": (), "away": ()} and result.extra_time_dealt == ()
    check_views(state, None)
    return state


@settings(max_examples=examples(30))
@given(matches())
def test_random_matches_keep_every_invariant(case):
    run_checked(case)


@settings(max_examples=examples(12))
@given(matches(), st.integers(0, 200))
def test_a_stored_state_continues_exactly_like_the_original(case, stop_at):
    setup = dice_setup(knockout=case["knockout"], **case["options"])
    pols = [get_policy(p) for p in case["policies"]]

    def finish(state, rng, brng):
        events = []
        while pending := FMT.decisions(state):
            d = pending[0]
            events += FMT.apply(state, d.side, pols[d.side == "away"](FMT, state, d, brng), rng)
        return events

    rng, brng = Rng(case["seed"]), Rng(case["seed"] ^ 5)
    state = FMT.start(setup, rng)
    for _ in range(stop_at):
        pending = FMT.decisions(state)
        if not pending:
            break
        d = pending[0]
        FMT.apply(state, d.side, pols[d.side == "away"](FMT, state, d, brng), rng)
    stored, at, bat = json.dumps(FMT.to_dict(state)), rng.state(), brng.state()
    original = finish(state, rng, brng)
    copy = FMT.from_dict(json.loads(stored))
    again = finish(copy, Rng(*at), Rng(*bat))
    assert again == original and copy == state


def test_the_fast_path_plays_the_same_match_as_the_decision_loop():
    for seed in range(size(ci=20, soak=300)):
        setup = dice_setup(knockout=seed % 2 == 0)
        st1, ev1 = play_match(FMT, setup, Rng(seed), "random", "random", bot_rng=Rng(seed + 9))
        rng, brng = Rng(seed), Rng(seed + 9)
        st2, ev2 = FMT.start_with_events(setup, rng)
        while legal := FMT.legal_actions(st2):
            pick = legal[brng.randbelow(len(legal))] if len(legal) > 1 else legal[0]
            ev2 += FMT.apply_action(st2, pick, rng)
        assert ev1 == ev2 and st1 == st2


def test_matches_replay_exactly_from_their_seed():
    for seed in range(size(ci=5, soak=50)):
        a = play_match(FMT, dice_setup(), Rng(seed), "strong", "easy")
        b = play_match(FMT, dice_setup(), Rng(seed), "strong", "easy")
        assert a == b
