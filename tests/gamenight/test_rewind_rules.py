"""The host's rewind in the pure rules: the right state, logged, with every hidden pile reshuffled and the
dice moving on; refused when it would reveal something or go where it cannot (rulings G7–G11)."""

from __future__ import annotations

from collections import Counter

import pytest
import sweep
from hypothesis import given, settings
from hypothesis import strategies as st
from nightkit import HIDDEN_PILES, advance, pure_game

from cards.catalog import get_catalog
from tournament.rules import invariants
from tournament.rules.engine import apply_action
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.rules.replay import Timeline, dump, replay
from tournament.rules.rewind import MAX_SALT, POOLED_PILES

SALT = 0x5EED_CAFE


def rewind(timeline: Timeline, to_version: int, salt: int = SALT) -> tuple[object, list]:
    """Append a rewind and compute it; returns the new state and its events."""
    timeline.append("host", {"type": "rewind", "to_version": to_version, "salt": salt})
    now = len(timeline)
    state = timeline.state_at(now)
    return state, timeline.events_at(now)


def allowed_target(timeline: Timeline, at_most: int) -> int:
    """The latest version up to ``at_most`` that a rewind may go back to (running, no match)."""
    for version in range(at_most, 0, -1):
        state = timeline.state_at(version)
        if state.status == "running" and state.running_match is None:
            return version
    raise AssertionError("no moment to rewind to")


def comparable(state) -> dict:
    """What a rewind restores exactly: everything but the reshuffled piles, prompt ids and the counter."""
    data = dump(state)
    for key in ("rng_counter", "next_prompt"):
        data.pop(key)
    data["piles"] = {k: v for k, v in data["piles"].items() if k not in HIDDEN_PILES and k != "box4"}
    data["prompts"] = [p[1:] for p in data["prompts"]]
    return data


def test_a_rewind_restores_the_game_as_it_was_and_says_so_in_public():
    timeline = pure_game(seed=11, steps=220)
    now = len(timeline)
    before = timeline.state_at(now)
    target_version = allowed_target(timeline, now - 40)
    target = timeline.state_at(target_version)
    assert target.status == "running" and target.running_match is None
    after, events = rewind(timeline, target_version)
    assert comparable(after) == comparable(target)
    assert after.status == before.status and after.seats[1].takeover == before.seats[1].takeover
    rewound = [e for e in events if e.kind == "rewound"]
    assert len(rewound) == 1 and rewound[0].audience is None  # public: everyone sees it in the log
    assert rewound[0].payload == {
        "by": "host",
        "to_version": target_version,
        "undone": now - target_version,
        "reshuffled": [
            "box1",
            "official_fields",
            "box2",
            "box3",
            "box4",
            "official_countries",
            "official_rivals",
        ],
    }
    assert "salt" not in str(rewound[0].payload)  # the salt would let anyone redo the reshuffle
    assert invariants.check(after, get_catalog()) == []


def test_every_hidden_pile_is_reshuffled_and_keeps_its_cards():
    timeline = pure_game(seed=12, steps=150)
    target = timeline.state_at(40)
    after, _ = rewind(timeline, 40)
    pooled_before = Counter(c for key in POOLED_PILES for c in target.piles[key])
    pooled_after = Counter(c for key in POOLED_PILES for c in after.piles[key])
    assert pooled_before == pooled_after
    for key in POOLED_PILES:
        assert len(after.piles[key]) == len(target.piles[key])
    for key in ("box2", "box3", "box4", "official_countries", "official_rivals"):
        assert sorted(after.piles[key]) == sorted(target.piles[key]), key
    # with these pile sizes the chance that an order survives a fair shuffle is far below 1e-20
    for key in ("box1", "box2", "box3", "official_fields", "official_rivals"):
        assert len(target.piles[key]) > 15
        assert after.piles[key] != target.piles[key], key
    # the open cards (box 5 and 7 tops) and everybody's cards stay as they were
    for key in ("box5", "box7", "team:1", "team:2", "holding:1"):
        assert after.piles.get(key) == target.piles.get(key)


def test_two_salts_give_two_orders_and_the_same_salt_the_same_order():
    base = pure_game(seed=13, steps=120)
    actions = list(base.actions)
    cat = get_catalog()
    setup = {"mode": "world_cup", "house_rules": {"seats": 6}}
    one = replay(13, setup, "", [*actions, ("host", {"type": "rewind", "to_version": 30, "salt": 1})], cat)
    again = replay(13, setup, "", [*actions, ("host", {"type": "rewind", "to_version": 30, "salt": 1})], cat)
    other = replay(13, setup, "", [*actions, ("host", {"type": "rewind", "to_version": 30, "salt": 2})], cat)
    assert one.piles["box1"] == again.piles["box1"]  # a replay repeats a recorded rewind exactly
    assert one.piles["box1"] != other.piles["box1"]


def test_the_dice_move_on_after_a_rewind():
    timeline = pure_game(seed=14, steps=60)
    highest_used = timeline.state_at(len(timeline)).rng_counter
    target = timeline.state_at(10)
    after, _ = rewind(timeline, 10)
    assert target.rng_counter < highest_used
    assert after.rng_counter == highest_used  # never back: the next roll uses numbers nobody has seen
    # the rolls of the undone turns and the rolls after the rewind differ
    undone_rolls = [
        e.payload["die"] for v in range(11, 61) for e in timeline.events_at(v) if e.kind == "rolled"
    ]
    advance(timeline, 60)
    now = len(timeline)
    new_rolls = [
        e.payload["die"]
        for v in range(now - 59, now + 1)
        for e in timeline.events_at(v)
        if e.kind == "rolled"
    ]
    assert len(undone_rolls) >= 5 and len(new_rolls) >= 5
    assert new_rolls[: len(undone_rolls)] != undone_rolls[: len(new_rolls)]


def test_open_decisions_get_fresh_prompt_ids():
    timeline = pure_game(seed=15, steps=100)
    highest = timeline.state_at(len(timeline)).next_prompt
    target = timeline.state_at(45)
    after, events = rewind(timeline, 45)
    assert [p.kind for p in after.prompts] == [p.kind for p in target.prompts]
    assert all(p.id >= highest for p in after.prompts)  # a timer's action id is per prompt id: never reused
    deciding = [e.payload["prompt"] for e in events if e.kind == "deciding"]
    assert deciding == [p.id for p in after.prompts]


def test_the_money_difference_is_booked_so_the_ledger_follows():
    timeline = pure_game(seed=16, steps=200)
    before = timeline.state_at(len(timeline))
    after, events = rewind(timeline, 70)
    moved = Counter()
    for e in events:
        if e.kind == "transfer":
            assert e.payload["reason"] == "rewind"
            moved[e.payload["src"]] -= e.payload["amount"]
            moved[e.payload["dst"]] += e.payload["amount"]
    for key in before.accounts:
        assert before.accounts[key] + moved[key] == after.accounts[key], key


def test_a_replay_of_a_rewound_game_equals_the_game():
    timeline = pure_game(seed=17, steps=180)
    rewind(timeline, 90)
    advance(timeline, 80)
    rewind(timeline, len(timeline) - 20)
    advance(timeline, 40)
    live = timeline.state_at(len(timeline))
    again = replay(
        17, {"mode": "world_cup", "house_rules": {"seats": 6}}, "", timeline.actions, get_catalog()
    )
    assert dump(again) == dump(live)


def _refused(timeline: Timeline, actor: Actor, action: dict) -> RulesError:
    now = len(timeline)
    state = timeline.state_at(now)
    snapshot = dump(state)
    with pytest.raises(RulesError) as info:
        apply_action(state, actor, action, get_catalog(), timeline.history(now))
    assert dump(state) == snapshot  # nothing changed
    return info.value


def test_only_the_host_rewinds_and_only_with_the_servers_salt():
    timeline = pure_game(seed=18, steps=60)
    good = {"type": "rewind", "to_version": 20, "salt": 5}
    assert _refused(timeline, Actor("seat", 1), good).code == "forbidden"
    assert _refused(timeline, Actor("system"), good).code == "forbidden"
    assert _refused(timeline, Actor("host"), {"type": "rewind", "to_version": 20}).code == "malformed"
    bad_salt = {"type": "rewind", "to_version": 20, "salt": MAX_SALT + 1}
    assert _refused(timeline, Actor("host"), bad_salt).code == "malformed"
    assert (
        _refused(timeline, Actor("host"), {"type": "rewind", "to_version": "20", "salt": 5}).code
        == "malformed"
    )
    state = timeline.state_at(len(timeline))
    with pytest.raises(RulesError) as info:  # no history: the rules cannot rebuild the past
        apply_action(state, Actor("host"), good, get_catalog())
    assert info.value.code == "malformed"


def test_no_rewind_to_the_lobby_the_future_or_into_a_match():
    timeline = pure_game(seed=19, steps=60)
    now = len(timeline)
    assert "after the start" in str(
        _refused(timeline, Actor("host"), {"type": "rewind", "to_version": 2, "salt": 1})
    )
    assert "earlier" in str(
        _refused(timeline, Actor("host"), {"type": "rewind", "to_version": now, "salt": 1})
    )
    # a moment inside a match would show the other side's hidden stack: refused
    advance(timeline, 3000, until=lambda s: s.running_match is not None)
    inside = len(timeline)
    assert timeline.state_at(inside).running_match is not None
    advance(timeline, 2)
    message = str(_refused(timeline, Actor("host"), {"type": "rewind", "to_version": inside, "salt": 1}))
    assert "into a match" in message


def test_no_rewind_to_a_moment_an_earlier_rewind_undid():
    timeline = pure_game(seed=20, steps=120)
    rewind(timeline, 50)
    advance(timeline, 10)
    error = _refused(timeline, Actor("host"), {"type": "rewind", "to_version": 80, "salt": 1})
    assert "undone by an earlier rewind" in str(error)
    # before the first rewind's target and after it: fine
    for version in (40, len(timeline) - 3):
        state = timeline.state_at(len(timeline))
        action = {"type": "rewind", "to_version": version, "salt": 1}
        apply_action(state, Actor("host"), action, get_catalog(), timeline.history(len(timeline)))


def test_no_rewind_once_the_game_is_over():
    timeline = pure_game(seed=21, steps=10)
    timeline.append("host", {"type": "end_game"})
    assert (
        _refused(timeline, Actor("host"), {"type": "rewind", "to_version": 8, "salt": 1}).code == "game_over"
    )


@settings(max_examples=sweep.examples(12))
@given(
    seed=st.integers(1, 10_000),
    steps=st.integers(20, 160),
    back=st.integers(1, 60),
    salt=st.integers(0, MAX_SALT),
)
def test_any_allowed_rewind_keeps_the_game_sound_and_replayable(seed, steps, back, salt):
    timeline = pure_game(seed=seed, steps=steps)
    now = len(timeline)
    target = allowed_target(timeline, max(5, now - back))
    after, _ = rewind(timeline, target, salt)
    assert invariants.check(after, get_catalog()) == []
    advance(timeline, 30)
    again = replay(
        seed, {"mode": "world_cup", "house_rules": {"seats": 6}}, "", timeline.actions, get_catalog()
    )
    assert dump(again) == dump(timeline.state_at(len(timeline)))
