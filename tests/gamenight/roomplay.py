"""What the browser tests of a whole match of another game share (test_dice_room_browser.py,
test_chess_room_browser.py, test_grid_room_browser.py): two friends open a one-match room from the landing
page with its short length, the second on a phone, a spectator watches from the start; the pages then wait
for a decision or the final whistle, and in the end the spectator must have been told every event of the
match."""

from __future__ import annotations

import re
import sqlite3
import time
from collections.abc import Callable
from typing import Any

from test_gamenight_browser import wait_socket


def open_match_room(
    server: Any, contexts: Callable[..., Any], game: str, title: str, length: str = "1"
) -> tuple[Any, Any, Any, str]:
    """Anna creates a one-match room of ``game`` (its match length the option's ``length``-th choice, a short
    one; its lobby names it ``title``), Ben joins on a phone, a fan watches, Anna starts: (anna, ben, fan,
    code)."""
    anna = contexts()
    anna.goto(server.url + "/")
    anna.fill("#create-nickname", "Anna")
    anna.check(f"input[name=game][value={game}]")
    anna.select_option("#create-seats", "2")
    anna.select_option("#create-bots", "0")
    anna.check(f"[data-game={game}] input[name=competition][value=single]")  # the game's own fieldset
    anna.select_option(f"#create-{game}-length", length)  # the short halves: a quick match
    assert anna.locator("input[name=visit_fee_to]").first.is_hidden()  # Magic Football's fields hidden
    anna.get_by_role("button", name="Create room").click()
    anna.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    code = re.search(r"/r/([a-z0-9]+)/", anna.url).group(1)  # type: ignore[union-attr]
    assert title in anna.inner_text("#lobby-side")

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
    return anna, ben, fan, code


def wait_for_a_decision(pages: Any, selector: str) -> None:
    """Until one of the pages offers a choice (``selector``) or shows the final whistle: the other side's
    move, or a push still on its way, is what the players wait for too."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    ready = (
        "sel => !!document.querySelector(sel) || "
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')"
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for page in pages:
            try:
                page.wait_for_function(ready, arg=selector, timeout=500)
                return
            except PlaywrightTimeoutError:
                continue
    raise AssertionError("no page offered a decision for 20 s")


def over(page: Any) -> bool:
    return "turn-banner--over" in (page.get_attribute("#comp-banner", "class") or "")


def told_to_the_spectator(server: Any, code: str, fan: Any, kind: str) -> list[tuple[int, str]]:
    """The match's events of ``kind`` as (seq, payload), once the spectator's page has the final whistle and
    the room's last version: the caller checks that its log told them (``log_seqs``)."""
    fan.wait_for_function(
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=15_000
    )
    with sqlite3.connect(server.env["SQLITE_PATH"]) as conn:
        game_id, version = conn.execute(
            "SELECT id, version FROM tournament_game WHERE code = ?", (code,)
        ).fetchone()
        rows = list(
            conn.execute(
                "SELECT seq, payload FROM tournament_event WHERE game_id = ? AND kind = ? ORDER BY seq",
                (game_id, kind),
            )
        )
    assert fan.get_attribute("#sync", "data-version") == str(version)
    return rows


def log_seqs(page: Any) -> set[int]:
    """The events the page's log tells (their sequence numbers)."""
    return set(page.eval_on_selector_all("#log-list .log__item", "items => items.map(i => +i.dataset.seq)"))
