"""What each viewer may see of a grid-football match (``GridFootballFormat.view``).

Grid football is played in the open — the pawns, the ball, the dice, the cards and the bandages are on the
table for everyone — but for the line-ups (§3.2, GF-30): both coaches name their eleven at the same time, so
until both are in nobody but its coach learns a line-up. A side's view holds its own line-up (the players,
and ``text``, the one-word token ``Game.private`` names); the other side and the spectators learn only that
it has been chosen. The side whose line-up is pending also finds its decision here (``decision``: the
squad sheet's options and the default), since a line-up's choices cannot be listed and the board reads
them from the view. ``reveal_all`` (a finished game's replay) shows both.

Besides the rules' state the view carries what the board draws: the clock and its limit, the ball's path,
the budget of a play, the square an interception is offered on, the chances of a save.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import Side
from games.grid_football.geometry import KIND_NAMES, NUMBER, SQUAD, kind_of, name, pawn
from games.grid_football.state import (
    P_EXTRA,
    P_NORMAL,
    PH_INTERCEPT,
    PH_LEG,
    PH_LINEUP,
    PH_SAVE,
    PH_TAKER,
    PHASE_NAMES,
    STATUS_NAMES,
    GridState,
)

if TYPE_CHECKING:
    from games.grid_football.rules import GridFootballFormat

NAMES: tuple[Side, Side] = ("home", "away")
# what a set-piece placement (PH_TAKER) places, by rules.T_* (its context's first value)
PLACING = ("throw_in", "corner", "corner_wall", "victim", "free_kick_wall", "penalty", "shootout", "centre")


def lineup_text(side: str, numbers: list[int]) -> str:
    """A side's line-up as one word (``home-lineup:1.2.3.…``): what its own view shows and no other view may
    contain while it is secret (``Game.private``; the leak tests split pages into words)."""
    return f"{side}-lineup:" + ".".join(str(n) for n in numbers)


def secret_lineup(st: GridState, side: int) -> str | None:
    """A side's chosen line-up while it is still secret (the other side has not chosen), else None."""
    mine = st.lineup[side]
    if mine is None or st.lineup[1 - side] is not None:
        return None
    return lineup_text(NAMES[side], list(mine[:11]))


def _clock(st: GridState) -> dict[str, Any]:
    """Where the match stands on its clock: minutes (one counted '1' is 6) or, in the fixed-length variant,
    rolls against the period's limit (plus one per foul, §15)."""
    extra = st.period == P_EXTRA
    if st.fixed:
        limit = (st.fixed_extra_rolls if extra else st.fixed_rolls) + st.fouls
        return {"fixed": True, "done": st.rolls, "limit": limit, "extra": extra}
    limit = st.extra_ones if extra else st.normal_ones
    return {"fixed": False, "done": st.ones, "limit": limit, "minute": 6 * st.ones, "extra": extra}


def project(
    fmt: GridFootballFormat, state: GridState, side: Side | None, reveal_all: bool = False
) -> dict[str, Any]:
    """JSON-safe view for ``side`` (``None``: spectators); ``reveal_all`` shows both line-ups."""
    from games.grid_football.rules import action_dict, default_lineup, label

    st = state
    viewer = NAMES.index(side) if side in NAMES else -1
    both = st.lineup[0] is not None and st.lineup[1] is not None
    lineups: dict[str, Any] = {}
    for s in (0, 1):
        chosen = st.lineup[s] is not None
        entry: dict[str, Any] = {"chosen": chosen, "players": None}
        if chosen and (viewer == s or reveal_all or both):
            players = list(st.lineup[s][:11])  # type: ignore[index]
            entry["players"] = players
            entry["text"] = lineup_text(NAMES[s], players)
        lineups[NAMES[s]] = entry
    squads = {
        NAMES[s]: [
            {
                "number": n,
                "kind": KIND_NAMES[kind_of(n)],
                "status": STATUS_NAMES[st.status[pawn(s, n)]],
                "square": name(st.pos[pawn(s, n)]) if st.pos[pawn(s, n)] >= 0 else None,
                "yellow": st.yellow[pawn(s, n)],
                "red": bool(st.red[pawn(s, n)]),
                "injuries": st.bandage[pawn(s, n)],
            }
            for n in range(1, SQUAD + 1)
        ]
        for s in (0, 1)
    }
    holder = next((p for p in range(40) if st.ball >= 0 and st.pos[p] == st.ball), -1)
    decision = None
    if st.phase == PH_LINEUP and viewer >= 0 and st.lineup[viewer] is None:
        default = default_lineup(st, viewer)
        if default is not None:
            decision = {
                "kind": "lineup",
                "options": fmt._lineup_options(st, viewer),
                "default": action_dict(st, default),
            }
    offer = None
    if st.phase == PH_INTERCEPT and st.ctx:
        offer = name(st.path[2 * st.ctx[0]])
    placing = PLACING[st.ctx[0]] if st.phase == PH_TAKER and st.ctx else None
    chances = None
    if st.phase == PH_SAVE:
        chances = {name(st.ctx[i]): st.ctx[i + 1] for i in range(0, len(st.ctx), 2)}
    return {
        "format": fmt.key,
        "viewer": NAMES[viewer] if viewer >= 0 else None,
        "labels": list(st.labels),
        "knockout": st.knockout,
        "phase": PHASE_NAMES[st.phase],
        "deciding": None if st.dec_side < 0 else NAMES[st.dec_side],
        "period": st.period,
        "clock": 6 * st.ones,
        "rolls": st.rolls,
        "time": _clock(st) if st.period in (P_NORMAL, P_EXTRA) else None,
        "fixed_length": st.fixed,
        "turn": NAMES[st.turn],
        "roll": st.roll,
        "free_kick": st.free_kick,
        "budget": st.budget if st.phase == PH_LEG else None,
        "touches": st.touches if st.phase == PH_LEG else None,
        "offer": offer,
        "placing": placing,
        "chances": chances,
        "score": list(st.score),
        "pens": None if st.pens is None else list(st.pens),
        "kicks": [[NAMES[k[0]], NUMBER[k[1]], bool(k[2])] for k in st.kicks],
        "ball": name(st.ball) if st.ball >= 0 else None,
        "holder": label(holder) if holder >= 0 else None,
        "path": [name(st.path[2 * i]) for i in range(len(st.path) // 2)],
        "keepers": {NAMES[s]: (NUMBER[st.keeper[s]] if st.keeper[s] >= 0 else None) for s in (0, 1)},
        "makeshift": {NAMES[s]: bool(st.makeshift[s]) for s in (0, 1)},
        "subs": {NAMES[s]: st.subs[s] for s in (0, 1)},
        "lock": label(st.lock) if st.lock >= 0 else None,
        "lineups": lineups,
        "decision": decision,
        "squads": squads,
        "winner": NAMES[st.winner] if st.winner >= 0 else None,
        "decided_by": st.decided_by,
        "last": st.last,
    }


__all__ = ["lineup_text", "project", "secret_lineup"]
