"""Every room page is complete in Dutch: no English text is left on the Dutch page.

The page is rendered in both languages for the same game; any visible text (or title/aria-label/alt) that is
identical in both and is not a name, a number or a word Dutch uses as is, is an untranslated string.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client
from roomkit import act, play_defaults, start

from tournament.presentation.present import name_lines

pytestmark = pytest.mark.django_db

# Words Dutch uses as is in this game (rulebook terms and loanwords), and the site's name.
SAME_IN_BOTH = {
    "Magic Football",
    "Open keeper",
    "English",  # the language switch names each language in its own language
    "Nederlands",
    "Deutsch",
    "Español",
    "Bots",
    "Start",
    "Training",
    "Credit",
    "Debet",
    "Keeper",
    "keeper",
    "Match",
    "Lobby",
    "lobby",
    "Trainer",
    "bot",
    "live",
    "Bank",
    "Official",
    "Chat",
    "reserve",
    "Penalty",
    "Corner",
    "Marker",
}


class Texts(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in {"script", "style"}:
            self._skip += 1
        for name in ("title", "aria-label", "alt", "placeholder"):
            value = dict(attrs).get(name)
            if value:
                self.texts.append(value)

    def handle_endtag(self, tag: str) -> None:
        if tag in {"script", "style"} and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        text = " ".join(data.replace("\u00ad", "").split())  # soft hyphens in long player names
        if text and not self._skip:
            self.texts.append(text)


def words(html: str) -> set[str]:
    parser = Texts()
    parser.feed(html)
    return {t for t in parser.texts if len(re.findall(r"[^\W\d_]", t)) >= 2}


def names_in(html: str) -> set[str]:
    """Nicknames, players, countries and codes on the page: the same in every language by nature."""
    found = set(re.findall(r'data-card-name="([^"]+)"', html))
    return found


def untranslated(client: Client, url: str, extra_allowed: set[str]) -> list[str]:
    en = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    nl = client.get(url, HTTP_ACCEPT_LANGUAGE="nl").content.decode()
    assert '<html lang="nl">' in nl
    same = words(en) & words(nl)
    return sorted(
        t for t in same - SAME_IN_BOTH - extra_allowed if not _is_name(t, extra_allowed | SAME_IN_BOTH)
    )


def _is_name(text: str, allowed: set[str]) -> bool:
    # a line made only of allowed names, numbers, money and punctuation (e.g. "Anna · 2,440,000 M")
    rest = text
    for name in sorted(allowed, key=len, reverse=True):
        rest = rest.replace(name, "")
    return len(re.findall(r"[^\W\d_]", re.sub(r"\b[A-Z]{3}\b|\bM\b", "", rest))) < 2


def proper_names(code: str) -> set[str]:
    """Every name that may legitimately appear identically in both languages in this room."""
    from cards.catalog import get_catalog
    from tournament.models import Participant

    cat = get_catalog()
    names = set(Participant.objects.filter(game__code=code).values_list("nickname", flat=True))
    names |= {p.name for p in (*cat.field_players.values(), *cat.keepers.values(), *cat.rivals.values())}
    names |= {line for name in list(names) for line in name_lines(name)}  # the open cards' two lines
    names |= {c.name_en for c in cat.countries.values() if c.name_en == c.name_nl}
    names |= {m.name_en for m in cat.match_cards.values() if m.name_en == m.name_nl}
    names |= {m.name_en for m in cat.money_cards.values() if m.name_en == m.name_nl}
    names.add(code)
    return names


def test_lobby_pages_are_fully_dutch(make_room):
    room = make_room(bots=2)
    allowed = proper_names(room.code)
    assert untranslated(room.host, f"/r/{room.code}/", allowed) == []
    assert untranslated(Client(), f"/r/{room.code}/", allowed) == []  # the join form of a visitor


def test_game_watch_bracket_and_host_pages_are_fully_dutch(make_room):
    room = make_room(bots=3, seed=11)
    start(room)
    play_defaults(room.code, lambda st: st.turns.get("phase1", 0) >= 25)
    allowed = proper_names(room.code)
    for url in (
        f"/r/{room.code}/",
        f"/r/{room.code}/host",
        f"/r/{room.code}/watch",
        f"/r/{room.code}/bracket",
    ):
        assert untranslated(room.host, url, allowed) == [], url


def test_a_duel_and_the_finals_are_fully_dutch(make_room):
    room = make_room(bots=3, seed=11)
    start(room)
    play_defaults(room.code, lambda st: st.running_match is not None and st.phase == "phase3")
    allowed = proper_names(room.code)
    for url in (f"/r/{room.code}/", f"/r/{room.code}/bracket"):
        assert untranslated(room.host, url, allowed) == [], url
    act(room.host, room.code, action="end_game")
    assert untranslated(room.host, f"/r/{room.code}/", allowed) == []


def test_error_pages_are_fully_dutch(make_room):
    room = make_room(bots=1)
    assert untranslated(Client(), "/r/nosuchroom/", set()) == []
    assert untranslated(Client(), f"/r/{room.code}/host", set()) == []
    assert untranslated(Client(), "/rooms/new", set()) == []
