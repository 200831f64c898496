"""Grid football (seed 000, Cwali 2020) behind the ``MatchFormat`` protocol: the pure, deterministic engine.

The rules are the digest ``grid-football-000.md`` with its PROPOSED items and rulings A-1..A-79, and the
rulings this implementation adds (GF-1 ...); RULES.md states every one and the decision notation. Comments
cite the digest's sections and ruling ids.

How it runs: the match is a stack of small jobs in the state (state.py). ``apply`` validates one decision
in full, applies its effect and runs jobs until the next decision (or the end); a job either finishes and
pushes the next ones, or asks a side (``_ask``: a phase, the side, a context, the legal actions). A decision
with a single legal action is taken at once, so a side is asked only when it has a real choice. Dice are
rolled inside ``apply``, from the ``Rng`` it is handed and nothing else.

Canonical actions (the fast path bots use, ``legal_actions``/``apply_action``) are tuples; ``action_dict``
turns one into the decision dict ``apply`` accepts (RULES.md, "Notation").
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product
from typing import Any

from games.api import (
    N_,
    Decision,
    IllegalDecision,
    MalformedDecision,
    MatchError,
    MatchEvent,
    MatchResult,
    MatchSetup,
    NotYourDecision,
    Side,
    cardless_result,
    cardless_setup,
    register,
)
from games.grid_football.geometry import (
    ADV,
    AREA_OF,
    ATTACKER,
    BACKLINE,
    CENTRE_SQUARES,
    CORNERS,
    DEFENDER,
    DIR_NAMES,
    GOAL_OF,
    GOALS,
    HALF,
    KEEPER,
    KIND,
    KIND_NAMES,
    LINE_COLUMNS,
    MIDDLE_ROW,
    MIDFIELDER,
    N4,
    NSQ,
    NUMBER,
    ON_BOARD,
    ORTHO_DIR,
    OUTSIDE,
    PENALTY_SPOTS,
    PITCH,
    ROW1,
    SIDE,
    SQUAD,
    STEP,
    X,
    Y,
    kind_of,
    king,
    name,
    parse_square,
    pawn,
    row,
    sq,
    start_row,
)
from games.grid_football.moves import (
    BIT,
    ONBOARD_BITS,
    WALKABLE,
    Kick,
    Spoil,
    Walker,
    bit_squares,
    layers,
    nearest_to_ball,
    occ_bits,
    occupancy,
    offside_line,
    offside_pawns,
    pawn_steps,
    replay_leg,
    route_bits,
    step_of,
    walk_free_bits,
)
from games.grid_football.state import (
    E_BACK_LINE,
    E_HELD,
    E_RECEIVE,
    E_REST,
    E_SHOT,
    E_THROW_IN,
    F_ALL,
    F_CHARGE,
    F_FOULS,
    F_OFFSIDE,
    F_SPOIL,
    F_SUBS,
    FLAG_OPTIONS,
    K_NORMAL,
    K_PENALTY,
    K_RECEIVE,
    K_RESTART,
    K_SHOOTOUT,
    P_EXTRA,
    P_NORMAL,
    P_SHOOTOUT,
    PH_ACT,
    PH_CENTRE,
    PH_COLLIDE,
    PH_FOLLOW,
    PH_FOUL,
    PH_INTERCEPT,
    PH_KEEPER,
    PH_KEEPER_OFF,
    PH_KICKOFF_PLAYER,
    PH_LEG,
    PH_LINEUP,
    PH_OVER,
    PH_REBOUND,
    PH_REPLACE,
    PH_RUN,
    PH_SAVE,
    PH_STEP,
    PH_SUB,
    PH_TAKER,
    PH_WARMUP,
    PHASE_NAMES,
    S_DUGOUT,
    S_INJURED_OUT,
    S_PITCH,
    S_SENT_OFF,
    S_SUBBED_OFF,
    S_UNAVAILABLE,
    S_WARMING,
    GridState,
    clone,
    state_from_dict,
    state_to_dict,
)
from games.rng import Rng

__all__ = ["FORMAT", "GridFootballFormat", "InvalidSetup", "grid_setup"]

NAMES: tuple[Side, Side] = ("home", "away")
LETTER = "HA"
NORMAL_ONES = 16  # §15: the 16th counting '1' blows the final whistle (fig. 18)
EXTRA_ONES = 6  # A-68: extra time ends on the 6th counting '1'
FIXED_ROLLS = 90  # §15 variant: 90 rolls plus one per foul
FIXED_EXTRA_ROLLS = 30  # GF-20: extra time of the variant
SHOOTOUT_KICKS = 5  # A-69
MAX_SUBS = 3  # §14.4
_OPTIONS = {
    "fixed_length",
    "unavailable",
    "normal_ones",
    "extra_ones",
    "fixed_rolls",
    "shootout_kicks",
    *FLAG_OPTIONS,
}
Action = tuple[Any, ...]

# set-piece placements asked in PH_TAKER (ctx[0])
T_THROW, T_CORNER, T_WALL, T_VICTIM, T_WALL_FK, T_PENALTY, T_SHOOTOUT, T_CENTRE = range(8)


class InvalidSetup(MatchError):
    """The options handed to grid football are not a legal match (a platform bug)."""

    code = "invalid_setup"


def grid_setup(
    knockout: bool = False, labels: tuple[str, str] = ("home", "away"), **options: Any
) -> MatchSetup:
    """A ``MatchSetup`` for grid football, which needs no team cards: only labels and options."""
    return cardless_setup(knockout, labels, options)


# ``MatchEvent`` and ``Decision`` are frozen dataclasses whose generated ``__init__`` costs more than the
# rules that fill them; the same objects are made at a third of the cost (as dice football does).
_EventSlots = type("_EventSlots", (), {"__slots__": MatchEvent.__slots__})


def _ev(ev: list[MatchEvent], kind: str, data: dict[str, Any], audience: str = "public") -> None:
    e = _EventSlots()
    e.kind = kind  # type: ignore[attr-defined]
    e.data = data  # type: ignore[attr-defined]
    e.audience = audience  # type: ignore[attr-defined]
    e.__class__ = MatchEvent  # type: ignore[assignment]
    ev.append(e)  # type: ignore[arg-type]


def label(p: int) -> str:
    """A pawn's name: H or A and its squad number, e.g. ``H9``."""
    return f"{LETTER[SIDE[p]]}{NUMBER[p]}"


# ====================================================================== small helpers
def team(st: GridState, side: int) -> list[int]:
    """The pawns of ``side`` on the pitch."""
    base = SQUAD * side
    pos = st.pos
    return [p for p in range(base, base + SQUAD) if pos[p] >= 0]


def _outfield(st: GridState, side: int) -> list[int]:
    return [p for p in team(st, side) if p != st.keeper[side]]


def _is_keeper(st: GridState, p: int) -> bool:
    return st.keeper[SIDE[p]] == p


def _push(st: GridState, *jobs: Sequence[Any]) -> None:
    """Schedule jobs to run in the given order (the stack runs the last pushed first)."""
    for job in reversed(jobs):
        st.jobs.append(list(job))


def _forced_free(st: GridState, occ: list[int], s: int, p: int) -> bool:
    """Whether a forced move (a placement, a push, a clean-up) may put pawn ``p`` on ``s``."""
    if s < 0 or s >= NSQ or not ON_BOARD[s] or occ[s] >= 0 or s == st.ball:
        return False
    g = GOAL_OF[s]
    return g < 0 or (g == SIDE[p] and _is_keeper(st, p))


def _move(st: GridState, occ: list[int] | None, p: int, s: int) -> None:
    """Move pawn ``p`` to ``s``, keeping ``occ`` right (a pawn left behind on a shared square stays in it)."""
    old = st.pos[p]
    st.pos[p] = s
    if occ is not None:
        if old >= 0 and occ[old] == p:
            occ[old] = next((q for q in range(40) if st.pos[q] == old), -1)
        occ[s] = p


def _nearest_free(st: GridState, occ: list[int], frm: int, p: int, ok: Any = None) -> int:
    """The nearest square (breadth-first over the board from ``frm``) where a forced move may put ``p``
    and ``ok(square)`` holds; -1 if none (GF-13)."""
    seen = {frm}
    frontier = [frm]
    while frontier:
        nxt = []
        for c in frontier:
            for n in N4[c]:
                if n in seen:
                    continue
                seen.add(n)
                if _forced_free(st, occ, n, p) and (ok is None or ok(n)):
                    return n
                if ON_BOARD[n]:
                    nxt.append(n)
        frontier = nxt
    return -1


# ====================================================================== dice and the clock (§15)
def _die(
    st: GridState, rng: Rng, ev: list[MatchEvent], sides: int, side: int, use: str, restart: bool
) -> int:
    """Roll a D``sides`` for ``side``; returns its face, or 0 when the roll blew the whistle (A-24: it then
    has no effect). At a restart (and the opening kick-off) '1's are rolled again and do not count (§4)."""
    while True:
        v = rng.randbelow(sides) + 1
        if restart and v == 1:
            _ev(ev, "roll", {"side": NAMES[side], "die": sides, "use": use, "value": 1, "counts": False})
            continue
        _ev(ev, "roll", {"side": NAMES[side], "die": sides, "use": use, "value": v, "counts": True})
        if st.period == P_SHOOTOUT:
            return v
        if st.fixed:
            st.rolls += 1
            limit = (st.fixed_rolls if st.period == P_NORMAL else st.fixed_extra_rolls) + st.fouls
            if st.rolls > limit:
                _whistle(st, ev)
                return 0
        elif v == 1:
            st.ones += 1
            limit = st.normal_ones if st.period == P_NORMAL else st.extra_ones
            if st.ones >= limit:
                _whistle(st, ev)
                return 0
            _ev(ev, "clock", {"period": st.period, "minute": 6 * st.ones})
        return v


def _throw_die(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> int:
    """The D6 of a keeper's throw after a hold or a catch: '1's are rolled again but count (A-23)."""
    while True:
        v = _die(st, rng, ev, 6, side, "throw", False)
        if v != 1:
            return v


def _whistle(st: GridState, ev: list[MatchEvent]) -> None:
    """The period is over (§15, A-24, A-68): extra time, the shoot-out or the end."""
    st.jobs = []
    st.phase = PH_RUN
    st.cache = None
    _ev(ev, "whistle", {"period": st.period, "score": list(st.score)})
    level = st.score[0] == st.score[1]
    if st.period == P_NORMAL and st.knockout and level:
        st.period = P_EXTRA
        st.ones = st.rolls = st.fouls = 0
        _ev(ev, "extra_time", {"kickoff": NAMES[1 - st.opening]})
        _dead(st, ev, ["r_kickoff", 1 - st.opening])
    elif st.period == P_EXTRA:
        _start_shootout(st, ev)
    else:
        _finish(st, ev, "regular" if st.period == P_NORMAL else "extra_time")


def _finish(st: GridState, ev: list[MatchEvent], how: str, winner: int | None = None) -> None:
    if winner is None:
        winner = -1 if st.score[0] == st.score[1] else (0 if st.score[0] > st.score[1] else 1)
    st.phase = PH_OVER
    st.jobs = []
    st.cache = None
    st.dec_side = -1
    st.ctx = []
    st.winner = winner
    st.decided_by = how
    _ev(
        ev,
        "full_time",
        {
            "winner": NAMES[winner] if winner >= 0 else None,
            "score": list(st.score),
            "pens": None if st.pens is None else list(st.pens),
            "decided_by": how,
        },
    )


# ====================================================================== asking and running
def _ask(st: GridState, phase: int, side: int, ctx: list[int], acts: list[Action] | None = None) -> None:
    """Leave a decision pending (the run loop takes it at once when it has a single legal action)."""
    st.phase = phase
    st.dec_side = side
    st.ctx = ctx
    st.cache = None
    if acts is None:
        acts = _actions(st)
    if not acts:
        raise RuntimeError(f"grid football: no legal action in phase {PHASE_NAMES[phase]}")
    st.cache = acts


def _run(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """Run jobs until a decision with a real choice is pending or the match is over."""
    while True:
        phase = st.phase
        if phase == PH_RUN:
            if not st.jobs:
                raise RuntimeError("grid football: the match stalled (no job and no decision)")
            job = st.jobs.pop()
            _JOBS[job[0]](st, rng, ev, *job[1:])
            continue
        if phase == PH_OVER:
            return
        acts = st.cache
        if acts is None:
            acts = st.cache = _actions(st)
        if len(acts) == 1 and phase != PH_LINEUP:  # GF-28: one legal choice is taken at once
            _take(st, acts[0], rng, ev)
            continue
        return


def _take(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    """Apply a legal action of the pending decision."""
    st.last = notation(st, a)
    phase = st.phase
    st.phase = PH_RUN
    st.cache = None
    _EFFECTS[phase](st, a, rng, ev)


def _actions(st: GridState) -> list[Action]:
    """The legal actions of the pending decision."""
    return _ACTIONS[st.phase](st)


# ====================================================================== line-ups and set-up (§3)
def _available(st: GridState, side: int) -> list[int]:
    """Squad numbers that may be named in the line-up (not suspended or injured from the cup, §16)."""
    return [n for n in range(1, SQUAD + 1) if st.status[pawn(side, n)] != S_UNAVAILABLE]


FORMATIONS = tuple((d, m, 10 - d - m) for d in (4, 3, 2) for m in (4, 3, 2) if 2 <= 10 - d - m <= 4)


def default_lineup(st: GridState, side: int) -> Action | None:
    """The plain line-up: a keeper, then the first formation of 4-4-2, 4-3-3, 3-4-3 … the available players
    allow, lowest numbers first (None when no line-up is possible)."""
    for f in FORMATIONS:
        a = _lineup_for(st, side, f)
        if a is not None:
            return a
    return None


def _lineup_for(st: GridState, side: int, formation: tuple[int, int, int]) -> Action | None:
    avail = _available(st, side)
    keepers = [n for n in avail if kind_of(n) == KEEPER]
    if not keepers:
        return None
    chosen = [keepers[0]]
    for kind, count in zip((DEFENDER, MIDFIELDER, ATTACKER), formation, strict=True):
        pool = [n for n in avail if kind_of(n) == kind]
        if len(pool) < count:
            return None
        chosen += pool[:count]
    return ("lineup", side, tuple(sorted(chosen)), 5, (5, 5, 5))


Refusal = tuple[str, dict[str, Any]]  # an N_-marked English msgid and its values (MatchError's words)


def lineup_error(st: GridState, side: int, players: Any) -> Refusal | None:
    """Why a list of squad numbers is not a legal line-up (§3.2, A-39, §16), or None: a msgid the player
    reads in his language, and its values."""
    if not isinstance(players, list | tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in players
    ):
        return N_("a line-up is a list of squad numbers"), {}
    if len(players) > 11:
        return N_("a line-up names 11 players, not %(n)s: a twelfth pawn is not allowed"), {"n": len(players)}
    if len(players) < 11:
        return N_("a line-up names 11 players, not %(n)s"), {"n": len(players)}
    if len(set(players)) != 11:
        return N_("a player is named twice in the line-up"), {}
    for n in players:
        if not 1 <= n <= SQUAD:
            return N_("there is no player %(n)s in a squad of 20"), {"n": n}
        if st.status[pawn(side, n)] == S_UNAVAILABLE:
            return N_("player %(n)s is suspended or injured and cannot play this match (§16)"), {"n": n}
    kinds = [kind_of(n) for n in players]
    if kinds.count(KEEPER) != 1:
        return N_("a line-up has exactly one keeper (1 or 20)"), {}
    lines = {
        DEFENDER: N_("every line has 2, 3 or 4 players, not %(n)s defenders (A-39)"),
        MIDFIELDER: N_("every line has 2, 3 or 4 players, not %(n)s midfielders (A-39)"),
        ATTACKER: N_("every line has 2, 3 or 4 players, not %(n)s attackers (A-39)"),
    }
    for kind, msgid in lines.items():
        c = kinds.count(kind)
        if not 2 <= c <= 4:
            return msgid, {"n": c}
    return None


def _j_setup(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """§3: away places its lines, then home; home resolves collisions; the centre fill; the kick-off."""
    for side in (1, 0):
        choice = st.lineup[side]
        assert choice is not None
        numbers, keeper_col, centres = choice[:11], choice[11], choice[12:15]
        for n in range(1, SQUAD + 1):
            p = pawn(side, n)
            if st.status[p] != S_UNAVAILABLE:
                st.status[p] = S_DUGOUT
        for kind, centre in zip((DEFENDER, MIDFIELDER, ATTACKER), centres, strict=True):
            line = sorted(n for n in numbers if kind_of(n) == kind)
            cols = list(LINE_COLUMNS[len(line)])
            if len(line) == 3:
                cols = sorted([*cols, centre])
            y = start_row(kind, side)
            for n, x in zip(line, cols, strict=True):  # GF-2: in squad-number order
                p = pawn(side, n)
                st.pos[p] = sq(x, y)
                st.status[p] = S_PITCH
        k = pawn(side, next(n for n in numbers if kind_of(n) == KEEPER))
        st.pos[k] = sq(keeper_col, 0 if side == 0 else 16)
        st.status[k] = S_PITCH
        st.keeper[side] = k
    _ev(
        ev,
        "lineups",
        {
            NAMES[s]: {
                "players": list(st.lineup[s][:11]),  # type: ignore[index]
                "squares": {str(NUMBER[p]): name(st.pos[p]) for p in team(st, s)},
            }
            for s in (0, 1)
        },
    )
    _push(st, ["centre", 1], ["centre", 0], ["opening"])
    _ask_collide(st)


def _collisions(st: GridState) -> list[tuple[int, list[int]]]:
    """Home midfielders standing on an away midfielder's square, with the squares each may move to (§3.5)."""
    occ_away = {st.pos[p] for p in team(st, 1)}
    home_mid = [p for p in team(st, 0) if KIND[p] == MIDFIELDER]
    out = []
    for p in home_mid:
        s = st.pos[p]
        if s not in occ_away:
            continue
        x = X[s]
        if s in CENTRE_SQUARES:
            options = [c for c in CENTRE_SQUARES if c != s]
        else:
            options = [sq(x + dx, MIDDLE_ROW) for dx in (-1, 1) if 1 <= x + dx <= 10]
            options = [o for o in options if o not in occ_away]
        out.append((p, options))
    return out


def _ask_collide(st: GridState) -> None:
    coll = _collisions(st)
    if not coll:
        return
    _ask(st, PH_COLLIDE, 0, [p for p, _o in coll])


def _collide_actions(st: GridState) -> list[Action]:
    coll = _collisions(st)
    out = []
    for combo in product(*(opts for _p, opts in coll)):
        # GF-3: home may not take both squares next to the centre spot (away would have no kick-off player)
        if all(c in combo for c in CENTRE_SQUARES):
            continue
        out.append(("collide", tuple(combo)))
    return out


def _collide_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    for p, s in zip(st.ctx, a[1], strict=True):
        st.pos[p] = s
    _ev(ev, "collision", {"squares": {label(p): name(s) for p, s in zip(st.ctx, a[1], strict=True)}})


def _centre_options(st: GridState, side: int) -> list[tuple[int, int]]:
    """§3.6: a line of 2 or 4 midfielders moves its one nearest a free square next to the centre spot
    there (ties: the owner chooses); a side already on such a square does not (GF-4)."""
    mids = [p for p in team(st, side) if KIND[p] == MIDFIELDER]
    if len(mids) not in (2, 4) or any(st.pos[p] in CENTRE_SQUARES for p in mids):
        return []
    taken = set(st.pos[p] for p in range(40) if st.pos[p] >= 0)
    free = [c for c in CENTRE_SQUARES if c not in taken]
    pairs = [(abs(X[st.pos[p]] - X[c]), p, c) for p in mids for c in free if Y[st.pos[p]] == MIDDLE_ROW]
    if not pairs:
        return []
    best = min(d for d, _p, _c in pairs)
    return [(p, c) for d, p, c in pairs if d == best]


def _j_centre(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    if _centre_options(st, side):
        _ask(st, PH_CENTRE, side, [])


def _centre_actions(st: GridState) -> list[Action]:
    return [("centre", p, c) for p, c in _centre_options(st, st.dec_side)]


def _centre_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    st.pos[a[1]] = a[2]
    _ev(ev, "centre", {"side": NAMES[SIDE[a[1]]], "player": NUMBER[a[1]], "square": name(a[2])})


def _j_opening(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """§5: both roll (1s again, equal rolls again); the higher roller's player by the centre spot kicks the
    difference."""
    while True:
        away = _die(st, rng, ev, 6, 1, "kickoff", True)
        home = _die(st, rng, ev, 6, 0, "kickoff", True)
        if home != away:
            break
    side = 0 if home > away else 1
    st.opening = side
    st.ball = -1
    _ev(
        ev,
        "kickoff",
        {"side": NAMES[side], "rolls": {"home": home, "away": away}, "squares": abs(home - away)},
    )
    _new_turn(st, side)
    st.roll = abs(home - away)
    kickers = [p for p in team(st, side) if st.pos[p] in CENTRE_SQUARES]
    if len(kickers) > 1:  # GF-5: two players by the spot: the kick-off side chooses
        _push(st, ["open_kick"])
        _ask(st, PH_KICKOFF_PLAYER, side, kickers)
        return
    _open_kick(st, rng, ev, kickers[0] if kickers else team(st, side)[0])


def _j_open_kick(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    _open_kick(st, rng, ev, st.kicker)


def _kicker_actions(st: GridState) -> list[Action]:
    return [("kicker", p) for p in st.ctx]


def _kicker_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    st.kicker = a[1]


def _open_kick(st: GridState, rng: Rng, ev: list[MatchEvent], kicker: int) -> None:
    st.ball = st.pos[kicker]
    st.lock = -1  # A-49: no lock at the opening kick-off
    _start_play(st, st.turn, kicker, st.roll, K_NORMAL)


# ====================================================================== the turn (§6)
def _new_turn(st: GridState, side: int) -> None:
    st.turn = side
    st.roll = 0
    st.free_kick = False
    st.next_side = -1
    st.deflected_by = -1
    st.touched = []
    st.ic_used = []
    st.forbid = []
    st.path = []
    st.end = E_REST


def _can_warm(st: GridState, side: int) -> bool:
    """§14.4, A-34: dugout players may warm up while substitutions remain for them."""
    if st.period == P_SHOOTOUT or not st.flags & F_SUBS:
        return False
    base = SQUAD * side
    warming = sum(1 for p in range(base, base + SQUAD) if st.status[p] == S_WARMING)
    if warming >= MAX_SUBS - st.subs[side]:
        return False
    return any(st.status[p] == S_DUGOUT for p in range(base, base + SQUAD))


def _j_turn(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    _new_turn(st, side)
    _push(st, ["roll"])
    if _can_warm(st, side):
        _ask(st, PH_WARMUP, side, [])


def _warmup_actions(st: GridState) -> list[Action]:
    side = st.dec_side
    out: list[Action] = [("roll",)]
    if _can_warm(st, side):
        base = SQUAD * side
        out += [("warm", p) for p in range(base, base + SQUAD) if st.status[p] == S_DUGOUT]
    return out


def _warmup_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    if a[0] == "warm":
        st.status[a[1]] = S_WARMING
        _ev(ev, "warm_up", {"side": NAMES[SIDE[a[1]]], "player": NUMBER[a[1]]})
        if _can_warm(st, SIDE[a[1]]):
            _ask(st, PH_WARMUP, SIDE[a[1]], [])


def _j_roll(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    side = st.turn
    v = _die(st, rng, ev, 6, side, "turn", False)
    if not v:
        return
    st.roll = v
    acts = act_actions(st)
    if v >= 2 and st.flags & F_FOULS:
        pairs = foul_pairs(st, acts)
        if pairs:
            _ask(st, PH_FOUL, side, [v for pair in pairs for v in pair])
            return
    _ask(st, PH_ACT, side, [], acts)


def _side_pawns_no_keeper(st: GridState, side: int) -> list[int]:
    return [p for p in team(st, side) if p != st.keeper[side]]


def act_actions(st: GridState) -> list[Action]:
    """Every legal act of the side to move with the roll ``st.roll`` (§6 A/B, §6.S, §10, §12, A-42, A-43,
    A-66): walks, walks onto the ball (with the steps taken), the keeper's catch, shoulder charges; the
    anti-spoiling test keeps the clean ones when there are any; "pass" when nothing is legal (A-33, A-75)."""
    side = st.turn
    p = st.roll
    pos = st.pos
    ball = st.ball
    occ = occupancy(pos)
    holder = occ[ball] if ball >= 0 else -1
    mates = team(st, side)
    occb = occ_bits(pos)
    frees = (
        walk_free_bits(occb, ball, side, False, bool(st.flags & F_SPOIL)),
        walk_free_bits(occb, ball, side, True),
    )
    walks: list[Action] = []
    on_ball: list[Action] = []
    keeper = st.keeper[side]
    catch: list[Action] = []
    line = _line(st, side)
    target = ball if holder < 0 else -1
    walkers: list[Walker | None] = [None, None]
    teams = (team(st, 0), team(st, 1))
    spoil = Spoil(occ, pos, ball, teams)
    dirty: list[Action] = []
    dirty_masks: list[tuple[int, int]] = []
    for m in mates:
        u = pos[m]
        if u == ball:
            if m != st.lock:
                on_ball.append(("ball", m, 0))  # GF-9: a player on the ball plays it where he stands
            continue
        kk = 1 if m == keeper else 0
        walker = walkers[kk]
        if walker is None:
            walker = walkers[kk] = Walker(frees[kk])
        ends, ks = walker.ends(u, p, target)
        if not st.free_kick and ends:
            clean_mask = spoil.clean_mask(m, ends)
            if clean_mask:
                walks += [("walk", m, w) for w in bit_squares(clean_mask)]
            if ends & ~clean_mask:
                dirty_masks.append((m, ends & ~clean_mask))
        if ks and m != st.lock:
            occ2 = list(occ)
            occ2[u] = -1
            occ2[ball] = m
            pos2 = list(pos)
            pos2[m] = ball
            kick = Kick(occ2, pos2, side, line, mates, False)
            for k in ks:
                if kick.complete(ball, p - (k - 1), 1, -1):
                    on_ball.append(("ball", m, k))
            if (
                m == keeper
                and not st.free_kick
                and ks[0] == p
                and AREA_OF[ball] == side
                and (st.last_deflect or st.last_play != side)
            ):
                catch.append(("catch", m))
    charges: list[Action] = []
    if p == 1 and not st.free_kick and st.flags & F_CHARGE:
        charges = _charges(st, occ, occb, side)
    clean = list(walks)
    for a in on_ball + catch:
        (clean if spoil.clean_on_ball(a[1]) else dirty).append(a)
    clean += charges  # A-66: charges are never tested
    if clean and st.flags & F_SPOIL:
        return clean  # (GF-27: with nothing legal at all, "pass")
    for m, mask in dirty_masks:
        dirty += [("walk", m, w) for w in bit_squares(mask)]
    return clean + dirty or [("pass",)]  # A-66: none clean, all legal; A-5: no test at all


def _charges(st: GridState, occ: list[int], occb: int, side: int) -> list[Action]:
    """§6.S, A-7, A-37: a pawn next to an opponent closest to the ball steps into his square and pushes him
    (and anyone behind him) one square on, never onto the ball, off the board or a goal square not his own."""
    opp = team(st, 1 - side)
    _best, nearest = nearest_to_ball(occb, st.pos, st.ball, opp, st.keeper[1 - side])
    out: list[Action] = []
    for v in nearest:
        if st.pos[v] == st.ball:  # GF-25: not against a player on the ball
            continue
        sv = st.pos[v]
        for n in N4[sv]:
            m = occ[n]
            if m < 0 or SIDE[m] != side:
                continue
            d = ORTHO_DIR[(n, sv)]
            if _push_ok(st, occ, sv, d):
                out.append(("charge", m, v))
    return out


def _push_ok(st: GridState, occ: list[int], s: int, d: int) -> bool:
    cur = s
    while True:
        q = occ[cur]
        nxt = STEP[d][cur]
        if nxt < 0 or nxt == st.ball:
            return False
        g = GOAL_OF[nxt]
        if g >= 0 and not (g == SIDE[q] and _is_keeper(st, q)):  # A-37, GF-25
            return False
        if occ[nxt] < 0:
            return True
        cur = nxt


def foul_pairs(st: GridState, acts: list[Action]) -> list[tuple[int, int]]:
    """§13.6, A-7, A-8, A-47, A-64: the (fouler, victim) pairs of a compulsory foul with roll ``st.roll``:
    the victim is one of the opponents closest to the ball, the fouler reaches his square by a shortest
    path of exactly the roll, and no legal walk of the side ends nearer the ball than the victim is."""
    side = st.turn
    p = st.roll
    pos = st.pos
    ball = st.ball
    occb = occ_bits(pos)
    opp = team(st, 1 - side)
    holder_is_opp = any(pos[v] == ball for v in opp)
    if not holder_is_opp and any(a[0] in ("ball", "catch") for a in acts):
        return []  # (c): he can reach the ball (distance 0), nearer than any opponent stands
    dv, victims = nearest_to_ball(occb, pos, ball, opp, st.keeper[1 - side])
    if dv < 0:
        return []
    # (a), (b): a victim among the nearest opponents, reached by a shortest path of exactly the roll
    everything = ONBOARD_BITS & ~occb  # A-47: the §12 limits do not apply
    pairs = []
    mates = team(st, side)
    for v in victims:
        to_v = layers(pos[v], everything, p)
        if len(to_v) < p:
            continue
        for f in mates:
            if pawn_steps(to_v, pos[f]) == p:
                pairs.append((f, v))
    if not pairs or dv == 0:
        return pairs
    # (c): a legal walk ending nearer the ball than the victim is prevents it. The distances with the
    # walker's old square still taken are an upper bound (tried first), then the exact ones.
    walks = [a for a in acts if a[0] == "walk"]
    keeper = st.keeper[side]
    maps: dict[int, list[int]] = {}
    for exact in (False, True):
        for a in walks:
            m, w = a[1], a[2]
            key = (m if exact else -1) * 2 + (m == keeper)
            lay = maps.get(key)
            if lay is None:
                ob = occb & ~BIT[pos[m]] if exact else occb
                lay = maps[key] = layers(ball, route_bits(ob, side if m == keeper else -1), dv)
            d = pawn_steps(lay, w)
            if 0 <= d < dv:
                return []
    return pairs


def _foul_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    """§13.6, §14: the fouler onto the victim's square, a yellow card, a bandage; a free kick or a penalty."""
    f, v = a[1], a[2]
    b = st.pos[v]
    fs, vs = SIDE[f], SIDE[v]
    keeper_fouled = int(st.keeper[fs] == f)
    keeper_victim = int(st.keeper[vs] == v)
    st.pos[f] = b  # the only time two players share a square
    st.fouls += 1
    penalty = AREA_OF[b] == fs
    _ev(
        ev,
        "foul",
        {"side": NAMES[fs], "player": NUMBER[f], "victim": NUMBER[v], "square": name(b), "penalty": penalty},
    )
    first: list[list[Any]] = []
    st.yellow[f] += 1
    _ev(ev, "card", {"side": NAMES[fs], "player": NUMBER[f], "card": "yellow", "count": st.yellow[f]})
    if st.yellow[f] >= 2:
        first += _send_off(st, ev, f)
    st.bandage[v] += 1
    _ev(ev, "injury", {"side": NAMES[vs], "player": NUMBER[v], "count": st.bandage[v]})
    if st.bandage[v] >= 2:
        first += _injured_out(st, ev, v, b)
    restart = ["r_penalty", vs] if penalty else ["r_free", vs, b, keeper_fouled, keeper_victim]
    _dead(st, ev, restart, first=first)


def _send_off(st: GridState, ev: list[MatchEvent], p: int) -> list[list[Any]]:
    """§14.1: red; the player leaves and is not replaced; a keeper is replaced at once (§14.2)."""
    side = SIDE[p]
    st.red[p] = 1
    st.status[p] = S_SENT_OFF
    st.pos[p] = -1
    if st.lock == p:
        st.lock = -1
    _ev(ev, "card", {"side": NAMES[side], "player": NUMBER[p], "card": "red", "count": st.yellow[p]})
    if st.keeper[side] == p:
        st.keeper[side] = -1
        st.makeshift[side] = 0
        return [["keeper_off", side, -1]]
    return []


def _injured_out(st: GridState, ev: list[MatchEvent], p: int, at: int) -> list[list[Any]]:
    """§14.3, A-62, A-79: a second injury: the player leaves; a dugout player of his kind comes on on his
    square while substitutions remain (owner's choice, A-76)."""
    side = SIDE[p]
    st.status[p] = S_INJURED_OUT
    st.pos[p] = -1
    if st.lock == p:
        st.lock = -1
    was_keeper = st.keeper[side] == p
    _ev(ev, "injured_out", {"side": NAMES[side], "player": NUMBER[p]})
    if was_keeper:
        st.keeper[side] = -1
        st.makeshift[side] = 0
    return [["replace", side, p, at, int(was_keeper)]]


# ---------------------------------------------------------------------- the act's effects
def _act_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    k = a[0]
    side = st.turn
    if k == "walk":
        m, w = a[1], a[2]
        frm = st.pos[m]
        st.pos[m] = w
        _ev(ev, "walk", {"side": NAMES[side], "player": NUMBER[m], "from": name(frm), "to": name(w)})
        _push(st, ["end_turn"])
    elif k == "ball":
        m, steps = a[1], a[2]
        frm = st.pos[m]
        st.pos[m] = st.ball
        budget = st.roll - (steps - 1) if steps > 0 else st.roll
        _ev(
            ev,
            "walk",
            {
                "side": NAMES[side],
                "player": NUMBER[m],
                "from": name(frm),
                "to": name(st.ball),
                "steps": steps,
            },
        )
        if st.lock >= 0 and st.lock != m:
            st.lock = -1
        if st.free_kick:
            st.lock = m  # A-49: the free-kick taker
        _start_play(st, side, m, budget, K_RESTART if st.free_kick else K_NORMAL)
    elif k == "catch":
        m = a[1]
        st.pos[m] = st.ball
        _touch(st, m, st.ball, False)
        _ev(ev, "catch", {"side": NAMES[side], "player": NUMBER[m], "square": name(st.ball)})
        v = _throw_die(st, rng, ev, side)
        if not v:
            return
        _start_play(st, side, m, v, K_NORMAL)
    elif k == "charge":
        m, v = a[1], a[2]
        occ = occupancy(st.pos)
        sv = st.pos[v]
        d = ORTHO_DIR[(st.pos[m], sv)]
        chain = []
        cur = sv
        while cur >= 0 and occ[cur] >= 0:
            chain.append(occ[cur])
            cur = STEP[d][cur]
        for q in reversed(chain):
            st.pos[q] = STEP[d][st.pos[q]]
        st.pos[m] = sv
        _ev(
            ev,
            "charge",
            {
                "side": NAMES[side],
                "player": NUMBER[m],
                "victim": NUMBER[v],
                "pushed": [label(q) for q in chain],
                "direction": DIR_NAMES[d],
            },
        )
        _push(st, ["end_turn"])
    else:
        _ev(ev, "pass", {"side": NAMES[side]})
        _push(st, ["end_turn"])


# ====================================================================== playing the ball (§7)
def _line(st: GridState, side: int) -> int:
    """The offside line of ``side`` (§11.1); beyond the board when offside is switched off (A-5)."""
    if not st.flags & F_OFFSIDE:
        return 99
    return offside_line(st.pos, side, team(st, 1 - side))


def _kick_for(st: GridState) -> Kick:
    side = st.play_side
    pos = st.pos
    return Kick(
        occupancy(pos),
        pos,
        side,
        _line(st, side),
        team(st, side),
        st.must_goal,
    )


def _start_play(st: GridState, side: int, kicker: int, budget: int, kind: int) -> None:
    """The pawn ``kicker`` on the ball plays it with ``budget`` empty squares (§7); with no complete play the
    ball stays with him and the turn ends (A-43, GF-9)."""
    st.play_side = side
    st.play_kind = kind
    st.kicker = kicker
    st.budget = budget
    st.touches = 1
    st.prev = -1
    st.must_goal = kind in (K_PENALTY, K_SHOOTOUT)
    st.path = []
    st.seg = 0
    st.end = E_REST
    st.ball = st.pos[kicker]
    if kicker not in st.touched:
        st.touched.append(kicker)
    st.ic_side = side
    st.ic_both = False
    acts = _leg_actions(st)
    if acts:
        _ask(st, PH_LEG, side, [], acts)
        return
    st.end = E_HELD
    if st.lock == kicker:
        st.lock = -1  # GF-9: a restart that could not be played leaves no lock behind
    if st.thrower == kicker:
        st.thrower = -1  # GF-9: he keeps the ball where he stands (no step into the pitch)
    if kind == K_SHOOTOUT:
        _push(st, ["so_result", side, 0])
    else:
        _push(st, ["end_turn"])


def _leg_actions(st: GridState) -> list[Action]:
    kick = _kick_for(st)
    return [("kick", path) for path, _end in kick.legs(st.ball, st.budget, st.touches, st.kicker, st.prev)]


def _leg_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    path = a[1]
    pos = st.pos
    occ = occupancy(pos)
    rems, end, rem = replay_leg(occ, path, st.budget)
    side = st.play_side
    kicker = st.kicker
    frm = st.ball
    st.forbid = offside_pawns(pos, side, team(st, side), _line(st, side), frm)
    st.seg = len(st.path) // 2
    for s, r in zip(path, rems, strict=True):
        st.path += [s, r]
    st.last_touch = st.last_play = side
    st.last_deflect = False
    last = path[-1]
    st.ball = last
    _ev(
        ev,
        "kick",
        {
            "side": NAMES[side],
            "player": NUMBER[kicker],
            "path": [name(s) for s in path],
            "end": ("rest", "shot", "relay")[end],
        },
    )
    if end != 1:  # A-71 (after a shot at its resolution, GF-24)
        _step_in(st, occ)
    if end == 2:
        recv = occ[last]
        st.touches += 1
        st.prev = kicker
        st.kicker = recv
        st.ball = last
        st.budget = rem
        if recv not in st.touched:
            st.touched.append(recv)
        if st.lock >= 0 and recv != st.lock:
            st.lock = -1
        _ask(st, PH_LEG, side, [])
        return
    st.ball = last
    st.budget = rem
    if end == 1:
        st.end = E_SHOT
        st.strength = rem
        st.shooter = side
    else:
        st.end = E_REST
    _push(st, ["after_play"])


def _touch(st: GridState, p: int, s: int, deflection: bool) -> None:
    """Pawn ``p`` touched the ball on ``s`` (a deflection, a save, a catch): the last touch for the restarts
    (§13), the catch rule's last play (§10) and the end of a restart taker's lock (A-49)."""
    if p not in st.touched:
        st.touched.append(p)
    st.last_touch = st.last_play = SIDE[p]
    st.last_deflect = deflection
    if st.lock != p:
        st.lock = -1
    st.ball = s


def _step_in(st: GridState, occ: list[int] | None = None) -> None:
    """A-71, §13.2: the thrower steps into the pitch: onto the pitch square next to him, else the nearest
    free one."""
    t = st.thrower
    if t < 0:
        return
    st.thrower = -1
    s = st.pos[t]
    if s < 0 or not OUTSIDE[s]:
        return
    if occ is None:
        occ = occupancy(st.pos)
    x = X[s]
    inside = sq(1 if x == 0 else 10, Y[s])
    target = inside if _forced_free(st, occ, inside, t) else _nearest_free(st, occ, s, t, lambda n: PITCH[n])
    if target >= 0:
        _move(st, occ, t, target)


def _j_after_play(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """§6 D: the follow (not after a shot, nor after a deflected ball played on), then the interceptions."""
    _push(st, ["icpt_start"])
    if st.end == E_SHOT or st.play_kind in (K_RECEIVE, K_PENALTY, K_SHOOTOUT):
        return
    acts = follow_actions(st)
    if acts != [("nofollow",)]:
        _ask(st, PH_FOLLOW, st.play_side, [], acts)


def follow_actions(st: GridState) -> list[Action]:
    """§6 D, A-35, A-46, A-66, A-78: a pawn that did not touch the ball this turn and is not offside moves two
    steps, each one nearer the ball (one when the first makes him adjacent), ending strictly nearer the
    ball than every team-mate; or no follow."""
    side = st.play_side
    pos = st.pos
    ball = st.ball
    occ = occupancy(pos)
    occb = occ_bits(pos)
    mates = team(st, side)
    keeper = st.keeper[side]
    base = layers(ball, route_bits(occb))
    kmap = layers(ball, route_bits(occb, side)) if keeper >= 0 else base
    dist = {q: pawn_steps(kmap if q == keeper else base, pos[q]) for q in mates}
    frees = (
        walk_free_bits(occb, ball, side, False, bool(st.flags & F_SPOIL)),
        walk_free_bits(occb, ball, side, True),
    )
    touched = set(st.touched)
    forbid = set(st.forbid)
    out: list[Action] = []
    for p in mates:
        if p in touched or p in forbid:
            continue
        d0 = dist[p]
        if d0 < 2:
            continue
        lay = kmap if p == keeper else base
        free = frees[1 if p == keeper else 0]
        ends: set[int] = set()
        ring1 = lay[d0 - 1] & free
        for n1 in N4[pos[p]]:
            if not ring1 & BIT[n1]:
                continue
            if d0 - 1 == 1:
                ends.add(n1)
                continue
            ring2 = lay[d0 - 2] & free
            for n2 in N4[n1]:
                if ring2 & BIT[n2]:
                    ends.add(n2)
        for w in sorted(ends):
            df = step_of(lay, w)
            if _strictly_nearest(st, occb, mates, dist, p, w, df, keeper):
                out.append(("follow", p, w))
    teams = (team(st, 0), team(st, 1))
    spoil = Spoil(occ, pos, ball, teams)
    if not st.flags & F_SPOIL:
        return [*out, ("nofollow",)]
    clean: list[Action] = [a for a in out if spoil.clean_walk(a[1], a[2])]
    if spoil.clean_now(side):
        clean.append(("nofollow",))
    return clean or [*out, ("nofollow",)]


def _strictly_nearest(
    st: GridState,
    occb: int,
    mates: list[int],
    dist: dict[int, int],
    p: int,
    w: int,
    df: int,
    keeper: int,
) -> bool:
    """Whether every team-mate of ``p`` stays farther than ``df`` from the ball once ``p`` stands on ``w``
    (A-78: his vacated square cannot bring anyone within ``df``, so only ``w`` is re-checked)."""
    near = [q for q in mates if q != p and 0 <= dist[q] <= df]
    if not near:
        return True
    ob = (occb & ~BIT[st.pos[p]]) | BIT[w]
    for q in near:
        lay = layers(st.ball, route_bits(ob, SIDE[q] if q == keeper else -1), df)
        d = pawn_steps(lay, st.pos[q])
        if 0 <= d <= df:
            return False
    return True


def _follow_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    if a[0] == "follow":
        p, w = a[1], a[2]
        frm = st.pos[p]
        st.pos[p] = w
        _ev(ev, "follow", {"side": NAMES[SIDE[p]], "player": NUMBER[p], "from": name(frm), "to": name(w)})


# ====================================================================== interceptions (§8)
def _candidate_range(st: GridState) -> int:
    n = len(st.path) // 2
    return n - 1 if st.end in (E_REST, E_SHOT, E_RECEIVE, E_HELD) else n


def _j_icpt_start(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """A-45: each opposing outfield pawn's candidate is the first empty, non-final square of the path next
    to him; after a deflection both teams, but nobody where both teams could (§8.4, A-16, A-52)."""
    limit = _candidate_range(st)
    occ = occupancy(st.pos)
    sides = (0, 1) if st.ic_both else (1 - st.ic_side,)
    used = set(st.ic_used)
    keepers = st.keeper
    assigned: set[int] = set()
    cand: list[int] = []
    path = st.path
    for i in range(limit):
        s = path[2 * i]
        if occ[s] >= 0:
            continue
        here = []
        for n in N4[s]:
            q = occ[n]
            if (
                q >= 0
                and q not in assigned
                and SIDE[q] in sides
                and q not in used
                and q != keepers[SIDE[q]]
                and q != st.lock
            ):
                here.append(q)
        if not here:
            continue
        assigned.update(here)
        if st.ic_both and len({SIDE[q] for q in here}) == 2:
            continue  # closed: both teams could try here (GF-22)
        for q in here:
            cand += [q, i]
    st.ic_cand = cand
    st.ic_i = 0
    _push(st, ["icpt"])


def _j_icpt(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    cand = st.ic_cand
    best = -1
    for j in range(1, len(cand), 2):
        i = cand[j]
        if i >= st.ic_i and (best < 0 or i < best):
            best = i
    if best < 0:
        _push(st, ["resolve"])
        return
    qs = [cand[j - 1] for j in range(1, len(cand), 2) if cand[j] == best]
    st.ic_i = best
    _ask(st, PH_INTERCEPT, SIDE[qs[0]], [best, *qs])


def _intercept_actions(st: GridState) -> list[Action]:
    return [*(("int", q) for q in st.ctx[1:]), ("let",)]


def _intercept_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    i = st.ctx[0]
    if a[0] == "let":
        st.ic_i = i + 1
        _push(st, ["icpt"])
        return
    q = a[1]
    side = SIDE[q]
    s = st.path[2 * i]
    rem = st.path[2 * i + 1]
    frm = st.pos[q]
    d = ORTHO_DIR[(frm, s)]
    st.pos[q] = s  # §8.3: he moves into the square whatever the die says
    st.ic_used.append(q)
    _ev(ev, "intercept", {"side": NAMES[side], "player": NUMBER[q], "square": name(s)})
    v = _die(st, rng, ev, 3, side, "intercept", False)
    if not v:
        return
    if v != 3:
        _ev(ev, "deflection", {"side": NAMES[side], "player": NUMBER[q], "success": False})
        st.ic_i = i + 1
        _push(st, ["icpt"])
        return
    # §8.3: the ball goes straight on the way he moved, for the budget left there + 1 (A-17)
    _touch(st, q, s, True)
    st.deflected_by = side
    _travel(st, s, d, rem + 1, side)
    _ev(
        ev,
        "deflection",
        {
            "side": NAMES[side],
            "player": NUMBER[q],
            "success": True,
            "direction": DIR_NAMES[d],
            "path": [name(st.path[2 * j]) for j in range(len(st.path) // 2)],
        },
    )
    if st.period == P_SHOOTOUT:
        _push(st, ["so_result", st.turn, 0])  # A-69: a deflected penalty is a miss
        return
    st.ic_both = True
    st.ic_side = side
    _push(st, ["icpt_start"])


def _travel(st: GridState, start: int, d: int, budget: int, side: int) -> None:
    """A deflected or rebounding ball goes straight from ``start`` for ``budget`` empty squares (§8.3, §9.6):
    it stops on a player (who receives it), at rest, in a goal (a shot) or leaves the pitch (§8.6, A-51)."""
    occ = occupancy(st.pos)
    cur, rem = start, budget
    path: list[int] = []
    st.seg = 0
    st.exit = -1
    while True:
        nxt = STEP[d][cur]
        if nxt < 0:  # A-51: out through a pitch corner, over the back line
            st.end = E_BACK_LINE
            st.exit = CORNERS[0 if Y[cur] < MIDDLE_ROW else 1][0 if X[cur] <= 5 else 1]
            break
        if OUTSIDE[nxt]:  # GF-10: out, whoever stands there
            st.end = E_THROW_IN
            st.exit = nxt
            break
        if BACKLINE[nxt] and GOAL_OF[nxt] < 0:
            st.end = E_BACK_LINE
            st.exit = nxt
            break
        if occ[nxt] >= 0:
            path += [nxt, rem]
            st.end = E_RECEIVE
            break
        if GOAL_OF[nxt] >= 0:
            rem -= 1  # §9.2: the goal square costs one like any empty square
            path += [nxt, rem]
            st.end = E_SHOT
            st.strength = rem
            st.shooter = side
            break
        rem -= 1
        path += [nxt, rem]
        if rem == 0:
            st.end = E_REST
            break
        cur = nxt
    st.path = path


def _j_resolve(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """Where the ball ended once the interceptions are over."""
    end = st.end
    shootout = st.period == P_SHOOTOUT
    if end == E_SHOT:
        _push(st, ["shot"])
        return
    if shootout:
        _push(st, ["so_result", st.turn, 0])
        return
    if end in (E_REST, E_HELD):
        if st.path:
            st.ball = st.path[-2]
        _push(st, ["end_turn"])
    elif end == E_RECEIVE:
        s = st.path[-2]
        st.ball = s
        r = occupancy(st.pos)[s]
        st.ic_used.append(r)  # A-70
        _ev(ev, "receive", {"side": NAMES[SIDE[r]], "player": NUMBER[r], "square": name(s)})
        _start_play(st, SIDE[r], r, st.path[-1], K_RECEIVE)
    elif end == E_THROW_IN:
        side = 1 - st.last_touch
        _ev(ev, "out", {"exit": name(st.exit), "restart": "throw_in", "side": NAMES[side]})
        _dead(st, ev, ["r_throw", side, st.exit])
    else:
        e = 0 if Y[st.exit] < MIDDLE_ROW else 1  # the side defending that end
        if st.last_touch == e:
            cs = CORNERS[e][0 if X[st.exit] <= 5 else 1]
            _ev(ev, "out", {"exit": name(st.exit), "restart": "corner", "side": NAMES[1 - e]})
            _dead(st, ev, ["r_corner", 1 - e, cs])
        else:
            _ev(ev, "out", {"exit": name(st.exit), "restart": "goal_kick", "side": NAMES[e]})
            _dead(st, ev, ["r_kickoff", e])


# ====================================================================== shots and saves (§9)
def save_options(st: GridState) -> list[tuple[int, int]]:
    """§9.3, A-21, A-74: (save square, chance in quarters) on the final segment with a chance left."""
    g = st.path[-2]
    d = GOAL_OF[g]
    k = st.keeper[d]
    if k < 0 or st.pos[k] < 0:
        return []
    occb = occ_bits(st.pos)
    kd = layers(st.pos[k], route_bits(occb, d))
    out = []
    for i in range(st.seg, len(st.path) // 2):
        s = st.path[2 * i]
        if occb & BIT[s]:  # GF-18: only empty squares of the final segment
            continue
        k_steps = step_of(kd, s)
        if k_steps < 0:
            continue
        c = 4 - st.strength - k_steps - st.makeshift[d]
        if c >= 1:
            out.append((s, c))
    return out


def _j_shot(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    g = st.path[-2]
    d = GOAL_OF[g]
    _ev(ev, "shot", {"side": NAMES[st.shooter], "goal": name(g), "strength": st.strength})
    opts = save_options(st)
    if not opts:
        _goal(st, ev, d)
        return
    _ask(st, PH_SAVE, d, [v for s, c in opts for v in (s, c)])


def _save_actions(st: GridState) -> list[Action]:
    return [("save", st.ctx[i]) for i in range(0, len(st.ctx), 2)]


def _save_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    s = a[1]
    ctx = st.ctx
    c = next(ctx[i + 1] for i in range(0, len(ctx), 2) if ctx[i] == s)
    g = st.path[-2]
    d = GOAL_OF[g]
    k = st.keeper[d]
    st.dive_from = st.pos[k]
    st.pos[k] = s
    v = _die(st, rng, ev, 4, d, "save", False)
    if not v:
        return
    shooter = st.shooter
    if v < 5 - c:  # §9.4
        _ev(ev, "save", {"side": NAMES[d], "square": name(s), "chance": c, "outcome": "goal"})
        _step_in(st)
        _goal(st, ev, d)
        return
    if st.period == P_SHOOTOUT:
        _ev(ev, "save", {"side": NAMES[d], "square": name(s), "chance": c, "outcome": "saved"})
        _push(st, ["so_result", shooter, 0])
        return
    _touch(st, k, s, False)
    _step_in(st)
    if AREA_OF[s] != d and GOAL_OF[s] != d:  # §9.3, A-22, A-38: a save outside the area is handball
        _ev(ev, "save", {"side": NAMES[d], "square": name(s), "chance": c, "outcome": "handball"})
        first = _send_off(st, ev, k)
        _dead(st, ev, ["r_free", shooter, s, 1, 0], first=first)
        return
    if v == 5 - c:
        _ev(ev, "save", {"side": NAMES[d], "square": name(s), "chance": c, "outcome": "rebound"})
        sign = X[s] - X[st.dive_from]
        if sign == 0:
            sign = _last_dx(st)
        if sign == 0:
            _push(st, ["rebound", -1])
            _ask(st, PH_REBOUND, shooter, [])
            return
        _rebound(st, ev, 1 if sign > 0 else -1)
        return
    _ev(ev, "save", {"side": NAMES[d], "square": name(s), "chance": c, "outcome": "hold"})
    # §9.7, A-54: the keeper's side throws now, then the shooting side moves (GF-23: its turn's clean-up)
    st.turn = d
    st.touched = [k]
    st.ic_used = []
    st.deflected_by = -1
    st.next_side = shooter
    st.free_kick = False
    t = _throw_die(st, rng, ev, d)
    if not t:
        return
    _start_play(st, d, k, t, K_NORMAL)


def _last_dx(st: GridState) -> int:
    """The sign of the ball's last sideways movement on the final segment (§9.6)."""
    squares = [st.path[2 * i] for i in range(len(st.path) // 2)]
    for i in range(len(squares) - 1, 0, -1):
        dx = X[squares[i]] - X[squares[i - 1]]
        if dx:
            return 1 if dx > 0 else -1
    return 0


def _rebound_actions(st: GridState) -> list[Action]:
    return [("rebound", 1), ("rebound", -1)]


def _rebound_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    st.jobs.pop()  # the placeholder pushed with the question
    _rebound(st, ev, a[1])


def _j_rebound(st: GridState, rng: Rng, ev: list[MatchEvent], sign: int) -> None:
    _rebound(st, ev, sign)


def _rebound(st: GridState, ev: list[MatchEvent], sign: int) -> None:
    """§9.6, A-20, A-52, A-54: diagonally into the pitch towards the side the shot passed the keeper, for the
    budget left at the save square + 1; both teams may intercept; the shooter moves next."""
    k_sq = st.ball
    d_side = GOAL_OF[st.path[-2]]
    rem = next(st.path[2 * i + 1] for i in range(len(st.path) // 2) if st.path[2 * i] == k_sq)
    d = (1 if sign > 0 else 7) if d_side == 0 else (3 if sign > 0 else 5)  # NE/NW from the home goal, SE/SW
    shooter = st.shooter
    _travel(st, k_sq, d, rem + 1, d_side)
    _ev(
        ev,
        "rebound",
        {"direction": DIR_NAMES[d], "path": [name(st.path[2 * j]) for j in range(len(st.path) // 2)]},
    )
    st.next_side = shooter
    st.deflected_by = -1
    st.ic_used = []
    st.ic_both = True
    st.ic_side = d_side
    _push(st, ["icpt_start"])


def _goal(st: GridState, ev: list[MatchEvent], d: int) -> None:
    """§9.5: a goal against side ``d``; golden goal in extra time (A-68); the kick-off after a goal
    (§13.1)."""
    scorer = 1 - d
    if st.period == P_SHOOTOUT:
        _push(st, ["so_result", st.turn, 1])
        return
    st.score[scorer] += 1
    _ev(
        ev,
        "goal",
        {"side": NAMES[scorer], "score": list(st.score), "period": st.period, "minute": 6 * st.ones},
    )
    if st.period == P_EXTRA:
        _finish(st, ev, "extra_time", scorer)
        return
    _dead(st, ev, ["r_kickoff", d], after_goal=True)


# ====================================================================== the end of a turn (§6 E)
def _j_end_turn(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    _push(st, ["row1"], ["offside", st.turn], ["steps"], ["next_turn"])


def _row1_moves(st: GridState, occ: list[int]) -> list[tuple[int, list[int]]]:
    """§6.8, A-26, A-60: outfield pawns in row 1 of an end while the ball is in the other half, with the
    squares of row 2 they may go to (straight up, else a side step and up)."""
    ball = st.ball
    bh = HALF[ball] if ball >= 0 else -1
    out = []
    for end in (0, 1):
        if bh != 1 - end:
            continue
        up = 1 if end == 0 else -1
        for s in ROW1[end]:
            p = occ[s]
            if p < 0 or _is_keeper(st, p):
                continue
            above = s + 12 * up
            if _forced_free(st, occ, above, p):
                out.append((p, [above]))
                continue
            opts = []
            for dx in (1, -1) if X[s] <= 5 else (-1, 1):  # A-76: towards the centre first (the default)
                side_sq = s + dx
                if 0 <= X[s] + dx <= 11 and _forced_free(st, occ, side_sq, p):
                    a2 = side_sq + 12 * up
                    if _forced_free(st, occ, a2, p):
                        opts.append(a2)
            out.append((p, opts))
    return out


def _j_row1(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    occ = occupancy(st.pos)
    stuck: set[int] = set()
    for _ in range(40):
        todo = [(p, opts) for p, opts in _row1_moves(st, occ) if p not in stuck]
        if not todo:
            return
        p, opts = todo[0]
        if not opts:
            stuck.add(p)  # GF-6: blocked on both sides, he stays
        elif len(opts) == 1:
            _ev(ev, "row1", {"side": NAMES[SIDE[p]], "player": NUMBER[p], "to": name(opts[0])})
            _move(st, occ, p, opts[0])
        else:
            _push(st, ["row1"])
            _ask(st, PH_STEP, SIDE[p], [p, *opts])
            return


def _step_actions(st: GridState) -> list[Action]:
    return [("step", s) for s in st.ctx[1:]]


def _step_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    p = st.ctx[0]
    _ev(ev, "step", {"side": NAMES[SIDE[p]], "player": NUMBER[p], "to": name(a[1])})
    st.pos[p] = a[1]


def _offside_retreat(st: GridState, ev: list[MatchEvent], side: int) -> None:
    """§11.2, A-27, A-57: each offside pawn of ``side`` goes back towards his own back line one square at a
    time until onside; a blocked step first goes sideways towards the centre (else the other way); he stops
    before the ball or when both sides are blocked. The most advanced goes first (GF-7)."""
    pos = st.pos
    ball = st.ball
    if ball < 0 or not st.flags & F_OFFSIDE:
        return
    mates = team(st, side)
    line = offside_line(pos, side, team(st, 1 - side))
    offs = offside_pawns(pos, side, mates, line, ball)
    if not offs:
        return
    adv = ADV[side]
    limit = max(line, adv[ball])
    occ = occupancy(pos)
    back = -12 if side == 0 else 12
    for p in sorted(offs, key=lambda q: (-adv[pos[q]], q)):
        frm = pos[p]
        _slide(st, occ, p, back, lambda s: adv[s] <= limit, lambda x: (1, -1) if x <= 5 else (-1, 1))
        if pos[p] != frm:
            _ev(
                ev,
                "offside",
                {"side": NAMES[side], "player": NUMBER[p], "from": name(frm), "to": name(pos[p])},
            )


def _slide(st: GridState, occ: list[int], p: int, step: int, done: Any, sides: Any) -> None:
    """Move pawn ``p`` one square at a time by ``step`` (along the length axis) until ``done(square)``; a
    blocked step goes one square sideways first (``sides(x)``: the order to try), never back onto a square
    he left; he stops before the ball's square or when both sides are blocked (A-57)."""
    seen = {st.pos[p]}
    for _ in range(40):
        s = st.pos[p]
        if done(s):
            return
        nxt = s + step
        if nxt == st.ball:
            return
        if _forced_free(st, occ, nxt, p):
            _move(st, occ, p, nxt)
            seen.add(nxt)
            continue
        x = X[s]
        for dx in sides(x):
            t = s + dx
            if 0 <= x + dx <= 11 and t not in seen and _forced_free(st, occ, t, p):
                _move(st, occ, p, t)
                seen.add(t)
                break
        else:
            return


def _j_offside(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    _offside_retreat(st, ev, side)


def _j_offside_all(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """§11.2, §13.3: at a dead moment both coaches pull back (away first), the ball already placed."""
    _offside_retreat(st, ev, 1)
    _offside_retreat(st, ev, 0)


def _back_step(st: GridState, ev: list[MatchEvent], p: int, end: int) -> None:
    """A-56: the corner taker (or wall) steps 1 towards the middle line; if blocked, 1 along the back line
    towards the goal and then 1 towards the middle line if free; else he stays."""
    s = st.pos[p]
    if s < 0:
        return
    occ = occupancy(st.pos)
    up = 12 if end == 0 else -12
    frm = s
    if _forced_free(st, occ, s + up, p) and ON_BOARD[s + up]:
        _move(st, occ, p, s + up)
    else:
        dx = 1 if X[s] <= 5 else -1
        t = s + dx
        if 0 <= X[s] + dx <= 11 and _forced_free(st, occ, t, p):
            _move(st, occ, p, t)
            if _forced_free(st, occ, t + up, p):
                _move(st, occ, p, t + up)
    if st.pos[p] != frm:
        _ev(ev, "step", {"side": NAMES[SIDE[p]], "player": NUMBER[p], "to": name(st.pos[p])})


def _j_steps(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    _step_in(st)
    if st.corner_taker >= 0:
        p = st.corner_taker
        st.corner_taker = -1
        _back_step(st, ev, p, st.wall_end)
    if st.wall >= 0 and st.turn == st.wall_side:
        p = st.wall
        st.wall = -1
        _back_step(st, ev, p, st.wall_end)


def _j_next_turn(st: GridState, rng: Rng, ev: list[MatchEvent]) -> None:
    """§6.9, §8.7, A-18, A-54: who moves next."""
    if st.deflected_by >= 0:
        nxt = 1 - st.deflected_by
    elif st.next_side >= 0:
        nxt = st.next_side
    else:
        nxt = 1 - st.turn
    if not team(st, nxt) and team(st, 1 - nxt):
        nxt = 1 - nxt  # GF-17: a side with nobody on the pitch has no turns
    _push(st, ["turn", nxt])


# ====================================================================== dead moments and restarts (§13)
def _dead(
    st: GridState, ev: list[MatchEvent], restart: list[Any], after_goal: bool = False, first: Any = ()
) -> None:
    """§13: the common procedure of every dead moment (away first): substitutions, keepers on their goal
    squares (A-72), then the restart's own placements, the offside pull-back and the restart."""
    _step_in(st)
    st.jobs = []
    st.corner_taker = -1
    st.wall = -1
    st.free_kick = False
    st.path = []
    ag = int(after_goal)
    _push(st, *first, ["subs", 1, ag], ["subs", 0, ag], ["keeper_sq", 1], ["keeper_sq", 0], restart)


def _j_subs(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, after_goal: int) -> None:
    """§14.4: warming-up players must come on now (after a goal they may go back to the bench)."""
    base = SQUAD * side
    for p in range(base, base + SQUAD):
        if st.status[p] != S_WARMING:
            continue
        _push(st, ["subs", side, after_goal])
        _ask(st, PH_SUB, side, [p, after_goal])
        return


def entry_squares(st: GridState, on: int, off: int) -> list[int]:
    """§14.4 (PROPOSED), GF-12: where a substitute of ``on``'s kind enters when ``off`` leaves."""
    side = SIDE[on]
    occ = occupancy(st.pos)
    if off >= 0 and st.pos[off] >= 0:
        occ[st.pos[off]] = -1
    rows = [row(st.pos[q], side) for q in team(st, side) if q != off and q != st.keeper[side]]
    kind = KIND[on]
    if not rows:
        wanted = [MIDDLE_ROW]
    elif kind == DEFENDER:
        wanted = [max(2, min(rows))]
    elif kind == ATTACKER:
        wanted = [min(14, max(rows))]
    else:
        lo, hi = min(rows), max(rows)
        wanted = sorted({(lo + hi) // 2, (lo + hi + 1) // 2})
    ball = st.ball
    by = Y[ball] if ball >= 0 else -1

    def ok(s: int) -> bool:
        if not PITCH[s] or occ[s] >= 0 or s == ball:
            return False
        return not ((s in _GOAL_AREA_SET[0] and by != 1) or (s in _GOAL_AREA_SET[1] and by != 15))

    out = [sq(x, r if side == 0 else 16 - r) for r in wanted for x in range(1, 11)]
    out = [s for s in out if ok(s)]
    if out:
        return out
    for r in range(1, 16):  # GF-12: the row is full: the nearest row with room
        for rr in (min(wanted) - r, max(wanted) + r):
            if 1 <= rr <= 15:
                cand = [sq(x, rr if side == 0 else 16 - rr) for x in range(1, 11)]
                cand = [s for s in cand if ok(s)]
                if cand:
                    return cand
    return []


_GOAL_AREA_SET = (
    frozenset(s for s in range(NSQ) if Y[s] == 1 and 4 <= X[s] <= 7),
    frozenset(s for s in range(NSQ) if Y[s] == 15 and 4 <= X[s] <= 7),
)


def _sub_actions(st: GridState) -> list[Action]:
    w, after_goal = st.ctx[0], st.ctx[1]
    side = SIDE[w]
    out: list[Action] = []
    k = st.keeper[side]
    if st.subs[side] < MAX_SUBS:
        if KIND[w] == KEEPER:
            if k >= 0 and st.pos[k] >= 0:  # GF-11: keeper for keeper
                out.append(("sub", w, k, st.pos[k]))
        else:
            for off in team(st, side):
                if off == k:
                    continue
                out += [("sub", w, off, s) for s in entry_squares(st, w, off)]
    if after_goal or not out:
        out.append(("bench", w))  # GF-11: one who cannot come on goes back too
    return out


def _sub_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    if a[0] == "bench":
        st.status[a[1]] = S_DUGOUT
        _ev(ev, "bench", {"side": NAMES[SIDE[a[1]]], "player": NUMBER[a[1]]})
        return
    _substitute(st, ev, a[1], a[2], a[3])


def _substitute(st: GridState, ev: list[MatchEvent], on: int, off: int, s: int) -> None:
    """§14.4: ``on`` comes on on ``s`` for ``off`` (who leaves if he is still on), one of the side's three;
    a keeper's substitute keeps goal."""
    side = SIDE[on]
    if st.status[off] == S_PITCH:
        st.status[off] = S_SUBBED_OFF
        st.pos[off] = -1
    if st.lock == off:
        st.lock = -1
    st.status[on] = S_PITCH
    st.pos[on] = s
    st.subs[side] += 1
    if st.keeper[side] == off:
        st.keeper[side] = on
        st.makeshift[side] = int(KIND[on] != KEEPER)
    _ev(ev, "substitution", {"side": NAMES[side], "on": NUMBER[on], "off": NUMBER[off], "square": name(s)})


def _j_replace(
    st: GridState, rng: Rng, ev: list[MatchEvent], side: int, out: int, at: int, keeper: int
) -> None:
    """A-62, A-79: a replacement of the same kind on his square while substitutions remain."""
    acts = _replace_actions_for(st, side, out, keeper)
    if acts:
        _ask(st, PH_REPLACE, side, [out, at, keeper], acts)
    elif keeper:
        _push(st, ["keeper_off", side, at])


def _replace_actions_for(st: GridState, side: int, out: int, keeper: int) -> list[Action]:
    if st.subs[side] >= MAX_SUBS or not st.flags & F_SUBS:
        return []
    base = SQUAD * side
    bench = [p for p in range(base, base + SQUAD) if st.status[p] in (S_DUGOUT, S_WARMING)]
    same = [p for p in bench if KIND[p] == KIND[out]]
    if not same:
        same = [p for p in bench if KIND[p] != KEEPER]  # A-62: else any outfield; A-79 for a keeper
    return [("replace", p) for p in same]


def _replace_actions(st: GridState) -> list[Action]:
    out, _at, keeper = st.ctx
    return _replace_actions_for(st, st.dec_side, out, keeper)


def _replace_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    out, at, keeper = st.ctx
    q = a[1]
    _substitute(st, ev, q, out, at)
    if keeper:
        st.keeper[SIDE[q]] = q
        st.makeshift[SIDE[q]] = int(KIND[q] != KEEPER)  # A-79


def _j_keeper_off(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, at: int) -> None:
    """§14.2: the reserve keeper comes on for an outfield player (who leaves is the owner's choice), or with
    no substitution or reserve keeper left an outfield player keeps goal (a makeshift keeper, -1/4)."""
    if st.keeper[side] >= 0 or not team(st, side):
        return
    _ask(st, PH_KEEPER_OFF, side, [at])


def _reserve_keeper(st: GridState, side: int) -> int:
    for n in (1, 20):
        p = pawn(side, n)
        if st.status[p] in (S_DUGOUT, S_WARMING):
            return p
    return -1


def _keeper_off_actions(st: GridState) -> list[Action]:
    side = st.dec_side
    res = _reserve_keeper(st, side)
    field = team(st, side)
    if res >= 0 and st.subs[side] < MAX_SUBS and st.flags & F_SUBS:
        return [("resk", q) for q in field]
    return [("makeshift", q) for q in field]


def _keeper_off_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    side = st.dec_side
    q = a[1]
    if a[0] == "resk":
        res = _reserve_keeper(st, side)
        _substitute(st, ev, res, q, st.pos[q])
        st.keeper[side] = res
        st.makeshift[side] = 0
    else:
        st.keeper[side] = q
        st.makeshift[side] = 1
        _ev(ev, "makeshift_keeper", {"side": NAMES[side], "player": NUMBER[q]})


def _j_keeper_sq(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    k = st.keeper[side]
    if k < 0 or st.pos[k] < 0:
        return
    _ask(st, PH_KEEPER, side, [k])


def _keeper_actions(st: GridState) -> list[Action]:
    k = st.ctx[0]
    side = SIDE[k]
    occ = occupancy(st.pos)
    return [("keeper", g) for g in GOALS[side] if occ[g] < 0 or occ[g] == k]


def _keeper_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    k = st.ctx[0]
    st.pos[k] = a[1]
    _ev(ev, "keeper", {"side": NAMES[SIDE[k]], "player": NUMBER[k], "square": name(a[1])})


# ---------------------------------------------------------------------- kick-off after a goal, goal kick
def _j_r_kickoff(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    """§13.1, §13.3, A-68: the ball on the keeper; D6 + 1."""
    k = st.keeper[side]
    if k < 0 or st.pos[k] < 0:
        field = team(st, side)
        if not field:
            _finish(st, ev, _period_how(st), 1 - side)  # GF-17
            return
        k = field[0]
    st.ball = st.pos[k]
    _push(st, ["offside_all"], ["restart", side, R_KEEPER, k])


def _period_how(st: GridState) -> str:
    return "regular" if st.period == P_NORMAL else "extra_time"


# the roll of a restart (§4, §7's table, A-65): the die, the squares it adds, what the log calls it, the play
R_KEEPER, R_THROW, R_CORNER, R_PENALTY, R_SHOOTOUT = range(5)
_RESTARTS = {
    R_KEEPER: (6, 1, "keeper", K_RESTART),  # §13.1, §13.3: kick-off after a goal, goal kick: D6 + 1
    R_THROW: (4, 0, "throw_in", K_RESTART),  # §13.2, A-41: the D4
    R_CORNER: (6, 0, "corner", K_RESTART),  # §13.4.4: one step onto the ball, the whole D6
    R_PENALTY: (6, 0, "penalty", K_PENALTY),  # §13.7: D6 from the spot, into the goal
    R_SHOOTOUT: (6, 0, "shootout", K_SHOOTOUT),  # A-69
}


def _j_restart(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, what: int, keeper: int) -> None:
    """The restarting side rolls (a '1' again, not counted, §4) and its taker plays the ball; he may not
    touch it again before another player has (A-49; not in the shoot-out, where every kick is new)."""
    _new_turn(st, side)
    taker = {R_KEEPER: keeper, R_THROW: st.lock, R_CORNER: st.corner_taker}.get(what, st.kicker)
    die, plus, kind, play = _RESTARTS[what]
    v = _die(st, rng, ev, die, side, kind, True)
    if not v:
        return
    st.lock = taker if what != R_SHOOTOUT else -1
    if what == R_THROW:
        st.thrower = taker
    frm = st.pos[taker]
    if what == R_CORNER:
        st.pos[taker] = st.ball  # he steps onto the ball: no empty square walked, the whole roll
    _ev(ev, "restart", {"kind": kind, "side": NAMES[side], "player": NUMBER[taker], "squares": v + plus})
    _start_play(st, side, taker, v + plus, play)
    if what == R_CORNER and st.end == E_HELD:
        st.pos[taker] = frm  # A-43, GF-26: no complete play: he does not step onto it


# ---------------------------------------------------------------------- throw-in (§13.2)
def _throw_square(st: GridState, occ: list[int], exit_sq: int, side: int) -> int:
    """A-29: the outside square the ball left by, else the nearest free one on that touch line (nearer the
    thrower's own back line on a tie)."""
    if occ[exit_sq] < 0:
        return exit_sq
    x, y = X[exit_sq], Y[exit_sq]
    own = -1 if side == 0 else 1
    for dist in range(1, 16):
        for dy in (own * dist, -own * dist):
            yy = y + dy
            if 1 <= yy <= 15 and occ[sq(x, yy)] < 0:
                return sq(x, yy)
    return exit_sq


def _j_r_throw(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, exit_sq: int) -> None:
    occ = occupancy(st.pos)
    s = _throw_square(st, occ, exit_sq, side)
    field = _side_pawns_no_keeper(st, side)
    if not field:
        field = team(st, side)  # GF-17: with no outfield player left, the keeper throws
    if not field:
        _finish(st, ev, _period_how(st), 1 - side)
        return
    st.ball = -1
    _push(st, ["offside_all"], ["restart", side, R_THROW, -1])
    _ask_taker(st, side, T_THROW, [(p, s) for p in field])


# ---------------------------------------------------------------------- corner (§13.4)
def _corner_shift(st: GridState, ev: list[MatchEvent], end: int) -> None:
    """§13.4.1 (PROPOSED): every outfield pawn not in rows 1–2 of that end moves one square towards its back
    line, rows nearest it first; one whose square is still taken does not move."""
    occ = occupancy(st.pos)
    step = -12 if end == 0 else 12
    pawns = [p for p in range(40) if st.pos[p] >= 0 and not _is_keeper(st, p) and row(st.pos[p], end) >= 3]
    pawns.sort(key=lambda p: (row(st.pos[p], end), p))
    for p in pawns:
        t = st.pos[p] + step
        if occ[t] < 0:
            _move(st, occ, p, t)
    _ev(ev, "corner_shift", {"end": NAMES[end]})


def _j_r_corner(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, cs: int) -> None:
    end = 1 - side
    st.ball = -1
    _corner_shift(st, ev, end)
    occ = occupancy(st.pos)
    field = _side_pawns_no_keeper(st, side) or team(st, side)
    if not field:
        _finish(st, ev, _period_how(st), 1 - side)
        return
    pairs: list[tuple[int, int]] = []
    for n in N4[cs]:
        o = occ[n]
        if o < 0 and WALKABLE[n]:
            pairs += [(p, n) for p in field]
        elif o >= 0 and o in field:
            pairs.append((o, n))
    if not pairs:
        pairs = [(p, cs) for p in field]  # A-73: both held by opponents: he is placed on the ball
    st.ball = cs
    st.wall_end = end
    _push(st, ["r_wall", end, cs], ["offside_all"], ["restart", side, R_CORNER, -1])
    _ask_taker(st, side, T_CORNER, pairs)


def _j_r_wall(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, cs: int) -> None:
    """§13.4.3, A-73: the defending side's wall on the back line two squares from the ball."""
    ws = cs + (2 if X[cs] <= 5 else -2)
    occ = occupancy(st.pos)
    field = _side_pawns_no_keeper(st, side)
    o = occ[ws]
    if o >= 0:
        if o in field:
            st.wall = o
            st.wall_side = side
        return
    if field:
        _ask_taker(st, side, T_WALL, [(p, ws) for p in field])


# ---------------------------------------------------------------------- free kick (§13.5)
def _victim_spot(st: GridState, occ: list[int], b: int, p: int) -> int:
    """§13.5.2, A-30: one square towards his own back line, else towards the nearer touch line, else the
    other, else the nearest free square."""
    side = SIDE[p]
    back = b + (-12 if side == 0 else 12)
    x = X[b]
    sides = (b - 1, b + 1) if x <= 5 else (b + 1, b - 1)
    for s in (back, *sides):
        if 0 <= s < NSQ and abs(X[s] - x) <= 1 and _forced_free(st, occ, s, p):
            return s
    return _nearest_free(st, occ, b, p)


def _j_r_free(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, b: int, kf: int, kv: int) -> None:
    """§13.5: the ball on the foul square; the offside pull-back (GF-14: before the placements, so that it
    cannot bring anyone back into the ring); the fouled player beside the ball; the fouler (or the wall)
    walks away; his team-mates leave the ring; then the free-kick side must play the ball."""
    st.ball = b
    _push(st, ["offside_all"], ["fk_place", side, b, kf, kv])


def _j_fk_place(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, b: int, kf: int, kv: int) -> None:
    other = 1 - side
    here = [p for p in range(40) if st.pos[p] == b]
    victim = next((p for p in here if SIDE[p] == side and not _is_keeper(st, p)), -1)
    fouler = next((p for p in here if SIDE[p] == other and not _is_keeper(st, p)), -1)
    _push(st, ["fk_wall", other, b, fouler, kf], ["fk_ring", other, b], ["rf_turn", side])
    if victim >= 0:
        _place_victim(st, ev, victim, b)
    elif not kv:
        field = [p for p in _side_pawns_no_keeper(st, side) if st.pos[p] != b]
        if field:  # §13.5.2: another outfield player takes his place
            _ask_taker(st, side, T_VICTIM, [(p, b) for p in field])


def _place_victim(st: GridState, ev: list[MatchEvent], p: int, b: int) -> None:
    occ = occupancy(st.pos)
    for q in range(40):
        if st.pos[q] == b and q != p:
            occ[b] = q
    s = _victim_spot(st, occ, b, p)
    if s >= 0:
        st.pos[p] = s
        _ev(ev, "placed", {"side": NAMES[SIDE[p]], "player": NUMBER[p], "square": name(s), "as": "victim"})


def _j_fk_wall(
    st: GridState, rng: Rng, ev: list[MatchEvent], side: int, b: int, fouler: int, kf: int
) -> None:
    if fouler >= 0 and st.pos[fouler] == b and not kf:
        _push(st, ["fk_walk", fouler, b, 0, 0])
        return
    field = [p for p in _side_pawns_no_keeper(st, side) if st.pos[p] != b]
    if fouler >= 0 and st.pos[fouler] == b:
        field = [fouler, *field]
    if field:  # §13.5 exceptions 2 and 3, or a fouler sent off: another outfield player is the wall
        _push(st, ["fk_walk", -1, b, 0, 0])
        _ask_taker(st, side, T_WALL_FK, [(p, b) for p in field])


def _fk_mode(b: int, side: int) -> tuple[int, int]:
    """§13.5 exception 1: beside the area in rows 1–2 the wall walks towards the far touch line; in row 3 of
    columns 1, 2, 9, 10 two squares diagonally towards his own goal; else towards his own back line. Returns
    (main step, mode)."""
    x = X[b]
    r = row(b, side)
    back = -12 if side == 0 else 12
    if x in (1, 2, 9, 10) and r in (1, 2):
        return (1 if x <= 5 else -1), 1
    if x in (1, 2, 9, 10) and r == 3:
        return back + (1 if x <= 5 else -1), 2
    return back, 0


def _j_fk_walk(st: GridState, rng: Rng, ev: list[MatchEvent], p: int, b: int, done: int, tries: int) -> None:
    """A-58: the wall steps away from the ball until at least two squares (king distance) from it, at least
    two main steps; a blocked step first goes sideways (owner's choice when both are free, A-76)."""
    if p < 0:
        p = st.wall_fk
    side = SIDE[p]
    main, mode = _fk_mode(b, side)
    occ = occupancy(st.pos)
    for q in range(40):
        if st.pos[q] == b and q != p:
            occ[b] = q
    occ[st.pos[p]] = p
    for _ in range(20 - tries):
        s = st.pos[p]
        if done >= 2 and king(s, b) >= 2:
            break
        t = s + main
        if mode == 2 and not (0 <= t < NSQ and abs(X[t] - X[s]) == 1 and _forced_free(st, occ, t, p)):
            main, mode = (-12 if side == 0 else 12), 0  # GF-15: the diagonal is blocked: the usual way
            t = s + main
        if 0 <= t < NSQ and abs(X[t] - X[s]) <= 1 and _forced_free(st, occ, t, p):
            _move(st, occ, p, t)
            done += 1
            tries += 1
            continue
        if mode == 1:
            opts = [s + d for d in ((-12, 12) if side == 0 else (12, -12))]
        else:
            x = X[s]
            opts = [s - 1, s + 1] if x <= 5 else [s + 1, s - 1]
        opts = [o for o in opts if 0 <= o < NSQ and abs(X[o] - X[s]) <= 1 and _forced_free(st, occ, o, p)]
        if not opts:
            break
        tries += 1
        if len(opts) == 2 and mode == 0:
            _push(st, ["fk_walk", p, b, done, tries])
            _ask(st, PH_STEP, side, [p, *opts])
            return
        _move(st, occ, p, opts[0])
    _ev(ev, "placed", {"side": NAMES[side], "player": NUMBER[p], "square": name(st.pos[p]), "as": "wall"})


def _j_fk_ring(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, b: int) -> None:
    """§13.5.4: the fouler's team-mates inside the ring of eight around the ball leave it by the shortest
    way."""
    occ = occupancy(st.pos)
    for p in team(st, side):
        s = st.pos[p]
        if king(s, b) > 1 or _is_keeper(st, p):
            continue
        t = _nearest_free(st, occ, s, p, lambda n: king(n, b) >= 2)
        if t >= 0:
            _move(st, occ, p, t)
            _ev(ev, "placed", {"side": NAMES[side], "player": NUMBER[p], "square": name(t), "as": "ring"})


def _j_rf_turn(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    """§13.5.5, A-48, A-75: the free-kick side rolls (1s again) and one of its players must play the ball."""
    _new_turn(st, side)
    st.free_kick = True
    v = _die(st, rng, ev, 6, side, "free_kick", True)
    if not v:
        return
    st.roll = v
    _ev(ev, "restart", {"kind": "free_kick", "side": NAMES[side], "roll": v})
    _ask(st, PH_ACT, side, [], act_actions(st))


# ---------------------------------------------------------------------- penalty (§13.7)
def _clear_area(st: GridState, ev: list[MatchEvent], d: int) -> None:
    """§13.7.1: outfield pawns in ``d``'s penalty area move towards the middle line (side steps towards the
    nearer touch line when blocked, GF-16) until out of it."""
    occ = occupancy(st.pos)
    up = 12 if d == 0 else -12
    pawns = [p for p in range(40) if st.pos[p] >= 0 and AREA_OF[st.pos[p]] == d and not _is_keeper(st, p)]
    pawns.sort(key=lambda p: (-row(st.pos[p], d), p))
    for p in pawns:
        _slide(st, occ, p, up, lambda s: AREA_OF[s] != d, lambda x: (-1, 1) if x <= 5 else (1, -1))
    _ev(ev, "area_cleared", {"area": NAMES[d]})


def _j_r_penalty(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    d = 1 - side
    st.ball = -1
    # the fouler and the victim share the foul square: take the fouler off it first
    _clear_area(st, ev, d)
    _push(st, ["offside_all"], ["restart", side, R_PENALTY, -1])
    _ask_penalty_taker(st, ev, side, T_PENALTY)


def _ask_penalty_taker(st: GridState, ev: list[MatchEvent], side: int, what: int) -> None:
    d = 1 - side
    occ = occupancy(st.pos)
    spots = [s for s in PENALTY_SPOTS[d] if occ[s] < 0]
    field = _side_pawns_no_keeper(st, side) or team(st, side)
    if what == T_SHOOTOUT:
        counts = {p: sum(1 for k in st.kicks if k[1] == p) for p in field}
        low = min(counts.values(), default=0)
        field = [p for p in field if counts[p] == low]
    if not spots:
        spots = list(PENALTY_SPOTS[d])
    pairs = [(p, s) for p in field for s in spots]
    if not pairs:
        st.jobs = [j for j in st.jobs if j[0] != "restart"]
        if what == T_SHOOTOUT:
            _push(st, ["so_result", side, 0])
        else:
            _push(st, ["turn", d])
        return
    _ask_taker(st, side, what, pairs)


# ---------------------------------------------------------------------- placements asked (PH_TAKER)
def _ask_taker(st: GridState, side: int, what: int, pairs: list[tuple[int, int]]) -> None:
    """Ask ``side`` to place a player for a set piece; the (player, square) pairs are kept in the context."""
    _ask(st, PH_TAKER, side, [what, *(v for pair in pairs for v in pair)])


def _taker_actions(st: GridState) -> list[Action]:
    what = st.ctx[0]
    tag = "wall" if what in (T_WALL, T_WALL_FK) else "taker"
    return [(tag, st.ctx[i], st.ctx[i + 1]) for i in range(1, len(st.ctx), 2)]


def _taker_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    what = st.ctx[0]
    p, s = a[1], a[2]
    side = SIDE[p]
    if what == T_VICTIM:
        _place_victim(st, ev, p, s)
        return
    st.pos[p] = s
    if what == T_WALL_FK:
        st.wall_fk = p  # he walks away from the ball next (§13.5.3)
        return
    if what == T_THROW:
        st.ball = s
        st.lock = p
    elif what == T_CORNER:
        st.corner_taker = p
    elif what == T_WALL:
        st.wall = p
        st.wall_side = side
    else:  # a penalty or a shoot-out kick: the taker on the spot with the ball
        st.ball = s
        st.kicker = p
    role = {T_THROW: "thrower", T_CORNER: "corner_taker", T_WALL: "wall"}.get(what, "penalty_taker")
    _ev(ev, "placed", {"side": NAMES[side], "player": NUMBER[p], "square": name(s), "as": role})


# ====================================================================== the shoot-out (A-69)
def _start_shootout(st: GridState, ev: list[MatchEvent]) -> None:
    st.period = P_SHOOTOUT
    st.pens = [0, 0]
    st.kicks = []
    st.corner_taker = st.wall = st.thrower = -1
    st.lock = -1
    for p in range(40):
        if st.status[p] == S_WARMING:
            st.status[p] = S_DUGOUT  # GF-19: no substitutions in the shoot-out
    _ev(ev, "shootout", {"kicks": st.shootout_kicks, "first": "away"})
    _push(st, ["so_kick", 1])


def _j_so_kick(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    d = 1 - side
    st.ball = -1
    _new_turn(st, side)
    _push(st, ["keeper_sq", d], ["so_clear", d], ["so_take", side])


def _j_so_clear(st: GridState, rng: Rng, ev: list[MatchEvent], d: int) -> None:
    _clear_area(st, ev, d)


def _j_so_take(st: GridState, rng: Rng, ev: list[MatchEvent], side: int) -> None:
    _push(st, ["restart", side, R_SHOOTOUT, -1])
    _ask_penalty_taker(st, ev, side, T_SHOOTOUT)


def _j_so_result(st: GridState, rng: Rng, ev: list[MatchEvent], side: int, scored: int) -> None:
    """A-69: five kicks each (stopping when one side cannot catch up), then sudden death by pairs."""
    assert st.pens is not None
    taker = st.kicker
    st.kicks.append([side, taker, scored])
    st.pens[side] += scored
    _ev(
        ev,
        "shootout_kick",
        {"side": NAMES[side], "player": NUMBER[taker], "scored": bool(scored), "pens": list(st.pens)},
    )
    pens = st.pens
    taken = [sum(1 for k in st.kicks if k[0] == s) for s in (0, 1)]
    n = st.shootout_kicks
    left = [max(0, n - taken[0]), max(0, n - taken[1])]
    if (taken[0] <= n and taken[1] <= n and (pens[0] + left[0] < pens[1] or pens[1] + left[1] < pens[0])) or (
        taken[0] == taken[1] and taken[0] >= n and pens[0] != pens[1]
    ):
        _finish(st, ev, "penalties", 0 if pens[0] > pens[1] else 1)
    else:
        _push(st, ["so_kick", 1 - side])


# ====================================================================== tables of jobs, actions, effects
_JOBS: dict[str, Any] = {
    "setup": _j_setup,
    "centre": _j_centre,
    "opening": _j_opening,
    "open_kick": _j_open_kick,
    "turn": _j_turn,
    "roll": _j_roll,
    "after_play": _j_after_play,
    "icpt_start": _j_icpt_start,
    "icpt": _j_icpt,
    "resolve": _j_resolve,
    "shot": _j_shot,
    "rebound": _j_rebound,
    "end_turn": _j_end_turn,
    "row1": _j_row1,
    "offside": _j_offside,
    "offside_all": _j_offside_all,
    "steps": _j_steps,
    "next_turn": _j_next_turn,
    "subs": _j_subs,
    "replace": _j_replace,
    "keeper_off": _j_keeper_off,
    "keeper_sq": _j_keeper_sq,
    "r_kickoff": _j_r_kickoff,
    "restart": _j_restart,
    "r_throw": _j_r_throw,
    "r_corner": _j_r_corner,
    "r_wall": _j_r_wall,
    "r_free": _j_r_free,
    "fk_place": _j_fk_place,
    "fk_wall": _j_fk_wall,
    "fk_walk": _j_fk_walk,
    "fk_ring": _j_fk_ring,
    "rf_turn": _j_rf_turn,
    "r_penalty": _j_r_penalty,
    "so_kick": _j_so_kick,
    "so_clear": _j_so_clear,
    "so_take": _j_so_take,
    "so_result": _j_so_result,
}


def _lineup_actions(st: GridState) -> list[Action]:
    side = st.dec_side if st.dec_side >= 0 else (1 if st.lineup[1] is None else 0)
    out: list[Action] = []
    for f in FORMATIONS:
        a = _lineup_for(st, side, f)
        if a is not None:
            out.append(a)
    return out


def _lineup_effect(st: GridState, a: Action, rng: Rng, ev: list[MatchEvent]) -> None:
    _, side, numbers, keeper_col, centres = a
    st.lineup[side] = [*numbers, keeper_col, *centres]
    _ev(ev, "lineup_chosen", {"side": NAMES[side]})
    _ev(ev, "lineup", {"side": NAMES[side], "players": list(numbers)}, NAMES[side])
    if st.lineup[0] is None or st.lineup[1] is None:
        st.phase = PH_LINEUP
        st.dec_side = 0 if st.lineup[0] is None else 1
        return
    _push(st, ["setup"])


_ACTIONS: dict[int, Any] = {
    PH_LINEUP: _lineup_actions,
    PH_COLLIDE: _collide_actions,
    PH_CENTRE: _centre_actions,
    PH_KICKOFF_PLAYER: _kicker_actions,
    PH_WARMUP: _warmup_actions,
    PH_FOUL: lambda st: [("foul", st.ctx[i], st.ctx[i + 1]) for i in range(0, len(st.ctx), 2)],
    PH_ACT: act_actions,
    PH_LEG: _leg_actions,
    PH_FOLLOW: follow_actions,
    PH_INTERCEPT: _intercept_actions,
    PH_SAVE: _save_actions,
    PH_REBOUND: _rebound_actions,
    PH_KEEPER: _keeper_actions,
    PH_SUB: _sub_actions,
    PH_REPLACE: _replace_actions,
    PH_KEEPER_OFF: _keeper_off_actions,
    PH_TAKER: _taker_actions,
    PH_STEP: _step_actions,
}
_EFFECTS: dict[int, Any] = {
    PH_LINEUP: _lineup_effect,
    PH_COLLIDE: _collide_effect,
    PH_CENTRE: _centre_effect,
    PH_KICKOFF_PLAYER: _kicker_effect,
    PH_WARMUP: _warmup_effect,
    PH_FOUL: _foul_effect,
    PH_ACT: _act_effect,
    PH_LEG: _leg_effect,
    PH_FOLLOW: _follow_effect,
    PH_INTERCEPT: _intercept_effect,
    PH_SAVE: _save_effect,
    PH_REBOUND: _rebound_effect,
    PH_KEEPER: _keeper_effect,
    PH_SUB: _sub_effect,
    PH_REPLACE: _replace_effect,
    PH_KEEPER_OFF: _keeper_off_effect,
    PH_TAKER: _taker_effect,
    PH_STEP: _step_effect,
}


# ====================================================================== notation and decision dicts
# the keys of each decision kind (besides "kind") and what each is
_SHAPES: dict[str, dict[str, str]] = {
    "lineup": {"players": "numbers", "keeper_column": "?column", "centre": "?columns"},
    "roll": {},
    "warm_up": {"player": "own"},
    "foul": {"player": "own", "victim": "other"},
    "walk": {"player": "own", "to": "square"},
    "ball": {"player": "own", "steps": "int"},
    "catch": {"player": "own"},
    "charge": {"player": "own", "victim": "other"},
    "pass": {},
    "kick": {"path": "path"},
    "follow": {"player": "own", "to": "square"},
    "no_follow": {},
    "intercept": {"player": "own"},
    "let_pass": {},
    "save": {"square": "square"},
    "rebound": {"side": "word"},
    "keeper": {"square": "square"},
    "substitute": {"on": "own", "off": "own", "to": "square"},
    "bench": {"player": "own"},
    "replace": {"player": "own"},
    "reserve_keeper": {"off": "own"},
    "makeshift_keeper": {"player": "own"},
    "taker": {"player": "own", "square": "square"},
    "wall": {"player": "own", "square": "square"},
    "centre": {"player": "own", "square": "square"},
    "step": {"to": "square"},
    "collide": {"squares": "squares"},
    "kicker": {"player": "own"},
}
_KIND_TAG = {
    "roll": "roll",
    "warm_up": "warm",
    "foul": "foul",
    "walk": "walk",
    "ball": "ball",
    "catch": "catch",
    "charge": "charge",
    "pass": "pass",
    "kick": "kick",
    "follow": "follow",
    "no_follow": "nofollow",
    "intercept": "int",
    "let_pass": "let",
    "save": "save",
    "rebound": "rebound",
    "keeper": "keeper",
    "substitute": "sub",
    "bench": "bench",
    "replace": "replace",
    "reserve_keeper": "resk",
    "makeshift_keeper": "makeshift",
    "taker": "taker",
    "wall": "wall",
    "centre": "centre",
    "step": "step",
    "collide": "collide",
    "kicker": "kicker",
}
_TAG_KIND = {tag: kind for kind, tag in _KIND_TAG.items()}
# the text of each action (RULES.md, "Notation"): its values in the order of the kind's keys
_NOTATION = {
    "roll": "roll",
    "warm": "{0} warm up",
    "foul": "{0} foul {1}",
    "walk": "{0} {1}",
    "ball": "{0} ball {1}",
    "catch": "{0} catch",
    "charge": "{0} charge {1}",
    "pass": "pass",
    "kick": "{0}",
    "follow": "{0} follow {1}",
    "nofollow": "no follow",
    "int": "{0} intercept",
    "let": "let pass",
    "save": "save {0}",
    "rebound": "rebound {0}",
    "keeper": "keeper {0}",
    "sub": "{0} on for {1} {2}",
    "bench": "{0} bench",
    "replace": "{0} replace",
    "resk": "reserve keeper for {0}",
    "makeshift": "{0} makeshift keeper",
    "taker": "{0} taker {1}",
    "wall": "{0} wall {1}",
    "centre": "{0} centre {1}",
    "step": "step {0}",
    "collide": "collide {0}",
    "kicker": "{0} kicker",
}


def _values(a: Action, text: bool) -> list[Any]:
    """An action's values as its decision dict (``text`` False) or its notation (True) words them."""
    out: list[Any] = []
    for what, v in zip(_SHAPES[_TAG_KIND[a[0]]].values(), a[1:], strict=True):
        if what in ("own", "other"):
            out.append(label(v) if text else NUMBER[v])
        elif what == "square":
            out.append(name(v))
        elif what == "word":
            out.append("east" if v > 0 else "west")
        elif what == "path":
            out.append(">".join(name(s) for s in v))
        elif what == "squares":
            out.append(" ".join(name(s) for s in v) if text else [name(s) for s in v])
        else:
            out.append(v)
    return out


def notation(st: GridState, a: Action) -> str:
    """Our compact text of an action (RULES.md, "Notation")."""
    if a[0] == "lineup":  # GF-30: the players stay secret until both line-ups are in (the lineups event)
        return f"{LETTER[a[1]]} lineup"
    return _NOTATION[a[0]].format(*_values(a, True))


_SQUARE_NAMES = tuple(name(s) for s in range(NSQ))
# per value shape, how a decision dict words it (as ``_values`` does with ``text`` False)
_WORDING: dict[str, Any] = {
    "own": NUMBER.__getitem__,
    "other": NUMBER.__getitem__,
    "square": _SQUARE_NAMES.__getitem__,
    "word": lambda v: "east" if v > 0 else "west",
    "path": lambda v: ">".join([_SQUARE_NAMES[s] for s in v]),
    "squares": lambda v: [_SQUARE_NAMES[s] for s in v],
}


def _as_is(v: Any) -> Any:
    return v


def _dict_maker(kind: str) -> Any:
    """The function wording an action of ``kind`` as its decision dict. Why one per kind: the decision loop
    words every legal action of every decision (hundreds a turn), once the costliest part of it."""
    plan = [(key, _WORDING.get(what, _as_is)) for key, what in _SHAPES[kind].items()]
    if not plan:
        return lambda a: {"kind": kind}
    if len(plan) == 1:
        ((k1, w1),) = plan
        return lambda a: {"kind": kind, k1: w1(a[1])}
    if len(plan) == 2:
        (k1, w1), (k2, w2) = plan
        return lambda a: {"kind": kind, k1: w1(a[1]), k2: w2(a[2])}
    return lambda a: {"kind": kind, **{key: word(v) for (key, word), v in zip(plan, a[1:], strict=True)}}


_DICT_MAKERS = {tag: _dict_maker(kind) for kind, tag in _KIND_TAG.items()}


def action_dict(st: GridState, a: Action) -> dict[str, Any]:
    """The decision dict of a canonical action (what ``apply`` accepts)."""
    tag = a[0]
    if tag == "lineup":
        return {"kind": "lineup", "players": list(a[2]), "keeper_column": a[3], "centre": list(a[4])}
    return _DICT_MAKERS[tag](a)


# which decision kinds each phase asks
_PHASE_KINDS: dict[int, tuple[str, ...]] = {
    PH_LINEUP: ("lineup",),
    PH_COLLIDE: ("collide",),
    PH_CENTRE: ("centre",),
    PH_KICKOFF_PLAYER: ("kicker",),
    PH_WARMUP: ("roll", "warm_up"),
    PH_FOUL: ("foul",),
    PH_ACT: ("walk", "ball", "catch", "charge", "pass"),
    PH_LEG: ("kick",),
    PH_FOLLOW: ("follow", "no_follow"),
    PH_INTERCEPT: ("intercept", "let_pass"),
    PH_SAVE: ("save",),
    PH_REBOUND: ("rebound",),
    PH_KEEPER: ("keeper",),
    PH_SUB: ("substitute", "bench"),
    PH_REPLACE: ("replace",),
    PH_KEEPER_OFF: ("reserve_keeper", "makeshift_keeper"),
    PH_TAKER: ("taker", "wall"),
    PH_STEP: ("step",),
}


def _number(value: Any, key: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise MalformedDecision(f"{key} must be a squad number (an integer)", key=key)
    if not 1 <= value <= SQUAD:
        raise IllegalDecision(f"there is no player {value} in a squad of 20", reason="no_such_player")
    return value


def _square(value: Any, key: str) -> int:
    s = parse_square(value)
    if s is None:
        raise MalformedDecision(f"{key} must be a square of the board as 'x,y', e.g. '5,8'", key=key)
    return s


def parse_choice(st: GridState, side: int, choice: Any) -> Action:
    """A decision dict as a canonical action, checking only its shape (``MalformedDecision``)."""
    if not isinstance(choice, dict) or not isinstance(choice.get("kind"), str):
        raise MalformedDecision("a decision is a dict with a string 'kind'", choice=repr(choice)[:200])
    kind = choice["kind"]
    shape = _SHAPES.get(kind)
    if shape is None:
        raise MalformedDecision(f"unknown decision kind {kind[:40]!r}", kind=kind[:40])
    required = {k for k, v in shape.items() if not v.startswith("?")}
    keys = set(choice) - {"kind"}
    if not required <= keys or not keys <= set(shape):
        want = ", ".join(sorted(shape)) or "nothing else"
        raise MalformedDecision(f"a {kind!r} decision has the keys kind, {want}", kind=kind)
    if kind == "lineup":
        players = choice["players"]
        if not isinstance(players, list) or not all(
            isinstance(n, int) and not isinstance(n, bool) for n in players
        ):
            raise MalformedDecision("players is a list of squad numbers", key="players")
        kc = choice.get("keeper_column", 5)
        centre = choice.get("centre", [5, 5, 5])
        if kc not in (5, 6) or isinstance(kc, bool):
            raise MalformedDecision(
                "keeper_column is 5 or 6 (the goal square he starts on)", key="keeper_column"
            )
        if (
            not isinstance(centre, list)
            or len(centre) != 3
            or any(c not in (5, 6) or isinstance(c, bool) for c in centre)
        ):
            raise MalformedDecision(
                "centre is three columns, 5 or 6 (defence, midfield, attack)", key="centre"
            )
        return ("lineup", side, tuple(players), kc, tuple(centre))
    out: list[Any] = [_KIND_TAG[kind]]
    for key, what in shape.items():
        value = choice[key]
        if what == "own":
            out.append(pawn(side, _number(value, key)))
        elif what == "other":
            out.append(pawn(1 - side, _number(value, key)))
        elif what == "square":
            out.append(_square(value, key))
        elif what == "int":
            if not isinstance(value, int) or isinstance(value, bool):
                raise MalformedDecision(f"{key} must be an integer", key=key)
            out.append(value)
        elif what == "word":
            if value not in ("east", "west"):
                raise MalformedDecision("side is 'east' or 'west'", key=key)
            out.append(1 if value == "east" else -1)
        elif what == "path":
            if not isinstance(value, str) or not value:
                raise MalformedDecision("path is the squares the ball enters as 'x,y>x,y>…'", key=key)
            out.append(tuple(_square(part, key) for part in value.split(">")))
        elif what == "squares":
            if not isinstance(value, list):
                raise MalformedDecision(f"{key} is a list of squares", key=key)
            out.append(tuple(_square(v, key) for v in value))
    return tuple(out)


def why_illegal(st: GridState, a: Action) -> Refusal:
    """Why a well-formed action is not legal now: a msgid the player reads in his language, and its values."""
    k = a[0]
    side = st.dec_side
    if k == "lineup":
        return lineup_error(st, a[1], list(a[2])) or (N_("that line-up is not possible (§3)"), {})
    if k in ("walk", "ball", "catch", "charge", "follow", "taker", "wall", "int", "foul"):
        p = a[1]
        if st.pos[p] < 0 and k not in ("taker", "wall"):
            return N_("player %(n)s is not on the pitch"), {"n": NUMBER[p]}
    if k == "walk" and st.phase == PH_ACT:
        p, w = a[1], a[2]
        if st.free_kick:
            return N_("at a free kick one of your players must play the ball this turn (§13.5)"), {}
        occb = occ_bits(st.pos)
        free = walk_free_bits(occb, st.ball, side, p == st.keeper[side], bool(st.flags & F_SPOIL))
        d = step_of(layers(st.pos[p], free), w)
        words = {"n": NUMBER[p], "square": name(w), "roll": st.roll}
        if occb & BIT[w]:
            return N_("%(square)s is taken: players never walk onto or through another player (§6 A)"), words
        if not free & BIT[w]:
            return N_("player %(n)s may not stand on %(square)s now (goal squares, goal areas: §12)"), words
        if d < 0 or d > st.roll:
            return N_("a walk to %(square)s is longer than the roll of %(roll)s (§6 A)"), words
        return (
            N_(
                "player %(n)s cannot end a walk of exactly %(roll)s steps on %(square)s, or it would break "
                "the anti-spoiling rules while a clean move exists (§6 A, §12, A-66)"
            ),
            words,
        )
    if k == "ball":
        if st.lock == a[1]:
            return N_(
                "the restart taker may not touch the ball again before another player has (§4, A-49)"
            ), {}
        return (
            N_(
                "player %(n)s cannot reach the ball in %(steps)s steps of a roll of %(roll)s and play it "
                "on (§6 B)"
            ),
            {"n": NUMBER[a[1]], "steps": a[2], "roll": st.roll},
        )
    if k == "kick":
        return (
            N_(
                "the ball cannot take that path: one direction with at most one 45-degree curve, exactly the "
                "squares left, never through an opponent or out of play, a relay only to a team-mate who may "
                "receive (§7)"
            ),
            {},
        )
    if k == "follow":
        return N_(
            "that follow does not take him two steps nearer the ball, strictly nearest of his team (§6 D)"
        ), {}
    return N_("that choice is not one of the pending decision's legal choices"), {}


# ====================================================================== the format
class GridFootballFormat:
    """Grid football behind the ``MatchFormat`` protocol; stateless, so one instance serves every match."""

    key = "grid-football"

    # ------------------------------------------------------------------ protocol
    def start(self, setup: MatchSetup, rng: Rng) -> GridState:
        """A new match: both line-ups are pending (§3.2)."""
        return self.start_with_events(setup, rng)[0]

    def start_with_events(self, setup: MatchSetup, rng: Rng) -> tuple[GridState, list[MatchEvent]]:
        """``start`` plus its event."""
        options = dict(getattr(setup, "options", None) or {})
        unknown = sorted(set(options) - _OPTIONS)
        if unknown:
            raise InvalidSetup(f"unknown grid-football options: {', '.join(unknown)}", options=unknown)
        fixed = options.get("fixed_length", False)
        if not isinstance(fixed, bool):
            raise InvalidSetup("fixed_length is True or False", option="fixed_length")
        flags = F_ALL
        for key, bit in FLAG_OPTIONS.items():
            on = options.get(key, True)
            if not isinstance(on, bool):
                raise InvalidSetup(f"{key} is True or False", option=key)
            if not on:
                flags &= ~bit
        limits = {
            "normal_ones": NORMAL_ONES,
            "extra_ones": EXTRA_ONES,
            "fixed_rolls": FIXED_ROLLS,
            "shootout_kicks": SHOOTOUT_KICKS,
        }
        for key in limits:
            value = options.get(key, limits[key])
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 1000:
                raise InvalidSetup(f"{key} must be an integer from 1 to 1000", option=key)
            limits[key] = value
        status = [S_DUGOUT] * 40
        unavailable = options.get("unavailable", {})
        if not isinstance(unavailable, dict) or not set(unavailable) <= {"home", "away"}:
            raise InvalidSetup("unavailable is {'home': [numbers], 'away': [numbers]}", option="unavailable")
        for side_name, numbers in unavailable.items():
            if not isinstance(numbers, list | tuple) or not all(
                isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= SQUAD for n in numbers
            ):
                raise InvalidSetup("unavailable lists squad numbers 1..20", option="unavailable")
            for n in numbers:
                status[pawn(NAMES.index(side_name), n)] = S_UNAVAILABLE
        st = GridState(
            labels=[setup.home.label, setup.away.label],
            knockout=bool(setup.knockout),
            fixed=fixed,
            flags=flags,
            normal_ones=limits["normal_ones"],
            extra_ones=limits["extra_ones"],
            fixed_rolls=limits["fixed_rolls"],
            fixed_extra_rolls=max(1, limits["fixed_rolls"] // 3),
            shootout_kicks=limits["shootout_kicks"],
            status=status,
            pos=[-1] * 40,
            yellow=[0] * 40,
            red=[0] * 40,
            bandage=[0] * 40,
            keeper=[-1, -1],
            makeshift=[0, 0],
            subs=[0, 0],
            lineup=[None, None],
            ball=-1,
            last_touch=-1,
            last_play=-1,
            last_deflect=False,
            lock=-1,
            period=P_NORMAL,
            ones=0,
            rolls=0,
            fouls=0,
            score=[0, 0],
            pens=None,
            kicks=[],
            opening=-1,
            turn=0,
            roll=0,
            free_kick=False,
            next_side=-1,
            deflected_by=-1,
            play_side=-1,
            play_kind=K_NORMAL,
            kicker=-1,
            budget=0,
            touches=0,
            prev=-1,
            must_goal=False,
            path=[],
            seg=0,
            end=E_REST,
            exit=-1,
            touched=[],
            forbid=[],
            thrower=-1,
            ic_side=-1,
            ic_both=False,
            ic_cand=[],
            ic_i=0,
            ic_used=[],
            shooter=-1,
            strength=0,
            dive_from=-1,
            corner_taker=-1,
            wall=-1,
            wall_side=-1,
            wall_end=-1,
            wall_fk=-1,
            phase=PH_LINEUP,
            dec_side=-1,
            ctx=[],
            jobs=[],
            winner=-1,
            decided_by="",
            last="",
        )
        for side in (0, 1):
            if default_lineup(st, side) is None:
                raise InvalidSetup(f"{NAMES[side]} cannot field a line-up with these players unavailable")
        ev: list[MatchEvent] = []
        _ev(ev, "match_start", {"labels": list(st.labels), "fixed_length": fixed})
        return st, ev

    def decisions(self, state: GridState) -> list[Decision]:
        """The pending decisions: both line-ups at the start, else the one side's decision."""
        st = state
        if st.phase == PH_OVER:
            return []
        if st.phase == PH_LINEUP:
            out = []
            for side in (0, 1):
                if st.lineup[side] is None:
                    default = default_lineup(st, side)
                    assert default is not None
                    out.append(
                        Decision(
                            NAMES[side],
                            "lineup",
                            (),
                            action_dict(st, default),
                            self._lineup_options(st, side),
                        )
                    )
            return out
        acts = self.legal_actions(st)
        choices = tuple(action_dict(st, a) for a in acts)
        default = choices[_default_index(st, acts)]
        options: dict[str, Any] = {}
        if st.phase == PH_ACT:
            options = {"roll": st.roll, "free_kick": st.free_kick}
        elif st.phase == PH_LEG:
            options = {"budget": st.budget, "touches": st.touches, "from": name(st.ball)}
        elif st.phase == PH_SAVE:
            options = {"chances": {name(st.ctx[i]): st.ctx[i + 1] for i in range(0, len(st.ctx), 2)}}
        return [Decision(NAMES[st.dec_side], PHASE_NAMES[st.phase], choices, dict(default), options)]

    def _lineup_options(self, st: GridState, side: int) -> dict[str, Any]:
        return {
            "squad": [
                {
                    "number": n,
                    "kind": KIND_NAMES[kind_of(n)],
                    "available": st.status[pawn(side, n)] != S_UNAVAILABLE,
                }
                for n in range(1, SQUAD + 1)
            ],
            "formations": [f"{d}-{m}-{a}" for d, m, a in FORMATIONS],
            "keeper_columns": [5, 6],
            "centre_columns": [5, 6],
        }

    def apply(self, state: GridState, side: Side, choice: dict[str, Any], rng: Rng) -> list[MatchEvent]:
        """Apply one decision of ``side`` and run the match on to the next decision.

        :raises MalformedDecision: unknown side, or a choice that is not a decision of a known shape.
        :raises NotYourDecision: the match is over, or ``side`` has no decision pending.
        :raises IllegalDecision: well-formed but not legal now; the message says why.

        Nothing changes when an error is raised: the choice is validated in full first.
        """
        st = state
        if side not in NAMES:
            raise MalformedDecision(f"unknown side {side!r}; expected 'home' or 'away'", side=repr(side)[:40])
        s = NAMES.index(side)
        if st.phase == PH_OVER:
            raise NotYourDecision("the match is over: no decision can be taken", side=side)
        if st.phase == PH_LINEUP:
            if st.lineup[s] is not None:
                raise NotYourDecision(f"{side} has already chosen its line-up", side=side)
        elif st.dec_side != s:
            raise NotYourDecision(
                f"it is {NAMES[st.dec_side]}'s decision ({PHASE_NAMES[st.phase]}) now, not {side}'s",
                side=side,
            )
        a = parse_choice(st, s, choice)
        kinds = _PHASE_KINDS[st.phase]
        if choice["kind"] not in kinds:
            raise IllegalDecision(
                f"a {choice['kind']!r} is not asked now: the pending decision is {PHASE_NAMES[st.phase]!r}",
                reason="wrong_kind",
            )
        if st.phase == PH_LINEUP:
            error = lineup_error(st, s, list(a[2]))
            if error:
                raise IllegalDecision(error[0], words=error[1], reason="illegal_lineup")
            return self.apply_action(st, a, rng)
        if a not in set(self.legal_actions(st)):
            msgid, words = why_illegal(st, a)
            raise IllegalDecision(msgid, words=words, reason="illegal_choice")
        return self.apply_action(st, a, rng)

    def result(self, state: GridState) -> MatchResult | None:
        """The result once the match is over; the card fields are empty (grid football has no match cards)."""
        st = state
        if st.phase != PH_OVER:
            return None
        return cardless_result(st.score, NAMES[st.winner] if st.winner >= 0 else None, st.decided_by, st.pens)

    def report(self, state: GridState) -> dict[str, dict[int, dict[str, Any]]]:
        """What the Champions Cup carries out of the match (§16): per side, the players with a card or an
        injury: yellow cards, whether sent off, injuries and whether injured out."""
        st = state
        out: dict[str, dict[int, dict[str, Any]]] = {"home": {}, "away": {}}
        for p in range(40):
            if st.yellow[p] or st.red[p] or st.bandage[p]:
                out[NAMES[SIDE[p]]][NUMBER[p]] = {
                    "yellow": st.yellow[p],
                    "red": bool(st.red[p]),
                    "injuries": st.bandage[p],
                    "injured_out": st.status[p] == S_INJURED_OUT,
                }
        return out

    def view(self, state: GridState, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
        """What ``side`` may see (``None``: spectators): everything but the other side's line-up before both
        are chosen (§3.2: they are chosen at the same time); view.py."""
        from games.grid_football.view import project

        return project(self, state, side, reveal_all)

    def to_dict(self, state: GridState) -> dict[str, Any]:
        """The full state as JSON-safe data."""
        data = state_to_dict(state)
        data["format"] = self.key
        return data

    def from_dict(self, data: dict[str, Any]) -> GridState:
        """Inverse of ``to_dict``."""
        if not isinstance(data, dict) or data.get("format") != self.key:
            raise MalformedDecision("not a stored grid-football state")
        return state_from_dict(data)

    def clone(self, state: GridState) -> GridState:
        """An independent copy of a state (cheaper than a ``to_dict``/``from_dict`` round trip)."""
        return clone(state)

    def to_act(self, state: GridState) -> int:
        """Index of a side whose decision is pending (-1 when over); at the line-ups away first."""
        st = state
        if st.phase == PH_OVER:
            return -1
        if st.phase == PH_LINEUP:
            return 1 if st.lineup[1] is None else 0
        return st.dec_side

    def legal_actions(self, state: GridState) -> tuple[Action, ...]:
        """The legal canonical actions of the side ``to_act`` names (a few sample line-ups at the start)."""
        st = state
        if st.phase == PH_OVER:
            return ()
        if st.phase == PH_LINEUP:
            side = self.to_act(st)
            return tuple(a for f in FORMATIONS if (a := _lineup_for(st, side, f)) is not None)
        if st.cache is None:
            st.cache = _actions(st)
        return tuple(st.cache)

    def apply_action(self, state: GridState, action: Action, rng: Rng) -> list[MatchEvent]:
        """Apply a canonical action from ``legal_actions`` (not validated again: only for legal tuples)."""
        st = state
        ev: list[MatchEvent] = []
        if action[0] == "lineup":
            st.phase = PH_RUN
            st.cache = None
            st.last = notation(st, action)
            _lineup_effect(st, action, rng, ev)
        else:
            _take(st, action, rng, ev)
        _run(st, rng, ev)
        return ev

    def action_dict(self, action: Action, state: GridState) -> dict[str, Any]:
        """The decision dict of a canonical action (what ``apply`` accepts)."""
        return action_dict(state, action)


def _default_index(st: GridState, acts: Sequence[Action]) -> int:
    """GF-29, A-76: the plain choice (bots' ``default``, an expired decision timer): a shot or the longest
    forward kick, the shortest walk onto the ball, else a walk towards the ball; let the ball pass; no
    follow; the first of the others."""
    phase = st.phase
    if phase in (PH_WARMUP, PH_INTERCEPT, PH_FOLLOW):
        for i, a in enumerate(acts):
            if a[0] in ("roll", "let", "nofollow"):
                return i
        return 0
    if phase == PH_LEG:
        side = st.play_side
        best, key = 0, None
        for i, a in enumerate(acts):
            last = a[1][-1]
            k = (GOAL_OF[last] == 1 - side, ADV[side][last])
            if key is None or k > key:
                best, key = i, k
        return best
    if phase == PH_KEEPER_OFF:  # A-76: the most advanced player leaves; the rearmost keeps goal
        side = st.dec_side
        adv = ADV[side]
        if acts[0][0] == "resk":
            return max(range(len(acts)), key=lambda i: (adv[st.pos[acts[i][1]]], -i))
        return min(range(len(acts)), key=lambda i: (adv[st.pos[acts[i][1]]], i))
    if phase == PH_ACT:
        for i, a in enumerate(acts):
            if a[0] == "ball":
                return i
        ball = st.ball
        best, key = 0, None
        for i, a in enumerate(acts):
            if a[0] == "walk":
                k = -(abs(X[a[2]] - X[ball]) + abs(Y[a[2]] - Y[ball]))
                if key is None or k > key:
                    best, key = i, k
        return best
    return 0


FORMAT = register(GridFootballFormat())
