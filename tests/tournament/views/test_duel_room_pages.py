"""The card duel's practice room (``games/duel``) on the room pages: the board shows a seat its own line-up
editor and its window's choices, and answers them as forms; a spectator and the other side see no card a
side keeps to itself; the landing page offers the game."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client
from roomkit import Room, act, answer_elsewhere, login, play_defaults, start, state_of, version_of

from cards.catalog import get_catalog
from games.api import get_game
from tournament.services.rooms import room_create

pytestmark = pytest.mark.django_db


def duel_room(kind: str = "single", seats: int = 2, bots: int = 1, seed: int = 11) -> Room:
    created = room_create(
        nickname="Anna",
        bots=["easy"] * bots,
        seed=seed,
        game="duel",
        house_rules={"seats": seats, "competition": kind},
    )
    client = Client()
    login(client, created.code, token=created.token, host_key=created.host_key)
    return Room(created.code, client, created.token, created.host_key)


def board_html(page: Any) -> str:
    """The duel board of a room page (its HTML, as the browser gets it)."""
    body = page.content.decode()
    match = re.search(r'<section class="duel-board.*?</section>', body, re.S)
    assert match, "no duel board on the page"
    return match.group(0)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\u00ad", "")


def my_match(code: str, seat: int = 1) -> tuple[Any, str]:
    st = state_of(code)
    m = next(m for m in st.matches if seat in (m.home and m.home.seat, m.away and m.away.seat))
    return m, "home" if m.home.seat == seat else "away"


def secrets(match: Any, side: str) -> tuple[set[str], set[str]]:
    """The ids and the (unique) names of what ``side`` keeps to itself in ``match`` right now: its cards
    but those the duel has put on the table (the spectators' view shows them)."""
    cat = get_catalog()
    game = get_game("duel")
    public = json.dumps(game.format.view(match.engine, None))
    ids = {c for c in game.private(match.engine, side) if f'"{c}"' not in public}
    people = {**cat.rivals, **cat.keepers}
    everyone = [p.name for p in people.values()]
    names = {people[c].name for c in ids if c in people and everyone.count(people[c].name) == 1}
    return ids, names


def test_a_seat_sets_its_line_up_on_the_board_and_the_order_it_posts_is_played():
    room = duel_room()
    start(room)
    match, side = my_match(room.code)
    team = match.engine.ids[0 if side == "home" else 1]
    board = board_html(room.host.get(f"/r/{room.code}/"))
    posted = re.findall(r'<input type="hidden" name="order" value="([A-Z0-9]+)">', board)
    assert sorted(posted) == sorted(team[:-1])  # her 11 field players, the keeper stays at the bottom
    assert 'name="action" value="lineup"' in board and "data-keep=" in board
    assert board.count('name="reserve"') == 11 and "Confirm the line-up" in board
    keeper = get_catalog().player(team[-1]).name
    assert f"Keeper at the bottom: {keeper}" in text(board)
    prompt = next(p for p in state_of(room.code).prompts if p.seat == 1)
    order = list(reversed(posted))  # the weakest first, as she chooses
    response = act(
        room.host, room.code, action="lineup", prompt=str(prompt.id), order=order, reserve=order[0]
    )
    assert response.status_code == 200 and "toast--error" not in response.content.decode()
    match, side = my_match(room.code)
    s = 0 if side == "home" else 1
    assert [match.engine.ids[s][i] for i in match.engine.order[s]] == order[1:]
    assert match.engine.ids[s][match.engine.lineup_reserve[s]] == order[0]


def test_a_seat_answers_its_window_on_the_board_and_sees_only_its_own_secrets():
    room = duel_room()
    start(room)
    st = play_defaults(room.code, lambda st: any(p.seat == 1 and p.kind == "window" for p in st.prompts))
    prompt = next(p for p in st.prompts if p.seat == 1 and p.kind == "window")
    board = board_html(room.host.get(f"/r/{room.code}/"))
    picks = re.findall(r'name="pick" value="(\d+)"', board)
    assert sorted(int(i) for i in picks) == list(range(len(prompt.choices)))  # every choice, by its number
    assert 'name="action" value="pick"' in board and f'name="prompt" value="{prompt.id}"' in board
    match, side = my_match(room.code)
    ids, names = secrets(match, "away" if side == "home" else "home")
    shown = text(board)
    assert not {c for c in ids if c in board} and not {n for n in names if n in shown}
    mine = match.engine.hold[0 if side == "home" else 1]
    cat = get_catalog()
    assert all(cat.match_cards[c].name_en in shown for c in mine)  # her own hand, by name
    assert "My match cards" in shown and "my reserve" in shown
    passing = prompt.choices.index({"kind": "pass"})
    response = act(room.host, room.code, action="pick", prompt=str(prompt.id), pick=str(passing))
    assert response.status_code == 200 and "toast--error" not in response.content.decode()
    assert all(p.id != prompt.id for p in state_of(room.code).prompts)


def answer(client: Client, code: str, p: Any) -> None:
    """Answer a prompt through the board's forms, with its default."""
    if p.kind == "window":
        fields = {"action": "pick", "pick": str(p.choices.index(p.default))}
    else:
        reserve = p.default["reserve"]
        fields = {"action": "lineup", "order": [*p.default["order"], reserve], "reserve": reserve}
    response = act(client, code, prompt=str(p.id), **fields)
    assert response.status_code == 200 and "toast--error" not in response.content.decode()


def test_a_spectator_and_the_other_side_see_no_card_a_side_keeps():
    room = duel_room(bots=0)  # Anna and Ben, two people
    ben = Client()
    joined = ben.post(f"/r/{room.code}/join", {"nickname": "Ben"})
    assert joined.status_code == 302
    start(room)
    boards = 0
    for _ in range(12):  # the line-ups, then windows
        st = state_of(room.code)
        if not st.prompts:
            break
        match = next(m for m in st.matches if m.status == "playing")
        anna = "home" if match.home.seat == 1 else "away"
        ben_side = "away" if anna == "home" else "home"
        pages = {
            "spectator": (Client().get(f"/r/{room.code}/watch"), ("home", "away")),
            "Anna": (room.host.get(f"/r/{room.code}/"), (ben_side,)),
            "Ben": (ben.get(f"/r/{room.code}/"), (anna,)),
        }
        for who, (page, hidden) in pages.items():
            board = board_html(page)
            for side in hidden:
                ids, names = secrets(match, side)
                assert ids, (who, side)
                shown = {n for n in names if n in text(board)}
                assert not {c for c in ids if c in board} and not shown, (who, side, shown)
            boards += 1
        spectator = board_html(pages["spectator"][0])
        assert "<form" not in spectator and "duel-board__own" not in spectator
        p = st.prompts[0]
        answer(room.host if p.seat == 1 else ben, room.code, p)
    assert boards >= 30


def test_the_landing_page_offers_the_card_duel_and_creates_its_room():
    page = text(Client().get("/").content.decode())
    assert "Card duel" in page and "Dice football" in page
    browser = Client()
    response = browser.post(
        "/rooms/new",
        {
            "nickname": "Anna",
            "game": "duel",
            "competition": "single",
            "seats": "2",
            "bots": "1",
            "decision_timer": "0",
            "opt_match_cards": "0",
        },
    )
    assert response.status_code == 302
    code = response["Location"].strip("/").split("/")[-1]
    assert state_of(code).game == "duel"


def test_a_line_up_counts_although_the_other_match_moved_the_room_on():
    """In a league of four two duels run at once: the other match's answers move the room's version on
    while Anna orders her cards, and her line-up (which names its open decision) must still count."""
    room = duel_room("league", seats=4, bots=3)
    start(room)
    mine = next(p for p in state_of(room.code).prompts if p.seat == 1)
    seen = version_of(room.code)
    answer_elsewhere(room.code, mine)
    assert version_of(room.code) > seen
    order = [*mine.default["order"], mine.default["reserve"]]
    response = act(
        room.host, room.code, action="lineup", prompt=str(mine.id), order=order,
        reserve=mine.default["reserve"], version=str(seen),
    )  # fmt: skip
    assert response.status_code == 200 and "moved on" not in response.content.decode()
    assert all(p.id != mine.id for p in state_of(room.code).prompts)  # her line-up was taken


@pytest.mark.parametrize(
    ("lang", "words"),
    [("nl", ("Kaartduel", "Mijn matchkaarten")), ("de", ("Kartenduell",)), ("es", ("Duelo de cartas",))],
)
def test_the_duel_board_speaks_the_readers_language(lang, words):
    room = duel_room()
    start(room)
    play_defaults(room.code, lambda st: any(p.seat == 1 and p.kind == "window" for p in st.prompts))
    room.host.cookies["django_language"] = lang
    board = text(board_html(room.host.get(f"/r/{room.code}/")))
    assert all(word in board for word in words), (lang, words)
    for english in ("to come", "swaps left", "Your decision", "Confirm", "1st half", "Not playable"):
        assert english not in board, (lang, english)
    match, side = my_match(room.code)
    cat = get_catalog()
    hand = [cat.match_cards[c] for c in match.engine.hold[0 if side == "home" else 1]]
    names = [m.name_nl if lang == "nl" else m.name_en for m in hand]  # the catalog's two languages
    assert all(n in board for n in names), (lang, names)
