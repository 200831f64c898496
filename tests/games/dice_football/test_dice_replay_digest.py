"""Stored dice-football games are replayed from their seed and event log, so the engine must keep making
exactly the same random draws, events, decisions (choices in the same order: a ``pick`` answers by
position), views and stored state. These digests were taken before the engine was tuned for speed; a
change that moves any of them changes what a replay shows. If a rule is changed on purpose, say so in
RULES.md and take new digests (``digest(...)`` below prints them). Rooms made before generator 2 replay
with generator 1 (``Rng``), rooms made since with generator 2 (``BlockRng``): both are pinned."""

from __future__ import annotations

import hashlib

import pytest
from dice_helpers import FMT

from games.dice_football import bots, room_setup
from games.dice_football.rules import dice_setup
from games.rng import BlockRng, Rng


def digest(setup, seed: int, home: str, away: str, fast: bool, gen: type[Rng] = Rng) -> str:
    """One match through the fast path (``legal_actions``/``apply_action``, picked by index) or the decision
    loop (``decisions``/``apply`` with the bots' choices), hashing every step."""
    h = hashlib.sha256()
    rng, brng = gen(seed), gen(seed ^ 0x5EED)
    state, events = FMT.start_with_events(setup, rng)
    policies = {"home": bots.get_policy(home), "away": bots.get_policy(away)}
    while True:
        h.update(repr([(e.kind, e.data, e.audience) for e in events]).encode())
        h.update(repr([FMT.view(state, side) for side in ("home", "away", None)]).encode())
        h.update(repr((FMT.to_dict(state), rng.counter, brng.counter)).encode())
        decisions = FMT.decisions(state)
        legal = FMT.legal_actions(state)
        h.update(repr([(d.side, d.kind, d.choices, d.default, d.options) for d in decisions]).encode())
        h.update(repr(legal).encode())
        if not decisions:
            return h.hexdigest()[:16]
        if fast:
            events = FMT.apply_action(
                state, legal[brng.randbelow(len(legal))] if len(legal) > 1 else legal[0], rng
            )
        else:
            d = decisions[0]
            events = FMT.apply(state, d.side, policies[d.side](FMT, state, d, brng), rng)


CASES = [
    # (name, setup, seed, home, away, fast path, digest)
    ("league", dice_setup(), 0, "random", "random", True, "14738804adfef3bf"),
    ("league boskov", dice_setup(boskov=True), 1, "random", "random", False, "6e9cd6d572d17946"),
    ("cup with shoot-out", dice_setup(knockout=True), 1, "random", "random", True, "6287f02a848d86c5"),
    (
        "cup extra time",
        dice_setup(knockout=True, extra_time_ticks=6, half_ticks=8),
        0,
        "easy",
        "random",
        False,
        "664605d4128e6102",
    ),
    (
        "short room",
        room_setup(("A", "B"), False, {"length": "short", "boskov": True}, Rng(0)),
        5,
        "easy",
        "strong",
        False,
        "53de1a56aa5c1410",
    ),
]


CASES_2 = [
    # taken when generator 2 came in (2026-11-25)
    ("league", dice_setup(), 0, "random", "random", True, "5ee8dcb98974c7ee"),
    (
        "cup extra time",
        dice_setup(knockout=True, extra_time_ticks=6, half_ticks=8),
        0,
        "easy",
        "random",
        False,
        "27ea208bc9f51abc",
    ),
]


@pytest.mark.parametrize(
    ("gen", "case"),
    [(Rng, c) for c in CASES] + [(BlockRng, c) for c in CASES_2],
    ids=[f"1-{c[0]}" for c in CASES] + [f"2-{c[0]}" for c in CASES_2],
)
def test_seeded_matches_replay_exactly_as_before(gen: type[Rng], case) -> None:
    _name, setup, seed, home, away, fast, want = case
    bots._POLICY.clear()
    assert digest(setup, seed, home, away, fast, gen) == want
