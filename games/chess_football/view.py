"""What each viewer may see of a chess-football match (``ChessFootballFormat.view``).

Chess football is played in the open: the pieces, the ball, the cautions, the clock and every move are on the
table for everyone. The one secret is the penalty (X-18): both sides choose at once, and until both have
chosen nobody but the chooser learns a choice. A side's view holds its own choice (``penalty.mine``, and
``mine_move`` in our notation, which is what ``Game.private`` names); the other side and the spectators
learn only who has chosen. ``reveal_all`` (a finished game's replay) shows both.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from games.api import Side
from games.chess_football.geometry import KIND, KIND_NAMES, PIECE_LABEL, name
from games.chess_football.state import BOX, PH_PENALTY, PHASE_NAMES, ChessState

if TYPE_CHECKING:
    from games.chess_football.rules import ChessFootballFormat

NAMES: tuple[Side, Side] = ("home", "away")


def chosen_move(st: ChessState, side: int) -> str | None:
    """A side's recorded penalty choice in our notation (``penalty L1>d0``, ``cover e0``), None when it has
    not chosen: the text the chooser's view shows and no other view may contain (``Game.private``)."""
    from games.chess_football.rules import notation

    ch = st.pen_choice[side] if st.phase == PH_PENALTY else None
    if ch is None:
        return None
    return notation(st, ("pen", ch[0], ch[1]) if side == st.pen_side else ("cover", ch[0]))


def project(
    fmt: ChessFootballFormat, state: ChessState, side: Side | None, reveal_all: bool = False
) -> dict[str, Any]:
    """JSON-safe view for ``side`` (``None``: spectators); ``reveal_all`` adds both penalty choices."""
    from games.chess_football.rules import choice_dict, occupancy, offenders

    st = state
    occ = occupancy(st)
    h = occ[st.ball]
    pieces = [
        {
            "id": p,
            "side": NAMES[p // 10],
            "kind": KIND_NAMES[KIND[p]],
            "label": PIECE_LABEL[p],
            "square": name(s) if s >= 0 else None,
            "where": "board" if s >= 0 else ("box" if s == BOX else "off"),
        }
        for p, s in enumerate(st.pos)
    ]
    viewer = NAMES.index(side) if side in NAMES else -1
    penalty = None
    if st.phase == PH_PENALTY:
        chosen = {NAMES[i]: st.pen_choice[i] is not None for i in (0, 1)}
        mine = choice_dict(st, viewer) if viewer >= 0 else None
        penalty = {"kicker": NAMES[st.pen_side], "chosen": chosen, "mine": mine}
        if mine is not None:
            penalty["mine_move"] = chosen_move(st, viewer)
        if reveal_all:
            penalty["choices"] = [choice_dict(st, i) for i in (0, 1)]
    return {
        "format": fmt.key,
        "viewer": NAMES[viewer] if viewer >= 0 else None,
        "labels": list(st.labels),
        "knockout": st.knockout,
        "first": NAMES[st.first],
        "period": st.period,
        "plies": st.plies,
        "moves_per_half": st.half_moves if st.period <= 2 else st.extra_moves,
        "turn": NAMES[st.turn],
        "phase": PHASE_NAMES[st.phase],
        "score": list(st.score),
        "cards_used": list(st.cards),
        "pieces": pieces,
        "ball": name(st.ball),
        "holder": h if h >= 0 else None,
        "fresh": st.fresh,
        "red_obligation": name(st.red) if st.red >= 0 else None,
        "relocate": st.relocate,
        "offenders": {NAMES[s]: offenders(st, occ, s) for s in (0, 1)},
        "penalty": penalty,
        "pens": None if st.pens is None else list(st.pens),
        "shootout_kicks": st.shootout_kicks,
        "kicks": [[NAMES[k[0]], name(k[1]), name(k[2]), bool(k[3])] for k in st.kicks],
        "last": st.last,
        "moves": [[period, NAMES[s], text, scored] for period, s, text, scored in st.moves],
        "winner": NAMES[st.winner] if st.winner >= 0 else None,
        "decided_by": st.decided_by,
    }
