"""A board partial read as its reader gets it: every element with its attributes and its whole text (the
games' board tests, tests/games/<game>/test_*_board.py)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any


class Element:
    """One element: its tag, its attributes and all the text inside it."""

    def __init__(self, tag: str, attrs: dict[str, str]) -> None:
        self.tag, self.attrs, self.text = tag, attrs, ""

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())


class Page(HTMLParser):
    """Every element with its attributes and its whole text (what a reader of the page gets)."""

    VOID = {"input", "br", "img", "meta", "link", "hr", "rect", "circle", "path", "line", "use", "stop"}

    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[Element] = []
        self.open: list[Element] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        el = Element(tag, {k: v or "" for k, v in attrs})
        self.elements.append(el)
        if tag not in self.VOID:
            self.open.append(el)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append(Element(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for i in range(len(self.open) - 1, -1, -1):
            if self.open[i].tag == tag:
                del self.open[i:]
                return

    def handle_data(self, data: str) -> None:
        for el in self.open:
            el.text += data

    def all(self, cls: str) -> list[Element]:
        return [e for e in self.elements if cls in e.classes]

    def one(self, cls: str) -> Element:
        found = self.all(cls)
        assert len(found) == 1, (cls, len(found))
        return found[0]

    def tags(self, tag: str) -> list[Element]:
        return [e for e in self.elements if e.tag == tag]


class Tree(HTMLParser):
    """The decider's choices as a board's page nests them (a tree of ``<prefix>-step`` disclosures and
    ``<prefix>-leaf`` buttons, static/js/boardkit.js): each node's key and squares, a leaf's choice number."""

    def __init__(self, html: str, prefix: str) -> None:
        super().__init__()
        self.prefix = prefix
        self.root: dict[str, Any] = {"children": []}
        self.stack = [self.root]
        self.buttons: list[int] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        cls = a.get("class", "").split()
        if (tag == "details" and f"{self.prefix}-step" in cls) or (
            tag == "button" and f"{self.prefix}-leaf" in cls
        ):
            node = {"key": a["data-key"], "squares": a.get("data-squares", "").split(), "children": []}
            if tag == "button":
                node["pick"] = int(a["value"])
                self.buttons.append(node["pick"])
            self.stack[-1]["children"].append(node)
            if tag == "details":
                self.stack.append(node)

    def handle_endtag(self, tag: str) -> None:
        if tag == "details" and len(self.stack) > 1:
            self.stack.pop()


def words(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


_STR = r"u?('(?:[^'\\]|\\.)*')"


def board_msgids(module_file: str, templates: Iterable[str]) -> set[tuple[str, str]]:
    """Every (context, msgid) of a board, found as makemessages finds them: the ``N_`` labels of its
    ``board.py`` and its templates' ``translate``/``blocktranslate`` texts."""
    from django.template.loader import get_template
    from django.utils.translation.template import templatize

    source = Path(module_file).read_text(encoding="utf-8")
    ids = {("", ast.literal_eval(m)) for m in re.findall(r'N_\((".*?")\)', source)}
    for name in templates:
        code = templatize(Path(get_template(name).origin.name).read_text(encoding="utf-8"))
        ids |= {("", ast.literal_eval(m)) for m in re.findall(r"(?<!p)gettext\(" + _STR + r"\)", code)}
        for ctx, m in re.findall(r"pgettext\(" + _STR + r",\s*" + _STR + r"\)", code):
            ids.add((ast.literal_eval(ctx), ast.literal_eval(m)))
        for m, _plural in re.findall(r"(?<!n)ngettext\(" + _STR + r",\s*" + _STR, code):
            ids.add(("", ast.literal_eval(m)))
    return ids


def translated_away(ids: Iterable[tuple[str, str]], lang: str, shortest: int = 1) -> set[str]:
    """The msgids (without placeholders, at least ``shortest`` long) that ``lang`` words differently: none of
    them may be left in English on a board drawn in that language."""
    from django.utils import translation

    with translation.override(lang):
        said = {m: translation.pgettext(ctx, m) if ctx else translation.gettext(m) for ctx, m in ids}
    return {m for m, text in said.items() if "%(" not in m and text != m and len(m) >= shortest}


def english_left(shown: str, english: Iterable[str]) -> list[str]:
    """Which of the ``english`` msgids still stand, as whole phrases, in the text a reader is ``shown``."""
    return sorted(i for i in english if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", shown))


def shown_text(page: Page) -> str:
    """What a reader of a page gets: its text, and its aria-labels and titles."""
    return " | ".join(
        [words(e.text) for e in page.elements if e.tag not in ("style", "script")]
        + [e.attrs.get(a, "") for e in page.elements for a in ("aria-label", "title")]
    )


ROOT = Path(__file__).resolve().parents[1]


def board_page(board_html: str, game: str) -> str:
    """A page of one rendered board partial with static/css/app.css and the game's board assets inlined
    (the board kit first, as the room pages load them), for a browser test of the board alone."""
    from django.contrib.staticfiles import finders

    from games.api import get_game

    assets = get_game(game).board_assets
    css = (ROOT / "static" / "css" / "app.css").read_text() + "".join(
        Path(finders.find(a)).read_text() for a in assets if a.endswith(".css")
    )
    js = "\n".join(Path(finders.find(a)).read_text() for a in assets if a.endswith(".js"))
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        f"<style>{css}</style></head><body><main class='site-main'>{board_html}</main>"
        f"<script>{js}</script></body></html>"
    )


def no_sideways_scroll(page: Any) -> None:
    """Nothing on a (Playwright) page is wider than its window."""
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), page.evaluate(
        "[document.documentElement.scrollWidth, window.innerWidth]"
    )
