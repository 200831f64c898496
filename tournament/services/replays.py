"""Deterministic replay: rebuild a stored game from its seed and action log and compare."""

from __future__ import annotations

from dataclasses import dataclass

from cards.catalog import get_catalog
from tournament.models import ActionRecord, Game
from tournament.rules.replay import dump, replay
from tournament.services.store import load_snapshot


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The outcome of replaying one game."""

    code: str
    actions: int
    version: int
    equal: bool
    differences: tuple[str, ...]


def game_replay(*, code: str) -> ReplayReport:
    """Replay the room's recorded actions from its seed; report whether the result equals the stored game."""
    game = Game.objects.get(code=code)
    records = list(
        ActionRecord.objects.filter(game=game).order_by("version_before").values_list("actor", "action")
    )
    rebuilt = dump(replay(game.seed, game.setup, game.pre_qualified, records, get_catalog()))
    stored = dump(load_snapshot(game).state)
    differences = tuple(
        f"{key}: stored {stored[key]!r:.120} != replayed {rebuilt[key]!r:.120}"
        for key in stored
        if stored[key] != rebuilt.get(key)
    )
    return ReplayReport(
        code=code, actions=len(records), version=game.version, equal=not differences, differences=differences
    )
