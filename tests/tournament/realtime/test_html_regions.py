"""Room pages get only what changed (issue 10): the region declarations are sound, shared parts are the
same for every viewer, and a page fed changed-regions frames shows exactly what full frames would show.

``tournament/realtime/html.py`` renders a region once per distinct inputs (``Region.inputs``) and leaves
a region out of a page's next frame when its HTML did not change. That is only right if each declaration
lists everything its template reads: these tests play whole bot tournaments on the pure rules and check
every version, for a spectator, a seat and the host console, in English and Dutch.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
import sweep
from django.template.loader import render_to_string
from django.utils import translation

from cards.catalog import get_catalog
from tournament.realtime import frames, html
from tournament.realtime.hub import viewer_key
from tournament.rules import bots
from tournament.rules.engine import apply_action
from tournament.rules.events import Actor
from tournament.rules.projection import SPECTATOR, Viewer
from tournament.rules.setup import new_game
from tournament.selectors import view_for
from tournament.services.actions import pushed_events
from tournament.services.store import Snapshot

CAT = get_catalog()
CACHED = [r for r in html.GAME_REGIONS if r.inputs is not None]
STRIDE = sweep.size(ci=4, soak=1)  # versions between two renders after the start (tests/sweep.py)
# A page fed deltas is compared with a full frame at every COMPARE_EVERY-th version (each version in the
# soak): a change a delta missed stays on the page until that region changes again, so it is still there
# at the next comparison unless the region changed in between.
COMPARE_EVERY = sweep.size(ci=3, soak=1)


def tournament(seed: int, seats: int, host_plays: bool):
    """Every version of a bot tournament: (snapshot, events of the version with audiences, first seq)."""
    st = new_game(seed, "world_cup", {"seats": seats})
    seq = version = 0

    def act(actor: Actor, action: dict[str, Any]):
        nonlocal st, seq, version
        st, evs = apply_action(st, actor, action, CAT)
        first = seq + 1
        batch = pushed_events(evs, first, actor.label)
        seq += len(evs)
        version += 1
        snap = Snapshot(game_id=0, code="regions01", version=version, last_seq=seq, ledger_seq=0, state=st)
        return snap, batch, first

    if host_plays:
        act(Actor("host"), {"type": "join", "nickname": "Hosta", "host": True})
    while len(st.seats) < seats:
        act(Actor("host"), {"type": "add_bot", "strength": "easy"})
    yield act(Actor("host"), {"type": "start"})
    for _ in range(3000):
        if st.status != "running":
            break
        prompt = st.prompts[0]
        choice = bots.decide(st, prompt, "easy", CAT, bots.bot_rng(st, version))
        yield act(Actor("seat", prompt.seat), {"type": "answer", "prompt": prompt.id, "choice": choice})
    assert st.status == "finished"


def viewers(state: Any) -> list[Viewer]:
    seat = min(state.seats)
    return [SPECTATOR, Viewer(seat=seat, host=state.seats[seat].host), Viewer(host=True)]


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "seats", "lang"), [(31, 4, "en"), (32, 6, "nl")])
def test_equal_region_inputs_render_equal_html(seed: int, seats: int, lang: str) -> None:
    seen: dict[tuple[str, bytes], str] = {}
    hits = 0
    with translation.override(lang):
        for n, (snap, batch, first) in enumerate(tournament(seed, seats, host_plays=seed % 2 == 0)):
            if n % STRIDE and n > 40:  # every version of the start, then every STRIDE-th one
                continue
            for viewer in viewers(snap.state):
                ctx = html.room_context(snap, viewer, html.visible(batch, viewer), first, full=False)
                if ctx["in_lobby"]:
                    continue
                ctx = dict(ctx, oob=True)
                for region in CACHED:
                    inputs = html.fingerprint(region, ctx)
                    assert inputs is not None, f"{region.name}: inputs cannot be fingerprinted"
                    out = render_to_string(region.template, ctx)
                    before = seen.setdefault((region.name, inputs), out)
                    if before is not out:
                        hits += 1
                        assert before == out, (
                            f"v{snap.version} {viewer}: {region.name} read an undeclared input"
                        )
    assert hits > 1000  # many renders would have been saved: the check had material


def test_what_the_pages_share_is_the_same_for_every_viewer() -> None:
    for n, (snap, _batch, _first) in enumerate(tournament(33, 5, host_plays=True)):
        if n % 7:
            continue
        spectator = html.shared_context(view_for(snap, SPECTATOR))
        for viewer in viewers(snap.state):
            assert html.shared_context(view_for(snap, viewer)) == spectator, (snap.version, viewer)


class _Parts(HTMLParser):
    """The top-level out-of-band parts of a frame: id -> outer HTML (replaced by id on the page); a
    top-level ``<template>`` (what carries table parts) is looked through."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=False)
        self.text = text
        self.lines = [0]
        for line in text.splitlines(keepends=True):
            self.lines.append(self.lines[-1] + len(line))
        self.depth = 0
        self.start: tuple[int, str | None] | None = None
        self.parts: dict[str, str] = {}
        self.feed(text)

    def _offset(self) -> int:
        line, col = self.getpos()
        return self.lines[line - 1] + col

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "template" and self.depth == 0:
            return
        if tag in ("br", "img", "input", "meta", "link", "hr", "source", "use", "path", "circle", "rect"):
            if self.depth == 0:
                return
            return
        if self.depth == 0:
            found = dict(attrs)
            oob = found.get("hx-swap-oob")
            self.start = (self._offset(), found.get("id") if oob == "true" else None)
        self.depth += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        return

    def handle_endtag(self, tag: str) -> None:
        if tag == "template" and self.depth == 0:
            return
        if tag in ("br", "img", "input", "meta", "link", "hr", "source", "use", "path", "circle", "rect"):
            return
        self.depth -= 1
        if self.depth == 0 and self.start is not None:
            begin, dom_id = self.start
            end = self.text.index(">", self._offset()) + 1
            if dom_id:
                self.parts[dom_id] = self.text[begin:end]
            self.start = None


def _page(parts: dict[str, str]) -> dict[str, str]:
    """What a page shows, without #sync (its data-base differs by design) and fresh action ids."""
    return {k: re.sub(r'name="action_id" value="[0-9a-f]+"', "", v) for k, v in parts.items() if k != "sync"}


@pytest.mark.slow
def test_a_page_fed_changed_regions_shows_what_full_frames_show() -> None:
    cache = html.RegionCache()
    pages: html.VersionPages | None = None
    by_delta: dict[str, dict[str, str]] = {}
    deltas = saved = 0
    for snap, batch, first in tournament(34, 5, host_plays=True):
        pages = html.VersionPages(
            frames.VersionFrames(snap, batch, first, pages.json if pages else None), cache, pages
        )
        compare = snap.version % COMPARE_EVERY == 0 or snap.state.status != "running"
        for viewer in viewers(snap.state):
            key = viewer_key(viewer)
            if pages.base is None or key not in by_delta:
                by_delta[key] = dict(_Parts(pages.full(key, viewer, "html.en")).parts)
                continue
            delta_text = pages.delta(key, viewer, "html.en")
            assert f'data-base="{pages.base}"' in delta_text
            changed = _Parts(delta_text).parts
            deltas += 1
            by_delta[key].update(changed)
            if not compare:  # the page goes on from the deltas; the full frame is rendered to compare
                continue
            full = _Parts(pages.full(key, viewer, "html.en")).parts
            saved += len(full) - len(changed)
            shown = {k: v for k, v in by_delta[key].items() if k in full}
            assert set(full) <= set(by_delta[key]) and _page(shown) == _page(full), (
                f"v{snap.version} {viewer}: the changed-regions frame missed a change"
            )
    assert deltas > 1000 and saved > deltas // COMPARE_EVERY  # most frames left several regions out
