"""The landing page explains the game and offers Create/Join, in English and in Dutch."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client, RequestFactory
from django.utils import translation
from django.views.defaults import server_error

# Words that are the same in both languages (names, numbers, loanwords Dutch uses as is).
# The language switch names each language in its own language, so those names are the same on every page.
SAME_IN_BOTH = {"Magic Football", "English", "Nederlands", "Deutsch", "Español", "Bots"}


class PageText(HTMLParser):
    """Visible text plus the attributes people read (alt, title, aria-label, placeholder, description)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self.forms: dict[str, set[str]] = {}
        self._skip = 0
        self._form: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag in {"script", "style"}:
            self._skip += 1
        for name in ("alt", "title", "aria-label", "placeholder"):
            if attributes.get(name):
                self.texts.append(attributes[name] or "")
        if tag == "meta" and attributes.get("name") == "description":
            self.texts.append(attributes.get("content") or "")
        if tag == "form":
            self._form = attributes.get("action") or ""
            self.forms.setdefault(self._form, set())
        if (
            tag in {"input", "select", "textarea", "button"}
            and self._form is not None
            and attributes.get("name")
        ):
            self.forms[self._form].add(attributes["name"] or "")

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"}:
            self._skip -= 1
        if tag == "form":
            self._form = None

    def handle_data(self, data: str) -> None:
        text = " ".join(data.split())
        if text and not self._skip:
            self.texts.append(text)


def read(html: str) -> PageText:
    parser = PageText()
    parser.feed(html)
    return parser


def words(texts: list[str]) -> set[str]:
    """Texts that carry language (at least two letters), normalised."""
    return {t for t in texts if len(re.findall(r"[^\W\d_]", t)) >= 2}


@pytest.fixture
def english(client: Client) -> str:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


@pytest.fixture
def dutch(client: Client) -> str:
    response = client.get("/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 200
    return response.content.decode()


def test_english_landing_explains_the_game_and_offers_create_and_join(english: str) -> None:
    page = read(english)
    text = " ".join(page.texts)
    assert '<html lang="en">' in english
    assert "Magic Football" in text
    for phrase in (
        "Roll the ball die",
        "card duels",
        "knock-out finals",
        "Create room",
        "Join room",
        "How to play",
    ):
        assert phrase in text, phrase
    for phase in ("Qualifiers", "Road to the finals", "The finals"):
        assert phase in text
    assert re.search(r'<img src="/static/img/board\.svg"[^>]*alt="The Magic Football board', english)


def test_create_and_join_forms_post_the_agreed_fields(english: str) -> None:
    forms = read(english).forms
    assert forms["/rooms/new"] >= {
        "csrfmiddlewaretoken",
        "nickname",
        "mode",
        "seats",
        "bots",
        "visit_fee_to",
        "decision_timer",
    }
    assert forms["/rooms/join"] >= {"csrfmiddlewaretoken", "code", "nickname"}
    assert 'value="world_cup" checked' in english and 'value="euro"' in english
    seats = re.search(r'<select[^>]*name="seats".*?</select>', english, re.S)
    assert seats is not None
    assert re.findall(r'<option value="(\d+)"', seats.group(0)) == [str(n) for n in range(2, 9)]


def test_shell_uses_vendored_htmx_and_sends_csrf_with_every_htmx_request(english: str) -> None:
    assert '<script src="/static/vendor/htmx.org-2.0.11/htmx.min.js" defer></script>' in english
    assert re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"[A-Za-z0-9]{32,}\"\}'", english)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in english
    assert "unpkg.com" not in english and "cdn" not in english.lower()


def test_dutch_landing_is_fully_translated(english: str, dutch: str) -> None:
    assert '<html lang="nl">' in dutch
    nl_text = " ".join(read(dutch).texts)
    for phrase in (
        "Kamer openen",
        "Meedoen",
        "Zo speel je",
        "Kwalificatie",
        "Op weg naar de finales",
        "bondscoach",
    ):
        assert phrase in nl_text, phrase
    untranslated = (words(read(english).texts) & words(read(dutch).texts)) - SAME_IN_BOTH
    assert not untranslated, f"English text left on the Dutch page: {sorted(untranslated)}"


def test_language_switcher_sets_dutch_for_the_next_pages(client: Client) -> None:
    response = client.post("/i18n/setlang/", {"language": "nl", "next": "/"})
    assert response.status_code == 302 and response["Location"] == "/"
    page = client.get("/").content.decode()
    assert '<html lang="nl">' in page
    assert re.search(r'name="language" value="nl"[^>]*aria-pressed="true"', page)
    assert re.search(r'name="language" value="en"[^>]*aria-pressed="false"', page)


def test_join_link_prefills_the_room_code(client: Client) -> None:
    page = client.get("/?code=ab12cd").content.decode()
    assert re.search(r'name="code"[^>]*value="AB12CD"', page)


def test_unknown_page_is_a_friendly_404_in_the_readers_language(client: Client) -> None:
    english = client.get("/no-such-room/", HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 404
    assert "Offside! This page does not exist." in english.content.decode()
    dutch = client.get("/no-such-room/", HTTP_ACCEPT_LANGUAGE="nl")
    assert "Buitenspel! Deze pagina bestaat niet." in dutch.content.decode()


def test_server_error_page_renders_without_a_request_context() -> None:
    request = RequestFactory().get("/")
    with translation.override("nl"):
        response = server_error(request)
    assert response.status_code == 500
    body = response.content.decode()
    assert "Een overtreding van onze kant." in body
    assert 'href="/static/css/app.css"' in body


@pytest.mark.django_db
def test_health_probe_reports_the_database(client: Client) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["status"] == "ok"
    assert response["Cache-Control"].startswith("max-age=0")


def test_health_probe_fails_when_the_database_is_unreachable(client: Client) -> None:
    """Without django_db, pytest-django refuses every query: the probe must report 503, not 200."""
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["status"] == "error"
