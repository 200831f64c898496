"""The language switch in real Chromium against a real daphne: a group switches to German on the landing
page, plays on in German, switches to Spanish in the middle of the game; each switch reloads the same page
in the new language, the room's socket is opened again in that language and every fragment it pushes
afterwards speaks it. On the replay, whose steps change the address without a reload, the switch returns
to the step on screen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest


@pytest.fixture
def server(daphne_server: Callable[..., Any]) -> Any:
    return daphne_server(catalog=True, env={"BOT_DELAY": "0.05", "ABSENT_PLAYER_TIMEOUT": "600"})


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.pushed = []  # type: ignore[attr-defined]  # every frame the room sockets brought, in order
    page.on("websocket", lambda ws: ws.on("framereceived", lambda frame: page.pushed.append(str(frame))))
    try:
        yield page
    finally:
        context.close()


def switch(page: Any, name: str, lang: str) -> None:
    """Press the language's button in the header and wait for the page to come back in that language."""
    before = page.url
    page.get_by_role("button", name=name, exact=True).click()
    page.wait_for_selector(f'html[lang="{lang}"]')
    assert page.url == before, "the switch must return to the page it was pressed on"
    current = page.locator('.lang-switch [aria-current="true"]')
    assert current.count() == 1 and current.get_attribute("value") == lang


def wait_socket(page: Any) -> None:
    """The room's socket has brought its first frame (the page is counted in the room)."""
    page.wait_for_function("window.mfRoom && window.mfRoom.state.frames > 0", timeout=15_000)


def test_switching_language_mid_game_reloads_the_page_and_its_pushes_in_that_language(
    page: Any, server: Any
) -> None:
    page.goto(server.url + "/")
    switch(page, "Deutsch", "de")
    assert page.get_by_role("heading", name="Einen Raum eröffnen").is_visible()

    page.fill("#create-nickname", "Anna")
    page.select_option("#create-seats", "3")
    page.select_option("#create-bots", "2")
    page.get_by_role("button", name="Raum eröffnen").click()
    page.wait_for_url(re.compile(r"/r/[a-z0-9]+/$"))
    code = re.search(r"/r/([a-z0-9]+)/", page.url).group(1)
    wait_socket(page)
    assert "lang=de" in page.get_attribute("#room", "data-ws")
    page.get_by_role("button", name="Spiel starten").click()
    page.wait_for_selector("#board-svg")
    page.get_by_text("Anstoß! Die Qualifikation für die Weltmeisterschaft beginnt.").wait_for()

    switch(page, "Español", "es")
    since = len(page.pushed)  # the German page's socket closed with it
    assert "lang=es" in page.get_attribute("#room", "data-ws")
    wait_socket(page)
    frames = page.evaluate("window.mfRoom.state.frames")
    page.get_by_role("button", name="Lanzar el dado").click(timeout=30_000)  # Anna's turn comes
    page.wait_for_function(f"window.mfRoom.state.frames > {frames}")  # a push after her roll
    page.wait_for_function("document.body.innerText.includes('Anna ha sacado un')")
    pushed = "\n".join(page.pushed[since:])
    assert "Fase 1 · Clasificación" in pushed  # the new socket's full render, then its updates
    for other in ("Phase 1 · Qualifiers", " rolled ", "Kick-off!", "Phase 1 · Qualifikation", "gewürfelt"):
        assert other not in pushed, other
    assert page.get_by_role("button", name="Roll the die").count() == 0

    page.goto(f"{server.url}/r/{code}/replay")
    title = page.inner_text("#step-title")
    last = int(re.search(r"de (\d+)", title).group(1))
    page.get_by_role("link", name="Atrás").click()
    page.wait_for_url(re.compile(rf"step={last - 1}$"))
    switch(page, "Deutsch", "de")
    assert page.inner_text("#step-title").startswith(f"Schritt {last - 1} von")
    assert page.errors == []
