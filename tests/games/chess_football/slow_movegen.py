"""A second, deliberately slow and simple move generator, written only for the perft tests.

It reads the digest's words directly (§4-§11 and rulings X-1..X-40) with (x, y) pairs and brute force:
for every piece and every square of the board it asks "may this piece go there?", for every square "may
the ball land there?", and it plays each move on a copy to produce the end position. It shares nothing
with the engine's tables or generator except the state's field layout (sq = 10 * y + x, pos, ball ...).
"""

from __future__ import annotations

from typing import Any

from games.chess_football.state import BOX, OFF, PH_PENALTY, PH_PLAY, ChessState, clone

SQUARES = [(x, y) for y in range(0, 15) for x in range(1, 10) if 1 <= y <= 13 or (4 <= x <= 6)]
START = {
    0: (5, 0),
    1: (5, 5),
    2: (2, 3),
    3: (4, 3),
    4: (6, 3),
    5: (8, 3),
    6: (1, 5),
    7: (3, 5),
    8: (7, 5),
    9: (9, 5),
}
for _p in range(10):
    START[10 + _p] = (10 - START[_p][0], 14 - START[_p][1])


def kind(p: int) -> str:
    i = p % 10
    return "keeper" if i == 0 else "captain" if i == 1 else "dark" if i < 6 else "light"


def grid(c: tuple[int, int]) -> bool:
    return 1 <= c[0] <= 9 and 1 <= c[1] <= 13


def goal(c: tuple[int, int], side: int) -> bool:
    """One of the goal squares ``side`` defends."""
    return 4 <= c[0] <= 6 and c[1] == (0 if side == 0 else 14)


def red(c: tuple[int, int], side: int) -> bool:
    return 4 <= c[0] <= 6 and c[1] == (1 if side == 0 else 13)


def circled(c: tuple[int, int], side: int) -> bool:
    rows = (1, 2, 3) if side == 0 else (11, 12, 13)
    return 3 <= c[0] <= 7 and c[1] in rows and not red(c, side)


def yellow(c: tuple[int, int], side: int) -> bool:
    rows = (1, 2) if side == 0 else (12, 13)
    return 1 <= c[0] <= 9 and c[1] in rows and not red(c, side)


def half(c: tuple[int, int]) -> set[int]:
    """The halves a square belongs to: the halfway row counts for both (§6.6)."""
    if c[1] == 7:
        return {0, 1}
    return {0} if c[1] < 7 else {1}


def own_half(c: tuple[int, int], side: int) -> bool:
    return half(c) == {side}


def light(c: tuple[int, int]) -> bool:
    return (c[0] + c[1]) % 2 == 0


def outfield_may_stand(c: tuple[int, int]) -> bool:
    return grid(c) and not red(c, 0) and not red(c, 1)


class Pos:
    """A position as plain data: where each piece is, the ball, whose move and the flags."""

    def __init__(self, st: ChessState) -> None:
        self.st = st
        self.at = {p: (s % 10, s // 10) for p, s in enumerate(st.pos) if s >= 0}
        self.ball = (st.ball % 10, st.ball // 10)

    def who(self, c: tuple[int, int]) -> int | None:
        for p, a in self.at.items():
            if a == c:
                return p
        return None

    def holder(self) -> int | None:
        return self.who(self.ball)


def between(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    """The squares strictly between two squares on a line."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = max(abs(dx), abs(dy))
    sx, sy = (dx > 0) - (dx < 0), (dy > 0) - (dy < 0)
    return [(a[0] + sx * i, a[1] + sy * i) for i in range(1, n)]


def may_move(pos: Pos, p: int, t: tuple[int, int]) -> bool:
    """May piece ``p`` make a piece move to ``t`` (§5, §6.5)?"""
    side = p // 10
    a = pos.at[p]
    occupant = pos.who(t)
    h = pos.holder()
    if occupant is not None:
        tackle = (
            occupant == h
            and occupant // 10 != side
            and kind(occupant) != "keeper"
            and kind(p) != "keeper"
            and not pos.st.fresh
        )
        if not tackle:
            return False
    dx, dy = t[0] - a[0], t[1] - a[1]
    k = kind(p)
    if k == "keeper":
        in_zone = goal(t, side) or red(t, side) or circled(t, side)
        return max(abs(dx), abs(dy)) == 1 and in_zone
    if not outfield_may_stand(t):
        return False
    loose = pos.holder() is None
    if k == "captain":
        if not (dx == 0 or dy == 0 or abs(dx) == abs(dy)) or (dx, dy) == (0, 0):
            return False
        if (a[1] < 7 and t[1] > 7) or (a[1] > 7 and t[1] < 7):
            return False
        for c in between(a, t):
            if pos.who(c) is not None or not outfield_may_stand(c) or (loose and c == pos.ball):
                return False
        return True
    if abs(dx) == abs(dy) and abs(dx) in (1, 2):
        for c in between(a, t):
            if pos.who(c) is not None or not outfield_may_stand(c) or (loose and c == pos.ball):
                return False
        return True
    if a[0] in (1, 9) and dx == 0 and abs(dy) == 2:
        return pos.who((a[0], a[1] + dy // 2)) is None
    return False


def ball_vector(a: tuple[int, int], t: tuple[int, int]) -> bool:
    dx, dy = abs(t[0] - a[0]), abs(t[1] - a[1])
    straight = (dx == 0 or dy == 0 or dx == dy) and 1 <= max(dx, dy) <= 4
    return straight or (dx, dy) in ((1, 2), (2, 1), (1, 3), (3, 1))


def may_land(pos: Pos, side: int, t: tuple[int, int]) -> bool:
    """§6.3 and X-8, X-9, X-26 for any ball move of ``side``."""
    if goal(t, side):
        return False
    o = pos.who(t)
    return o is None or o // 10 == side


def ball_ends(pos: Pos, side: int, frm: tuple[int, int], keeper: bool) -> set[tuple[int, int]]:
    """Where the ball may end with one move of the holder on ``frm``."""
    out = set()
    for t in SQUARES:
        if keeper:
            short = ball_vector(frm, t) and own_half(t, side) and may_land(pos, side, t)
            o = pos.who(t)
            long = (
                own_half(t, 1 - side)
                and grid(t)
                and not circled(t, 1 - side)
                and not yellow(t, 1 - side)
                and not red(t, 1 - side)
                and (o is None or o // 10 == side)
            )
            if short or long:
                out.add(t)
        elif ball_vector(frm, t) and may_land(pos, side, t):
            out.add(t)
    if keeper:
        return out
    for y in list(out):  # triangulation X -> Y -> Z (§6.6, X-13)
        my = pos.who(y)
        if my is None or kind(my) == "keeper":
            continue
        for z in SQUARES:
            mz = pos.who(z)
            if (
                mz is not None
                and mz // 10 == side
                and kind(mz) != "keeper"
                and z != frm
                and ball_vector(y, z)
                and half(frm) & half(y) & half(z)
            ):
                out.add(z)
    return out


def c2s(c: tuple[int, int]) -> int:
    return 10 * c[1] + c[0]


def kickoff(st: ChessState, side: int) -> None:
    for p in range(20):
        if st.pos[p] >= 0:
            st.pos[p] = c2s(START[p])
    if st.pos[10 * side + 1] >= 0:
        st.pos[10 * side + 1] = c2s((5, 7))
    st.ball = c2s((5, 7))
    st.fresh = True
    st.turn = side
    st.red = -1
    st.relocate = False


def finish(st: ChessState, side: int, gained: bool) -> ChessState:
    """Holding (X-11, X-37) and the turn after a move of ``side`` that did not score."""
    pos = Pos(st)
    h = pos.holder()
    if h is not None and h // 10 == side and not gained:
        st.fresh = False
    st.turn = 1 - side
    return st


def after_ball(st: ChessState, side: int, t: tuple[int, int]) -> tuple[ChessState, bool, bool]:
    """The ball lands on ``t``: (the position, possession gained, goal scored)."""
    pos = Pos(st)
    if goal(t, 1 - side):
        st.score[side] += 1
        kickoff(st, 1 - side)
        return st, False, True
    st.ball = c2s(t)
    if pos.who(t) is not None:
        st.fresh = True
        return st, True, False
    if red(t, 1 - side):
        st.red = c2s(t)
    return st, False, False


def offenders(pos: Pos, side: int) -> list[int]:
    for p, c in pos.at.items():
        if p // 10 == 1 - side and kind(p) != "keeper" and yellow(c, 1 - side):
            return []
    return [p for p, c in pos.at.items() if p // 10 == side and kind(p) != "keeper" and yellow(c, 1 - side)]


def reentry_square(pos: Pos, p: int) -> tuple[int, int] | None:
    side = p // 10
    start = START[p]
    if pos.who(start) is None:
        return start
    options = [
        c
        for c in SQUARES
        if own_half(c, side)
        and outfield_may_stand(c)
        and pos.who(c) is None
        and (kind(p) == "captain" or light(c) == light(start))
    ]
    if not options:
        return None

    def key(c: tuple[int, int]) -> tuple[int, int, int]:
        d = (c[0] - start[0]) ** 2 + (c[1] - start[1]) ** 2
        return (d, c[1], c[0]) if side == 0 else (d, 14 - c[1], 10 - c[0])

    return min(options, key=key)


def plain(st: ChessState) -> list[ChessState]:
    """End positions of every move with the offside obligation applied (or the pass)."""
    side = st.turn
    pos = Pos(st)
    offs = offenders(pos, side)
    out: list[ChessState] = []
    h = pos.holder()
    if h is not None and h // 10 == side and (not offs or h in offs):
        for t in ball_ends(pos, side, pos.ball, kind(h) == "keeper"):
            new, gained, scored = after_ball(clone(st), side, t)
            out.append(new if scored else finish(new, side, gained))
    for p in pos.at:
        if p // 10 != side or p == h or (offs and p not in offs):
            continue
        for t in SQUARES:
            if not may_move(pos, p, t):
                continue
            if offs and yellow(t, 1 - side):
                continue
            new = clone(st)
            o = pos.who(t)
            new.pos[p] = c2s(t)
            gained = False
            if o is not None:
                new.pos[o] = OFF if st.cards[o // 10] >= 2 else BOX
            if t == pos.ball:
                new.fresh = True
                gained = True
            out.append(finish(new, side, gained))
    if not offs and st.cards[side] < 2:
        for p in range(10 * side, 10 * side + 10):
            if st.pos[p] == BOX:
                t = reentry_square(pos, p)
                if t is None:
                    continue
                new = clone(st)
                new.pos[p] = c2s(t)
                new.cards[side] += 1
                gained = t == pos.ball
                if gained:
                    new.fresh = True
                out.append(finish(new, side, gained))
    if offs:
        new = clone(st)
        new.relocate = True
        out.append(finish(new, side, False))
    elif not out:
        out.append(finish(clone(st), side, False))
    return out


def successors(st: ChessState) -> list[ChessState]:
    """Every end position of one move of the side to move (``plies`` is not advanced)."""
    if st.phase != PH_PLAY:
        return []
    side = st.turn
    pos = Pos(st)
    base = clone(st)
    base.red = -1
    base.relocate = False
    if st.red >= 0:
        out = []
        r = (st.red % 10, st.red // 10)
        k = pos.at[10 * side]
        if max(abs(k[0] - r[0]), abs(k[1] - r[1])) <= 1:
            stepped = clone(base)
            stepped.pos[10 * side] = st.red
            for t in ball_ends(Pos(stepped), side, r, True):
                new, gained, scored = after_ball(clone(stepped), side, t)
                out.append(new if scored else finish(new, side, gained))
        out.append(concede(base, side))
        return out
    if st.relocate:
        out = []
        for p in offenders(pos, 1 - side):
            colour = light(pos.at[p])
            for c in SQUARES:
                if (
                    own_half(c, 1 - side)
                    and outfield_may_stand(c)
                    and pos.who(c) is None
                    and c != pos.ball
                    and (kind(p) == "captain" or light(c) == colour)
                ):
                    moved = clone(base)
                    moved.pos[p] = c2s(c)
                    out += plain(moved)
        if out:
            return out
    return plain(base)


def concede(st: ChessState, side: int) -> ChessState:
    new = clone(st)
    kicker = 1 - side
    team = range(10 * kicker, 10 * kicker + 10)
    if not any(new.pos[p] >= 0 and kind(p) in ("captain", "light") for p in team):
        new.pos[10 * side] = c2s((5, 0) if side == 0 else (5, 14))
        new.ball = new.pos[10 * side]
        new.fresh = True
        return new
    new.phase = PH_PENALTY
    new.pen_side = kicker
    new.pen_choice = [None, None]
    new.turn = kicker
    return new


def key(st: ChessState) -> tuple[Any, ...]:
    """An end position, without the move counters."""
    return (
        tuple(st.pos),
        st.ball,
        st.fresh,
        tuple(st.score),
        tuple(st.cards),
        st.red,
        st.relocate,
        st.phase,
        st.pen_side,
        st.turn,
    )
