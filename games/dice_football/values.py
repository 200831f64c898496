"""The strong bot's value table: for every decision position, the chance that the side in possession
scores the next goal, computed by value iteration over the engine's own transitions.

Why "next goal": it is what a move changes (the clock and the score only weigh it, ``bots.py``), and it
is a finite, clock-free game that value iteration solves exactly for the PROPOSED dice. The transition
model is not a second copy of the rules: every position is a real ``DiceState`` and every outcome comes
from ``DiceFootballFormat.apply_action`` fed with each combination of die faces (``outcomes``).

A position's key keeps what the rules read (ball square relative to the attacker, the CONTROL flags, the
restart, the pending decision, STAR holder and face) and drops what they do not (score, clock, labels).
``python -m games.dice_football.values`` rebuilds ``values.json`` (about a minute); run it after changing
a die face table or a rule.
"""

from __future__ import annotations

import json
import sys
import time
from functools import cache
from pathlib import Path
from typing import Any

from games.dice_football.rules import FORMAT, _begin, dice_setup
from games.dice_football.state import (
    PH_ACT,
    PH_CROSSBAR,
    PH_DIR,
    PH_OVER,
    PH_PLACE,
    PH_STAR,
    W_GOAL_MOUTH,
    W_UNSTOPPABLE_OUT,
    DiceState,
    clone,
)

TABLE = Path(__file__).with_name("values.json")
NEVER = 10_000  # the model's clock never runs out: the value is about the next goal, not the half


class Branch:
    """An ``Rng`` stand-in that follows a script of die indexes (0 past its end) and records each draw."""

    __slots__ = ("pos", "script", "sizes")

    def __init__(self, script: tuple[int, ...]) -> None:
        self.script = script
        self.pos = 0
        self.sizes: list[int] = []

    def randbelow(self, n: int) -> int:
        i = self.pos
        self.pos = i + 1
        self.sizes.append(n)
        return self.script[i] if i < len(self.script) else 0


def outcomes(st: DiceState, action: tuple[Any, ...]) -> list[tuple[float, DiceState]]:
    """Every way ``action`` can turn out, with its probability: each combination of the dice it rolls."""
    out: list[tuple[float, DiceState]] = []
    todo: list[tuple[int, ...]] = [()]
    while todo:
        script = todo.pop()
        rng = Branch(script)
        s = clone(st)
        FORMAT.apply_action(s, action, rng)  # type: ignore[arg-type]
        sizes = rng.sizes
        base = len(script)
        for i in range(base, len(sizes)):
            prefix = script + (0,) * (i - base)
            for v in range(1, sizes[i]):
                todo.append((*prefix, v))
        p = 1.0
        for n in sizes:
            p /= n
        out.append((p, s))
    return out


def key(st: DiceState) -> str:
    """The position as the value table knows it (see the module docstring)."""
    ph = st.phase
    gm = ph == PH_CROSSBAR or (ph == PH_STAR and st.ctx in (W_GOAL_MOUTH, W_UNSTOPPABLE_OUT))
    col = (0 if st.shot_col == 3 else 1) if gm else 9
    if ph == PH_DIR:
        pend = f"{st.p_die}{st.p_face}{st.p_mult}{int(st.p_rot)}"
    elif ph in (PH_PLACE, PH_STAR):
        pend = str(st.ctx)
    else:
        pend = ""
    return (
        f"{ph}{pend}|{st.bx},{st.by}|{int(st.must_ctrl)}{int(st.ctrl_last)}{st.restart}{int(st.assist)}"
        f"{int(st.xbar)}{col}|{int(st.star == st.att)}{st.face}"
    )


def _normalise(st: DiceState) -> DiceState:
    """A representative of its key: neutral score, clock and foul counts, home attacking in period 1."""
    s = clone(st)
    s.score = [0, 0]
    s.fouls = [0, 0]
    s.ticks = 0
    s.period = 1
    s.half_ticks = NEVER
    s.ticks = 0
    s.last = None
    if s.att == 1:
        s.att = 0
        s.star = 1 - s.star
    return s


def build_model(
    verbose: bool = False,
) -> tuple[dict[str, list[tuple[bool, list[tuple[float, Any]]]]], dict[str, int]]:
    """Explore every position reachable from the kick-offs; returns, per key, its actions' outcome lists and
    who decides (``+1`` the attacker maximises, ``-1`` the defender minimises).

    An outcome is ``(p, "G")`` a goal for the side in possession, ``(p, "g")`` a goal against it, or
    ``(p, key)`` / ``(p, "~" + key)``: the next position with the same / the other side in possession.
    """
    from games.rng import Rng

    model: dict[str, list[tuple[bool, list[tuple[float, Any]]]]] = {}
    sign: dict[str, int] = {}
    todo: list[DiceState] = []
    # every kick-off: both kickers, STAR with either side showing any face (goals end the model's
    # game, so the kick-offs after a goal are not reached by exploring)
    for toss in ("home", "away"):
        for holder in (0, 1):
            for face in range(6):
                st = FORMAT.start(dice_setup(toss=toss, half_ticks=NEVER), Rng(0))
                st.star, st.face = holder, face
                st.phase = PH_ACT
                _begin(st)
                todo.append(_normalise(st))
    t0 = time.perf_counter()
    while todo:
        st = todo.pop()
        k = key(st)
        if k in model:
            continue
        a = st.att
        sign[k] = 1 if FORMAT.to_act(st) == a else -1
        acts = []
        for action in FORMAT.legal_actions(st):
            merged: dict[Any, float] = {}
            for p, s in outcomes(st, action):
                if s.score != st.score:
                    target: Any = "G" if s.score[a] > st.score[a] else "g"
                elif s.phase == PH_OVER:
                    raise AssertionError("the model's clock never ends a half")
                else:
                    n = _normalise(s)
                    nk = key(n)
                    if nk not in model:
                        todo.append(n)
                    target = nk if s.att == a else "~" + nk
                merged[target] = merged.get(target, 0.0) + p
            acts.append((action, sorted(merged.items(), key=lambda kv: str(kv[0]))))
        model[k] = acts  # type: ignore[assignment]
        if verbose and len(model) % 2000 == 0:
            print(f"  {len(model)} positions, {len(todo)} to explore, {time.perf_counter() - t0:.0f} s")
    return model, sign  # type: ignore[return-value]


def solve(
    model: dict[str, Any], sign: dict[str, int], tol: float = 1e-7, verbose: bool = False
) -> dict[str, float]:
    """Gauss-Seidel value iteration until no value moves by more than ``tol``."""
    keys = sorted(model)
    v = dict.fromkeys(keys, 0.5)
    compiled = []
    for k in keys:
        acts = []
        for _action, outs in model[k]:
            acts.append([(p, t) for t, p in outs])
        compiled.append((k, sign[k], acts))
    for sweep in range(10_000):
        delta = 0.0
        for k, sg, acts in compiled:
            best = None
            for outs in acts:
                total = 0.0
                for p, t in outs:
                    if t == "G":
                        total += p
                    elif t == "g":
                        continue
                    elif t[0] == "~":
                        total += p * (1.0 - v[t[1:]])
                    else:
                        total += p * v[t]
                if best is None or (total > best if sg > 0 else total < best):
                    best = total
            assert best is not None
            change = abs(best - v[k])
            if change > delta:
                delta = change
            v[k] = best
        if verbose and sweep % 20 == 0:
            print(f"  sweep {sweep}: largest change {delta:.2e}")
        if delta < tol:
            break
    return v


@cache
def table() -> dict[str, float]:
    """The stored value table (``values.json``)."""
    data = json.loads(TABLE.read_text(encoding="utf-8"))
    return {k: float(x) for k, x in data["values"].items()}


def main() -> int:
    t0 = time.perf_counter()
    model, sign = build_model(verbose=True)
    print(f"model: {len(model)} positions in {time.perf_counter() - t0:.0f} s")
    values = solve(model, sign, verbose=True)
    print(f"solved in {time.perf_counter() - t0:.0f} s")
    TABLE.write_text(
        json.dumps(
            {
                "about": "P(side in possession scores the next goal) per position (values.py)",
                "values": {k: round(x, 5) for k, x in sorted(values.items())},
            },
            separators=(",", ":"),
        )
        + "\n",
        encoding="utf-8",
    )
    print(f"wrote {TABLE} ({TABLE.stat().st_size // 1024} KiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
