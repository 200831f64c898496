"""The state of a chess-football match: one flat slotted dataclass of ints, bools and short lists.

Why flat: bots clone it for every line they search and the service layer stores it as JSON after every
decision. Sides are 0 (home, South) and 1 (away, North). Pieces have identities 0..19 (geometry.KIND):
``pos[p]`` is a square, ``BOX`` (cautioned, in the admonition box) or ``OFF`` (sent off). The ball holder
is the piece standing on ``ball`` (§6.1), so it is never stored twice.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from games.api import MalformedDecision

BOX, OFF = -1, -2
# phases: the kind of decision pending
PH_PLAY, PH_PENALTY, PH_OVER = range(3)
PHASE_NAMES = ("play", "penalty", "over")
P_SHOOTOUT = 5  # periods 1, 2 halves; 3, 4 extra time; 5 the shoot-out


@dataclass(slots=True, eq=True)
class ChessState:
    """Everything a chess-football match is; ``to_dict``/``from_dict`` round-trip it exactly."""

    # settings (MatchSetup and its options)
    labels: list[str]
    knockout: bool
    half_moves: int  # moves per side in a half (§13: 40)
    extra_moves: int  # moves per side in a half of extra time (§13: 10)
    shootout_kicks: int  # penalties per side before sudden death (§13: 5)
    first: int  # the side that kicked off the first half (the toss winner, §3)
    # the clock
    period: int
    plies: int  # moves made in this period, both sides (X-40: half time after 2 * half_moves)
    # the board
    turn: int  # the side to move
    pos: list[int]  # square of each piece, BOX or OFF
    ball: int  # the ball's square
    fresh: bool  # the holder got the ball since his side last moved (cannot be tackled yet, X-11, X-37)
    score: list[int]
    cards: list[int]  # admonition cards used per side (two each, §11)
    red: int  # the ball's square while the side to move has the red-square obligation (§9.2), else -1
    relocate: bool  # the side to move relocates an offender first (the other side forfeited, X-34)
    # a penalty (in play or the shoot-out): the kicking side and both sides' hidden choices (X-18)
    phase: int
    pen_side: int
    pen_choice: list[list[int] | None]  # per side: kicker [taker, aim square], keeper [cover square]
    # the end
    pens: list[int] | None  # shoot-out score
    kicks: list[list[int]]  # shoot-out kicks: [side, aim, cover, scored]
    winner: int  # -1 while playing or for a draw
    decided_by: str
    last: str  # the last move in our notation ("" at a kick-off)
    # the move list: (period, side, move in our notation, scored) per move, a penalty included; a tuple, so
    # that a clone shares it (bots clone for every line they search) and a move appends a new one
    moves: tuple[tuple[int, int, str, bool], ...]


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ChessState))


def clone(st: ChessState) -> ChessState:
    """An independent copy (bots search on copies)."""
    c = ChessState.__new__(ChessState)
    for n in FIELDS:
        setattr(c, n, getattr(st, n))
    c.labels = list(st.labels)
    c.pos = list(st.pos)
    c.score = list(st.score)
    c.cards = list(st.cards)
    c.pen_choice = [None if ch is None else list(ch) for ch in st.pen_choice]
    c.pens = None if st.pens is None else list(st.pens)
    c.kicks = [list(k) for k in st.kicks]
    return c


def state_to_dict(st: ChessState) -> dict[str, Any]:
    """JSON-safe copy of every field."""
    c = clone(st)
    out = {n: getattr(c, n) for n in FIELDS}
    out["moves"] = [list(m) for m in st.moves]
    return out


def _moves(value: list[Any]) -> tuple[tuple[int, int, str, bool], ...]:
    """The stored move list back as tuples; a malformed entry raises ``MalformedDecision``."""
    bad = MalformedDecision("stored chess-football state: a move list entry has the wrong shape")
    try:
        out = tuple((period, side, text, scored) for period, side, text, scored in value)
    except (TypeError, ValueError) as exc:
        raise bad from exc
    for period, side, text, scored in out:
        if type(period) is not int or side not in (0, 1) or type(text) is not str or type(scored) is not bool:
            raise bad
    return out


_TYPES: dict[str, tuple[type, ...]] = {
    "labels": (list,),
    "knockout": (bool,),
    "fresh": (bool,),
    "relocate": (bool,),
    "pos": (list,),
    "score": (list,),
    "cards": (list,),
    "pen_choice": (list,),
    "pens": (list, type(None)),
    "kicks": (list,),
    "decided_by": (str,),
    "last": (str,),
    "moves": (list,),
}


def state_from_dict(data: Any) -> ChessState:
    """Rebuild a stored state; a malformed record raises ``MalformedDecision`` (never a bare KeyError)."""
    if not isinstance(data, dict):
        raise MalformedDecision("a stored chess-football state is a dict")
    missing = [n for n in FIELDS if n not in data]
    if missing:
        raise MalformedDecision(f"stored chess-football state lacks {', '.join(missing)}")
    for n in FIELDS:
        value = data[n]
        want = _TYPES.get(n, (int,))
        if not isinstance(value, want) or (want == (int,) and isinstance(value, bool)):
            raise MalformedDecision(f"stored chess-football state: {n} has the wrong type")
    if len(data["pos"]) != 20 or len(data["pen_choice"]) != 2:
        raise MalformedDecision("stored chess-football state: pos or pen_choice has the wrong length")
    st = ChessState.__new__(ChessState)
    for n in FIELDS:
        setattr(st, n, data[n])
    st.moves = _moves(data["moves"])
    return clone(st)
