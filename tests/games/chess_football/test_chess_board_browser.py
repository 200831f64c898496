"""The chess-football board in real Chromium: a page made of the rendered partial with static/css/app.css, the
board's stylesheets and scripts inlined (as the room pages load them), on a phone and on a desktop.

It fits a 390 px phone without sideways scrolling; a tap on a piece lights its targets and a tap on a target
plays it (the choice's button submits); Esc steps back; the keyboard walks the same choices with the arrow
keys and Enter; a move that comes in slides the moved piece, and nothing moves under reduced motion.
Screenshots go to tests/artifacts/ (chess-board-phone.png, chess-board-desktop.png).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boardpage import board_page, no_sideways_scroll
from test_chess_board import FORM, NAMES

from games.chess_football.board import board_context
from games.chess_football.rules import FORMAT, chess_setup
from games.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "tests" / "artifacts"
SWAP = """html => { document.querySelector('.chess-board').outerHTML = html; }"""
SUBMITS = """() => { window.picked = []; document.addEventListener('submit', e => {
  e.preventDefault(); window.picked.push(e.submitter.value); }); }"""


def _render(st: Any, viewer: str | None) -> str:
    from django.template.loader import render_to_string

    mine = [d for d in FORMAT.decisions(st) if d.side == viewer]
    choices = list(mine[0].choices) if mine else None
    ctx = {"board": board_context(FORMAT.view(st, viewer), choices, NAMES)} | (FORM if choices else {})
    return render_to_string("chess_football/board.html", ctx)


def _page(board_html: str) -> str:
    return board_page(board_html, "chess-football")


def _boards() -> tuple[str, str, list[str]]:
    """Home to move at the kick-off (home's board), the spectator's board after that move, and where the
    light piece on c5 may go."""
    st = FORMAT.start(chess_setup(toss="home"), Rng(0))
    before = _render(st, "home")
    reach = sorted(
        c["move"].split("-")[1] for c in FORMAT.decisions(st)[0].choices if c["move"].startswith("Lc5-")
    )
    FORMAT.apply(st, "home", {"kind": "move", "move": "Lc5-d6"}, Rng(0))
    return before, _render(st, None), reach


def _targets(page: Any) -> list[str]:
    return page.eval_on_selector_all(".chess-sq--target", "els => els.map(e => e.dataset.square).sort()")


def test_the_board_on_a_phone_and_a_desktop(browser):
    before, after, reach = _boards()
    ARTIFACTS.mkdir(exist_ok=True)

    # ---- a phone in portrait, motion allowed
    context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="no-preference")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_content(_page(before))
    page.evaluate(SUBMITS)
    no_sideways_scroll(page)
    assert page.locator(".chess-pitch").bounding_box()["width"] > 300
    assert page.locator(".chess-sq--choice").count() >= 9  # the pieces that can move are marked

    # a tap on the light piece on c5 lights its targets; Esc steps back; another tap, then a target plays
    page.click(".chess-sq[data-square=c5]")
    assert _targets(page) == reach and "d6" in reach and "c6" not in reach  # its own colour only (§5.1)
    page.keyboard.press("Escape")
    page.wait_for_function("() => !document.querySelector('.chess-sq--target')")  # the toggle event is async
    assert page.locator(".chess-step[open]").count() == 0
    page.click(".chess-sq[data-square=c5]")
    page.click(".chess-sq[data-square=d6]")
    button = page.locator(".chess-step[open] .chess-leaf[data-key=d6]")
    assert page.evaluate("window.picked") == [button.get_attribute("value")]
    page.screenshot(path=str(ARTIFACTS / "chess-board-phone.png"), full_page=True)

    # the keyboard: the arrow keys walk the pieces, Enter opens one, Tab and Enter play a target
    page.evaluate("() => document.querySelectorAll('.chess-step[open]').forEach(d => { d.open = false; })")
    keys = page.locator(".chess-level--top > .chess-step > summary")
    keys.nth(0).focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate(
        "document.activeElement === document.querySelectorAll('.chess-level--top summary')[1]"
    )
    page.keyboard.press("Home")
    page.keyboard.press("Enter")
    page.wait_for_selector(".chess-level--top > .chess-step[open]")
    page.wait_for_function("() => !!document.querySelector('.chess-sq--target')")  # lit on the board too
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    assert len(page.evaluate("window.picked")) == 2

    # a move comes in: the moved piece slides, and the caption is read out
    page.evaluate(SWAP, after)
    page.wait_for_function("() => document.getAnimations().length > 0")
    page.wait_for_function("() => document.querySelector('.chess-live')?.textContent === 'Last move: Lc5-d6'")
    context.close()

    # ---- reduced motion: the move is shown and told, nothing moves
    context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion="reduce")
    page = context.new_page()
    page.set_content(_page(before))
    page.evaluate(SWAP, after)
    page.wait_for_function("() => document.querySelector('.chess-live')?.textContent === 'Last move: Lc5-d6'")
    assert page.evaluate("document.getAnimations().length") == 0
    context.close()

    # ---- a desktop: the board and the panel side by side, nothing wider than the window
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_content(_page(before))
    no_sideways_scroll(page)
    pitch = page.locator(".chess-pitch").bounding_box()
    panel = page.locator(".chess-board__panel").bounding_box()
    assert pitch and panel and pitch["x"] + pitch["width"] <= panel["x"]
    page.screenshot(path=str(ARTIFACTS / "chess-board-desktop.png"), full_page=True)
    context.close()
