"""The host console: every intervention goes through game_act and is an audited event everyone can read."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from roomkit import act, play_defaults, start, state_of, toast_text, version_of

from tournament.models import Event, Game, LedgerEntry

pytestmark = pytest.mark.django_db


def test_pause_and_resume(make_room):
    room = make_room(bots=2)
    start(room)
    html = act(room.host, room.code, action="pause").content.decode()
    assert state_of(room.code).status == "paused"
    assert "The host pauses the game." in html and "Resume" in html
    refused = act(room.host, room.code, action="roll").content.decode()
    assert toast_text(refused) == "The game is paused by the host."  # whoever's turn it is: nothing moves
    assert state_of(room.code).status == "paused"
    act(room.host, room.code, action="resume")
    assert state_of(room.code).status == "running"
    watcher = Client().get(f"/r/{room.code}/watch").content.decode()
    assert "The host pauses the game." in watcher and "The host resumes the game." in watcher


def test_a_manual_transfer_needs_a_reason_and_is_audited(make_room):
    room = make_room(bots=2)
    start(room)
    before = state_of(room.code).accounts["p2"]
    refused = act(room.host, room.code, action="transfer", src="bank", dst="p2", amount="50000", memo="   ")
    assert toast_text(refused.content.decode()).endswith("a reason of 1 to 200 characters is required.")
    html = act(
        room.host, room.code, action="transfer", src="bank", dst="p2", amount="50.000", memo="a spilled drink"
    ).content.decode()
    assert state_of(room.code).accounts["p2"] == before + 50_000
    entry = LedgerEntry.objects.filter(game__code=room.code, reason="host_transfer").get()
    assert (entry.amount, entry.memo, entry.debit.key, entry.credit.key) == (
        50_000,
        "a spilled drink",
        "bank",
        "p2",
    )
    assert f'<tr id="ledger-{entry.seq}"' in html  # the console's ledger grows with the answer
    watcher = Client().get(f"/r/{room.code}/watch").content.decode()
    assert "The host moves 50,000\u00a0M from the Bank to" in watcher and "a spilled drink" in watcher


def test_the_ledger_lists_every_entry_with_its_reason(make_room):
    room = make_room(bots=2)
    start(room)
    play_defaults(room.code, lambda st: len(st.accounts) and st.turns.get("phase1", 0) >= 6)
    page = room.host.get(f"/r/{room.code}/host").content.decode()
    rows = re.findall(r'<tr id="ledger-(\d+)"', page)
    assert len(rows) == LedgerEntry.objects.filter(game__code=room.code).count()
    assert rows == sorted(rows, key=int, reverse=True)  # newest first
    assert "Starting capital" in page


def test_hand_a_seat_to_a_bot_and_back(make_room):
    room = make_room(bots=1)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    act(room.host, room.code, action="seat_bot", seat="3", bot="yes")
    assert state_of(room.code).seats[3].takeover is True
    act(room.host, room.code, action="seat_bot", seat="3", bot="no")
    assert state_of(room.code).seats[3].takeover is False
    kinds = list(
        Event.objects.filter(game__code=room.code, kind__in=["seat_to_bot", "seat_to_human"]).values_list(
            "kind", flat=True
        )
    )
    assert kinds == ["seat_to_bot", "seat_to_human"]
    page = ben.get(f"/r/{room.code}/").content.decode()
    assert "A bot now decides for" in page and "Ben</b> decides again." in page


def test_a_seat_is_handed_to_a_bot_from_a_console_a_step_behind(make_room):
    """The room's bots move the version on between the console's render and the host's click: the
    hand-over names its seat and direction, so it is taken, not refused as stale."""
    room = make_room(bots=1)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    seen = version_of(room.code)
    play_defaults(room.code, lambda _: version_of(room.code) > seen + 1)
    html = act(room.host, room.code, action="seat_bot", seat="3", bot="yes", version=str(seen))
    assert toast_text(html.content.decode()) == ""
    assert state_of(room.code).seats[3].takeover is True
    # the rules still guard it: a bot's own seat cannot be handed to a bot
    refused = act(room.host, room.code, action="seat_bot", seat="2", bot="yes", version=str(seen))
    assert "a bot already" in toast_text(refused.content.decode())
    assert state_of(room.code).seats[2].takeover is False


def _prompt(page: str) -> str:
    return re.search(r'<section id="prompt".*?</section>', page, re.S).group(0)


def test_a_pause_leaves_the_decision_on_the_page_but_disables_its_controls(make_room):
    room = make_room(bots=1)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    play_defaults(room.code, lambda s: any(p.seat == 3 for p in s.prompts))
    running = _prompt(ben.get(f"/r/{room.code}/").content.decode())
    assert '<fieldset class="prompt__choices">' in running and "Your decision" in running
    act(room.host, room.code, action="pause")
    paused = _prompt(ben.get(f"/r/{room.code}/").content.decode())
    # the server refuses every answer in a pause: the buttons say so before a click, not after
    assert '<fieldset class="prompt__choices" disabled>' in paused and "Your decision" in paused
    act(room.host, room.code, action="resume")
    assert '<fieldset class="prompt__choices">' in _prompt(ben.get(f"/r/{room.code}/").content.decode())


def test_once_the_game_is_over_a_bot_held_seat_reads_game_over(make_room):
    room = make_room(bots=1)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    act(room.host, room.code, action="seat_bot", seat="3", bot="yes")
    assert "A bot plays your seat" in _prompt(ben.get(f"/r/{room.code}/").content.decode())
    act(room.host, room.code, action="end_game")
    over = _prompt(ben.get(f"/r/{room.code}/").content.decode())
    assert "Game over" in over and "The game is over." in over
    assert "A bot plays your seat" not in over and "can give it back" not in over


def test_decide_by_default_for_a_stuck_player(make_room):
    room = make_room(bots=1)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    st = play_defaults(room.code, lambda s: any(p.seat == 3 for p in s.prompts))
    prompt = next(p for p in st.prompts if p.seat == 3)
    html = act(room.host, room.code, action="force_default", prompt=str(prompt.id)).content.decode()
    assert toast_text(html) == ""
    assert state_of(room.code).prompt(prompt.id) is None
    assert "The host takes the default decision for" in html


def test_end_the_game(make_room):
    room = make_room(bots=2)
    start(room)
    html = act(room.host, room.code, action="end_game").content.decode()
    assert state_of(room.code).status == "abandoned"
    assert "The host has ended this game." in html


def test_play_again_opens_a_new_room_with_the_same_bots(make_room):
    room = make_room(bots=2)
    start(room)
    act(room.host, room.code, action="end_game")
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    assert response.status_code == 204
    new_code = re.fullmatch(r"/r/(\w+)/", response["HX-Redirect"]).group(1)
    new = Game.objects.get(code=new_code)
    assert new.previous.code == room.code and new.status == "lobby"
    assert sorted(new.participants.values_list("nickname", flat=True)) == ["Anna", "Robin (bot)", "Sam (bot)"]
    assert room.host.get(f"/r/{new_code}/").status_code == 200
    assert "Start the game" in room.host.get(f"/r/{new_code}/").content.decode()  # still the host
    # the old room points everyone to the new one, with their nickname filled in
    banner = room.host.get(f"/r/{room.code}/next").content.decode()
    assert f'href="/r/{new_code}/?nickname=Anna"' in banner
    stranger = Client().get(f"/r/{room.code}/next").content.decode()
    assert f'href="/r/{new_code}/"' in stranger
    # a second click does not open a third room
    again = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    assert again["HX-Redirect"] == f"/r/{new_code}/"
    assert Game.objects.count() == 2


def test_the_next_banner_polls_until_the_host_opens_a_new_room(make_room):
    room = make_room(bots=1)
    start(room)
    act(room.host, room.code, action="end_game")
    banner = Client().get(f"/r/{room.code}/next").content.decode()
    assert 'hx-trigger="every 5s"' in banner
    host_banner = room.host.get(f"/r/{room.code}/next").content.decode()
    assert "Play again" in host_banner
