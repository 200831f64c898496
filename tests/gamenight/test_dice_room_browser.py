"""A whole dice-football match in real Chromium: two friends open a room from the landing page, play every
roll to the final whistle on the board, a spectator follows every roll live, and a refresh keeps the seat."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from typing import Any

import pytest
from test_gamenight_browser import contexts, server, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

CHOICE = "#comp-boards .dice-choices button[name=pick]:not([disabled])"


def wait_for_a_decision(pages: Any) -> None:
    """Until one of the pages offers a choice (or shows the final whistle): the other side's roll, or a
    push still on its way, is what the players wait for too."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    ready = (
        "sel => !!document.querySelector(sel) || "
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')"
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for page in pages:
            try:
                page.wait_for_function(ready, arg=CHOICE, timeout=500)
                return
            except PlaywrightTimeoutError:
                continue
    raise AssertionError("no page offered a decision for 20 s")


def over(page: Any) -> bool:
    return "turn-banner--over" in (page.get_attribute("#comp-banner", "class") or "")


def test_two_browsers_play_a_dice_match_to_the_end_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any]
) -> None:
    anna = contexts()
    anna.goto(server.url + "/")
    anna.fill("#create-nickname", "Anna")
    anna.check("input[name=game][value=dice-football]")
    anna.select_option("#create-seats", "2")
    anna.select_option("#create-bots", "0")
    anna.check("[data-game=dice-football] input[name=competition][value=single]")  # its own fieldset
    anna.select_option("#create-dice-football-length", "1")  # short halves: a quick match
    assert anna.locator("input[name=visit_fee_to]").first.is_hidden()  # Magic Football's fields hidden
    anna.get_by_role("button", name="Create room").click()
    anna.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    code = re.search(r"/r/([a-z0-9]+)/", anna.url).group(1)  # type: ignore[union-attr]
    assert "Dice football" in anna.inner_text("#lobby-side")

    ben = contexts(viewport={"width": 390, "height": 844})  # on a phone
    ben.goto(f"{server.url}/r/{code}/")
    ben.fill("#join-nickname", "Ben")
    ben.get_by_role("button", name="Join room").click()
    ben.wait_for_url(f"{server.url}/r/{code}/")
    fan = contexts()
    fan.goto(f"{server.url}/r/{code}/watch")
    wait_socket(fan)
    anna.wait_for_selector("#lobby-seats >> text=Ben")
    wait_socket(anna)
    anna.get_by_role("button", name="Start the game").click()
    players = {"Anna": anna, "Ben": ben}
    for page in (*players.values(), fan):
        page.wait_for_selector("#comp-boards .dice-board")

    clicks = 0
    refreshed = False
    while not over(anna):
        acted = False
        for name, page in players.items():
            button = page.locator(CHOICE).first
            if button.count() and button.is_enabled():
                before = page.get_attribute("#sync", "data-version")
                try:
                    button.click(timeout=3000)
                except Exception:  # the board was redrawn under the click (the other side's update)
                    continue
                page.wait_for_function(
                    f"document.getElementById('sync')?.dataset.version !== '{before}'", timeout=15_000
                )
                clicks += 1
                acted = True
                if name == "Ben" and clicks > 10 and not refreshed:  # a refresh keeps the seat
                    ben.reload()
                    wait_socket(ben)
                    assert "you" in ben.inner_text("#players .player--me")
                    refreshed = True
        if not acted:
            wait_for_a_decision(players.values())
        assert clicks < 600
    assert refreshed and clicks > 20

    # everyone sees the final whistle, and the spectator saw every roll as it came
    for page in (ben, fan):
        page.wait_for_function(
            "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=15_000
        )
    with sqlite3.connect(server.env["SQLITE_PATH"]) as conn:
        game_id, version = conn.execute(
            "SELECT id, version FROM tournament_game WHERE code = ?", (code,)
        ).fetchone()
        rolls = [
            seq
            for (seq,) in conn.execute(
                "SELECT seq FROM tournament_event WHERE game_id = ? AND kind = 'm.roll'", (game_id,)
            )
        ]
    assert fan.get_attribute("#sync", "data-version") == str(version)
    shown = set(fan.eval_on_selector_all("#log-list .log__item", "items => items.map(i => +i.dataset.seq)"))
    assert len(rolls) > 20 and set(rolls) <= shown  # the page was open from the kick-off: every roll told
    for page in (anna, ben, fan):
        assert not page.errors, page.errors
