"""A grid-football match in real Chromium (issue 25): two friends open a room from the landing page (the game
night's 30 rolls), name their line-ups on the squad sheet (one by the keyboard), play the first decisions by
clicking a pawn and then a square its roll reaches (one by the keyboard alone), one of them on a phone; a
spectator follows live, a refresh keeps the seat, axe finds nothing serious; then the host hands both seats
to bots from the host console and the match runs to the final whistle, told to the spectator. Screenshots go
to tests/artifacts/ (grid-room-phone.png, grid-room-desktop.png)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from roomplay import log_seqs, open_match_room, over, told_to_the_spectator, wait_for_a_decision
from test_gamenight_browser import contexts, run_axe, server, shot, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

MINE = "#comp-boards .grid-board--mine"
HUMAN_DECISIONS = 12

# The first node of the open level of my choices: its squares (a pawn, a target) or, for a button off the
# pitch (the roll, let the ball pass…), none.
FIRST = """() => {
  const board = document.querySelector('#comp-boards .grid-board--mine');
  if (!board) return null;
  let level = board.querySelector('.grid-level--top');
  if (!level) return null;
  for (;;) {
    const open = [...level.children].find(i => i.tagName === 'DETAILS' && i.open);
    if (!open) break;
    level = open.querySelector(':scope > .grid-level');
  }
  const item = [...level.children].find(i => i.matches('.grid-step, .grid-leaf'));
  const squares = (item && item.dataset.squares || '').split(' ').filter(Boolean);
  return item && {leaf: item.tagName === 'BUTTON', squares: squares, key: item.dataset.key};
}"""


def play_by_clicks(page: Any) -> None:
    """Click through my choices on the pitch: a pawn, then a square it reaches (or the ball's target), until a
    target plays; a choice off the pitch is its button."""
    for _ in range(6):
        first = page.evaluate(FIRST)
        if first is None:
            return
        if not first["squares"]:
            page.click(f'{MINE} [data-key="{first["key"]}"]', timeout=3000)
            if first["leaf"]:
                return
            continue
        page.click(f'{MINE} .grid-sq[data-square="{first["squares"][0]}"]', timeout=3000)
        if first["leaf"]:
            return
    raise AssertionError("no target after six clicks")


def play_by_keyboard(page: Any) -> None:
    """One walk with the keyboard alone: focus the first pawn, the arrow keys walk the pawns and come back,
    Enter opens it, Tab to its first square, Enter plays it."""
    page.focus(f"{MINE} .grid-level--top > .grid-step > summary.grid-key")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"{MINE} .grid-level--top > .grid-step[open]")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.className")
    assert "grid-key" in focused, focused
    page.keyboard.press("Enter")


def name_line_up(page: Any, by_keyboard: bool) -> None:
    """The squad sheet: the default eleven is ticked; by the keyboard, no. 15 makes way for no. 16 (both
    attackers) before the line-up is named."""
    form = f"{MINE} form.grid-lineup"
    page.wait_for_selector(form)
    if by_keyboard:
        page.focus(f'{form} input[name=players][value="15"]')
        page.keyboard.press("Space")
        page.focus(f'{form} input[name=players][value="16"]')
        page.keyboard.press("Space")
        assert page.inner_text(f"{form} [data-count]").startswith("11")
        page.focus(f"{form} .grid-lineup__submit")
        page.keyboard.press("Enter")
    else:
        page.click(f"{form} .grid-lineup__submit")


def hand_to_a_bot(host: Any, handed: int) -> None:
    """The host console's "Hand to a bot" for the next human seat, until ``handed`` seats are the bots'. The
    bot of the first seat may play at once: a click on a form that still holds the version before it is
    refused as stale (the console then shows the new one), so the host clicks again, as a person would."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    for _ in range(5):
        host.get_by_role("button", name="Hand to a bot").first.click()
        try:
            host.wait_for_function(
                "n => document.querySelectorAll('#host-seats .badge--bot').length >= n",
                arg=handed,
                timeout=6000,
            )
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError(f"the host could not hand seat number {handed} to a bot")


def wait_version(page: Any, before: str | None) -> None:
    page.wait_for_function(f"document.getElementById('sync')?.dataset.version !== '{before}'", timeout=30_000)


def test_two_browsers_start_a_grid_match_and_bots_finish_it_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any]
) -> None:
    anna, ben, fan, code = open_match_room(server, contexts, "grid-football", "Grid football", length="2")
    players = {"Anna": anna, "Ben": ben}
    for page in (*players.values(), fan):
        page.wait_for_selector("#comp-boards .grid-board")

    # the line-ups, named at the same time: the spectator learns only that they are in
    for name, page in players.items():
        before = page.get_attribute("#sync", "data-version")
        name_line_up(page, by_keyboard=name == "Anna")
        wait_version(page, before)
    fan.wait_for_function("!document.querySelector('#comp-boards .grid-lineups')", timeout=15_000)
    assert fan.locator("#comp-boards .grid-pawn").count() == 22

    decisions = 0
    refreshed = by_keyboard = checked = False
    while decisions < HUMAN_DECISIONS and not over(anna):
        acted = False
        for name, page in players.items():
            if not page.locator(MINE).count():
                continue
            before = page.get_attribute("#sync", "data-version")
            try:
                if not by_keyboard and page.locator(f"{MINE} .grid-level--top > .grid-step--pawn").count():
                    play_by_keyboard(page)
                    by_keyboard = True
                else:
                    play_by_clicks(page)
            except Exception:  # the board was redrawn under the click (the other side's update)
                continue
            wait_version(page, before)
            decisions += 1
            acted = True
            if decisions == 6 and not checked:  # the pages as the players and the spectator see them
                for who in (anna, ben, fan):
                    assert run_axe(who) == [], who.url
                shot(ben, "grid-room-phone.png", full_page=True)
                shot(anna, "grid-room-desktop.png")
                checked = True
            if name == "Ben" and decisions > 8 and not refreshed:  # a refresh keeps the seat
                ben.reload()
                wait_socket(ben)
                assert "you" in ben.inner_text("#players .player--me")
                refreshed = True
        if not acted:
            wait_for_a_decision(players.values(), MINE)
    assert by_keyboard and checked and refreshed, (by_keyboard, checked, refreshed)

    # the host hands both seats to bots from the host console, and they play the match to its end
    anna.goto(f"{server.url}/r/{code}/host")
    wait_socket(anna)
    for handed in (1, 2):
        hand_to_a_bot(anna, handed)
    ben.wait_for_function(
        "document.getElementById('comp-banner').classList.contains('turn-banner--over')", timeout=120_000
    )
    walks = told_to_the_spectator(server, code, fan, "m.walk")
    revealed = told_to_the_spectator(server, code, fan, "m.lineups")
    told = log_seqs(fan)
    assert len(walks) >= 10 and {seq for seq, _ in revealed} <= told and walks[-1][0] in told
    for page in (anna, ben, fan):
        assert not page.errors, page.errors
