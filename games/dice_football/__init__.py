"""Dice football (seeds 001 German / 004 Spanish): the 8-dice board game on a 5 × 11 pitch, as a match format.

``rules.py`` is the engine (``DiceFootballFormat``, key ``"dice-football"``), ``geometry.py`` and ``dice.py``
the pitch and the dice as data, ``view.py`` the per-viewer projection, ``sentences.py`` the log lines,
``bots.py`` the bot policies, ``templates/`` and ``static/`` the board, and ``RULES.md`` every ruling
applied. Nothing here imports Django. Importing the package registers the game (``GAME``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.api import N_, Game, Line, MatchEvent, MatchSetup, Option, Ref, register_game
from games.dice_football import board, bots, sentences
from games.dice_football.rules import FORMAT, dice_setup
from games.rng import Rng

SHORT_HALF_TICKS = 15  # the room option "short match": a game night's quick match (DF-18)

OPTIONS = (
    Option(
        "length",
        N_("Match length"),
        (
            ("normal", N_("As the rules say: halves of 60 rolls (40 in a cup)")),
            ("short", N_("Short: halves of 15 rolls")),
        ),
    ),
    Option(
        "boskov",
        N_("Boskov variant"),
        (
            (False, N_("Off: a foul in the area is a penalty")),
            (True, N_("On: “it's a penalty when the referee whistles” (a CONTROL roll decides)")),
        ),
    ),
)


def room_setup(labels: tuple[str, str], knockout: bool, options: Mapping[str, Any], rng: Rng) -> MatchSetup:
    """A match between two seats of a dice-football room: no cards, only the room's options."""
    extra: dict[str, Any] = {"boskov": bool(options.get("boskov", False))}
    if options.get("length") == "short":
        extra["half_ticks"] = SHORT_HALF_TICKS
    return dice_setup(knockout=knockout, labels=labels, **extra)


_LOOK = {  # event kind -> (icon, tone) of its log line
    "goal": ("goal", "goal"),
    "match_over": ("flag", "match"),
    "toss": ("dices", "match"),
    "kickoff": ("whistle", "match"),
    "half_over": ("whistle", "match"),
    "time_up": ("clock", "match"),
    "sent_off": ("circle-alert", "match"),
    "star_rolled": ("star", "match"),
    "star_played": ("star", "match"),
    "shootout_kick": ("goal", "match"),
}


def line(event: MatchEvent) -> Line | None:
    """The event's log line: the sentence of ``sentences.py`` with its sides as presenter references."""
    text, params = sentences.sentence(event)
    values = {k: Ref("side", v) if k in sentences.SIDE_PARAMS else v for k, v in params.items()}
    icon, tone = _LOOK.get(event.kind, ("dices", "match"))
    return Line(text, values, icon, tone)


GAME = register_game(
    Game(
        key=FORMAT.key,
        title=N_("Dice football"),
        summary=N_("Eight dice and one ball on a 5 × 11 pitch: pass, shoot, tackle and save by the roll."),
        format=FORMAT,
        policies=bots.POLICIES,
        room_setup=room_setup,
        line=line,
        options=OPTIONS,
        board="dice_football/board.html",
        board_context=board.board_context,
        board_assets=(
            "css/boardkit.css",
            "js/boardkit.js",
            "dice_football/board.css",
            "dice_football/board.js",
        ),
        in_magic_football=True,  # Magic Football's pages draw its matches with this board (R20)
    )
)
