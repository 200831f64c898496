"""What each viewer may see of a dice-football match (``DiceFootballFormat.view``).

Dice football hides nothing from anyone: the ball, the score, the clock and every roll are on the table,
and the STAR face is public too (§4, §11.1: "both players know the face"; RULES.md DF-3). The only thing
kept per viewer is the pending decision's list of choices, which goes to the side that decides (and to a
``reveal_all`` replay); everybody else learns only who is deciding what.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import MalformedDecision, Side
from games.dice_football.dice import DIE_NAMES, FACES, PEN, STAR
from games.dice_football.state import (
    PH_DIR,
    PH_OVER,
    PH_PLACE,
    PH_STAR,
    PHASE_NAMES,
    RESTART_NAMES,
    WINDOW_NAMES,
    DiceState,
)

if TYPE_CHECKING:
    from games.dice_football.rules import DiceFootballFormat

_NAMES = ("home", "away")


def project(
    fmt: DiceFootballFormat, state: DiceState, side: Side | None, reveal_all: bool = False
) -> dict[str, Any]:
    """JSON-safe view for ``side`` (``None``: spectators); ``reveal_all`` adds every pending choice."""
    if side is not None and side not in _NAMES:
        raise MalformedDecision(f"unknown viewer side {side!r}; expected 'home', 'away' or None")
    st = state
    length = st.half_ticks if st.period <= 2 else st.extra_ticks
    up = 0 if st.period & 1 else 1  # the side attacking towards row 11 (B-34: ends swap every period)
    a = st.att
    ball = [st.bx, st.by] if a == up else [6 - st.bx, 12 - st.by]
    turn = fmt.to_act(st)
    v: dict[str, Any] = {
        "format": fmt.key,
        "labels": list(st.labels),
        "knockout": st.knockout,
        "boskov": st.boskov,
        "period": st.period,
        "phase": PHASE_NAMES[st.phase],
        "half_ticks": length,
        "ticks": st.ticks,
        "ticks_left": max(0, length - st.ticks),
        "time_up": st.ticks >= length,
        "score": list(st.score),
        "attacker": _NAMES[a],
        "attacks_row_11": _NAMES[up],
        "ball": ball,
        "ball_relative": [st.bx, st.by],
        "restart": RESTART_NAMES[st.restart] or None,
        "must_control": st.must_ctrl,
        "control_last": st.ctrl_last,
        "star": {"holder": _NAMES[st.star], "face": FACES[STAR][st.face]},
        "fouls": {"home": st.fouls[0], "away": st.fouls[1]},
        "last_roll": (
            {"side": _NAMES[st.last[0]], "die": DIE_NAMES[st.last[1]], "face": FACES[st.last[1]][st.last[2]]}
            if st.last is not None
            else None
        ),
        "to_decide": None,
        "decision": None,
        "result": None,
    }
    if st.phase == PH_OVER:
        v["result"] = {
            "winner": _NAMES[st.winner] if st.winner >= 0 else None,
            "decided_by": st.decided_by,
            "penalties": list(st.pens) if st.pens is not None else None,
            "kicks": [
                {"side": _NAMES[s], "face": FACES[PEN][f], "scored": bool(scored)}
                for s, f, scored in st.kicks
            ],
        }
        return v
    pending: dict[str, Any] = {"side": _NAMES[turn], "kind": PHASE_NAMES[st.phase]}
    if st.phase == PH_DIR:
        pending["die"] = DIE_NAMES[st.p_die]
        pending["face"] = FACES[st.p_die][st.p_face]
        # public like the roll itself: the board draws where each direction takes the ball
        pending["rotated"] = bool(st.p_rot)
        pending["long_kick"] = st.p_mult == 2
    elif st.phase == PH_PLACE:
        pending["restart"] = RESTART_NAMES[st.ctx]  # everyone sees which restart the ball is placed for
    elif st.phase == PH_STAR:
        pending["window"] = WINDOW_NAMES[st.ctx]
    v["to_decide"] = pending
    if reveal_all or (side is not None and _NAMES[turn] == side):
        d = fmt.decisions(st)[0]
        v["decision"] = {
            "kind": d.kind,
            "choices": [dict(c) for c in d.choices],
            "default": dict(d.default),
            "options": dict(d.options),
        }
    return v
