"""The card duel's board (``games/duel/board.py`` and ``duel/board.html``) drawn for real views: every kind of
moment of bot-played practice matches (line-ups of every period, main windows, penalty and corner moments,
provisional goals, match cards on a card, a keeper in action first, extra time, every kind of full time), each
for the side that decides, the other side and a spectator."""

from __future__ import annotations

import functools
import json
import re
from typing import Any

import pytest
from boardpage import board_msgids, english_left, translated_away
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real
from duel_moments import FMT, GAME, moments

from cards.catalog import get_catalog
from games.api import SIDES
from games.duel import board as board_module
from games.duel.board import board_context

TEMPLATE = "duel/board.html"
NAMES = {"home": "Ann", "away": "Bob"}
FORM = {"act_url": "/r/ABCD/act", "prompt_id": 41, "version": 17, "action_id": "a-1"}
MOMENTS = sorted(moments())


def decision_of(st: Any, side: str | None) -> Any:
    return next((d for d in FMT.decisions(st) if d.side == side), None)


def context(st: Any, viewer: str | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The viewer's view and his board, with his decision's choices as the room page passes them."""
    view = FMT.view(st, viewer)
    d = decision_of(st, viewer)
    return view, board_context(view, [dict(c) for c in d.choices] if d else None, NAMES)


def render(board: dict[str, Any], lang: str = "en") -> str:
    with translation.override(lang):
        return render_to_string(TEMPLATE, {"board": board, **FORM})


def words(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("\u00ad", "")


@functools.cache
def unique_names() -> dict[str, str]:
    """Card id → name, for the players whose name no other card in the box has (a shared name proves
    nothing)."""
    cat = get_catalog()
    people = {**cat.field_players, **cat.keepers, **cat.rivals}
    count: dict[str, int] = {}
    for p in people.values():
        count[p.name] = count.get(p.name, 0) + 1
    return {cid: p.name for cid, p in people.items() if count[p.name] == 1}


def hidden(st: Any, side: str) -> set[str]:
    """What ``side`` keeps to itself now: its cards and match cards but those the duel put on the table."""
    public = json.dumps(FMT.view(st, None))
    return {c for c in GAME.private(st, side) if f'"{c}"' not in public}


def side_block(html: str, side: str) -> str:
    """The HTML of one side's half of the pitch."""
    start = html.split(f'<div class="duel-board__side duel-board__side--{side}', 1)[1]
    return re.split(r'<div class="duel-board__(?:side |vs|status)', start)[0]


# ------------------------------------------------------------------------------------------ moments
def test_the_moments_cover_every_kind_of_decision_and_ending():
    found = " | ".join(MOMENTS)
    for kind in (
        "lineup 1",
        "lineup 2",
        "lineup 3",
        "window main",
        "window moment penalty",
        "window moment corner",
        "window goal goal",
        "modifiers",
        "keeper first",
        "extra time",
        "over regular",
        "over extra_time",
        "over penalties",
    ):
        assert kind in found, kind


# ------------------------------------------------------------------------------------------ secrets
@pytest.mark.parametrize("moment", MOMENTS)
def test_no_viewer_reads_a_card_another_side_keeps(moment: str):
    """The security boundary: the board (its data and its HTML, attributes included) holds nothing of the
    other side's stack, reserve, line-up or hand, for either side and for a spectator."""
    st = moments()[moment]
    names = unique_names()
    for viewer in (*SIDES, None):
        view, board = context(st, viewer)
        html = render(board)
        data = json.dumps(board, ensure_ascii=False)
        for side in SIDES:
            if side == viewer:
                continue
            secret = hidden(st, side)
            assert not {c for c in secret if c in data or c in html}, (moment, viewer, side)
            secret_names = {names[c] for c in secret if c in names}
            assert not {n for n in secret_names if n in data or n in words(html)}, (moment, viewer, side)
            other = next(s for s in board["sides"] if s["key"] == side)
            assert other["hand"] == [] and other["stack"] == [] and other["reserve"] is None
            assert other["holding_count"] == view["sides"][side]["holding_count"]  # a count only


def test_the_check_sees_a_leak():
    """The control: a board drawn from a view that shows every side's cards is caught."""
    st = moments()["window main"]
    leaky = render(board_context(FMT.view(st, None, reveal_all=True), None, NAMES))
    names = unique_names()
    secret = hidden(st, "home") | hidden(st, "away")
    assert {names[c] for c in secret if c in names and names[c] in words(leaky)}


# ------------------------------------------------------------------------------------------ both sides
@pytest.mark.parametrize("moment", [m for m in MOMENTS if m.startswith("window")])
def test_the_board_shows_both_cards_in_action_with_their_stars_and_match_cards(moment: str):
    st = moments()[moment]
    view, board = context(st, None)
    html = render(board)
    cat = get_catalog()
    for side in SIDES:
        sv = view["sides"][side]
        drawn = next(s for s in board["sides"] if s["key"] == side)
        active = sv["active"]
        assert drawn["active"]["name"] == cat.player(active["card"]).name
        assert (drawn["active"]["stars"], drawn["active"]["effective"]) == (
            active["stars"],
            active["effective"],
        )
        assert drawn["active"]["in_goal"] == active["keeper"]
        mods = [cat.match_cards[m["card"]].name_en for m in active["modifiers"]]
        assert [m["name"] for m in drawn["active"]["modifiers"]] == mods
        block = side_block(html, side)
        assert cat.player(active["card"]).name in words(block)
        assert f"{active['effective']}★" in words(block)
        for name in mods:
            assert name in words(block)
        for label, n in (("to come", sv["stack_count"]), ("swaps left", sv["swaps_left"])):
            assert f"{label} {n}" in words(block)
        assert f"match cards {sv['holding_count']}" in words(block)
    assert f"Score: Ann {view['score'][0]}, Bob {view['score'][1]}" in html


def test_a_match_card_on_a_card_shows_what_it_does_to_its_stars():
    st = moments()["window main modifiers"]
    view, board = context(st, None)
    side = next(s for s in SIDES if (view["sides"][s]["active"] or {}).get("modifiers"))
    active = view["sides"][side]["active"]
    drawn = next(s for s in board["sides"] if s["key"] == side)["active"]
    for mod, shown in zip(active["modifiers"], drawn["modifiers"], strict=True):
        value = mod["value"]
        expected = f"={value}" if mod["set"] else (f"+{value}" if value >= 0 else f"−{-value}")
        assert shown["change"] == expected
    assert drawn["changed"] == (active["effective"] != active["stars"])
    if drawn["changed"]:
        assert f"{active['stars']}★</s>" in render(board)


def test_a_keeper_in_action_first_is_told():
    st = moments()["window main keeper first"]
    view, board = context(st, None)
    html = words(render(board))
    assert "Keeper in action first: this side can no longer score this half." in html
    first = next(s for s in board["sides"] if s["keeper_first"])
    assert first["key"] == view["keeper_first"] and first["active"]["keeper"]


@pytest.mark.parametrize("kind", ["penalty", "corner"])
def test_a_moment_shows_its_card_and_who_takes_it(kind: str):
    st = moments()[f"window moment {kind}"]
    view, board = context(st, None)
    moment = view["moment"]
    taker = NAMES[moment["side"]]
    caption = words(render(board).split("duel-board__caption", 1)[1].split("</p>", 1)[0])
    cat = get_catalog()
    if kind == "penalty":
        keeper = moment["keeper"]
        assert f"Penalty for {taker}!" in caption
        assert f"Keeper {cat.player(keeper['card']).name} ({keeper['effective']}★) in goal." in caption
        assert board["moment"]["keeper"]["effective"] == keeper["effective"]
    else:
        header = moment["header"]
        assert f"Corner for {taker}!" in caption
        assert f"{cat.player(header['card']).name} ({header['effective']}★) comes up to head." in caption


def test_a_goal_waits_in_its_window_and_a_disallowed_one_is_struck_through():
    st = moments()["window goal goal modifiers"]
    view, board = context(st, None)
    scorer = NAMES[view["goal"]["side"]]
    html = render(board)
    assert "duel-board--goal" in html and 'data-goal="provisional"' in html
    assert (
        f"GOAL for {scorer} by {board['goal']['card']['name']}? The other side may still dispute it."
        in words(html)
    )
    view["goal"]["disallowed"] = True  # as a "goal disallowed" card leaves it while its window is open
    html = render(board_context(view, None, NAMES))
    assert "duel-board--disallowed" in html and 'data-goal="disallowed"' in html
    assert f"Goal for {scorer} — disallowed!" in words(html)


@pytest.mark.parametrize("moment", [m for m in MOMENTS if m.startswith("over")])
def test_full_time_says_who_won_and_how_and_keeps_every_secret(moment: str):
    st = moments()[moment]
    result = FMT.result(st)
    how = {
        "regular": "in regular time",
        "extra_time": "after extra time",
        "penalties": "on penalties",
        "die": "on the roll of the die",
    }[result.decided_by]
    for viewer in (*SIDES, None):
        _, board = context(st, viewer)
        caption = words(render(board).split("duel-board__caption", 1)[1].split("</p>", 1)[0])
        if result.winner:
            assert f"Full time: {NAMES[result.winner]} wins {how}." in caption
        else:
            assert "Full time: a draw." in caption
        assert not board["mine"] and all(not s["own"] and not s["deciding"] for s in board["sides"])
        assert "<form" not in render(board)
    if result.penalties:
        _, board = context(st, None)
        for side, (scored, taken) in zip(SIDES, _kicks(st), strict=True):
            drawn = next(s for s in board["sides"] if s["key"] == side)
            assert [k["scored"] for k in drawn["kicks"]] == taken
            assert sum(taken) == scored
        assert f"Penalties {result.penalties[0]}–{result.penalties[1]}" in render(board)


def _kicks(st: Any) -> list[tuple[int, list[bool]]]:
    series = FMT.view(st, None)["penalty_series"]
    return [
        (series["score"][i], [bool(k["scored"]) for k in series["kicks"] if k["side"] == side])
        for i, side in enumerate(SIDES)
    ]


def test_the_periods_played_are_listed_with_their_scorer():
    st = moments()["lineup 3"]
    view, board = context(st, None)
    assert [p["goal"] for p in board["periods"]] == [p["goal"] for p in view["periods"]]
    html = words(render(board))
    assert "Extra time" in html and "1st half:" in html and "2nd half:" in html


# ------------------------------------------------------------------------------------------ decisions
@pytest.mark.parametrize("period", [1, 2, 3])
def test_the_line_up_editor_offers_the_deciders_own_cards_in_the_default_order(period: int):
    st = moments()[f"lineup {period}"]
    for side in SIDES:
        d = decision_of(st, side)
        assert d is not None  # both sides set a line-up at the start of a period
        _, board = context(st, side)
        assert board["mine"] and board["decision"] == "lineup" and board["choices"] is None
        rows = board["lineup"]["rows"]
        expected = [*d.default["order"], *([d.default["reserve"]] if d.default["reserve"] else [])]
        assert [r["id"] for r in rows] == expected
        assert sorted(r["id"] for r in rows) == sorted(f["id"] for f in d.options["field"])
        assert [r["reserve"] for r in rows] == [r["id"] == d.default["reserve"] for r in rows]
        assert board["lineup"]["keeper"]["name"] == get_catalog().player(d.options["keeper"]["id"]).name
        html = render(board)
        assert re.findall(r'name="order" value="(\w+)"', html) == expected
        checked = re.findall(r'name="reserve" value="(\w+)" checked', html)
        assert checked == ([d.default["reserve"]] if d.default["reserve"] else [])
        assert 'name="action" value="lineup"' in html and 'name="prompt" value="41"' in html
        assert 'data-keep="prompt-41"' in html and "data-lineup" in html
        period_words = {1: "1st half", 2: "2nd half", 3: "extra time"}[period]
        assert f"Your line-up for the {period_words}:" in words(html)
        # the other side (and a spectator) sees only that a line-up is being set
        for viewer in (SIDES[1 - SIDES.index(side)], None):
            _, theirs = context(st, viewer)
            if viewer is not None and decision_of(st, viewer) is not None:
                assert not {r["id"] for r in rows} & {r["id"] for r in theirs["lineup"]["rows"]}
            else:
                assert theirs["lineup"] is None and 'name="order"' not in render(theirs)


@pytest.mark.parametrize("moment", [m for m in MOMENTS if m.startswith("window")])
def test_the_decider_is_offered_every_choice_by_its_number_and_nobody_else_any(moment: str):
    st = moments()[moment]
    d = FMT.decisions(st)[0]
    _, board = context(st, d.side)
    listed = board["choices"]
    plays = {c["card"]: i for i, c in enumerate(d.choices) if c["kind"] == "play"}
    cat = get_catalog()
    assert [p["index"] for p in listed["plays"]] == list(plays.values())
    assert [p["name"] for p in listed["plays"]] == [cat.match_cards[c].name_en for c in plays]
    assert listed["pass"] == d.choices.index({"kind": "pass"})
    assert listed["swap"] == (d.choices.index({"kind": "swap"}) if {"kind": "swap"} in d.choices else None)
    sv = FMT.view(st, d.side)["sides"][d.side]
    held = [*sv["holding"], *sv["extra_time_holding"]]
    assert [m["name"] for m in listed["unplayable"]] == [
        cat.match_cards[c].name_en for c in held if c not in plays
    ]
    html = render(board)
    assert sorted(int(i) for i in re.findall(r'name="pick" value="(\d+)"', html)) == list(
        range(len(d.choices))
    )
    assert 'name="action" value="pick"' in html and "Your decision" in html
    lead = {
        "main": "Your move: play a match card, swap in your reserve, or pass.",
        "moment": (
            "A penalty or corner moment: only match cards whose letter is not crossed out may be played."
        ),
        "goal": "A goal was just scored. Dispute it with a match card, or let it stand.",
    }[d.options["window"]]
    assert lead in words(html)
    if listed["swap"] is not None:
        reserve = cat.player(sv["reserve"])
        assert f"Swap in {reserve.name} ({reserve.stars}★) · {sv['swaps_left']} left" in words(html)
    for viewer in (SIDES[1 - SIDES.index(d.side)], None):
        _, theirs = context(st, viewer)
        assert not theirs["mine"] and theirs["choices"] is None
        assert "<form" not in render(theirs)
        assert f"{NAMES[d.side]} is deciding." in words(render(theirs))


def test_without_his_decision_the_decider_gets_no_buttons():
    """A view that carries the decision (the engine's own) draws no form when the page passes no choices:
    a replay, or a seat whose prompt is closed."""
    st = moments()["window main"]
    d = FMT.decisions(st)[0]
    board = board_context(FMT.view(st, d.side), None, NAMES)
    assert not board["mine"] and "<form" not in render(board)


def test_the_decider_sees_his_own_hand_reserve_and_stack():
    st = moments()["window main"]
    cat = get_catalog()
    for side in SIDES:
        view, board = context(st, side)
        sv = view["sides"][side]
        mine = board["me"]
        assert mine["key"] == side and mine["own"]
        assert [m["name"] for m in mine["hand"]] == [cat.match_cards[c].name_en for c in sv["holding"]]
        assert mine["reserve"]["name"] == cat.player(sv["reserve"]).name
        assert [c["name"] for c in mine["stack"]] == [cat.player(c).name for c in sv["stack"]]
        block = words(render(board))
        assert "my reserve" in block and "My match cards" in block and "My stack, top first" in block


# ------------------------------------------------------------------------------------------ languages
PARTS = (TEMPLATE, "duel/_player.html", "duel/_match_card.html", "duel/_position.html")


@functools.cache
def _my_msgids() -> set[tuple[str, str]]:
    return board_msgids(board_module.__file__, PARTS)


@pytest.mark.parametrize("lang", ["nl", "de", "es"])
def test_every_text_of_the_board_is_translated(lang: str):
    catalog = trans_real.translation(lang)._catalog
    ids = _my_msgids()
    assert {
        ("", "Confirm the line-up"),
        ("", "Extra time"),
        ("position", "Forward"),
        ("match side", "Home"),
    } <= ids
    missing = sorted(
        m for ctx, m in ids if (f"{ctx}\x04{m}" if ctx else m) not in catalog and (m, 0) not in catalog
    )
    assert not missing, missing


@pytest.mark.parametrize(
    "moment", ["lineup 2", "window main modifiers", "window moment penalty", "over penalties"]
)
def test_the_dutch_board_has_no_english_left_and_dutch_card_names(moment: str):
    st = moments()[moment]
    english = translated_away(_my_msgids(), "nl", shortest=3)
    cat = get_catalog()
    for viewer in (*SIDES, None):
        view, board = context(st, viewer)
        html = render(board, "nl")
        shown = words(html) + " | " + " | ".join(re.findall(r'(?:aria-label|title)="([^"]*)"', html))
        left = english_left(shown, english)
        assert not left, (moment, viewer, left)
        for s in board["sides"]:
            for m in [*s["played"], *s["hand"], *((s["active"] or {}).get("modifiers") or [])]:
                assert m["name_nl"] in shown
        if viewer is not None and view["result"] is None and view["sides"][viewer].get("holding"):
            names = [cat.match_cards[c].name_nl for c in view["sides"][viewer]["holding"]]
            assert all(n in shown for n in names)
