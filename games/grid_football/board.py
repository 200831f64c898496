"""The board of a grid-football match for one viewer: what ``grid_football/board.html`` draws.

``board_context(view, choices, names)`` turns the format's view (``FORMAT.view(state, side)``), the viewer's
own pending choices (the ``Decision.choices`` of his decision, None for everybody else; empty for a line-up,
whose options the view gives its own side) and who plays each side into plain data: the pitch of 10 × 15
squares with its outside columns, back lines, areas, spots and goals (geometry.py is the one source), both
teams' numbered pawns (keepers square, the others round) with their cards and bandages, the ball and its
last path, the die of the turn, the clock track and the extra-time track, the dugouts and the team sheets,
what is being decided and by whom, and for the decider his choices as a tree of clicks — or, at the start,
the squad sheet of his line-up.

Why a tree: a walk is a pawn, then the square its roll reaches; a kick is a target square (and, when the
ball can reach it along two routes, the route); a substitution is who comes on, for whom, and where. Each
choice is a leaf answered by its number (``pick``); every inner node is one click on the pitch or one
disclosure in the panel, so the pointer and the keyboard walk the same tree.

Pure Python like the rest of the game (no Django): labels are English msgids marked with ``N_`` and the
template translates them; sentences with values are the template's own ``blocktranslate`` texts. The pitch is
drawn with the viewer's own goal at the bottom (home's for spectators); square names stay the rules' ``x,y``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.api import N_
from games.grid_football.geometry import (
    AREA_OF,
    BACKLINE,
    CORNERS,
    GOAL_AREA_OF,
    GOAL_OF,
    MIDDLE_ROW,
    NSQ,
    ON_BOARD,
    OUTSIDE,
    PENALTY_SPOTS,
    H,
    W,
    name,
    parse_square,
    xy,
)
from games.labels import full_time

CELL = 30  # SVG units per square
MARGIN = 18  # room for the row and column numbers
WIDTH, HEIGHT = W * CELL, H * CELL
SIDES = ("home", "away")
DICE_FACES = "⚀⚁⚂⚃⚄⚅"

KIND_LABELS = {
    "keeper": N_("Keeper"),
    "defender": N_("Defender"),
    "midfielder": N_("Midfielder"),
    "attacker": N_("Attacker"),
}
STATUS_LABELS = {
    "unavailable": N_("Unavailable: suspended or injured in the cup"),
    "dugout": N_("In the dugout"),
    "warming": N_("Warming up"),
    "pitch": N_("On the pitch"),
    "sent_off": N_("Sent off"),
    "injured_out": N_("Injured out"),
    "subbed_off": N_("Substituted"),
}
PERIOD_LABELS = {1: N_("Normal time"), 2: N_("Extra time (golden goal)"), 3: N_("Penalty shoot-out")}
LEGEND = (
    ("pitch", N_("Pitch square: players walk and the ball travels square by square")),
    (
        "outside",
        N_("Outside square, along the touch lines: players may stand there, the ball going there is out"),
    ),
    ("goal", N_("Goal square: only that goal's keeper stands there; the ball there is a shot")),
    ("area", N_("Penalty area: a foul here is a penalty; the keeper saves and catches only here")),
    ("goal-area", N_("Goal area: outfield players enter only while the ball lies in its row")),
)


# ------------------------------------------------------------------------------------------ the pitch
def _screen(x: int, y: int, flip: bool) -> tuple[int, int]:
    """Column and row on the screen (0-based, top left) of square ``(x, y)``: the own goal at the bottom."""
    return (W - 1 - x, y) if flip else (x, H - 1 - y)


def centre(square: str, flip: bool) -> tuple[int, int]:
    """SVG centre of a square given by name."""
    s = parse_square(square)
    assert s is not None, square
    c, r = _screen(*xy(s), flip)
    return c * CELL + CELL // 2, r * CELL + CELL // 2


def _classes(s: int) -> list[str]:
    x, y = xy(s)
    out = []
    if GOAL_OF[s] >= 0:
        out.append("goal")
    elif OUTSIDE[s]:
        out.append("outside")
    elif BACKLINE[s]:
        out.append("backline")
    else:
        out.append("pitch")
        out.append("light" if (x + y) % 2 == 0 else "dark")
    if AREA_OF[s] >= 0:
        out.append("area")
    if GOAL_AREA_OF[s] >= 0:
        out.append("goal-area")
    if y == MIDDLE_ROW and not OUTSIDE[s]:
        out.append("middle")
    if s in CORNERS[0] or s in CORNERS[1]:
        out.append("corner")
    return out


def _squares(flip: bool) -> list[dict[str, Any]]:
    out = []
    for s in range(NSQ):
        if not ON_BOARD[s]:
            continue
        c, r = _screen(*xy(s), flip)
        out.append({"name": name(s), "left": c * CELL, "top": r * CELL, "classes": _classes(s)})
    return out


def _grid(flip: bool) -> dict[str, Any]:
    left, top = _screen(1, 15, flip)
    right, bottom = _screen(10, 1, flip)
    x0, x1 = sorted((left, right))
    y0, y1 = sorted((top, bottom))
    areas = []
    for side in (0, 1):
        corners = (
            [_screen(3, 1, flip), _screen(8, 3, flip)]
            if side == 0
            else [_screen(3, 13, flip), _screen(8, 15, flip)]
        )
        (ax0, ax1), (ay0, ay1) = sorted(c[0] for c in corners), sorted(c[1] for c in corners)
        areas.append(
            {"x": ax0 * CELL, "y": ay0 * CELL, "w": (ax1 - ax0 + 1) * CELL, "h": (ay1 - ay0 + 1) * CELL}
        )
    middle = _screen(1, MIDDLE_ROW, flip)[1] * CELL + CELL // 2
    return {
        "cell": CELL,
        "width": WIDTH,
        "height": HEIGHT,
        "pitch": {"x": x0 * CELL, "y": y0 * CELL, "w": (x1 - x0 + 1) * CELL, "h": (y1 - y0 + 1) * CELL},
        "areas": areas,
        "middle": middle,
        "centre": (
            (_screen(5, MIDDLE_ROW, flip)[0] + _screen(6, MIDDLE_ROW, flip)[0] + 1) * CELL // 2,
            middle,
        ),
        "spots": [centre(name(s), flip) for spots in PENALTY_SPOTS for s in spots],
        "viewbox": f"{-MARGIN} -4 {WIDTH + MARGIN + 4} {HEIGHT + MARGIN + 6}",
        "columns": [{"name": str(x), "cx": _screen(x, 0, flip)[0] * CELL + CELL // 2} for x in range(W)],
        "rows": [{"name": str(y), "cy": _screen(0, y, flip)[1] * CELL + CELL // 2} for y in range(H)],
        "label_y": HEIGHT + 13,
    }


_BOARDS = {flip: {"squares": _squares(flip), "grid": _grid(flip)} for flip in (False, True)}


# ------------------------------------------------------------------------------------------ the pawns
def _pawns(view: Mapping[str, Any], flip: bool) -> tuple[list[dict[str, Any]], dict[tuple[str, int], str]]:
    """The pawns on the pitch with their centres, and every pawn's square by (side, number)."""
    keepers = view.get("keepers") or {}
    holder = view.get("holder")
    out = []
    where: dict[tuple[str, int], str] = {}
    for side in SIDES:
        for p in (view.get("squads") or {}).get(side, ()):
            if p["square"] is None:
                continue
            where[(side, p["number"])] = p["square"]
            cx, cy = centre(p["square"], flip)
            label = ("H" if side == "home" else "A") + str(p["number"])
            out.append(
                dict(
                    p,
                    side=side,
                    cx=cx,
                    cy=cy,
                    keeper=keepers.get(side) == p["number"],
                    holder=label == holder,
                    locked=label == view.get("lock"),
                    kind_label=KIND_LABELS[p["kind"]],
                    cards=["yellow"] * min(int(p["yellow"]), 1) + (["red"] if p["red"] else []),
                )
            )
    return out, where


def _sheets(view: Mapping[str, Any], names: Mapping[str, str]) -> list[dict[str, Any]]:
    """Each side's team sheet: the players on the pitch, the dugout (warming up first) and who is out, with
    their cards, bandages and the reason a player cannot play."""
    keepers = view.get("keepers") or {}
    subs = view.get("subs") or {}
    out = []
    for side in SIDES:
        rows = []
        for p in (view.get("squads") or {}).get(side, ()):
            rows.append(
                dict(
                    p,
                    kind_label=KIND_LABELS[p["kind"]],
                    kind_letter=p["kind"][0].upper(),
                    status_label=STATUS_LABELS[p["status"]],
                    keeping=keepers.get(side) == p["number"],
                    bandages=range(int(p["injuries"])),
                    yellows=range(int(p["yellow"])),
                )
            )
        groups = {
            "pitch": [r for r in rows if r["status"] == "pitch"],
            "bench": [r for r in rows if r["status"] in ("warming", "dugout")],
            "out": [
                r for r in rows if r["status"] in ("sent_off", "injured_out", "subbed_off", "unavailable")
            ],
        }
        groups["bench"].sort(key=lambda r: (r["status"] != "warming", r["number"]))
        out.append(
            {
                "key": side,
                "name": str(names.get(side, "")),
                "subs": int(subs.get(side, 0)),
                "makeshift": bool((view.get("makeshift") or {}).get(side)),
                "warming": [r["number"] for r in groups["bench"] if r["status"] == "warming"],
                "groups": [{"key": k, "rows": v} for k, v in groups.items()],
            }
        )
    return out


# ------------------------------------------------------------------------------------------ the choices
Step = tuple[str, str, dict[str, Any]]  # (key, kind, details): one click
TARGETS = ("target", "relay", "shot")  # a kick's end: a square, a team-mate (a pass), a goal square (a shot)


def _pawn(where: Mapping[tuple[str, int], str], side: str, number: int) -> Step:
    square = where.get((side, number), "")
    return (f"p{number}", "pawn", {"number": number, "square": square})


def steps_of(
    choice: Mapping[str, Any], view: Mapping[str, Any], where: Mapping[tuple[str, int], str], side: str
) -> list[Step]:
    """The clicks that make one choice, each with what its button says."""
    k = str(choice.get("kind"))
    other = "away" if side == "home" else "home"
    ball = str(view.get("ball") or "")
    roll = int(view.get("roll") or 0)
    player = choice.get("player")
    if k in ("roll", "pass", "no_follow", "let_pass"):
        return [(k, k, {})]
    if k == "rebound":
        return [(f"rebound-{choice['side']}", f"rebound_{choice['side']}", {})]
    if k == "warm_up":
        return [("warm", "warm_menu", {}), (f"w{player}", "warm_up", {"number": player})]
    if k == "bench":
        return [(f"b{player}", "bench", {"number": player})]
    if k == "walk":
        return [_pawn(where, side, player), (str(choice["to"]), "walk", {"square": choice["to"]})]
    if k == "ball":
        steps = int(choice["steps"])
        budget = roll - (steps - 1) if steps > 0 else roll
        return [
            _pawn(where, side, player),
            (f"ball{steps}", "ball", {"square": ball, "steps": steps, "budget": budget}),
        ]
    if k == "catch":
        return [_pawn(where, side, player), ("catch", "catch", {"square": ball})]
    if k in ("charge", "foul"):
        victim = int(choice["victim"])
        return [
            _pawn(where, side, player),
            (f"v{victim}", k, {"victim": victim, "square": where.get((other, victim), "")}),
        ]
    if k == "kick":
        path = str(choice["path"]).split(">")
        end = path[-1]
        mate = next((n for (s, n), at in where.items() if s == side and at == end), None)
        target = parse_square(end)
        how = "shot" if target is not None and GOAL_OF[target] >= 0 else ("relay" if mate else "target")
        return [
            (end, how, {"square": end, "mate": mate}),
            (str(choice["path"]), "kick", {"square": end, "path": " → ".join(path), "route": path}),
        ]
    if k == "follow":
        return [_pawn(where, side, player), (str(choice["to"]), "follow", {"square": choice["to"]})]
    if k == "intercept":
        square = where.get((side, player), "")
        return [
            (
                f"p{player}",
                "intercept",
                {"number": player, "square": square, "offer": view.get("offer") or ""},
            )
        ]
    if k == "save":
        sq = str(choice["square"])
        chance = int((view.get("chances") or {}).get(sq, 0))
        return [(sq, "save", {"square": sq, "chance": chance})]
    if k == "keeper":
        return [(str(choice["square"]), "keeper", {"square": choice["square"]})]
    if k == "substitute":
        on, off = choice["on"], choice["off"]
        return [
            (f"on{on}", "sub_on", {"number": on}),
            (f"off{off}", "sub_off", {"number": off, "square": where.get((side, off), "")}),
            (str(choice["to"]), "sub_to", {"square": choice["to"]}),
        ]
    if k == "replace":
        return [(f"r{player}", "replace", {"number": player})]
    if k == "reserve_keeper":
        off = choice["off"]
        return [(f"p{off}", "reserve_keeper", {"number": off, "square": where.get((side, off), "")})]
    if k == "makeshift_keeper":
        return [(f"p{player}", "makeshift", {"number": player, "square": where.get((side, player), "")})]
    if k in ("taker", "wall", "centre"):
        return [_pawn(where, side, player), (str(choice["square"]), k, {"square": choice["square"]})]
    if k == "step":
        return [(str(choice["to"]), "step", {"square": choice["to"]})]
    if k == "kicker":
        return [(f"p{player}", "kicker", {"number": player, "square": where.get((side, player), "")})]
    if k == "collide":
        squares = [str(s) for s in choice["squares"]]
        return [("collide-" + "-".join(squares), "collide", {"squares": squares, "text": ", ".join(squares)})]
    return [(repr(choice), "other", {"text": ", ".join(f"{a}: {b}" for a, b in choice.items())})]


def choice_tree(
    view: Mapping[str, Any],
    choices: Sequence[Mapping[str, Any]],
    where: Mapping[tuple[str, int], str],
    side: str,
) -> list[dict[str, Any]]:
    """The choices as a tree of clicks: inner nodes open (a pawn, a target square, who comes on…), leaves
    answer with the choice's number. Children keep the order of the choices; a target square the ball reaches
    by one route only is one click."""
    root: dict[str, Any] = {"children": [], "index": {}}
    for number, choice in enumerate(choices):
        node = root
        path = steps_of(choice, view, where, side)
        for depth, (key, kind, details) in enumerate(path):
            leaf = depth == len(path) - 1
            child = node["index"].get(key)
            if child is None:
                child = dict(details, key=key, kind=kind, children=[], index={}, pick=None)
                child["squares"] = [s for s in (details.get("route") or [details.get("square")]) if s]
                if kind in TARGETS:
                    child["squares"] = [details["square"]]
                node["index"][key] = child
                node["children"].append(child)
            if leaf and child["pick"] is None:
                child["pick"] = number
            node = child
    return _finish(root["children"], 1)


def _finish(nodes: list[dict[str, Any]], level: int) -> list[dict[str, Any]]:
    out = []
    for n in nodes:
        n.pop("index", None)
        if n["kind"] in TARGETS and len(n["children"]) == 1 and not n["children"][0]["children"]:
            only = n["children"][0]
            # one route: the square is the click, and the button says what the kick is
            only.update(key=n["key"], squares=n["squares"], kind=n["kind"], mate=n.get("mate"))
            n = only
            n.pop("index", None)
        n["level"] = level
        n["leaf"] = not n["children"]
        n["squares_text"] = " ".join(n["squares"])
        n["children"] = _finish(n["children"], level + 1)
        out.append(n)
    return out


# ------------------------------------------------------------------------------------------ the line-up
def lineup_sheet(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The squad sheet of the viewer's own line-up: the 20 with their line, the default eleven ticked, the
    unavailable ones with the reason; the keeper's goal square and the centre columns of lines of three."""
    options = decision.get("options") or {}
    default = decision.get("default") or {}
    chosen = set(default.get("players") or ())
    rows = []
    for p in options.get("squad") or ():
        rows.append(
            {
                "number": p["number"],
                "kind": p["kind"],
                "kind_label": KIND_LABELS[p["kind"]],
                "available": bool(p["available"]),
                "checked": p["number"] in chosen and p["available"],
            }
        )
    groups = [
        {"kind": kind, "label": KIND_LABELS[kind], "rows": [r for r in rows if r["kind"] == kind]}
        for kind in ("keeper", "defender", "midfielder", "attacker")
    ]
    centre = list(default.get("centre") or [5, 5, 5])
    return {
        "groups": groups,
        "formations": list(options.get("formations") or ()),
        "keeper_column": int(default.get("keeper_column") or 5),
        "centre": [
            {"line": line, "label": label, "value": centre[i]}
            for i, (line, label) in enumerate(
                (("defence", N_("Defence")), ("midfield", N_("Midfield")), ("attack", N_("Attack")))
            )
        ],
        "unavailable": [r["number"] for r in rows if not r["available"]],
    }


# ------------------------------------------------------------------------------------------ the clock
def _tracks(view: Mapping[str, Any]) -> dict[str, Any] | None:
    """The clock track of the period being played: cells of six minutes (a counted '1' each, the last one
    the whistle) or, in the fixed-length variant, the rolls against the limit; and the extra-time track."""
    time = view.get("time")
    if not time:
        return None
    done, limit = int(time["done"]), int(time["limit"])
    if time["fixed"]:
        return {
            "fixed": True,
            "extra": bool(time["extra"]),
            "done": done,
            "limit": limit,
            "percent": min(100, round(100 * done / limit)) if limit else 100,
        }
    cells = [{"minute": 6 * (i + 1), "done": i < done, "last": i == limit - 1} for i in range(limit)]
    return {
        "fixed": False,
        "extra": bool(time["extra"]),
        "done": done,
        "limit": limit,
        "minute": 6 * done,
        "cells": cells,
    }


# ------------------------------------------------------------------------------------------ the context
def _lock(label: Any) -> dict[str, Any] | None:
    """The restart taker who may not touch the ball again yet (A-49), from the view's ``H9`` / ``A20``."""
    if not label:
        return None
    return {"side": "home" if str(label)[0] == "H" else "away", "number": int(str(label)[1:])}


def _names(names: Mapping[str, str] | None) -> dict[str, str]:
    return {s: str((names or {}).get(s, "")) for s in SIDES}


def board_context(
    view: Mapping[str, Any],
    choices: Sequence[Mapping[str, Any]] | None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What ``grid_football/board.html`` needs under the name ``board``.

    ``view``: ``FORMAT.view(state, side)``; ``choices``: the viewer's own pending ``Decision.choices`` (None
    for a spectator, the other side and a replay; empty for his line-up, read from the view's
    ``decision``); ``names``: who plays each side (``{"home": "Ann"}``), "Home"/"Away" where missing.
    """
    viewer = view.get("viewer")
    flip = viewer == "away"
    drawn = _BOARDS[flip]
    pawns, where = _pawns(view, flip)
    phase = str(view["phase"])
    over = phase == "over"
    deciding = view.get("deciding")
    score = view["score"]
    mine = choices is not None and not over and viewer is not None
    lineup = None
    if mine and phase == "lineup" and view.get("decision"):
        lineup = lineup_sheet(view["decision"])
    tree = choice_tree(view, choices or (), where, str(viewer)) if mine and choices else []
    lineups = view.get("lineups") or {}
    sides = []
    for i, s in enumerate(SIDES):
        sides.append(
            {
                "key": s,
                "name": _names(names)[s],
                "score": score[i],
                "deciding": not over
                and (deciding == s or (phase == "lineup" and not lineups.get(s, {}).get("chosen"))),
                "lineup_chosen": bool(lineups.get(s, {}).get("chosen")),
                "bottom": (s == "home") != flip,
            }
        )
    ball = view.get("ball")
    holder = view.get("holder")
    ball_ctx = None
    if ball:
        bx, by = centre(ball, flip)
        ball_ctx = {
            "square": ball,
            "cx": bx + (9 if holder else 0),
            "cy": by + (9 if holder else 0),
            "held": bool(holder),
        }
    path = [centre(s, flip) for s in view.get("path") or ()]
    roll = int(view.get("roll") or 0)
    kicks = view.get("kicks") or []
    pens = view.get("pens")
    shootout = None
    if pens is not None:
        shootout = {s: [bool(k[2]) for k in kicks if k[0] == s] for s in SIDES} | {"score": pens}
    period = int(view["period"])
    lead = tree[0]["kind"] if tree else ""
    return {
        "squares": drawn["squares"],
        "grid": drawn["grid"],
        "flip": flip,
        "viewer": viewer,
        "pawns": pawns,
        "ball": ball_ctx,
        "path": {
            "points": " ".join(f"{x},{y}" for x, y in path),
            "squares": " ".join(view.get("path") or ()),
        },
        "sides": sides,
        "sheets": _sheets(view, _names(names)),
        "names": _names(names),
        "phase": phase,
        "deciding": deciding,
        "turn": view.get("turn"),
        "period": {"number": period, "label": PERIOD_LABELS.get(period, ""), "shootout": period == 3},
        "tracks": _tracks(view),
        "die": {"value": roll, "face": DICE_FACES[roll - 1] if 1 <= roll <= 6 else ""},
        "budget": view.get("budget"),
        "offer": view.get("offer") or "",
        "placing": view.get("placing") or "",
        "free_kick": bool(view.get("free_kick")),
        "lock": _lock(view.get("lock")),
        "chances": view.get("chances") or {},
        "mine": mine and (bool(tree) or lineup is not None),
        "tree": tree,
        "lead": lead,
        "lineup": lineup,
        "lineups": {s: bool(lineups.get(s, {}).get("chosen")) for s in SIDES},
        "my_lineup": ", ".join(str(n) for n in (lineups.get(str(viewer), {}) or {}).get("players") or ()),
        "last": str(view.get("last") or ""),
        "kind_labels": KIND_LABELS,
        "legend": LEGEND,
        "over": over,
        "result": full_time(view),
        "shootout": shootout,
        "seq": "-".join(
            str(v)
            for v in (
                period,
                view.get("clock"),
                view.get("rolls"),
                phase,
                deciding,
                ball,
                *score,
                len(kicks),
                view.get("last"),
            )
        ),
    }
