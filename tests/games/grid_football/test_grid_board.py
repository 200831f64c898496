"""The grid-football board (``games/grid_football/board.py`` and ``grid_football/board.html``) drawn for real
views: moments of seeded random matches (every kind of decision: the line-ups, the set-up, the roll and the
warm-up, a walk, a kick, a follow, an interception, a save, the keeper's square, a set-piece placement, a
substitution, the shoot-out, full time), each for the deciding side, the other side and a spectator."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from boardpage import Page, board_msgids, english_left, shown_text, translated_away, words
from boardpage import Tree as BoardTree
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from games.api import other
from games.grid_football import board as board_module
from games.grid_football.board import board_context
from games.grid_football.bots import random_policy
from games.grid_football.rules import FORMAT, grid_setup
from games.grid_football.state import GridState
from games.rng import Rng

TEMPLATES = (
    "grid_football/board.html",
    "grid_football/_steps.html",
    "grid_football/_label.html",
    "grid_football/_sheet.html",
)
NAMES = {"home": "Ann", "away": "Bosnia and Herzegovina"}  # a country's long name, as in Magic Football
FORM = {"act_url": "/r/ABCD/act", "prompt_id": 41, "version": 17, "action_id": "a-1"}
WANTED = ("lineup", "warm_up", "act", "kick", "follow", "intercept", "save", "keeper", "taker", "over")


# ------------------------------------------------------------------------------------------ moments
@functools.cache
def moments() -> dict[str, GridState]:
    """The first state of each kind of decision met in a few seeded random matches (short ones), and the
    state after one line-up is in."""
    out: dict[str, GridState] = {}
    for seed in range(6):
        rng = Rng(seed)
        st = FORMAT.start(grid_setup(knockout=True, fixed_length=True, fixed_rolls=24), rng)
        bot = Rng(seed + 100)
        while True:
            pending = FORMAT.decisions(st)
            key = pending[0].kind if pending else ""
            if pending and st.period == 3:
                key = f"shoot-out {key}"
            if not pending:
                key = f"over {st.decided_by}"
            elif len(pending) == 1 and pending[0].kind == "lineup":
                key = "lineup one chosen"
            if key not in out:
                out[key] = FORMAT.from_dict(FORMAT.to_dict(st))
            if not pending:
                break
            d = pending[0]
            FORMAT.apply(st, d.side, random_policy(FORMAT, st, d, bot), rng)
    return out


MOMENTS = sorted(moments())


def test_the_moments_cover_every_kind_of_decision_and_ending() -> None:
    keys = " ".join(moments())
    for want in (*WANTED, "lineup one chosen", "shoot-out"):
        assert want in keys, (want, sorted(moments()))


def render(st: GridState, viewer: str | None, lang: str = "en") -> tuple[dict[str, Any], list | None, str]:
    """The board for ``viewer`` (None: a spectator), with his choices when he decides."""
    view = FORMAT.view(st, viewer)
    mine = [d for d in FORMAT.decisions(st) if d.side == viewer]
    choices = list(mine[0].choices) if mine else None
    ctx = {"board": board_context(view, choices, NAMES)} | (FORM if choices is not None else {})
    with translation.override(lang):
        return view, choices, render_to_string("grid_football/board.html", ctx)


def viewers(st: GridState) -> list[str | None]:
    sides = [d.side for d in FORMAT.decisions(st)]
    return [*sides, *(s for s in ("home", "away") if s not in sides), None]


# ------------------------------------------------------------------------------------------ the choices
def Tree(html: str) -> BoardTree:
    """The decider's choices as this board's page nests them."""
    return BoardTree(html, "grid")


@pytest.mark.parametrize("moment", MOMENTS)
def test_every_choice_has_one_button_and_the_pitch_marks_its_squares(moment: str) -> None:
    st = moments()[moment]
    for viewer in viewers(st):
        _view, choices, html = render(st, viewer)
        tree = Tree(html)
        if not choices:
            assert tree.buttons == [], (moment, viewer)
            continue
        assert sorted(tree.buttons) == list(range(len(choices))), moment  # each choice once, nothing else
        on_pitch = set(re.findall(r'class="grid-sq[^"]*" [^>]*data-square="([^"]+)"', html))
        walks = [n for n in _nodes(tree.root) if n["squares"]]
        assert all(set(n["squares"]) <= on_pitch for n in walks), moment


def _nodes(node: dict[str, Any]) -> list[dict[str, Any]]:
    out = []
    for c in node["children"]:
        out.append(c)
        out.extend(_nodes(c))
    return out


def test_a_walk_is_a_pawn_then_the_squares_its_roll_reaches() -> None:
    st = moments()["act"]
    side = ("home", "away")[st.dec_side]
    view, choices, html = render(st, side)
    assert choices is not None
    tree = Tree(html)
    walks = [c for c in choices if c["kind"] == "walk"]
    assert walks
    where = {p["number"]: p["square"] for p in view["squads"][side]}
    for c in walks:
        pawn = next(n for n in tree.root["children"] if n["key"] == f"p{c['player']}")
        assert pawn["squares"] == [where[c["player"]]]  # a click on the pawn opens it
        leaf = next(n for n in pawn["children"] if c["to"] in n["squares"])
        assert choices[leaf["pick"]] == c


def test_a_kick_is_one_click_on_its_target_square() -> None:
    st = moments()["kick"]
    side = ("home", "away")[st.dec_side]
    _view, choices, html = render(st, side)
    assert choices is not None
    tree = Tree(html)
    for c in choices:
        end = c["path"].split(">")[-1]
        node = next(n for n in tree.root["children"] if n["key"] == end)
        routes = [n for n in [node, *_nodes(node)] if "pick" in n]
        assert any(choices[n["pick"]] == c for n in routes)


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_board_shows_the_view(moment: str) -> None:
    st = moments()[moment]
    for viewer in viewers(st):
        view, _choices, html = render(st, viewer)
        page = Page(html)
        goals = [words(e.text) for e in page.all("bk-score__goals")]
        assert goals == [f"{view['score'][0]}–{view['score'][1]}"]
        on = [p for s in ("home", "away") for p in view["squads"][s] if p["square"]]
        assert len(page.all("grid-pawn")) == len(on)
        assert len(page.all("grid-pawn--keeper")) == sum(1 for k in view["keepers"].values() if k is not None)
        if view["ball"]:
            assert page.one("grid-ball").attrs["data-square"] == view["ball"]
        caption = words(page.one("grid-caption").text)
        assert caption, moment


def test_each_player_sees_his_own_goal_at_the_bottom() -> None:
    st = moments()["act"]
    for viewer, bottom in (("home", "5,0"), ("away", "5,16"), (None, "5,0")):
        html = render(st, viewer)[2]
        y = int(re.search(r'y="(\d+)" width="30" height="30" data-square="' + bottom + '"', html).group(1))
        assert y == 16 * 30, viewer


def test_the_other_side_and_spectators_read_who_decides() -> None:
    st = moments()["act"]
    decider = ("home", "away")[st.dec_side]
    for viewer in (other(decider), None):
        text = words(Page(render(st, viewer)[2]).one("grid-caption").text)
        assert text.startswith(f"{NAMES[decider]} rolled {st.roll} and moves a player"), text


def test_a_line_up_is_a_squad_sheet_answered_with_its_own_form() -> None:
    st = moments()["lineup"]
    view, choices, html = render(st, "home")
    assert choices == []  # a line-up's choices cannot be listed
    page = Page(html)
    form = page.one("grid-lineup")
    assert form.tag == "form"
    inputs = page.tags("input")
    hidden = {e.attrs["name"]: e.attrs.get("value") for e in inputs if e.attrs.get("type") == "hidden"}
    assert hidden["action"] == "lineup"
    boxes = [e for e in page.tags("input") if e.attrs.get("name") == "players"]
    assert sorted(int(b.attrs["value"]) for b in boxes) == list(range(1, 21))
    ticked = sorted(int(b.attrs["value"]) for b in boxes if "checked" in b.attrs)
    assert ticked == view["decision"]["default"]["players"]
    assert len([e for e in page.tags("select") if e.attrs.get("name") == "centre"]) == 3


def test_an_unavailable_player_is_shown_with_the_reason_and_cannot_be_ticked() -> None:
    st = FORMAT.start(grid_setup(unavailable={"home": [9, 14], "away": []}), Rng(1))
    html = render(st, "home")[2]
    page = Page(html)
    out = [e for e in page.tags("input") if e.attrs.get("name") == "players" and "disabled" in e.attrs]
    assert sorted(int(e.attrs["value"]) for e in out) == [9, 14]
    assert "suspended or injured" in words(page.one("grid-lineup").text)
    sheet = shown_text(page)
    assert "Unavailable: suspended or injured in the cup" in sheet


def test_a_competition_s_absent_player_is_named_with_why_on_his_side_s_sheet() -> None:
    """In a cup the page hands the board who may not play and why (CP7): the team sheet says it beside him."""
    st = FORMAT.start(grid_setup(unavailable={"home": [9], "away": [9]}), Rng(1))
    view = FORMAT.view(st, None)
    absent = [{"seat": 1, "name": "Ann", "player": 9, "why": "suspended for this match"}]
    html = render_to_string(
        "grid_football/board.html", {"board": board_context(view, None, NAMES), "absent": absent}
    )
    rows = [e for e in Page(html).all("grid-sheet__row--unavailable")]
    assert [words(r.text) for r in rows] == [
        "9 M Unavailable: suspended or injured in the cup (suspended for this match)",
        "9 M Unavailable: suspended or injured in the cup",  # the other side's no. 9: no reason given for him
    ]


def test_a_line_up_never_shows_on_another_board_before_both_are_in() -> None:
    st = moments()["lineup one chosen"]
    chooser = "home" if st.lineup[0] is not None else "away"
    mine = ", ".join(str(n) for n in st.lineup[0 if chooser == "home" else 1][:11])
    assert mine in words(Page(render(st, chooser)[2]).one("grid-lineups__mine").text)
    twin = FORMAT.from_dict(FORMAT.to_dict(st))
    players = twin.lineup[0 if chooser == "home" else 1]
    players[players.index(max(players[:11]))] -= 1 if max(players[:11]) - 1 not in players else 0
    players[0], players[1] = players[1], players[0]
    for viewer in (other(chooser), None):
        assert render(st, viewer)[2] == render(twin, viewer)[2]
        assert "grid-lineups__mine" not in render(st, viewer)[2]


@pytest.mark.parametrize("lang", ["de", "nl", "es"])
def test_no_number_of_the_drawing_is_written_the_readers_way(lang: str) -> None:
    """SVG coordinates and the choices' numbers are never localised (a German "12,5" breaks the drawing)."""
    st = moments()["kick"]
    html = render(st, ("home", "away")[st.dec_side], lang)[2]
    assert not re.search(r'\b(x1|y1|x2|y2|x|y|cx|cy|r|value|width|height)="-?\d+,\d', html)


# ------------------------------------------------------------------------------------------ languages
@functools.cache
def _my_msgids() -> set[tuple[str, str]]:
    return board_msgids(board_module.__file__, TEMPLATES)


@pytest.mark.parametrize("lang", ["nl", "de", "es"])
def test_every_text_of_the_board_is_translated(lang: str) -> None:
    catalog = trans_real.translation(lang)._catalog
    ids = _my_msgids()
    assert {("", "Roll the die"), ("", "Keeper"), ("", "Team sheets and dugouts")} <= ids
    missing = sorted(
        m for ctx, m in ids if (f"{ctx}\x04{m}" if ctx else m) not in catalog and (m, 0) not in catalog
    )
    assert not missing, missing


@pytest.mark.parametrize("moment", ["lineup", "act", "kick", "shoot-out save", "over penalties"])
def test_the_dutch_board_has_no_english_left(moment: str) -> None:
    st = moments()[moment]
    english = translated_away(_my_msgids(), "nl", shortest=4)
    assert "Legend" in english
    for viewer in viewers(st):
        left = english_left(shown_text(Page(render(st, viewer, "nl")[2])), english)
        assert not left, (moment, viewer, left)


def test_a_kick_says_whether_it_is_a_pass_a_shot_or_a_ball_into_space() -> None:
    view = {"ball": "5,8", "roll": 3}
    where = {("home", 9): "5,8", ("home", 10): "5,10", ("away", 4): "6,10"}
    kinds = {
        path: board_module.steps_of({"kind": "kick", "path": path}, view, where, "home")[0][1]
        for path in ("5,9>5,10", "5,9>6,10>6,11", "5,15>5,16", "4,9")
    }
    assert kinds == {"5,9>5,10": "relay", "5,9>6,10>6,11": "target", "5,15>5,16": "shot", "4,9": "target"}
    assert (
        board_module.steps_of({"kind": "kick", "path": "5,9>5,10"}, view, where, "home")[0][2]["mate"] == 10
    )


def test_a_set_piece_placement_says_what_is_placed_to_everybody() -> None:
    st = moments()["shoot-out taker"]
    decider = NAMES[("home", "away")[st.dec_side]]
    for viewer in ("home", "away", None):
        text = words(Page(render(st, viewer)[2]).one("grid-caption").text)
        assert text == f"Shoot-out: {decider} puts the next taker on a penalty spot.", text
