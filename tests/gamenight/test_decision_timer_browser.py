"""The decision timer and a bot-held seat in real Chromium (issue 23), on a phone and on a desktop.

A friend's page counts to the server's deadline, not from when it first saw the decision: a reload shows
the same time left, a pause freezes the count and says so, the resume goes on from what was left, and
the page shows 0 before the server takes the default. A seat the host handed to a bot shows no live
decision to its human and says a bot plays it. The game starts paused (the host's set-up below), so a
loaded machine loses none of the 10 s the house rule allows at least.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
import test_gamenight_browser as night
from playwright.sync_api import expect
from test_gamenight_browser import DESKTOP, SESSION_FOR, log_in, prepare, run_axe, shot, wait_socket

server = night.server  # the fixtures of the game-night browser tests: daphne with quick bots, and pages
contexts = night.contexts

PHONE = {"width": 390, "height": 844}
VIEWPORTS = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
TIMER = 10  # the shortest decision timer the house rule allows (R19: 10–600 s)

BENS_DECISION = (
    SESSION_FOR
    + """
import json, uuid
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create, room_join
from tournament.services.store import load_snapshot

config = json.loads(CONFIG)
room = room_create(nickname="Anna", bots=[], seed=77,
                   house_rules={"seats": 2 + len(config["others"]), "decision_timer": config["timer"]})
seat, token = room_join(code=room.code, nickname="Ben")
for nickname in config["others"]:  # humans who never open a page
    room_join(code=room.code, nickname=nickname)
game_act(code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None, action_id="go")
for _ in range(200):  # the others take their defaults until Ben has a decision to take
    st = load_snapshot(Game.objects.get(code=room.code)).state
    mine = [p for p in st.prompts if p.seat == seat]
    if mine:
        break
    p = st.prompts[0]
    game_act(code=room.code, actor=Actor("seat", p.seat), action={"type": "answer", "prompt": p.id,
             "choice": p.default}, expected_version=None, action_id=uuid.uuid4().hex)
for kind in config["host"]:  # the host's moves before the pages open
    action = {"type": kind} if kind == "pause" else {"type": "seat_bot", "seat": seat if kind == "ben" else 1}
    game_act(code=room.code, actor=Actor("host"), action=action, expected_version=None, action_id=kind)
print(json.dumps({"code": room.code, "prompt": mine[0].id,
                  "ben": session_for(room.code, token=token),
                  "host": session_for(room.code, token=room.token, host_key=room.host_key)}))
"""
)

# Every change of the shown seconds, with the deadline (or the frozen time left) it was counted from.
WATCH_TIMER = """
() => {
  window.__shown = [];
  const look = () => {
    const el = document.querySelector('#prompt .prompt-timer');
    const out = el && el.querySelector('.prompt-timer__left');
    if (!out) return;
    const entry = {text: out.textContent, deadline: el.dataset.deadline || null, paused: 'left' in el.dataset,
                   at: Date.now()};
    const last = window.__shown[window.__shown.length - 1];
    if (!last || last.text !== entry.text || last.deadline !== entry.deadline || last.paused !== entry.paused)
      window.__shown.push(entry);
  };
  new MutationObserver(look).observe(document.getElementById('room'),
    {subtree: true, childList: true, characterData: true, attributes: true});
  look();
}
"""


ONE_PIECE = """
() => {
  const count = document.querySelector('#prompt .prompt-timer__count');
  const item = [...document.querySelector('#prompt .prompt-timer').children].find(c => c.contains(count));
  const tops = [...count.getClientRects()].map(r => Math.round(r.top));
  return {item: item.textContent, lines: new Set(tops).size};
}
"""


def _ben_at_his_decision(
    server: Any,
    django_subprocess: Callable[..., str],
    host: list[str],
    timer: int = TIMER,
    others: tuple = (),
) -> dict[str, Any]:
    """A room of Anna (the host, seat 1), Ben (seat 2) and ``others`` at Ben's first decision, after the
    host's moves ``host`` ("pause", "ben" or "anna": hand that seat to a bot)."""
    config = json.dumps({"timer": timer, "others": list(others), "host": host})
    return prepare(server, django_subprocess, BENS_DECISION.replace("CONFIG", repr(config)))


def _shown(page: Any) -> int:
    return int(page.inner_text("#prompt .prompt-timer__left"))


def _server_seconds_left(page: Any) -> tuple[int, int]:
    """What the page shows, and what the server's deadline leaves now (this machine's clock is the
    server's)."""
    deadline = int(page.get_attribute("#prompt .prompt-timer", "data-deadline"))
    shown = _shown(page)
    return shown, math.ceil((deadline - time.time() * 1000) / 1000)


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_countdown_is_the_servers_it_freezes_in_a_pause_and_reaches_0_before_the_default(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str], viewport: dict[str, int]
) -> None:
    ready = _ben_at_his_decision(server, django_subprocess, ["pause"])
    ben = contexts(viewport=viewport)
    log_in(ben, server, ready["ben"])
    ben.goto(f"{server.url}/r/{ready['code']}/")
    wait_socket(ben)
    timer = ben.locator("#prompt .prompt-timer")
    # paused from the start: the page says so, and the whole timer is still there
    expect(timer).to_have_text(f"Paused: {TIMER} s left when the game resumes")
    assert ben.locator("#banner").inner_text().strip().endswith("The game is paused by the host.")
    # one piece of text, on a phone too: the number is in the same flex item as its words (not a column
    # of its own beside them), and its unit stays on its line
    assert ben.evaluate(ONE_PIECE) == {"item": f"Paused: {TIMER} s left when the game resumes", "lines": 1}
    assert run_axe(ben) == []
    shot(ben, f"timer-paused-{viewport['width']}.png")

    # the host resumes: the page counts to the server's deadline
    anna = contexts()
    log_in(anna, server, ready["host"])
    anna.goto(f"{server.url}/r/{ready['code']}/host")
    wait_socket(anna)
    ben.evaluate(WATCH_TIMER)
    anna.get_by_role("button", name="Resume").click()
    expect(timer).to_have_attribute("data-deadline", re.compile(r"^\d+$"))
    deadline = timer.get_attribute("data-deadline")
    expect(timer).to_contain_text("s left, then the default is taken")
    shown, left = _server_seconds_left(ben)
    assert abs(shown - left) <= 1 and left <= TIMER

    # the host pauses: the count stops where it was and the page says the game is paused
    anna.get_by_role("button", name="Pause").click()
    expect(timer).to_have_class(re.compile(r"prompt-timer--paused"))
    frozen = _shown(ben)
    assert 0 < frozen <= TIMER and timer.inner_text() == f"Paused: {frozen} s left when the game resumes"
    # a while of the page's own clock passes (well over a second per tick) and the number stays
    ben.wait_for_function(
        "() => { const s = window.__shown, last = s[s.length - 1];"
        " return last.paused && Date.now() - last.at > 2500; }",
        timeout=10_000,
    )
    assert _shown(ben) == frozen and ben.locator("#prompt form button[type=submit]").count() > 0
    # the decision stays on the page, but its buttons are off while nothing may be answered
    for button in ben.locator("#prompt form button[type=submit]").all():
        expect(button).to_be_disabled()

    # the resume goes on from what was left (counted from the resume: a new deadline)
    anna.get_by_role("button", name="Resume").click()
    expect(timer).to_have_attribute("data-deadline", re.compile(rf"^(?!{deadline}$)\d+$"))
    resumed = timer.get_attribute("data-deadline")
    first = ben.evaluate(f"window.__shown.find(e => e.deadline === '{resumed}').text")
    assert int(first) in (frozen, frozen - 1)
    expect(ben.locator("#prompt form button[type=submit]").first).to_be_enabled()

    # two seconds later a reload reads the same deadline and shows what the server has left, not a fresh
    # count
    ben.wait_for_function(
        f"+document.querySelector('#prompt .prompt-timer__left').textContent <= {frozen - 2}"
    )
    ben.reload()
    wait_socket(ben)
    ben.evaluate(WATCH_TIMER)
    ben.wait_for_function("window.mfRoom.clock.rtt < Infinity")  # the clock is measured
    assert timer.get_attribute("data-deadline") == resumed
    shown, left = _server_seconds_left(ben)
    assert shown <= frozen - 2 and abs(shown - left) <= 1
    assert run_axe(ben) == []
    shot(ben, f"timer-running-{viewport['width']}.png")

    # the page shows 0 before the server takes the default
    ben.wait_for_selector(
        f"#prompt .prompt-timer[data-deadline='{resumed}']", state="detached", timeout=30_000
    )
    shown = ben.evaluate(f"window.__shown.filter(e => e.deadline === '{resumed}').map(e => e.text)")
    assert shown[-1] == "0", shown  # never time left on the page when the default is taken
    expect(ben.locator("#log-list")).to_contain_text("Time is up: the default decision is taken for Ben.")
    assert not ben.errors and not anna.errors


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_seat_a_bot_plays_shows_no_live_decision_and_says_so(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str], viewport: dict[str, int]
) -> None:
    # the host hands Ben's seat and his own to a bot, with the game paused (nothing moves meanwhile); Cleo
    # never comes, and the long timer holds the game at her first decision
    ready = _ben_at_his_decision(
        server, django_subprocess, ["ben", "anna", "pause"], timer=600, others=("Cleo",)
    )
    ben = contexts(viewport=viewport)
    log_in(ben, server, ready["ben"])
    ben.goto(f"{server.url}/r/{ready['code']}/")
    wait_socket(ben)
    expect(ben.locator("#prompt-title")).to_have_text("A bot plays your seat")
    expect(ben.locator("#prompt-title")).to_be_visible()  # a phone hides other panels' titles, not this one
    expect(ben.locator("#prompt")).to_contain_text("Only the host, Anna, can give it back")
    assert ben.locator("#prompt form, #prompt .prompt-timer").count() == 0  # no decision, no countdown
    assert "Your turn" not in ben.title() and "Your decision" not in ben.inner_text("#prompt")
    assert run_axe(ben) == []
    shot(ben, f"seat-held-by-bot-{viewport['width']}.png")

    # Anna is the host and plays too: her page offers to take her own seat back, and it works
    anna = contexts(viewport=viewport)
    log_in(anna, server, ready["host"])
    anna.goto(f"{server.url}/r/{ready['code']}/host")
    wait_socket(anna)
    anna.get_by_role("button", name="Resume").click()
    anna.goto(f"{server.url}/r/{ready['code']}/")
    wait_socket(anna)
    expect(anna.locator("#prompt-title")).to_have_text("A bot plays your seat")
    # the bots play Ben's and Anna's seats until Cleo has to decide: then nothing moves
    expect(anna.locator("#prompt .deciding")).to_contain_text("Cleo", timeout=30_000)
    anna.get_by_role("button", name="Take my seat back").click()
    expect(anna.locator("#prompt-title")).to_have_text("Waiting for")
    assert anna.locator("#prompt").inner_text().count("A bot plays") == 0
    # Ben's seat stays with the bot: his page still offers him no decision
    expect(ben.locator("#prompt-title")).to_have_text("A bot plays your seat")
    assert ben.locator("#prompt form").count() == 0
    assert run_axe(anna) == []
    assert not ben.errors and not anna.errors
