"""The board of a chess-football match for one viewer: what ``chess_football/board.html`` draws.

``board_context(view, choices, names)`` turns the format's view (``FORMAT.view(state, side)``), the viewer's
own pending choices (the ``Decision.choices`` of his decision, None for everybody else) and who plays each
side into plain data: the 9 × 13 chequerboard with its goal, red, circled and yellow squares (geometry.py is
the one source of the board), the pieces with their kind, side and state, the ball, the last move as arrows,
the score, period and move count, the cautions and the admonition boxes, the move list, and for the decider
his choices as a tree of clicks.

Why a tree: a move is a path of squares — a piece, then its target (``Lc5-d6``); the keeper's red-square
clearance (``Ke0-d1>e5``) is the keeper, then the landing; a relocation after an offside forfeit is the
offender, its new square, then a whole move (X-34) — and one decision may list thousands of moves. Each
choice is a leaf answered by its number (``pick``); every inner node is one click on the board or one
disclosure in the panel, so the pointer and the keyboard walk the same tree. Shots at any free goal square
are one move (X-29, CF-3): its leaf lists every goal square the ball reaches, so the natural click counts.

Pure Python like the rest of the game (no Django): labels are English msgids marked with ``N_`` and the
template translates them; sentences with values are the template's own ``blocktranslate`` texts. The board is
drawn from South (home) for spectators and the home side, from North for the away side, so each player's own
goal is at the bottom; square names stay the rules' (``e7`` is the centre for everyone).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.api import N_
from games.chess_football.geometry import (
    BALL_TARGETS,
    CIRCLED,
    GOALS,
    GRID,
    HALFWAY,
    PENALTY_SPOT,
    RED,
    YELLOW,
    name,
    parse_square,
    xy,
)
from games.labels import PERIODS, full_time

CELL = 40  # SVG units per square
MARGIN = 22  # room for the row numbers and the column letters
COLS, ROWS = 9, 15  # rows 0 and 14 hold only the goal squares
WIDTH, HEIGHT = COLS * CELL, ROWS * CELL
SIDES = ("home", "away")

KIND_LABELS = {
    "keeper": N_("Keeper"),
    "captain": N_("Captain"),
    "dark": N_("Dark piece"),
    "light": N_("Light piece"),
}
# The legend: the squares as the rules name them (§2) and the pieces (§2, §5).
LEGEND_SQUARES = (
    ("light", N_("Light square: light pieces move on these")),
    ("dark", N_("Dark square: dark pieces move on these")),
    ("goal", N_("Goal square: a ball played there is a goal; the keeper may stand on it")),
    ("red", N_("Red square: a ball left here must be cleared by the keeper at once, or it is a penalty")),
    ("circled", N_("Circled square: with the goal and red squares, the keeper's zone")),
    ("yellow", N_("Yellow square: an attacker standing here is offside unless a defender is on one too")),
)
LEGEND_PIECES = (
    ("light", N_("Light piece: 1 or 2 squares diagonally (and along the side columns), on light squares")),
    ("dark", N_("Dark piece: the same, on dark squares")),
    ("captain", N_("Captain: any distance in a straight line, stopping on the halfway row")),
    ("keeper", N_("Keeper: one step within his zone")),
)

_PIECE_RE = re.compile(r"^([KCDL])([a-i]\d{1,2})([-x])([a-i]\d{1,2})$")
_BALL_RE = re.compile(r"^([a-i]\d{1,2})>([a-i]\d{1,2})$")
_CLEAR_RE = re.compile(r"^K([a-i]\d{1,2})-([a-i]\d{1,2})>([a-i]\d{1,2})$")
_ENTRY_RE = re.compile(r"^\+(C|[DL][1-4])([a-i]\d{1,2})$")
_RELOC_RE = re.compile(r"^([a-i]\d{1,2})=([a-i]\d{1,2});(.+)$")
_VOID = ("concede", "forfeit", "pass")


# ------------------------------------------------------------------------------------------ the board
def _screen(x: int, y: int, flip: bool) -> tuple[int, int]:
    """Column and row on the screen (0-based, top left) of square ``(x, y)``."""
    return (COLS - x, y) if flip else (x - 1, ROWS - 1 - y)


def centre(square: str, flip: bool) -> tuple[int, int]:
    """SVG centre of a square given by name."""
    s = parse_square(square)
    assert s is not None, square
    c, r = _screen(*xy(s), flip)
    return c * CELL + CELL // 2, r * CELL + CELL // 2


def _square_classes(s: int) -> list[str]:
    x, y = xy(s)
    out = ["light" if (x + y) % 2 == 0 else "dark"]
    for side in (0, 1):
        if s in GOALS[side]:
            out.append("goal")
        if s in RED[side]:
            out.append("red")
        if s in CIRCLED[side]:
            out.append("circled")
        if s in YELLOW[side]:
            out.append("yellow")
    if y == HALFWAY:
        out.append("halfway")
    return out


def _squares(flip: bool) -> list[dict[str, Any]]:
    out = []
    for s in sorted(GRID | GOALS[0] | GOALS[1]):
        c, r = _screen(*xy(s), flip)
        out.append(
            {
                "name": name(s),
                "left": c * CELL,
                "top": r * CELL,
                "cx": c * CELL + CELL // 2,
                "cy": r * CELL + CELL // 2,
                "classes": _square_classes(s),
                "circled": s in CIRCLED[0] or s in CIRCLED[1],
            }
        )
    return out


def _grid(flip: bool) -> dict[str, Any]:
    halfway = _screen(1, HALFWAY, flip)[1] * CELL + CELL // 2
    return {
        "cell": CELL,
        "width": WIDTH,
        "height": HEIGHT,
        "top": CELL,  # the grid (rows 1..13) without the goal rows
        "grid_height": 13 * CELL,
        "halfway": halfway,
        "centre": centre("e7", flip),
        "spots": [centre(name(s), flip) for s in PENALTY_SPOT],
        "viewbox": f"{-MARGIN} -4 {WIDTH + MARGIN + 4} {HEIGHT + MARGIN + 8}",
        "columns": [
            {"name": "abcdefghi"[x - 1], "cx": _screen(x, 1, flip)[0] * CELL + CELL // 2}
            for x in range(1, 10)
        ],
        "rows": [{"name": str(y), "cy": _screen(1, y, flip)[1] * CELL + CELL // 2} for y in range(1, 14)],
        "label_y": HEIGHT + 14,
    }


_BOARDS = {flip: {"squares": _squares(flip), "grid": _grid(flip)} for flip in (False, True)}


# ------------------------------------------------------------------------------------------ pieces
def _pieces(view: Mapping[str, Any], flip: bool) -> tuple[list[dict[str, Any]], dict[str, dict[str, Any]]]:
    """The pieces on the board (with their centres) and the same by square."""
    offenders = {p for ids in (view.get("offenders") or {}).values() for p in ids}
    holder = view.get("holder")
    out = []
    for p in view["pieces"]:
        if p["where"] != "board":
            continue
        cx, cy = centre(p["square"], flip)
        out.append(
            dict(
                p,
                cx=cx,
                cy=cy,
                holder=p["id"] == holder,
                offside=p["id"] in offenders,
                kind_label=KIND_LABELS[p["kind"]],
            )
        )
    return out, {p["square"]: p for p in out}


def _benches(view: Mapping[str, Any]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Each side's pieces in the admonition box and sent off (§11), drawn beside the board."""
    out: dict[str, dict[str, list[dict[str, Any]]]] = {s: {"box": [], "off": []} for s in SIDES}
    for p in view["pieces"]:
        if p["where"] in ("box", "off"):
            out[p["side"]][p["where"]].append(dict(p, kind_label=KIND_LABELS[p["kind"]]))
    return out


# ------------------------------------------------------------------------------------------ the last move
def _segment(frm: str, to: str, kind: str, flip: bool) -> dict[str, Any]:
    """An arrow from one square to another, its ends pulled in so that it does not hide the pieces."""
    (x1, y1), (x2, y2) = centre(frm, flip), centre(to, flip)
    dx, dy = x2 - x1, y2 - y1
    length = max(1.0, (dx * dx + dy * dy) ** 0.5)
    pull = min(12.0, length / 3)
    return {
        "kind": kind,
        "x1": round(x1 + dx * pull / length),
        "y1": round(y1 + dy * pull / length),
        "x2": round(x2 - dx * pull / length),
        "y2": round(y2 - dy * pull / length),
    }


def last_move_arrows(last: str, flip: bool) -> list[dict[str, Any]]:
    """The last move (``view["last"]``, our notation) as arrows: a piece's way, the ball's flight, a
    relocation; none for a void move, a penalty or a kick-off."""
    out: list[dict[str, Any]] = []
    m = _RELOC_RE.match(last)
    if m:
        out.append(_segment(m.group(1), m.group(2), "relocation", flip))
        last = m.group(3)
    if m := _PIECE_RE.match(last):
        out.append(_segment(m.group(2), m.group(4), "piece", flip))
    elif m := _BALL_RE.match(last):
        out.append(_segment(m.group(1), m.group(2), "ball", flip))
    elif m := _CLEAR_RE.match(last):
        out.append(_segment(m.group(1), m.group(2), "piece", flip))
        out.append(_segment(m.group(2), m.group(3), "ball", flip))
    return out


def _last_square(last: str) -> str:
    """The square a re-entry put its piece on (marked instead of an arrow)."""
    m = _ENTRY_RE.match(_RELOC_RE.sub(r"\3", last))
    return m.group(2) if m else ""


# ------------------------------------------------------------------------------------------ the choices
class _Board:
    """What the choices' wording needs of the position: who stands where, and where the ball is."""

    def __init__(self, view: Mapping[str, Any], by_square: Mapping[str, dict[str, Any]]) -> None:
        self.by_square = {sq: (p["side"], p["kind"], p["label"]) for sq, p in by_square.items()}
        self.ball = str(view["ball"])
        self.loose = view.get("holder") is None
        self.labels = {(p["side"], p["label"]): p["square"] for p in view["pieces"] if p["where"] == "board"}

    def relocated(self, frm: str, to: str) -> _Board:
        """The position after an offender was put back (X-34): a relocated holder leaves the ball loose."""
        c = _Board.__new__(_Board)
        c.by_square = dict(self.by_square)
        c.by_square[to] = c.by_square.pop(frm)
        c.ball = self.ball
        c.loose = self.loose or frm == self.ball
        c.labels = self.labels
        return c

    def free_goals(self, frm: str, goal: str) -> list[str]:
        """Every free goal square of the goal ``goal`` belongs to that a ball from ``frm`` reaches (CF-3)."""
        s, g = parse_square(frm), parse_square(goal)
        assert s is not None and g is not None
        goals = GOALS[0] if g in GOALS[0] else GOALS[1]
        return [name(t) for t in sorted(goals) if t in BALL_TARGETS[s] and name(t) not in self.by_square]


Step = tuple[str, str, dict[str, Any]]  # (key, kind, details): one click


def _piece_steps(board: _Board, m: re.Match[str]) -> list[Step]:
    frm, to = m.group(2), m.group(4)
    _side, kind, label = board.by_square.get(frm, ("", "", ""))
    target = board.by_square.get(to)
    how = "tackle" if m.group(3) == "x" else ("pick_up" if to == board.ball and board.loose else "to")
    return [
        (frm, "piece", {"square": frm, "piece": kind, "label": label}),
        (to, how, {"square": to, "squares": [to], "opponent": target[2] if target else ""}),
    ]


def _ball_steps(board: _Board, m: re.Match[str], side: str) -> list[Step]:
    frm, to = m.group(1), m.group(2)
    holder = board.by_square.get(frm, ("", "", ""))
    target = board.by_square.get(to)
    leaf: dict[str, Any] = {"square": to, "squares": [to], "mate": ""}
    s = parse_square(to)
    if s is not None and (s in GOALS[0] or s in GOALS[1]):
        how = "goal"
        leaf["squares"] = board.free_goals(frm, to) or [to]
    elif target is not None:
        how = "pass"
        leaf["mate"] = target[2]
    else:
        how = "throw"
    return [(frm, "ball", {"square": frm, "piece": holder[1], "label": holder[2]}), (to, how, leaf)]


def steps_of(choice: Mapping[str, Any], board: _Board, side: str) -> list[Step]:
    """The clicks that make one choice, each with what its button says."""
    kind = choice.get("kind")
    if kind == "cover":
        sq = str(choice["square"])
        return [(sq, "cover", {"square": sq, "squares": [sq]})]
    if kind == "penalty":
        aim = str(choice["aim"])
        leaf = (aim, "aim", {"square": aim, "squares": [aim]})
        taker = choice.get("taker")
        if taker is None:
            return [leaf]
        at = board.labels.get((side, taker), "")
        _side, piece, _label = board.by_square.get(at, ("", "", ""))
        return [(at or f"+{taker}", "taker", {"square": at, "piece": piece, "label": taker}), leaf]
    text = str(choice.get("move", ""))
    if text in _VOID:
        return [(f"void-{text}", f"void_{text}", {})]
    m = _RELOC_RE.match(text)
    if m:
        frm, to = m.group(1), m.group(2)
        _side, piece, label = board.by_square.get(frm, ("", "", ""))
        first: list[Step] = [
            (frm, "relocate", {"square": frm, "piece": piece, "label": label}),
            (to, "relocate_to", {"square": to}),
        ]
        return first + steps_of({"kind": "move", "move": m.group(3)}, board.relocated(frm, to), side)
    if m := _PIECE_RE.match(text):
        return _piece_steps(board, m)
    if m := _BALL_RE.match(text):
        return _ball_steps(board, m, side)
    if m := _CLEAR_RE.match(text):
        frm, red, to = m.group(1), m.group(2), m.group(3)
        throw = _ball_steps(board, _BALL_RE.match(f"{red}>{to}"), side)[1]  # type: ignore[arg-type]
        return [(frm, "clear", {"square": frm, "red": red}), throw]
    if m := _ENTRY_RE.match(text):
        label, sq = m.group(1), m.group(2)
        piece = {"C": "captain", "D": "dark", "L": "light"}[label[0]]
        return [
            (f"+{label}", "reentry", {"label": label, "piece": piece}),
            (sq, "reentry_to", {"square": sq}),
        ]
    return [(text, "other", {"text": text})]


def choice_tree(
    view: Mapping[str, Any], choices: Sequence[Mapping[str, Any]], by_square: Mapping[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """The choices as a tree of clicks: inner nodes open (a piece, the ball, an offender…), leaves answer
    with the choice's number. Children keep the order of the choices."""
    board = _Board(view, by_square)
    side = _deciding_side(view, choices)
    root: dict[str, Any] = {"children": [], "index": {}}
    for number, choice in enumerate(choices):
        node = root
        path = steps_of(choice, board, side)
        for depth, (key, kind, details) in enumerate(path):
            leaf = depth == len(path) - 1
            child = node["index"].get(key)
            if child is None:
                child = dict(details, key=key, kind=kind, children=[], index={}, pick=None)
                child.setdefault("squares", [details["square"]] if details.get("square") else [])
                node["index"][key] = child
                node["children"].append(child)
            if leaf and child["pick"] is None:
                child["pick"] = number
            node = child
    return _finish(root["children"], 1)


def _finish(nodes: list[dict[str, Any]], level: int) -> list[dict[str, Any]]:
    for n in nodes:
        n.pop("index", None)
        n["level"] = level
        n["leaf"] = not n["children"]
        n["squares_text"] = " ".join(n["squares"])
        n["children"] = _finish(n["children"], level + 1)
    return nodes


def _deciding_side(view: Mapping[str, Any], choices: Sequence[Mapping[str, Any]]) -> str:
    """Whose choices these are: the side to move, or at a penalty the kicker or the keeper's side."""
    pen = view.get("penalty")
    if pen is not None and choices:
        kicker = pen["kicker"]
        return kicker if choices[0].get("kind") == "penalty" else ("away" if kicker == "home" else "home")
    return str(view["turn"])


# ------------------------------------------------------------------------------------------ the move list
def move_list(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The moves in our notation (RULES.md §10), period by period, two to a row as the sides alternate."""
    periods: dict[int, list[dict[str, Any]]] = {}
    for period, side, text, scored in view.get("moves") or ():
        periods.setdefault(int(period), []).append({"side": side, "move": text, "goal": bool(scored)})
    out = []
    current = int(view["period"])
    for period, plies in sorted(periods.items()):
        rows = [{"number": i // 2 + 1, "plies": plies[i : i + 2]} for i in range(0, len(plies), 2)]
        out.append(
            {"period": period, "label": PERIODS.get(period, ""), "rows": rows, "current": period == current}
        )
    return out


# ------------------------------------------------------------------------------------------ the context
def _names(names: Mapping[str, str] | None) -> dict[str, str]:
    return {s: str((names or {}).get(s, "")) for s in SIDES}


def _other(side: str) -> str:
    return "away" if side == "home" else "home"


def _pending(view: Mapping[str, Any], mine: bool) -> dict[str, Any] | None:
    """Who decides what now (for everybody), and for the decider the notes that bind his move."""
    phase = view["phase"]
    if phase == "over":
        return None
    pen = view.get("penalty")
    if phase == "penalty" and pen is not None:
        kicker = pen["kicker"]
        return {
            "kind": "penalty",
            "kicker": kicker,
            "keeper": _other(kicker),
            "shootout": int(view["period"]) == 5,
            "chosen": dict(pen["chosen"]),
            "mine": pen.get("mine"),
            "mine_move": pen.get("mine_move", ""),
        }
    turn = view["turn"]
    offenders = (view.get("offenders") or {}).get(turn) or []
    squares = [p["square"] for p in view["pieces"] if p["id"] in offenders]
    return {
        "kind": "move",
        "side": turn,
        "red": view.get("red_obligation") or "",
        "relocate": bool(view.get("relocate")),
        "offside": ", ".join(squares) if mine else "",
    }


def board_context(
    view: Mapping[str, Any],
    choices: Sequence[Mapping[str, Any]] | None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What ``chess_football/board.html`` needs under the name ``board``.

    ``view``: ``FORMAT.view(state, side)``; ``choices``: the viewer's own pending ``Decision.choices`` (None
    for a spectator, the other side and a replay); ``names``: who plays each side (``{"home": "Ann"}``),
    "Home"/"Away" where missing.
    """
    flip = view.get("viewer") == "away"
    drawn = _BOARDS[flip]
    pieces, by_square = _pieces(view, flip)
    benches = _benches(view)
    score = view["score"]
    period = int(view["period"])
    over = view["phase"] == "over"
    per_half = int(view["moves_per_half"])
    plies = int(view["plies"])
    turn = view["turn"]
    mine = choices is not None and not over
    pending = _pending(view, mine)
    cards = view["cards_used"]
    sides = []
    for i, s in enumerate(SIDES):
        sides.append(
            {
                "key": s,
                "name": _names(names)[s],
                "score": score[i],
                "to_move": pending is not None and pending["kind"] == "move" and turn == s,
                "cards_used": cards[i],
                "cards": [n < cards[i] for n in range(2)],
                "box": benches[s]["box"],
                "off": benches[s]["off"],
                "bottom": (s == "home") != flip,
            }
        )
    ball_cx, ball_cy = centre(view["ball"], flip)
    holder = by_square.get(view["ball"]) if view.get("holder") is not None else None
    tree = choice_tree(view, choices or (), by_square) if mine and choices else []
    pens = view.get("pens")
    kicks = view.get("kicks") or []
    shootout = None
    if pens is not None:
        shootout = {s: [bool(k[3]) for k in kicks if k[0] == s] for s in SIDES} | {"score": pens}
    last = str(view.get("last") or "")
    return {
        "squares": drawn["squares"],
        "grid": drawn["grid"],
        "flip": flip,
        "bottom_side": "away" if flip else "home",
        "top_side": "home" if flip else "away",
        "pieces": pieces,
        "ball": {
            "square": view["ball"],
            "cx": ball_cx + (11 if holder else 0),
            "cy": ball_cy + (11 if holder else 0),
            "held": holder is not None,
            "holder": holder,
        },
        "red_obligation": view.get("red_obligation") or "",
        "sides": sides,
        "names": _names(names),
        "period": {"number": period, "label": PERIODS.get(period, ""), "shootout": period == 5},
        "clock": {
            "show": not over and period != 5,
            "move": min(per_half, plies // 2 + 1),
            "of": per_half,
            "plies": plies,
            "percent": min(100, round(100 * plies / (2 * per_half))) if per_half else 100,
        },
        "turn": turn,
        "pending": pending,
        "mine": mine and bool(tree),
        "tree": tree,
        "last": {"text": last, "arrows": last_move_arrows(last, flip), "square": _last_square(last)},
        "moves": move_list(view),
        "move_count": len(view.get("moves") or ()),
        "kind_labels": KIND_LABELS,
        "legend_squares": LEGEND_SQUARES,
        "legend_pieces": LEGEND_PIECES,
        "over": over,
        "result": full_time(view),
        "shootout": shootout,
        "move_seq": f"{period}-{plies}-{len(kicks)}-{score[0]}-{score[1]}-{len(view.get('moves') or ())}",
    }
