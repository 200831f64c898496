"""HTML frames of the room pages: what each viewer is sent, and that a spectator never sees a hidden card.

Frames are rendered from a snapshot, a viewer and the events since the previous frame. Most tests here
render pure game states (no database: the renderer must not need one for updates); the socket tests go
through the real consumer with ``format=html``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import sweep
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import translation

from cards.catalog import get_catalog
from magicfootball.asgi import application
from tournament.realtime import html
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.projection import Viewer, project
from tournament.rules.setup import new_game
from tournament.rules.state import GameState
from tournament.services.rooms import room_create
from tournament.services.store import Snapshot

CAT = get_catalog()
CAT_KIND = {card: CAT.kind_of(card).value for card in CAT.all_ids()}
PRIVATE_PILE = re.compile(r"^(team|holding|selection):\d$")
HIDDEN_SHARED = ("box1", "box2", "box3", "official_fields", "official_rivals", "official_countries", "match")


def snap_of(st: GameState, version: int, last_seq: int) -> Snapshot:
    return Snapshot(game_id=0, code="testroom22", version=version, last_seq=last_seq, ledger_seq=0, state=st)


def events_json(evs: list[Any], first: int) -> list[dict[str, Any]]:
    return [
        {
            "seq": first + i,
            "kind": e.kind,
            "payload": e.payload,
            "audience": list(e.audience) if e.audience is not None else None,
            "actor": "seat:1",
        }
        for i, e in enumerate(evs)
    ]


def bot_game(seed: int, humans: int = 1, bots: int = 3):
    """A game played by defaults, yielding (state, events so far, new events) after every action."""
    st = new_game(seed)
    log: list[dict[str, Any]] = []
    for n in range(humans):
        st, evs = apply_action(st, Actor("guest"), {"type": "join", "nickname": f"Human{n + 1}"}, CAT)
        log += events_json(evs, len(log) + 1)
    for _ in range(bots):
        st, evs = apply_action(st, Actor("host"), {"type": "add_bot", "strength": "random"}, CAT)
        log += events_json(evs, len(log) + 1)
    st, evs = apply_action(st, Actor("host"), {"type": "start"}, CAT)
    batch = events_json(evs, len(log) + 1)
    log += batch
    yield st, log, batch
    while st.status == "running":
        p = st.prompts[0]
        st, evs = apply_action(
            st, Actor("seat", p.seat), {"type": "answer", "prompt": p.id, "choice": p.default}, CAT
        )
        batch = events_json(evs, len(log) + 1)
        log += batch
        yield st, log, batch


STRIDE = sweep.size(ci=3, soak=1)  # the spectator-frame sweep: every STRIDE-th version besides private ones
ID_RE = re.compile(r"\b[A-Z]{1,2}\d{2,3}\b|\b[A-Z]{3}\b")


class Knowledge:
    """What a spectator may know so far: every card id in a public event (kept up to date incrementally)."""

    def __init__(self) -> None:
        self.from_events: set[str] = set()
        self.seen = 0

    def update(self, log: list[dict[str, Any]]) -> None:
        for e in log[self.seen :]:
            if e["audience"] is None:
                self.from_events.update(ID_RE.findall(json.dumps(e["payload"])))
        self.seen = len(log)

    def public(self, st: GameState) -> set[str]:
        """Public events plus the spectator's projection now."""
        return self.from_events | set(ID_RE.findall(json.dumps(project(st, Viewer(), CAT))))


def public_ids(st: GameState, log: list[dict[str, Any]]) -> set[str]:
    knowledge = Knowledge()
    knowledge.update(log)
    return knowledge.public(st)


def hidden_ids(st: GameState, public: set[str]) -> set[str]:
    """Cards in private places: teams, holdings, hands, blind stacks, the Official, hidden match stacks."""
    cards: set[str] = set()
    for key, pile in st.piles.items():
        if PRIVATE_PILE.match(key) or key in HIDDEN_SHARED:
            cards.update(pile)
    return cards - public


def leaks(page: str, st: GameState, public: set[str]) -> list[str]:
    """Hidden cards that show up in a page: by id, or by name (players, match cards, countries)."""
    public_names = {CAT.player(c).name for c in public if CAT_KIND.get(c) in ("field", "keeper", "rival")}
    page = page.replace("\u00ad", "")  # the soft hyphens of long player names on cards: read the text
    ids_on_page = set(ID_RE.findall(page))
    text = re.sub(r">\s+|\s+<", lambda m: m.group(0).strip(), page)  # ">  Tackle </" -> ">Tackle</"
    found = []
    for card in hidden_ids(st, public):
        kind = CAT_KIND[card]
        if card in ids_on_page:
            found.append(card)
        elif kind in ("field", "keeper", "rival"):
            name = CAT.player(card).name
            if name not in public_names and name in page:
                found.append(f"{card} {name}")
        elif kind == "match":
            mc = CAT.match_cards[card]
            for name in {mc.name_en, mc.name_nl}:
                if f">{name}<" in text or f"“{name}”" in text:
                    found.append(f"{card} {name}")
        elif kind == "country":
            country = CAT.countries[card]
            for name in {country.name_en, country.name_nl}:
                if name in page and re.search(rf"\b{re.escape(name)}\b", page):
                    found.append(f"{card} {name}")
    return found


@pytest.mark.parametrize("seed", [3, 8][: sweep.size(ci=1, soak=2)])
def test_a_spectator_frame_never_contains_a_hidden_card(seed):
    """Every frame a spectator receives over a whole game (and the full renders at several moments)."""
    checked = matches = 0
    knowledge = Knowledge()
    with translation.override("en"):
        for version, (st, log, batch) in enumerate(bot_game(seed)):
            # CI renders every version that sent someone a private event (where a leak would come from)
            # and every STRIDE-th of the rest; the soak renders every one
            private = any(e["audience"] is not None for e in batch)
            if not private and version % STRIDE:
                continue
            knowledge.update(log)
            public = knowledge.public(st)
            snap = snap_of(st, version + 1, len(log))
            first = batch[0]["seq"] if batch else len(log) + 1
            page = html.render_update(snap, Viewer(), batch, first)
            assert leaks(page, st, public) == [], (version, st.phase)
            if version % 97 == 0 or (st.running_match is not None and version % 13 == 0):
                ctx = html.room_context(
                    snap, Viewer(), html.visible(log[-60:], Viewer()), len(log) + 1, full=True
                )
                assert leaks(html.render_frame(ctx), st, public) == [], (version, st.phase)
            checked += 1
            matches += st.running_match is not None
    assert checked > 200 and matches > 30  # the game went through matches, where hidden stacks abound


def test_the_leak_check_finds_a_leak():
    """The check above can fail: a seat's own frame shows cards the spectator may not see."""
    for st, log, _batch in bot_game(4):  # noqa: B007  (the loop stops at the state we want)
        if st.piles.get("team:1") and st.phase == "phase2":
            break
    public = public_ids(st, log)
    page = html.render_update(snap_of(st, 1, len(log)), Viewer(seat=1), [], len(log) + 1)
    assert leaks(page, st, public)


def test_a_seat_sees_its_own_cards_and_not_the_others():
    for version, (st, log, batch) in enumerate(bot_game(4)):  # noqa: B007
        if st.phase == "phase2" and st.piles.get("team:1") and st.piles.get("team:2"):
            break
    snap = snap_of(st, version + 1, len(log))
    page = html.render_update(snap, Viewer(seat=1), batch, batch[0]["seq"] if batch else len(log) + 1)
    page = page.replace("\u00ad", "")  # as read: the soft hyphens of long names do not count
    mine = [CAT.player(c).name for c in st.piles["team:1"]]
    assert all(name in page for name in mine)
    public = public_ids(st, log)
    theirs = [c for c in st.piles["team:2"] if c not in public and CAT.player(c).name not in mine]
    assert theirs and not any(CAT.player(c).name in page for c in theirs)


def test_private_events_reach_only_their_owner():
    for version, (st, log, batch) in enumerate(bot_game(4)):  # noqa: B007
        if any(e["kind"] == "cards_dealt" and e["audience"] == [1] for e in batch):
            break
    snap = snap_of(st, version + 1, len(log))
    first = batch[0]["seq"]
    with translation.override("en"):
        owner = html.render_update(snap, Viewer(seat=1), batch, first)
        other = html.render_update(snap, Viewer(seat=2), batch, first)
        spectator = html.render_update(snap, Viewer(), batch, first)
    assert "You are dealt:" in owner
    assert "You are dealt:" not in other and "You are dealt:" not in spectator


def test_update_frame_structure_and_effects():
    game = bot_game(6)
    st, log, batch = next(game)
    for st, log, batch in game:  # noqa: B007
        if any(e["kind"] == "rolled" for e in batch):
            break
    snap = snap_of(st, 9, len(log))
    first = batch[0]["seq"]
    page = html.render_update(snap, Viewer(seat=1), batch, first)
    sync = re.search(r'<div id="sync"[^>]*>', page).group(0)
    rolled = next(e for e in batch if e["kind"] == "rolled")["payload"]
    moved = next(e for e in batch if e["kind"] == "pawn_moved")["payload"]
    assert 'hx-swap-oob="true"' in sync and 'data-version="9"' in sync and f'data-first-seq="{first}"' in sync
    assert f'data-seq="{len(log)}"' in sync and 'data-full="0"' in sync
    assert (
        f'data-die="{rolled["die"]}"' in sync and f'data-path="{",".join(map(str, moved["path"]))}"' in sync
    )
    for dom_id in ("banner", "board-svg", "players", "prompt", "hand", "duel"):
        assert re.search(rf'id="{dom_id}"[^>]*hx-swap-oob="true"', page), dom_id
    assert 'hx-swap-oob="afterbegin:#log-list"' in page  # new lines are prepended, by id
    assert f'id="log-{batch[-1]["seq"]}"' in page or f'id="log-{batch[-2]["seq"]}"' in page
    assert "csrf" not in page.lower()  # the token lives on <body>, never in a pushed frame


def test_the_same_frame_twice_is_the_same_text_except_action_ids():
    game = bot_game(6)
    st, log, batch = next(game)
    snap = snap_of(st, 3, len(log))
    a = html.render_update(snap, Viewer(seat=1), batch, 1)
    b = html.render_update(snap, Viewer(seat=1), batch, 1)
    strip = lambda s: re.sub(r'name="action_id" value="[0-9a-f]+"', "", s)  # noqa: E731
    assert strip(a) == strip(b)


def test_frames_follow_the_language_of_the_socket():
    st, log, batch = next(bot_game(6))
    snap = snap_of(st, 3, len(log))
    dutch = html.update_renderer("html.nl")(snap, Viewer(seat=1), batch, 1)
    english = html.update_renderer("html.en")(snap, Viewer(seat=1), batch, 1)
    fallback = html.update_renderer("html.xx")(snap, Viewer(seat=1), batch, 1)
    assert "Spelers" in dutch and "Players" not in dutch
    assert "Players" in english and "Players" in fallback  # an unknown language falls back to English
    assert html.html_format("nl") == "html.nl" and html.html_format("klingon") == "html.en"


def test_render_update_needs_no_database():
    """The hub renders updates on the server's event loop, where a query would block every socket: this
    module has no database (no django_db mark), so any query here raises."""
    st, log, batch = next(bot_game(6))
    page = html.update_renderer("html.nl")(snap_of(st, 3, len(log)), Viewer(seat=1), batch, 1)
    assert 'id="sync"' in page and 'id="players"' in page


def test_alert_frame_for_the_host():
    page = html.render_alert("money not conserved")
    assert 'id="host-alert"' in page and "money not conserved" in page and "beforeend:#toasts" in page


# ------------------------------------------------------------------------------------------ sockets


@pytest.fixture
def fresh_cache() -> Iterator[None]:
    """The database of a test is thrown away; so must the snapshots cached from it be (ids are reused)."""
    from tournament.services.store import cache

    cache.clear()
    yield
    cache.clear()


async def _connect(path: str) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm


@pytest.mark.django_db(transaction=True)
async def test_an_html_socket_gets_a_full_render_in_its_language(fresh_cache):
    room = await database_sync_to_async(room_create)(nickname="Anna", bots=["easy"], seed=5)
    nl = await _connect(f"/ws/r/{room.code}/?format=html&lang=nl")
    en = await _connect(f"/ws/r/{room.code}/?format=html&lang=en&as=spectator")
    first_nl = await nl.receive_from(timeout=5)
    first_en = await en.receive_from(timeout=5)
    assert 'data-full="1"' in first_nl and "Plaatsen" in first_nl
    assert 'data-full="1"' in first_en and "Seats" in first_en
    await nl.send_to(text_data=json.dumps({"type": "sync", "since": 0}))
    again = await nl.receive_from(timeout=5)
    assert 'data-full="1"' in again  # a sync is answered with a fresh full render
    await nl.disconnect()
    await en.disconnect()
