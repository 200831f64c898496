"""Bad input is refused with a clear message, the game is unchanged, and no page is ever a 500.

Spectators acting, the wrong seat, out of turn, a stale version, forged prompt ids and choices, unknown or
repeated fields, a missing CSRF token, hostile nicknames.
"""

from __future__ import annotations

import pytest
from django.test import Client
from roomkit import act, login, state_of, toast_text, version_of

from tournament.models import ActionRecord, Game, Participant

pytestmark = pytest.mark.django_db


def refused(response, expected: str, lang: str = "en") -> None:
    assert response.status_code in (200, 403), response.status_code
    message = toast_text(response.content.decode())
    assert message.startswith(expected), message


def unchanged(code: str, version: int, actions: int) -> None:
    assert version_of(code) == version
    assert ActionRecord.objects.filter(game__code=code).count() == actions


def snapshot(code: str) -> tuple[int, int]:
    return version_of(code), ActionRecord.objects.filter(game__code=code).count()


def test_a_spectator_cannot_act(room_at):
    room, _prompt = room_at("roll")
    before = snapshot(room.code)
    refused(act(Client(), room.code, action="roll"), "You may not do that: you are watching this room")
    refused(act(Client(), room.code, action="pause"), "You may not do that: you are watching this room")
    unchanged(room.code, *before)


def test_a_spectator_is_told_so_in_dutch(room_at):
    room, _prompt = room_at("roll")
    response = Client().post(
        f"/r/{room.code}/act",
        {"action": "roll", "version": str(version_of(room.code)), "action_id": "a1"},
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="nl",
    )
    assert toast_text(response.content.decode()).startswith("Dat mag je niet: je kijkt mee in deze kamer")


def test_out_of_turn_and_the_wrong_seat(make_room):
    room = make_room(bots=0)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    act(room.host, room.code, action="start")
    st = state_of(room.code)
    idle = ben if st.active_seat == 1 else room.host
    active_name = st.seats[st.active_seat].nickname
    before = snapshot(room.code)
    refused(act(idle, room.code, action="roll"), f"It is not your turn: {active_name} is to roll.")
    prompt = st.prompts[0]  # the active seat's roll, answered by the other seat's browser
    refused(
        act(idle, room.code, action="buy", prompt=str(prompt.id), buy="yes"),
        f"It is not your turn: {active_name} is to roll.",
    )
    unchanged(room.code, *before)


def test_a_stale_version_is_refused_and_the_page_refreshed(room_at):
    room, _prompt = room_at("roll")
    stale = version_of(room.code) - 1
    before = snapshot(room.code)
    response = act(room.host, room.code, action="roll", version=str(stale))
    html = response.content.decode()
    assert toast_text(html).startswith(f"The game has moved on (you saw version {stale}")
    assert 'data-full="1"' in html and f'data-version="{version_of(room.code)}"' in html  # a fresh full frame
    unchanged(room.code, *before)


@pytest.mark.parametrize(
    ("fields", "expected"),
    [
        ({"action": "buy", "prompt": "999999", "buy": "yes"}, "There is no open decision #999999"),
        ({"action": "window", "prompt": "{prompt}", "choice": "play:M99"}, "That choice is not allowed here"),
        (
            {"action": "window", "prompt": "{prompt}", "choice": "dance"},
            "That request is not understood: an unexpected",
        ),
        (
            {"action": "window", "prompt": "{prompt}", "choice": "play:<script>"},
            "That request is not understood: that is not a card",
        ),
        ({"action": "roll", "evil": "1"}, "That request is not understood: unexpected field"),
        ({"action": "launch_missiles"}, "That request is not understood: unknown form"),
        ({"action": "roll", "version": "-3"}, "That request is not understood: a whole number is expected"),
        ({"action": "roll", "action_id": "x" * 80}, "That request is not understood: the form is damaged"),
        (
            {"action": "transfer", "src": "bank", "dst": "p1", "amount": "5", "memo": "gift"},
            "You may not do that",
        ),
    ],
)
def test_forged_forms_are_refused(room_at, fields, expected):
    room, prompt = room_at("window")
    seat_two = Client()
    login(seat_two, room.code, token=Participant.objects.get(game__code=room.code, seat=1).token)
    data = {k: v.replace("{prompt}", str(prompt.id)) for k, v in fields.items()}
    before = snapshot(room.code)
    client = seat_two if data["action"] == "transfer" else room.host  # the seat alone is no host
    refused(act(client, room.code, **data), expected)
    unchanged(room.code, *before)


def test_a_repeated_field_is_refused(room_at):
    room, prompt = room_at("buy")
    before = snapshot(room.code)
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "buy",
            "prompt": str(prompt.id),
            "buy": ["yes", "no"],
            "version": str(before[0]),
            "action_id": "r1",
        },
        HTTP_HX_REQUEST="true",
    )
    refused(response, "That request is not understood: a field was sent twice")
    unchanged(room.code, *before)


def test_a_double_click_is_applied_once(room_at):
    room, _prompt = room_at("roll")
    version = str(version_of(room.code))
    first = act(room.host, room.code, action="roll", version=version, action_id="same-click")
    second = act(room.host, room.code, action="roll", version=version, action_id="same-click")
    assert toast_text(first.content.decode()) == "" and toast_text(second.content.decode()) == ""
    assert ActionRecord.objects.filter(game__code=room.code, action_id="same-click").count() == 1


def test_missing_csrf_token_is_refused_with_a_clear_message(room_at):
    room, _prompt = room_at("roll")
    strict = Client(enforce_csrf_checks=True)
    strict.cookies.update(room.host.cookies)
    before = snapshot(room.code)
    response = strict.post(
        f"/r/{room.code}/act",
        {"action": "roll", "version": str(before[0]), "action_id": "c1"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 403
    assert toast_text(response.content.decode()).startswith("This page was open for too long")
    page = strict.post("/rooms/new", {"nickname": "Eve"})
    assert page.status_code == 403
    assert "Yellow card: that is not allowed." in page.content.decode()
    unchanged(room.code, *before)
    assert Game.objects.count() == 1


def test_acting_in_an_unknown_room(client):
    response = client.post(
        "/r/nosuchroom9/act", {"action": "roll", "version": "0", "action_id": "u1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 404
    assert toast_text(response.content.decode()) == "There is no room with that code."


def test_a_post_without_htmx_gets_a_page_not_a_fragment(room_at):
    room, _prompt = room_at("roll")
    response = act(Client(), room.code, htmx=False, action="roll")
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"


@pytest.mark.parametrize(
    "nickname",
    [
        '"><script>x()</script>',
        "Zoë 🦁 ⚽",
        "Ω" * 24,
        "a&b \"quoted\" 'single'",
    ],
)
def test_hostile_and_unicode_nicknames_are_escaped_everywhere(make_room, nickname):
    room = make_room(bots=1)
    visitor = Client()
    response = visitor.post(f"/r/{room.code}/join", {"nickname": nickname})
    assert response.status_code == 302
    act(room.host, room.code, action="start")
    for client, url in (
        (room.host, f"/r/{room.code}/"),
        (room.host, f"/r/{room.code}/host"),
        (Client(), f"/r/{room.code}/watch"),
        (Client(), f"/r/{room.code}/bracket"),
    ):
        html = client.get(url).content.decode()
        assert "<script>x()" not in html
        if "<" in nickname or '"' in nickname:
            assert nickname not in html  # only its escaped form
    frame = act(room.host, room.code, action="pause").content.decode()
    assert "<script>x()" not in frame


@pytest.mark.parametrize("nickname", ["x" * 25, "x" * 5000, "   ", "nul\x00byte", "bell\x07"])
def test_bad_nicknames_are_refused(make_room, nickname):
    room = make_room(bots=1)
    response = Client().post(f"/r/{room.code}/join", {"nickname": nickname})
    assert response.status_code == 400
    assert "A nickname needs 1 to 24 visible characters." in response.content.decode()
    assert Participant.objects.filter(game__code=room.code).count() == 2


def test_a_huge_form_is_refused(room_at):
    room, prompt = room_at("lineup")
    before = snapshot(room.code)
    response = room.host.post(
        f"/r/{room.code}/act",
        {
            "action": "lineup",
            "prompt": str(prompt.id),
            "order": ["F001"] * 200,
            "version": str(before[0]),
            "action_id": "big",
        },
        HTTP_HX_REQUEST="true",
    )
    refused(response, "That request is not understood")
    unchanged(room.code, *before)


def test_a_player_cannot_use_host_powers(make_room):
    room = make_room(bots=0)
    ben = Client()
    ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    for fields in (
        {"action": "start"},
        {"action": "add_bot", "strength": "easy"},
        {"action": "remove_seat", "seat": "1"},
        {
            "action": "house_rules",
            "mode": "euro",
            "seats": "4",
            "visit_fee_to": "bank",
            "decision_timer": "0",
        },
    ):
        before = snapshot(room.code)
        refused(act(ben, room.code, **fields), "You may not do that")
        unchanged(room.code, *before)
    assert ben.get(f"/r/{room.code}/host").status_code == 403


def test_the_rematch_is_for_the_host_of_a_finished_game(make_room):
    room = make_room(bots=1)
    act(room.host, room.code, action="start")
    response = room.host.post(f"/r/{room.code}/rematch", HTTP_HX_REQUEST="true")
    assert toast_text(response.content.decode()) == "The game is still being played."
    assert Client().post(f"/r/{room.code}/rematch").status_code == 403
    assert Game.objects.count() == 1
