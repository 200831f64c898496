"""The engine's fast searches against slow, literal references on seeded random positions: walk
destinations (A-6, A-42), the anti-spoiling test (A-66, A-67) and the legs of a kick (§7, A-43, A-55)."""

from __future__ import annotations

import random

import pytest
import slow_reference as slow
import sweep

from games.grid_football.geometry import (
    BACKLINE,
    GOAL_OF,
    GOALS,
    KEEPER,
    KIND,
    N4,
    NSQ,
    ON_BOARD,
    PITCH,
    SIDE,
    STEP,
    pawn,
)
from games.grid_football.moves import (
    BALL_CLASS,
    BIT,
    MAX_TOUCHES,
    Kick,
    Spoil,
    Walker,
    bit_squares,
    occupancy,
    offside_line,
    walk_free,
    walk_free_bits,
)

POSITIONS = range(sweep.size(ci=40, soak=600))
# positions where a walk cuts the other side off the ball (found by removing that test from the engine)
CUTS = (58, 96, 162)


def random_position(seed: int, crowd: int = 22) -> tuple[list[int], int]:
    """``crowd`` pawns (both keepers on goal squares) on distinct squares, the ball on a free pitch square."""
    r = random.Random(seed)
    pos = [-1] * 40
    free = [s for s in range(NSQ) if ON_BOARD[s] and GOAL_OF[s] < 0]
    r.shuffle(free)
    pos[pawn(0, 1)] = r.choice(GOALS[0])
    pos[pawn(1, 1)] = r.choice(GOALS[1])
    pawns = [pawn(side, n) for side in (0, 1) for n in range(2, 12)][: crowd - 2]
    for p in pawns:
        pos[p] = free.pop()
    ball = next(s for s in free if PITCH[s])
    return pos, ball


@pytest.mark.parametrize("seed", POSITIONS)
def test_walk_destinations_are_exactly_the_self_avoiding_walks(seed: int) -> None:
    pos, ball = random_position(seed)
    occ = occupancy(pos)
    r = random.Random(seed)
    for p in r.sample([q for q in range(40) if pos[q] >= 0], 6):
        side = SIDE[p]
        keeper = KIND[p] == KEEPER
        free = walk_free(occ, ball, side, keeper)
        walker = Walker(walk_free_bits(sum(BIT[s] for s in range(NSQ) if occ[s] >= 0), ball, side, keeper))
        for roll in range(1, 7):
            mask, ks = walker.ends(pos[p], roll, ball)
            want_ends, want_ks = slow.walk_ends(free, pos[p], roll, ball)
            assert set(bit_squares(mask)) == want_ends, (seed, p, roll)
            assert set(ks) == {k for k in want_ks if k <= roll}, (seed, p, roll)


@pytest.mark.parametrize("seed", sorted({*POSITIONS, *CUTS}))
def test_the_anti_spoiling_test_matches_the_rule_text(seed: int) -> None:
    pos, ball = random_position(seed)
    r = random.Random(seed)
    if seed % 3 == 1:  # pawns packed round the ball: narrow ways in, so a walk can cut a side off
        near = [
            s
            for s in range(NSQ)
            if PITCH[s] and s != ball and abs(s % 12 - ball % 12) + abs(s // 12 - ball // 12) <= 3
        ]
        r.shuffle(near)
        if seed % 2:  # and the away side down to one outfield pawn among them
            for p in range(21, 40):
                pos[p] = -1
            pos[pawn(1, 2)] = near.pop()
        movers = [p for p in range(40) if pos[p] >= 0 and KIND[p] != KEEPER]
        r.shuffle(movers)
        for p, s in zip(movers[:16], near, strict=False):
            q = next((o for o in range(40) if pos[o] == s), -1)
            if q >= 0:
                pos[q] = pos[p]
            pos[p] = s
    if seed % 3 == 0:  # a compact block of home pawns (long chains)
        block = [s for s in range(NSQ) if PITCH[s] and 3 <= s % 12 <= 6 and 5 <= s // 12 <= 7]
        r.shuffle(block)
        for n, s in zip(range(2, 12), block, strict=False):
            q = next((o for o in range(40) if pos[o] == s), -1)
            if q >= 0:
                pos[q] = pos[pawn(0, n)]
            pos[pawn(0, n)] = s
        if pos[pawn(0, 1)] == ball or ball in pos:
            ball = next(s for s in range(NSQ) if PITCH[s] and s not in pos)
    occ = occupancy(pos)
    teams = ([p for p in range(20) if pos[p] >= 0], [p for p in range(20, 40) if pos[p] >= 0])
    spoil = Spoil(occ, pos, ball, teams)
    occb = sum(BIT[s] for s in range(NSQ) if occ[s] >= 0)
    movers = teams[0] + teams[1]
    for m in r.sample(movers, min(10, len(movers))) if seed not in CUTS else movers:
        walker = Walker(walk_free_bits(occb, ball, SIDE[m], KIND[m] == KEEPER))
        ends = 0
        for roll in range(1, 7):
            ends |= walker.ends(pos[m], roll, ball)[0]
        got = set(bit_squares(spoil.clean_mask(m, ends)))
        want = {w for w in bit_squares(ends) if slow.clean_walk(occ, pos, ball, m, w)}
        assert got == want, (seed, m)


def slow_first_legs(
    occ: list[int],
    pos: list[int],
    frm: int,
    budget: int,
    side: int,
    line: int,
    must_goal: bool,
    touches: int = 1,
    prev: int = -1,
) -> set[tuple[int, ...]]:
    """The first legs of every complete play, by trying every direction and curve and, for a relay, every
    continuation (§7, A-10, A-43, A-50, A-55), with the offside of each touch (§11.2)."""
    mates = [p for p in range(40) if pos[p] >= 0 and SIDE[p] == side]

    def offside(at: int) -> set[int]:
        adv = (lambda s: s // 12) if side == 0 else (lambda s: 16 - s // 12)
        return {p for p in mates if adv(pos[p]) > max(line, adv(at))}

    def paths(start: int):
        for d in range(8):
            for turn_at in range(0, budget + 8):
                for turn in (0, 1, -1) if turn_at else (0,):
                    path, cur, dd = [], start, d
                    for i in range(1, 40):
                        nxt = STEP[dd][cur]
                        if nxt < 0:
                            break
                        path.append(nxt)
                        yield tuple(path), cur
                        cur = nxt
                        if i == turn_at and turn:
                            dd = (dd + turn) % 8
                    # (each prefix is yielded; the caller keeps the legal ones)

    def legs(start: int, b: int, touches: int, prev: int) -> list[tuple[tuple[int, ...], int, int]]:
        out = {}
        forbid = offside(start)
        for path, _before_last in paths(start):
            rem = b
            ok = True
            end = None
            for i, s in enumerate(path):
                last = i == len(path) - 1
                if BALL_CLASS[s] == 0:
                    ok = False
                    break
                o = occ[s]
                if o >= 0:
                    if not last or SIDE[o] != side or o == prev or o in forbid or touches >= MAX_TOUCHES:
                        ok = False
                        break
                    end = ("relay", o)
                elif GOAL_OF[s] >= 0:
                    prior = path[i - 1] if i else start
                    if not last or BACKLINE[prior]:
                        ok = False
                        break
                    end = ("shot", None)
                else:
                    rem -= 1
                    if rem < 0 or (rem == 0 and not last):
                        ok = False
                        break
                    if last:
                        if rem != 0:
                            ok = False
                            break
                        end = ("rest", None)
            if ok and end is not None and not (end[0] == "rest" and must_goal):
                out[path] = (end, rem)
        result = []
        for path, (end, rem) in out.items():
            if end[0] == "relay":
                kicker = occ[start]
                if not legs(path[-1], rem, touches + 1, kicker):
                    continue
            result.append((path, rem, touches))
        return result

    return {path for path, _rem, _t in legs(frm, budget, touches, prev)}


@pytest.mark.parametrize("seed", range(sweep.size(ci=40, soak=400)))
def test_the_legs_of_a_kick_are_every_first_leg_of_a_complete_play(seed: int) -> None:
    pos, ball = random_position(seed)
    r = random.Random(seed)
    side = r.randrange(2)
    kicker = r.choice([p for p in range(20 * side + 1, 20 * side + 12) if pos[p] >= 0])
    pos[kicker] = ball  # he stands on the ball
    occ = occupancy(pos)
    opponents = [p for p in range(40) if pos[p] >= 0 and SIDE[p] != side]
    line = offside_line(pos, side, opponents)
    budget = 1 + r.randrange(5)
    must_goal = seed % 7 == 0
    mates = [p for p in range(40) if pos[p] >= 0 and SIDE[p] == side]
    # half the time he has just received it in a relay: from a team-mate, some touches used (A-10, §7.4)
    prev = r.choice([p for p in mates if p != kicker]) if seed % 2 else -1
    touches = r.choice([2, MAX_TOUCHES - 1, MAX_TOUCHES]) if seed % 2 else 1
    kick = Kick(occ, pos, side, line, mates, must_goal)
    got = {path for path, _end in kick.legs(ball, budget, touches, kicker, prev)}
    assert got == slow_first_legs(occ, pos, ball, budget, side, line, must_goal, touches, prev), seed


def test_ball_class_and_neighbours_are_consistent() -> None:
    for s in range(NSQ):
        for n in N4[s]:
            assert ON_BOARD[n] and s in N4[n]
        assert BALL_CLASS[s] == (2 if GOAL_OF[s] >= 0 else 1 if PITCH[s] else 0)
