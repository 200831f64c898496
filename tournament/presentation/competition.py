"""The pages of a room of another game (``tournament/rules/competition.py``): what its regions draw.

One page shape for every game (docs/UI.md, "The seeds' other games"): the match on the board (mine when I
play one, else the live matches for a spectator), who decides what, the score and the clock in the board
itself, the cup's bracket or the league's table beside it, the players, the log. Each game brings its
board (``Game.board``, ``Game.board_context``); everything here is the same for every game.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext

from games.api import get_game
from tournament.presentation.eventlog import absence_text, round_label
from tournament.presentation.present import choosing, names
from tournament.rules.competition import MAGIC_FOOTBALL


def game_title(key: str) -> str:
    """A game's name in the reader's language."""
    return gettext(get_game(key).title)


def _side(seat: int | None, nick: dict[int, str]) -> dict[str, Any]:
    return {"seat": seat, "name": nick.get(seat, "?") if seat is not None else "?"}


def match_card(m: dict[str, Any], nick: dict[int, str]) -> dict[str, Any]:
    """A match as the competition panels list it: who plays whom, the score, the winner."""
    return {
        "number": m["number"],
        "status": m["status"],
        "home": _side(m["home"], nick),
        "away": _side(m["away"], nick),
        "score": m["score"],
        "penalties": m.get("penalties"),
        "decided_by": m.get("decided_by") or "",
        "winner": m.get("winner"),
        "points": m.get("points"),  # a game's own points scheme (CP6): [home, away] once finished
        "round": round_label(f"round_{m['round']}") if m.get("round") else "",
    }


def standings(view: dict[str, Any]) -> dict[str, Any]:
    """The TV panel: a league's table, or a cup's rounds with their matches and byes."""
    comp = view.get("competition") or {}
    nick = names(view)
    table = [
        dict(row, name=nick.get(row["seat"], "?"), form=list(row.get("form", [])))
        for row in view.get("table", [])
    ]
    rounds = [
        {
            "name": round_label(r["name"]),
            "matches": [match_card(m, nick) for m in r["matches"]],
            "byes": [_side(s, nick) for s in r.get("byes", [])],
            "current": r["round"] == comp.get("round"),
        }
        for r in view.get("bracket", [])
    ]
    matches = [match_card(m, nick) for m in view.get("matches", [])]
    return {
        "kind": comp.get("kind", ""),
        "table": table,
        "rounds": rounds,
        "matches": matches,
        # CP6: the table counts the game's own points, and how each match was won or lost
        "scheme": bool(view.get("points_scheme")),
    }


def absent(m: dict[str, Any], nick: dict[int, str]) -> list[dict[str, Any]]:
    """The players of a match who may not play it, carried from earlier matches (CP7), and why: each with
    the seat whose player he is, his squad number and the reason in the reader's language."""
    out = []
    for side in ("home", "away"):
        for a in (m.get("absent") or {}).get(side, []):
            seat = m.get(side)
            out.append(
                {"seat": seat, "name": nick.get(seat, "?"), "player": a["player"], "why": absence_text(a)}
            )
    return out


def players(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Everyone at the table: who plays, who is a bot, who decides now, each seat's record so far."""
    deciding = {p["seat"] for p in view.get("prompts", []) if p.get("seat") is not None}
    record: dict[int, list[int]] = {}
    for m in view.get("matches", []):
        if m["status"] != "finished":
            continue
        for seat in (m["home"], m["away"]):
            won = m.get("winner") == seat
            lost = m.get("winner") not in (None, seat)
            counts = record.setdefault(seat, [0, 0, 0])
            counts[0 if won else 2 if lost else 1] += 1
    out = []
    for s in view.get("seats", []):
        counts = record.get(s["seat"], [0, 0, 0])
        w, d, lost = counts
        out.append(
            dict(
                s,
                me=view.get("seat") == s["seat"],
                deciding=s["seat"] in deciding,
                won=w,
                drawn=d,
                lost=lost,
                playing=any(
                    m["status"] == "playing" and s["seat"] in (m["home"], m["away"])
                    for m in view.get("matches", [])
                ),
            )
        )
    return out


def banner(view: dict[str, Any]) -> dict[str, Any]:
    """The line at the top: the game, the round, whose decision it is, or the winner."""
    comp = view.get("competition") or {}
    nick = names(view)
    winner = view.get("winner") or {}
    me = view.get("seat")
    mine = bool(view.get("my_prompts"))
    deciding = sorted({nick.get(p["seat"], "?") for p in view.get("prompts", []) if p.get("seat") != me})
    return {
        "game": game_title(view["game"]),
        "round": round_label(comp.get("round_name")) if comp else "",
        "status": view.get("status"),
        "my_turn": mine,
        "deciding": deciding,
        "winner": nick.get(winner.get("seat")) if winner.get("seat") is not None else "",
        "drawn": view.get("status") == "finished" and winner.get("seat") is None,
        "competition": comp.get("kind", ""),
    }


def boards(view: dict[str, Any], version: int | None) -> list[dict[str, Any]]:
    """The boards of the page: my match (from my side, with my decision's choices) when I play or played
    one, else every live match as a spectator sees it. Each: the game's template and its context."""
    game = get_game(view["game"])
    if not game.board or game.board_context is None:
        return []
    nick = names(view)
    mine = view.get("match")
    out = []
    if mine is not None and mine.get("engine") is not None:
        prompt = (view.get("my_prompts") or [None])[0] if choosing(view) else None
        choices = prompt["choices"] if prompt is not None else None
        out.append(
            {
                "template": game.board,
                "title": _title(mine, nick),
                "number": mine["number"],
                "board": game.board_context(mine["engine"], choices, _sides(mine, nick)),
                "prompt_id": prompt["id"] if prompt is not None else "",
                "version": version if prompt is not None else "",
                "mine": True,
                "absent": absent(mine, nick),
            }
        )
        return out
    for m in view.get("matches", []):
        engine = (view.get("live") or {}).get(str(m["number"]))
        if engine is None:
            continue
        out.append(
            {
                "template": game.board,
                "title": _title(m, nick),
                "number": m["number"],
                "board": game.board_context(engine, None, _sides(m, nick)),
                "prompt_id": "",
                "version": "",
                "mine": False,
                "absent": absent(m, nick),
            }
        )
    return out


def _sides(m: dict[str, Any], nick: dict[int, str]) -> dict[str, str]:
    return {"home": nick.get(m["home"], "?"), "away": nick.get(m["away"], "?")}


def _title(m: dict[str, Any], nick: dict[int, str]) -> str:
    return gettext("%(home)s v %(away)s") % {
        "home": nick.get(m["home"], "?"),
        "away": nick.get(m["away"], "?"),
    }


def board_assets(key: str) -> dict[str, list[str]]:
    """The stylesheets and scripts a room's pages load for its boards (``Game.board_assets``), as static
    URLs: its game's; in Magic Football, those of every game its matches may be played as (R20), since the
    host may switch the house rule after the page was loaded."""
    from django.templatetags.static import static

    from tournament.rules.setup import match_formats

    keys = [k for k in match_formats() if k != "duel"] if key == MAGIC_FOOTBALL else [key]
    # what the boards share (the board kit) is listed by each game: loaded once, before the first board's own
    assets = list(dict.fromkeys(a for k in keys for a in get_game(k).board_assets))
    return {
        "css": [static(a) for a in assets if a.endswith(".css")],
        "js": [static(a) for a in assets if a.endswith(".js")],
    }


def lobby(view: dict[str, Any]) -> dict[str, Any]:
    """The lobby's house rules of such a room: the game, the competition, the options, the timer."""
    rules = view.get("house_rules") or {}
    game = get_game(view["game"])
    chosen = rules.get("options") or {}
    options = []
    for option in game.options:
        label = next((text for value, text in option.choices if value == chosen.get(option.key)), "")
        options.append({"label": gettext(option.label), "value": gettext(label) if label else ""})
    kind = rules.get("competition", "single")
    timer = rules.get("decision_timer")
    return {
        "game": gettext(game.title),
        "competition": {
            "single": gettext("One match"),
            "cup": gettext("A knock-out cup"),
            "league": gettext("A league: everyone plays everyone"),
        }.get(kind, kind),
        "options": options,
        "timer_label": gettext("no timer") if not timer else gettext("%(n)s seconds") % {"n": timer},
    }
