"""Grid football (seed 000, Cwali 2020): 22 pawns on a 10-column grid, three dice, cards, injuries and
substitutions, as a match format.

``rules.py`` is the engine (``GridFootballFormat``, key ``"grid-football"``), ``geometry.py``, ``moves.py``
and ``state.py`` the pitch, the search over walks and kicks and the state as data, ``view.py`` the
per-viewer projection (the hidden line-ups), ``sentences.py`` the log lines, ``bots.py`` the bot policies,
``board.py`` with ``templates/`` and ``static/`` the board, ``competition.py`` what a cup carries from match
to match, and ``RULES.md`` every ruling applied. Nothing here imports Django. Importing the package
registers the game (``GAME``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.api import N_, Game, Line, MatchEvent, MatchSetup, Option, register_game, sentence_line
from games.grid_football import board, bots, sentences
from games.grid_football.competition import CARRY, LEAGUE_POINTS
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import GridState
from games.grid_football.view import lineup_text, secret_lineup
from games.rng import Rng

# The room option "match length" (RULES.md §7, §13): the rules' clock (a counted '1' is six minutes, the 16th
# ends the match), the rulebook's fixed-length variant (§15: 90 rolls plus one per foul), or a game night's
# short fixed-length match.
LENGTHS: dict[str, dict[str, Any]] = {
    "normal": {},
    "fixed": {"fixed_length": True},
    "short": {"fixed_length": True, "fixed_rolls": 30},
}

OPTIONS = (
    Option(
        "length",
        N_("Match length"),
        (
            ("normal", N_("As the rules say: every 1 rolled moves the clock six minutes, the 16th ends it")),
            ("fixed", N_("Fixed length (the rules' variant): 90 rolls plus one per foul")),
            ("short", N_("Game night: 30 rolls plus one per foul (extra time 10)")),
        ),
    ),
)


def room_setup(labels: tuple[str, str], knockout: bool, options: Mapping[str, Any], rng: Rng) -> MatchSetup:
    """A match between two seats of a grid-football room: no cards, both squads of 20 and the room's length
    (the line-ups are the coaches' first decision, §3.2)."""
    return grid_setup(knockout=knockout, labels=labels, **LENGTHS[str(options.get("length", "normal"))])


def line(event: MatchEvent) -> Line | None:
    """The event's log line: the sentence of ``sentences.py`` with its sides as presenter references."""
    look = sentences.LOOK.get(event.kind, ("footprints", "match"))
    return sentence_line(sentences.sentence(event), sentences.SIDE_PARAMS, look)


def private(state: GridState, side: str) -> frozenset[str]:
    """What a side keeps to itself: its line-up while the other side has not named its own (GF-30), as the
    one-word token its own view shows."""
    text = secret_lineup(state, 0 if side == "home" else 1)
    return frozenset((text,)) if text else frozenset()


def reveals(event: MatchEvent) -> Iterable[str]:
    """Both line-ups are shown once both are in (the ``lineups`` event)."""
    if event.kind == "lineups":
        return tuple(lineup_text(s, event.data[s]["players"]) for s in ("home", "away"))
    return ()


GAME = register_game(
    Game(
        key=FORMAT.key,
        title=N_("Grid football"),
        summary=N_(
            "Eleven numbered pawns a side on a squared pitch, three dice, offside, fouls and cards, "
            "injuries and substitutions."
        ),
        format=FORMAT,
        policies=bots.POLICIES,
        room_setup=room_setup,
        line=line,
        private=private,
        reveals=reveals,
        options=OPTIONS,
        board="grid_football/board.html",
        board_context=board.board_context,
        board_assets=(
            "css/boardkit.css",
            "js/boardkit.js",
            "grid_football/board.css",
            "grid_football/board.js",
        ),
        in_magic_football=True,  # Magic Football's pages draw its matches with this board (R20)
        league_points=LEAGUE_POINTS,  # the Champions Cup's 5-0 / 4-1 / 3-2 (§16, CP6)
        carry=CARRY,  # suspensions and injury windows carried from match to match (§16, GF-21, CP7)
    )
)
