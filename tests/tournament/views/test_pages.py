"""Every room page answers in English and Dutch with its key content; unknown rooms and strangers refused."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from roomkit import login, start

pytestmark = pytest.mark.django_db


def get(client: Client, url: str, lang: str = "en"):
    return client.get(url, HTTP_ACCEPT_LANGUAGE=lang)


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("en", ["Invite your friends", "Seats", "House rules", "Start the game", "Copy link"]),
        ("nl", ["Nodig je vrienden uit", "Plaatsen", "Huisregels", "Start het spel", "Kopieer de link"]),
    ],
)
def test_lobby_for_the_host(make_room, lang, phrases):
    room = make_room(bots=1)
    page = get(room.host, f"/r/{room.code}/", lang)
    assert page.status_code == 200
    html = page.content.decode()
    for phrase in phrases:
        assert phrase in html, phrase
    assert room.code in html
    assert f'data-ws="/ws/r/{room.code}/?format=html&amp;lang={lang}"' in html
    assert "Anna" in html and "Robin (bot)" in html


@pytest.mark.parametrize(("lang", "phrase"), [("en", "Take a seat"), ("nl", "Neem een plaats")])
def test_lobby_offers_a_visitor_the_join_form(make_room, lang, phrase):
    room = make_room(bots=1)
    html = get(Client(), f"/r/{room.code}/", lang).content.decode()
    assert phrase in html
    assert f'action="/r/{room.code}/join"' in html
    assert "Start the game" not in html and "Start het spel" not in html  # only the host starts


def test_join_link_prefills_the_nickname(make_room):
    room = make_room(bots=1)
    html = Client().get(f"/r/{room.code}/?nickname=Ben").content.decode()
    assert re.search(r'name="nickname"[^>]*value="Ben"', html)


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("en", ["Phase 1 · Qualifiers", "Players", "My team", "What happened", "Bonus Fund"]),
        ("nl", ["Fase 1 · Kwalificatie", "Spelers", "Mijn team", "Wat er gebeurde", "Bonus Fonds"]),
    ],
)
def test_game_page_for_a_seat(make_room, lang, phrases):
    room = make_room(bots=2)
    start(room)
    page = get(room.host, f"/r/{room.code}/", lang)
    assert page.status_code == 200
    html = page.content.decode()
    for phrase in phrases:
        assert phrase in html, phrase
    assert 'id="board-svg"' in html and 'id="pawn"' in html
    assert html.count('class="sq sq--') == 40  # every square of the track


@pytest.mark.parametrize(("lang", "phrase"), [("en", "Spectating"), ("nl", "Toeschouwer")])
def test_watch_page(make_room, lang, phrase):
    room = make_room(bots=2)
    start(room)
    page = get(Client(), f"/r/{room.code}/watch", lang)
    assert page.status_code == 200
    html = page.content.decode()
    assert phrase in html
    assert "as=spectator" in html
    assert 'id="prompt"' not in html  # read-only: no decisions


def test_a_visitor_of_a_started_game_is_sent_to_the_watch_page(make_room):
    room = make_room(bots=2)
    start(room)
    response = Client().get(f"/r/{room.code}/")
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/watch"


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("en", ["The road to the Cup", "Countries still in"]),
        ("nl", ["De weg naar de beker", "Landen die nog meedoen"]),
    ],
)
def test_bracket_page(make_room, lang, phrases):
    room = make_room(bots=2)
    start(room)
    page = get(Client(), f"/r/{room.code}/bracket", lang)
    assert page.status_code == 200
    for phrase in phrases:
        assert phrase in page.content.decode(), phrase


@pytest.mark.parametrize(
    ("lang", "phrases"),
    [
        ("en", ["Host console", "Ledger", "Balances", "The Official", "Manual transfer (Bank)", "Pause"]),
        (
            "nl",
            [
                "Gastheerconsole",
                "Kasboek",
                "Saldi",
                "De Official",
                "Handmatige overboeking (Bank)",
                "Pauzeren",
            ],
        ),
    ],
)
def test_host_console(make_room, lang, phrases):
    room = make_room(bots=2)
    start(room)
    page = get(room.host, f"/r/{room.code}/host", lang)
    assert page.status_code == 200
    html = page.content.decode()
    for phrase in phrases:
        assert phrase in html, phrase
    assert html.count('<tr id="ledger-') == 3  # the starting capital of each participant
    assert 'id="chart-series"' in html


def test_host_console_is_forbidden_for_everyone_else(make_room):
    room = make_room(bots=1)
    start(room)
    stranger = Client()
    assert stranger.get(f"/r/{room.code}/host").status_code == 403
    player = Client()
    login(player, room.code, token="not-a-real-token")
    page = player.get(f"/r/{room.code}/host", HTTP_ACCEPT_LANGUAGE="nl")
    assert page.status_code == 403
    assert "Alleen de gastheer" in page.content.decode()


@pytest.mark.parametrize("suffix", ["", "watch", "bracket", "host"])
@pytest.mark.parametrize(
    ("lang", "phrase"), [("en", "There is no room with that code."), ("nl", "Er is geen kamer met die code.")]
)
def test_unknown_code_is_a_friendly_404(client, suffix, lang, phrase):
    page = client.get(f"/r/nosuchroom2/{suffix}", HTTP_ACCEPT_LANGUAGE=lang)
    assert page.status_code == 404
    html = page.content.decode()
    assert phrase in html
    assert 'href="/static/css/app.css"' in html  # the site's style, not a bare error


def test_the_forms_page_offers_create_and_join(client):
    html = client.get("/rooms/new").content.decode()
    assert 'action="/rooms/new"' in html and 'action="/rooms/join"' in html


def test_pages_reuse_the_pushed_partials_by_id(make_room):
    room = make_room(bots=2)
    start(room)
    html = room.host.get(f"/r/{room.code}/").content.decode()
    for dom_id in (
        "sync",
        "banner",
        "duel",
        "board-svg",
        "board-info",
        "players",
        "prompt",
        "hand",
        "log-list",
        "duel-feed",
    ):
        assert f'id="{dom_id}"' in html, dom_id
    assert "hx-swap-oob" not in html  # a page draws the partials in place; only frames swap them by id
