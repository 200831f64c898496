"""Bot players for chess football — PROVISIONAL, replaced by the ``chess-bots`` branch (issue 24).

This file exists so that the game can be registered and played in rooms while the real bots (an easy and a
strong policy, with their benchmark in ``bench/formats.py``) are written on their own branch; that branch's
``bots.py`` replaces this one whole. Until then ``easy`` and ``strong`` play the decision's default.

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the decision's
legal choices; randomness only from the given ``Rng``, so a bot match replays exactly. No policy looks at
the other side's hidden penalty choice: they read only the decision handed to them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.api import Decision, MatchFormat
from games.rng import Rng

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]


def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does): a goal when there is one, else
    the first move that is not a void move; the middle goal square at a penalty."""
    return decision.default


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice (no draw when there is only one)."""
    n = len(decision.choices)
    return decision.choices[rng.randbelow(n)] if n > 1 else decision.choices[0]


POLICIES: dict[str, Policy] = {
    "default": default_policy,
    "random": random_policy,
    "easy": default_policy,  # provisional: the chess-bots branch brings the easy bot
    "strong": default_policy,  # provisional: the chess-bots branch brings the strong bot
}

__all__ = ["POLICIES", "Policy", "default_policy", "random_policy"]
