"""A whole card-duel practice match in real Chromium: Anna opens a "Card duel" room from the landing page
against a bot, sets her line-up on the board with the keyboard (a card moved down, another reserve), answers
every window on the board (a match card, a swap, passes) to the final whistle, and a spectator on a phone
follows the match live (nothing moving: he asked for reduced motion) without ever seeing a card the two
sides keep to themselves; axe finds nothing serious on the pages."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from typing import Any

import pytest
from test_gamenight_browser import contexts, run_axe, server, shot, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

BOARD = "#comp-boards .duel-board"
CHOICE = f"{BOARD} .duel-board__decision .duel-choice:not([disabled])"
PHONE = {"width": 360, "height": 740}


def over(page: Any) -> bool:
    return "turn-banner--over" in (page.get_attribute("#comp-banner", "class") or "")


def wait_for_a_decision(page: Any) -> None:
    """Until Anna's board offers a choice or shows the final whistle: the bot's answer, or a push still on
    its way, is what she waits for too."""
    page.wait_for_function(
        "sel => !!document.querySelector(sel) || "
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')",
        arg=CHOICE,
        timeout=20_000,
    )


def hidden_parts(page: Any) -> list[str]:
    """What a spectator's board must never hold: a side's own panel (reserve, hand, stack) or a form."""
    return page.eval_on_selector_all(
        f"{BOARD} .duel-board__own, {BOARD} form, {BOARD} input[name=order]",
        "els => els.map(e => e.className)",
    )


def test_a_human_plays_a_duel_practice_match_on_the_board_against_a_bot_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any]
) -> None:
    anna = contexts()
    anna.goto(server.url + "/")
    anna.check("input[name=game][value=duel]")  # the landing page offers the card duel now
    anna.fill("#create-nickname", "Anna")
    anna.select_option("#create-seats", "2")
    anna.select_option("#create-bots", "1")
    anna.check("[data-game=duel] input[name=competition][value=single]")  # the duel's own fieldset
    anna.get_by_role("button", name="Create room").click()
    anna.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    code = re.search(r"/r/([a-z0-9]+)/", anna.url).group(1)  # type: ignore[union-attr]
    assert "Card duel" in anna.inner_text("#lobby-side")

    fan = contexts(viewport=PHONE, reduced_motion="reduce")  # nothing on the board moves for him
    fan.goto(f"{server.url}/r/{code}/watch")
    wait_socket(fan)
    wait_socket(anna)
    anna.get_by_role("button", name="Start the game").click()
    anna.wait_for_selector(f"{BOARD} form.lineup")
    fan.wait_for_selector(BOARD)

    # the line-up, by keyboard: the top card goes one down, the second row becomes the reserve
    rows = anna.locator(f"{BOARD} .lineup__row")
    assert rows.count() == 11
    first, second = rows.nth(0).get_attribute("data-name"), rows.nth(1).get_attribute("data-name")
    rows.nth(0).locator("[data-move=down]").focus()
    anna.keyboard.press("Enter")
    assert (
        rows.nth(1).get_attribute("data-name") == first and rows.nth(0).get_attribute("data-name") == second
    )
    rows.nth(0).locator("input[name=reserve]").focus()
    anna.keyboard.press("Space")
    assert rows.nth(0).locator("input[name=reserve]").is_checked()
    assert rows.nth(0).locator(".lineup__pos").inner_text() == "R"  # renumbered: the reserve is apart
    shot(anna, "duel-lineup.png", full_page=True)
    assert run_axe(anna) == []
    anna.get_by_role("button", name="Confirm the line-up").press("Enter")
    # her top card now is the one she moved down from the top: the second row is her reserve, so the first
    # card she kept in the order comes into action first
    mine = f"{BOARD} .duel-board__side--me .duel-board__card .card__name"
    anna.wait_for_selector(mine)
    assert anna.inner_text(mine).replace("\u00ad", "") == first  # (soft hyphens in long names)
    fan.wait_for_selector(f"{BOARD} .duel-board__side--home .duel-board__card .card__name")
    assert not hidden_parts(fan)

    clicks, played, swapped, shots = 0, False, False, set()
    while not over(anna):
        buttons = anna.locator(CHOICE)
        if not buttons.count():
            wait_for_a_decision(anna)
            continue
        before = anna.get_attribute("#sync", "data-version")
        cards = anna.locator(f"{BOARD} .match-play:not([disabled])")
        swap = anna.locator(f"{BOARD} .duel-choice.btn--gold:not([disabled])")
        if "window" not in shots and cards.count():
            shot(anna, "duel-window.png", full_page=True)
            shot(fan, "duel-watch-phone.png", full_page=True)
            shots.add("window")
            assert run_axe(anna) == [] and run_axe(fan) == []
        try:
            if cards.count() and not played:
                cards.first.click(timeout=3000)
                played = True
            elif swap.count() and not swapped:
                swap.first.click(timeout=3000)
                swapped = True
            else:
                buttons.last.click(timeout=3000)  # pass (a window) or confirm (the 2nd half's line-up)
        except Exception:  # the board was redrawn under the click (the bot's answer arrived)
            continue
        anna.wait_for_function(
            f"document.getElementById('sync').dataset.version !== '{before}'", timeout=15_000
        )
        clicks += 1
        if clicks % 5 == 0:
            assert not hidden_parts(fan)
            assert (
                fan.evaluate("document.getElementById('comp-boards').getAnimations({subtree: true}).length")
                == 0
            )
        assert clicks < 400
    assert played and swapped and clicks > 5

    # Anna's board shows the final whistle; the spectator's page the same result (a finished match leaves
    # the spectators' live boards), and it saw no hidden card
    assert "Full time" in anna.inner_text(f"{BOARD} .duel-board__caption")
    assert anna.locator(f"{BOARD} .duel-board__own").count() == 0  # a finished match keeps its secrets
    shot(anna, "duel-over.png", full_page=True)
    fan.wait_for_function(
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=15_000
    )
    score = anna.inner_text(f"{BOARD} .duel-board__score").replace("\n", "")
    assert fan.inner_text("#comp-standings .comp-match__score") == score
    assert not hidden_parts(fan)
    with sqlite3.connect(server.env["SQLITE_PATH"]) as conn:
        (version,) = conn.execute("SELECT version FROM tournament_game WHERE code = ?", (code,)).fetchone()
    assert fan.get_attribute("#sync", "data-version") == str(version)
    # the phone's board fits its 360 px: nothing sticks out sideways
    assert fan.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    for page in (anna, fan):
        assert not page.errors, page.errors
