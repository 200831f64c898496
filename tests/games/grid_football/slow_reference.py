"""Slow, obviously right versions of the engine's searches, to check the fast ones against them.

Each follows the rule text literally: walks by enumerating every self-avoiding path, reachability and chains
by a fresh search of the whole board for every candidate square.
"""

from __future__ import annotations

from games.grid_football.geometry import AREA_OF, GOAL_AREA_OF, KEEPER, KIND, N4, N8, NSQ, PITCH, SIDE


def walk_ends(free: list[bool], start: int, p: int, ball: int) -> tuple[set[int], set[int]]:
    """Every self-avoiding walk of exactly ``p`` steps (or onto the ball in at most ``p``), one by one."""
    ends: set[int] = set()
    ball_ks: set[int] = set()

    def go(c: int, depth: int, seen: set[int]) -> None:
        for n in N4[c]:
            if n == ball:
                ball_ks.add(depth + 1)
                continue
            if not free[n] or n in seen:
                continue
            if depth + 1 == p:
                ends.add(n)
                continue
            seen.add(n)
            go(n, depth + 1, seen)
            seen.discard(n)

    go(start, 0, {start})
    return ends, ball_ks


def reaches(occ: list[int], pos: list[int], ball: int, side: int) -> bool:
    """§12.6, A-67: a pawn of ``side`` on the ball or next to a square connected to it through empty pitch
    squares."""
    comp = {ball}
    stack = [ball]
    while stack:
        c = stack.pop()
        for n in N4[c]:
            if n not in comp and PITCH[n] and occ[n] < 0:
                comp.add(n)
                stack.append(n)
    for p, s in enumerate(pos):
        if s >= 0 and SIDE[p] == side and (s == ball or any(n in comp for n in N4[s])):
            return True
    return False


def longest_chain(occ: list[int], pos: list[int], side: int) -> int:
    best = 0
    seen: set[int] = set()
    for p, s in enumerate(pos):
        if s < 0 or SIDE[p] != side or p in seen:
            continue
        size = 0
        stack = [p]
        seen.add(p)
        while stack:
            q = stack.pop()
            size += 1
            for n in N8[pos[q]]:
                o = occ[n]
                if o >= 0 and SIDE[o] == side and o not in seen:
                    seen.add(o)
                    stack.append(o)
        best = max(best, size)
    return best


def violations(occ: list[int], pos: list[int], ball: int, side: int) -> bool:
    """Whether ``side`` breaks §12.4–12.6 in this position."""
    area = sum(
        1
        for p, s in enumerate(pos)
        if s >= 0 and SIDE[p] == side and KIND[p] != KEEPER and AREA_OF[s] == side
    )
    goal = sum(
        1
        for p, s in enumerate(pos)
        if s >= 0 and SIDE[p] == side and KIND[p] != KEEPER and GOAL_AREA_OF[s] == side
    )
    return area > 4 or goal > 1 or longest_chain(occ, pos, side) > 9 or not reaches(occ, pos, ball, side)


def clean_walk(occ: list[int], pos: list[int], ball: int, m: int, w: int) -> bool:
    """A-66 literally: after the move no new violation for either side, none at all of the mover's side."""
    side = SIDE[m]
    occ2 = list(occ)
    pos2 = list(pos)
    occ2[pos[m]] = -1
    occ2[w] = m
    pos2[m] = w
    if violations(occ2, pos2, ball, side):
        return False
    other = 1 - side
    return not reaches(occ, pos, ball, other) or reaches(occ2, pos2, ball, other)


def all_squares() -> range:
    return range(NSQ)
