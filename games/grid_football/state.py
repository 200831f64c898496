"""The state of a grid-football match: one flat slotted dataclass of ints, bools and short lists.

Why flat: bots and the property tests clone it at every step and the service layer stores it as JSON after
every decision. Sides are 0 (home, defends y = 0) and 1 (away). Pawns are ``20 * side + number - 1`` for
squad numbers 1..20 (geometry.pawn); ``pos[p]`` is a square, or -1 off the pitch. The match runs as a stack
of small jobs (``jobs``, each a list: a name and int arguments): a job either finishes and pushes the next
ones, or leaves a decision pending (``phase`` and ``ctx``). So a rule in the middle of a procedure (a
row-1 side step, who comes on for an injured player) can ask its owner and carry on where it stopped, and
the whole procedure is plain data that round-trips through JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from games.api import MalformedDecision

# pawn status
S_UNAVAILABLE, S_DUGOUT, S_WARMING, S_PITCH, S_SENT_OFF, S_INJURED_OUT, S_SUBBED_OFF = range(7)
STATUS_NAMES = ("unavailable", "dugout", "warming", "pitch", "sent_off", "injured_out", "subbed_off")

# phases: PH_RUN means jobs are still to run (never seen outside apply); the others are the pending decision
(
    PH_RUN,
    PH_LINEUP,
    PH_COLLIDE,
    PH_CENTRE,
    PH_KICKOFF_PLAYER,
    PH_WARMUP,
    PH_FOUL,
    PH_ACT,
    PH_LEG,
    PH_FOLLOW,
    PH_INTERCEPT,
    PH_SAVE,
    PH_REBOUND,
    PH_KEEPER,
    PH_SUB,
    PH_REPLACE,
    PH_KEEPER_OFF,
    PH_TAKER,
    PH_STEP,
    PH_OVER,
) = range(20)
PHASE_NAMES = (
    "run",
    "lineup",
    "collide",
    "centre",
    "kickoff_player",
    "warm_up",
    "foul",
    "act",
    "kick",
    "follow",
    "intercept",
    "save",
    "rebound",
    "keeper",
    "substitute",
    "replace",
    "keeper_off",
    "taker",
    "step",
    "over",
)

# rules that may be switched off (the text's optional "green" rules are unknown)
F_CHARGE, F_FOULS, F_SUBS, F_OFFSIDE, F_SPOIL = 1, 2, 4, 8, 16
F_ALL = F_CHARGE | F_FOULS | F_SUBS | F_OFFSIDE | F_SPOIL
FLAG_OPTIONS = {
    "shoulder_charge": F_CHARGE,
    "fouls": F_FOULS,
    "substitutions": F_SUBS,
    "offside": F_OFFSIDE,
    "anti_spoiling": F_SPOIL,
}

# periods
P_NORMAL, P_EXTRA, P_SHOOTOUT = 1, 2, 3

# play kinds: how the ball came to be played (who may follow, who may intercept)
K_NORMAL, K_RESTART, K_RECEIVE, K_PENALTY, K_SHOOTOUT = range(5)
# how the current ball path ends
E_REST, E_SHOT, E_THROW_IN, E_BACK_LINE, E_RECEIVE, E_HELD = range(6)


@dataclass(slots=True, eq=True)
class GridState:
    """Everything a grid-football match is; ``to_dict``/``from_dict`` round-trip it exactly."""

    # settings (MatchSetup and its options)
    labels: list[str]
    knockout: bool
    fixed: bool  # §15 fixed-length variant: count rolls instead of '1's
    flags: int  # the rules in force (F_* bits; all by default)
    normal_ones: int  # counting '1's that end normal time (§15: the 16th)
    extra_ones: int  # counting '1's that end extra time (A-68: the 6th)
    fixed_rolls: int  # rolls of normal time in the fixed-length variant (§15: 90)
    fixed_extra_rolls: int  # rolls of extra time in the fixed-length variant (GF-20: 30)
    shootout_kicks: int  # penalties per side before sudden death (A-69: 5)
    # the squads
    status: list[int]  # per pawn (40)
    pos: list[int]  # per pawn: square or -1
    yellow: list[int]  # per pawn: yellow cards this match
    red: list[int]  # per pawn: 1 once sent off (second yellow or handball)
    bandage: list[int]  # per pawn: injuries this match
    keeper: list[int]  # per side: the pawn keeping goal, -1 none
    makeshift: list[int]  # per side: 1 if the keeper is an outfield player (§14.2: -1/4)
    subs: list[int]  # substitutions used per side
    lineup: list[list[int] | None]  # per side: the line-up chosen, hidden until both are in (§3.2)
    # the ball
    ball: int
    last_touch: int  # the side that touched the ball last (throw-ins, corners, goal kicks)
    last_play: int  # the side that last played the ball (§10: the keeper's catch)
    last_deflect: bool  # the ball's last movement was a deflection (§10)
    lock: int  # the restart taker who may not touch the ball yet (§4, A-49), -1 none
    # the clock and the score
    period: int
    ones: int  # counting '1's in this period
    rolls: int  # counted rolls in this period (fixed-length variant)
    fouls: int  # fouls in this period (the variant's stoppage time)
    score: list[int]
    pens: list[int] | None  # shoot-out score
    kicks: list[list[int]]  # shoot-out kicks: [side, pawn, scored]
    opening: int  # the side that took the opening kick-off
    # the turn
    turn: int  # the active side
    roll: int  # the D6 of the turn (0 before it is rolled)
    free_kick: bool  # this turn must play the ball (§13.5)
    next_side: int  # who moves after this turn when not the other side (-1: the other side)
    deflected_by: int  # the side of this turn's last successful deflection (§8.7), -1 none
    # the play in progress (§7)
    play_side: int
    play_kind: int
    kicker: int  # the pawn on the ball who plays the next leg
    budget: int  # empty squares the ball still has to travel
    touches: int  # players who touched the ball in this play (at most 6)
    prev: int  # who played the previous leg (no straight return, A-10)
    must_goal: bool  # a penalty must end in a goal square (§13.7)
    path: list[int]  # the ball's path: square, budget left after entering it, ... (interceptions, saves)
    seg: int  # index (in squares) of the first square after the last touch: the final segment (§9.3)
    end: int  # how the path ends (E_*)
    exit: int  # the square the ball left the pitch by (throw-in), or the back-line end's side
    touched: list[int]  # pawns who touched the ball this turn (§6 D)
    forbid: list[int]  # team-mates offside at the last touch (§11.2)
    thrower: int  # a thrower still to step into the pitch, -1 none
    # interceptions (§8)
    ic_side: int  # the side that played the path
    ic_both: bool  # both teams may intercept (after a deflection or a rebound)
    ic_cand: list[int]  # pawn, path index, ... computed when the phase starts
    ic_i: int  # the path square (index) being offered
    ic_used: list[int]  # pawns who tried this turn, or deflected, or received
    # the shot (§9)
    shooter: int  # the side that shot
    strength: int  # r: the budget left after the ball entered the goal square
    dive_from: int  # the keeper's square before the dive (the rebound side, §9.6)
    # set pieces
    corner_taker: int  # steps towards the middle line after the corner turn (§13.4.5), -1 none
    wall: int  # the corner wall, steps after its side's next turn (§13.4.6), -1 none
    wall_side: int  # the side whose turn end moves the wall
    wall_end: int  # the end (the side defending it) of the last corner
    wall_fk: int  # the free-kick wall being walked away from the ball (§13.5.3)
    # the flow
    phase: int
    dec_side: int  # the side whose decision is pending (-1: both, at the line-ups)
    ctx: list[int]  # the pending decision's context
    jobs: list[list[Any]]  # what still has to run, last first
    # the end
    winner: int  # -1 while playing or for a draw
    decided_by: str
    last: str  # the last decision in our notation
    # not stored: the pending decision's legal actions, made when it was asked (anything that changes the
    # state outside ``apply`` must clear it)
    cache: list[Any] | None = field(default=None, compare=False, repr=False)


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GridState) if f.name != "cache")
_LISTS = (
    "labels",
    "status",
    "pos",
    "yellow",
    "red",
    "bandage",
    "keeper",
    "makeshift",
    "subs",
    "score",
    "path",
    "touched",
    "forbid",
    "ic_cand",
    "ic_used",
    "ctx",
)


def clone(st: GridState) -> GridState:
    """An independent copy (bots and tests play on copies)."""
    c = GridState.__new__(GridState)
    for n in FIELDS:
        setattr(c, n, getattr(st, n))
    for n in _LISTS:
        setattr(c, n, list(getattr(st, n)))
    c.lineup = [None if v is None else list(v) for v in st.lineup]
    c.pens = None if st.pens is None else list(st.pens)
    c.kicks = [list(k) for k in st.kicks]
    c.jobs = [list(j) for j in st.jobs]
    c.cache = None
    return c


def state_to_dict(st: GridState) -> dict[str, Any]:
    """JSON-safe copy of every field."""
    c = clone(st)
    return {n: getattr(c, n) for n in FIELDS}


_TYPES: dict[str, tuple[type, ...]] = {
    "labels": (list,),
    "knockout": (bool,),
    "fixed": (bool,),
    "last_deflect": (bool,),
    "free_kick": (bool,),
    "must_goal": (bool,),
    "ic_both": (bool,),
    "lineup": (list,),
    "pens": (list, type(None)),
    "kicks": (list,),
    "jobs": (list,),
    "decided_by": (str,),
    "last": (str,),
    **{n: (list,) for n in _LISTS},
}
_LENGTHS = {"status": 40, "pos": 40, "yellow": 40, "red": 40, "bandage": 40, "keeper": 2, "makeshift": 2}


def _ints(value: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in value)


def state_from_dict(data: Any) -> GridState:
    """Rebuild a stored state; a malformed record raises ``MalformedDecision`` (never a bare KeyError)."""
    if not isinstance(data, dict):
        raise MalformedDecision("a stored grid-football state is a dict")
    missing = [n for n in FIELDS if n not in data]
    if missing:
        raise MalformedDecision(f"stored grid-football state lacks {', '.join(missing)}")
    for n in FIELDS:
        value = data[n]
        want = _TYPES.get(n, (int,))
        if not isinstance(value, want) or (want == (int,) and isinstance(value, bool)):
            raise MalformedDecision(f"stored grid-football state: {n} has the wrong type")
    for n, length in _LENGTHS.items():
        if len(data[n]) != length or not _ints(data[n]):
            raise MalformedDecision(f"stored grid-football state: {n} must be {length} integers")
    if len(data["lineup"]) != 2 or len(data["score"]) != 2 or len(data["subs"]) != 2:
        raise MalformedDecision("stored grid-football state: lineup, score or subs has the wrong length")
    for n in ("path", "touched", "forbid", "ic_cand", "ic_used", "ctx"):
        if not _ints(data[n]):
            raise MalformedDecision(f"stored grid-football state: {n} must hold integers")
    for job in data["jobs"]:
        if not isinstance(job, list) or not job or not isinstance(job[0], str) or not _ints(job[1:]):
            raise MalformedDecision("stored grid-football state: a job is [name, integers...]")
    st = GridState.__new__(GridState)
    for n in FIELDS:
        setattr(st, n, data[n])
    st.cache = None
    return clone(st)
