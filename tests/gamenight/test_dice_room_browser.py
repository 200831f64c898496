"""A whole dice-football match in real Chromium: two friends open a room from the landing page, play every
roll to the final whistle on the board, a spectator follows every roll live, and a refresh keeps the seat."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from roomplay import log_seqs, open_match_room, over, told_to_the_spectator, wait_for_a_decision
from test_gamenight_browser import contexts, server, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

CHOICE = "#comp-boards .dice-choices button[name=pick]:not([disabled])"


def test_two_browsers_play_a_dice_match_to_the_end_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any]
) -> None:
    anna, ben, fan, code = open_match_room(server, contexts, "dice-football", "Dice football")
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
            wait_for_a_decision(players.values(), CHOICE)
        assert clicks < 600
    assert refreshed and clicks > 20

    # everyone sees the final whistle, and the spectator saw every roll as it came
    ben.wait_for_function(
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=15_000
    )
    rolls = [seq for seq, _payload in told_to_the_spectator(server, code, fan, "m.roll")]
    assert len(rolls) > 20 and set(rolls) <= log_seqs(fan)  # the page was open from the kick-off: every roll
    for page in (anna, ben, fan):
        assert not page.errors, page.errors
