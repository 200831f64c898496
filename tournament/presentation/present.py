"""From a projection to what the templates draw: board geometry, cards, prompts, the duel, the bracket.

Everything here reads only the viewer's projection (``tournament.rules.projection.project`` via
``tournament.selectors.view_for``) and the catalog, so a page render, an htmx response and a websocket push
of the same version for the same viewer show exactly the same thing — and nothing the viewer may not see.
Card ids appear in the output only where the projection gave them to this viewer (his own cards, which the
forms need); public cards are shown by name.
"""

from __future__ import annotations

import functools
import uuid
from typing import Any

from django.templatetags.static import static
from django.utils.translation import gettext, gettext_lazy, pgettext_lazy

from cards.catalog import Catalog, SquareKind
from games.api import get_game
from tournament.presentation.eventlog import (
    Labels,
    LogLine,
    country_name,
    match_card_name,
    money_text,
    period_label,
    reading_dutch,
    square_kind_label,
)
from tournament.services import timers

# The board: 40 squares on the rim of a 13 × 9 grid, Start in the bottom-right corner, clockwise
# (along the bottom to the left, up the left side, along the top, down the right side), like
# static/img/board.svg on the landing page.
COLS = 13
ROWS = 9
CELL = 64
BOARD_W = COLS * CELL
BOARD_H = ROWS * CELL
FLAG_DIR = "vendor/flag-icons-7.5.0/flags/4x3/"
KIND_ICONS = {
    "start": "flag-triangle-right",
    "training": "dumbbell",
    "credit": "banknote-arrow-up",
    "debet": "banknote-arrow-down",
    "field": "shirt",
    "keeper": "hand",
    "luck": "clover",
    "risk": "triangle-alert",
    "country": "flag",
    "match": "swords",
    "money": "coins",
}
SPRITE_ICONS = (*KIND_ICONS.values(), "trophy", "piggy-bank", "crown", "shield")


def cell(index: int) -> tuple[int, int]:
    """(column, row) of a track square on the 13 × 9 rim."""
    i = index % (2 * (COLS + ROWS) - 4)
    if i <= COLS - 1:
        return COLS - 1 - i, ROWS - 1
    if i <= COLS - 1 + ROWS - 1:
        return 0, ROWS - 1 - (i - (COLS - 1))
    if i <= 2 * (COLS - 1) + ROWS - 1:
        return i - (COLS - 1 + ROWS - 1), 0
    return COLS - 1, i - (2 * (COLS - 1) + ROWS - 1)


def centre_percent(index: int) -> tuple[float, float]:
    """Where a square's centre lies on the board, in percent of its width and height (for the pawn)."""
    col, row = cell(index)
    return round((col + 0.5) * 100 / COLS, 3), round((row + 0.5) * 100 / ROWS, 3)


def new_action_id() -> str:
    """A fresh client action id for one form (a double click then is a harmless duplicate)."""
    return uuid.uuid4().hex


def flag_url(cat: Catalog, country: str | None) -> str:
    """The vendored flag of a country (its URL resolved once per process: every board draws dozens)."""
    c = cat.countries.get(country or "")
    return _flag_static(c.flag) if c else ""


@functools.cache
def _flag_static(flag: str) -> str:
    return static(f"{FLAG_DIR}{flag}.svg")


def stars_text(n: int) -> str:
    """ "★★★★☆": filled stars, padded with empty ones to five."""
    n = max(0, int(n))
    return "★" * n + "☆" * max(0, 5 - n)


position_label = Labels(
    {
        "GK": pgettext_lazy("position", "Keeper"),
        "DF": pgettext_lazy("position", "Defender"),
        "MF": pgettext_lazy("position", "Midfielder"),
        "FW": pgettext_lazy("position", "Forward"),
    }
)
"""The translated position of a player."""


def card(cat: Catalog, card_id: str, *, with_id: bool = False, stars: int | None = None) -> dict[str, Any]:
    """A player card (field, keeper or rival) as the templates draw it."""
    p = cat.player(card_id)
    kind = p.kind.value
    out: dict[str, Any] = {
        "name": p.name,
        "stars": p.stars if stars is None else stars,
        "printed": p.stars,
        "stars_text": stars_text(p.stars if stars is None else stars),
        "keeper": kind == "keeper" or p.position == "GK",
        "rival": kind == "rival",
        "position": position_label(p.position),
        "country": p.country,
        "country_name": country_name(cat, p.country) if p.country else "",
        "flag": (cat.countries[p.country].flag if p.country in cat.countries else ""),
        "frame": "keeper" if kind == "keeper" else ("rival" if kind == "rival" else "field"),
    }
    if with_id:
        out["id"] = card_id
    return out


def match_card(cat: Catalog, card_id: str, *, with_id: bool = False) -> dict[str, Any]:
    """A match card: name and text in the reader's language, colour, target, P/C badges."""
    mc = cat.match_cards[card_id]
    nl = reading_dutch()
    out: dict[str, Any] = {
        "name": match_card_name(cat, card_id),
        "text": mc.text_nl if nl else mc.text_en,
        "color": mc.color.value,
        "target": mc.target.value,
        "penalty_ok": mc.penalty_ok,
        "corner_ok": mc.corner_ok,
        "effect": mc.effect.kind,
    }
    if with_id:
        out["id"] = card_id
    return out


def country(cat: Catalog, cid: str | None) -> dict[str, Any] | None:
    """A country: name, flag, class."""
    if not cid or cid not in cat.countries:
        return None
    c = cat.countries[cid]
    return {
        "id": cid,
        "name": country_name(cat, cid),
        "flag": c.flag,
        "flag_url": flag_url(cat, cid),
        "klass": c.klass,
    }


def pre_qualified(cat: Catalog, cid: str | None, mode: str) -> dict[str, Any] | None:
    """The previous game's Cup winner a new game starts with (R18): the country, and whether it is
    qualified in this mode (a European Championship pre-qualifies only a European winner)."""
    found = country(cat, cid)
    if found is None:
        return None
    return {"country": found, "applies": mode != "euro" or cat.countries[cid].european}


# ------------------------------------------------------------------------------------------ seats


def role_label(role: str) -> str:
    """Trainer or national coach."""
    return gettext("National coach") if role == "bc" else gettext("Trainer")


def seats(view: dict[str, Any], cat: Catalog) -> list[dict[str, Any]]:
    """Everyone's public status, in seat order."""
    deciding = {p["seat"]: p["kind"] for p in view.get("prompts", []) if p.get("seat") is not None}
    out = []
    for s in view.get("seats", []):
        row = dict(s)
        row["me"] = view.get("seat") == s["seat"]
        row["active"] = view.get("active_seat") == s["seat"]
        row["deciding"] = deciding.get(s["seat"])
        row["role_label"] = role_label(s.get("role", "trainer"))
        row["country_info"] = country(cat, s.get("country"))
        row["money_text"] = money_text(s["money"]) if s.get("money") is not None else ""
        out.append(row)
    return out


def names(view: dict[str, Any]) -> dict[int, str]:
    """Nicknames by seat."""
    return {s["seat"]: s["nickname"] for s in view.get("seats", [])}


# ------------------------------------------------------------------------------------------ board


def board(view: dict[str, Any], cat: Catalog) -> dict[str, Any]:
    """The track with every square, the centre (Bonus Fund, open cards) and the pawn's position."""
    by_index = {sq["index"]: sq for sq in view.get("squares", [])}
    nick = names(view)
    squares = []
    for sq in cat.board.squares:
        col, row = cell(sq.index)
        kind = sq.kind.value
        entry: dict[str, Any] = {
            "index": sq.index,
            "kind": kind,
            "x": col * CELL,
            "y": row * CELL,
            "icon": KIND_ICONS[kind],
            "label": square_kind_label(kind),
            "pawn": view.get("pawn") == sq.index,
        }
        entry["long"] = len(entry["label"]) > 8  # squeezed into the square (SVG textLength)
        if sq.kind is SquareKind.COUNTRY:
            info = by_index.get(sq.index, {"status": "empty", "country": None, "coach": None, "marker": None})
            entry["status"] = info["status"]
            entry["country"] = country(cat, info.get("country"))
            entry["coach"] = info.get("coach")
            entry["coach_name"] = nick.get(info.get("coach")) if info.get("coach") else ""
            entry["marker"] = info.get("marker")
            entry["title"] = _square_title(entry)
        else:
            entry["title"] = entry["label"]
        entry["aria"] = square_aria(entry)
        squares.append(entry)
    left, top = centre_percent(int(view.get("pawn") or 0))
    open_cards = view.get("open_cards") or {}
    return {
        "width": BOARD_W,
        "height": BOARD_H,
        "cell": CELL,
        "squares": squares,
        "bonus_fund": view.get("bonus_fund") or 0,
        "bonus_fund_text": money_text(view.get("bonus_fund") or 0),
        "open_field": _open_card(cat, open_cards.get("field")),
        "open_keeper": _open_card(cat, open_cards.get("keeper")),
        "open_field_title": gettext("Open field player"),
        "open_keeper_title": gettext("Open keeper"),
        "pawn": {"square": view.get("pawn") or 0, "left": left, "top": top, "seat": view.get("active_seat")},
        "markers_placed": sum(1 for v in (view.get("markers") or {}).values() if v is not None),
        "markers_total": len(view.get("markers") or {}),
        "piles": view.get("piles") or {},
    }


def _open_card(cat: Catalog, c: dict[str, Any] | None) -> dict[str, Any] | None:
    if not c:
        return None
    p = cat.player(c["id"])
    return {
        "name": p.name,
        "name_lines": name_lines(p.name),
        "stars": p.stars,
        "stars_text": stars_text(p.stars),
        "position": position_label(p.position),
        "price_text": money_text(p.stars * 100_000),
        "keeper": c.get("keeper", False),
    }


OPEN_CARD_LINE = 13
"""The most letters a line of an open card's name on the board may hold: an SVG text does not wrap, and
13 letters of the widest names ("Radosavljević", "Vanderhaegen") are as wide as the card's face."""


def name_lines(name: str) -> list[str]:
    """A name as the open cards on the board write it: whole on one line when it is short, else on two
    lines split at the space nearest its middle ("Alessandro" / "Pellizzari")."""
    if len(name) <= OPEN_CARD_LINE or " " not in name:
        return [name]
    spaces = [i for i, ch in enumerate(name) if ch == " "]
    cut = min(spaces, key=lambda i: (max(i, len(name) - i - 1), i))
    return [name[:cut], name[cut + 1 :]]


def square_aria(sq: dict[str, Any]) -> str:
    """What a screen reader says for a square: "Square 12: Brazil, class 6, contracted by Anna"."""
    n = sq["index"]
    c = sq.get("country")
    status = sq.get("status")
    if sq["kind"] != "country":
        text = gettext("Square %(n)s: %(kind)s") % {"n": n, "kind": sq["label"]}
    elif status == "marker":
        text = gettext("Square %(n)s: marker %(m)s, country eliminated") % {"n": n, "m": sq.get("marker")}
    elif not c:
        text = gettext("Square %(n)s: country square, empty") % {"n": n}
    elif status == "contracted":
        text = gettext("Square %(n)s: %(country)s, class %(klass)s, contracted by %(coach)s") % {
            "n": n,
            "country": c["name"],
            "klass": c["klass"],
            "coach": sq.get("coach_name") or "?",
        }
    elif status == "rival":
        text = gettext("Square %(n)s: %(country)s, class %(klass)s, rival") % {
            "n": n,
            "country": c["name"],
            "klass": c["klass"],
        }
    else:
        text = gettext("Square %(n)s: %(country)s, class %(klass)s, qualified") % {
            "n": n,
            "country": c["name"],
            "klass": c["klass"],
        }
    if sq.get("pawn"):
        text = gettext("%(square)s; the pawn is here") % {"square": text}
    return text


def _square_title(sq: dict[str, Any]) -> str:
    c = sq.get("country")
    status = sq.get("status")
    if status == "marker":
        return gettext("Marker %(n)s: country eliminated") % {"n": sq.get("marker")}
    if not c:
        return gettext("Country square: empty")
    if status == "contracted":
        return gettext("%(country)s (class %(klass)s): national coach %(coach)s") % {
            "country": c["name"],
            "klass": c["klass"],
            "coach": sq.get("coach_name") or "?",
        }
    if status == "rival":
        return gettext("%(country)s (class %(klass)s): rival") % {"country": c["name"], "klass": c["klass"]}
    return gettext("%(country)s (class %(klass)s): qualified") % {"country": c["name"], "klass": c["klass"]}


# ------------------------------------------------------------------------------------------ my cards


def hand(view: dict[str, Any], cat: Catalog) -> dict[str, Any] | None:
    """My team (field players strongest first, the keeper apart) and my match cards."""
    me = view.get("me")
    if not me:
        return None
    team = me.get("team") or []
    field = sorted((c for c in team if not c["keeper"]), key=lambda c: (-c["stars"], c["name"]))
    keepers = [c for c in team if c["keeper"]]
    return {
        "field": [card(cat, c["id"]) for c in field],
        "keepers": [card(cat, c["id"]) for c in keepers],
        "holding": [match_card(cat, c) for c in me.get("holding") or []],
        "selection": [
            (match_card(cat, c) if c.startswith("M") else card(cat, c)) for c in me.get("selection") or []
        ],
        "field_count": len(field),
        "keeper_count": len(keepers),
    }


# ------------------------------------------------------------------------------------------ prompts


prompt_label = Labels(
    {
        "roll": gettext_lazy("is to roll the die"),
        "buy": gettext_lazy("is deciding whether to buy the open card"),
        "contract": gettext_lazy("is deciding whether to sign a contract"),
        "luck": gettext_lazy("is choosing where to go (Luck)"),
        "return_card": gettext_lazy("is choosing a card to give back"),
        "discard_match": gettext_lazy("is choosing a match card to discard"),
        "marker": gettext_lazy("is choosing what to take (Marker)"),
        "keep_selection": gettext_lazy("is picking the team"),
        "ac_keep": gettext_lazy("is choosing which match cards to keep"),
        "lineup": gettext_lazy("is setting the line-up"),
        "window": gettext_lazy("may play a match card"),
    },
    default=gettext_lazy("is deciding"),
)
"""What a participant is deciding, for everyone else."""


def others_deciding(view: dict[str, Any]) -> list[dict[str, Any]]:
    """Public: who is deciding what (not my own prompts)."""
    nick = names(view)
    out = []
    for p in view.get("prompts", []):
        if p.get("seat") == view.get("seat") and view.get("seat") is not None:
            continue
        out.append(
            {
                "seat": p.get("seat"),
                "name": nick.get(p.get("seat"), gettext("the house bot")),
                "label": prompt_label(p["kind"]),
                "kind": p["kind"],
            }
        )
    return out


def held_by_bot(view: dict[str, Any]) -> bool:
    """The host has handed the viewer's seat to a bot (``seat_bot``): the bot takes its decisions (R19c).
    Only while the game goes on: once it is over nobody decides, and the notice would only confuse."""
    me = view.get("seat")
    if me is None or view.get("status") not in ("running", "paused"):
        return False
    return any(s["seat"] == me and s.get("takeover") for s in view.get("seats", []))


def choosing(view: dict[str, Any]) -> bool:
    """The viewer may answer his decisions on a board now: not while the host pauses the game (the server
    refuses every answer then, so a board offers no choice) and not while a bot holds his seat."""
    return view.get("status") == "running" and not held_by_bot(view)


def host_name(view: dict[str, Any]) -> str:
    """The nickname of the host when he plays (the pages name who can give a seat back), else ""."""
    return next((s["nickname"] for s in view.get("seats", []) if s.get("host")), "")


def decision_timer(view: dict[str, Any], now_ms: int) -> dict[str, Any] | None:
    """The decision timer of my first open decision (R19a–b), or None: its deadline in server time (or the
    milliseconds left while paused) for the page's script, and the seconds left at ``now_ms`` as the
    page first shows them."""
    mine = view.get("my_prompts") or []
    if not mine or held_by_bot(view):
        return None
    public = next((p for p in view.get("prompts", []) if p["id"] == mine[0]["id"]), None)
    if public is None:
        return None
    seconds = timers.seconds_left(public, now_ms)
    if seconds is None:
        return None
    return {
        "deadline": public.get("deadline"),
        "left": public.get("left"),
        "paused": public.get("left") is not None,
        "seconds": seconds,
    }


def prompts(view: dict[str, Any], cat: Catalog) -> list[dict[str, Any]]:
    """My pending decisions, each with what its form needs (none while a bot holds my seat)."""
    out: list[dict[str, Any]] = []
    if held_by_bot(view):
        return out
    version = view.get("version")
    match = view.get("match") or {}
    for p in view.get("my_prompts", []):
        entry: dict[str, Any] = {
            "id": p["id"],
            "kind": p["kind"],
            "template": p["kind"],
            "version": version,
            "action_id": new_action_id(),
            "default": p.get("default") or {},
        }
        opts = p.get("options") or {}
        kind = p["kind"]
        if opts.get("match") is not None and match.get("format", "duel") != "duel":
            # a match played as another game (R20): its board above holds the choices
            entry["template"] = "on_board"
            entry["game"] = gettext(get_game(match["format"]).title)
        elif kind == "buy":
            entry["card"] = card(cat, opts["card"])
            entry["price_text"] = money_text(opts.get("price", 0))
            entry["box"] = opts.get("kind")
        elif kind == "contract":
            entry["country"] = country(cat, opts.get("country"))
            entry["cost_text"] = money_text(opts.get("cost", 0))
        elif kind == "luck":
            entry["squares"] = _luck_options(view, cat, [c["square"] for c in p["choices"]])
            entry["default_square"] = (p.get("default") or {}).get("square")
        elif kind == "return_card":
            entry["cards"] = [
                dict(card(cat, c, with_id=True), default=c == (p.get("default") or {}).get("card"))
                for c in opts.get("cards", [])
            ]
        elif kind == "discard_match":
            entry["cards"] = [
                dict(match_card(cat, c, with_id=True), default=c == (p.get("default") or {}).get("card"))
                for c in opts.get("cards", [])
            ]
        elif kind == "marker":
            takes = [c["take"] for c in p["choices"]]
            entry["takes"] = takes
            entry["field"] = _open_card(cat, {"id": opts["field"]}) if opts.get("field") else None
            entry["keeper"] = (
                _open_card(cat, {"id": opts["keeper"], "keeper": True}) if opts.get("keeper") else None
            )
            entry["default_take"] = (p.get("default") or {}).get("take")
        elif kind == "keep_selection":
            default = p.get("default") or {}
            keep = set(default.get("field") or [])
            entry["field"] = sorted(
                (dict(card(cat, c, with_id=True), checked=c in keep) for c in opts.get("field", [])),
                key=lambda c: (-c["stars"], c["name"]),
            )
            entry["keepers"] = [
                dict(card(cat, c, with_id=True), checked=c == default.get("keeper"))
                for c in opts.get("keepers", [])
            ]
            entry["keep_field"] = opts.get("keep_field", 11)
        elif kind == "ac_keep":
            keep = set((p.get("default") or {}).get("keep") or [])
            entry["cards"] = [
                dict(match_card(cat, c, with_id=True), checked=c in keep) for c in opts.get("cards", [])
            ]
            entry["room"] = opts.get("room", 0)
        elif kind == "lineup":
            entry.update(_lineup(view, cat, p))
        elif kind == "window":
            entry.update(_window(view, cat, p))
        out.append(entry)
    return out


def _luck_options(view: dict[str, Any], cat: Catalog, allowed: list[int]) -> list[dict[str, Any]]:
    by_index = {sq["index"]: sq for sq in view.get("squares", [])}
    nick = names(view)
    out = []
    for idx in allowed:
        kind = cat.board.squares[idx].kind.value
        label = square_kind_label(kind)
        if kind == "country":
            info = by_index.get(idx) or {}
            c = country(cat, info.get("country"))
            status = info.get("status", "empty")
            if status == "marker":
                label = gettext("Marker (eliminated country)")
            elif c is None:
                label = gettext("Empty country square")
            elif status == "contracted":
                label = gettext("%(country)s (class %(klass)s, coach %(coach)s)") % {
                    "country": c["name"],
                    "klass": c["klass"],
                    "coach": nick.get(info.get("coach"), "?"),
                }
            else:
                label = gettext("%(country)s (class %(klass)s)") % {"country": c["name"], "klass": c["klass"]}
        out.append({"index": idx, "label": f"{idx:>2} · {label}"})
    return out


def _lineup(view: dict[str, Any], cat: Catalog, p: dict[str, Any]) -> dict[str, Any]:
    """Rows of the line-up editor: the default order, then the reserve."""
    decision = (p.get("options") or {}).get("decision") or {}
    default = p.get("default") or {}
    order = list(default.get("order") or [])
    reserve = default.get("reserve")
    known = set(order) | ({reserve} if reserve else set())
    rest = [f["id"] for f in decision.get("field", []) if f["id"] not in known]
    rows = []
    for cid in [*order, *rest, *([reserve] if reserve else [])]:
        rows.append(dict(card(cat, cid, with_id=True), reserve=cid == reserve))
    keeper = decision.get("keeper") or {}
    return {
        "rows": rows,
        "keeper": card(cat, keeper["id"]) if keeper.get("id") else None,
        "period": period_label(decision.get("period")),
        "reserve_required": bool(decision.get("reserve_required")),
        "order_size": decision.get("order_size", len(order)),
    }


def _window(view: dict[str, Any], cat: Catalog, p: dict[str, Any]) -> dict[str, Any]:
    choices = p.get("choices") or []
    playable = [c["card"] for c in choices if c.get("kind") == "play"]
    match = view.get("match") or {}
    engine = match.get("engine") or {}
    side = match.get("my_side")
    mine = (engine.get("sides") or {}).get(side or "", {})
    holding = [*(mine.get("holding") or []), *(mine.get("extra_time_holding") or [])]
    return {
        "can_swap": any(c.get("kind") == "swap" for c in choices),
        "playable": [match_card(cat, c, with_id=True) for c in playable],
        "unplayable": [match_card(cat, c) for c in holding if c not in playable],
        "window_kind": ((p.get("options") or {}).get("decision") or {}).get("window", "main"),
        "swaps_left": mine.get("swaps_left"),
        "reserve": card(cat, mine["reserve"]) if mine.get("reserve") else None,
    }


# ------------------------------------------------------------------------------------------ the duel


def match_kind_label(kind: str, slot: str = "") -> str:
    """ "Quarter-final A", "Challenge", …"""
    if kind == "challenge":
        return gettext("Challenge")
    if kind == "qf":
        return gettext("Quarter-final %(slot)s") % {"slot": slot}
    if kind == "sf":
        return gettext("Semi-final")
    if kind == "f":
        return gettext("Final")
    return kind


def _coach_label(side: dict[str, Any] | None, nick: dict[int, str]) -> str:
    if not side:
        return ""
    if side.get("seat") is None or side.get("role") == "bot":
        return gettext("house bot")
    name = nick.get(side["seat"], "?")
    if side.get("role") == "ac":
        return gettext("%(name)s (assistant coach)") % {"name": name}
    return name


def duel(view: dict[str, Any], cat: Catalog) -> dict[str, Any] | None:
    """The running match as this viewer may see it: both cards in action, modifiers, score, window."""
    match = view.get("match")
    if not match:
        return None
    if match.get("format", "duel") != "duel":
        return _game_match(view, cat, match)
    engine = match.get("engine") or {}
    nick = names(view)
    sides_view = engine.get("sides") or {}
    window = engine.get("window") or {}
    plays_by_target: dict[str, list[dict[str, Any]]] = {"home": [], "away": []}
    sides = []
    for name in ("home", "away"):
        sv = sides_view.get(name) or {}
        meta = match.get(name) or {}
        active = sv.get("active")
        active_card = None
        if active:
            active_card = card(cat, active["card"], stars=active.get("effective", active.get("stars")))
            active_card["printed"] = active.get("stars")
            active_card["effective"] = active.get("effective")
            active_card["is_keeper"] = active.get("keeper")
            active_card["modifiers"] = [
                {
                    "name": match_card_name(cat, m["card"]),
                    "color": cat.match_cards[m["card"]].color.value if m["card"] in cat.match_cards else "",
                    "set": m.get("set"),
                    "value": m.get("value"),
                }
                for m in active.get("modifiers", [])
            ]
        sides.append(
            {
                "name": name,
                "country": country(cat, meta.get("country") or sv.get("label")),
                "coach": _coach_label(meta, nick),
                "coach_seat": meta.get("seat"),
                "mine": match.get("my_side") == name,
                "active": active_card,
                "stack_count": sv.get("stack_count", 0),
                "spent": [card(cat, c) for c in sv.get("spent", [])],
                "swaps_left": sv.get("swaps_left"),
                "holding_count": sv.get("holding_count", 0),
                "played": [match_card(cat, c) for c in sv.get("played", [])],
                "lineup_pending": sv.get("lineup_pending", False),
                "reserve": card(cat, sv["reserve"]) if sv.get("reserve") else None,
                "to_decide": name in (engine.get("to_decide") or []),
                "keeper_first": engine.get("keeper_first") == name,
            }
        )
    for play in window.get("plays", []):
        plays_by_target.setdefault(play["side"], []).append(match_card(cat, play["card"]))
    moment = engine.get("moment")
    moment_info = None
    if moment:
        moment_info = {
            "kind": moment["kind"],
            "side": moment["side"],
            "country": country(cat, (match.get(moment["side"]) or {}).get("country")),
            "header": card(cat, moment["header"]["card"], stars=moment["header"]["effective"])
            if moment.get("header")
            else None,
            "keeper": card(cat, moment["keeper"]["card"], stars=moment["keeper"]["effective"])
            if moment.get("keeper")
            else None,
        }
    goal = engine.get("goal")
    goal_info = None
    if goal:
        goal_info = {
            "side": goal["side"],
            "disallowed": goal.get("disallowed"),
            "country": country(cat, (match.get(goal["side"]) or {}).get("country")),
            "card": card(cat, goal["card"]),
        }
    pens = engine.get("penalty_series")
    pens_info = None
    if pens:
        kicks: dict[str, list[bool]] = {"home": [], "away": []}
        for k in pens.get("kicks", []):
            kicks[k["side"]].append(bool(k["scored"]))
        pens_info = {"score": pens.get("score"), "home": kicks["home"], "away": kicks["away"]}
    turn = window.get("turn")
    turn_side = next((s for s in sides if s["name"] == turn), None)
    result = engine.get("result")
    return {
        "number": match.get("number"),
        "kind_label": match_kind_label(match.get("kind", ""), match.get("slot", "")),
        "period": engine.get("period"),
        "period_label": period_label(engine.get("period")),
        "phase": engine.get("phase"),
        "score": engine.get("score") or match.get("score") or [0, 0],
        "sides": sides,
        "home": sides[0],
        "away": sides[1],
        "my_side": match.get("my_side"),
        "window_kind": window.get("kind"),
        "turn": turn,
        "turn_country": turn_side["country"] if turn_side else None,
        "turn_coach": turn_side["coach"] if turn_side else "",
        "turn_mine": bool(turn_side and turn_side["mine"]),
        "lineups": [s for s in sides if s["lineup_pending"]],
        "moment": moment_info,
        "goal": goal_info,
        "penalties": pens_info,
        "periods": engine.get("periods") or [],
        "window_plays": plays_by_target,
        "result": result,
    }


def _game_match(view: dict[str, Any], cat: Catalog, match: dict[str, Any]) -> dict[str, Any]:
    """A match played as another game (house rule R20): the countries and coaches above, the game's own
    board below, drawn from this viewer's side with the choices of his pending decision in it."""
    game = get_game(match["format"])
    nick = names(view)
    engine = match.get("engine") or {}
    number = match.get("number")
    mine = [p for p in view.get("my_prompts", []) if (p.get("options") or {}).get("match") == number]
    prompt = mine[0] if mine and choosing(view) else None
    sides = []
    for name in ("home", "away"):
        meta = match.get(name) or {}
        sides.append(
            {
                "name": name,
                "country": country(cat, meta.get("country")),
                "coach": _coach_label(meta, nick),
                "coach_seat": meta.get("seat"),
                "mine": match.get("my_side") == name,
            }
        )
    label = {s["name"]: s["country"]["name"] if s["country"] else s["coach"] for s in sides}
    return {
        "number": match.get("number"),
        "kind_label": match_kind_label(match.get("kind", ""), match.get("slot", "")),
        "period_label": gettext(game.title),
        "score": engine.get("score") or match.get("score") or [0, 0],
        "sides": sides,
        "home": sides[0],
        "away": sides[1],
        "my_side": match.get("my_side"),
        "game": {
            "title": gettext(game.title),
            "template": game.board,
            "board": game.board_context(engine, prompt["choices"] if prompt else None, label),
            "prompt_id": prompt["id"] if prompt else "",
            "version": view.get("version") if prompt else "",
        },
        "result": engine.get("result"),
    }


# ------------------------------------------------------------------------------------------ bracket


def bracket(view: dict[str, Any], cat: Catalog) -> dict[str, Any]:
    """Phases 1–2: the countries still in; phase 3: quarter-finals → semi-finals → final."""
    nick = names(view)
    finals_matches = [m for m in view.get("matches", []) if m["kind"] in ("qf", "sf", "f")]
    running = (view.get("match") or {}).get("number")
    rounds = []
    for kind, title in (
        ("qf", gettext("Quarter-finals")),
        ("sf", gettext("Semi-finals")),
        ("f", gettext("Final")),
    ):
        games = []
        for m in sorted((m for m in finals_matches if m["kind"] == kind), key=lambda m: m["slot"]):
            games.append(_bracket_match(m, cat, nick, running, view))
        if games:
            rounds.append({"kind": kind, "title": title, "matches": games})
    countries_in = []
    for sq in view.get("squares", []):
        if sq.get("country"):
            c = country(cat, sq["country"])
            countries_in.append(
                {
                    "country": c,
                    "status": sq["status"],
                    "coach": nick.get(sq.get("coach"), "") if sq.get("coach") else "",
                    "coach_seat": sq.get("coach"),
                }
            )
    countries_in.sort(
        key=lambda r: (
            r["status"] != "contracted",
            -(r["country"] or {}).get("klass", 0),
            (r["country"] or {}).get("name", ""),
        )
    )
    challenges = [
        _bracket_match(m, cat, nick, running, view)
        for m in view.get("matches", [])
        if m["kind"] == "challenge"
    ]
    winner = view.get("winner")
    return {
        "phase": view.get("phase"),
        "rounds": rounds,
        "countries": countries_in,
        "challenges": challenges[-6:][::-1],
        "markers_placed": sum(1 for v in (view.get("markers") or {}).values() if v is not None),
        "markers_total": len(view.get("markers") or {}) or 8,
        "winner": {
            "country": country(cat, winner["country"]),
            "coach": nick.get(winner.get("coach"), "") if winner.get("coach") else "",
        }
        if winner
        else None,
    }


def _bracket_match(
    m: dict[str, Any], cat: Catalog, nick: dict[int, str], running: Any, view: dict[str, Any]
) -> dict[str, Any]:
    live = m["number"] == running
    score = m.get("score") or [0, 0]
    if live:
        score = ((view.get("match") or {}).get("engine") or {}).get("score") or score
    sides = []
    for name in ("home", "away"):
        side = m.get(name)
        sides.append(
            {
                "country": country(cat, side["country"]) if side else None,
                "coach": _coach_label(side, nick) if side else "",
                "coach_seat": side.get("seat") if side and side.get("role") != "bot" else None,
                "winner": m.get("winner_side") == name,
                "score": score[0 if name == "home" else 1] if m["status"] != "planned" or live else None,
            }
        )
    return {
        "number": m["number"],
        "slot": m.get("slot", ""),
        "status": m["status"],
        "live": live,
        "home": sides[0],
        "away": sides[1],
        "penalties": m.get("penalties"),
        "decided_by": m.get("decided_by"),
    }


# ------------------------------------------------------------------------------------------ banner


def phase_label(phase: str) -> str:
    """The name of a phase."""
    return {
        "lobby": gettext("Lobby"),
        "phase1": gettext("Phase 1 · Qualifiers"),
        "phase2": gettext("Phase 2 · Road to the finals"),
        "phase3": gettext("Phase 3 · The finals"),
        "finished": gettext("Finished"),
    }.get(phase, phase)


def banner(view: dict[str, Any], cat: Catalog) -> dict[str, Any]:
    """The turn banner: phase, whose turn, what is being decided, or the end of the game."""
    nick = names(view)
    status = view.get("status")
    mine = [] if held_by_bot(view) else view.get("my_prompts") or []
    active = view.get("active_seat")
    info: dict[str, Any] = {
        "phase": phase_label(view.get("phase", "")),
        "status": status,
        "my_turn": bool(mine),
        "my_prompt": prompt_call(mine[0]["kind"]) if mine else "",
        "active_seat": active,
        "active_name": nick.get(active, "") if active else "",
        "deciding": others_deciding(view)[:2],
        "turns": sum((view.get("turns") or {}).values()),
    }
    winner = view.get("winner")
    if winner:
        info["winner"] = {
            "country": country(cat, winner.get("country")),
            "coach": nick.get(winner.get("coach"), "") if winner.get("coach") else "",
        }
    match = view.get("match")
    if match:
        info["match"] = {
            "label": match_kind_label(match.get("kind", ""), match.get("slot", "")),
            "home": country(cat, (match.get("home") or {}).get("country")),
            "away": country(cat, (match.get("away") or {}).get("country")),
            "score": (match.get("engine") or {}).get("score") or [0, 0],
        }
    return info


def prompt_call(kind: str) -> str:
    """What the banner tells me to do."""
    return {
        "roll": gettext("Your turn: roll the die!"),
        "buy": gettext("Buy the open card?"),
        "contract": gettext("Sign the contract?"),
        "luck": gettext("Luck: choose a square to go to."),
        "return_card": gettext("Choose a card to give back."),
        "discard_match": gettext("Choose a match card to discard."),
        "marker": gettext("Marker: choose what to take."),
        "keep_selection": gettext("Pick your team."),
        "ac_keep": gettext("Keep your unused match cards?"),
        "lineup": gettext("Set your line-up."),
        "window": gettext("Your move in the match."),
    }.get(kind, gettext("A decision is waiting for you."))


# ------------------------------------------------------------------------------------------ effects


def effects(lines_events: list[dict[str, Any]]) -> dict[str, Any]:
    """What the browser animates for a batch of (visible) events: the pawn's path, the die, goals."""
    path: list[int] = []
    mover = None
    die = None
    fx: list[str] = []
    src = None
    for e in lines_events:
        kind = e.get("kind")
        p = e.get("payload") or {}
        if kind == "pawn_moved":
            if src is None and isinstance(p.get("src"), int):
                src = p["src"]
            if isinstance(p.get("path"), list):
                path.extend(int(x) for x in p["path"])
            mover = p.get("seat")
        elif kind in ("rolled", "second_roll"):
            die = p.get("die")
        elif kind == "m.goal_confirmed":
            fx.append(f"goal:{p.get('side')}")
        elif kind == "m.goal":
            fx.append(f"shot:{p.get('side')}")
        elif kind == "m.goal_disallowed":
            fx.append(f"disallowed:{p.get('side')}")
        elif kind == "cup_won":
            fx.append("cup")
        elif kind == "m.card_revealed":
            fx.append(f"reveal:{p.get('side')}")
    return {"path": path, "src": src, "mover": mover, "die": die, "fx": fx}


def log_items(lines: list[LogLine]) -> list[LogLine]:
    """Newest first, as the log shows them."""
    return list(reversed(lines))
