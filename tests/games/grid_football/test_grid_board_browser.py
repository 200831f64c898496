"""The grid-football board in real Chromium: a page made of the rendered partial with static/css/app.css, the
board's stylesheets and scripts inlined (as the room pages load them), on a phone and on a desktop.

It fits a 390 px phone without sideways scrolling; a tap on a pawn lights the squares its roll reaches and a
tap on one of them plays it (the choice's button submits); Esc steps back; the keyboard walks the same
choices with the arrow keys and Enter; the line-up sheet counts the ticked players; a kick that comes in draws
the ball's path, and nothing moves under reduced motion. Screenshots go to tests/artifacts/
(grid-board-phone.png, grid-board-desktop.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardpage import board_page, no_sideways_scroll
from test_grid_board import FORM, NAMES, moments

from games.grid_football.board import board_context
from games.grid_football.bots import random_policy
from games.grid_football.rules import FORMAT
from games.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "tests" / "artifacts"
SWAP = """html => { document.querySelector('.grid-board').outerHTML = html; }"""
SUBMITS = """() => { window.picked = []; document.addEventListener('submit', e => {
  e.preventDefault(); window.picked.push(e.submitter ? e.submitter.value : 'form'); }); }"""


def _render(st: Any, viewer: str | None) -> str:
    from django.template.loader import render_to_string

    mine = [d for d in FORMAT.decisions(st) if d.side == viewer]
    choices = list(mine[0].choices) if mine else None
    ctx = {"board": board_context(FORMAT.view(st, viewer), choices, NAMES)} | (
        FORM if choices is not None else {}
    )
    return render_to_string("grid_football/board.html", ctx)


def _page(board_html: str) -> str:
    return board_page(board_html, "grid-football")


def _walking() -> tuple[str, str, list[str]]:
    """The decider's board when he walks, and where his first pawn's roll takes it."""
    st = moments()["act"]
    side = ("home", "away")[st.dec_side]
    choices = FORMAT.decisions(st)[0].choices
    first = next(c for c in choices if c["kind"] in ("walk", "ball"))
    ball = FORMAT.view(st, None)["ball"]
    reach = sorted(
        {c["to"] if c["kind"] == "walk" else ball for c in choices if c.get("player") == first["player"]}
    )
    return _render(st, side), str(first["player"]), reach


def _kicked() -> tuple[str, str]:
    """A spectator's board before and after a kick (the ball's path is drawn in)."""
    st = moments()["kick"]
    before = _render(st, None)
    d = FORMAT.decisions(st)[0]
    FORMAT.apply(
        st := FORMAT.from_dict(FORMAT.to_dict(st)), d.side, random_policy(FORMAT, st, d, Rng(1)), Rng(1)
    )
    return before, _render(st, None)


def _targets(page: Any) -> list[str]:
    return page.eval_on_selector_all(".grid-sq--target", "els => els.map(e => e.dataset.square).sort()")


def test_the_board_on_a_phone_and_a_desktop(browser):
    walking, number, reach = _walking()
    before, after = _kicked()
    ARTIFACTS.mkdir(exist_ok=True)

    # ---- a phone in portrait, motion allowed
    context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="no-preference")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_content(_page(walking))
    page.evaluate(SUBMITS)
    no_sideways_scroll(page)
    assert page.locator(".grid-pitch").bounding_box()["width"] > 300
    assert page.locator(".grid-sq--choice").count() >= 1  # the pawns that can walk are marked

    # a tap on the pawn lights the squares its roll reaches; Esc steps back; another tap, then a square plays
    square = page.get_attribute(f".grid-step[data-key=p{number}]", "data-squares")
    page.click(f".grid-sq[data-square='{square}']")
    assert _targets(page) == reach
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.grid-sq--target')")  # the toggle event is async
    assert page.locator(".grid-step[open]").count() == 0
    page.click(f".grid-sq[data-square='{square}']")
    page.click(f".grid-sq[data-square='{reach[0]}']")
    assert len(page.evaluate("window.picked")) == 1
    page.screenshot(path=str(ARTIFACTS / "grid-board-phone.png"), full_page=True)

    # the keyboard: the arrow keys walk the pawns, Enter opens one, Tab and Enter play a square
    page.evaluate("() => document.querySelectorAll('.grid-step[open]').forEach(d => { d.open = false; })")
    keys = page.locator(".grid-level--top > .grid-step > summary")
    keys.nth(0).focus()
    if keys.count() > 1:
        page.keyboard.press("ArrowRight")
        second = "document.querySelectorAll('.grid-level--top > .grid-step > summary')[1]"
        assert page.evaluate(f"document.activeElement === {second}")
        page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_selector(".grid-level--top > .grid-step[open]")
    page.wait_for_function("() => !!document.querySelector('.grid-sq--target')")  # lit on the pitch too
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert len(page.evaluate("window.picked")) == 2

    # a kick comes in: the ball's path is drawn, and the caption is read out
    page.set_content(_page(before))
    page.evaluate(SWAP, after)
    page.wait_for_function("() => document.getAnimations().length > 0")
    caption = " ".join(page.inner_text(".grid-caption").split())
    page.wait_for_function("t => document.querySelector('.grid-live')?.textContent === t", arg=caption)
    context.close()

    # ---- reduced motion: the kick is shown and told, nothing moves
    context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    page = context.new_page()
    page.set_content(_page(before))
    page.evaluate(SWAP, after)
    page.wait_for_function("() => !!document.querySelector('.grid-live')?.textContent")
    assert page.evaluate("document.getAnimations().length") == 0
    context.close()

    # ---- the line-up sheet counts the ticked players by line
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_content(_page(_render(moments()["lineup"], "home")))
    page.evaluate(SUBMITS)
    page.click(".grid-lineup input[name=players][value='16']")
    assert page.inner_text(".grid-lineup [data-count]").startswith("12")
    page.click(".grid-lineup input[name=players][value='16']")
    assert page.inner_text(".grid-lineup [data-count]").startswith("11")
    no_sideways_scroll(page)
    context.close()

    # ---- a desktop: the pitch and the panel side by side, nothing wider than the window
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_content(_page(walking))
    no_sideways_scroll(page)
    pitch = page.locator(".grid-pitch").bounding_box()
    panel = page.locator(".grid-board__panel").bounding_box()
    assert pitch and panel and pitch["x"] + pitch["width"] <= panel["x"]
    page.screenshot(path=str(ARTIFACTS / "grid-board-desktop.png"), full_page=True)
    context.close()
