"""The chess-football board (seed 003, digest §2 / ruling X-1) as precomputed tables.

Why tables: legal-move generation runs thousands of times per second for bots and the benchmark, so every
ray, diagonal step, side-strip skip and ball vector is computed once here. A square is one int,
``sq = 10 * y + x`` with columns x = 1..9 and rows y = 0..14: rows 1..13 are the grid, rows 0 and 14 hold
only the three goal squares (x = 4..6) outside it. Side 0 (home) is South and defends row 0; side 1
(away) is North and defends row 14; ends never swap (they have no rule effect, §3).
"""

from __future__ import annotations

COLS = range(1, 10)
ROWS = range(1, 14)
HALFWAY = 7
NSQ = 150
FILES = "abcdefghi"

# piece kinds
KEEPER, CAPTAIN, DARK, LIGHT = range(4)
KIND_LETTERS = "KCDL"
KIND_NAMES = ("keeper", "captain", "dark", "light")


def sq(x: int, y: int) -> int:
    """The square index of column ``x``, row ``y``."""
    return 10 * y + x


def xy(s: int) -> tuple[int, int]:
    """Column and row of a square."""
    return s % 10, s // 10


def _name(s: int) -> str:
    x, y = xy(s)
    return f"{FILES[x - 1]}{y}"


_NAMES = [_name(s) for s in range(NSQ)]  # a table: every legal move's text is built from these


def name(s: int) -> str:
    """Our notation of a square: file letter a..i (x = 1..9) and row number 0..14, e.g. ``e7``."""
    return _NAMES[s] if 0 <= s < NSQ else _name(s)


def parse_square(text: str) -> int | None:
    """The square a name denotes, or None when it names no board square."""
    if len(text) < 2 or text[0] not in FILES or not text[1:].isdigit():
        return None
    s = sq(FILES.index(text[0]) + 1, int(text[1:]))
    return s if 0 <= s < NSQ and ON_BOARD[s] else None


def mirror(s: int) -> int:
    """The other team's matching square, (x, y) -> (10 - x, 14 - y) (keeps the colour)."""
    x, y = xy(s)
    return sq(10 - x, 14 - y)


GRID = frozenset(sq(x, y) for x in COLS for y in ROWS)
GOALS = (frozenset(sq(x, 0) for x in (4, 5, 6)), frozenset(sq(x, 14) for x in (4, 5, 6)))  # defended by side
ON_BOARD = [s in GRID or s in GOALS[0] or s in GOALS[1] for s in range(NSQ)]
LIGHT_SQ = [(s % 10 + s // 10) % 2 == 0 for s in range(NSQ)]
RED = (frozenset(sq(x, 1) for x in (4, 5, 6)), frozenset(sq(x, 13) for x in (4, 5, 6)))
CIRCLED = (
    frozenset(sq(x, y) for x in range(3, 8) for y in (1, 2, 3)) - RED[0],
    frozenset(sq(x, y) for x in range(3, 8) for y in (11, 12, 13)) - RED[1],
)
YELLOW = (
    frozenset(sq(x, y) for x in COLS for y in (1, 2)) - RED[0],
    frozenset(sq(x, y) for x in COLS for y in (12, 13)) - RED[1],
)
ZONE = (GOALS[0] | RED[0] | CIRCLED[0], GOALS[1] | RED[1] | CIRCLED[1])
ANY_RED = RED[0] | RED[1]
ANY_GOAL = GOALS[0] | GOALS[1]
# squares an outfield piece may stand on or pass over: the grid without the red squares
OUTFIELD_OK = [s in GRID and s not in ANY_RED for s in range(NSQ)]
PENALTY_SPOT = (sq(5, 3), sq(5, 11))
CENTRE = sq(5, 7)
GOAL_MIDDLE = (sq(5, 0), sq(5, 14))


def half_of(s: int) -> int:
    """0 for the South half (rows 0..6), 1 for the North half (rows 8..14), -1 for the halfway row."""
    y = s // 10
    return -1 if y == HALFWAY else (0 if y < HALFWAY else 1)


HALF = [half_of(s) for s in range(NSQ)]


def in_half(s: int, side: int) -> bool:
    """Whether a square lies in ``side``'s own half (the halfway row excluded)."""
    return HALF[s] == side


# ---------------------------------------------------------------------- pieces and their start squares
# Ten pieces per side with identities: index 0 keeper, 1 captain, 2..5 dark (B), 6..9 light (A);
# away piece 10 + i starts on the mirror of home piece i (§2).
_HOME_START = (
    sq(5, 0),
    sq(5, 5),
    sq(2, 3),
    sq(4, 3),
    sq(6, 3),
    sq(8, 3),
    sq(1, 5),
    sq(3, 5),
    sq(7, 5),
    sq(9, 5),
)
START = _HOME_START + tuple(mirror(s) for s in _HOME_START)
KIND = tuple(KEEPER if i == 0 else CAPTAIN if i == 1 else DARK if i < 6 else LIGHT for i in range(10)) * 2
# a piece's name: its kind letter and number within the kind (L1..L4, D1..D4), e.g. for re-entries
PIECE_LABEL = tuple(
    KIND_LETTERS[KIND[p]] + ("" if KIND[p] in (KEEPER, CAPTAIN) else str((p % 10 - 2) % 4 + 1))
    for p in range(20)
)


# ---------------------------------------------------------------------- movement tables
DIAGONALS = ((1, 1), (1, -1), (-1, 1), (-1, -1))
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), *DIAGONALS)


def _diag_steps(s: int) -> tuple[tuple[int, int], ...]:
    """(middle, landing) pairs of a light/dark piece (middle -1 for a one-square step), §5.1, X-4, X-7."""
    x, y = xy(s)
    out: list[tuple[int, int]] = []
    for dx, dy in DIAGONALS:
        one = (x + dx, y + dy)
        if 1 <= one[0] <= 9 and 1 <= one[1] <= 13 and OUTFIELD_OK[sq(*one)]:
            out.append((-1, sq(*one)))
            two = (x + 2 * dx, y + 2 * dy)
            if 1 <= two[0] <= 9 and 1 <= two[1] <= 13 and OUTFIELD_OK[sq(*two)]:
                out.append((sq(*one), sq(*two)))
    return tuple(out)


def _strip_skips(s: int) -> tuple[tuple[int, int], ...]:
    """(skipped, landing) pairs of the side-strip skip: only on columns 1 and 9, along them (X-3)."""
    x, y = xy(s)
    if x not in (1, 9):
        return ()
    return tuple((sq(x, y + d), sq(x, y + 2 * d)) for d in (1, -1) if 1 <= y + 2 * d <= 13)


def _rays(s: int) -> tuple[tuple[int, ...], ...]:
    """The captain's rays, each cut before the first square he may not enter (off the grid, red, X-7)."""
    x, y = xy(s)
    out = []
    for dx, dy in DIRECTIONS:
        ray = []
        cx, cy = x + dx, y + dy
        while 1 <= cx <= 9 and 1 <= cy <= 13 and OUTFIELD_OK[sq(cx, cy)]:
            ray.append(sq(cx, cy))
            cx, cy = cx + dx, cy + dy
        if ray:
            out.append(tuple(ray))
    return tuple(out)


def _king(s: int) -> tuple[int, ...]:
    x, y = xy(s)
    return tuple(
        sq(x + dx, y + dy)
        for dx, dy in DIRECTIONS
        if 1 <= x + dx <= 9 and 0 <= y + dy <= 14 and ON_BOARD[sq(x + dx, y + dy)]
    )


BALL_VECTORS = tuple(
    [(dx * n, dy * n) for dx, dy in DIRECTIONS for n in (1, 2, 3, 4)]
    + [(a * sx, b * sy) for a, b in ((1, 2), (2, 1), (1, 3), (3, 1)) for sx in (1, -1) for sy in (1, -1)]
)


def _ball_targets(s: int) -> tuple[int, ...]:
    """Every on-board landing square of a ball move from ``s`` (§6.2; the ball flies over pieces)."""
    x, y = xy(s)
    return tuple(
        sq(x + dx, y + dy)
        for dx, dy in BALL_VECTORS
        if 1 <= x + dx <= 9 and 0 <= y + dy <= 14 and ON_BOARD[sq(x + dx, y + dy)]
    )


_EMPTY: tuple = ()
DIAG_STEPS = [_diag_steps(s) if s in GRID else _EMPTY for s in range(NSQ)]
STRIP_SKIPS = [_strip_skips(s) if s in GRID else _EMPTY for s in range(NSQ)]
RAYS = [_rays(s) if s in GRID else _EMPTY for s in range(NSQ)]
KING = [_king(s) if ON_BOARD[s] else _EMPTY for s in range(NSQ)]
BALL_TARGETS = [_ball_targets(s) if ON_BOARD[s] else _EMPTY for s in range(NSQ)]
# a keeper's long throw (§7, X-16): green, non-circled, non-yellow, non-red squares of the opponent's half
LONG_THROW = tuple(
    tuple(
        sorted(
            s
            for s in GRID
            if HALF[s] == 1 - side
            and s not in CIRCLED[1 - side]
            and s not in YELLOW[1 - side]
            and s not in RED[1 - side]
        )
    )
    for side in (0, 1)
)
# squares of a side's own half a piece of each colour may be relocated or re-enter to
OWN_HALF_SQUARES = tuple(
    tuple(sorted(s for s in GRID if HALF[s] == side and OUTFIELD_OK[s])) for side in (0, 1)
)
