"""Every part of a room frame survives the browser's HTML parser (issue 23: the host's ledger did not update).

``static/js/room.js`` (and htmx, for a form's answer) parse a frame as the content of a ``<template>``; the
frame begins with ``<div id="sync">``, and from there on the parser drops a ``<tbody>``, ``<tr>`` or
``<td>`` that is not inside a ``<table>``: the ledger rows pushed to the host console were lost. Table
parts must travel inside a table or a ``<template>`` of their own, in every frame of every viewer.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
import sweep
from django.utils import translation
from test_html_regions import tournament, viewers

from tournament.realtime import frames, html
from tournament.realtime.hub import viewer_key

STRIDE = sweep.size(ci=9, soak=1)  # versions between two checks (the partials' shape is fixed by templates)

TABLE_PARTS = frozenset({"caption", "colgroup", "col", "thead", "tbody", "tfoot", "tr", "td", "th"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"})


class StrayTableParts(HTMLParser):
    """The table parts of a fragment that stand outside any ``<table>`` and ``<template>``."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[str] = []
        self.stray: list[str] = []
        self.parts = 0
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in TABLE_PARTS:
            self.parts += 1
            if "table" not in self.open and "template" not in self.open:
                found = dict(attrs)
                self.stray.append(f"<{tag} id={found.get('id')} hx-swap-oob={found.get('hx-swap-oob')}>")
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in self.open:
            while self.open.pop() != tag:
                pass


def test_the_parser_check_finds_a_bare_table_row() -> None:
    bare = '<div id="sync"></div><tbody hx-swap-oob="afterbegin:#ledger-rows"><tr><td>1</td></tr></tbody>'
    assert len(StrayTableParts(bare).stray) == 3
    wrapped = '<div id="sync"></div><template><tbody hx-swap-oob="true"><tr><td>1</td></tr></tbody>'
    assert StrayTableParts(wrapped + "</template>").stray == []


@pytest.mark.slow
def test_no_frame_of_any_viewer_carries_a_table_part_outside_a_table() -> None:
    cache = html.RegionCache()
    pages: html.VersionPages | None = None
    parts = 0
    with translation.override("nl"):
        for n, (snap, batch, first) in enumerate(tournament(35, 4, host_plays=True)):
            pages = html.VersionPages(
                frames.VersionFrames(snap, batch, first, pages.json if pages else None), cache, pages
            )
            if n % STRIDE:
                continue
            for viewer in viewers(snap.state):
                key = viewer_key(viewer)
                texts = [pages.full(key, viewer)]  # a page joining, or one that missed a version
                if pages.base is not None:
                    texts.append(pages.delta(key, viewer))  # the pages that hold the previous version
                if viewer.host:  # the answer to a form of the host's console: the whole ledger
                    events = html.visible(batch, viewer)
                    ledger = html.ledger_from_events(snap, batch)
                    ctx = html.room_context(snap, viewer, events, first, full=True, ledger=ledger)
                    texts.append(html.render_frame(ctx))
                for text in texts:
                    found = StrayTableParts(text)
                    parts += found.parts
                    assert found.stray == [], f"v{snap.version} {viewer}: {found.stray[:3]}"
    assert parts > 1000 // STRIDE  # the host's frames carried ledger rows: the check had material
