"""Every page speaks German and Spanish: landing, forms, import, lobby, game, watch, bracket, host console,
replay and the missing room; the language switch sets the language and brings the reader back to the same
page, whose socket (and so every pushed fragment) then speaks that language too.

Each page is rendered in English and in the other language: any visible text (or title/aria-label/alt)
identical in both that is not a name, a number or a word the language uses as is, is an untranslated
string. Catalog names (countries, match and money cards) exist only in English and Dutch, so a German or
Spanish reader sees their English names: they are allowed here by design.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from roomkit import Room, play_defaults, start
from test_i18n_pages import proper_names, words

pytestmark = pytest.mark.django_db

LANGS = ("de", "es")
# Words German or Spanish use as is in this game (loanwords, rulebook terms, die names), besides names.
SAME_AS_ENGLISH = {
    "de": {"Bots", "Bot", "Start", "Training", "Chat", "Lobby", "Match", "Marker", "live", "Bank", "Trainer"},
    "es": {"Bots", "bot", "Chat", "rival", "Final"},
}
LANGUAGE_NAMES = {"English", "Nederlands", "Deutsch", "Español", "Magic Football"}
# A few characteristic strings of each page, per language (the switch's own names excluded).
PHRASES: dict[str, dict[str, list[str]]] = {
    "landing": {
        "de": ["Einen Raum eröffnen", "Raum eröffnen", "So wird gespielt", "Dein Spitzname"],
        "es": ["Abrir una sala", "Abrir sala", "Cómo se juega", "Tu apodo"],
    },
    "forms": {"de": ["Einem Raum beitreten", "Raumcode"], "es": ["Unirse a una sala", "Código de sala"]},
    "import": {
        "de": ["Eine Spielaufzeichnung importieren", "Importieren"],
        "es": ["Importar un registro de partida", "Importar"],
    },
    "lobby": {
        "de": ["Lade deine Freunde ein", "Plätze", "Hausregeln", "Spiel starten", "Link kopieren"],
        "es": ["Invita a tus amigos", "Plazas", "Reglas de la casa", "Empezar la partida", "Copiar enlace"],
    },
    "join": {"de": ["Nimm Platz", "Beitreten"], "es": ["Ocupa una plaza", "Unirse"]},
    "game": {
        "de": ["Phase 1 · Qualifikation", "Meine Mannschaft", "Was passiert ist", "Bonusfonds"],
        "es": ["Fase 1 · Clasificación", "Mi equipo", "Qué ha pasado", "Caja de Primas"],
    },
    "watch": {
        "de": ["Zuschauer", "Du siehst, was jeder Zuschauer sieht"],
        "es": ["Espectador", "Ves lo que ve cualquier espectador"],
    },
    "duel": {
        "de": ["Phase 3 · Die Endrunde", "Spielkommentar", "Spielstand"],
        "es": ["Fase 3 · La fase final", "Comentario del partido", "Marcador"],
    },
    "bracket": {
        "de": ["Der Weg zum Pokal", "Turnierbaum"],
        "es": ["El camino hacia la Copa", "Cuadro"],
    },
    "host": {
        "de": ["Gastgeber-Konsole", "Kassenbuch", "Kontostände", "Manuelle Überweisung (Bank)", "Pausieren"],
        "es": [
            "Consola del anfitrión",
            "Libro de cuentas",
            "Saldos",
            "Transferencia manual (Banca)",
            "Pausar",
        ],
    },
    "replay": {
        "de": ["Steuerung der Wiederholung", "Was passiert war", "Pos1 und Ende"],
        "es": ["Controles de la repetición", "Lo que había pasado", "Inicio y Fin"],
    },
    "missing": {
        "de": ["Es gibt keinen Raum mit diesem Code."],
        "es": ["No hay ninguna sala con ese código."],
    },
}
# English sentences that must be gone from every page of the other language (a sample of the catalog).
ENGLISH = ["Skip to content", "Language", "Magic Football Online is a fan-made edition"]


def catalog_names() -> set[str]:
    """Names the catalog holds only in English and Dutch: German and Spanish readers see the English one."""
    from cards.catalog import get_catalog

    cat = get_catalog()
    return {
        c.name_en for c in (*cat.countries.values(), *cat.match_cards.values(), *cat.money_cards.values())
    }


def untranslated(en: str, other: str, lang: str, allowed: set[str]) -> list[str]:
    """Texts of the other-language page that are the English page's, minus names and loanwords."""
    allowed = allowed | SAME_AS_ENGLISH[lang] | LANGUAGE_NAMES
    same = words(en) & words(other)
    return sorted(t for t in same - allowed if not _only_names(t, allowed))


def _only_names(text: str, allowed: set[str]) -> bool:
    # a line made of allowed names, numbers, money and punctuation ("Anna · 2.440.000 M", "BRA 2–1 ARG")
    rest = text
    for name in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(name, "")
    return len(re.findall(r"[^\W\d_]", re.sub(r"\b[A-Z]{3}\b|\bM\b|\b[A-Z]\d+\b", "", rest))) < 2


def check_page(client: Client, url: str, page: str, lang: str, allowed: set[str], status: int = 200) -> str:
    """The page in ``lang``: its status, its <html lang>, its phrases, no English left; its HTML."""
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == en.status_code == status, url
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html, url
    for phrase in PHRASES[page][lang]:
        assert phrase in html, (url, phrase)
    for sentence in ENGLISH:
        assert sentence not in html, (url, sentence)
    assert untranslated(en.content.decode(), html, lang, allowed) == [], url
    return html


@pytest.fixture
def played(make_room: Any) -> Room:
    """A room well into the qualifiers (bots and Anna playing by default), with a match being played later."""
    room = make_room(bots=3, seed=11)
    start(room)
    play_defaults(room.code, lambda st: st.turns.get("phase1", 0) >= 25)
    return room


@pytest.mark.parametrize("lang", LANGS)
def test_site_pages_speak_the_language(lang: str) -> None:
    client = Client()
    check_page(client, "/", "landing", lang, set())
    check_page(client, "/rooms/new", "forms", lang, set())
    check_page(client, "/rooms/import", "import", lang, set())
    check_page(client, "/r/nosuchroom/", "missing", lang, set(), status=404)


@pytest.mark.parametrize("lang", LANGS)
def test_lobby_speaks_the_language_to_the_host_and_a_visitor(make_room: Any, lang: str) -> None:
    room = make_room(bots=2)
    allowed = proper_names(room.code) | catalog_names()
    html = check_page(room.host, f"/r/{room.code}/", "lobby", lang, allowed)
    assert f'data-ws="/ws/r/{room.code}/?format=html&amp;lang={lang}"' in html  # its pushes: this language
    check_page(Client(), f"/r/{room.code}/", "join", lang, allowed)


@pytest.mark.parametrize("lang", LANGS)
def test_room_pages_of_a_running_game_speak_the_language(played: Room, lang: str) -> None:
    code = played.code
    allowed = proper_names(code) | catalog_names()
    check_page(played.host, f"/r/{code}/", "game", lang, allowed)
    check_page(Client(), f"/r/{code}/watch", "watch", lang, allowed)
    check_page(Client(), f"/r/{code}/bracket", "bracket", lang, allowed)
    check_page(played.host, f"/r/{code}/host", "host", lang, allowed)
    check_page(Client(), f"/r/{code}/replay", "replay", lang, allowed)


@pytest.mark.parametrize("lang", LANGS)
def test_a_duel_of_the_finals_speaks_the_language(make_room: Any, lang: str) -> None:
    room = make_room(bots=3, seed=11)
    start(room)
    play_defaults(room.code, lambda st: st.running_match is not None and st.phase == "phase3")
    allowed = proper_names(room.code) | catalog_names()
    check_page(room.host, f"/r/{room.code}/", "duel", lang, allowed)
    check_page(Client(), f"/r/{room.code}/bracket", "bracket", lang, allowed)


# ------------------------------------------------------------------------------------------ the switch


def switch_buttons(html: str) -> dict[str, str]:
    """The switch's buttons: language code → the button's tag."""
    form = re.search(r'<form class="lang-form".*?</form>', html, re.S)
    assert form, "the page has no language switch"
    tags = re.findall(r'(<button[^>]*name="language" value="(\w+)"[^>]*>)', form.group(0))
    return {code: tag for tag, code in tags}


@pytest.mark.parametrize("lang", LANGS)
def test_the_switch_sets_the_language_and_returns_to_the_same_page(played: Room, lang: str) -> None:
    url = f"/r/{played.code}/bracket"
    page = played.host.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert re.search(r'name="next" value="' + re.escape(url) + '"', page)
    response = played.host.post("/i18n/setlang/", {"language": lang, "next": url})
    assert response.status_code == 302 and response["Location"] == url
    # the cookie decides from now on, whatever the browser's Accept-Language says
    html = played.host.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<html lang="{lang}">' in html
    assert PHRASES["bracket"][lang][0] in html
    buttons = switch_buttons(html)
    assert 'aria-current="true"' in buttons[lang] and 'aria-pressed="true"' in buttons[lang]
    assert all("aria-current" not in tag for code, tag in buttons.items() if code != lang)
    game = played.host.get(f"/r/{played.code}/").content.decode()
    assert f"lang={lang}" in re.search(r'data-ws="([^"]+)"', game).group(1)


def test_the_switch_names_each_language_in_its_own_language() -> None:
    html = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    buttons = switch_buttons(html)
    assert set(buttons) == {"en", "nl", "de", "es"}
    labels = dict(re.findall(r'value="(\w+)" lang="\1"[^>]*>([^<]+)</button>', html))
    assert labels == {"en": "English", "nl": "Nederlands", "de": "Deutsch", "es": "Español"}


# ------------------------------------------------------------------------------------------ pushes


async def first_frame(path: str) -> tuple[WebsocketCommunicator, str]:
    from magicfootball.asgi import application

    comm = WebsocketCommunicator(application, path, headers=[(b"origin", b"http://127.0.0.1")])
    connected, _ = await comm.connect()
    assert connected
    return comm, await comm.receive_from(timeout=5)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("lang", "seats", "kick_off"), [("de", "Plätze", "Anstoß!"), ("es", "Plazas", "¡Saque inicial!")]
)
async def test_the_socket_of_a_switched_page_pushes_in_that_language(
    make_room: Any, lang: str, seats: str, kick_off: str
) -> None:
    from tournament.services.store import cache

    cache.clear()
    room = await sync_to_async(make_room)(bots=2)
    await sync_to_async(room.host.post)("/i18n/setlang/", {"language": lang, "next": f"/r/{room.code}/"})
    page = (await sync_to_async(room.host.get)(f"/r/{room.code}/")).content.decode()
    path = re.search(r'data-ws="([^"]+)"', page).group(1).replace("&amp;", "&")
    comm, full = await first_frame(path)
    assert 'data-full="1"' in full and seats in full
    await sync_to_async(start)(room)  # a push after an action: the kick-off line of the log
    update = await comm.receive_from(timeout=10)
    while kick_off not in update:
        update = await comm.receive_from(timeout=10)
    assert "Kick-off!" not in update
    await comm.send_to(text_data=json.dumps({"type": "sync", "since": 0}))
    again = await comm.receive_from(timeout=5)  # a fresh full render, in the same language
    assert 'data-full="1"' in again and kick_off in again and "Kick-off!" not in again
    await comm.disconnect()
    cache.clear()
