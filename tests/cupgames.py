"""A game registered by the tests of the competition hooks (rulings CP6 and CP7 of games/competition.py):
grid football's engine and random bots with its Champions Cup hooks (``LEAGUE_POINTS``, ``CARRY``) under a
key of its own, so that the platform's cup can be tested before grid football is registered as a game, and
without touching its registration once it is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from games import api
from games.api import N_, Game, MatchFormat, MatchSetup
from games.grid_football.bots import default_policy, random_policy
from games.grid_football.competition import CARRY, LEAGUE_POINTS
from games.grid_football.rules import FORMAT, grid_setup
from games.rng import Rng

KEY = "grid-cup-test"


class Renamed:
    """A registered format under another key (a game's key and its format's are the same)."""

    def __init__(self, fmt: MatchFormat, key: str) -> None:
        self._fmt = fmt
        self.key = key

    def __getattr__(self, name: str) -> Any:
        return getattr(self._fmt, name)


def grid_cup_game(key: str = KEY, **match_options: Any) -> Game:
    """Grid football with the Champions Cup's hooks; every match gets ``match_options`` (the length)."""

    def room_setup(
        labels: tuple[str, str], knockout: bool, options: Mapping[str, Any], rng: Rng
    ) -> MatchSetup:
        return grid_setup(knockout=knockout, labels=labels, **match_options)

    return Game(
        key=key,
        title=N_("Grid football"),
        summary="",
        format=Renamed(FORMAT, key),  # type: ignore[arg-type]
        policies={
            "default": default_policy,
            "random": random_policy,
            "easy": random_policy,
            "strong": random_policy,
        },
        room_setup=room_setup,
        line=lambda event: None,
        competitions=("single", "cup", "league"),
        league_points=LEAGUE_POINTS,
        carry=CARRY,
    )


@contextmanager
def registered(game: Game) -> Iterator[Game]:
    """``game`` (and its format) registered for the block, unregistered afterwards."""
    api.register(game.format)
    api.register_game(game)
    try:
        yield game
    finally:
        api._GAMES.pop(game.key, None)
        api._FORMATS.pop(game.key, None)
