"""A whole chess-football match in real Chromium (issue 24): two friends open a room from the landing page
(the short game-night length), play every move to the final whistle by clicking a piece and then its target
on the board (one move by the keyboard alone), one of them on a phone; a spectator follows every move live,
a refresh keeps the seat, and axe finds nothing serious on the pages. Screenshots go to tests/artifacts/
(chess-room-phone.png, chess-room-desktop.png)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from roomplay import log_seqs, open_match_room, over, told_to_the_spectator, wait_for_a_decision
from test_gamenight_browser import contexts, run_axe, server, shot, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

MINE = "#comp-boards .chess-board--mine"

# The first node of the open level of my choices: its squares (a piece, a target) or, for a void move, none.
FIRST = """() => {
  const board = document.querySelector('#comp-boards .chess-board--mine');
  if (!board) return null;
  let level = board.querySelector('.chess-level--top');
  for (;;) {
    const open = [...level.children].find(i => i.tagName === 'DETAILS' && i.open);
    if (!open) break;
    level = open.querySelector(':scope > .chess-level');
  }
  const item = [...level.children].find(i => i.matches('.chess-step, .chess-leaf'));
  const squares = (item && item.dataset.squares || '').split(' ').filter(Boolean);
  return item && {leaf: item.tagName === 'BUTTON', squares: squares, key: item.dataset.key};
}"""


def play_by_clicks(page: Any) -> None:
    """Click through my choices on the board: a piece (or a taker, an offender…), then a target, until a
    target plays; a void move is its button."""
    for _ in range(6):
        first = page.evaluate(FIRST)
        if first is None:
            return
        if not first["squares"]:
            page.click(f'{MINE} [data-key="{first["key"]}"]', timeout=3000)
            return
        page.click(f'{MINE} .chess-sq[data-square="{first["squares"][0]}"]', timeout=3000)
        if first["leaf"]:
            return
    raise AssertionError("no target after six clicks")


def play_by_keyboard(page: Any) -> None:
    """One move with the keyboard alone: Tab to the first piece, Enter opens it, Tab to its first target,
    Enter plays it."""
    page.focus(f"{MINE} .chess-level--top > .chess-step > summary.chess-key")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")  # the arrow keys walk the pieces and come back
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{MINE} .chess-level--top > .chess-step[open]")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert "chess-key" in focused, focused
    page.keyboard.press("Enter")


def test_two_browsers_play_a_chess_match_to_the_end_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any]
) -> None:
    anna, ben, fan, code = open_match_room(server, contexts, "chess-football", "Chess football")
    players = {"Anna": anna, "Ben": ben}
    for page in (*players.values(), fan):
        page.wait_for_selector("#comp-boards .chess-board")

    moves = 0
    refreshed = by_keyboard = checked = False
    while not over(anna):
        acted = False
        for name, page in players.items():
            if not page.locator(MINE).count():
                continue
            before = page.get_attribute("#sync", "data-version")
            try:
                if not by_keyboard and page.locator(f"{MINE} .chess-level--top > .chess-step").count():
                    play_by_keyboard(page)
                    by_keyboard = True
                else:
                    play_by_clicks(page)
            except Exception:  # the board was redrawn under the click (the other side's update)
                continue
            page.wait_for_function(
                f"document.getElementById('sync')?.dataset.version !== '{before}'", timeout=15_000
            )
            moves += 1
            acted = True
            if moves == 6 and not checked:  # the pages as the players and the spectator see them
                fan.wait_for_function(  # the spectator's move list has every move so far, in notation
                    "n => document.querySelectorAll('#comp-boards .chess-moves__ply').length === n", arg=moves
                )
                for who in (anna, ben, fan):
                    assert run_axe(who) == [], who.url
                shot(ben, "chess-room-phone.png", full_page=True)
                shot(anna, "chess-room-desktop.png")
                checked = True
            if name == "Ben" and moves > 10 and not refreshed:  # a refresh keeps the seat
                ben.reload()
                wait_socket(ben)
                assert "you" in ben.inner_text("#players .player--me")
                refreshed = True
        if not acted:
            wait_for_a_decision(players.values(), MINE)
        assert moves < 300
    assert refreshed and by_keyboard and checked and moves >= 40

    # everyone sees the final whistle, and the spectator saw every move as it came (a void move is told by
    # the event it makes: a conceded penalty, an offside forfeit)
    ben.wait_for_function(
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=15_000
    )
    played = told_to_the_spectator(server, code, fan, "m.move")
    spoken = {seq for seq, payload in played if '"concede"' not in payload and '"forfeit"' not in payload}
    assert len(played) >= 40 and spoken <= log_seqs(fan)  # the page was open from the kick-off: every move
    for page in (anna, ben, fan):
        assert not page.errors, page.errors
