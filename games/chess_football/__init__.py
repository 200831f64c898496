"""Chess football (seed 003): a chess-like football game on a 9 × 13 chequerboard, as a match format.

``rules.py`` is the engine (``ChessFootballFormat``, key ``"chess-football"``), ``geometry.py`` and
``state.py`` the board and the state as data, ``view.py`` the per-viewer projection (the hidden penalty
choice), ``sentences.py`` the log lines, ``bots.py`` the bot policies, ``board.py`` with ``templates/`` and
``static/`` the board, and ``RULES.md`` every ruling applied. Nothing here imports Django. Importing the
package registers the game (``GAME``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.api import N_, Game, Line, MatchEvent, MatchSetup, Option, register_game, sentence_line
from games.chess_football import board, bots, sentences
from games.chess_football.rules import FORMAT, chess_setup
from games.chess_football.state import ChessState
from games.chess_football.view import chosen_move
from games.rng import Rng

# The room option "match length" (RULES.md CF-10): the rules' halves (§13) or a game night's quick match.
LENGTHS = {
    "normal": {},
    "short": {"half_moves": 10, "extra_time_moves": 3},
}

OPTIONS = (
    Option(
        "length",
        N_("Match length"),
        (
            ("normal", N_("As the rules say: halves of 40 moves per side (extra time 2 × 10 in a cup)")),
            ("short", N_("Game night: halves of 10 moves per side (extra time 2 × 3 in a cup)")),
        ),
    ),
)


def room_setup(labels: tuple[str, str], knockout: bool, options: Mapping[str, Any], rng: Rng) -> MatchSetup:
    """A match between two seats of a chess-football room: no cards, only the room's options (the toss is
    drawn by the rules, CF-2)."""
    extra = dict(LENGTHS[str(options.get("length", "normal"))])
    if not knockout:
        extra.pop("extra_time_moves", None)  # a friendly match has no extra time (§13)
    return chess_setup(knockout=knockout, labels=labels, **extra)


def line(event: MatchEvent) -> Line | None:
    """The event's log line: the sentence of ``sentences.py`` with its sides as presenter references."""
    look = sentences.LOOK.get(event.kind, ("footprints", "match"))
    return sentence_line(sentences.sentence(event), sentences.SIDE_PARAMS, look)


def private(state: ChessState, side: str) -> frozenset[str]:
    """What a side keeps to itself: its penalty choice while the other side has not chosen (X-18), in our
    notation (``penalty L1>d0``, ``cover e0``), which is how its own view names it."""
    move = chosen_move(state, 0 if side == "home" else 1)
    return frozenset((move,)) if move else frozenset()


def reveals(event: MatchEvent) -> Iterable[str]:
    """A penalty or a shoot-out kick shows both choices once both are in."""
    d = event.data
    if event.kind == "penalty":
        return (f"penalty {d['taker']}>{d['aim']}", f"cover {d['cover']}")
    if event.kind == "shootout_kick":
        return (f"penalty>{d['aim']}", f"cover {d['cover']}")
    return ()


GAME = register_game(
    Game(
        key=FORMAT.key,
        title=N_("Chess football"),
        summary=N_(
            "A 9 × 13 chequerboard: light and dark pieces, a captain, a keeper and one ball; mind the "
            "offside."
        ),
        format=FORMAT,
        policies=bots.POLICIES,
        room_setup=room_setup,
        line=line,
        private=private,
        reveals=reveals,
        options=OPTIONS,
        board="chess_football/board.html",
        board_context=board.board_context,
        board_assets=(
            "css/boardkit.css",
            "js/boardkit.js",
            "chess_football/board.css",
            "chess_football/board.js",
        ),
        in_magic_football=True,  # Magic Football's pages draw its matches with this board (R20)
    )
)
