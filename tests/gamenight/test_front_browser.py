"""What a new group runs into on its first game night (issue 23), in real Chromium against a real daphne:
the host console's ledger and money chart follow a payment made from another client, the replay's controls
work after the browser's Back, cards hold their stars, names and flags inside their frames, the Luck
square's target is picked on the board, and the bracket page fits its header on a phone and a desktop.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from test_gamenight_browser import (
    DESKTOP,
    SESSION_FOR,
    contexts,
    create_room,
    log_in,
    prepare,
    run_axe,
    server,
    shot,
    wait_socket,
)

PHONE = {"width": 390, "height": 844}
__all__ = ["contexts", "server"]  # the fixtures, shared with the other game-night browser tests


def start_game(page: Any, url: str, seats: str = "3", bots: str = "2") -> str:
    """Anna opens a room with bots and starts the game; the room's code."""
    code = create_room(page, url, seats=seats, bots=bots)
    wait_socket(page)
    page.get_by_role("button", name="Start the game").click()
    page.wait_for_selector("#board-svg")
    wait_socket(page)
    return code


# ------------------------------------------------------------------------------------------ host console

CHART = "() => { const u = window.mfMoneyChart; return u ? u.data[0].length : -1; }"


def test_the_host_consoles_ledger_and_money_chart_follow_a_transfer_made_from_another_client(
    server: Any, contexts: Callable[..., Any]
) -> None:
    laptop = contexts()
    code = start_game(laptop, server.url)
    laptop.goto(f"{server.url}/r/{code}/host")
    wait_socket(laptop)
    laptop.wait_for_selector("#money-chart canvas")
    # the host's phone: the same session (the host key), its own page and socket
    phone = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.context.add_cookies(laptop.context.cookies())
    phone.goto(f"{server.url}/r/{code}/host")
    wait_socket(phone)

    laptop.wait_for_function(f"({CHART})() > 0")
    phone.select_option("#tr-src", "bank")
    phone.select_option("#tr-dst", "p2")
    phone.fill("#tr-amount", "1234")
    phone.fill("#tr-memo", "Pizza for the table")
    phone.get_by_role("button", name="Transfer").click()

    row = laptop.locator("#ledger-rows tr", has_text="Pizza for the table")
    row.wait_for(timeout=10_000)  # live: no reload
    seq = int(row.get_attribute("data-seq"))
    assert row.get_attribute("data-dst") == "p2" and row.get_attribute("data-amount") == "1234"
    # the chart has a point for the new ledger entry, and Ben's line goes up by the amount there
    laptop.wait_for_function(f"window.mfMoneyChart.data[0].includes({seq})", timeout=10_000)
    rise = laptop.evaluate(
        "seq => { const u = window.mfMoneyChart, i = u.data[0].indexOf(seq);"
        " const keys = JSON.parse(document.getElementById('chart-series').textContent).map(s => s.key);"
        " const col = u.data[1 + keys.indexOf('p2')]; return col[i] - (i > 0 ? col[i - 1] : 0); }",
        seq,
    )
    assert rise == 1234
    # the x axis counts ledger entries: whole numbers only, named in the page's language
    ticks = laptop.evaluate("window.mfMoneyChart.axes[0]._splits")
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    assert laptop.evaluate("window.mfMoneyChart.series[0].label") == "Ledger entry"
    assert not laptop.errors and not phone.errors
    assert run_axe(laptop) == []


# ------------------------------------------------------------------------------------------ Back

RESTORED = "window.__restored = 0; addEventListener('pageshow', e => { if (e.persisted) __restored += 1; });"


def page_in(browser: Any, viewport: dict[str, int] = DESKTOP, **kwargs: Any) -> Any:
    """A page of its own browser context that counts how often it was restored from the back/forward
    cache (``window.__restored``)."""
    context = browser.new_context(viewport=viewport, locale="en-GB", **kwargs)
    context.add_init_script(RESTORED)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    return page


def back(page: Any) -> None:
    """The browser's Back (a page from the back/forward cache fires no load event: wait for the commit)."""
    page.go_back(wait_until="commit")


def test_the_replays_go_buttons_work_after_the_browsers_back(server: Any, browser_bfcache: Any) -> None:
    anna = page_in(browser_bfcache, PHONE, is_mobile=True, has_touch=True)
    code = start_game(anna, server.url)
    anna.wait_for_selector("#prompt form button[type=submit]", timeout=30_000)  # the game waits for Anna
    anna.goto(f"{server.url}/r/{code}/replay")
    go = anna.locator(".replay__jump").first.get_by_role("button", name="Go")

    # Go on a slow connection, then another page before the answer came, then Back: the browser restores
    # the replay as it was left, from its back/forward cache
    anna.route("**/replay?step=2*", lambda route: None)  # the answer never comes
    anna.fill("#replay-step", "2")
    go.click()
    anna.wait_for_selector(".replay__jump button[disabled]")
    anna.goto(f"{server.url}/r/{code}/watch")
    back(anna)
    anna.wait_for_function("window.__restored === 1")
    anna.unroute("**/replay?step=2*")
    expect_enabled(anna)
    go.click()
    anna.wait_for_selector("#step-title >> text=/Step 2 of \\d+/")  # (a bot may still add steps)

    # Back from a step the Go button went to: htmx's history shows the step before as it was
    back(anna)
    anna.wait_for_selector("#step-title >> text=/Step (\\d+) of \\1$/")  # the latest step, however many
    expect_enabled(anna)
    anna.fill("#replay-step", "3")
    go.click()
    anna.wait_for_selector("#step-title >> text=/Step 3 of \\d+/")
    assert not anna.errors


def expect_enabled(page: Any) -> None:
    """Every control of the replay's forms can be used (none stays disabled or busy)."""
    stuck = page.evaluate(
        "[...document.querySelectorAll('.replay__jump button[disabled], .replay__jump[aria-busy]')].length"
    )
    assert stuck == 0, "a replay control is still disabled"


def test_a_game_page_restored_by_back_follows_the_game_again(server: Any, browser_bfcache: Any) -> None:
    anna = page_in(browser_bfcache)
    code = start_game(anna, server.url)
    anna.goto(f"{server.url}/r/{code}/replay")
    back(anna)
    anna.wait_for_function("window.__restored === 1")  # the game page as it was left, its socket closed
    before = int(anna.get_attribute("#sync", "data-version"))
    # the host's phone pays Ben: the restored page shows it without a reload
    phone = page_in(browser_bfcache, PHONE, is_mobile=True, has_touch=True)
    phone.context.add_cookies(anna.context.cookies())
    phone.goto(f"{server.url}/r/{code}/host")
    phone.fill("#tr-amount", "777")
    phone.fill("#tr-memo", "Parking")
    phone.get_by_role("button", name="Transfer").click()
    anna.wait_for_selector("#log-list >> text=Parking", timeout=10_000)
    assert int(anna.get_attribute("#sync", "data-version")) > before
    assert not anna.errors and not phone.errors


# Django code for the set-ups (run by ``prepare`` in the server's database): a started room of Anna and
# bots, played on by every seat's default answer until a moment of the game.
PLAY = """
import json, uuid
from tournament.models import Game
from tournament.rules.events import Actor
from tournament.services.actions import game_act
from tournament.services.rooms import room_create
from tournament.services.store import load_snapshot

def started(seed, bots):
    room = room_create(nickname="Anna", bots=["easy"] * bots, seed=seed, house_rules={"seats": bots + 1})
    game_act(code=room.code, actor=Actor("host"), action={"type": "start"}, expected_version=None,
             action_id="go")
    return room

def play_until(code, done):
    for _ in range(8000):
        st = load_snapshot(Game.objects.get(code=code)).state
        if done(st):
            return st
        p = st.prompts[0]
        game_act(code=code, actor=Actor("seat", p.seat), action={"type": "answer", "prompt": p.id,
                 "choice": p.default}, expected_version=None, action_id=uuid.uuid4().hex)
    raise SystemExit("the game did not reach the wanted moment")
"""


# ------------------------------------------------------------------------------------------ cards

# A game where the cards that strain a frame most are where the page draws cards: after the deal, every pile
# of player cards is re-dealt with the most stars and the longest names on top, so the teams bought from
# them hold 6★ players with long names; the game is played (defaults) until a match of Anna's waits for
# her with a card in action on each side, and the open cards are re-dealt once more. Real catalog cards,
# dealt on purpose (the deal is the only thing changed).
CARDS_SETUP = (
    SESSION_FOR
    + PLAY
    + """
from django.db import transaction
from django.db.models import F
from cards.catalog import get_catalog
from tournament.rules.projection import SPECTATOR, project
from tournament.services.store import cache, flow_to_json, write_changes
from tournament.presentation import present

cat = get_catalog()

def strain(card):  # the card that strains a frame most: most stars, then the longest name
    p = cat.player(card)
    return (p.stars, len(p.name))

def stack(code, groups):
    # Re-deal the cards of each group of piles so that every pile's top card strains its frame most.
    game = Game.objects.get(code=code)
    with transaction.atomic():
        snap = load_snapshot(game)
        new = snap.state.clone()
        new.piles = {k: list(v) for k, v in new.piles.items()}
        for piles in groups:
            ranked = sorted((c for k in piles for c in new.piles[k]), key=strain, reverse=True)
            sizes = {k: len(new.piles[k]) for k in piles}
            dealt = {k: [] for k in piles}
            i = 0
            for card in ranked:
                while len(dealt[piles[i % len(piles)]]) >= sizes[piles[i % len(piles)]]:
                    i += 1
                dealt[piles[i % len(piles)]].append(card)
                i += 1
            for k in piles:
                new.piles[k] = dealt[k][::-1]
        write_changes(snap, snap.state, new)
        flow = flow_to_json(new, snap.ledger_seq)
        Game.objects.filter(pk=game.pk).update(version=F("version") + 1, flow=flow)
    cache.clear()

def anna_waits_in_a_duel(st):  # both cards in action, and nothing moves while her page is measured
    duel = present.duel(project(st, SPECTATOR, cat), cat)
    in_action = bool(duel) and all(s.get("active") for s in duel["sides"])
    return in_action and st.prompts and st.prompts[0].seat == 1

room = started(seed=5, bots=3)
FIELD, KEEPERS = ("box1", "box5", "official_fields"), ("box3", "box7")
stack(room.code, [FIELD, KEEPERS, ("official_rivals",)])
play_until(room.code, anna_waits_in_a_duel)
stack(room.code, [FIELD, KEEPERS])
cookie = session_for(room.code, token=room.token, host_key=room.host_key)
print(json.dumps({"code": room.code, "cookie": cookie}))
"""
)


FITS = """() => {
  const out = [];
  const inset = (r, x, y) => ({left: r.left + x, right: r.right - x, top: r.top + y, bottom: r.bottom - y});
  const within = (box, r) => r.width === 0 || (r.left >= box.left - 0.5 && r.right <= box.right + 0.5
    && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5);
  const shown = [...document.querySelectorAll('.card')].filter(card => card.getClientRects().length);
  for (const card of shown) {  // HTML cards (team, duel, prompt): inside the frame's border
    const cs = getComputedStyle(card), border = [cs.borderLeftWidth, cs.borderTopWidth].map(parseFloat);
    const box = inset(card.getBoundingClientRect(), border[0], border[1]);
    const name = (card.querySelector('.card__name') || card).textContent.trim();
    for (const el of card.querySelectorAll('*')) {
      if (el.closest('.visually-hidden')) continue;
      const range = document.createRange();
      range.selectNodeContents(el);
      const rects = [...el.getClientRects(), ...range.getClientRects()];
      if (!rects.every(r => within(box, r)) || el.scrollWidth > el.clientWidth + 1)
        out.push(name + ': .' + el.className.split(' ')[0] + ' leaves the frame');
    }
  }
  for (const g of document.querySelectorAll('#board-svg .b-open')) {  // the open cards on the board (SVG)
    const face = g.querySelector('.b-open__card'), r = face.getBoundingClientRect();
    const half = parseFloat(getComputedStyle(face).strokeWidth) * r.width / face.getBBox().width / 2;
    for (const part of g.querySelectorAll('text:not(.b-sr), use'))
      if (!within(inset(r, half, half), part.getBoundingClientRect()))
        out.push('open card: ' + part.textContent + ' leaves the frame');
  }
  return {problems: out, cards: shown.length, flags: document.querySelectorAll('.card .fi').length,
          names: shown.map(c => (c.querySelector('.card__name') || {}).textContent || '').concat(
            [...document.querySelectorAll('.b-open__name')].map(t => t.textContent)),
          stars: shown.map(c => (c.querySelector('.card__stars') || {}).textContent || '')};
}"""


def test_every_card_on_the_game_page_holds_its_stars_name_and_flag_inside_its_frame(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str]
) -> None:
    ready = prepare(server, django_subprocess, CARDS_SETUP)
    for viewport, lang in ((PHONE, "en"), (DESKTOP, "en"), (PHONE, "nl"), (DESKTOP, "nl")):
        page = contexts(viewport=viewport)
        log_in(page, server, ready["cookie"])
        page.goto(f"{server.url}/r/{ready['code']}/")
        if lang == "nl":  # Dutch positions are longer ("MIDDENVELDER")
            page.locator('button[name="language"][value="nl"]').click()
            page.wait_for_selector("html[lang=nl] #board-svg")
        page.wait_for_selector("#duel .duel__card.card--in-action")
        if viewport is PHONE:  # the phone shows my team in its own tab
            page.locator("#tab-btn-cards").click()
        page.wait_for_selector("#hand .card-row .card")
        wait_socket(page)
        found = page.evaluate(FITS)
        where = f"{viewport['width']}px, {lang}"
        # the page shows what strains a frame: Anna's 12 cards, both duel cards, the open cards on the board
        assert found["cards"] >= 14 and found["flags"] >= 10, (where, found)
        assert any(s.count("\u2605") == 6 for s in found["stars"]), (where, found["stars"])
        assert any(len(n.replace("\u00ad", "")) >= 17 for n in found["names"]), (where, found["names"])
        assert found["problems"] == [], (where, found["problems"])
        if lang == "en":
            shot(page, f"cards-{viewport['width']}.png", full_page=True)
        assert run_axe(page) == [], where
        page.context.close()


# ------------------------------------------------------------------------------------------ bracket

BRACKET_SETUP = (
    PLAY
    + """
def reached(phase):
    kind = "challenge" if phase == "phase2" else "qf"  # a challenge played, or a quarter-final
    return lambda st: st.phase == phase and any(m.kind == kind and m.status == "finished" for m in st.matches)

codes = {}
for phase in ("phase2", "phase3"):
    room = started(seed=9, bots=5)
    play_until(room.code, reached(phase))
    codes[phase] = room.code
print(json.dumps(codes))
"""
)

WIDER_THAN_HEADER = """() => {
  const inner = document.querySelector('.site-header__inner'), cs = getComputedStyle(inner);
  const r = inner.getBoundingClientRect();
  const left = r.left + parseFloat(cs.paddingLeft), right = r.right - parseFloat(cs.paddingRight);
  const out = [...document.querySelectorAll('main *')].filter(el => {
    const b = el.getBoundingClientRect();
    return b.width && (b.left < left - 0.5 || b.right > right + 0.5);
  }).map(el => el.tagName.toLowerCase() + '.' + String(el.className).split(' ')[0]);
  if (document.documentElement.scrollWidth > innerWidth) out.push('the page scrolls sideways');
  return out;
}"""


def test_the_bracket_page_is_as_wide_as_its_header_on_a_phone_a_desktop_and_a_tv(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str]
) -> None:
    codes = prepare(server, django_subprocess, BRACKET_SETUP)
    for phase, code in codes.items():
        for viewport in (PHONE, DESKTOP, {"width": 1920, "height": 1080}):
            page = contexts(viewport=viewport)
            page.goto(f"{server.url}/r/{code}/bracket")
            page.wait_for_selector(
                ".bracket__challenges" if phase == "phase2" else ".bracket__rounds .bmatch"
            )
            wait_socket(page)
            assert page.evaluate(WIDER_THAN_HEADER) == [], (phase, viewport["width"])
            if viewport is DESKTOP:
                assert run_axe(page) == [], phase
            page.context.close()


# ------------------------------------------------------------------------------------------ Luck

LUCK_SETUP = (
    SESSION_FOR
    + PLAY
    + """
rooms = []
for _ in range(2):  # the same game twice: a tap picks the square in one, the keyboard in the other
    room = started(seed=1, bots=3)
    play_until(room.code, lambda st: any(p.seat == 1 and p.kind == "luck" for p in st.prompts))
    cookie = session_for(room.code, token=room.token, host_key=room.host_key)
    rooms.append({"code": room.code, "cookie": cookie})
print(json.dumps(rooms))
"""
)


def luck_page(page: Any, server: Any, room: dict[str, str]) -> list[str]:
    """Anna's game page at her Luck decision; the squares the form offers, with the board's targets."""
    log_in(page, server, room["cookie"])
    page.goto(f"{server.url}/r/{room['code']}/")
    page.wait_for_selector("#prompt form[data-luck]")
    wait_socket(page)
    offered = page.eval_on_selector_all("#prompt form[data-luck] select option", "os => os.map(o => o.value)")
    targets = page.eval_on_selector_all("#board-svg .sq--target", "gs => gs.map(g => g.dataset.index)")
    assert sorted(targets) == sorted(offered) and len(offered) > 30  # every legal square, and only those
    assert page.locator("#board-svg .sq--luck.sq--target").count() == 0  # never another Luck square (R5a)
    return offered


def test_the_luck_square_is_chosen_on_the_board_with_a_tap_or_the_keyboard(
    server: Any, contexts: Callable[..., Any], django_subprocess: Callable[..., str]
) -> None:
    tap_room, key_room = prepare(server, django_subprocess, LUCK_SETUP)

    phone = contexts(viewport=PHONE, is_mobile=True, has_touch=True)
    offered = luck_page(phone, server, tap_room)
    square = next(i for i in offered if i != phone.input_value("#prompt form[data-luck] select"))
    ring = phone.eval_on_selector(
        f'#board-svg .sq[data-index="{square}"] .sq__bg',
        "r => getComputedStyle(r).stroke",
    )
    assert ring == "rgb(246, 199, 68)"  # highlighted in gold
    phone.locator(f'#board-svg .sq[data-index="{square}"]').tap()
    phone.wait_for_function(f"document.getElementById('pawn').dataset.square === '{square}'")
    phone.wait_for_selector("#prompt form[data-luck]", state="detached")
    assert phone.locator("#board-svg .sq--target").count() == 0  # the board is a picture again

    desk = contexts()
    luck_page(desk, server, key_room)
    assert run_axe(desk) == []
    shot(desk, "luck.png")
    for _ in range(80):  # Tab to the first square of the board that can be chosen
        focused = desk.evaluate("document.activeElement.classList.contains('sq--target')")
        if focused:
            break
        desk.keyboard.press("Tab")
    assert focused, "no square of the board can be reached with Tab"
    square = desk.evaluate("document.activeElement.dataset.index")
    said = desk.evaluate(
        "() => { const a = document.activeElement;"
        " const hint = document.getElementById(a.getAttribute('aria-describedby'));"
        " return [a.getAttribute('role'), a.querySelector('title').textContent, hint && hint.textContent]; }"
    )
    # a screen reader hears a button named by the square ("12 · Brazil"), described by the Luck hint
    assert said[0] == "button" and said[1].startswith(f"{square} · ") and said[2].startswith("Luck: click")
    desk.keyboard.press("Enter")
    desk.wait_for_function(f"document.getElementById('pawn').dataset.square === '{square}'")
    assert not phone.errors and not desk.errors
