"""Searches over the grid: walks, walking distances, the anti-spoiling tests and the ball's paths.

Why a module of its own: these are the hot loops of the engine (a turn asks for the walks of eleven pawns
and every path of a kick), written over the flat tables of ``geometry`` and an occupancy list, with no
state object in sight, so they are easy to test against slow references.

- Walks (§6 A, A-6, A-42): a walk is a self-avoiding orthogonal path of exactly the roll, or fewer steps
  when its last step enters the ball. Destinations come from a breadth-first search (every square whose
  walking distance equals the roll is reached by a shortest path, which never revisits); only squares
  nearer by an even number of steps need a detour, and a depth-first search pruned to those squares
  settles them, stopping as soon as all are settled.
- Distances (§2, A-47, A-64): breadth-first, through empty squares, outside and back-line squares allowed,
  goal squares only for that goal's keeper.
- Anti-spoiling (§12, A-61, A-66, A-67): the area count, the chain of at most nine and the reachability of
  the ball, tested for one candidate move at a time from tables made once per decision.
- Ball paths (§7, A-10, A-43, A-50, A-55): one leg is a direction and at most one 45-degree curve; empty
  pitch squares cost one, a team-mate's square is free and ends the leg (a relay), a goal square ends the
  play (a shot). A relay is offered only when a complete play can follow from it (memoised).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from games.grid_football.geometry import (
    ADV,
    AREA_OF,
    BACKLINE,
    GOAL_AREA_OF,
    GOAL_OF,
    KEEPER,
    KIND,
    N4,
    N8,
    NSQ,
    ON_BOARD,
    PITCH,
    SIDE,
    STEP,
    H,
    W,
)

MAX_TOUCHES = 6  # §7.4: at most six players touch the ball in one play
CHAIN_MAX = 9  # §12.5
AREA_MAX, GOAL_AREA_MAX = 4, 1  # §12.4

# What the ball may enter (§7.5, A-50): 0 never (off, outside, a back-line square), 1 a pitch square, 2 a goal
BALL_CLASS = [2 if GOAL_OF[s] >= 0 else 1 if PITCH[s] else 0 for s in range(NSQ)]
# squares anyone may walk on, goal squares aside (§2)
WALKABLE = [ON_BOARD[s] and GOAL_OF[s] < 0 for s in range(NSQ)]


def occupancy(pos: Sequence[int]) -> list[int]:
    """Which pawn stands on each square (-1: none)."""
    occ = [-1] * NSQ
    for p, s in enumerate(pos):
        if s >= 0:
            occ[s] = p
    return occ


# ====================================================================== walking
def walk_free(occ: list[int], ball: int, side: int, keeper: bool) -> list[bool]:
    """The squares a pawn of ``side`` may step on now, as a list (the slow form, for messages and tests)."""
    bits = walk_free_bits(occ_bits_of(occ), ball, side, keeper)
    return [bool(bits & BIT[s]) for s in range(NSQ)]


def _witnesses() -> dict[tuple[int, int, int], tuple[tuple[tuple[int, int], ...], ...]]:
    """Every self-avoiding walk of length 3..6 on the open grid that ends nearer than its length, by
    (length, dx, dy) of its end: the squares it crosses (its end excluded), most compact first."""
    out: dict[tuple[int, int, int], list[tuple[tuple[int, int], ...]]] = {}
    steps = ((0, 1), (1, 0), (0, -1), (-1, 0))

    def grow(path: list[tuple[int, int]]) -> None:
        n = len(path) - 1
        x, y = path[-1]
        if n >= 3 and abs(x) + abs(y) < n:
            out.setdefault((n, x, y), []).append(tuple(path[1:-1]))
        if n == 6:
            return
        for dx, dy in steps:
            q = (x + dx, y + dy)
            if q not in path:
                path.append(q)
                grow(path)
                path.pop()

    grow([(0, 0)])
    return {
        k: tuple(sorted(v, key=lambda w: (max(abs(a) + abs(b) for a, b in w), w))) for k, v in out.items()
    }


WITNESSES = _witnesses()
MARGIN = 6  # the padded board of the bit masks: no walk of at most six steps leaves it
PW = W + 2 * MARGIN
PAD = tuple((s // W + MARGIN) * PW + s % W + MARGIN for s in range(NSQ))
UNPAD = {b: s for s, b in enumerate(PAD)}
BIT = tuple(1 << PAD[s] for s in range(NSQ))
FULL = (1 << (PW * (H + 2 * MARGIN))) - 1
N4MASK = tuple(sum(BIT[n] for n in N4[s]) for s in range(NSQ))


def _mask(pred: Any) -> int:
    return sum(BIT[s] for s in range(NSQ) if pred(s))


ONBOARD_BITS = _mask(lambda s: ON_BOARD[s])
PITCH_BITS = _mask(lambda s: PITCH[s])
GOAL_BITS = (_mask(lambda s: GOAL_OF[s] == 0), _mask(lambda s: GOAL_OF[s] == 1))
ROUTE_BITS = ONBOARD_BITS & ~GOAL_BITS[0] & ~GOAL_BITS[1]
GOAL_AREA_BITS = (_mask(lambda s: GOAL_AREA_OF[s] == 0), _mask(lambda s: GOAL_AREA_OF[s] == 1))


def occ_bits(pos: Sequence[int]) -> int:
    """The squares pawns stand on."""
    b = 0
    for s in pos:
        if s >= 0:
            b |= BIT[s]
    return b


def occ_bits_of(occ: list[int]) -> int:
    """The same from an occupancy list."""
    return sum(BIT[s] for s in range(NSQ) if occ[s] >= 0)


def walk_free_bits(occb: int, ball: int, side: int, keeper: bool, goal_areas: bool = True) -> int:
    """The squares a pawn of ``side`` may step on now: empty, on the board, not the ball (it ends a walk);
    goal squares only for the side's own keeper (§12.2); goal-area squares for outfield pawns only while the
    ball lies in row 1 of that end (§12.3, A-46; ``goal_areas`` False when anti-spoiling is off, A-5)."""
    free = ROUTE_BITS & ~occb
    if keeper:
        free |= GOAL_BITS[side] & ~occb
    elif goal_areas:
        by = ball // W if ball >= 0 else -1
        if by != 1:
            free &= ~GOAL_AREA_BITS[0]
        if by != 15:
            free &= ~GOAL_AREA_BITS[1]
    if ball >= 0:
        free &= ~BIT[ball]
    return free


CENTRE_BIT = MARGIN * PW + MARGIN
# the witnesses as bit masks around CENTRE_BIT (shift by a pawn's bit, test against the blocked squares)
WMASK = {
    k: tuple(sum(1 << (CENTRE_BIT + b * PW + a) for a, b in w) for w in ws) for k, ws in WITNESSES.items()
}


# per roll: every offset a detour may end at (nearer than the roll by an even number, not the start), as a
# shift on the padded board, with its witnesses (the walks that reach it)
DETOURS = tuple(
    tuple(
        (b * PW + a, WMASK[(p, a, b)])
        for a in range(-6, 7)
        for b in range(-6, 7)
        if 0 < abs(a) + abs(b) < p and (p - abs(a) - abs(b)) % 2 == 0
    )
    for p in range(7)
)


def bit_squares(x: int) -> list[int]:
    """The squares of a bit mask, in bit order (which is square order)."""
    out = []
    while x:
        low = x & -x
        out.append(UNPAD[low.bit_length() - 1])
        x ^= low
    return out


class Walker:
    """Walks over one mask of free squares (a side's outfield pawns or its keeper, §12.2, §12.3, A-46).

    ``ends(start, p, ball)``: the bit mask of where a self-avoiding walk of exactly ``p`` steps from ``start``
    can end, and with how many steps (at most ``p``, the last onto it) a walk can end on the ball (A-6,
    A-42). A square at walking distance ``p`` is reached by a shortest path; one nearer by an even number of
    steps needs a detour, looked up among the precomputed walks of that length to that offset: exact, since
    every such walk on the open grid is there. The breadth-first layers are shifts of one big integer.
    """

    __slots__ = ("blocked", "free")

    def __init__(self, free: int) -> None:
        self.free = free
        self.blocked = (FULL & ~free) << CENTRE_BIT

    def ends(self, start: int, p: int, ball: int) -> tuple[int, list[int]]:
        free = self.free
        sb = PAD[start]
        visited = frontier = 1 << sb
        ball_bit = BIT[ball] if ball >= 0 else 0
        ball_d = -1
        layers = [frontier]
        for d in range(1, p + 1):
            nb = (frontier << 1) | (frontier >> 1) | (frontier << PW) | (frontier >> PW)
            if ball_d < 0 and nb & ball_bit:
                ball_d = d
            frontier = nb & free & ~visited
            visited |= frontier
            layers.append(frontier)
            if not frontier:
                break
        ends = layers[p] if len(layers) > p else 0
        sx, sy = start % W, start // W
        blocked = self.blocked
        near = 0
        for d in range(p - 2, 0, -2):
            if d < len(layers):
                near |= layers[d]
        if near:  # squares nearer by an even number of steps: each needs a detour of its own
            near >>= sb - CENTRE_BIT  # so that an offset's bit is CENTRE_BIT + offset
            for off, wms in DETOURS[p]:
                if near >> (CENTRE_BIT + off) & 1:
                    for wm in wms:
                        if not (wm << sb) & blocked:
                            ends |= 1 << (sb + off)
                            break
        ball_ks = [ball_d] if ball_d > 0 else []
        if ball_d > 0:
            bx, by = ball % W - sx, ball // W - sy
            for k in range(ball_d + 2, p + 1, 2):
                for wm in WMASK.get((k, bx, by), ()):
                    if not (wm << sb) & blocked:
                        ball_ks.append(k)
                        break
        return ends, ball_ks


def walk_ends(free: list[bool], start: int, p: int, ball: int) -> tuple[list[int], list[int]]:
    """``Walker(free).ends(start, p, ball)`` for a list of free squares (False on ``start``, the ball and
    every square the pawn may not enter)."""
    bits = 0
    for s in range(NSQ):
        if free[s]:
            bits |= BIT[s]
    return Walker(bits).ends(start, p, ball)


# ====================================================================== distances on the bit board
def layers(src: int, passable: int, limit: int = 99) -> list[int]:
    """Breadth-first layers from square ``src`` through ``passable`` squares: ``layers[d]`` holds the squares
    ``d`` steps away (``layers[0]`` is ``src`` itself, passable or not), at most ``limit`` steps."""
    visited = frontier = BIT[src]
    out = [frontier]
    while len(out) <= limit:
        nb = ((frontier << 1) | (frontier >> 1) | (frontier << PW) | (frontier >> PW)) & passable & ~visited
        if not nb:
            break
        visited |= nb
        out.append(nb)
        frontier = nb
    return out


def step_of(lay: list[int], s: int) -> int:
    """The layer holding square ``s``, -1 if none."""
    b = BIT[s]
    for d, layer in enumerate(lay):
        if layer & b:
            return d
    return -1


def pawn_steps(lay: list[int], at: int) -> int:
    """The walking distance to the source of ``lay`` of a pawn standing on ``at`` (its square need not be
    passable): one more than its nearest reached neighbour, 0 on the source; -1 when it cannot reach it."""
    if lay[0] & BIT[at]:
        return 0
    nb = N4MASK[at]
    for d, layer in enumerate(lay):
        if layer & nb:
            return d + 1
    return -1


def route_bits(occb: int, side_goals: int = -1) -> int:
    """Squares a walking-distance route may cross (§2, A-64): empty, on the board, goal squares only those
    of ``side_goals`` (that side's keeper's route)."""
    ok = ROUTE_BITS & ~occb
    if side_goals >= 0:
        ok |= GOAL_BITS[side_goals] & ~occb
    return ok


def nearest_to_ball(
    occb: int, pos: Sequence[int], ball: int, pawns: Sequence[int], keeper: int
) -> tuple[int, list[int]]:
    """The least walking distance to the ball among ``pawns`` and the pawns at it (A-7, A-64): breadth-first
    from the ball, stopping at the first layer that touches one of them; ``keeper`` (one of ``pawns``, or -1)
    by his own route. (-1, []) when none can reach the ball."""
    on = [p for p in pawns if pos[p] == ball]
    if on:
        return 0, on
    field = [p for p in pawns if p != keeper]
    around = 0
    for p in field:
        around |= BIT[pos[p]]
    best, found = -1, []
    if field:
        passable = route_bits(occb)
        visited = frontier = BIT[ball]
        d = 0
        while frontier:
            d += 1
            touch = ((frontier << 1) | (frontier >> 1) | (frontier << PW) | (frontier >> PW)) & around
            if touch:
                best, found = d, [p for p in field if touch & BIT[pos[p]]]
                break
            nb = (
                ((frontier << 1) | (frontier >> 1) | (frontier << PW) | (frontier >> PW))
                & passable
                & ~visited
            )
            visited |= nb
            frontier = nb
    if keeper >= 0:
        kd = pawn_steps(layers(ball, route_bits(occb, SIDE[keeper]), best if best > 0 else 99), pos[keeper])
        if kd >= 0 and (best < 0 or kd < best):
            best, found = kd, [keeper]
        elif kd >= 0 and kd == best:
            found = [*found, keeper]
    return best, found


# ====================================================================== offside (§11.1, A-14)
def offside_line(pos: Sequence[int], side: int, opponents: Sequence[int]) -> int:
    """The advance (towards the back line ``side`` attacks) of the second-last opponent: a pawn of ``side``
    beyond it has fewer than two opponents at least as near that back line."""
    adv = ADV[side]
    vals = sorted((adv[pos[q]] for q in opponents if pos[q] >= 0), reverse=True)
    return vals[1] if len(vals) > 1 else -1


def offside_pawns(pos: Sequence[int], side: int, mates: Sequence[int], line: int, ball: int) -> list[int]:
    """The pawns of ``mates`` (side ``side``) that are offside with the ball on ``ball``."""
    adv = ADV[side]
    limit = max(line, adv[ball])
    return [p for p in mates if pos[p] >= 0 and adv[pos[p]] > limit]


# ====================================================================== anti-spoiling (§12)
def expand(bits: int) -> int:
    """The squares orthogonally next to ``bits`` (and ``bits`` themselves, on the padded board)."""
    return bits | (bits << 1) | (bits >> 1) | (bits << PW) | (bits >> PW)


AREA_BITS = (_mask(lambda s: AREA_OF[s] == 0), _mask(lambda s: AREA_OF[s] == 1))


class Spoil:
    """The §12 tables of one position, for testing candidate moves (A-61, A-66, A-67).

    ``clean_mask(m, ends)``: of the squares in the bit mask ``ends``, those where pawn ``m`` walking (or
    following) there and touching nothing is clean: afterwards neither side lost the ball's reachability and
    ``m``'s side has no violation (area, chain, reach). Whole masks are settled with a few integer operations;
    only the squares where the quick tests cannot decide are searched one by one. ``clean_on_ball(m)``: ``m``
    walks onto the ball (to kick it or catch it): own area (not while the ball lies in the own goal area) and
    own chain only. ``clean_now(side)``: the side has no violation as it stands.

    Reachability (§12.6, A-67): C is the ball's square and the empty pitch squares connected to it; a side
    reaches the ball when one of its pawns stands on or next to C. A move to a square off C cannot cut C;
    on C the mover himself touches the ball's part of C, and a reacher of the other side next to a square
    of C strictly nearer the ball than the destination keeps a route that avoids it.
    """

    __slots__ = (
        "_full",
        "_pressure",
        "_simple",
        "area",
        "ball",
        "c",
        "goal_area",
        "lay",
        "near",
        "occ",
        "occb",
        "pos",
        "reach_before",
        "sides",
        "team",
        "touch",
    )

    def __init__(self, occ: list[int], pos: Sequence[int], ball: int, team: Sequence[Sequence[int]]) -> None:
        self.occ = occ
        self.pos = pos
        self.ball = ball
        self.team = team  # per side: pawns on the board
        self.occb = occb = occ_bits(pos)
        self.area = [0, 0]
        self.goal_area = [0, 0]
        self.sides = [0, 0]
        for side in (0, 1):
            b = 0
            for p in team[side]:
                s = pos[p]
                b |= BIT[s]
                if KIND[p] != KEEPER:
                    if AREA_OF[s] == side:
                        self.area[side] += 1
                    if GOAL_AREA_OF[s] == side:
                        self.goal_area[side] += 1
            self.sides[side] = b
        lay = layers(ball, PITCH_BITS & ~occb)
        c = 0
        for layer in lay:
            c |= layer
        self.lay = lay
        self.c = c
        self.touch = expand(c)  # a pawn standing here reaches the ball
        self.reach_before = [bool(self.touch & self.sides[0]), bool(self.touch & self.sides[1])]
        # per side: the squares of C up to the nearest its reachers touch (a destination of C beyond them
        # cannot cut that side off)
        self.near = [0, 0]
        for side in (0, 1):
            around = expand(self.sides[side])
            acc = 0
            for layer in lay:
                acc |= layer
                if layer & around:
                    break
            self.near[side] = acc
        self._full: list[tuple[list[int], list[int]] | None] = [None, None]
        self._pressure: list[int] = [0, 0]  # per side: squares whose chain pressure reaches nine
        self._simple = [False, False]

    # ------------------------------------------------------------------ chains
    def components(self, side: int, without: int) -> tuple[list[int], list[int]]:
        """Chain labels per pawn (-1 for others) and label sizes of ``side`` with ``without`` lifted."""
        occ, pos = self.occ, self.pos
        label = [-1] * 40
        sizes: list[int] = []
        for p in self.team[side]:
            if p == without or label[p] >= 0:
                continue
            lab = len(sizes)
            label[p] = lab
            count = 1
            stack = [p]
            while stack:
                q = stack.pop()
                for n in N8[pos[q]]:
                    o = occ[n]
                    if o >= 0 and o != without and SIDE[o] == side and label[o] < 0:
                        label[o] = lab
                        count += 1
                        stack.append(o)
            sizes.append(count)
        return label, sizes

    def _chain_fn(self, side: int, m: int) -> Any:
        """A test ``ok(w)``: no chain of ``side`` longer than nine with ``m`` standing on ``w`` (None: no
        chain can be too long; False: one already is, wherever ``m`` goes), and the squares it must look at
        (the rest are fine)."""
        if len(self.team[side]) <= CHAIN_MAX or self._simple[side]:
            return None, 0
        full = self._full[side]
        if full is None:
            full = self._full[side] = self.components(side, -1)
            # the chain pressure of a square: the pawns of the chains around it (an upper bound of the chain a
            # pawn standing there would be in); only squares next to a pawn have any
            pressure: dict[int, int] = {}
            seen_at: dict[int, int] = {}
            flabel0, fsizes0 = full
            for p in self.team[side]:
                lab = flabel0[p]
                for n in N8[self.pos[p]]:
                    mask = seen_at.get(n, 0)
                    if not mask >> lab & 1:
                        seen_at[n] = mask | 1 << lab
                        pressure[n] = pressure.get(n, 0) + fsizes0[lab]
            suspect = 0
            for n, v in pressure.items():
                if v >= CHAIN_MAX:
                    suspect |= BIT[n]
            self._pressure[side] = suspect
        fsizes = full[1]
        too_long = max(fsizes, default=0) > CHAIN_MAX
        if too_long:
            sizes = self.components(side, m)[1]
            if max(sizes, default=0) > CHAIN_MAX:
                return False, 0
        suspect = self._pressure[side]
        if not suspect:
            if not too_long:
                self._simple[side] = True  # no chain anywhere near nine: nothing to test for any pawn
            return None, 0
        occ = self.occ
        exact: list[tuple[list[int], list[int]]] = []

        def ok(w: int) -> bool:
            if not exact:
                exact.append(self.components(side, m))
            label, sizes = exact[0]
            seen = 0
            total = 1
            for n in N8[w]:
                o = occ[n]
                if o >= 0 and o != m and SIDE[o] == side:
                    lab = label[o]
                    if not seen >> lab & 1:
                        seen |= 1 << lab
                        total += sizes[lab]
            return total <= CHAIN_MAX and max(sizes, default=0) <= CHAIN_MAX

        return ok, suspect

    def chains_ok(self, side: int) -> bool:
        """No chain of ``side`` longer than nine as it stands."""
        if len(self.team[side]) <= CHAIN_MAX:
            return True
        return max(self.components(side, -1)[1], default=0) <= CHAIN_MAX

    # ------------------------------------------------------------------ area
    def area_ok(self, side: int, m: int, w: int) -> bool:
        """§12.4: at most four outfield pawns of ``side`` in its own area, one in its goal area, with ``m``
        standing on ``w``."""
        if KIND[m] == KEEPER:
            return self.area[side] <= AREA_MAX and self.goal_area[side] <= GOAL_AREA_MAX
        u = self.pos[m]
        a = self.area[side] - (AREA_OF[u] == side) + (AREA_OF[w] == side)
        g = self.goal_area[side] - (GOAL_AREA_OF[u] == side) + (GOAL_AREA_OF[w] == side)
        return a <= AREA_MAX and g <= GOAL_AREA_MAX

    # ------------------------------------------------------------------ reach
    def reaches(self, side: int, m: int, w: int) -> bool:
        """Whether ``side`` can reach the ball once ``m`` stands on ``w``: breadth-first from the ball,
        stopping as soon as a pawn of ``side`` stands next to the reached squares."""
        u = self.pos[m]
        occb = (self.occb & ~BIT[u]) | BIT[w]
        mates = self.sides[side]
        if SIDE[m] == side:
            mates = (mates & ~BIT[u]) | BIT[w]
        ball = self.ball
        if mates & BIT[ball]:
            return True
        passable = PITCH_BITS & ~occb
        visited = frontier = BIT[ball]
        while frontier:
            nb = (frontier << 1) | (frontier >> 1) | (frontier << PW) | (frontier >> PW)
            if nb & mates:
                return True
            frontier = nb & passable & ~visited
            visited |= frontier
        return False

    def clean_mask(self, m: int, ends: int) -> int:
        """The squares of ``ends`` where a walk or follow of ``m`` (not onto the ball) is clean (A-66)."""
        side = SIDE[m]
        other = 1 - side
        u = self.pos[m]
        bad = 0
        if KIND[m] != KEEPER:
            a = self.area[side] - (AREA_OF[u] == side)
            g = self.goal_area[side] - (GOAL_AREA_OF[u] == side)
            if a > AREA_MAX or g > GOAL_AREA_MAX:
                return 0
            if a == AREA_MAX:
                bad |= AREA_BITS[side]
            if g == GOAL_AREA_MAX:
                bad |= GOAL_AREA_BITS[side]
        elif self.area[side] > AREA_MAX or self.goal_area[side] > GOAL_AREA_MAX:
            return 0
        chain, suspect = self._chain_fn(side, m)
        if chain is False:
            return 0
        c = self.c
        # own reach: off C and not next to it, with no other reacher of his side: search
        if not (self.touch & self.sides[side] & ~BIT[u]):
            suspect |= ends & ~self.touch
        if self.reach_before[other]:
            suspect |= ends & c & self.near[other]
        ends &= ~bad
        clean = ends & ~suspect
        for w in bit_squares(ends & suspect):
            if chain is not None and not chain(w):
                continue
            if not self.reaches(side, m, w):
                continue
            if self.reach_before[other] and not self.reaches(other, m, w):
                continue
            clean |= BIT[w]
        return clean

    def clean_walk(self, m: int, w: int) -> bool:
        """A walk or follow of ``m`` to ``w`` (not the ball) is clean (A-66)."""
        return bool(self.clean_mask(m, BIT[w]))

    def clean_on_ball(self, m: int) -> bool:
        """A walk onto the ball (a kick or a keeper's catch) is clean: own area (not while the ball lies in
        the own goal area, §12.4) and own chain (A-66)."""
        side = SIDE[m]
        b = self.ball
        if GOAL_AREA_OF[b] != side and not self.area_ok(side, m, b):
            return False
        chain, suspect = self._chain_fn(side, m)
        if chain is False:
            return False
        return chain is None or not suspect & BIT[b] or chain(b)

    def clean_now(self, side: int) -> bool:
        """``side`` has no violation as the position stands (the "no follow" alternative, A-66)."""
        return (
            self.area[side] <= AREA_MAX
            and self.goal_area[side] <= GOAL_AREA_MAX
            and self.chains_ok(side)
            and self.reach_before[side]
        )


# ====================================================================== ball paths (§7)
class Kick:
    """Enumerates the legs of one play from a fixed position (players do not move while the ball does).

    ``legs(frm, budget, touches, kicker, prev)`` lists every leg as ``(path, end)``: ``path`` the squares the
    ball enters, ``end`` 0 at rest, 1 a shot (a goal square), 2 a relay (a team-mate's square). A relay is
    listed only if a complete play follows from it (A-43); ``complete(...)`` says whether one does.
    """

    __slots__ = ("line", "mates", "memo", "must_goal", "occ", "pos", "side")

    def __init__(
        self, occ: list[int], pos: Sequence[int], side: int, line: int, mates: Sequence[int], must_goal: bool
    ) -> None:
        self.occ = occ
        self.pos = pos
        self.side = side
        self.line = line  # offside line of side (offside_line)
        self.mates = mates
        self.must_goal = must_goal
        self.memo: dict[tuple[int, int, int, int], bool] = {}

    def forbid(self, at: int) -> list[int]:
        """Team-mates offside at a touch on ``at`` (§11.2): they may not receive from this touch."""
        return offside_pawns(self.pos, self.side, self.mates, self.line, at)

    def _enter(
        self, cur: int, nxt: int, rem: int, touches: int, kicker: int, prev: int, forbid: list[int]
    ) -> int:
        """-1 invalid, 0 the ball goes on (an empty pitch square), 1 a shot, 2 a relay."""
        if nxt < 0:
            return -1
        cls = BALL_CLASS[nxt]
        if cls == 0:
            return -1
        o = self.occ[nxt]
        if o >= 0:
            if SIDE[o] != self.side or touches >= MAX_TOUCHES or o == prev or o in forbid:
                return -1
            if not self.complete(nxt, rem, touches + 1, kicker):
                return -1
            return 2
        if cls == 2:
            return -1 if BACKLINE[cur] else 1
        return 0

    def _ray(
        self,
        cur: int,
        d: int,
        rem: int,
        path: tuple[int, ...],
        touches: int,
        kicker: int,
        prev: int,
        forbid: list[int],
        curve: bool,
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        """The legs going straight from ``cur`` in direction ``d`` (and, with ``curve``, turning 45 degrees
        once at any square on the way, §7.2): each as (squares entered, 0 rest / 1 shot / 2 relay)."""
        step = STEP[d]
        while True:
            nxt = step[cur]
            kind = self._enter(cur, nxt, rem, touches, kicker, prev, forbid)
            if kind < 0:
                return
            path = (*path, nxt)
            if kind:
                yield path, kind
                return
            rem -= 1
            if rem == 0:
                if not self.must_goal:
                    yield path, 0
                return
            if curve:
                for t in ((d + 1) % 8, (d + 7) % 8):
                    yield from self._ray(nxt, t, rem, path, touches, kicker, prev, forbid, False)
            cur = nxt

    def _legs(
        self, frm: int, budget: int, touches: int, kicker: int, prev: int
    ) -> Iterator[tuple[tuple[int, ...], int]]:
        forbid = self.forbid(frm)
        for d in range(8):
            yield from self._ray(frm, d, budget, (), touches, kicker, prev, forbid, True)

    def legs(
        self, frm: int, budget: int, touches: int, kicker: int, prev: int
    ) -> list[tuple[tuple[int, ...], int]]:
        """Every leg of the kicker on ``frm`` with ``budget`` empty squares to travel (A-55: one per path)."""
        return list(self._legs(frm, budget, touches, kicker, prev))

    def complete(self, frm: int, budget: int, touches: int, prev: int) -> bool:
        """Whether the pawn on ``frm`` (having received from ``prev``) can finish the play (A-43)."""
        key = (frm, budget, touches, prev)
        got = self.memo.get(key)
        if got is not None:
            return got
        self.memo[key] = False  # a cycle of relays cannot finish by itself (guard)
        ok = next(self._legs(frm, budget, touches, self.occ[frm], prev), None) is not None
        self.memo[key] = ok
        return ok


def replay_leg(occ: list[int], path: Sequence[int], budget: int) -> tuple[list[int], int, int]:
    """The budget left after each square of a legal leg, how it ends (0 rest, 1 shot, 2 relay) and the
    budget left at its end (a shot's strength r, §9.2: entering the goal square costs one like any empty
    square)."""
    rems: list[int] = []
    rem = budget
    end = 0
    for s in path:
        if occ[s] >= 0:
            end = 2
        else:
            rem -= 1  # an empty square, a goal square too (§9.2: T-07, T-22)
            if GOAL_OF[s] >= 0:
                end = 1
        rems.append(rem)
    return rems, end, rem
