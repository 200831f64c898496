"""The 5 × 11 pitch of dice football (digest §2, rulings B-2, B-3, B-4): zones, special squares, paths.

One source of truth for the rules, the bots and (later) the board drawing: ``board_geometry()`` exports
everything as JSON-safe data. All zones are stated in **attacker-relative** coordinates ``(x', y')``:
``x' = 1..5`` from the attacker's left to right, ``y' = 1..11`` from his own goal line to the goal line he
attacks; the attacked goal lies beyond ``y' = 11`` in column 3, his own beyond ``y' = 0``. The side that
attacks towards absolute row 11 has ``(x', y') = (x, y)``; the other side ``(6 − x, 12 − y)``.

Ball paths are precomputed for every square, direction and length (``walk``), so the engine never loops
square by square at run time.
"""

from __future__ import annotations

from typing import Any

COLS = 5
ROWS = 11
GOAL_COL = 3
CENTRE = (3, 6)
GM = (3, 11)  # goal-mouth square: the ball waits here for the keeper's roll (B-4)
PS = (3, 10)  # penalty spot: parried balls land here, penalties are taken from here (B-4)

SHOOTING_ROWS = (9, 10, 11)
PENALTY_AREA = frozenset((x, y) for x in (2, 3, 4) for y in (10, 11))  # 6 squares (B-2)
OUTSIDE_SHOTS = frozenset([(x, 9) for x in range(1, 6)] + [(1, 10), (5, 10)])  # 7 squares
CORNERS = ((1, 11), (5, 11))  # no direct shot from here; the attacker's corner-kick squares
RED = frozenset([(3, 10), (3, 11)])  # "directly in front of goal": a DEF miss here can be an own goal
WING = frozenset((x, y) for x in (1, 5) for y in SHOOTING_ROWS)  # the 90° rotation option (§6.5)
GOAL_KICK_SQUARES = ((2, 1), (4, 1))  # relative to the side taking it (B-32)
KEEPER_SQUARES = ((2, 2), (3, 2), (4, 2))  # keeper restart, relative to the keeper's side (B-32)
LONG_SHOT_MIN_ROW = 6  # STAR LONG_SHOT from the halfway row on (B-20)
ASSIST_MIN_ROW = 7  # STAR ASSIST from row 7 on, outside the area (B-21)
LAST_FOUR_MIN_ROW = 8

# Direct free kicks (§10.7, B-14, B-15, B-39): zone N (row 9 and the wing squares of row 10) is treated
# like a shot from inside the area, zone P (row 8) like a shot from outside it.
FK_ORDINARY, FK_DIRECT_N, FK_DIRECT_P, FK_PENALTY = range(4)

# Exits of a ball path (§6.2, B-5 … B-7).
EX_NONE, EX_SIDE, EX_GOAL_LINE, EX_OWN_GOAL, EX_OWN_LINE = range(5)
EXIT_NAMES = ("", "side_line", "goal_line", "own_goal", "own_goal_line")

SQUARES = tuple((x, y) for y in range(1, ROWS + 1) for x in range(1, COLS + 1))


def on_board(x: int, y: int) -> bool:
    """Whether ``(x, y)`` is one of the 55 squares."""
    return 1 <= x <= COLS and 1 <= y <= ROWS


def in_area(x: int, y: int) -> bool:
    """Inside the penalty area (relative coordinates)."""
    return 2 <= x <= 4 and y >= 10


def is_corner(x: int, y: int) -> bool:
    return y == ROWS and (x == 1 or x == COLS)


def can_shoot_from(x: int, y: int) -> bool:
    """A shooting square: the last three rows except the two corner squares (§8, S-13)."""
    return y >= 9 and not (y == ROWS and (x == 1 or x == COLS))


def is_wing(x: int, y: int) -> bool:
    return y >= 9 and (x == 1 or x == COLS)


def intercept(x: int, y: int) -> tuple[int, int]:
    """T(q): where a defender meets a shot on target from outside the area (§8.2, B-4)."""
    if x == 3:
        return (3, 10)
    return (2, 10) if x < 3 else (4, 10)


def assist_landing(x: int) -> tuple[int, int]:
    """Where a STAR ASSIST drops the ball in the area (B-21)."""
    return (min(max(x, 2), 4), 10)


def free_kick_kind(x: int, y: int) -> int:
    """What a foul on ``(x, y)`` gives the fouled attacker (§7 FOUL, §10.7, B-14, B-39)."""
    if in_area(x, y):
        return FK_PENALTY
    if y == 9 or (y == 10 and (x == 1 or x == COLS)):
        return FK_DIRECT_N
    if y == 8:
        return FK_DIRECT_P
    return FK_ORDINARY  # corner squares and everything before row 8


def flip(x: int, y: int) -> tuple[int, int]:
    """The same square in the other side's relative coordinates (the pitch turned 180°)."""
    return (COLS + 1 - x, ROWS + 1 - y)


def square_name(x: int, y: int) -> str:
    """Absolute square as a reader sees it on the board: columns a–e, rows 1–11 (``c6`` = centre spot)."""
    if y <= 0 or y > ROWS:
        return "goal"
    if not 1 <= x <= COLS:
        return "out"
    return "abcde"[x - 1] + str(y)


# ------------------------------------------------------------------------- precomputed ball paths
def _walk(x: int, y: int, dx: int, dy: int, n: int) -> tuple[tuple[tuple[int, int], ...], int, int, int]:
    """(squares entered, exit code, last square inside as x, y) for ``n`` steps of ``(dx, dy)``."""
    path: list[tuple[int, int]] = []
    for _ in range(n):
        nx, ny = x + dx, y + dy
        out_x = not 1 <= nx <= COLS
        out_y = not 1 <= ny <= ROWS
        if out_y:  # a goal line (also a diagonal exit through a grid corner, §6.2 PROPOSED)
            path.append((nx, ny))
            if ny > ROWS:
                return tuple(path), EX_GOAL_LINE, x, y
            return tuple(path), (EX_OWN_GOAL if nx == GOAL_COL else EX_OWN_LINE), x, y
        if out_x:
            path.append((nx, ny))
            return tuple(path), EX_SIDE, x, y
        path.append((nx, ny))
        x, y = nx, ny
    return tuple(path), EX_NONE, x, y


MAX_STEPS = 8  # the longest arrow (4) doubled by a long kick
DIRECTIONS = ((0, 1), (0, -1), (-1, 0), (1, 0), (-1, 1), (1, 1), (-1, -1), (1, -1))
PATHS: dict[tuple[int, int, int, int, int], tuple[tuple[tuple[int, int], ...], int, int, int]] = {
    (x, y, dx, dy, n): _walk(x, y, dx, dy, n)
    for (x, y) in SQUARES
    for (dx, dy) in DIRECTIONS
    for n in range(1, MAX_STEPS + 1)
}


def walk(x: int, y: int, dx: int, dy: int, n: int) -> tuple[tuple[tuple[int, int], ...], int, int, int]:
    """The ball's path from ``(x, y)``: squares entered (the last one off the board when it exits), the
    exit code (``EX_*``) and the last square inside the board."""
    return PATHS[(x, y, dx, dy, n)]


def rotate(x: int, dx: int, dy: int) -> tuple[int, int]:
    """The §6.5 / §10.5 90° rotation on a wing: "forward" then points along the row towards column 3."""
    if x == 1:
        return dy, -dx
    return -dy, dx


def board_geometry() -> dict[str, Any]:
    """Everything about the pitch as JSON-safe data, for the board drawing and for clients.

    Zones are attacker-relative ``[x, y]`` pairs; ``to_absolute`` says how to place them for either side.
    """
    from games.dice_football.dice import dice_table

    def pairs(squares: Any) -> list[list[int]]:
        return [[x, y] for (x, y) in sorted(squares, key=lambda s: (s[1], s[0]))]

    return {
        "columns": COLS,
        "rows": ROWS,
        "column_names": list("abcde"),
        "goal_column": GOAL_COL,
        "to_absolute": {
            "attacks_row_11": "(x, y) = (x', y')",
            "attacks_row_1": "(x, y) = (6 - x', 12 - y')",
        },
        "centre": list(CENTRE),
        "goal_mouth": list(GM),
        "penalty_spot": list(PS),
        "zones": {
            "shooting_rows": list(SHOOTING_ROWS),
            "penalty_area": pairs(PENALTY_AREA),
            "outside_shots": pairs(OUTSIDE_SHOTS),
            "corners": pairs(CORNERS),
            "red": pairs(RED),
            "wing": pairs(WING),
            "direct_free_kick_n": pairs(
                [s for s in SQUARES if free_kick_kind(*s) == FK_DIRECT_N and not in_area(*s)]
            ),
            "direct_free_kick_p": pairs([s for s in SQUARES if free_kick_kind(*s) == FK_DIRECT_P]),
            "goal_kick": pairs(GOAL_KICK_SQUARES),
            "keeper_restart": pairs(KEEPER_SQUARES),
        },
        "intercept": {f"{x},9": list(intercept(x, 9)) for x in range(1, COLS + 1)}
        | {"1,10": list(intercept(1, 10)), "5,10": list(intercept(5, 10))},
        "assist_landing": {str(x): list(assist_landing(x)) for x in range(1, COLS + 1)},
        "long_shot_min_row": LONG_SHOT_MIN_ROW,
        "assist_min_row": ASSIST_MIN_ROW,
        "dice": dice_table(),
    }
