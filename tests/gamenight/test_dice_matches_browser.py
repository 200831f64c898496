"""House rule R20 in real Chromium: a Magic Football match played as dice football. Anna plays her match on
the dice board inside the game page against a bot, a spectator's watch page follows every roll, and a
refresh keeps her board and her decision."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from test_gamenight_browser import SESSION_FOR, contexts, log_in, prepare, server, wait_socket

__all__ = ["contexts", "server"]  # fixtures used by the test below

pytestmark = pytest.mark.slow

CHOICE = "#match-board .dice-choices button[name=pick]:not([disabled])"

ANNAS_MATCH = (
    SESSION_FOR
    + """
import json, uuid
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create
from tournament.services.store import load_snapshot

def annas_match_prompt(st):
    return any(p.seat == 1 and p.context.get("match") is not None for p in st.prompts)

for seed in range(5, 60):  # the first seed whose game gives Anna a match before it ends
    room = room_create(nickname="Anna", bots=["easy"], seed=seed,
                       house_rules={"seats": 6, "match_format": "dice-football"})
    game_act(code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None,
             action_id=uuid.uuid4().hex)
    for _ in range(2000):
        st = load_snapshot(Game.objects.get(code=room.code)).state
        if annas_match_prompt(st) or st.status != "running":
            break
        p = st.prompts[0]
        game_act(code=room.code, actor=Actor("seat", p.seat),
                 action={"type": "answer", "prompt": p.id, "choice": p.default},
                 expected_version=None, action_id=uuid.uuid4().hex)
    if annas_match_prompt(st):
        break
anna = session_for(room.code, token=room.token, host_key=room.host_key)
print(json.dumps({"code": room.code, "anna": anna}))
"""
)


def test_anna_plays_her_match_on_the_dice_board_while_a_spectator_follows(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str]
) -> None:
    ready = prepare(server, django_subprocess, ANNAS_MATCH)
    code = ready["code"]
    anna = contexts(viewport={"width": 390, "height": 844})  # on a phone
    log_in(anna, server, ready["anna"])
    anna.goto(f"{server.url}/r/{code}/")
    wait_socket(anna)
    fan = contexts()
    fan.goto(f"{server.url}/r/{code}/watch")
    wait_socket(fan)
    fan.wait_for_selector("#match-board")
    assert fan.locator("#match-board .dice-choice").count() == 0  # nobody's buttons on the watch page
    assert "Dice football" in anna.inner_text("#duel .duel__title")
    assert "choose on the match board" in anna.inner_text("#prompt")

    clicks = 0
    while clicks < 8:
        anna.wait_for_selector(CHOICE, timeout=20_000)  # the bot's rolls come in between
        before = anna.get_attribute("#sync", "data-version")
        try:
            anna.locator(CHOICE).first.click(timeout=3000)
        except Exception:  # the board was redrawn under the click (the bot's roll)
            continue
        anna.wait_for_function(
            f"document.getElementById('sync')?.dataset.version !== '{before}'", timeout=15_000
        )
        clicks += 1
        if clicks == 4:  # a refresh keeps her board and her seat
            anna.reload()
            wait_socket(anna)
            anna.wait_for_selector("#match-board")

    # the spectator is at the same version and read the same commentary
    version = anna.get_attribute("#sync", "data-version")
    fan.wait_for_function(
        f"+(document.getElementById('sync')?.dataset.version ?? 0) >= {version}", timeout=15_000
    )
    mine = anna.inner_text("#duel-feed li:first-child")
    fan.wait_for_function(
        "t => document.querySelector('#duel-feed li') && "
        "[...document.querySelectorAll('#duel-feed li')].some(li => li.innerText === t)",
        arg=mine,
        timeout=15_000,
    )
    for page in (anna, fan):
        assert not page.errors, page.errors
