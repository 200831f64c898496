"""No hidden-information leak (issue 8), over seeded bot tournaments: 8 in CI, 100 under ``make soak``.

Every action of every tournament is rendered the way the room hub renders it — the JSON ``update``
frames, full and delta (``frames.VersionFrames``, spliced from shared encoded parts), and the room page's
HTML frame (``html.VersionPages`` with one region cache for the room, so a region rendered for one
viewer is reused for the next exactly as the hub reuses it) — for every viewer: each seat, the host
console (playing or not) and a spectator. Each delta, applied to the viewer's previous view, must give
the full view. For each viewer the set of card ids it may NOT see is computed from the pure state
(``rel_leaks``), and none may appear: not in the view, not in an event (judged when it was emitted), not
in the HTML (by id or printed name).

The tournaments are played on the pure rules (fast), with 2–8 seats, both modes, every bot strength,
the host playing or not, and host actions (transfers, pauses, decisions by default) mixed in.
HTML frames are rendered for every 9th action, for every action that emits an event kind whose log
line was not rendered yet in the test case, and in the soak for every action of the first tournaments
(rendering is ~100 times slower than the rules). The CI sample (the first 8 seeds: 2–8 seats, both
modes, the host playing or not) catches the one leak the full sweep found (docs/RELIABILITY.md). The
initial frames, the catch-up log and the pages over real sockets and HTTP are checked on stored games
in test_no_leaks_live.py.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any

import orjson
import pytest
import sweep
from hypothesis import given
from hypothesis import strategies as st
from rel_leaks import (
    HtmlNames,
    Leak,
    MatchMemory,
    card_ids,
    html_leaks,
    json_leaks,
    may_leak,
    money_drawn,
    visible_cards,
)

from cards.catalog import get_catalog
from tournament.realtime import frames
from tournament.realtime.html import RegionCache, VersionPages
from tournament.realtime.hub import viewer_key
from tournament.rules import bots
from tournament.rules.engine import apply_action
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer
from tournament.rules.setup import new_game
from tournament.services.store import Snapshot

TOURNAMENTS = sweep.size(ci=8, soak=100)
GROUPS = sweep.size(ci=4, soak=10)  # test cases (so a failure names its seeds, and -n can spread them)
HTML_EVERY_ACTION = sweep.size(ci=0, soak=3)  # tournaments whose every action is rendered as HTML too
HTML_STRIDE = 9  # the others: every 9th action, and each action with an event kind not rendered yet
STRENGTHS = ("easy", "strong", "random")


@dataclass
class Tally:
    """What was checked."""

    tournaments: int = 0
    actions: int = 0
    json_frames: int = 0
    deltas: int = 0
    patches: int = 0  # deltas that merged nested objects (``patch``)
    html_frames: int = 0
    html_kinds: set[str] = field(default_factory=set)  # event kinds whose log lines were rendered
    events: int = 0
    leaks: list[Leak] = field(default_factory=list)


def _viewers(state: Any, host_seat: int | None) -> dict[str, Viewer]:
    viewers = {"spectator": Viewer()}
    for seat in state.seats:
        viewers[f"seat {seat}"] = Viewer(seat=seat, host=seat == host_seat)
    if host_seat is None:
        viewers["host"] = Viewer(host=True)
    return viewers


def _event_dicts(events: list[Any], first_seq: int, actor: str) -> list[dict[str, Any]]:
    """Events as the hub loads them from the database (JSON round trip, audience lists)."""
    return [
        {
            "seq": first_seq + i,
            "kind": e.kind,
            "payload": json.loads(json.dumps(e.payload)),
            "audience": list(e.audience) if e.audience is not None else None,
            "actor": actor,
        }
        for i, e in enumerate(events)
    ]


def _host_action(state: Any, rng: random.Random) -> dict[str, Any] | None:
    """Now and then the host intervenes (R1, R19): a transfer, a pause and resume, a default decision."""
    roll = rng.random()
    if roll < 0.4:
        return {
            "type": "transfer",
            "src": "bank",
            "dst": rng.choice([k for k in state.accounts if k != "bank"]),
            "amount": rng.randint(1, 50_000),
            "memo": "Correction <b>&</b> fix",
        }
    if roll < 0.6:
        return {"type": "pause"}
    if roll < 0.8 and state.prompts:
        return {"type": "force_default", "prompt": rng.choice(state.prompts).id}
    return None


def play_and_check(seed: int, tally: Tally, html_stride: int) -> None:
    """Play one tournament on the pure rules and check every frame of every action for every viewer."""
    cat = get_catalog()
    names = HtmlNames.build(cat, "en")
    every = set(cat.all_ids())
    countries = set(cat.countries)
    rng = random.Random(seed)
    players = 2 + seed % 7
    host_plays = seed % 3 != 0
    mode = "euro" if seed % 4 == 0 else "world_cup"
    state = new_game(seed, mode, {"seats": players})
    memory = MatchMemory()
    region_cache = RegionCache()
    pages = None
    seq = 0
    version = 0
    host_seat: int | None = None
    pushed: frames.VersionFrames | None = None  # the previous version's frames: the base of the deltas
    views: dict[str, dict[str, Any]] = {}  # each viewer's view as a delta client holds it

    def act(actor: Actor, action: dict[str, Any], check: bool = True) -> None:
        nonlocal state, seq, version, pushed, pages
        before = state
        memory.begin_action(before)
        with memory.watching():
            after, events = apply_action(before, actor, action, cat)
        first = seq + 1
        seq += len(events)
        version += 1
        state = after
        evs = _event_dicts(events, first, actor.label)
        snap = Snapshot(game_id=0, code="leakcheck", version=version, last_seq=seq, ledger_seq=0, state=after)
        pushed = frames.VersionFrames(snap, evs, first, pushed)
        render = version % html_stride == 0 or not tally.html_kinds.issuperset(e.kind for e in events)
        pages = VersionPages(pushed, region_cache, pages) if render else None
        if not check:
            views.clear()
            return
        tally.actions += 1
        tally.events += len(events)
        drawn = money_drawn(before, events)
        for label, viewer in _viewers(after, host_seat).items():
            seat = viewer.seat
            now = visible_cards(after, seat, memory)
            allowed = now | visible_cards(before, seat, memory) | memory.during | drawn
            allowed |= memory.own_during.get(seat, set()) if seat is not None else set()
            key = viewer_key(viewer)
            text = pushed.full(key, viewer)
            tally.json_frames += 1
            frame = orjson.loads(
                text.encode()
            )  # every frame of every viewer: the fast parser keeps the sweep short
            if may_leak(text, every - (now & allowed)):  # else no string of it names a card it may not see
                tally.leaks += json_leaks(frame["view"], every - now, f"seed {seed} v{version} view", label)
                for ev in frame["events"]:
                    where = f"seed {seed} v{version} event {ev['kind']}"
                    tally.leaks += json_leaks(ev, every - allowed, where, label)
            if pushed.base is not None and label in views:
                delta_text = pushed.delta(key, viewer)
                tally.deltas += 1
                delta = orjson.loads(delta_text.encode())
                tally.patches += "patch" in delta
                if may_leak(delta_text, every - (now & allowed)):
                    tally.leaks += json_leaks(
                        delta["delta"], every - now, f"seed {seed} v{version} delta", label
                    )
                    tally.leaks += json_leaks(
                        delta.get("items", {}), every - now, f"seed {seed} v{version} items", label
                    )
                    tally.leaks += json_leaks(
                        delta.get("patch", {}),
                        every - now,
                        f"seed {seed} v{version} patch",
                        label,
                        frame["view"],
                    )
                for gone in delta.get("removed", ()):
                    assert gone in views[label], f"seed {seed} v{version} {label}: removes a missing {gone}"
                applied = frames.apply_update(dict(views[label]), delta)
                assert applied == frame["view"], f"seed {seed} v{version} {label}: delta + base != full view"
                assert delta["events"] == frame["events"] and delta["base"] == version - 1
            views[label] = frame["view"]
        if pages is not None:
            tally.html_kinds.update(e.kind for e in events)
            if pages is not None:
                text = pages.full(key, viewer, "html.en")
                tally.html_frames += 1
                tally.leaks += html_leaks(
                    text, every - countries - (now | allowed), names, f"seed {seed} v{version} html", label
                )

    if host_plays:
        act(Actor("host"), {"type": "join", "nickname": "Hosta <i>", "host": True}, check=False)
        host_seat = 1
    while len(state.seats) < players:
        act(Actor("host"), {"type": "add_bot", "strength": STRENGTHS[len(state.seats) % 3]}, check=False)
    act(Actor("host"), {"type": "start"})
    for _ in range(5000):
        if state.status == "paused":
            act(Actor("host"), {"type": "resume"})
            continue
        if state.status != "running":
            break
        if rng.random() < 0.02:
            host = _host_action(state, rng)
            if host is not None:
                with contextlib.suppress(RulesError):  # e.g. a transfer larger than the balance
                    act(Actor("host"), host)
                continue
        prompt = rng.choice(state.prompts)
        strength = state.seats[prompt.seat].bot or "easy"
        choice = bots.decide(state, prompt, strength, cat, bots.bot_rng(state, version))
        act(Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
    assert state.status == "finished", f"seed {seed}: {state.status} in {state.phase}"
    tally.tournaments += 1


@pytest.mark.slow
@pytest.mark.parametrize("group", range(GROUPS))
def test_no_frame_shows_a_card_its_viewer_may_not_see(group: int) -> None:
    tally = Tally()
    per_group = TOURNAMENTS // GROUPS
    for i in range(per_group):
        index = group * per_group + i
        stride = 1 if index < HTML_EVERY_ACTION else HTML_STRIDE
        play_and_check(seed=4000 + index, tally=tally, html_stride=stride)
    print(
        f"group {group}: {tally.tournaments} tournaments, {tally.actions} actions, {tally.events} events, "
        f"{tally.json_frames} JSON frames and {tally.deltas} deltas ({tally.patches} with patches), "
        f"{tally.html_frames} HTML frames checked"
    )
    assert tally.tournaments == per_group
    assert tally.deltas > tally.actions  # deltas were checked for most viewers of most versions
    assert tally.patches > tally.tournaments  # ... and among them nested patches (the running matches)
    assert not tally.leaks, (
        "\n".join(str(leak) for leak in tally.leaks[:15]) + f"\n({len(tally.leaks)} in all)"
    )


def test_the_checker_sees_a_leak() -> None:
    """The control: a projection that shows one blind card must be caught (the check can fail)."""
    cat = get_catalog()
    state = new_game(7, "world_cup", {"seats": 3})
    for _ in range(3):
        state, _events = apply_action(state, Actor("host"), {"type": "add_bot", "strength": "easy"}, cat)
    state, _events = apply_action(state, Actor("host"), {"type": "start"}, cat)
    memory = MatchMemory()
    snap = Snapshot(game_id=0, code="x", version=1, last_seq=0, ledger_seq=0, state=state)
    frame = json.loads(frames.json_update(snap, Viewer(seat=1), [], 1))
    hidden = set(cat.all_ids()) - visible_cards(state, 1, memory)
    assert json_leaks(frame["view"], hidden, "view", "seat 1") == []
    frame["view"]["open_cards"]["field"]["id"] = state.piles["box1"][-1]  # the next blind card
    assert [leak.card for leak in json_leaks(frame["view"], hidden, "view", "seat 1")] == [
        state.piles["box1"][-1]
    ]
    # the same card in a delta's patch of the open field card (a few members of it only)
    field = frame["view"]["open_cards"]["field"]
    patch = {"open_cards": {"field": {"id": field["id"], "country": field["country"]}}}
    leaks = json_leaks(patch, hidden, "patch", "seat 1", shape=frame["view"])
    assert [leak.card for leak in leaks] == [state.piles["box1"][-1]]  # the id; the nationality is no card
    other_team = state.piles.get("team:2", []) or state.piles["official_fields"]
    text = f"<span>{cat.player(other_team[0]).name}</span>"
    assert html_leaks(text, hidden, HtmlNames.build(cat), "html", "seat 1")


@given(
    st.lists(
        st.one_of(
            st.sampled_from(sorted(HtmlNames.build(get_catalog()).by_name)),
            st.sampled_from(sorted(HtmlNames.build(get_catalog()).by_name)).map(lambda n: n[: len(n) // 2]),
            st.sampled_from(["F017", "K03", "R09", "M12", "G05", "XF017", "F0171", "K3", "M12b"]),
            st.text(alphabet="aZé_9 -'<>\"=&;.(★)", max_size=4),
        ),
        max_size=30,
    )
)
def test_the_fast_scanners_find_what_the_plain_regular_expressions_find(pieces: list[str]) -> None:
    """The sweeps scan HTML with a trie and a post-match word test (rel_leaks); the plain regular
    expressions they replace must find exactly the same names and ids, in the same places."""
    names = HtmlNames.build(get_catalog())
    text = "".join(pieces)
    alternatives = sorted(names.by_name, key=len, reverse=True)
    plain = re.compile(r"(?<![\w])(" + "|".join(re.escape(n) for n in alternatives) + r")(?![\w])")
    assert [(m.start(), m.end(), m.group(1)) for m in plain.finditer(text)] == list(names.finditer(text))
    ids = re.compile(r"(?<![A-Za-z0-9])(F\d{3}|K\d{2}|R\d{2}|M\d{2}|G\d{2})(?![A-Za-z0-9])")
    assert [(m.start(), m.group(1)) for m in ids.finditer(text)] == [
        (m.start(), m.group(1)) for m in card_ids(text)
    ]
