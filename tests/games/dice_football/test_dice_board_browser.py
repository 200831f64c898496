"""The dice-football board in real Chromium: a page made of the rendered partial with static/css/app.css,
board.css and the board's scripts inlined (as the room pages load them), on a phone and on a desktop.

It fits a 360 px phone without sideways scrolling, shows the pitch and the dice, lets a keyboard user reach
the choices with Tab and move between them with the arrow keys, lets a lit square submit its choice, and
animates a new roll only when the reader has not asked for reduced motion. Screenshots go to
tests/artifacts/ (dice-board-phone.png, dice-board-desktop.png).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardpage import board_page, no_sideways_scroll
from test_dice_board import FMT, moments, render

from games.dice_football.board import board_context
from games.rng import Rng

ROOT = Path(__file__).resolve().parents[3]
ARTIFACTS = ROOT / "tests" / "artifacts"


def _page(board_html: str) -> str:
    return board_page(board_html, "dice-football")


def _boards() -> tuple[str, str, dict[str, Any]]:
    """A direction decision for its decider (two lit squares), and the board after it was taken and the
    next roll came in."""
    st = FMT.clone(moments()["direction up extra time"])
    side = FMT.decisions(st)[0].side
    before = render(st, side)[2]
    # the decider takes the left choice, then rolls the first die offered: a new roll arrives
    rng = Rng(11)
    FMT.apply(st, side, FMT.decisions(st)[0].choices[0], rng)
    while FMT.decisions(st)[0].kind != "action":
        d = FMT.decisions(st)[0]
        FMT.apply(st, d.side, d.default, rng)
    d = FMT.decisions(st)[0]
    seq = board_context(FMT.view(st, None), None)["roll_seq"]
    FMT.apply(st, d.side, d.choices[0], rng)
    after_view = FMT.view(st, None)
    assert board_context(after_view, None)["roll_seq"] != seq
    after = render(st, None)[2]
    return before, after, after_view


def _in_view(page: Any, selector: str) -> None:
    width = page.evaluate("window.innerWidth")
    for el in page.locator(selector).all():
        assert el.is_visible(), selector
        box = el.bounding_box()
        assert box and box["width"] > 0, selector
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (selector, box)


SWAP = """html => { document.querySelector('.dice-board').outerHTML = html; }"""
TUMBLING = """() => document.getAnimations().some(a => a.effect && a.effect.target &&
    a.effect.target.matches && a.effect.target.matches('.dice-die--last'))"""
SETTLED = """() => document.getAnimations().length === 0 && [...document.querySelectorAll('.dice-die--last')]
    .every(d => d.querySelector('use').getAttribute('href') === '#' + d.getAttribute('data-face'))"""
ANNOUNCED = """() => { const live = document.querySelector('.dice-live');
    const caption = document.querySelector('.dice-caption');
    return !!live && live.textContent === caption.textContent.replace(/\\s+/g, ' ').trim(); }"""


def test_the_board_on_a_phone_and_a_desktop(browser):
    before, after, after_view = _boards()
    ARTIFACTS.mkdir(exist_ok=True)

    # ---- a phone in portrait, motion allowed
    context = browser.new_context(viewport={"width": 360, "height": 740}, reduced_motion="no-preference")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_content(_page(before))
    no_sideways_scroll(page)
    _in_view(page, ".dice-pitch")
    _in_view(page, ".dice-tray .dice-die")
    assert page.locator(".dice-tray .dice-die").count() == 8
    assert page.locator(".dice-sq[data-pick]").count() == 2

    # keyboard: Tab reaches the first choice, the arrow keys move between them (one tab stop)
    page.keyboard.press("Tab")
    focused = "document.activeElement.matches('.dice-choice') && document.activeElement.value"
    assert page.evaluate(focused) == "0"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.value") == "1"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.value") == "0"
    page.keyboard.press("End")
    assert page.evaluate("document.activeElement.value") == "1"
    assert page.evaluate("[...document.querySelectorAll('.dice-choice')].map(b => b.tabIndex)") == [-1, 0]
    # an update that redraws the board keeps a keyboard user on the same choice
    page.evaluate(SWAP, before)
    page.wait_for_function(f"({focused}) === '1'")

    # Enter on a button and a click on a lit square both submit that choice (the page keeps the post)
    page.evaluate(
        """() => { window.picked = [];
        document.querySelector('.dice-choices').addEventListener('submit', e => {
          e.preventDefault(); window.picked.push(e.submitter.value); }); }"""
    )
    page.keyboard.press("Enter")
    square = page.locator(".dice-sq[data-pick='0']")
    square.click()
    assert page.evaluate("window.picked") == ["1", "0"]

    # a new roll arrives: the rolled die tumbles, then lands on its face, and the caption is announced
    page.evaluate(SWAP, after)
    page.wait_for_function(TUMBLING)
    page.wait_for_function(SETTLED)
    page.wait_for_function(ANNOUNCED)
    last = after_view["last_roll"]
    assert page.locator(".dice-die--last").get_attribute("data-die") == last["die"]
    assert page.locator(".dice-ball").get_attribute("data-square") == "{}{}".format(
        "abcde"[after_view["ball"][0] - 1], after_view["ball"][1]
    )
    no_sideways_scroll(page)
    page.locator(".dice-legend summary").click()  # the legend, opened, fits too
    no_sideways_scroll(page)
    _in_view(page, ".dice-legend .dice-die")
    page.screenshot(path=str(ARTIFACTS / "dice-board-phone.png"), full_page=True)
    context.close()

    # ---- the same phone asking for reduced motion: the update is shown and announced, nothing moves
    context = browser.new_context(viewport={"width": 360, "height": 740}, reduced_motion="reduce")
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.set_content(_page(before))
    page.evaluate(SWAP, after)
    page.wait_for_function(ANNOUNCED)
    assert page.evaluate("document.getAnimations().length") == 0
    assert page.evaluate(SETTLED)
    context.close()

    # ---- a desktop: the pitch and the panel side by side, nothing wider than the window
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_content(_page(before))
    no_sideways_scroll(page)
    _in_view(page, ".dice-pitch")
    _in_view(page, ".dice-tray .dice-die")
    pitch = page.locator(".dice-pitch").bounding_box()
    panel = page.locator(".dice-board__panel").bounding_box()
    assert pitch and panel and pitch["x"] + pitch["width"] <= panel["x"], json.dumps([pitch, panel])
    assert pitch["height"] <= 800
    page.screenshot(path=str(ARTIFACTS / "dice-board-desktop.png"), full_page=True)
    context.close()
