"""Bot players for grid football: every decision, line-ups included.

A policy is a pure function ``(format, state, decision, rng) -> choice`` returning one of the decision's
legal choices; randomness only from the given ``Rng`` and no clock, so a bot match replays exactly. Nothing
outlives a decision (no memory between decisions), so a replay may start anywhere.

- ``default``: the decision's own default (shoot or play the ball forward, walk onto the ball, else towards
  it; let the ball pass; no follow; the plain line-up 4-4-2).
- ``random``: a uniformly random legal choice; a random legal line-up (formation, players, keeper square and
  centre columns) at the start, where the choices cannot be listed.
- ``easy``: football sense, one leg and one walk at a time: the player nearest the ball walks onto it (the
  most budget left to kick with); a shot when its chance (§9.4) is at least a half, else the leg that
  carries the ball furthest forward to a square no opponent stands next to; without the ball, the player
  nearest it walks towards it (the keeper stays in goal); it tries an interception when the ball is shot at
  its goal or would stop in its own half; the best save square; the plain line-up.
- ``strong``: one-ply expectimax over the dice. At its act it lists every complete play (``plays``: the walk
  onto the ball and each sequence of legs, relays included), every walk and charge, and values the position
  each leaves by ``Evaluator``: a shot by its chance of a goal (the keeper's best save square, §9.4) and the
  interceptions on the way (each opponent next to the path deflects one time in three, §8.3); a ball at
  rest by the other side's next roll, face by face: whether one of its players reaches the ball with that
  roll and what it can do with the budget left (a shot's chance, or how far up it carries the ball), else
  what our own next roll can do. The best few by that first look are weighed again (``Lookahead``): on
  each face of the other side's next D6 that lets its nearest player onto the ball, its best complete play
  (every sequence of legs, relays included) valued the same way from its side. At each leg of a play it
  plans the rest again (the same values, so the same play). Not ahead in the last third of a period, a goal
  counts half as much again (``DARE``: a draw is a lost chance of a win). Follows, interceptions and saves
  are weighed by the first look; fouls pick the pair that costs least (no second yellow, the free kick far
  from our goal).

Line-ups are decisions whose choices cannot be listed (``random_lineup``): every bot names 11 available
players (``options["squad"]`` marks the suspended and injured ones), a formation the available players allow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from games.api import Decision, MatchFormat
from games.grid_football.geometry import (
    ADV,
    AREA_OF,
    ATTACKER,
    DEFENDER,
    GOAL_OF,
    KEEPER,
    KIND_NAMES,
    MIDFIELDER,
    N4,
    NSQ,
    ORTHO_DIR,
    PITCH,
    SIDE,
    SQUAD,
    STEP,
    X,
    Y,
)
from games.grid_football.moves import (
    BIT,
    PW,
    Kick,
    layers,
    occ_bits,
    occupancy,
    offside_line,
    pawn_steps,
    route_bits,
    step_of,
)
from games.grid_football.rules import FORMATIONS, _kick_for, _line, team
from games.grid_football.state import (
    F_OFFSIDE,
    PH_ACT,
    PH_FOLLOW,
    PH_FOUL,
    PH_INTERCEPT,
    PH_LEG,
    PH_LINEUP,
    PH_SAVE,
    GridState,
)
from games.rng import Rng

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]
Action = tuple[Any, ...]


# ====================================================================== the line-up
def _pool(decision: Decision) -> dict[int, list[int]]:
    """The available squad numbers by kind, from the decision's options (§16: suspended or injured players
    are marked unavailable)."""
    squad = decision.options["squad"]
    return {
        kind: [p["number"] for p in squad if p["available"] and p["kind"] == KIND_NAMES[kind]]
        for kind in (KEEPER, DEFENDER, MIDFIELDER, ATTACKER)
    }


def _possible(pool: dict[int, list[int]]) -> list[tuple[int, int, int]]:
    return [
        f
        for f in FORMATIONS
        if all(len(pool[k]) >= n for k, n in zip((DEFENDER, MIDFIELDER, ATTACKER), f, strict=True))
    ]


def random_lineup(decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly drawn legal line-up from the decision's options (§3.2, A-39)."""
    pool = _pool(decision)
    formations = _possible(pool)
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


def chosen_lineup(decision: Decision, preferred: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
    """The first of the ``preferred`` formations the available players allow (else the first possible), the
    lowest available numbers of each kind."""
    pool = _pool(decision)
    formations = _possible(pool)
    if not pool[KEEPER] or not formations:
        return decision.default
    formation = next((f for f in preferred if f in formations), formations[0])
    chosen = [pool[KEEPER][0]]
    for kind, count in zip((DEFENDER, MIDFIELDER, ATTACKER), formation, strict=True):
        chosen += pool[kind][:count]
    return {"kind": "lineup", "players": sorted(chosen), "keeper_column": 5, "centre": [5, 5, 5]}


# ====================================================================== the board, as the bots see it
GOAL = 100.0  # a goal; every other value is a share of one
# pg(r): the chance a shot reaching the goal square with r left scores past a keeper on his line (§9.4:
# the keeper one step from the empty goal square saves with c = 3 - r quarters)
SHOT_CHANCE = (0.25, 0.5, 0.75, 1.0)
DEFLECT = 1 / 3  # §8.3: a D3 showing 3


def _goal_distance(side: int, s: int) -> int:
    """King steps from ``s`` to the nearer goal square ``side`` attacks (what the ball needs to get in)."""
    gy = 16 if side == 0 else 0
    dy = abs(gy - Y[s])
    dx = max(0, 5 - X[s], X[s] - 6)
    return max(dx, dy)


# GOAL_DIST[side][s]: king steps to the goal side attacks; FIELD[side][s]: a ball at rest on s, neither side's
# yet, worth this much to ``side`` (a share of a goal growing towards the goal it attacks)
GOAL_DIST = tuple(tuple(_goal_distance(side, s) for s in range(NSQ)) for side in (0, 1))


def _field(side: int, s: int) -> float:
    if not PITCH[s] and GOAL_OF[s] < 0:
        return 0.0
    d = GOAL_DIST[side][s]
    return GOAL * 0.25 * max(0.0, (12 - d) / 12) ** 2


FIELD = tuple(tuple(_field(side, s) for s in range(NSQ)) for side in (0, 1))


def attack_value(side: int, b: int, budget: int) -> float:
    """What ``side`` can make of the ball on ``b`` with ``budget`` squares to kick it (no players in the
    way): a shot's chance of a goal, or the field value of the square as far up as the budget carries it."""
    d = GOAL_DIST[side][b]
    shot = GOAL * SHOT_CHANCE[min(3, budget - d)] if budget >= d else 0.0
    ahead = max(1, d - budget)
    rest = GOAL * 0.25 * max(0.0, (12 - ahead) / 12) ** 2
    return max(shot, rest)


ATTACK = tuple(
    tuple(tuple(attack_value(side, s, b) for b in range(9)) for s in range(NSQ)) for side in (0, 1)
)


def _neighbours(bits: int) -> int:
    return (bits << 1) | (bits >> 1) | (bits << PW) | (bits >> PW)


def side_distances(occb: int, sides: Sequence[int], ball: int) -> tuple[int, int]:
    """The least walking distance to the ball of a pawn of each side (``sides``: each side's pawn bits),
    through empty squares (A-64); 99 when none can reach it, 0 when one stands on it."""
    out = [99, 99]
    todo = 2
    for side in (0, 1):
        if sides[side] & BIT[ball]:
            out[side] = 0
            todo -= 1
    if not todo:
        return out[0], out[1]
    passable = route_bits(occb)
    visited = frontier = BIT[ball]
    d = 0
    while frontier and todo and d < 8:
        d += 1
        nb = _neighbours(frontier)
        for side in (0, 1):
            if out[side] == 99 and nb & sides[side]:
                out[side] = d
                todo -= 1
        frontier = nb & passable & ~visited
        visited |= frontier
    return out[0], out[1]


def _dare(st: GridState, me: int) -> float:
    """How much more a goal is worth to ``me`` than usual: not ahead in the last third of a period (a draw is
    a lost chance of a win, a defeat the same whether by one or by two)."""
    if st.score[me] > st.score[1 - me]:
        return 1.0
    if st.fixed:
        limit = (st.fixed_rolls if st.period == 1 else st.fixed_extra_rolls) + st.fouls
        late = st.rolls * 3 >= limit * 2
    else:
        limit = st.normal_ones if st.period == 1 else st.extra_ones
        late = st.ones * 3 >= limit * 2
    return DARE if late else 1.0


DARE = 1.5


class Evaluator:
    """Values of positions for side ``me`` (one instance per decision; nothing kept beyond it).

    ``rest(pos, ball, mover)``: the ball at rest on ``ball``, ``mover`` rolls next. Face by face of the D6,
    the mover reaches the ball when one of its players stands within that many steps (a '1' walks one step
    too) and then kicks it with the rest of the roll (``ATTACK``); else the other side gets its turn, valued
    the same way one roll later (discounted: the mover walks someone into the way first).
    """

    __slots__ = ("dare", "keepers", "makeshift", "me")

    def __init__(self, st: GridState, me: int) -> None:
        self.me = me
        self.keepers = list(st.keeper)
        self.makeshift = list(st.makeshift)
        self.dare = _dare(st, me)

    def rest(self, pos: Sequence[int], ball: int, mover: int) -> float:
        occb = 0
        sides = [0, 0]
        for p, s in enumerate(pos):
            if s >= 0:
                b = BIT[s]
                occb |= b
                sides[p // SQUAD] |= b
        dist = side_distances(occb, sides, ball)
        other = 1 - mover
        dm, do = dist[mover], dist[other]
        am, ao = ATTACK[mover][ball], ATTACK[other][ball]
        v = 0.0
        later = 0.0
        for r in range(1, 7):
            if do <= r:
                later += ao[min(8, r - do + 1) if do else r]
        later /= 6
        for r in range(1, 7):
            if dm <= r:
                v += am[min(8, r - dm + 1) if dm else r]
            else:
                v -= 0.7 * later
        v /= 6
        v += 0.2 * (FIELD[mover][ball] - FIELD[other][ball])
        v += self._keepers(pos, mover)
        return v if mover == self.me else -v

    def _keepers(self, pos: Sequence[int], mover: int) -> float:
        """Keepers on their goal squares (a keeper off his line saves less, §9.4)."""
        out = 0.0
        for side in (0, 1):
            k = self.keepers[side]
            if k >= 0 and pos[k] >= 0 and GOAL_OF[pos[k]] != side:
                far = 1 + abs(Y[pos[k]] - (0 if side == 0 else 16))
                out += (-3.0 * far) if side == mover else (3.0 * far)
        return out

    def shot_chance(self, pos: Sequence[int], occb: int, seg: Sequence[int], r: int, goal: int) -> float:
        """The chance a shot scores (§9.3, §9.4): the keeper defending ``goal`` dives to the square of the
        final segment ``seg`` (the goal square last) with the best chance c = 4 - r - k (- 1 makeshift)."""
        d = GOAL_OF[goal]
        k = self.keepers[d]
        if k < 0 or pos[k] < 0:
            return 1.0
        kd = layers(pos[k], route_bits(occb, d), 4)
        best = 0
        for s in seg:
            if occb & BIT[s]:
                continue
            steps = step_of(kd, s)
            if steps < 0:
                continue
            c = 4 - r - steps - self.makeshift[d]
            if c > best:
                best = c
        return 1.0 - min(best, 4) / 4


# ====================================================== plays: a walk onto the ball and its legs
class Play:
    """A complete play: the legs (paths of squares entered), where the ball ends, how (0 rest, 1 a shot)
    and the budget left there."""

    __slots__ = ("end", "final", "legs", "rem", "squares")

    def __init__(self, legs: tuple[tuple[int, ...], ...], end: int, rem: int) -> None:
        self.legs = legs
        self.end = end
        self.rem = rem
        self.final = legs[-1][-1]
        self.squares = tuple(s for leg in legs for s in leg)


MAX_PLAYS = 1500  # complete plays listed per decision at most (relays multiply them)


def plays(
    kick: Kick,
    occ: Sequence[int],
    frm: int,
    budget: int,
    touches: int,
    kicker: int,
    prev: int,
    limit: int = 0,
) -> list[Play]:
    """Every complete play (up to ``MAX_PLAYS``) of the kicker on ``frm``: each sequence of legs ending at
    rest or in a goal square; a relay's receiver plays on with what is left (§7)."""
    out: list[Play] = []
    limit = limit or MAX_PLAYS

    def grow(frm: int, budget: int, touches: int, kicker: int, prev: int, done: tuple[Any, ...]) -> None:
        for path, end in kick.legs(frm, budget, touches, kicker, prev):
            if len(out) >= limit:
                return
            legs = (*done, path)
            if end == 2:
                rem = budget - len(path) + 1
                grow(path[-1], rem, touches + 1, occ[path[-1]], kicker, legs)
            else:
                out.append(Play(legs, end, budget - len(path)))

    grow(frm, budget, touches, kicker, prev, ())
    return out


def interceptors(
    pos: Sequence[int], occ: Sequence[int], squares: Sequence[int], side: int, keeper: int
) -> list[int]:
    """The opponents of ``side`` who could try to intercept a ball travelling over ``squares`` (§8, A-45):
    outfield players next to an empty square of the path before its last; the first such square of each."""
    seen: list[int] = []
    for s in squares[:-1]:
        if occ[s] >= 0:
            continue
        for n in N4[s]:
            q = occ[n]
            if q >= 0 and SIDE[q] != side and q != keeper and q not in seen:
                seen.append(q)
    return seen


def play_value(
    ev: Evaluator,
    pos: list[int],
    occ: Sequence[int],
    occb: int,
    play: Play,
    side: int,
    rest: Callable[[int], float] | None = None,
) -> float:
    """The value for ``ev.me`` of ``side`` making ``play`` (the kicker already on the ball in ``pos``);
    ``rest(square)``, when given, values the ball at rest there for ``ev.me`` (else ``ev.rest``)."""
    other = 1 - side
    keeper = ev.keepers[other]
    n = len(interceptors(pos, occ, play.squares, side, keeper))
    clean = (1 - DEFLECT) ** n
    if play.end == 1:
        chance = ev.shot_chance(pos, occb, play.legs[-1], play.rem, play.final)
        v = GOAL * chance * ev.dare - (1 - chance) * 5.0
        if GOAL_OF[play.final] == side:
            v = -GOAL  # our own goal
    else:
        v = rest(play.final) if rest is not None else ev.rest(pos, play.final, other)
        if ev.me != side:
            v = -v
    if n:
        v = clean * v + (1 - clean) * -5.0
    return v if ev.me == side else -v


class Lookahead:
    """The strong bot's second look at a ball left at rest (``value``): the other side's next D6 face by face,
    and on each face it reaches the ball its best complete play (its nearest player onto the ball, every
    sequence of legs, valued by ``play_value`` from its side); on the faces it does not, our own next roll
    as ``Evaluator.rest`` values it. One instance per decision."""

    __slots__ = ("ev", "st")

    def __init__(self, st: GridState, ev: Evaluator) -> None:
        self.st = st
        self.ev = ev

    def value(self, pos: list[int], ball: int, mover: int) -> float:
        ev = self.ev
        me = ev.me
        occb = occ_bits(pos)
        lay = layers(ball, route_bits(occb), 6)
        near, q = 99, -1
        base = SQUAD * mover
        keeper = ev.keepers[mover]
        for p in range(base, base + SQUAD):
            s = pos[p]
            if s < 0:
                continue
            d = 0 if s == ball else pawn_steps(lay, s)
            if d < 0:
                continue
            if d < near or (d == near and q == keeper):
                near, q = d, p
        mine = ev.rest(pos, ball, me)
        if me == mover:
            return mine
        if near > 6:
            return ev.rest(pos, ball, mover)
        pos2 = list(pos)
        pos2[q] = ball
        occ2 = occupancy(pos2)
        occb2 = occ_bits(pos2)
        mates = [p for p in range(base, base + SQUAD) if pos2[p] >= 0]
        rivals = [p for p in range(SQUAD * me, SQUAD * me + SQUAD) if pos2[p] >= 0]
        line = offside_line(pos2, mover, rivals) if self.st.flags & F_OFFSIDE else 99
        kick = Kick(occ2, pos2, mover, line, mates, False)
        theirs = Evaluator(self.st, mover)
        cache: dict[int, float] = {}

        def rest(b: int) -> float:
            v = cache.get(b)
            if v is None:
                v = cache[b] = theirs.rest(pos2, b, me)
            return v

        best: dict[int, float] = {}
        total = 0.0
        for r in range(1, 7):
            if r < near:
                total += 0.7 * mine
                continue
            budget = r - near + 1 if near else r
            if budget not in best:
                ps = plays(kick, occ2, ball, budget, 1, q, -1, LOOK_PLAYS)
                best[budget] = max(
                    (play_value(theirs, pos2, occ2, occb2, p, mover, rest) for p in ps), default=0.0
                )
            total -= best[budget]
        return total / 6


LOOK_PLAYS = 400  # the other side's plays weighed per budget in the second look
LOOK_TOP = 6  # the strong bot's best candidates (by the first look) weighed again by the second


# ====================================================================== decisions as canonical actions
def _index(fmt: MatchFormat, state: GridState, decision: Decision) -> list[Action]:
    acts = list(fmt.legal_actions(state))  # type: ignore[attr-defined]
    assert len(acts) == len(decision.choices)
    return acts


def _pick(scored: list[tuple[float, int]], rng: Rng, margin: float) -> int:
    """The index of a best-scored choice, drawn from those within ``margin`` of the best."""
    best = max(s for s, _ in scored)
    near = [i for s, i in scored if s >= best - margin]
    return near[rng.randbelow(len(near))] if len(near) > 1 else near[0]


def _onto_ball(st: GridState, m: int) -> tuple[list[int], list[int], int]:
    """The position with ``m`` standing on the ball, its occupancy and occupied squares."""
    pos = list(st.pos)
    pos[m] = st.ball
    occ = occupancy(pos)
    return pos, occ, occ_bits(pos)


def _act_plays(st: GridState, a: Action) -> tuple[list[int], list[int], int, list[Play]]:
    """The plays after the act ``a`` (a walk onto the ball) with the budget it leaves (§6 B, A-42)."""
    side = st.turn
    m, k = a[1], a[2]
    pos, occ, occb = _onto_ball(st, m)
    budget = st.roll - (k - 1) if k > 0 else st.roll
    kick = Kick(occ, pos, side, _line(st, side), team(st, side), False)
    return pos, occ, occb, plays(kick, occ, st.ball, budget, 1, m, -1)


# ---------------------------------------------------------------------- easy
def _easy_leg_score(st: GridState, path: tuple[int, ...], end: int, occ: list[int], side: int) -> float:
    last = path[-1]
    if end == 1:
        if GOAL_OF[last] == side:
            return -GOAL  # our own goal
        rem = st.budget - len(path)
        return GOAL * SHOT_CHANCE[min(3, max(0, rem))]
    score = 2.0 * ADV[side][last]
    if end == 2:
        return score + 3.0
    for n in N4[last]:
        q = occ[n]
        if q >= 0 and SIDE[q] != side:
            score -= 6.0
    return score


def easy_action(st: GridState, acts: list[Action], rng: Rng) -> int:
    """The easy bot's choice among the canonical actions ``acts`` of the pending decision (module doc)."""
    phase = st.phase
    scored: list[tuple[float, int]] = []
    if phase == PH_ACT:
        side = st.turn
        ball = st.ball
        keeper = st.keeper[side]
        for i, a in enumerate(acts):
            if a[0] == "ball":
                scored.append((100.0 - a[2] + (5.0 if a[1] != keeper else 0.0), i))
            elif a[0] == "catch":
                scored.append((96.0, i))
            elif a[0] == "walk":
                m, w = a[1], a[2]
                if m == keeper:
                    scored.append((-50.0, i))
                    continue
                d = abs(X[w] - X[ball]) + abs(Y[w] - Y[ball])
                scored.append((-float(d), i))
            else:
                scored.append((-20.0, i))
        return _pick(scored, rng, 0.0)
    if phase == PH_LEG:
        side = st.play_side
        occ = occupancy(st.pos)
        kick = _kick_for(st)
        for i, (path, end) in enumerate(kick.legs(st.ball, st.budget, st.touches, st.kicker, st.prev)):
            score = _easy_leg_score(st, path, end, occ, side)
            if end == 1 and score < GOAL / 2:
                score = 2.0 * ADV[side][path[-1]]
            scored.append((score, i))
        if len(scored) == len(acts):
            return _pick(scored, rng, 0.0)
        return 0
    if phase == PH_INTERCEPT:
        side = st.dec_side
        shot = st.end == 1 and GOAL_OF[st.path[-2]] == side if st.path else False
        final = st.path[-2] if st.path else st.ball
        if shot or ADV[side][final] <= 8:
            return 0  # the first candidate tries
        return len(acts) - 1
    if phase == PH_SAVE:
        ctx = st.ctx
        chances = {ctx[i]: ctx[i + 1] for i in range(0, len(ctx), 2)}
        return max(range(len(acts)), key=lambda i: (chances[acts[i][1]], AREA_OF[acts[i][1]] >= 0, -i))
    if phase == PH_FOLLOW:
        return next((i for i, a in enumerate(acts) if a[0] == "nofollow"), 0)
    if phase == PH_FOUL:
        return _foul_index(st, acts)
    return _default_index(st, acts)


def _default_index(st: GridState, acts: Sequence[Action]) -> int:
    from games.grid_football.rules import _default_index as default_index

    return default_index(st, acts)


def _foul_index(st: GridState, acts: Sequence[Action]) -> int:
    """A compulsory foul (§13.6): the fouler with the fewest cards, the victim farthest from our goal."""
    side = st.turn

    def cost(a: Action) -> tuple[int, int]:
        f, v = a[1], a[2]
        return (st.yellow[f], -ADV[side][st.pos[v]])

    return min(range(len(acts)), key=lambda i: (*cost(acts[i]), i))


def _decide(
    fmt: MatchFormat,
    st: GridState,
    decision: Decision,
    rng: Rng,
    choose: Callable[[GridState, list[Action], Rng], int],
    formations: Sequence[tuple[int, int, int]],
) -> dict[str, Any]:
    """A bot's decision: its line-up, the only choice when there is one, else ``choose``'s."""
    if st.phase == PH_LINEUP:
        return chosen_lineup(decision, formations)
    acts = _index(fmt, st, decision)
    if len(acts) == 1:
        return decision.choices[0]
    return decision.choices[choose(st, acts, rng)]


EASY_FORMATIONS = ((4, 4, 2),)


def easy_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """Football sense, one leg and one walk at a time (module docstring)."""
    return _decide(fmt, state, decision, rng, easy_action, EASY_FORMATIONS)


# ---------------------------------------------------------------------- strong
def strong_action(st: GridState, acts: list[Action], rng: Rng) -> int:
    """The strong bot's choice among the canonical actions ``acts`` of the pending decision (module doc)."""
    phase = st.phase
    scored: list[tuple[float, int]] = []
    cands: list[Candidate] = []
    if phase == PH_ACT:
        side = st.turn
        ev = Evaluator(st, side)
        for i, a in enumerate(acts):
            tag = a[0]
            if tag == "ball":
                pos, occ, occb, ps = _act_plays(st, a)
                cands += [(play_value(ev, pos, occ, occb, p, side), i, pos, occ, occb, p) for p in ps]
                if not ps:
                    scored.append((-GOAL, i))
            elif tag == "catch":
                scored.append((_catch_value(st, ev, a), i))
            else:
                pos = position_after(st, a)
                cands.append((ev.rest(pos, st.ball, 1 - side), i, pos, None, 0, None))
        return _pick(scored + _second_look(st, ev, side, cands), rng, 1e-6)
    if phase == PH_LEG:
        side = st.play_side
        ev = Evaluator(st, side)
        pos = list(st.pos)
        occ = occupancy(pos)
        occb = occ_bits(pos)
        kick = _kick_for(st)
        first = {a[1]: i for i, a in enumerate(acts)}
        for p in plays(kick, occ, st.ball, st.budget, st.touches, st.kicker, st.prev):
            i = first.get(p.legs[0])
            if i is not None:
                cands.append((play_value(ev, pos, occ, occb, p, side), i, pos, occ, occb, p))
        if not cands:
            return 0
        return _pick(_second_look(st, ev, side, cands), rng, 1e-6)
    if phase == PH_FOLLOW:
        side = st.dec_side
        ev = Evaluator(st, side)
        for i, a in enumerate(acts):
            pos = list(st.pos)
            if a[0] == "follow":
                pos[a[1]] = a[2]
            scored.append((_after_play_value(st, ev, pos, side), i))
        return _pick(scored, rng, 1e-6)
    if phase == PH_INTERCEPT:
        return _intercept_index(st, acts)
    if phase == PH_SAVE:
        return easy_action(st, acts, rng)
    if phase == PH_FOUL:
        return _foul_index(st, acts)
    return _default_index(st, acts)


# a candidate of the strong bot: its first value, the action's index, the position it leaves (the kicker on
# the ball for a play), that position's occupancy and occupied squares, and the play (None: a walk)
Candidate = tuple[float, int, list[int], list[int] | None, int, Play | None]


def _second_look(st: GridState, ev: Evaluator, side: int, cands: list[Candidate]) -> list[tuple[float, int]]:
    """Every candidate's value: the ``LOOK_TOP`` best by the first look weighed again by ``Lookahead`` (the
    ball at rest; a shot keeps its value), per action index the best."""
    look = Lookahead(st, ev)
    order = sorted(range(len(cands)), key=lambda j: -cands[j][0])
    top = set(order[:LOOK_TOP])
    best: dict[int, float] = {}
    seen: dict[tuple[int, int], float] = {}
    for j, (v, i, pos, occ, occb, play) in enumerate(cands):
        if j in top:
            if play is None:
                v = look.value(pos, st.ball, 1 - side)
            elif play.end == 0 and occ is not None:

                def rest(b: int, pos: list[int] = pos) -> float:
                    key = (id(pos), b)
                    got = seen.get(key)
                    if got is None:
                        got = seen[key] = look.value(pos, b, 1 - side)
                    return got

                v = play_value(ev, pos, occ, occb, play, side, rest)
        if v > best.get(i, -1e18):
            best[i] = v
    return [(v, i) for i, v in best.items()]


def position_after(st: GridState, a: Action) -> list[int]:
    """The position a walk, a shoulder charge (§6.S: the charger steps into the victim's square, the victim
    and the chain behind him one square on) or a pass leaves."""
    pos = list(st.pos)
    if a[0] == "walk":
        pos[a[1]] = a[2]
    elif a[0] == "charge":
        m, v = a[1], a[2]
        occ = occupancy(pos)
        sv = pos[v]
        step = STEP[ORTHO_DIR[(pos[m], sv)]]
        chain = []
        cur = sv
        while cur >= 0 and occ[cur] >= 0:
            chain.append(occ[cur])
            cur = step[cur]
        for q in reversed(chain):
            pos[q] = step[pos[q]]
        pos[m] = sv
    return pos


def _catch_value(st: GridState, ev: Evaluator, a: Action) -> float:
    """The keeper's catch (§10): he throws with a D6 rerolled on a '1' (A-23): the mean of the best plays
    with 2..6."""
    side = st.turn
    m = a[1]
    pos, occ, occb = _onto_ball(st, m)
    kick = Kick(occ, pos, side, _line(st, side), team(st, side), False)
    total = 0.0
    for budget in range(2, 7):
        ps = plays(kick, occ, st.ball, budget, 1, m, -1)
        total += max((play_value(ev, pos, occ, occb, p, side) for p in ps), default=-GOAL)
    return total / 5


def _after_play_value(st: GridState, ev: Evaluator, pos: list[int], side: int) -> float:
    """The value, for ``side`` which has just played, of the ball where the play ended (interceptions to
    come are the same for every follow)."""
    if st.path and st.end == 1:
        return 0.0
    return ev.rest(pos, st.ball, 1 - side) if ev.me == side else -ev.rest(pos, st.ball, 1 - side)


def _intercept_index(st: GridState, acts: list[Action]) -> int:
    """Try when the ball is shot at our goal or would stop where the other side is dangerous; otherwise only
    when the try itself (the interceptor steps into the path whatever the die) leaves us no worse."""
    side = st.dec_side
    ev = Evaluator(st, side)
    path = st.path
    final = path[-2] if path else st.ball
    if st.end == 1 and GOAL_OF[final] == side:
        return 0
    other = 1 - side
    base = ev.rest(st.pos, final, other) if st.end != 1 else 0.0
    best, best_i = base, len(acts) - 1
    i_sq = path[2 * st.ctx[0]]
    for i, a in enumerate(acts):
        if a[0] != "int":
            continue
        pos = list(st.pos)
        pos[a[1]] = i_sq
        fail = ev.rest(pos, final, other) if st.end != 1 else 0.0
        v = (1 - DEFLECT) * fail + DEFLECT * ev.rest(pos, i_sq, other)
        if v > best + 1e-9:
            best, best_i = v, i
    return best_i


STRONG_FORMATIONS = ((4, 4, 2),)


def strong_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """One-ply expectimax over the dice with the evaluation of ``Evaluator`` (module docstring)."""
    return _decide(fmt, state, decision, rng, strong_action, STRONG_FORMATIONS)


# ---------------------------------------------------------------------- default, random
def default_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """The decision's default (also what an expired decision timer does)."""
    return decision.default


def random_policy(fmt: MatchFormat, state: Any, decision: Decision, rng: Rng) -> dict[str, Any]:
    """A uniformly random legal choice (no draw when there is only one); a random line-up."""
    if decision.kind == "lineup":
        return random_lineup(decision, rng)
    n = len(decision.choices)
    return decision.choices[rng.randbelow(n)] if n > 1 else decision.choices[0]


POLICIES: dict[str, Policy] = {
    "default": default_policy,
    "random": random_policy,
    "easy": easy_policy,
    "strong": strong_policy,
}


def get_policy(name: str) -> Policy:
    """A policy by name: ``default``, ``random``, ``easy`` or ``strong``."""
    return POLICIES[name]


__all__ = [
    "POLICIES",
    "Evaluator",
    "Play",
    "Policy",
    "chosen_lineup",
    "default_policy",
    "easy_policy",
    "get_policy",
    "plays",
    "position_after",
    "random_lineup",
    "random_policy",
    "strong_policy",
]
