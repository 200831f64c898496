"""Hidden information in the rooms of the other games: the card duel's practice rooms hide each side's
players and match cards until the duel shows them. After every action of seeded rooms (one match, a league,
a cup; bots of every strength), no viewer's projection, no event he may see and no HTML frame he receives
names a card another side keeps to itself (``Game.private``) that no public event has shown yet
(``Game.reveals``).
"""

from __future__ import annotations

import itertools
import json
import re
from collections import Counter
from typing import Any

import pytest
import sweep

from cards.catalog import get_catalog
from games.api import MatchEvent, get_game
from games.rng import Rng
from tournament.realtime import html
from tournament.rules import bots
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.projection import SPECTATOR, Viewer, project
from tournament.rules.setup import new_game
from tournament.selectors import event_visible
from tournament.services.store import Snapshot

pytestmark = pytest.mark.django_db

# Rooms with one match at a time: every match deals from the same 22 rival cards, so two matches played side
# by side hold the same ids and a card id alone could not say which match a view is talking about.
ROOMS = [("single", 2), ("league", 3), ("cup", 3)]
SEEDS = range(sweep.size(ci=2, soak=20))
HTML_EVERY = sweep.size(ci=7, soak=1)  # rendering is dear: every 7th action in CI, every one in the soak


def _strings(value: Any) -> set[str]:
    return {s for s in json.dumps(value, default=str).replace('"', " ").split() if s}


def hidden_from(state: Any, viewer: Viewer, shown: set[str]) -> set[str]:
    """The cards of the playing matches that the viewer's sides do not own and no public event showed."""
    game = get_game(state.game)
    out: set[str] = set()
    for m in state.playing_matches():
        for side_name, side in (("home", m.home), ("away", m.away)):
            if viewer.seat is not None and side is not None and side.seat == viewer.seat:
                continue
            out |= set(game.private(m.engine, side_name)) - shown
    return out


def opponents_cards(state: Any, viewer: Viewer, number: int, shown: set[str]) -> set[str]:
    """What the viewer's opponent keeps to himself in match ``number``."""
    m = next(m for m in state.matches if m.number == number)
    other = "away" if m.home is not None and m.home.seat == viewer.seat else "home"
    return set(get_game(state.game).private(m.engine, other)) - shown


@pytest.mark.parametrize(("kind", "players"), ROOMS)
def test_no_viewer_of_a_duel_room_sees_a_card_another_side_keeps(kind: str, players: int) -> None:
    cat = get_catalog()
    people = {**cat.field_players, **cat.keepers, **cat.rivals}
    names = Counter(p.name for p in people.values())  # a name printed on two cards proves nothing
    checked = Counter()
    for seed in SEEDS:
        st = new_game(seed, game="duel", house_rules={"seats": players, "competition": kind})
        st, _ = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
        strengths = itertools.cycle(["strong", "easy", "random"])
        while len(st.seats) < players:
            st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": next(strengths)}, cat)
        st, events = apply_action(st, Actor("host"), {"type": "start"}, cat)
        rng = Rng(seed)
        shown: set[str] = set()
        viewers = [SPECTATOR, *(Viewer(s) for s in st.seats)]
        seq = 0
        for step in itertools.count():
            game = get_game(st.game)
            for e in events:
                if e.kind.startswith("m.") and e.audience is None:  # a public match event shows its cards
                    data = {k: v for k, v in e.payload.items() if k != "match"}
                    shown |= set(game.reveals(MatchEvent(e.kind[2:], data)))
            rows = []
            for e in events:
                seq += 1
                rows.append({"seq": seq, "kind": e.kind, "payload": e.payload, "audience": e.audience})
            assert len(st.playing_matches()) <= 1
            for viewer in viewers:
                secret = hidden_from(st, viewer, shown)
                if not secret:
                    continue
                view = project(st, viewer, cat)
                # his own match (playing, or the last one he played: the same 22 rival cards are dealt again
                # in every match, so his old team's ids may be another side's now) is checked against the
                # cards his opponent keeps in it; everything else in his view against every hidden card
                own = view.get("match")
                rest = {k: v for k, v in view.items() if k != "match"}
                leaked = secret & _strings(rest)
                if own is not None and own.get("status") == "playing":
                    leaked |= opponents_cards(st, viewer, own["number"], shown) & _strings(own)
                assert not leaked, (seed, step, viewer, "projection", sorted(leaked)[:3])
                mine = [r for r in rows if event_visible(r["audience"], viewer)]
                leaked = secret & _strings([r["payload"] for r in mine])
                assert not leaked, (seed, step, viewer, "events", sorted(leaked)[:3])
                checked["views"] += 1
                if step % HTML_EVERY == 0:
                    snap = Snapshot(
                        game_id=0, code="leakroom", version=step, last_seq=seq, ledger_seq=0, state=st
                    )
                    ctx = html.room_context(snap, viewer, mine, seq - len(rows) + 1, full=False, view=view)
                    frame = "".join(part for _name, part in html.render_regions(ctx))
                    frame = frame.replace("\u00ad", "")  # a long name on a card may break at soft hyphens
                    leaked = {c for c in secret if c in frame}
                    unique = {people[c].name for c in secret if c in people and names[people[c].name] == 1}
                    leaked |= {n for n in unique if n in frame}
                    assert not leaked, (seed, step, viewer, "html", sorted(leaked)[:3])
                    checked["html"] += 1
                    checked["boards"] += 'class="duel-board' in frame  # the board's HTML is checked too
            if st.status != "running":
                break
            prompt = st.prompts[rng.randbelow(len(st.prompts))]
            choice = bots.decide(st, prompt, st.seats[prompt.seat].bot or "strong", cat, rng)
            action = {"type": "answer", "prompt": prompt.id, "choice": choice}
            st, events = apply_action(st, Actor("seat", prompt.seat), action, cat)
        assert st.status == "finished"
    assert checked["views"] > 100 and checked["html"] > 10 and checked["boards"] > 10, checked


def test_the_check_sees_a_leak() -> None:
    """The checker is not blind: the other side's private cards, put in a view, are found."""
    cat = get_catalog()
    st = new_game(3, game="duel", house_rules={"seats": 2, "competition": "single"})
    st, _ = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
    st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "easy"}, cat)
    st, _ = apply_action(st, Actor("host"), {"type": "start"}, cat)
    secret = hidden_from(st, Viewer(1), set())
    assert secret
    match = st.playing_matches()[0]
    leaky = get_game("duel").format.view(match.engine, "away" if match.home.seat == 1 else "home")
    assert secret & _strings(leaky)


# ------------------------------------------------------------------------------------------ chess football
CHESS_SEEDS = range(sweep.size(ci=1, soak=20))


def _twin(st: Any, number: int, side: int) -> Any:
    """The same room, but the side that has chosen in match ``number``'s penalty chose another goal square."""
    import copy

    twin = copy.deepcopy(st)
    engine = next(m for m in twin.matches if m.number == number).engine
    choice = engine.pen_choice[side]
    goal = sorted(
        sq for sq in range(150) if sq // 10 in (0, 14) and 4 <= sq % 10 <= 6 and choice[-1] // 10 == sq // 10
    )
    choice[-1] = next(g for g in goal if g != choice[-1])
    return twin


def _seen(st: Any, viewer: Viewer, events: list[dict[str, Any]], step: int, seq: int) -> tuple[Any, str]:
    """What a viewer gets of a room: his projection, and the HTML of every region of his page."""
    view = project(st, viewer, get_catalog())
    mine = [e for e in events if event_visible(e["audience"], viewer)]
    snap = Snapshot(game_id=0, code="leakroom", version=step, last_seq=seq, ledger_seq=0, state=st)
    ctx = html.room_context(snap, viewer, mine, seq - len(events) + 1, full=False, view=view)
    page = "".join(part for _name, part in html.render_regions(ctx))
    return view, re.sub(r'name="action_id" value="[^"]*"', 'name="action_id"', page)  # fresh per render


def test_no_viewer_of_a_chess_room_learns_a_penalty_choice_before_both_are_in() -> None:
    """X-18 in the rooms: while one side has chosen its penalty (or shoot-out) choice and the other has not,
    the other side, the other seats and the spectators get exactly what they would get had it chosen
    otherwise: the same projection, the same events and the same HTML of every region of their pages."""
    cat = get_catalog()
    checked = Counter()
    for seed in CHESS_SEEDS:
        rules = {"seats": 3, "competition": "cup", "options": {"length": "short"}}
        st = new_game(seed, game="chess-football", house_rules=rules)
        st, _ = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
        for _ in range(2):
            st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "random"}, cat)
        st, events = apply_action(st, Actor("host"), {"type": "start"}, cat)
        rng, seq = Rng(seed), 0
        for step in itertools.count():
            rows = []
            for e in events:
                seq += 1
                rows.append({"seq": seq, "kind": e.kind, "payload": e.payload, "audience": e.audience})
            for m in st.playing_matches():
                chosen = [i for i in (0, 1) if m.engine.phase == 1 and m.engine.pen_choice[i] is not None]
                if len(chosen) != 1:
                    continue
                side = chosen[0]
                chooser = (m.home, m.away)[side].seat
                twin = _twin(st, m.number, side)
                for viewer in [SPECTATOR, *(Viewer(s) for s in st.seats if s != chooser)]:
                    assert _seen(st, viewer, rows, step, seq) == _seen(twin, viewer, rows, step, seq), viewer
                    checked["views"] += 1
                private = [r for r in rows if r["kind"] == "m.penalty_choice"]
                assert all(r["audience"] == (chooser,) for r in private)
            if st.status != "running":
                break
            prompt = st.prompts[rng.randbelow(len(st.prompts))]
            choice = bots.decide(st, prompt, st.seats[prompt.seat].bot or "random", cat, rng)
            st, events = apply_action(
                st, Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice}, cat
            )
        assert st.status == "finished"
    assert checked["views"] > 10, checked


# ------------------------------------------------------------------------------------------ grid football
GRID_SEEDS = range(sweep.size(ci=1, soak=20))


def _grid_twin(st: Any, number: int, side: int) -> Any:
    """The same room, but the side that has named its line-up in match ``number`` named another one (a
    different keeper and attacker: a legal line-up all the same)."""
    import copy

    twin = copy.deepcopy(st)
    engine = next(m for m in twin.matches if m.number == number).engine
    players = engine.lineup[side]
    eleven = players[:11]
    swaps = {1: 20, 20: 1, 14: 19, 19: 14, 15: 18, 18: 15}
    players[:11] = sorted(swaps.get(n, n) if swaps.get(n, n) not in eleven else n for n in eleven)
    assert players[:11] != eleven
    return twin


def test_no_viewer_of_a_grid_room_learns_a_line_up_before_both_are_in() -> None:
    """GF-30 in the rooms: while one side of a match has named its line-up and the other has not, the other
    side, the other seats and the spectators get exactly what they would get had it named another eleven:
    the same projection, the same events and the same HTML of every region of their pages."""
    cat = get_catalog()
    checked = Counter()
    for seed in GRID_SEEDS:
        rules = {"seats": 4, "competition": "cup", "options": {"length": "short"}}
        st = new_game(seed, game="grid-football", house_rules=rules)
        st, _ = apply_action(st, Actor("host"), {"type": "join", "nickname": "Anna", "host": True}, cat)
        for _ in range(3):
            st, _ = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "random"}, cat)
        st, events = apply_action(st, Actor("host"), {"type": "start"}, cat)
        rng, seq = Rng(seed), 0
        for step in itertools.count():
            rows = []
            for e in events:
                seq += 1
                rows.append({"seq": seq, "kind": e.kind, "payload": e.payload, "audience": e.audience})
            private = [r for r in rows if r["kind"] == "m.lineup"]
            assert all(len(r["audience"] or ()) == 1 for r in private)
            lining_up = False
            for m in st.playing_matches():
                named = [i for i in (0, 1) if m.engine.lineup[i] is not None]
                lining_up |= len(named) < 2
                if len(named) != 1:
                    continue
                side = named[0]
                chooser = (m.home, m.away)[side].seat
                twin = _grid_twin(st, m.number, side)
                for viewer in [SPECTATOR, *(Viewer(s) for s in st.seats if s != chooser)]:
                    assert _seen(st, viewer, rows, step, seq) == _seen(twin, viewer, rows, step, seq), viewer
                    checked["views"] += 1
            if not lining_up and step > 0:
                break  # every line-up is in: the rest of the match is played in the open
            prompt = st.prompts[rng.randbelow(len(st.prompts))]
            choice = bots.decide(st, prompt, st.seats[prompt.seat].bot or "random", cat, rng)
            st, events = apply_action(
                st, Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice}, cat
            )
    assert checked["views"] >= 6, checked
