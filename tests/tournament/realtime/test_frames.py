"""JSON deltas (docs/PROTOCOL.md): whatever changed between two views, the delta applied to the older one
gives the newer one exactly, and a change deep inside the running match costs bytes for that change only."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
import sweep
from hypothesis import given, settings
from hypothesis import strategies as st

from cards.catalog import get_catalog
from tournament.realtime import frames
from tournament.rules import bots
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer
from tournament.rules.setup import new_game
from tournament.services.store import Snapshot

KEYS = st.sampled_from(["a", "b", "c", "match", "seats", "engine"])
LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.text(max_size=3))
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.one_of(st.lists(inner, max_size=6), st.dictionaries(KEYS, inner, max_size=4)),
    max_leaves=12,
)
VIEWS = st.dictionaries(KEYS, VALUES, max_size=6)


def _delta_frame(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The delta members a frame would carry from ``before`` to ``after`` (as ``VersionFrames.delta``)."""
    changed, items, patches = frames._changes(before, after)
    frame: dict[str, Any] = {"delta": changed}
    if items:
        frame["items"] = items
    if patches:
        frame["patch"] = patches
    removed = [k for k in before if k not in after]
    if removed:
        frame["removed"] = removed
    return orjson.loads(orjson.dumps(frame, option=orjson.OPT_NON_STR_KEYS))  # as a client receives it


@settings(max_examples=sweep.examples(400))
@given(VIEWS, VIEWS)
def test_a_delta_applied_to_its_base_gives_the_new_view(
    before: dict[str, Any], after: dict[str, Any]
) -> None:
    frame = _delta_frame(before, after)
    held = copy.deepcopy(before)
    kept = copy.deepcopy(held)
    snapshot = dict(held)  # a shallow copy a client took before applying (the leak test does this)
    assert frames.apply_update(held, frame) == after
    assert snapshot == kept  # objects inside the held view are replaced, never changed in place


@settings(max_examples=sweep.examples(200))
@given(VIEWS, KEYS, VALUES)
def test_a_nested_change_is_sent_as_a_patch_of_that_change_only(
    view: dict[str, Any], key: str, value: Any
) -> None:
    before = {**view, "match": {"engine": {"window": {"turn": "home", "plays": []}, "score": [0, 0]}}}
    after = copy.deepcopy(before)
    after["match"]["engine"]["window"][key] = value
    if after == before:
        return
    frame = _delta_frame(before, after)
    assert frame["delta"] == {} and frame["patch"] == {"match": {"engine": {"window": {key: value}}}}
    assert frames.apply_update(copy.deepcopy(before), frame) == after


def test_a_member_that_is_gone_sends_the_whole_object() -> None:
    """A merge cannot drop a member, so an object that lost one (at any depth) is sent whole."""
    before = {"match": {"engine": {"goal": {"by": "home"}, "score": [1, 0]}}}
    after = {"match": {"engine": {"goal": {}, "score": [1, 0]}}}
    frame = _delta_frame(before, after)
    assert frame["delta"] == after and "patch" not in frame
    assert frames.apply_update(copy.deepcopy(before), frame) == after


def test_an_object_where_there_was_none_replaces_it() -> None:
    before = {"match": None, "seats": [1, 2]}
    after = {"match": {"number": 1, "engine": {"period": 1}}, "seats": [1, 2]}
    frame = _delta_frame(before, after)
    assert frame["delta"] == {"match": after["match"]}
    assert frames.apply_update(copy.deepcopy(before), frame) == after


@pytest.mark.django_db
def test_a_match_step_costs_a_spectator_the_change_not_the_whole_match() -> None:
    """Over a seeded bot tournament's running matches, a spectator's delta frame carries the match as a
    patch (no card it may not see: the frames are the hub's) and is much smaller than with the whole
    match; applied to the previous view it gives the full view."""
    cat = get_catalog()
    state = new_game(31, "world_cup", {"seats": 4})
    lobby = [{"type": "add_bot", "strength": s} for s in ("easy", "strong", "random", "easy")]
    for action in [*lobby, {"type": "start"}]:
        state = apply_action(state, Actor("host"), action, cat)[0]
    spectator = Viewer()
    version, seq = 1, 0
    previous: frames.VersionFrames | None = None
    held: dict[str, Any] | None = None
    patched = saved = whole = 0
    for _ in range(4000):
        if state.status != "running" or patched >= 40:
            break
        prompt = state.prompts[0]
        choice = bots.decide(state, prompt, "easy", cat, bots.bot_rng(state, version))
        state, events = apply_action(
            state, Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice}, cat
        )
        version += 1
        evs = [
            {"seq": seq + 1 + i, "kind": e.kind, "payload": e.payload, "audience": e.audience, "actor": "x"}
            for i, e in enumerate(events)
        ]
        seq += len(events)
        snap = Snapshot(game_id=0, code="patches", version=version, last_seq=seq, ledger_seq=0, state=state)
        current = frames.VersionFrames(snap, evs, evs[0]["seq"] if evs else seq + 1, previous)
        full = orjson.loads(current.full("spectator", spectator).encode())
        if previous is not None and held is not None:
            delta = orjson.loads(current.delta("spectator", spectator).encode())
            if "match" in delta.get("patch", {}):
                patched += 1
                saved += len(orjson.dumps(delta["patch"]["match"]))
                whole += len(orjson.dumps(full["view"]["match"]))
            assert frames.apply_update(held, delta) == full["view"]
        held = full["view"]
        previous = current
    assert patched >= 40
    assert saved * 3 < whole  # the match's changes are under a third of the match, summed over the steps
