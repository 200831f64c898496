"""Issue 23 in real Chromium: what only a browser shows of the rooms and their chats. A mute swaps the
muted browser's chat box for the notice at once (and back), chat times never overlap the italic notices,
and the watch page's lobby is laid out like the other panels — each on a phone and on a desktop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from test_gamenight_browser import contexts, create_room, run_axe, server, shot, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the tests below

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
VIEWPORTS = pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])

OVERLAPS = """
() => {
  // Lines of every length, cloned from the page's real lines (a name, a notice), then: does any chat time
  // leave its own line or overlap a line's text, icon or name?
  for (const list of document.querySelectorAll('.chat__list')) {
    for (const model of Array.from(list.querySelectorAll('.chat__line:not([data-probe])'))) {
      for (let n = 1; n <= 40; n++) {
        const line = model.cloneNode(true);
        line.id = model.id + '-' + n;
        line.dataset.probe = '1';
        line.querySelector('.chat__text').textContent += ' ' + 'Wo'.repeat(n);
        list.appendChild(line);
      }
    }
  }
  const hits = [];
  const parts = Array.from(document.querySelectorAll(
    '.chat__line .chat__text, .chat__line .chat__who, .chat__line .icon'));
  for (const time of document.querySelectorAll('.chat__line .chat__time')) {
    const t = time.getBoundingClientRect();
    const own = time.closest('li').getBoundingClientRect();
    if (t.top < own.top || t.bottom > own.bottom) hits.push(time.closest('li').id + ' leaves its line');
    for (const part of parts) {
      for (const r of part.getClientRects()) {
        const apart = r.right <= t.left || t.right <= r.left || r.bottom <= t.top || t.bottom <= r.top;
        if (!apart) hits.push(time.closest('li').id + ' / ' + part.closest('li').id + ' ' + part.className);
      }
    }
  }
  for (const line of document.querySelectorAll('.chat__line[data-probe]')) line.remove();
  return hits;
}
"""


def mute_button(host: Any, name: str) -> Any:
    return host.locator("#chat-voices").get_by_role("button", name=name)


@VIEWPORTS
def test_a_mute_swaps_the_chat_box_for_the_notice_at_once_and_back(
    server: Any, contexts: Callable[..., Any], viewport: dict[str, int]
) -> None:
    anna = contexts()
    code = create_room(anna, server.url)
    fan = contexts(viewport=viewport)
    fan.goto(f"{server.url}/r/{code}/watch")
    wait_socket(fan)
    fan.fill("#chat-name", "Loud")
    fan.fill("#chat-spectators-text", "boo, a long line that wraps on a phone and needs a second row")
    fan.keyboard.press("Enter")
    fan.wait_for_selector("#chat-spectators-list >> text=boo, a long line")
    notice = fan.locator("#chat [data-chat-muted]")
    assert notice.is_hidden() and fan.locator("#chat-spectators-text").is_visible()

    anna.goto(f"{server.url}/r/{code}/host")
    wait_socket(anna)
    mute_button(anna, "Mute Loud").click()
    fan.wait_for_selector("#chat [data-chat-muted]", state="visible")  # no reload, no Send needed
    assert fan.locator("#chat-spectators-text").is_hidden()
    assert "muted you" in notice.inner_text()
    fan.wait_for_selector("#chat-spectators-list >> text=The host has muted Loud in the chat.")
    assert fan.evaluate(OVERLAPS) == []
    shot(fan, f"chat-muted-{viewport['width']}.png", full_page=True)
    assert run_axe(fan) == []

    mute_button(anna, "Let Loud speak").click()
    fan.wait_for_selector("#chat-spectators-text", state="visible")
    assert notice.is_hidden()
    fan.fill("#chat-spectators-text", "sorry")
    fan.keyboard.press("Enter")
    anna.wait_for_selector("#chat-spectators-list >> text=sorry")
    assert fan.evaluate(OVERLAPS) == []
    assert not fan.errors and not anna.errors


HEADING_AND_GAP = """
() => {
  const h1 = document.querySelector('h1');
  const name = document.querySelector('#chat-name').getBoundingClientRect();
  const text = document.querySelector('#chat-spectators-text').getBoundingClientRect();
  return {heading: parseFloat(getComputedStyle(h1).fontSize), gap: text.top - name.bottom};
}
"""


@VIEWPORTS
def test_the_watch_pages_lobby_has_a_heading_like_the_lobbys_and_room_between_the_stands_fields(
    server: Any, contexts: Callable[..., Any], viewport: dict[str, int]
) -> None:
    anna = contexts(viewport=viewport)
    code = create_room(anna, server.url)
    lobby_heading = anna.evaluate("parseFloat(getComputedStyle(document.querySelector('h1')).fontSize)")
    fan = contexts(viewport=viewport)
    fan.goto(f"{server.url}/r/{code}/watch")
    wait_socket(fan)
    found = fan.evaluate(HEADING_AND_GAP)
    assert found["heading"] <= lobby_heading, found  # not the oversized default h1
    assert found["gap"] >= 8, found  # the name and the message fields do not touch
    shot(fan, f"watch-lobby-{viewport['width']}.png", full_page=True)
    assert run_axe(fan) == []
