"""The Timeline behind replays and rewinds: the state at every version equals playing the actions in order,
whatever order the versions are asked for in (checkpoints, the last state computed, jumps back)."""

from __future__ import annotations

import random

import pytest
from nightkit import pure_game

from cards.catalog import get_catalog
from tournament.rules.replay import CHECKPOINT_EVERY, Timeline, dump, replay


def sequential_dumps(timeline: Timeline) -> list[dict]:
    dumps = []
    setup = {"mode": "world_cup", "house_rules": {"seats": 6}}
    initial = Timeline(timeline.seed, setup, "", get_catalog()).state_at(0)
    dumps.append(dump(initial))
    replay(
        timeline.seed,
        setup,
        "",
        timeline.actions,
        get_catalog(),
        on_step=lambda _i, st, _e: dumps.append(dump(st)),
    )
    return dumps


def test_every_version_in_any_order_equals_the_game_played_in_order():
    played = pure_game(seed=31, steps=300)
    truth = sequential_dumps(played)
    fresh = Timeline(
        31, {"mode": "world_cup", "house_rules": {"seats": 6}}, "", get_catalog(), played.actions
    )
    versions = list(range(len(fresh) + 1))
    random.Random(5).shuffle(versions)
    for version in versions:
        assert dump(fresh.state_at(version)) == truth[version], version


def test_a_step_back_costs_at_most_one_checkpoint_interval(monkeypatch):
    played = pure_game(seed=32, steps=200)
    timeline = Timeline(
        32, {"mode": "world_cup", "house_rules": {"seats": 6}}, "", get_catalog(), played.actions
    )
    timeline.state_at(len(timeline))
    calls = []
    original = Timeline.apply

    def counting(self, index, state):
        calls.append(index)
        return original(self, index, state)

    monkeypatch.setattr(Timeline, "apply", counting)
    timeline.state_at(len(timeline) - 1)
    assert len(calls) < CHECKPOINT_EVERY
    calls.clear()
    timeline.state_at(len(timeline))  # forward by one from the last state computed
    assert len(calls) == 1


def test_appending_by_index_adds_an_action_once():
    played = pure_game(seed=33, steps=10)
    timeline = Timeline(33, {"mode": "world_cup", "house_rules": {"seats": 6}}, "", get_catalog())
    for index, (label, action) in enumerate(played.actions):
        timeline.append(label, action, index=index)
        timeline.append(label, action, index=index)  # a second extender: ignored
    assert timeline.actions == played.actions


def test_versions_outside_the_timeline_are_refused():
    timeline = pure_game(seed=34, steps=5)
    with pytest.raises(IndexError):
        timeline.state_at(len(timeline) + 1)
    with pytest.raises(IndexError):
        timeline.state_at(-1)
    with pytest.raises(IndexError):
        timeline.events_at(0)


def test_events_of_a_version_are_those_its_action_emitted():
    played = pure_game(seed=35, steps=40)
    steps: list[list] = []
    setup = {"mode": "world_cup", "house_rules": {"seats": 6}}
    replay(35, setup, "", played.actions, get_catalog(), on_step=lambda _i, _st, evs: steps.append(evs))
    for version in (1, 5, 17, len(played)):
        assert played.events_at(version) == steps[version - 1]
