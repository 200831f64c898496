"""The board of a card duel for one viewer: what ``duel/board.html`` draws.

``board_context(view, choices, names)`` turns the format's view (``DuelFormat.view(state, side)``), the
viewer's own pending choices (the ``Decision.choices`` of his decision, None when he has none) and who plays
each side into plain data: both sides with their card in action (printed and effective stars, the match cards
played on it), the score, the period and the periods played, the moment (penalty or corner), a provisional
goal, the penalty series, each side's stack, swaps and match cards, and, for the viewer who decides, his
line-up editor or his window choices, each with its index into ``choices``.

Only the view is read, so a board can never show more than the format lets that viewer see: the other side's
hand is a count, its stack a number, its reserve nothing. Card ids appear only where the viewer's own line-up
form needs them (his own field players); every other card is given by its name. Once the match is over the
viewer's own hidden cards are not drawn either: the summary of a finished match is the same for both sides.

Pure Python like the rest of the game (no Django): labels are English msgids marked with ``N_`` and the
template translates them. A player's name is printed the same in every language; a match card's name and
text come in English and Dutch (the catalog's two languages) and the template picks the reader's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cards.catalog import get_catalog
from games.api import N_, SIDES

# The period as a heading, and as the words inside a sentence ("Your line-up for the 2nd half").
PERIODS = {1: N_("1st half"), 2: N_("2nd half"), 3: N_("Extra time"), 4: N_("Penalty series")}
PERIOD_WORDS = {1: N_("1st half"), 2: N_("2nd half"), 3: N_("extra time"), 4: N_("the penalty series")}
DECIDED_BY = {
    "regular": N_("in regular time"),
    "extra_time": N_("after extra time"),
    "penalties": N_("on penalties"),
    "die": N_("on the roll of the die"),
}


def stars_text(n: int) -> str:
    """ "★★★★☆": filled stars, padded with empty ones to five (a boosted card shows six or seven)."""
    n = max(0, int(n))
    return "★" * n + "☆" * max(0, 5 - n)


def player(card_id: str, stars: int | None = None, effective: int | None = None) -> dict[str, Any]:
    """A player card (field player, rival or keeper) by name: its frame, position and stars.

    ``stars`` are the printed stars as the view gives them, ``effective`` what the card counts now.
    """
    p = get_catalog().player(card_id)
    printed = p.stars if stars is None else int(stars)
    now = printed if effective is None else int(effective)
    keeper = p.kind.value == "keeper" or p.position == "GK"
    return {
        "name": p.name,
        "position": p.position,
        "stars": printed,
        "effective": now,
        "stars_text": stars_text(now),
        "changed": now != printed,
        "keeper": keeper,
        "frame": "keeper" if keeper else ("rival" if p.kind.value == "rival" else "field"),
    }


def match_card(card_id: str) -> dict[str, Any]:
    """A match card by name (English and Dutch), with its colour, target and P/C badges."""
    mc = get_catalog().match_cards[card_id]
    return {
        "name": mc.name_en,
        "name_nl": mc.name_nl,
        "text": mc.text_en,
        "text_nl": mc.text_nl,
        "color": mc.color.value,
        "target": mc.target.value,
        "penalty_ok": mc.penalty_ok,
        "corner_ok": mc.corner_ok,
    }


def _modifiers(mods: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The match cards played on a card: each with what it does to the stars ("+2", "−1", "=6")."""
    out = []
    for m in mods:
        value = int(m.get("value") or 0)
        if m.get("set"):
            change = f"={value}"
        elif value >= 0:
            change = f"+{value}"
        else:
            change = f"−{-value}"
        out.append(match_card(str(m["card"])) | {"change": change})
    return out


def _active(active: Mapping[str, Any] | None) -> dict[str, Any] | None:
    if not active:
        return None
    card = player(str(active["card"]), active.get("stars"), active.get("effective"))
    card["in_goal"] = bool(active.get("keeper"))
    card["modifiers"] = _modifiers(active.get("modifiers") or ())
    return card


def hand_ids(view: Mapping[str, Any], side: str) -> list[str]:
    """The match cards a side holds, when the view shows them to this viewer (else [])."""
    sv = (view.get("sides") or {}).get(side) or {}
    return [*(sv.get("holding") or ()), *(sv.get("extra_time_holding") or ())]


def _side(view: Mapping[str, Any], key: str, name: str, plays: list[dict[str, Any]]) -> dict[str, Any]:
    sv = (view.get("sides") or {}).get(key) or {}
    over = view.get("result") is not None
    # what only this side's coach sees: the view gives it to him or to nobody; a finished match's summary
    # leaves it out (the same for both sides, and for the cards' next match in a league)
    own = "holding" in sv and not over
    hand = hand_ids(view, key) if own else []
    kicks = ((view.get("penalty_series") or {}).get("kicks")) or ()
    return {
        "key": key,
        "name": name,
        "score": (view.get("score") or [0, 0])[SIDES.index(key)],  # type: ignore[arg-type]
        "deciding": not over and key in (view.get("to_decide") or ()),
        "lineup_pending": bool(sv.get("lineup_pending")),
        "active": _active(sv.get("active")),
        "stack_count": int(sv.get("stack_count") or 0),
        "swaps_left": int(sv.get("swaps_left") or 0),
        "holding_count": int(sv.get("holding_count") or 0),
        "own": own,
        "hand": [match_card(c) for c in hand],
        "reserve": player(sv["reserve"]) if own and sv.get("reserve") else None,
        "stack": [player(c) for c in sv.get("stack") or ()] if own else [],
        "played": [match_card(c) for c in sv.get("played") or ()],
        "spent": [player(c) for c in sv.get("spent") or ()],
        "keeper_first": not over and view.get("keeper_first") == key,
        "window_plays": [match_card(p["card"]) for p in plays if p.get("side") == key],
        "kicks": [
            player(str(k["card"])) | {"scored": bool(k.get("scored"))} for k in kicks if k.get("side") == key
        ],
    }


def _moment(view: Mapping[str, Any]) -> dict[str, Any] | None:
    m = view.get("moment")
    if not m:
        return None
    header, keeper = m.get("header"), m.get("keeper")
    return {
        "kind": m["kind"],
        "side": m["side"],
        "header": player(header["card"], header.get("stars"), header.get("effective")) if header else None,
        "keeper": player(keeper["card"], keeper.get("stars"), keeper.get("effective")) if keeper else None,
        "modifiers": _modifiers(m.get("modifiers") or ()),
    }


def _lineup(decision: Mapping[str, Any]) -> dict[str, Any]:
    """The line-up editor's rows: the default order, any field player it leaves out, then the reserve.

    These are the viewer's own cards (his decision's options), the only card ids a board carries: the
    form posts them back as the order.
    """
    options = decision.get("options") or {}
    default = decision.get("default") or {}
    order = [str(c) for c in default.get("order") or ()]
    reserve = default.get("reserve")
    known = set(order) | ({reserve} if reserve else set())
    rest = [str(f["id"]) for f in options.get("field") or () if f["id"] not in known]
    stars = {str(f["id"]): f.get("stars") for f in options.get("field") or ()}
    rows = []
    for number, cid in enumerate([*order, *rest, *([reserve] if reserve else [])], start=1):
        rows.append(player(cid, stars.get(cid)) | {"id": cid, "reserve": cid == reserve, "number": number})
    keeper = options.get("keeper") or {}
    period = int(options.get("period") or 1)
    return {
        "rows": rows,
        "keeper": player(keeper["id"], keeper.get("stars")) if keeper.get("id") else None,
        "period": PERIOD_WORDS.get(period, ""),
        "reserve_required": bool(options.get("reserve_required")),
        "order_size": int(options.get("order_size") or len(order)),
    }


def _choices(choices: Sequence[Mapping[str, Any]], held: Sequence[str]) -> dict[str, Any]:
    """The window's choices as buttons, each by its index into the decision's choices (the form posts it as
    ``pick``): the match cards to play, the swap, the pass; and the held cards not playable now."""
    plays: list[dict[str, Any]] = []
    swap = pass_ = None
    for index, c in enumerate(choices):
        kind = c.get("kind")
        if kind == "play":
            plays.append(match_card(str(c["card"])) | {"index": index})
        elif kind == "swap":
            swap = index
        elif kind == "pass":
            pass_ = index
    playable = {c.get("card") for c in choices if c.get("kind") == "play"}
    unplayable = [match_card(cid) for cid in held if cid not in playable]
    return {"plays": plays, "swap": swap, "pass": pass_, "unplayable": unplayable}


def reveal_key(side: Mapping[str, Any], period: int) -> str:
    """A key that changes exactly when a side brings a new card into action (a reveal or a swap): the
    board's script turns that card over. Made of public counts and the card's name, never of a card id."""
    active = side["active"]
    return f"{period}.{side['stack_count']}.{side['swaps_left']}.{active['name'] if active else ''}"


def board_context(
    view: Mapping[str, Any],
    choices: Sequence[Mapping[str, Any]] | None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """What ``duel/board.html`` needs under the name ``board``.

    ``view``: ``FORMAT.view(state, side)``; ``choices``: the viewer's own pending ``Decision.choices`` (None
    for a spectator, the other side and a replay; empty for a line-up, whose options and default the view
    gives its own side under ``decision``); ``names``: who plays each side, "Home"/"Away" where missing.
    """
    names = names or {}
    window = view.get("window") or {}
    plays = list(window.get("plays") or ())
    result = view.get("result")
    over = result is not None
    # both sides' secrets in one view: a replay of a finished game (reveal_all), which has no "me"
    both = all("holding" in ((view.get("sides") or {}).get(s) or {}) for s in SIDES)
    sides = [_side(view, s, str(names.get(s, "")), plays) for s in SIDES]
    me = next((s["key"] for s in sides if s["own"]), None) if not both else None
    for s in sides:
        s["me"] = s["key"] == me
    period = int(view.get("period") or 1)
    # the viewer's own decision: the choices he was given, the line-up's options and default from his view
    decision = view.get("decision") if choices is not None and me is not None and not over else None
    kind = str(decision.get("kind") or "") if decision else ""
    listed = _choices(choices or (), hand_ids(view, me or "")) if kind == "window" else None
    goal = view.get("goal")
    series = view.get("penalty_series")
    return {
        "sides": sides,
        "home": sides[0],
        "away": sides[1],
        "me": next((s for s in sides if s["me"]), None),
        "score": list(view.get("score") or [0, 0]),
        "period": {"number": period, "label": PERIODS.get(period, ""), "words": PERIOD_WORDS.get(period, "")},
        "periods": [
            {"label": PERIODS.get(int(p["period"]), ""), "goal": p.get("goal")}
            for p in view.get("periods") or ()
        ],
        "knockout": bool(view.get("knockout")),
        "phase": "over" if over else str(view.get("phase") or ""),
        "lineups": [s["key"] for s in sides if s["lineup_pending"]] if not over else [],
        "window": str(window.get("kind") or "") if window and not over else "",
        "turn": str(window.get("turn") or "") if window and not over else "",
        "moment": _moment(view) if not over else None,
        "goal": (
            {
                "side": goal["side"],
                "card": player(goal["card"]),
                "disallowed": bool(goal.get("disallowed")),
            }
            if goal and not over
            else None
        ),
        "penalties": {"score": list(series.get("score") or [0, 0])} if series else None,
        "mine": decision is not None and kind in ("lineup", "window"),
        "decision": kind,
        "lineup": _lineup(decision) if kind == "lineup" else None,
        "choices": listed,
        "over": over,
        "result": (
            {
                "winner": result.get("winner"),
                "decided_by": DECIDED_BY.get(result.get("decided_by") or "", ""),
                "penalties": result.get("penalties"),
            }
            if result is not None
            else None
        ),
        "reveal": {s["key"]: reveal_key(s, period) for s in sides},
        "goals": "-".join(
            str(n) for n in [*(view.get("score") or [0, 0]), *((series or {}).get("score") or [])]
        ),
    }
