"""Invariants over thousands of random bot-vs-bot matches (hypothesis).

Every match terminates, a knock-out match has a winner, every card is in exactly one place at every
step and back where it belongs after the match, public events never name a hidden card, and a match
replays exactly from its seed and decisions (also from a stored state).
"""

from __future__ import annotations

import json
from collections import Counter

import sweep
from duel_helpers import _SHOWN, fmt, leaks, match_table, setup, team
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.rules.bots import easy_policy, random_policy, strong_policy
from cards.rules.duel_cards import apply_mods
from cards.rules.duel_state import LINEUP, WINDOW, DuelState
from games.api import MatchEvent
from games.rng import Rng

CARD_IDS = sorted(match_table())
POLICIES = [random_policy, random_policy, easy_policy, strong_policy]
MAX_STEPS = 3000


@st.composite
def matches(draw):
    """A random setup: team sizes 0–11 (mostly 11), 2–6★ players, 3–5★ keepers, 0–5 match cards."""

    def stars(n):
        return draw(st.lists(st.integers(2, 6), min_size=n, max_size=n))

    nh = draw(st.sampled_from([11, 11, 11, 10, 7, 3, 0]))
    na = draw(st.sampled_from([11, 11, 11, 10, 8, 1]))
    cards = draw(st.permutations(CARD_IDS))
    h = draw(st.integers(0, 5))
    a = draw(st.integers(0, 5))
    e = draw(st.integers(0, 4))
    return {
        "setup": setup(
            team("H", stars(nh), draw(st.integers(3, 5)), tuple(cards[:h])),
            team("A", stars(na), draw(st.integers(3, 5)), tuple(cards[h : h + a])),
            knockout=draw(st.booleans()),
            et=tuple(cards[h + a : h + a + e]),
        ),
        "seed": draw(st.integers(0, 2**32)),
        "policies": (draw(st.sampled_from(POLICIES)), draw(st.sampled_from(POLICIES))),
    }


def check_places(s: DuelState) -> None:
    """Every card of the match is in exactly one place."""
    for side in (0, 1):
        assert Counter(s.hold[side]) + Counter(s.used[side]) == Counter(s.holding[side])
        assert Counter(s.et_hold[side]) + Counter(s.et_played[side]) == Counter(
            s.et_dealt[2 * side : 2 * side + 2]
        )
        if s.phase != WINDOW:
            continue
        places = [*s.stack[side], *s.spent[side]]
        if s.active[side] >= 0:
            places.append(s.active[side])
            assert s.eff[side] == apply_mods(s.stars[side][s.active[side]], s.mods[side])
        if s.reserve[side] >= 0:
            places.append(s.reserve[side])
        if s.moment is not None and s.moment[0] == 2 and s.moment[1] == side:
            places.append(s.moment[3])
        assert sorted(places) == list(range(s.nfield[side] + 1)), (side, places)


def run(case, record=None, replay=None, restore_at=None):
    """Play a match; returns (state, events, decisions). With ``replay`` the decisions are reused."""
    f = fmt()
    rng = Rng(case["seed"])
    brng = Rng(case["seed"] + 1)
    state = f.start(case["setup"], rng)
    events: list[MatchEvent] = []
    decisions: list[tuple[str, dict]] = []
    known: set[str] = set()
    secret_all = {cid for ids in state.ids for cid in ids} | {c for hh in state.holding for c in hh}
    secret_all |= set(state.et_cards)
    for step in range(MAX_STEPS):
        pending = f.decisions(state)
        if not pending:
            return state, events, decisions
        d = pending[0]
        if d.kind == "window":
            assert d.default in d.choices and len(d.choices) >= 2
        if replay is not None:
            side, choice = replay[step]
        else:
            side = d.side
            policy = case["policies"][0 if side == "home" else 1]
            choice = policy(f, state, d, brng)
            if d.kind == "window":
                assert choice in d.choices
        decisions.append((side, choice))
        if restore_at == step:
            state = f.from_dict(json.loads(json.dumps(f.to_dict(state))))
        new = f.apply(state, side, choice, rng)
        for e in new:
            if e.audience == "public":
                for key in _SHOWN.get(e.kind, ()):
                    known.add(e.data[key])
                assert not leaks(e.data, secret_all - known), (e.kind, e.data)
        events += new
        check_places(state)
    raise AssertionError("the match did not terminate")


@settings(max_examples=sweep.examples(500))
@given(matches())
def test_random_bot_matches_terminate_conserve_cards_and_replay(case):
    state, events, decisions = run(case)
    result = fmt().result(state)
    s = case["setup"]
    assert result is not None and events[-1].kind == "match_over"
    if s.knockout:
        assert result.winner in ("home", "away")
    else:
        assert (result.winner is None) == (result.score[0] == result.score[1])
        assert result.decided_by == "regular"
    for side, entry in (("home", s.home), ("away", s.away)):
        assert sorted(result.used[side] + result.unused[side]) == sorted(entry.holding)
        assert not set(result.used[side]) & set(result.unused[side])
    assert result.extra_time_dealt in ((), s.extra_time_cards[:4])
    if state.period >= 3:
        assert result.extra_time_dealt == s.extra_time_cards
    # same seed and decisions: the same event stream
    again_state, again, _ = run(case, replay=decisions)
    assert again == events
    assert fmt().to_dict(again_state) == fmt().to_dict(state)


@settings(max_examples=sweep.examples(150))
@given(matches(), st.integers(0, 60))
def test_a_match_stored_and_restored_mid_way_continues_identically(case, at):
    state, events, decisions = run(case)
    restored_state, restored, _ = run(case, replay=decisions, restore_at=min(at, len(decisions) - 1))
    assert restored == events
    assert fmt().to_dict(restored_state) == fmt().to_dict(state)


@settings(max_examples=sweep.examples(200))
@given(matches())
def test_the_fast_default_path_gives_exactly_the_decision_by_decision_events(case):
    f = fmt()
    slow_rng, fast_rng = Rng(case["seed"]), Rng(case["seed"])
    slow = f.start(case["setup"], slow_rng)
    slow_events = []
    while pending := f.decisions(slow):
        slow_events += f.apply(slow, pending[0].side, pending[0].default, slow_rng)
    fast = f.start(case["setup"], fast_rng)
    fast_events = f.advance_defaults(fast, fast_rng)
    assert fast_events == slow_events
    assert f.to_dict(fast) == f.to_dict(slow)
    assert f.decisions(fast) == [] and fast.phase not in (LINEUP, WINDOW)
