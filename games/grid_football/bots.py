"""Bot players for grid football: every decision, line-ups included.

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the decision's
legal choices; randomness only from the given ``Rng``, so a bot match replays exactly.

- ``default``: the decision's own default (shoot or play the ball forward, walk onto the ball, else towards
  it; let the ball pass; no follow; the plain line-up 4-4-2).
- ``random``: a uniformly random legal choice; a random legal line-up (formation, players, keeper square and
  centre columns) at the start, where the choices cannot be listed.

The easy and strong bots are a later step of issue 25 (RULES.md, "Not yet done").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.api import Decision, MatchFormat
from games.grid_football.geometry import ATTACKER, DEFENDER, KEEPER, KIND_NAMES, MIDFIELDER
from games.grid_football.rules import FORMATIONS
from games.rng import Rng

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]


def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does)."""
    return decision.default


def random_lineup(decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly drawn legal line-up from the decision's options (§3.2, A-39)."""
    squad = decision.options["squad"]
    pool = {
        kind: [p["number"] for p in squad if p["available"] and p["kind"] == KIND_NAMES[kind]]
        for kind in (KEEPER, DEFENDER, MIDFIELDER, ATTACKER)
    }
    formations = [
        f
        for f in FORMATIONS
        if all(len(pool[k]) >= n for k, n in zip((DEFENDER, MIDFIELDER, ATTACKER), f, strict=True))
    ]
    if not pool[KEEPER] or not formations:
        return decision.default
    d, m, a = formations[rng.randbelow(len(formations))]
    chosen = [pool[KEEPER][rng.randbelow(len(pool[KEEPER]))]]
    for kind, count in ((DEFENDER, d), (MIDFIELDER, m), (ATTACKER, a)):
        options = list(pool[kind])
        rng.shuffle(options)
        chosen += options[:count]
    return {
        "kind": "lineup",
        "players": sorted(chosen),
        "keeper_column": 5 + rng.randbelow(2),
        "centre": [5 + rng.randbelow(2) for _ in range(3)],
    }


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice (no draw when there is only one); a random line-up."""
    if decision.kind == "lineup":
        return random_lineup(decision, rng)
    n = len(decision.choices)
    return decision.choices[rng.randbelow(n)] if n > 1 else decision.choices[0]


POLICIES: dict[str, Policy] = {"default": default_policy, "random": random_policy}


def get_policy(name: str) -> Policy:
    """A policy by name: ``default`` or ``random``."""
    return POLICIES[name]


__all__ = [
    "POLICIES",
    "Policy",
    "default_policy",
    "get_policy",
    "random_lineup",
    "random_policy",
]
