"""What each viewer may see of a duel (``DuelFormat.view``).

Private to a side: the order of its unrevealed stack, its reserve, its line-up, its team list and its
holding. Public: the cards in action with their modifiers, spent (revealed) cards, counts, the match
cards played, score, period and whose decision is pending. Tests assert on the serialized JSON that
nothing private reaches the public or the other side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cards.rules.duel_cards import apply_mods
from cards.rules.duel_state import (
    HOW_NAMES,
    LINEUP,
    M_CORNER,
    M_PENALTY,
    MAX_SWAPS,
    MOMENT_NAMES,
    PHASE_NAMES,
    WINDOW,
    WINDOW_NAMES,
    DuelState,
    copy_data,
    keeper_stars_in_moment,
    side_index,
)
from games.api import Side

if TYPE_CHECKING:
    from cards.rules.duel import DuelFormat

_NAMES = ("home", "away")


def project(fmt: DuelFormat, state: DuelState, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
    """What ``side`` may see (``None``: spectators and other participants).

    Private to a side: the order of its unrevealed stack, its reserve, its line-up and its
    holding. Public: cards in action with their modifiers, spent (revealed) cards, counts,
    match cards played, score, period, and whose decision is pending.
    """
    st = state
    me = side_index(side) if side is not None else -1
    sides = {}
    for s in (0, 1):
        sides[_NAMES[s]] = _side_view(st, s, reveal_all or s == me)
    v: dict[str, Any] = {
        "format": fmt.key,
        "period": st.period,
        "phase": PHASE_NAMES[st.phase],
        "knockout": st.knockout,
        "score": list(st.score),
        "keeper_first": _NAMES[st.kfirst] if st.kfirst >= 0 else None,
        "sides": sides,
        "to_decide": [],
        "window": None,
        "moment": None,
        "goal": None,
        "decision": None,
        "periods": [
            {"period": i + 1, "goal": _NAMES[g] if g >= 0 else None} for i, g in enumerate(st.half_goals)
        ],
        "penalty_series": None,
        "result": None,
    }
    if st.phase == LINEUP:
        v["to_decide"] = [_NAMES[s] for s in (0, 1) if st.pending[s]]
    elif st.phase == WINDOW:
        v["to_decide"] = [_NAMES[st.turn]]
        v["window"] = {
            "kind": WINDOW_NAMES[st.wkind],
            "turn": _NAMES[st.turn],
            "plays": [{"side": _NAMES[p[1]], "card": p[2]} for p in st.plays],
        }
        if st.moment is not None:
            kind, ms, _serial, header, mods = st.moment
            v["moment"] = {
                "kind": MOMENT_NAMES[kind],
                "side": _NAMES[ms],
                "header": (
                    {
                        "card": st.ids[ms][header],
                        "stars": st.stars[ms][header],
                        "effective": apply_mods(st.stars[ms][header], mods),
                    }
                    if kind == M_CORNER
                    else None
                ),
                "keeper": (
                    {
                        "card": st.ids[1 - ms][st.nfield[1 - ms]],
                        "stars": st.stars[1 - ms][st.nfield[1 - ms]],
                        "effective": apply_mods(keeper_stars_in_moment(st, 1 - ms), mods),
                    }
                    if kind == M_PENALTY
                    else None
                ),
                "modifiers": [{"card": m[1], "set": bool(m[2]), "value": m[3]} for m in mods],
            }
        if st.goal is not None:
            g = st.goal
            v["goal"] = {
                "side": _NAMES[g[0]],
                "card": st.ids[g[0]][g[2]],
                "how": HOW_NAMES[g[1]],
                "disallowed": g[3] >= 0,
            }
    if st.pens is not None:
        v["penalty_series"] = {
            "score": list(st.pens),
            "kicks": [
                {"side": _NAMES[k[0]], "card": st.ids[k[0]][k[1]], "scored": bool(k[2])} for k in st.kicks
            ],
        }
    if me >= 0 and ((st.phase == LINEUP and st.pending[me]) or (st.phase == WINDOW and st.turn == me)):
        d = next(d for d in fmt.decisions(st) if d.side == _NAMES[me])
        v["decision"] = {
            "kind": d.kind,
            "choices": [dict(c) for c in d.choices],
            "default": copy_data(d.default),
            "options": copy_data(d.options),
        }
    res = fmt.result(st)
    if res is not None:
        v["result"] = {
            "score": list(res.score),
            "winner": res.winner,
            "decided_by": res.decided_by,
            "penalties": list(res.penalties) if res.penalties else None,
        }
    return v


def _side_view(st: DuelState, s: int, private: bool) -> dict[str, Any]:
    ids, stars, n = st.ids[s], st.stars[s], st.nfield[s]
    a = st.active[s]
    sv: dict[str, Any] = {
        "label": st.labels[s],
        "field_count": n,
        "active": (
            {
                "card": ids[a],
                "stars": stars[a],
                "effective": st.eff[s],
                "keeper": a == n,
                "modifiers": [{"card": m[1], "set": bool(m[2]), "value": m[3]} for m in st.mods[s]],
            }
            if a >= 0
            else None
        ),
        "stack_count": len(st.stack[s]) if st.phase == WINDOW else 0,
        "spent": [ids[c] for c in st.spent[s]] if st.phase == WINDOW else [],
        "swaps_left": MAX_SWAPS - st.swaps[s],
        "holding_count": len(st.hold[s]) + len(st.et_hold[s]),
        "played": [*st.used[s], *st.et_played[s]],
        "lineup_pending": st.phase == LINEUP and st.pending[s],
    }
    if private:
        sv["team"] = [{"id": ids[i], "stars": stars[i], "keeper": i == n} for i in range(n + 1)]
        sv["stack"] = [ids[c] for c in reversed(st.stack[s])] if st.phase == WINDOW else []
        sv["reserve"] = ids[st.reserve[s]] if st.reserve[s] >= 0 else None
        sv["lineup"] = {
            "order": [ids[c] for c in st.order[s]],
            "reserve": ids[st.lineup_reserve[s]] if st.lineup_reserve[s] >= 0 else None,
        }
        sv["holding"] = list(st.hold[s])
        sv["extra_time_holding"] = list(st.et_hold[s])
    return sv
