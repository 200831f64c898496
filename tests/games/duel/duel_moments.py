"""Moments of card-duel practice matches played by bots (every kind of decision, window and ending), for the
board's tests."""

from __future__ import annotations

import functools
from typing import Any

from cards.rules.bots import POLICIES
from games.api import get_game
from games.rng import Rng

GAME = get_game("duel")
FMT = GAME.format
STRENGTHS = ("random", "strong", "easy")


def key(st: Any) -> str:
    """What kind of moment this is: the phase, the window, a moment, a goal, modifiers, extra time."""
    v = FMT.view(st, None)
    if v["result"] is not None:
        return "over " + v["result"]["decided_by"]
    period = " extra time" if v["period"] == 3 else ""
    if v["phase"] == "lineup":
        return f"lineup {v['period']}"
    parts = ["window", v["window"]["kind"]]
    if v["moment"]:
        parts.append(v["moment"]["kind"])
    if v["goal"]:
        parts.append("disallowed" if v["goal"]["disallowed"] else "goal")
    if any((s["active"] or {}).get("modifiers") for s in v["sides"].values()):
        parts.append("modifiers")
    if v["keeper_first"]:
        parts.append("keeper first")
    return " ".join(parts) + period


@functools.cache
def moments() -> dict[str, Any]:
    """The first state of every kind of moment in 40 bot-played practice matches (every other one a cup
    match, which goes to extra time and penalties when level)."""
    found: dict[str, Any] = {}
    for seed in range(40):
        rng, brng = Rng(seed), Rng(500 + seed)
        setup = GAME.room_setup(("p1", "p2"), seed % 2 == 0, {"match_cards": 3}, rng)
        st = FMT.start(setup, rng)
        policy = POLICIES[STRENGTHS[seed % 3]]
        while True:
            found.setdefault(key(st), FMT.clone(st))
            decisions = FMT.decisions(st)
            if not decisions:
                break
            d = decisions[0]
            FMT.apply(st, d.side, policy(FMT, st, d, brng), rng)
    return found
