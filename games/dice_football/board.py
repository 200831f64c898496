"""The board of a dice-football match for one viewer: what ``dice_football/board.html`` draws.

``board_context(view, choices)`` turns the format's view (``FORMAT.view(state, side)``) and the viewer's own
pending choices (the ``Decision.choices`` of the decision this viewer takes, None for everybody else) into
plain data: the 5 × 11 pitch as SVG coordinates with its zones, the ball, the score, period and clock, the
eight dice, the STAR die, the last roll, who decides what and, for the decider, every choice with its index
into ``choices`` and the squares it would send the ball to.

Pure Python like the rest of the game (no Django): labels are English msgids marked with ``N_`` and the
template translates them; sentences with values (names, squares, numbers) are the template's own
``blocktranslate`` texts. The pitch is drawn in absolute squares (row 11 at the top, column a on the left) for
every viewer, so a square name means the same square to everyone at the table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.api import N_
from games.dice_football.dice import (
    ARROW_DICE,
    DIE_INDEX,
    DIE_NAMES,
    FACES,
    LOSE,
    QUESTION,
    STAR_COLOUR,
    parse_arrow,
    vector,
)
from games.dice_football.geometry import (
    COLS,
    EX_GOAL_LINE,
    EX_OWN_GOAL,
    EX_OWN_LINE,
    EX_SIDE,
    GOAL_COL,
    GOAL_KICK_SQUARES,
    KEEPER_SQUARES,
    OUTSIDE_SHOTS,
    PENALTY_AREA,
    RED,
    ROWS,
    is_corner,
    is_wing,
    rotate,
    square_name,
    walk,
)
from games.labels import DECIDED_BY, PERIODS

CELL = 40  # SVG units per square
GOAL_DEPTH = 14  # how far the goal sticks out behind its goal line
MARGIN = 24  # room for the row numbers and the column letters
PITCH_W = COLS * CELL
PITCH_H = ROWS * CELL

SIDES = ("home", "away")

RESTARTS = {
    "kickoff": N_("Kick-off"),
    "throw_in": N_("Throw-in"),
    "goal_kick": N_("Goal kick"),
    "keeper_restart": N_("Keeper restart"),
    "corner": N_("Corner"),
    "free_kick": N_("Free kick"),
    "direct_free_kick": N_("Direct free kick"),
}
# The faces that are results, not arrows (the arrow faces are worded by the template from their class and
# length). The STAR faces reuse the log's words.
RESULT_LABELS = {
    "ON_TARGET": N_("on target"),
    "UNSTOPPABLE": N_("unstoppable"),
    "POST": N_("off the post"),
    "CROSSBAR": N_("off the crossbar"),
    "OUT": N_("wide"),
    "STEAL": N_("ball won"),
    "MISS": N_("missed"),
    "MISS_OR_OWN_GOAL": N_("missed, or an own goal right in front of goal"),
    "CLEAR": N_("cleared"),
    "FOUL": N_("foul"),
    "SAVED": N_("saved"),
    "PARRIED": N_("parried"),
    "CORNER": N_("corner"),
    "NOT_SAVED": N_("beaten"),
    "GOAL": N_("goal"),
    "LONG_SHOT": N_("long shot"),
    "ASSIST": N_("assist"),
    "PERFECT_SAVE": N_("perfect save"),
    "RECOVERY": N_("recovery"),
}
# Arrow faces: the class, worded "forward 2" by the template (the length is a separate value).
ARROW_LABELS = {
    "F": N_("forward"),
    "B": N_("back"),
    "L": N_("sideways"),
    "DF": N_("diagonally forward"),
    "DB": N_("diagonally back"),
    QUESTION: N_("“?”: the defender steps in"),
    LOSE: N_("“X”: the ball is lost"),
}
STAR_LABELS = {**RESULT_LABELS, "UNSTOPPABLE": N_("unstoppable shot"), "FOUL": N_("foul")}

# Where a direction choice sends the ball when it leaves the pitch (§6.2, B-5 … B-7).
EXIT_LABELS = {
    EX_SIDE: N_("out over the side line: a throw-in for the opponent"),
    EX_GOAL_LINE: N_("over the goal line: a goal kick for the opponent"),
    EX_OWN_GOAL: N_("into the own goal"),
    EX_OWN_LINE: N_("over the own goal line: a corner for the opponent"),
}

CHOICE_LABELS = {
    "star": N_("Play the STAR die"),
    "pass": N_("Keep the STAR die for later"),
    "defender": N_("The defender rolls DEF"),
    "keeper": N_("The keeper rolls GK"),
    "left": N_("Left"),
    "right": N_("Right"),
}
ROLL_NOTES = {
    "rotate": N_("arrow turned towards the centre (wing)"),
    "long_kick": N_("long kick: double distance"),
}

# The rule notes the deciding side sees beside its choices (§6.1, B-36).
NOTES = {
    "must_control": N_("After winning the ball the first roll must be CONTROL."),
    "control_last": N_("CONTROL may not be rolled twice in a row."),
    "time_up": N_("Time is up: play goes on until the defence wins the ball."),
}

# Zones of the pitch, for the legend (each end has the same zones for the side attacking it).
ZONES = (
    ("area", N_("Penalty area")),
    ("shoot", N_("Shooting square outside the area")),
    ("red", N_("Right in front of goal: a missed tackle here is an own goal")),
    ("corner", N_("Corner square: no shot from here")),
)


def _side_name(names: Mapping[str, str] | None, side: str) -> str:
    return str(names.get(side, "")) if names else ""


def face_info(die: str, face: str) -> dict[str, Any]:
    """One die face as the template words and draws it: its symbol id and either a result label or the
    arrow class and length (the template words arrows: "forward 2")."""
    info: dict[str, Any] = {"die": die, "face": face, "symbol": symbol_id(face)}
    if DIE_INDEX[die] in ARROW_DICE:
        cls, n = parse_arrow(face)
        info.update(arrow=True, cls=cls, n=n, label=ARROW_LABELS[cls])
    else:
        info.update(arrow=False, cls="", n=0, label=(STAR_LABELS if die == "star" else RESULT_LABELS)[face])
    if die == "star":
        info["colour"] = STAR_COLOUR[face].replace("+", "-")
    return info


def symbol_id(face: str) -> str:
    """The id of the SVG symbol that draws ``face`` (shared by every die that has it)."""
    if face == QUESTION:
        return "dice-face-question"
    if face == LOSE:
        return "dice-face-lost"
    return "dice-face-" + face.lower().replace("_", "-")


def _symbols() -> list[dict[str, Any]]:
    """Every face of the eight dice once, as the template's ``<symbol>`` list."""
    seen: dict[str, dict[str, Any]] = {}
    for d in range(len(DIE_NAMES)):
        for face in FACES[d]:
            sid = symbol_id(face)
            if sid in seen:
                continue
            if d in ARROW_DICE:
                cls, n = parse_arrow(face)
                seen[sid] = {"id": sid, "arrow": True, "cls": cls, "n": n, "mark": "" if n else face}
            else:
                seen[sid] = {"id": sid, "arrow": False, "face": face}
    seen["dice-face-rest-arrow"] = {
        "id": "dice-face-rest-arrow",
        "arrow": True,
        "cls": "F",
        "n": 0,
        "mark": "",
    }
    return list(seen.values())


SYMBOLS = _symbols()


# ------------------------------------------------------------------------------------------ the pitch
def centre(x: int, y: int) -> tuple[int, int]:
    """SVG centre of absolute square ``(x, y)`` (row 11 at the top)."""
    return (x - 1) * CELL + CELL // 2, (ROWS - y) * CELL + CELL // 2


def _zones(x: int, y: int) -> list[str]:
    """The zones of an absolute square, for either end (both ends are some side's attacking end)."""
    out: list[str] = []
    for rx, ry in ((x, y), (COLS + 1 - x, ROWS + 1 - y)):
        if (rx, ry) in PENALTY_AREA:
            out.append("area")
        if (rx, ry) in OUTSIDE_SHOTS:
            out.append("shoot")
        if (rx, ry) in RED:
            out.append("red")
        if is_corner(rx, ry):
            out.append("corner")
    if (x, y) == (GOAL_COL, (ROWS + 1) // 2):
        out.append("centre")
    return out


def _squares() -> list[dict[str, Any]]:
    out = []
    for y in range(ROWS, 0, -1):
        for x in range(1, COLS + 1):
            cx, cy = centre(x, y)
            out.append(
                {
                    "x": x,
                    "y": y,
                    "name": square_name(x, y),
                    "left": cx - CELL // 2,
                    "top": cy - CELL // 2,
                    "zones": _zones(x, y),
                    "stripe": y % 2 == 0,
                }
            )
    return out


_SQUARES = _squares()

_PITCH = {
    "cell": CELL,
    "width": PITCH_W,
    "height": PITCH_H,
    "half": PITCH_H // 2,
    "goal_left": (GOAL_COL - 1) * CELL,
    "goal_depth": GOAL_DEPTH,
    "viewbox": f"{-MARGIN} {-MARGIN} {PITCH_W + MARGIN + 8} {PITCH_H + 2 * MARGIN}",
    "area": {"left": CELL, "width": 3 * CELL, "height": 2 * CELL, "bottom_top": PITCH_H - 2 * CELL},
    "shoot_top": 3 * CELL,  # the edge of the shooting zone (rows 9-11) at the top end ...
    "shoot_bottom": PITCH_H - 3 * CELL,  # ... and rows 1-3 at the bottom end
    "spot_top": centre(GOAL_COL, ROWS - 1),
    "spot_bottom": centre(GOAL_COL, 2),
    "centre": centre(GOAL_COL, (ROWS + 1) // 2),
    "columns": [{"name": "abcde"[x - 1], "cx": centre(x, 1)[0]} for x in range(1, COLS + 1)],
    "rows": [{"name": str(y), "cy": centre(1, y)[1]} for y in range(1, ROWS + 1)],
}


# ------------------------------------------------------------------------------------------ choices
def _to_absolute(view: Mapping[str, Any], x: int, y: int) -> tuple[int, int]:
    """The attacker's relative square as the board shows it."""
    if view["attacker"] == view["attacks_row_11"]:
        return x, y
    return COLS + 1 - x, ROWS + 1 - y


def direction_targets(view: Mapping[str, Any]) -> dict[str, dict[str, Any]] | None:
    """Where "left" and "right" send the ball at a pending direction decision: the squares it crosses,
    where it stops (the last square inside when it leaves the pitch) and how it leaves.

    The view names the die and the face but not (yet) whether the roll was turned on a wing (§6.5, §10.5)
    or doubled by a long kick (§10.3); ``to_decide["rotated"]`` / ``["long_kick"]`` are read when present.
    Without them, a ball on a square where either was possible gives None: no guess is drawn.
    """
    td = view.get("to_decide") or {}
    if td.get("kind") != "direction":
        return None
    bx, by = view["ball_relative"]
    if "rotated" not in td and is_wing(bx, by):
        return None
    if "long_kick" not in td and (bx, by) in (*GOAL_KICK_SQUARES, *KEEPER_SQUARES):
        return None
    cls, n = parse_arrow(td["face"])
    if n == 0:
        return None
    mult = 2 if td.get("long_kick") else 1
    out = {}
    for to in ("left", "right"):
        dx, dy = vector(cls, to == "right")
        if td.get("rotated"):
            dx, dy = rotate(bx, dx, dy)
        path, exit_, lx, ly = walk(bx, by, dx, dy, n * mult)
        inside = [_to_absolute(view, px, py) for px, py in path if 1 <= px <= COLS and 1 <= py <= ROWS]
        land = _to_absolute(view, lx, ly)
        out[to] = {
            "path": [square_name(*sq) for sq in inside],
            "square": square_name(*land),
            "exit": exit_,
            "exit_label": EXIT_LABELS.get(exit_, ""),
        }
    return out


def _choice(view: Mapping[str, Any], index: int, choice: Mapping[str, Any], targets: Any) -> dict[str, Any]:
    """One choice as a button: what it is, its label and the squares it highlights."""
    kind = str(choice.get("kind", ""))
    c: dict[str, Any] = {
        "index": index,
        "number": index + 1,
        "kind": kind,
        "die": "",
        "die_name": "",
        "symbol": "",
        "label": "",
        "notes": [],
        "square": "",
        "exit_label": "",
        "squares": [],
        "path": [],
        "star": None,
    }
    if kind == "roll":
        die = str(choice["die"])
        c.update(die=die, die_name=die.upper(), symbol=_rest_symbol(die))
        c["notes"] = [ROLL_NOTES[k] for k in ("rotate", "long_kick") if choice.get(k)]
    elif kind == "direction":
        to = str(choice["to"])
        c.update(label=CHOICE_LABELS[to], to=to)
        t = (targets or {}).get(to)
        if t is not None:
            c.update(square=t["square"], squares=[t["square"]], path=t["path"], exit_label=t["exit_label"])
    elif kind == "place":
        x, y = choice["square"]
        c.update(square=square_name(x, y), squares=[square_name(x, y)])
    elif kind in ("star", "pass", "defender", "keeper"):
        c["label"] = CHOICE_LABELS[kind]
        if kind == "star":
            c.update(
                die="star",
                symbol=symbol_id(view["star"]["face"]),
                star=face_info("star", view["star"]["face"]),
            )
        elif kind == "defender":
            c.update(die="def", symbol=_rest_symbol("def"))
        elif kind == "keeper":
            c.update(die="gk", symbol=_rest_symbol("gk"))
    return c


def _rest_symbol(die: str) -> str:
    """The face a die shows while it is not the one just rolled (arrow dice: a bare arrow)."""
    d = DIE_INDEX[die]
    if d in ARROW_DICE:
        return "dice-face-rest-arrow"
    return symbol_id(FACES[d][0])


# ------------------------------------------------------------------------------------------ the dice
_DIE_GROUPS = (
    ("attack", ("control", "pass", "long")),
    ("defence", ("def",)),
    ("table", ("shot", "gk", "pen")),
    ("star", ("star",)),
)
GROUP_LABELS = {
    "attack": N_("Attack dice"),
    "defence": N_("Defence die"),
    "table": N_("Beside the pitch"),
    "star": N_("STAR die"),
}


def _dice(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    last = view.get("last_roll") or {}
    attacker = view["attacker"]
    defender = "away" if attacker == "home" else "home"
    holder = {"attack": attacker, "defence": defender, "table": "", "star": view["star"]["holder"]}
    groups = []
    for key, names in _DIE_GROUPS:
        dice = []
        for die in names:
            if die == "star":
                shown = face_info("star", view["star"]["face"])
            elif last.get("die") == die:
                shown = face_info(die, last["face"])
            else:
                shown = None
            dice.append(
                {
                    "die": die,
                    "name": die.upper(),
                    "face": shown,
                    "symbol": shown["symbol"] if shown else _rest_symbol(die),
                    "last": last.get("die") == die,
                    "faces": [symbol_id(f) for f in FACES[DIE_INDEX[die]]],
                    "all_faces": [face_info(die, f) for f in FACES[DIE_INDEX[die]]],
                }
            )
        groups.append({"key": key, "label": GROUP_LABELS[key], "side": holder[key], "dice": dice})
    return groups


# ------------------------------------------------------------------------------------------ the context
def roll_seq(view: Mapping[str, Any]) -> str:
    """A key that changes exactly when a die was rolled: every roll but STAR's ticks the clock, STAR's
    reveal roll moves the die to the other side, a shoot-out kick adds a kick."""
    star = view["star"]
    last = view.get("last_roll") or {}
    kicks = len((view.get("result") or {}).get("kicks") or ())
    return "-".join(
        str(v)
        for v in (view["period"], view["ticks"], kicks, star["holder"], star["face"], last.get("die", ""))
    )


def board_context(
    view: Mapping[str, Any],
    choices: Sequence[Mapping[str, Any]] | None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What ``dice_football/board.html`` needs under the name ``board``.

    ``view``: ``FORMAT.view(state, side)``; ``choices``: the viewer's own pending ``Decision.choices`` (None
    for a spectator, the other side and a replay); ``names``: who plays each side (``{"home": "Ann"}``),
    "Home"/"Away" where missing.
    """
    bx, by = view["ball"]
    ball_cx, ball_cy = centre(bx, by)
    score = view["score"]
    attacker = view["attacker"]
    up = view["attacks_row_11"]
    result = view.get("result")
    over = result is not None
    period = int(view["period"])
    length = int(view["half_ticks"])
    ticks = int(view["ticks"])
    sides = []
    for s in SIDES:
        sides.append(
            {
                "key": s,
                "name": _side_name(names, s),
                "score": score[SIDES.index(s)],
                "attacking": not over and s == attacker,
                "towards": "top" if s == up else "bottom",
                "star": view["star"]["holder"] == s,
                "fouls": int((view.get("fouls") or {}).get(s, 0)),
            }
        )
    to_decide = view.get("to_decide")
    pending = None
    if to_decide is not None:
        pending = {
            "side": to_decide["side"],
            "kind": to_decide["kind"],
            "window": to_decide.get("window", ""),
            "restart": "",
        }
        if to_decide["kind"] == "place":
            # the view tells the placing side (its decision's options), not yet the others
            options = (view.get("decision") or {}).get("options") or {}
            pending["restart"] = RESTARTS.get(to_decide.get("restart") or options.get("restart") or "", "")
    targets = direction_targets(view) if choices is not None else None
    listed = [_choice(view, i, c, targets) for i, c in enumerate(choices or ())]
    # a square submits a choice when exactly one choice points at it
    by_square: dict[str, list[int]] = {}
    for c in listed:
        for name in c["squares"]:
            by_square.setdefault(name, []).append(c["index"])
    path_squares = {name for c in listed for name in c["path"]}
    squares = []
    for sq in _SQUARES:
        picks = by_square.get(sq["name"], [])
        squares.append(
            sq
            | {
                "target": bool(picks),
                "pick": picks[0] if len(picks) == 1 else None,
                "numbers": [i + 1 for i in picks],
                "on_path": sq["name"] in path_squares,
            }
        )
    last = view.get("last_roll")
    notes = []
    if choices is not None and to_decide is not None and to_decide["kind"] == "action":
        if view.get("must_control"):
            notes.append(NOTES["must_control"])
        elif view.get("control_last"):
            notes.append(NOTES["control_last"])
    shootout = None
    if result is not None and result.get("penalties") is not None:
        shootout = {s: [bool(k["scored"]) for k in result["kicks"] if k["side"] == s] for s in SIDES} | {
            "score": result["penalties"]
        }
    return {
        "pitch": _PITCH,
        "squares": squares,
        "ball": {"x": bx, "y": by, "name": square_name(bx, by), "cx": ball_cx, "cy": ball_cy},
        "top_goal_defender": "away" if up == "home" else "home",
        "bottom_goal_defender": up,
        "sides": sides,
        "names": {s: _side_name(names, s) for s in SIDES},
        "attacker": attacker,
        "attack_towards": "top" if attacker == up else "bottom",
        "period": {
            "number": period,
            "label": PERIODS.get(period, ""),
            "shootout": period == 5,
        },
        "clock": {
            "show": not over and period != 5 and length > 0,
            "ticks": ticks,
            "length": length,
            "left": max(0, length - ticks),
            "percent": min(100, round(100 * ticks / length)) if length else 100,
            "time_up": bool(view.get("time_up")) and not over,
        },
        "time_up_note": NOTES["time_up"],
        "restart": RESTARTS.get(view.get("restart") or "", ""),
        "star": {"holder": view["star"]["holder"], "face": face_info("star", view["star"]["face"])},
        "last_roll": (
            {
                "side": last["side"],
                "die": last["die"],
                "name": last["die"].upper(),
                "face": face_info(last["die"], last["face"]),
            }
            if last
            else None
        ),
        "roll_seq": roll_seq(view),
        "pending": pending,
        "mine": choices is not None and pending is not None,
        "choices": listed,
        "notes": notes,
        "dice": _dice(view),
        "symbols": SYMBOLS,
        "zones": ZONES,
        "over": over,
        "result": (
            {
                "winner": result.get("winner"),
                "decided_by": DECIDED_BY.get(result.get("decided_by") or "", ""),
                "shootout": shootout,
            }
            if result is not None
            else None
        ),
    }
