"""The grid-football board (seed 000, digest §2 / ruling A-1) as precomputed tables.

Why tables: a turn enumerates the walks of eleven pawns and every ball path of a kick, thousands of times
per second in the benchmark and the property tests, so every neighbour, direction step and square class is
computed once here. A square is one int, ``sq = 12 * y + x``: columns x = 1..10 are the pitch, x = 0 and
x = 11 the strips of outside squares along the touch lines (rows 1..15); rows y = 1..15 are the pitch, y = 0
the home back-line row (home defends it) and y = 16 the away one. There are no squares behind the back-line
rows, nor at the four outer corners (0, 0), (11, 0), (0, 16), (11, 16) (GF-1). Sides: 0 home, 1 away; ends
never change (§2: the text has no half time).
"""

from __future__ import annotations

W = 12  # x = 0 .. 11
H = 17  # y = 0 .. 16
NSQ = W * H
MIDDLE_ROW = 8
HOME, AWAY = 0, 1


def sq(x: int, y: int) -> int:
    """The square index of column ``x``, row ``y``."""
    return W * y + x


def xy(s: int) -> tuple[int, int]:
    """Column and row of a square."""
    return s % W, s // W


def _on_board(x: int, y: int) -> bool:
    if not (0 <= x < W and 0 <= y < H):
        return False
    if x in (0, W - 1):
        return 1 <= y <= 15  # GF-1: outside squares only along the touch lines
    return True


ON_BOARD = [_on_board(*xy(s)) for s in range(NSQ)]
PITCH = [1 <= xy(s)[0] <= 10 and 1 <= xy(s)[1] <= 15 for s in range(NSQ)]
OUTSIDE = [ON_BOARD[s] and xy(s)[0] in (0, W - 1) for s in range(NSQ)]
BACKLINE = [ON_BOARD[s] and xy(s)[1] in (0, H - 1) and 1 <= xy(s)[0] <= 10 for s in range(NSQ)]
# the goal squares each side defends; the corner squares of each end
GOALS = ((sq(5, 0), sq(6, 0)), (sq(5, 16), sq(6, 16)))
CORNERS = ((sq(1, 0), sq(10, 0)), (sq(1, 16), sq(10, 16)))
GOAL_OF = [-1] * NSQ  # the side whose goal a square is, else -1
for _side, _goals in enumerate(GOALS):
    for _g in _goals:
        GOAL_OF[_g] = _side
# penalty area (P+G) and goal area of each end, by the side that defends it (-1: neither)
AREA_OF = [-1] * NSQ
GOAL_AREA_OF = [-1] * NSQ
for _x in range(3, 9):
    for _r in (1, 2, 3):
        AREA_OF[sq(_x, _r)] = HOME
        AREA_OF[sq(_x, 16 - _r)] = AWAY
for _x in range(4, 8):
    GOAL_AREA_OF[sq(_x, 1)] = HOME
    GOAL_AREA_OF[sq(_x, 15)] = AWAY
PENALTY_SPOTS = ((sq(5, 2), sq(6, 2)), (sq(5, 14), sq(6, 14)))  # by the side that defends them
CENTRE_SQUARES = (sq(5, 8), sq(6, 8))
# the row-1 squares of each end (outside squares included, A-60) and the back-line rows
ROW1 = (tuple(sq(x, 1) for x in range(W)), tuple(sq(x, 15) for x in range(W)))


def row(s: int, side: int) -> int:
    """The row number of ``s`` counted from ``side``'s own back line (§2: row 1 is the first playing row)."""
    y = s // W
    return y if side == HOME else H - 1 - y


def advance(s: int, side: int) -> int:
    """How far ``s`` lies towards the back line ``side`` attacks (the y of home, 16 - y of away)."""
    y = s // W
    return y if side == HOME else H - 1 - y


def half_of(s: int) -> int:
    """0 for the home half (rows 1..7), 1 for the away half (9..15), -1 for the middle row and back lines."""
    y = s // W
    if 1 <= y < MIDDLE_ROW:
        return HOME
    if MIDDLE_ROW < y <= 15:
        return AWAY
    return -1


HALF = [half_of(s) for s in range(NSQ)]
ADV = (tuple(s // W for s in range(NSQ)), tuple(H - 1 - s // W for s in range(NSQ)))
X = tuple(s % W for s in range(NSQ))
Y = tuple(s // W for s in range(NSQ))

# ---------------------------------------------------------------------- directions
# N is towards the away goal (+y). Even indices are orthogonal; d +/- 1 (mod 8) is a 45-degree curve.
DIRS = ((0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1), (-1, 0), (-1, 1))
DIR_NAMES = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")


def _step(s: int, d: int) -> int:
    x, y = xy(s)
    dx, dy = DIRS[d]
    nx, ny = x + dx, y + dy
    return sq(nx, ny) if _on_board(nx, ny) else -1


# STEP[d][s]: the neighbour of s in direction d, -1 off the board
STEP = tuple(tuple(_step(s, d) if ON_BOARD[s] else -1 for s in range(NSQ)) for d in range(8))
# orthogonal neighbours on the board (walking, adjacency for interceptions and charges)
N4 = tuple(
    tuple(STEP[d][s] for d in (0, 2, 4, 6) if STEP[d][s] >= 0) if ON_BOARD[s] else () for s in range(NSQ)
)
# the eight squares around (chains of players, the free-kick ring)
N8 = tuple(tuple(STEP[d][s] for d in range(8) if STEP[d][s] >= 0) if ON_BOARD[s] else () for s in range(NSQ))
# the orthogonal direction index from a square to an orthogonal neighbour: ORTHO_DIR[(a, b)]
ORTHO_DIR = {(s, STEP[d][s]): d for s in range(NSQ) for d in (0, 2, 4, 6) if ON_BOARD[s] and STEP[d][s] >= 0}


def manhattan(a: int, b: int) -> int:
    """|dx| + |dy| between two squares."""
    return abs(a % W - b % W) + abs(a // W - b // W)


def king(a: int, b: int) -> int:
    """max(|dx|, |dy|): the ring distance of the free kick (A-58)."""
    return max(abs(a % W - b % W), abs(a // W - b // W))


# ---------------------------------------------------------------------- squad
# A squad is numbered 1..20 (§1, A-36): keepers 1 and 20, defenders 2-7, midfielders 8-13, attackers 14-19.
KEEPER, DEFENDER, MIDFIELDER, ATTACKER = range(4)
KIND_NAMES = ("keeper", "defender", "midfielder", "attacker")
KIND_LETTERS = "KDMA"
SQUAD = 20


def kind_of(number: int) -> int:
    """The kind of squad number 1..20."""
    if number in (1, 20):
        return KEEPER
    if number <= 7:
        return DEFENDER
    if number <= 13:
        return MIDFIELDER
    return ATTACKER


# pawn index p = 20 * side + number - 1
KIND = tuple(kind_of(p % SQUAD + 1) for p in range(2 * SQUAD))
NUMBER = tuple(p % SQUAD + 1 for p in range(2 * SQUAD))
SIDE = tuple(p // SQUAD for p in range(2 * SQUAD))


def pawn(side: int, number: int) -> int:
    """The pawn index of squad number ``number`` of ``side``."""
    return SQUAD * side + number - 1


# ---------------------------------------------------------------------- set-up (§3)
LINE_COLUMNS = {2: (3, 8), 3: (2, 9), 4: (1, 4, 7, 10)}  # a line of 3 adds column 5 or 6 (owner's choice)


def start_row(kind: int, side: int) -> int:
    """§3 / A-2: defenders on their own row 3, midfielders on the middle row, attackers on the opponent's
    row 4."""
    if kind == DEFENDER:
        return 3 if side == HOME else 13
    if kind == MIDFIELDER:
        return MIDDLE_ROW
    return 12 if side == HOME else 4


# ---------------------------------------------------------------------- notation
def name(s: int) -> str:
    """Our notation of a square: ``"x,y"`` in the §2 frame, e.g. ``"5,8"``; outside squares ``"0,6"``."""
    return f"{s % W},{s // W}"


def parse_square(text: object) -> int | None:
    """The square a name denotes, or None when it names no square of the board."""
    if not isinstance(text, str) or text.count(",") != 1:
        return None
    a, b = text.split(",")
    if not (a.isdigit() and b.isdigit()) or len(a) > 2 or len(b) > 2:
        return None
    x, y = int(a), int(b)
    return sq(x, y) if _on_board(x, y) else None
