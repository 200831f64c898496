"""Rooms of the other games through the real services (``game_act``) on the test database: every action one
transaction, the rows rebuild the state, the replay equals it, a record exports and imports as the same game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import sweep

from cards.catalog import get_catalog
from cards.models import Match
from games.api import get_format
from games.rng import Rng
from tournament.models import Game
from tournament.rules import bots, invariants
from tournament.rules.events import Actor
from tournament.rules.replay import dump
from tournament.rules.state import GameState
from tournament.services.actions import current_snapshot, game_act
from tournament.services.records import digest, record_export, record_import
from tournament.services.replays import game_replay
from tournament.services.rooms import room_create
from tournament.services.store import cache, load_snapshot

pytestmark = pytest.mark.django_db(transaction=True)

ROOMS = [
    ("dice-football", "single", 2),
    ("dice-football", "cup", 3),
    ("duel", "league", 3),
    ("chess-football", "cup", 3),
    ("grid-football", "single", 2),
]


def _state(game: Game, version: int) -> GameState:
    snap = cache.get(game.pk, version)
    if snap is None:
        game.refresh_from_db()
        snap = current_snapshot(game)
    return snap.state


def play_room(
    key: str,
    kind: str,
    players: int,
    seed: int,
    *,
    strengths: tuple[str, ...] = ("strong", "easy", "random"),
    every: Callable[[Game, GameState, int], None] | None = None,
) -> tuple[Game, GameState, int]:
    """A room of ``key`` with the host playing seat 1 against bots, played to its end through ``game_act``;
    ``every(game, state, version)`` looks at each state before its move."""
    cat = get_catalog()
    room = room_create(
        nickname="Anna",
        bots=list(strengths[: players - 1]),
        seed=seed,
        game=key,
        house_rules={"seats": players, "competition": kind, "options": sweep.quick_options(key)},
    )
    game = Game.objects.get(code=room.code)
    assert game.kind == key and game.setup["game"] == key
    result = game_act(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="s"
    )
    rng = Rng(seed)
    actions = 0
    while True:
        state = _state(game, result.version)
        assert not invariants.check(state, cat), invariants.check(state, cat)
        if every is not None:
            every(game, state, result.version)
        if state.status != "running":
            return game, state, actions
        prompt = state.prompts[rng.randbelow(len(state.prompts))]
        strength = state.seats[prompt.seat].bot or "easy"
        choice = bots.decide(state, prompt, strength, cat, rng)
        result = game_act(
            code=room.code,
            actor=Actor("seat", prompt.seat),
            action={"type": "answer", "prompt": prompt.id, "choice": choice},
            expected_version=result.version,
            action_id=f"a{actions}",
        )
        actions += 1
        assert actions < 20_000


@pytest.mark.parametrize(("key", "kind", "players"), ROOMS)
def test_a_room_of_another_game_is_stored_replayed_and_recorded(key: str, kind: str, players: int) -> None:
    game, state, actions = play_room(key, kind, players, seed=41)
    assert state.status == "finished" and state.winner is not None and actions > 10
    game.refresh_from_db()
    assert game.status == "finished" and game.winner_country == ""
    cache.drop(game.pk)
    assert dump(load_snapshot(game).state) == dump(state)  # the rows say exactly what the services did
    rows = Match.objects.filter(game=game).order_by("number")
    assert [(m.kind, m.format, m.home_role) for m in rows] == [(kind, key, "seat")] * len(state.matches)
    assert [m.status for m in rows] == ["finished"] * len(rows)
    for row, m in zip(rows, state.matches, strict=True):
        assert row.state["engine"] == get_format(key).to_dict(m.engine)
    report = game_replay(code=game.code)
    assert report.equal, report.differences
    record = record_export(game)
    assert record["setup"]["game"] == key and record["digest"] == digest(state)
    imported = Game.objects.get(code=record_import(record=record).code)
    assert imported.kind == key
    assert digest(load_snapshot(imported).state) == digest(state)


def test_an_unknown_game_opens_no_room() -> None:
    from tournament.rules.errors import RulesError

    before = Game.objects.count()
    with pytest.raises(RulesError) as info:
        room_create(nickname="Anna", game="tiddlywinks")
    assert info.value.code == "unknown_game" and Game.objects.count() == before


def _rows(game: Game) -> tuple[Any, ...]:
    game.refresh_from_db()
    cache.drop(game.pk)
    return (
        game.version,
        game.last_seq,
        game.events.count(),
        game.actions.count(),
        dump(load_snapshot(game).state),
    )


def test_refused_actions_in_a_dice_room_change_nothing() -> None:
    room = room_create(nickname="Anna", bots=["easy"], seed=5, game="dice-football", house_rules={"seats": 2})
    game_act(
        code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="s"
    )
    game = Game.objects.get(code=room.code)
    state = _state(game, game.version)
    prompt = state.prompts[0]
    other = 2 if prompt.seat == 1 else 1
    before = _rows(game)
    mine, theirs = Actor("seat", prompt.seat), Actor("seat", other)
    money = {"type": "transfer", "src": "bank", "dst": "p1", "amount": 5, "memo": "x"}
    bad = [
        (theirs, {"type": "answer", "prompt": prompt.id, "choice": prompt.default}, "not_your_prompt"),
        (mine, {"type": "answer", "prompt": prompt.id, "choice": {"die": "x"}}, "malformed"),
        (mine, {"type": "answer", "prompt": 999, "choice": prompt.default}, "unknown_prompt"),
        (Actor("host"), money, "illegal_choice"),  # there is no money in a dice room
    ]
    for i, (actor, action, code) in enumerate(bad):
        result = None
        with pytest.raises(Exception) as info:
            result = game_act(
                code=room.code, actor=actor, action=action, expected_version=game.version, action_id=f"b{i}"
            )
        assert result is None
        assert getattr(info.value, "code", None) == code
        assert _rows(game) == before
