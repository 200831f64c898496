"""Create a room, join it, start it: the flow of a game night, through the views and the signed session."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from roomkit import act, login, state_of, toast_text

from tournament.models import Game, Participant

pytestmark = pytest.mark.django_db

CREATE = {
    "nickname": "Anna",
    "mode": "world_cup",
    "seats": "4",
    "bots": "1",
    "visit_fee_to": "bank",
    "decision_timer": "60",
}


def create(client: Client, **overrides: str):
    return client.post("/rooms/new", {**CREATE, **overrides})


def code_of(response) -> str:
    match = re.fullmatch(r"/r/([a-z0-9]+)/", response["Location"])
    assert match, response["Location"]
    return match.group(1)


def test_create_makes_the_creator_host_and_seat_one_and_applies_the_house_rules():
    host = Client()
    response = create(host)
    assert response.status_code == 302
    code = code_of(response)
    game = Game.objects.get(code=code)
    assert game.mode == "world_cup"
    assert game.house_rules == {"seats": 4, "visit_fee_to": "bank", "decision_timer": 60}
    seats = list(
        Participant.objects.filter(game=game)
        .order_by("seat")
        .values_list("seat", "nickname", "kind", "is_host")
    )
    assert seats == [(1, "Anna", "human", True), (2, "Robin (bot)", "bot", False)]
    lobby = host.get(f"/r/{code}/").content.decode()
    assert "Start the game" in lobby and "Leave" in lobby  # the host, in seat 1
    assert len(code) == 10 and re.fullmatch(r"[23456789a-hjkmnp-z]+", code)  # unguessable, easy to read


def test_create_in_euro_mode_without_a_timer():
    code = code_of(create(Client(), mode="euro", decision_timer="0", bots="0"))
    game = Game.objects.get(code=code)
    assert game.mode == "euro" and game.house_rules["decision_timer"] is None


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("nickname", "   ", "A nickname needs 1 to 24 visible characters."),
        ("seats", "9", "A room has 2 to 8 seats."),
        ("bots", "4", "Bots fill the other seats: at most one fewer than the seats."),
        ("mode", "olympics", "Choose the World Cup or the European Championship."),
        ("decision_timer", "5", "The decision timer is off or 10 to 600 seconds."),
        ("visit_fee_to", "charity", "Visit fees go to the national coach or to the Bank."),
    ],
)
def test_create_refuses_bad_fields_with_a_clear_message(field, value, message):
    response = create(Client(), **{field: value})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Game.objects.count() == 0


def test_create_refuses_a_nickname_that_is_too_long_in_dutch_too():
    response = Client().post("/rooms/new", {**CREATE, "nickname": "x" * 30}, HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 400
    assert "Een bijnaam heeft 1 tot 24 zichtbare tekens nodig." in response.content.decode()
    assert Game.objects.count() == 0


def test_join_by_code_from_the_landing_page_and_come_back_after_a_reload():
    code = code_of(create(Client()))
    ben = Client()
    response = ben.post(
        "/rooms/join", {"code": f" {code.upper()[:5]}-{code.upper()[5:]} ", "nickname": "Ben"}
    )
    assert response.status_code == 302 and response["Location"] == f"/r/{code}/"
    assert Participant.objects.get(game__code=code, nickname="Ben").seat == 3
    page = ben.get(f"/r/{code}/").content.decode()
    assert "Take a seat" not in page and "Leave" in page  # back in his seat: the signed session knows him
    again = ben.post("/rooms/join", {"code": code, "nickname": "Ben again"})
    assert again.status_code == 302
    assert Participant.objects.filter(game__code=code).count() == 3  # a seated browser takes no second seat


def test_join_from_the_lobby_page():
    code = code_of(create(Client()))
    cleo = Client()
    response = cleo.post(f"/r/{code}/join", {"nickname": "Cleo"})
    assert response.status_code == 302
    assert Participant.objects.filter(game__code=code, nickname="Cleo").exists()


@pytest.mark.parametrize(
    ("setup", "nickname", "message"),
    [
        ("full", "Dora", "The room is full (2 seats)."),
        ("taken", "anna", "The nickname “anna” is already taken in this room."),
        ("started", "Dora", "The game has already started."),
        ("none", "", "A nickname needs 1 to 24 visible characters."),
    ],
)
def test_join_refusals_are_clear(setup, nickname, message):
    host = Client()
    code = code_of(create(host, seats="2" if setup == "full" else "4", bots="1"))
    if setup == "started":
        act(host, code, action="start")
    response = Client().post(f"/r/{code}/join", {"nickname": nickname})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Participant.objects.filter(game__code=code).count() == 2


def test_join_an_unknown_code():
    response = Client().post("/rooms/join", {"code": "zzzzzzzzzz", "nickname": "Ben"})
    assert response.status_code == 404
    assert "There is no room with that code." in response.content.decode()


def test_the_whole_lobby_flow_create_join_add_bot_start():
    host = Client()
    code = code_of(create(host, bots="0"))
    ben = Client()
    ben.post(f"/r/{code}/join", {"nickname": "Ben"})
    response = act(host, code, action="add_bot", strength="strong")
    assert response.status_code == 200 and toast_text(response.content.decode()) == ""
    assert state_of(code).seats[3].bot == "strong"
    response = act(host, code, action="start")
    assert response.status_code == 200
    st = state_of(code)
    assert st.status == "running" and st.phase == "phase1"
    page = ben.get(f"/r/{code}/").content.decode()
    assert 'id="board-svg"' in page  # the lobby became the game page


def test_a_player_leaves_and_the_host_removes_a_seat():
    host = Client()
    code = code_of(create(host, bots="1"))
    ben = Client()
    ben.post(f"/r/{code}/join", {"nickname": "Ben"})
    response = act(ben, code, action="leave")
    assert response.status_code == 204 and response["HX-Redirect"] == f"/r/{code}/"
    assert set(state_of(code).seats) == {1, 2}
    act(host, code, action="remove_seat", seat="2")
    assert set(state_of(code).seats) == {1}


def test_the_host_changes_the_house_rules_in_the_lobby():
    host = Client()
    code = code_of(create(host))
    act(host, code, action="house_rules", mode="euro", seats="6", visit_fee_to="coach", decision_timer="120")
    game = Game.objects.get(code=code)
    assert game.mode == "euro"
    assert game.house_rules == {"seats": 6, "visit_fee_to": "coach", "decision_timer": 120}


def test_the_session_keeps_only_the_most_recent_rooms():
    browser = Client()
    codes = [code_of(create(browser, bots="0")) for _ in range(14)]
    rooms = browser.session["rooms"]
    assert list(rooms) == codes[-12:]
    assert "host_key" in rooms[codes[-1]] and "token" in rooms[codes[-1]]


def test_a_token_of_another_room_proves_nothing():
    code_a = code_of(create(Client()))
    creator_b = Client()
    code_b = code_of(create(creator_b))
    token_b = creator_b.session["rooms"][code_b]["token"]
    thief = Client()
    login(thief, code_a, token=token_b)
    page = thief.get(f"/r/{code_a}/").content.decode()
    assert "Take a seat" in page  # not seated in room A


@pytest.mark.parametrize("name", ["Host", " the HOST ", "Gastheer", "Bank", "de Official"])
def test_the_names_of_the_host_the_bank_and_the_official_are_refused_on_every_form(name):
    why = "is reserved for the host, the Bank and the Official: choose another nickname."
    created = create(Client(), nickname=name)
    assert created.status_code == 400 and Game.objects.count() == 0
    field = re.search(
        r'<span class="field__error" id="create-nickname-error">(.*?)</span>', created.content.decode()
    )
    assert field and why in html.unescape(field.group(1))  # told at the nickname field
    code = code_of(create(Client()))
    for response in (
        Client().post(f"/r/{code}/join", {"nickname": name}),
        Client().post("/rooms/join", {"code": code, "nickname": name}),
    ):
        assert response.status_code == 400 and why in html.unescape(response.content.decode())
    dutch = Client().post(f"/r/{code}/join", {"nickname": name}, HTTP_ACCEPT_LANGUAGE="nl")
    assert "is gereserveerd voor de gastheer, de Bank en de Official" in html.unescape(dutch.content.decode())
    stands = Client().post(
        f"/r/{code}/chat", {"channel": "spectators", "text": "hi", "name": name}, HTTP_HX_REQUEST="true"
    )
    assert why in html.unescape(stands.content.decode())
    assert list(Participant.objects.filter(game__code=code).values_list("nickname", flat=True)) == [
        "Anna",
        "Robin (bot)",
    ]


def test_a_full_lobby_says_so_and_offers_to_watch_instead_of_a_seat():
    host = Client()
    code = code_of(create(host, seats="2", bots="1"))
    lobby = Client().get(f"/r/{code}/").content.decode()
    assert "Take a seat" not in lobby and 'name="nickname"' not in lobby
    assert "This room is full: all 2 seats are taken." in lobby and f'href="/r/{code}/watch"' in lobby
    refused = Client().post(f"/r/{code}/join", {"nickname": "Dora"})  # a page opened before it filled up
    assert "The room is full (2 seats)." in refused.content.decode()
    assert "This room is full" in refused.content.decode()
    act(
        host,
        code,
        action="house_rules",
        mode="world_cup",
        seats="3",
        visit_fee_to="coach",
        decision_timer="0",
    )
    assert "Take a seat" in Client().get(f"/r/{code}/").content.decode()  # a seat came free
