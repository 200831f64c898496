"""Positions for the chess-football tests, written the way the digest states its cases (§15)."""

from __future__ import annotations

from typing import Any

from games.api import IllegalDecision, MatchError
from games.chess_football import geometry as g
from games.chess_football.rules import FORMAT, chess_setup, legal_moves, notation
from games.chess_football.state import OFF, ChessState
from games.rng import Rng

KINDS = {"K": g.KEEPER, "C": g.CAPTAIN, "D": g.DARK, "L": g.LIGHT}


def sq(text: str) -> int:
    """A square from ``"e5"`` or ``(5, 5)``-style text."""
    s = g.parse_square(text)
    assert s is not None, text
    return s


def xy(x: int, y: int) -> str:
    return g.name(g.sq(x, y))


def position(
    pieces: dict[str, list[str]],
    ball: str | None = None,
    turn: str = "home",
    fresh: bool = False,
    half_moves: int = 40,
    knockout: bool = False,
    **fields: Any,
) -> ChessState:
    """A match with only the named pieces on the board: ``{"S": ["Lc5", "De7"], "N": ["Ke14"]}``.

    Keepers not named stay on their middle goal squares (a keeper is never off the board); the ball lies
    on ``ball`` (loose, or held by the piece there); every other field comes from ``fields``.
    """
    st = FORMAT.start(chess_setup(knockout=knockout, half_moves=half_moves, toss="home"), Rng(0))
    st.pos = [OFF] * 20
    st.pos[0], st.pos[10] = g.GOAL_MIDDLE
    for side_letter, items in pieces.items():
        side = 0 if side_letter == "S" else 1
        for item in items:
            kind = KINDS[item[0]]
            square = sq(item[1:])
            if kind == g.KEEPER:
                st.pos[10 * side] = square
                continue
            p = next(p for p in range(10 * side, 10 * side + 10) if g.KIND[p] == kind and st.pos[p] == OFF)
            st.pos[p] = square
    st.ball = sq(ball) if ball else g.sq(5, 7)
    st.turn = 0 if turn == "home" else 1
    st.fresh = fresh
    st.last = ""
    for key, value in fields.items():
        setattr(st, key, value)
    return st


def moves(st: ChessState) -> set[str]:
    """The legal moves of the side to move, in our notation."""
    return {notation(st, a) for a in legal_moves(st)}


def targets(st: ChessState, frm: str) -> set[str]:
    """Where the piece on ``frm`` may move (piece moves only)."""
    return {g.name(a[2]) for a in legal_moves(st) if a[0] == "m" and a[1] == sq(frm)}


def ball_targets(st: ChessState) -> set[str]:
    return {g.name(a[1]) for a in legal_moves(st) if a[0] == "b"}


def play(st: ChessState, move: str, side: str | None = None) -> list[Any]:
    """Apply a move given in our notation through the protocol (validated like a user's move)."""
    side = side or ("home", "away")[st.turn]
    return FORMAT.apply(st, side, {"kind": "move", "move": move}, Rng(0))


def refused(st: ChessState, move: str, side: str | None = None, error: type = IllegalDecision) -> str:
    """The message of a refused move; the state must be unchanged."""
    before = FORMAT.to_dict(st)
    try:
        play(st, move, side)
    except MatchError as exc:
        assert isinstance(exc, error), exc
        assert FORMAT.to_dict(st) == before
        return str(exc)
    raise AssertionError(f"{move} was accepted")


def piece_at(st: ChessState, square: str) -> int:
    return st.pos.index(sq(square))
