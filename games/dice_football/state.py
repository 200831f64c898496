"""The state of a dice-football match: one flat slotted dataclass of small ints, bools and short lists.

Why flat: ``apply`` mutates it in place thousands of times per second (bench/formats.py), bots clone it
for every outcome they weigh, and the service layer stores it as JSON after every decision. Sides are 0
(home, player S) and 1 (away, player N); the ball is kept in the **attacker's** relative coordinates
(``bx``, ``by``), which is how every rule is stated, and turned 180° when possession changes.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.api import MalformedDecision

# Phases: the kind of decision pending (``OVER`` when the match has ended).
PH_PLACE, PH_STAR, PH_ACT, PH_DIR, PH_CROSSBAR, PH_OVER = range(6)
PHASE_NAMES = ("place", "star", "action", "direction", "crossbar", "over")

# Restarts (§10): what the first action after it may do. ``R_NONE`` in open play.
R_NONE, R_KICKOFF, R_THROW_IN, R_GOAL_KICK, R_KEEPER, R_CORNER, R_FREE, R_DIRECT_N, R_DIRECT_P = range(9)
RESTART_NAMES = (
    "",
    "kickoff",
    "throw_in",
    "goal_kick",
    "keeper_restart",
    "corner",
    "free_kick",
    "direct_free_kick",
    "direct_free_kick",
)

# STAR windows (§11.3, B-41, B-42): why the defender is asked.
W_ACTION = 0  # W1: before an attacker action (RECOVERY, FOUL; RECOVERY only right after an ASSIST)
W_GOAL_MOUTH = 1  # W2: the ball is on GM before a keeper roll (PERFECT_SAVE)
W_UNSTOPPABLE_IN = 2  # W3: SHOT-die UNSTOPPABLE from the area or zone N: a goal unless PERFECT_SAVE
W_UNSTOPPABLE_OUT = 3  # W3: SHOT-die UNSTOPPABLE from outside: ball on GM; PERFECT_SAVE or RECOVERY
W_STAR_IN = 4  # W3: STAR UNSTOPPABLE from the area: a goal unless PERFECT_SAVE
W_STAR_OUT = 5  # W3: STAR UNSTOPPABLE from outside the area: PERFECT_SAVE or RECOVERY
WINDOW_NAMES = (
    "before_action",
    "goal_mouth",
    "unstoppable",
    "unstoppable",
    "star_unstoppable",
    "star_unstoppable",
)

# Periods: 1 and 2 are the halves, 3 and 4 extra time (only with the ``extra_time_ticks`` option),
# 5 the penalty shoot-out.
P_SHOOTOUT = 5


@dataclass(slots=True, eq=True)
class DiceState:
    """Everything a dice-football match is; ``to_dict``/``from_dict`` round-trip it exactly."""

    # match settings (MatchSetup and its options)
    labels: list[str]
    knockout: bool
    half_ticks: int
    extra_ticks: int
    boskov: bool
    # the clock
    period: int
    ticks: int  # rolls counted in this period (§13: one tick per roll, STAR reveal rolls excepted)
    # who is where
    toss: int  # the toss winner: held STAR first, kicks off the second half (§4, §13)
    att: int  # the attacker (side in possession)
    bx: int  # ball, attacker-relative column 1..5
    by: int  # ball, attacker-relative row 1..11
    must_ctrl: bool  # §5/§6.1: the first roll after winning the ball in open play must be CONTROL
    ctrl_last: bool  # §6.1: the last attack roll was CONTROL (so CONTROL is not allowed now)
    restart: int  # R_*: the restart the next attack action is the first roll of
    assist: (
        bool  # the last attack action was a STAR ASSIST (B-40: the defender may answer with RECOVERY only)
    )
    shot_col: int  # column of the last shot (GK CORNER side, §9)
    xbar: bool  # the ball is on GM after a CROSSBAR (a keeper's NOT_SAVED is then an own goal, §9)
    star: int  # side holding the STAR die (§11.1)
    face: int  # its face (index into FACES[STAR]); public (§4: "both players know the face")
    fouls: list[int]  # consecutive DEF fouls per side (§7, §12.1, B-27)
    score: list[int]
    # the pending decision
    phase: int
    ctx: int  # PH_PLACE: the restart being placed; PH_STAR: the window W_*
    p_die: int  # PH_DIR: the arrow die rolled ...
    p_face: int  # ... its face index ...
    p_mult: int  # ... 2 for a declared long kick (§10.3) ...
    p_rot: bool  # ... and whether the arrow is rotated on a wing (§6.5, §10.5)
    last: list[Any] | None  # the last roll: [side, die, face index]
    # the end
    pens: list[int] | None  # shoot-out score
    kicks: list[list[int]]  # shoot-out kicks: [side, PEN face index, scored]
    winner: int  # -1 while playing or for a draw
    decided_by: str


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(DiceState))
_LISTS = ("labels", "fouls", "score")


def clone(st: DiceState) -> DiceState:
    """An independent copy (bots weigh outcomes on copies)."""
    c = DiceState.__new__(DiceState)
    for name in FIELDS:
        setattr(c, name, getattr(st, name))
    c.labels = list(st.labels)
    c.fouls = list(st.fouls)
    c.score = list(st.score)
    c.last = list(st.last) if st.last is not None else None
    c.pens = list(st.pens) if st.pens is not None else None
    c.kicks = [list(k) for k in st.kicks]
    return c


def state_to_dict(st: DiceState) -> dict[str, Any]:
    """JSON-safe copy of every field."""
    c = clone(st)
    return {name: getattr(c, name) for name in FIELDS}


_TYPES: dict[str, tuple[type, ...]] = {
    "labels": (list,),
    "knockout": (bool,),
    "boskov": (bool,),
    "must_ctrl": (bool,),
    "ctrl_last": (bool,),
    "assist": (bool,),
    "xbar": (bool,),
    "p_rot": (bool,),
    "fouls": (list,),
    "score": (list,),
    "last": (list, type(None)),
    "pens": (list, type(None)),
    "kicks": (list,),
    "decided_by": (str,),
}


def state_from_dict(data: Any) -> DiceState:
    """Rebuild a stored state; a malformed record raises ``MalformedDecision`` (never a bare KeyError)."""
    if not isinstance(data, dict):
        raise MalformedDecision("a stored dice-football state is a dict")
    missing = [n for n in FIELDS if n not in data]
    if missing:
        raise MalformedDecision(f"stored dice-football state lacks {', '.join(missing)}")
    for name in FIELDS:
        value = data[name]
        want = _TYPES.get(name, (int,))
        if not isinstance(value, want) or (want == (int,) and isinstance(value, bool)):
            raise MalformedDecision(f"stored dice-football state: {name} has the wrong type")
    st = DiceState.__new__(DiceState)
    for name in FIELDS:
        setattr(st, name, data[name])
    return clone(st)
