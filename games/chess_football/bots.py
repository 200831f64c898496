"""Bot players for chess football: every decision (a move, the penalty kicker's and the keeper's choice).

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the decision's
legal choices; randomness only from the given ``Rng`` and no clock, so a bot match replays exactly.

- ``default``: the decision's own default (a goal when there is one, else the first move that is not a
  void move; the middle goal square in a penalty).
- ``random``: a uniformly random legal choice.
- ``easy``: simple football sense, one look at each legal move without playing it: score when it can, clear
  the ball off its red square, pass forward to a team-mate (most of all to one who can shoot), get the
  ball away from a holder an opponent can reach, tackle, pick up a loose ball, run at the ball; ties and
  near-ties broken by the ``rng``.
- ``strong``: alpha-beta search (``Search``) with iterative deepening, a transposition table keyed on a
  compact state key (``state_key``), goals, tackles and passes ordered first, killer moves and a history
  table, over a fixed budget of positions (``STRONG_NODES``; a depth the budget would not see to its end
  is not begun): a budget of work, not of time, so the same position and ``rng`` always give the same
  move, on any machine. Positions are valued by ``evaluate``: the goal difference first, then the ball
  (who has it, how far up, a shot the other side cannot stop, how many passes it is from a team-mate who
  can shoot, a tackle or pick-up the side to move can make), then cards, offside and the pieces' places.
  Nothing outlives a decision (no memory between moves), so a replay may start anywhere.

Penalties (§9.3, X-18) are a hidden simultaneous choice: the kicker scores when aim and cover differ. For
either side the uniform choice over the three goal squares is the equilibrium (``penalty_value``: against
a uniform keeper every aim scores 2/3, against a uniform kicker every cover concedes 2/3, and no other mix
does better for either), so both bots draw aim and cover uniformly from the ``rng``. The strong kicker
picks as taker the piece whose place on the penalty spot after a save ``evaluate`` likes best. No bot
reads the other side's recorded penalty choice: it lies in the state, but a bot plays only what its side
may see.
"""

from __future__ import annotations

from typing import Any

import games.bots
from games.api import Decision, MatchEvent, MatchFormat, MatchSetup, Policy
from games.chess_football.geometry import (
    BALL_TARGETS,
    DARK,
    DIAG_STEPS,
    GOAL_MIDDLE,
    GOALS,
    HALF,
    KEEPER,
    KIND,
    KING,
    LIGHT,
    NSQ,
    OUTFIELD_OK,
    PENALTY_SPOT,
    RAYS,
    START,
    STRIP_SKIPS,
    YELLOW,
    ZONE,
    xy,
)
from games.chess_football.rules import (
    FORMAT,
    NAMES,
    Action,
    ChessFootballFormat,
    legal_moves,
    occupancy,
    penalty_actions,
)
from games.chess_football.state import BOX, P_SHOOTOUT, PH_OVER, PH_PENALTY, PH_PLAY, ChessState, clone
from games.rng import Rng


# ====================================================================== board knowledge
def progress(side: int, s: int) -> int:
    """How far a square lies up the pitch for ``side``: 0 on its own goal line, 14 on the opponent's."""
    return s // 10 if side == 0 else 14 - s // 10


def distance(a: int, b: int) -> int:
    """King-step distance between two squares."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    return max(abs(ax - bx), abs(ay - by))


_SQUARES = range(NSQ)
PROGRESS = tuple(tuple(progress(side, s) for s in _SQUARES) for side in (0, 1))
DISTANCE = tuple(tuple(distance(a, b) for b in _SQUARES) for a in _SQUARES)
BALL_SET = tuple(frozenset(BALL_TARGETS[s]) for s in _SQUARES)
# the opponent's goal squares a ball from each square reaches in one move, for each attacking side
REACH: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(t for t in BALL_TARGETS[s] if t in GOALS[1 - side]) for s in _SQUARES) for side in (0, 1)
)
# squares an outfield piece of ``side`` may stand on and shoot at two or more goal squares from: the keeper
# can cover only one, so a fresh holder there scores on his next move
SHOOTING: tuple[frozenset[int], ...] = tuple(
    frozenset(s for s in _SQUARES if OUTFIELD_OK[s] and len(REACH[side][s]) >= 2) for side in (0, 1)
)
ADVANCE = tuple(0 if p < 7 else 6 * (p - 6) * (p - 6) for p in range(15))  # the ball in the other half

GOAL = 1000.0  # a goal; everything else is worth less than one
WIN = 5000.0  # the match won (on top of the goals)
PENALTY = 2 * GOAL / 3  # an in-play penalty: scored two times in three at the equilibrium
SHOT_NOW = 0.9 * GOAL  # the side to move holds the ball where it can score
SHOT_NEXT = 0.8 * GOAL  # the other side cannot stop a shot on the holder's next move
# a team-mate ``k`` passes away from the ball can shoot at two goal squares / one free goal square; the
# first row with the holder's side to move, the second with the other side to move (the holder safe)
NETWORK = (
    ((0.0, 0.0), (500.0, 150.0), (200.0, 60.0), (80.0, 25.0), (0.0, 0.0)),
    ((0.0, 0.0), (300.0, 100.0), (120.0, 40.0), (50.0, 15.0), (0.0, 0.0)),
)
POSSESSION = 150.0
LOOSE_SHOT = 0.5 * GOAL  # a loose ball on a square its side can shoot at two goal squares from
PICK_UP_SHARE = 0.8  # of possession, for the side to move when it can pick up a loose ball (a move away)
LOOSE_SHARE = 0.4  # of possession, for the side nearer to a loose ball neither side can pick up now
TACKLE_THREAT = 300.0  # the side to move tackles the holder: the ball and a caution
PRESSED = 30.0  # an opponent could tackle the holder once he is holding
RED_DUTY = 40.0  # the keeper must clear the ball off his red square now
BOXED = 60.0  # a piece in the admonition box (a move and a card to bring it back)
SENT_OFF = 150.0
CARD = 20.0  # an admonition card used
OFFSIDE = 25.0  # an offender must move off the yellow squares (or the side forfeits a move)
RECEIVER = 30.0  # an attacker standing on a shooting square, ready for a pass
BLOCKER = 25.0  # a defender standing on one of the opponent's shooting squares (nobody can receive there)
KEEPER_HOME = 15.0  # the keeper on his middle goal square
STEP = 4.0  # an outfield piece one row further up the pitch (up to the opponent's circled squares)
SUPPORT = 0.3  # share of the ball's advance to the best team-mate one pass away
# what an outfield piece of each side is worth on each square: up the pitch, most of all on a square it can
# shoot from
PLACE = tuple(
    tuple(
        STEP * min(PROGRESS[side][s], 11)
        + (RECEIVER if s in SHOOTING[side] else RECEIVER / 3 if REACH[side][s] else 0.0)
        for s in _SQUARES
    )
    for side in (0, 1)
)
_LIGHT_DARK = (DARK, LIGHT)


def steps_onto(where: dict[int, int], t: int, side: int) -> bool:
    """Whether an outfield piece of ``side`` can move onto square ``t`` now (``where``: the piece on each
    occupied square): a tackle when the holder stands there, a pick-up when the ball lies there loose."""
    for mid, s in DIAG_STEPS[t]:
        p = where.get(s)
        if p is not None and p // 10 == side and KIND[p] in _LIGHT_DARK and (mid < 0 or mid not in where):
            return True
    for skip, s in STRIP_SKIPS[t]:
        p = where.get(s)
        if p is not None and p // 10 == side and KIND[p] in _LIGHT_DARK and skip not in where:
            return True
    captain = 10 * side + 1
    half = HALF[t]
    for ray in RAYS[t]:
        for s in ray:
            p = where.get(s)
            if p is not None:
                if p == captain and not (HALF[s] >= 0 and half == 1 - HALF[s]):
                    return True
                break
    return False


def _network(st: ChessState, a: int) -> tuple[int, int, int]:
    """The passes from the ball to the nearest team-mate who can shoot at two goal squares, and at one
    goal square (4: none within three passes; the holder himself counts as 0), and how far up the pitch
    the ball gets with one pass."""
    reach = REACH[a]
    ball = st.ball
    best1 = 4
    frontier = [ball]
    mates = [s for s in st.pos[10 * a + 1 : 10 * a + 10] if s >= 0 and s != ball]
    targets = BALL_SET[ball]
    prog = PROGRESS[a]
    ahead = max([prog[m] for m in mates if m in targets], default=prog[ball])
    for k in range(4):
        nxt = []
        for s in frontier:
            r = reach[s]
            if len(r) >= 2:
                return k, min(best1, k), ahead
            if best1 > k and r:
                best1 = k
        if k == 3:
            break
        for s in frontier:
            targets = BALL_SET[s]
            nxt += [m for m in mates if m in targets]
        mates = [m for m in mates if m not in nxt]
        frontier = nxt
        if not frontier:
            break
    return 4, best1, ahead


def _shot_unstoppable(st: ChessState, where: dict[int, int], a: int) -> bool:
    """Whether every step the defending keeper can make (or his standing still) leaves the holder a free
    goal square to shoot at."""
    reach = REACH[a][st.ball]
    d = 1 - a
    kq = st.pos[10 * d]
    zone = ZONE[d]
    for q in (kq, *(t for t in KING[kq] if t in zone and t not in where)):
        if not any(g != q and (g not in where or g == kq) for g in reach):
            return False
    return True


def _picks_up(st: ChessState, where: dict[int, int], side: int) -> bool:
    """Whether a piece of ``side`` can step onto the loose ball now (an outfield piece, or the keeper in his
    zone)."""
    ball = st.ball
    return steps_onto(where, ball, side) or (ball in ZONE[side] and DISTANCE[st.pos[10 * side]][ball] <= 1)


def _loose_ball(st: ChessState, where: dict[int, int]) -> tuple[int, float]:
    """Which side is likelier to get the loose ball (-1: neither), and what share of possession that is
    worth: the side to move if it can pick it up now; else the other side if it can (unless the side to
    move blocks its way); else the side with a piece nearer to it (the side to move half a step ahead)."""
    stm = st.turn
    if _picks_up(st, where, stm):
        return stm, PICK_UP_SHARE
    if _picks_up(st, where, 1 - stm):
        return 1 - stm, PICK_UP_SHARE - 0.1
    near = [99.0, 99.0]
    dist = DISTANCE[st.ball]
    for p, s in enumerate(st.pos):
        if s >= 0 and KIND[p] != KEEPER:
            d = dist[s] - (0.5 if p // 10 == stm else 0.0)
            if d < near[p // 10]:
                near[p // 10] = d
    if near[0] == near[1]:
        return -1, 0.0
    return (0 if near[0] < near[1] else 1), LOOSE_SHARE


def _ball_value(st: ChessState, where: dict[int, int]) -> float:
    """The ball and its threats, from home's point of view (positive: good for home)."""
    ball = st.ball
    h = where.get(ball)
    if h is None:
        side, share = _loose_ball(st, where)
        if side < 0:
            return 0.0
        v = share * (
            POSSESSION + ADVANCE[PROGRESS[side][ball]] + (LOOSE_SHOT if ball in SHOOTING[side] else 0.0)
        )
        return v if side == 0 else -v
    a = h // 10
    v = POSSESSION + ADVANCE[PROGRESS[a][ball]]
    if KIND[h] != KEEPER:
        v += _threats(st, where, a)
    return v if a == 0 else -v


def _threats(st: ChessState, where: dict[int, int], a: int) -> float:
    """What side ``a``'s outfield holder threatens (a shot, passes to shooters), or risks (a tackle)."""
    stm = st.turn
    ball = st.ball
    v = 0.0
    if steps_onto(where, ball, 1 - a):
        if stm != a and not st.fresh:
            return -TACKLE_THREAT
        v -= PRESSED  # the holder's side must keep passing, or lose the ball
    two, one, ahead = _network(st, a)
    v += SUPPORT * ADVANCE[ahead]
    if stm == a:
        if two == 0 or (one == 0 and any(g not in where for g in REACH[a][ball])):
            return v + SHOT_NOW
        return v + max(NETWORK[0][two][0], NETWORK[0][one][1])
    if two == 0 or (one == 0 and _shot_unstoppable(st, where, a)):
        return v + SHOT_NEXT
    return v + max(NETWORK[1][two][0], NETWORK[1][one][1])


def evaluate(st: ChessState, side: int) -> float:
    """How good ``st`` is for ``side`` (0 home, 1 away), in thousandths of a goal: the goal difference
    first, then a penalty pending, the ball (possession, how far up the pitch, a shot the other side
    cannot stop, how many passes it is from a team-mate who can shoot, a holder about to be tackled),
    cautions and cards, offside and the red-square duty, pieces on the squares that matter (up the
    pitch, receivers on shooting squares, defenders blocking the other side's, the keeper at home)."""
    score = st.score
    if st.phase == PH_OVER:
        v = GOAL * (score[0] - score[1]) + (WIN if st.winner == 0 else -WIN if st.winner == 1 else 0.0)
        return v if side == 0 else -v
    if st.phase == PH_PENALTY:
        if st.period == P_SHOOTOUT:
            pens = st.pens or [0, 0]
            v = GOAL * (pens[0] - pens[1]) / 4
        else:
            v = GOAL * (score[0] - score[1]) + (PENALTY if st.pen_side == 0 else -PENALTY)
        return v if side == 0 else -v
    pos = st.pos
    where = {s: p for p, s in enumerate(pos) if s >= 0}
    v = GOAL * (score[0] - score[1]) - CARD * (st.cards[0] - st.cards[1])
    yellow_men = [0, 0]  # outfield pieces of each side on the other side's yellow squares
    holder = where.get(st.ball, -1)
    for side_ in (0, 1):
        sign = 1.0 if side_ == 0 else -1.0
        place = PLACE[side_]
        yellow = YELLOW[1 - side_]
        lost = BOXED if st.cards[side_] < 2 else SENT_OFF
        # the other side has the ball in this side's half: stand on its shooting squares
        block = SHOOTING[1 - side_] if holder // 10 == 1 - side_ and PROGRESS[side_][st.ball] <= 7 else ()
        for p in range(10 * side_ + 1, 10 * side_ + 10):
            s = pos[p]
            if s >= 0:
                v += sign * place[s]
                if s in yellow:
                    yellow_men[side_] += 1
                elif s in block:
                    v += sign * BLOCKER
            else:
                v -= sign * (lost if s == BOX else SENT_OFF)
        if pos[10 * side_] == GOAL_MIDDLE[side_]:
            v += sign * KEEPER_HOME
    # offenders: on the other end's yellow squares with no opposing outfield piece on that end's
    if yellow_men[0] and not _defends_yellow(pos, 1):
        v -= OFFSIDE * yellow_men[0]
    if yellow_men[1] and not _defends_yellow(pos, 0):
        v += OFFSIDE * yellow_men[1]
    if st.red >= 0:  # the ball lies loose on the red square of the side to move
        duty = RED_DUTY if DISTANCE[pos[10 * st.turn]][st.red] <= 1 else PENALTY
        v += -duty if st.turn == 0 else duty
    else:
        v += _ball_value(st, where)
    return v if side == 0 else -v


def _defends_yellow(pos: list[int], side: int) -> bool:
    """Whether an outfield piece of ``side`` stands on its own yellow squares (no offside there, X-20)."""
    yellow = YELLOW[side]
    return any(pos[p] in yellow for p in range(10 * side + 1, 10 * side + 10))


# ====================================================================== penalties
def penalty_value(aim: list[float], cover: list[float]) -> float:
    """The chance that a penalty is scored when the kicker aims at each goal square with the chances
    ``aim`` and the keeper covers each with the chances ``cover`` (a goal when they differ)."""
    return 1.0 - sum(a * c for a, c in zip(aim, cover, strict=True))


def _taker_value(st: ChessState, taker: int) -> float:
    """How good the position after a saved penalty is for the kicking side with ``taker`` on the spot."""
    kicker = taker // 10
    c = clone(st)
    c.phase = PH_PLAY
    for p, s in enumerate(c.pos):
        if s >= 0:
            c.pos[p] = START[p]
    c.pos[taker] = PENALTY_SPOT[1 - kicker]
    c.ball = c.pos[10 * (1 - kicker)]
    c.fresh = True
    c.turn = 1 - kicker
    c.red = -1
    c.relocate = False
    return evaluate(c, kicker)


def penalty_action(st: ChessState, side: int, rng: Rng, pick_taker: bool) -> Action:
    """A penalty choice of ``side``: aim or cover uniformly at random (the equilibrium, module docstring);
    the taker by ``_taker_value`` when ``pick_taker``, else at random too."""
    acts = penalty_actions(st, side)
    squares = sorted({a[-1] for a in acts})
    square = squares[rng.randbelow(len(squares))]
    if acts[0][0] == "cover":
        return ("cover", square)
    pieces = sorted({a[1] for a in acts})
    if len(pieces) == 1:
        taker = pieces[0]
    elif pick_taker:
        taker = max(pieces, key=lambda p: (_taker_value(st, p), -p))
    else:
        taker = pieces[rng.randbelow(len(pieces))]
    return ("pen", taker, square)


# ====================================================================== the policies
def _choice(fmt: MatchFormat, st: ChessState, decision: Decision, action: Action) -> dict[str, Any]:
    """The decision's choice that is ``action``."""
    chosen = FORMAT.action_dict(action, st)
    for c in decision.choices:
        if c == chosen:
            return c
    raise ValueError(f"the bot chose {chosen!r}, which is not among the decision's choices")


def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does)."""
    return decision.default


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice (no draw when there is only one)."""
    n = len(decision.choices)
    return decision.choices[rng.randbelow(n)] if n > 1 else decision.choices[0]


def _pick(scored: list[tuple[float, int]], rng: Rng, margin: float) -> int:
    """The index of a best-scored move, drawn from those within ``margin`` of the best."""
    best = max(s for s, _ in scored)
    near = [i for s, i in scored if s >= best - margin]
    return near[rng.randbelow(len(near))] if len(near) > 1 else near[0]


def easy_score(st: ChessState, occ: list[int], a: Action) -> float:
    """The easy bot's one-look value of a legal move of the side to move (higher is better)."""
    side = st.turn
    k = a[0]
    ball = st.ball
    h = occ[ball]
    ours = h >= 0 and h // 10 == side
    danger = ours and _opponent_near(st, side, ball)  # a piece move now would leave the holder to a tackle
    if k == "b":
        t = a[1]
        if t in GOALS[1 - side]:
            return 10_000.0
        v = 20.0 * (progress(side, t) - progress(side, ball))
        v += 20 + 100 * len(REACH[side][t]) if occ[t] >= 0 else -100  # a pass; a throw into space
        return v + 200 if danger else v
    if k == "k":
        return 5000.0 + 10 * progress(side, a[2])
    if k == "m":
        frm, t = a[1], a[2]
        if t == ball:
            return 3000.0 if h >= 0 else 2000.0  # tackle, or pick up the loose ball
        if KIND[occ[frm]] == KEEPER:
            return 10.0 if t == GOAL_MIDDLE[side] else -20.0
        if ours:
            v = 15.0 * (progress(side, t) - progress(side, frm)) + (60 if t in SHOOTING[side] else 0)
        else:
            v = 20.0 * (distance(frm, ball) - distance(t, ball))
        if t in YELLOW[1 - side]:
            v -= 80
        return v - 300 if danger else v
    if k == "e":
        return 150.0
    if k == "r":  # put the offender as far from our goal as its half allows, then play on
        return easy_score(st, occ, a[3]) + progress(side, a[2]) / 10
    if k == "f":
        return -500.0
    return 0.0  # concede (only when the keeper cannot clear), pass


def _opponent_near(st: ChessState, side: int, s: int) -> bool:
    """Whether an opposing outfield piece stands within two steps of ``s``."""
    base = 10 * (1 - side)
    return any(st.pos[p] >= 0 and distance(st.pos[p], s) <= 2 for p in range(base + 1, base + 10))


def easy_action(st: ChessState, rng: Rng) -> Action:
    """The easy bot's move in play: the best ``easy_score``, near-ties drawn at random."""
    acts = legal_moves(st)
    if len(acts) == 1:
        return acts[0]
    occ = occupancy(st)
    return acts[_pick([(easy_score(st, occ, a), i) for i, a in enumerate(acts)], rng, 10.0)]


def easy_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Simple football sense (module docstring); cheap."""
    st: ChessState = state
    if st.phase == PH_PENALTY:
        return _choice(fmt, st, decision, penalty_action(st, NAMES.index(decision.side), rng, False))
    return _choice(fmt, st, decision, easy_action(st, rng))


# ---------------------------------------------------------------------- strong
STRONG_NODES = 2000  # positions the strong bot plays out per move (bench/formats.py calibrates it)
MAX_DEPTH = 8
GROWTH = 8  # a depth costs at least this many times the positions of all before it (about 16 in play)
_EXACT, _LOWER, _UPPER = range(3)
_NO_RNG = Rng(0)  # moves in play draw nothing (only the toss does)


class _OutOfBudget(Exception):
    """The search used up its positions."""


def state_key(st: ChessState) -> tuple[Any, ...]:
    """What makes two positions the same for the search (the clock and the score included)."""
    return (
        *st.pos,
        st.ball,
        st.turn,
        st.fresh,
        st.red,
        st.relocate,
        st.phase,
        st.period,
        st.plies,
        st.score[0],
        st.score[1],
        st.cards[0],
        st.cards[1],
    )


class Search:
    """Alpha-beta search for ``side`` over at most ``budget`` positions (module docstring)."""

    def __init__(self, side: int, budget: int) -> None:
        self.side = side
        self.budget = budget
        self.nodes = 0
        self.table: dict[tuple[Any, ...], tuple[int, float, int, Action | None]] = {}
        self.killers: dict[int, list[Action]] = {}
        self.history: dict[Action, int] = {}
        self.depth = 0  # the last depth searched to the end

    def order(self, st: ChessState, moves: list[Action], first: Action | None, ply: int) -> list[Action]:
        """Moves in the order to try them: the table's best move, goals, the red-square clearance,
        tackles and pick-ups, passes to shooters, other ball moves forward, killer moves, the history
        table's favourites; the void moves last."""
        side = st.turn
        goals, shoot, prog = GOALS[1 - side], SHOOTING[side], PROGRESS[side]
        ball = st.ball
        occupied = set(st.pos)
        kill = self.killers.get(ply, ())
        hist = self.history

        def key(a: Action) -> float:
            k = a[0]
            if k == "m":
                t = a[2]
                if t == ball:
                    return 8000.0
                if a in kill:
                    return 1500.0
                return min(hist.get(a, 0), 1000) + prog[t] / 20
            if k == "b":
                t = a[1]
                if t in goals:
                    return 100_000.0
                if t in occupied:
                    return (5000.0 if t in shoot else 3000.0) + 10 * prog[t]
                return 2000.0 + 10 * prog[t]
            if k == "k":
                return 9000.0 + prog[a[2]]
            if k == "r":
                return key(a[3])
            if k == "e":
                return 500.0
            return -1000.0  # concede, forfeit, pass

        out = sorted(moves, key=key, reverse=True)  # stable: equal keys keep the generator's order
        if first is not None and first in out:
            out.remove(first)
            out.insert(0, first)
        return out

    def child(self, st: ChessState, a: Action) -> ChessState:
        self.nodes += 1
        if self.nodes > self.budget:
            raise _OutOfBudget
        c = clone(st)
        FORMAT.apply_action(c, a, _NO_RNG)
        return c

    def value(self, st: ChessState, depth: int, alpha: float, beta: float, ply: int) -> float:
        """Minimax value of ``st`` for ``side`` (the side to move need not alternate: goals, half time)."""
        if depth <= 0 or st.phase != PH_PLAY:
            return evaluate(st, self.side)
        key = state_key(st)
        hit = self.table.get(key)
        first = None
        if hit is not None:
            d, v, flag, first = hit
            if d >= depth and (
                flag == _EXACT or (flag == _LOWER and v >= beta) or (flag == _UPPER and v <= alpha)
            ):
                return v
        moves = legal_moves(st)
        maxing = st.turn == self.side
        a0, b0 = alpha, beta
        best = -1e9 if maxing else 1e9
        best_move = None
        for a in self.order(st, moves, first, ply):
            v = self.value(self.child(st, a), depth - 1, alpha, beta, ply + 1)
            if (v > best) if maxing else (v < best):
                best, best_move = v, a
                if maxing:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
            if alpha >= beta:
                if a[0] == "m" and a[2] != st.ball:
                    kill = self.killers.setdefault(ply, [])
                    if a not in kill:
                        kill.insert(0, a)
                        del kill[2:]
                    self.history[a] = self.history.get(a, 0) + depth * depth
                break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self.table[key] = (depth, best, flag, best_move)
        return best

    def best(self, st: ChessState, rng: Rng) -> Action:
        """The best move found within the budget; moves the search cannot tell apart by their order are
        shuffled with ``rng`` first, so the bot does not always play the same game."""
        moves = legal_moves(st)
        if len(moves) == 1:
            return moves[0]
        rng.shuffle(moves)
        goals = [a for a in moves if a[0] == "b" and a[1] in GOALS[1 - st.turn]]
        if goals:
            return goals[0]
        moves = self.order(st, moves, None, 0)
        best = moves[0]
        scores: dict[Action, float] = {}
        for depth in range(1, MAX_DEPTH + 1):
            scores = {}
            alpha, current = -1e9, moves[0]
            try:
                for a in moves:
                    v = self.value(self.child(st, a), depth - 1, alpha, 1e9, 1)
                    scores[a] = v
                    if v > alpha:
                        alpha, current = v, a
            except _OutOfBudget:
                if moves[0] in scores:  # the last best move was weighed again: the deeper best is better
                    best = current
                break
            best, self.depth = current, depth
            if alpha >= WIN / 2 or self.nodes * GROWTH > self.budget:
                break  # a won match, or a next depth the budget would not see to its end
            moves.sort(key=lambda m: -scores[m])  # stable: the best first, ties keep their order
        return best


def best_action(st: ChessState, rng: Rng, budget: int | None = None) -> Action:
    """The strong bot's move in play as a canonical action (``budget``: positions, by default
    ``STRONG_NODES``)."""
    return Search(st.turn, STRONG_NODES if budget is None else budget).best(st, rng)


def strong_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Alpha-beta search within a fixed budget of positions (module docstring)."""
    st: ChessState = state
    if st.phase == PH_PENALTY:
        return _choice(fmt, st, decision, penalty_action(st, NAMES.index(decision.side), rng, True))
    return _choice(fmt, st, decision, best_action(st, rng))


POLICIES: dict[str, Policy] = {
    "default": default_policy,
    "random": random_policy,
    "easy": easy_policy,
    "strong": strong_policy,
}


def play_match(
    fmt: ChessFootballFormat,
    setup: MatchSetup,
    rng: Rng,
    home: Policy | str = "default",
    away: Policy | str = "default",
    bot_rng: Rng | None = None,
) -> tuple[ChessState, list[MatchEvent]]:
    """A whole match between two policies (by name or function) through ``decisions``/``apply``: the
    final state and every event (``games.bots.play_match``)."""
    return games.bots.play_match(
        fmt,
        setup,
        rng,
        POLICIES[home] if isinstance(home, str) else home,
        POLICIES[away] if isinstance(away, str) else away,
        bot_rng,
    )


__all__ = [
    "POLICIES",
    "Policy",
    "Search",
    "best_action",
    "default_policy",
    "easy_policy",
    "evaluate",
    "penalty_value",
    "play_match",
    "random_policy",
    "strong_policy",
]
