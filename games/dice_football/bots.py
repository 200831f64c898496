"""Bot players for dice football: every decision (die, direction, placement, crossbar, STAR windows).

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the decision's
legal choices; randomness only from the given ``Rng``, so a bot match replays exactly.

- ``default``: the decision's own default (shoot from the area, CONTROL when it must, else PASS; keep the
  ball on the pitch; pass in STAR windows except against a certain goal).
- ``random``: a uniformly random legal choice.
- ``easy``: simple football sense: shoot from the area and at direct free kicks, long balls in its own
  half and short ones near goal, STAR faces when they obviously pay, RECOVERY when the ball is near its
  own goal.
- ``strong``: one-step expectimax over the dice: every choice is weighed by all the ways its dice can
  fall (the engine itself plays them out on copies), each outcome valued by the solved table of
  ``values.py`` (the chance that the side in possession scores the next goal). Because the table is the
  exact solution of the next-goal game for these dice, this greedy step is that game's optimal policy.
  Choices are memoised per position, so a decision costs a dictionary look-up after its first time.

Bots play fair: dice football has no hidden information (view.py), and no bot reads the match's ``Rng``:
``strong`` enumerates the faces with its own scripted stand-in (``values.Branch``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import games.bots
from games.api import Decision, MatchEvent, MatchFormat, MatchSetup
from games.dice_football.dice import ASSIST, FACES, FOUL, LONG_SHOT, RECOVERY, STAR, UNSTOPPABLE
from games.dice_football.geometry import in_area
from games.dice_football.rules import FORMAT, DiceFootballFormat
from games.dice_football.state import PH_OVER, R_DIRECT_N, R_DIRECT_P, DiceState, clone
from games.dice_football.values import NEVER, key, outcomes, table
from games.rng import Rng

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]


def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does)."""
    return decision.default


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice (no draw when there is only one)."""
    n = len(decision.choices)
    return decision.choices[rng.randbelow(n)] if n > 1 else decision.choices[0]


# ---------------------------------------------------------------------- easy
def _find(decision: Decision, **want: Any) -> dict[str, Any] | None:
    for c in decision.choices:
        if all(c.get(k) == v for k, v in want.items()) and len(c) == len(want):
            return c
    return None


def easy_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Simple football sense (module docstring); deterministic."""
    st: DiceState = state
    kind = decision.kind
    if kind == "action":
        x, y = st.bx, st.by
        star = _find(decision, kind="star")
        if star is not None:
            face = FACES[STAR][st.face]
            if face in (UNSTOPPABLE, ASSIST) or (face == LONG_SHOT and y >= 8):
                return star
            if face == FOUL and (in_area(x, y) or y >= 8):
                return star
        shot = _find(decision, kind="roll", die="shot")
        if shot is not None and (
            in_area(x, y) or st.restart in (R_DIRECT_N, R_DIRECT_P) or (x == 3 and y == 9)
        ):
            return shot
        order = (
            ("long", "pass", "control")
            if y <= 5
            else ("pass", "control", "long")
            if y <= 8
            else ("control", "pass", "long")
        )
        for die in order:
            c = _find(decision, kind="roll", die=die, long_kick=True) or _find(decision, kind="roll", die=die)
            if c is not None:
                return c
        return decision.default
    if kind == "star":
        face = decision.options.get("face")
        if decision.options.get("window") != "before_action":
            return {"kind": "star"}  # a save or a recovery against a shot is always worth it
        # before an attacker action: RECOVERY or FOUL when the ball is near our goal
        if (face == RECOVERY and st.by >= 7) or (face == FOUL and st.by >= 9):
            return {"kind": "star"}
        return {"kind": "pass"}
    return decision.default


# ---------------------------------------------------------------------- strong
_POLICY: dict[str, int] = {}


def _value(s: DiceState, side: int, before: list[int]) -> float:
    """Chance that ``side`` scores the next goal in outcome ``s`` (a goal just scored decides it)."""
    if s.score != before:
        return 1.0 if s.score[side] > before[side] else 0.0
    if s.phase == PH_OVER:
        return 0.5
    v = table().get(key(s))
    if v is None:  # a position the table never met (cannot happen with the rules as they are)
        v = 0.5
    return v if s.att == side else 1.0 - v


def best_action(state: DiceState) -> tuple[Any, ...]:
    """The strong bot's choice as a canonical action (memoised per position)."""
    st = state
    legal = FORMAT.legal_actions(st)
    if len(legal) == 1:
        return legal[0]
    k = key(st)
    i = _POLICY.get(k)
    if i is None:
        side = FORMAT.to_act(st)
        before = list(st.score)
        # the lookahead's clock never runs out: the value is the next goal's (clock-free, like the table
        # and the memo key), and a roll that ended a tied knock-out match would enumerate a shoot-out's
        # sudden death without end
        probe = clone(st)
        probe.half_ticks = probe.extra_ticks = NEVER
        scores = []
        for action in legal:
            scores.append(sum(p * _value(s, side, before) for p, s in outcomes(probe, action)))
        i = max(range(len(legal)), key=lambda j: (round(scores[j], 9), -j))
        _POLICY[k] = i
    return legal[i]


def strong_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Expectimax over the dice against the solved next-goal table (module docstring)."""
    return FORMAT.action_dict(best_action(state), state)


POLICIES: dict[str, Policy] = {
    "default": default_policy,
    "random": random_policy,
    "easy": easy_policy,
    "strong": strong_policy,
}


def get_policy(name: str) -> Policy:
    """A policy by name: ``default``, ``random``, ``easy`` or ``strong``."""
    return POLICIES[name]


def play_match(
    fmt: DiceFootballFormat,
    setup: MatchSetup,
    rng: Rng,
    home: Policy | str = "default",
    away: Policy | str = "default",
    bot_rng: Rng | None = None,
) -> tuple[DiceState, list[MatchEvent]]:
    """A whole match between two policies (by name or function) through ``decisions``/``apply``; the final
    state and every event (the start's toss, STAR roll and kick-off included)."""
    home_policy = get_policy(home) if isinstance(home, str) else home
    away_policy = get_policy(away) if isinstance(away, str) else away
    return games.bots.play_match(fmt, setup, rng, home_policy, away_policy, bot_rng)


__all__ = [
    "POLICIES",
    "Policy",
    "best_action",
    "default_policy",
    "easy_policy",
    "get_policy",
    "play_match",
    "random_policy",
    "strong_policy",
]
