"""The chess-football board (``games/chess_football/board.py`` and ``chess_football/board.html``) drawn for
real views: moments of seeded random matches (every kind of decision: a move, the ball on a red square, a
relocation after an offside forfeit, a re-entry, a penalty and the shoot-out, extra time, full time) and a
few positions set up the way the digest states its cases, each for the deciding side, the other side and a
spectator."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from boardpage import Page, board_msgids, english_left, shown_text, translated_away, words
from boardpage import Tree as BoardTree
from chess_helpers import position, sq
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from games.api import other
from games.chess_football import board as board_module
from games.chess_football import bots
from games.chess_football.board import board_context
from games.chess_football.rules import FORMAT, chess_setup
from games.chess_football.state import BOX, P_SHOOTOUT, PH_PENALTY, ChessState
from games.rng import Rng

TEMPLATES = ("chess_football/board.html", "chess_football/_steps.html", "chess_football/_label.html")
NAMES = {"home": "Ann", "away": "Bosnia and Herzegovina"}  # a country's long name, as in Magic Football
FORM = {"act_url": "/r/ABCD/act", "prompt_id": 41, "version": 17, "action_id": "a-1"}


# ------------------------------------------------------------------------------------------ moments
def _key(st: ChessState) -> str:
    """What kind of moment this is."""
    if st.phase == PH_PENALTY:
        chosen = " one chosen" if any(c is not None for c in st.pen_choice) else ""
        return ("shoot-out" if st.period == P_SHOOTOUT else "penalty") + chosen
    view = FORMAT.view(st, None)
    kind = "move"
    if st.red >= 0:
        kind += " red square"
    elif st.relocate:
        kind += " relocation"
    elif view["offenders"][view["turn"]]:
        kind += " offside"
    elif any(p["where"] == "box" and p["side"] == view["turn"] for p in view["pieces"]):
        kind += " box"
    return kind + (" extra time" if st.period in (3, 4) else "")


def _set_up() -> dict[str, ChessState]:
    out = {}
    out["move goal chance"] = position({"S": ["Ce11", "Lc5"], "N": ["Kd14", "Lg9"]}, ball="e11")
    out["move red square set"] = position(
        {"S": ["Ke0", "Ld2", "Dc4"], "N": ["Lf3", "Cd4"]}, ball="d1", red=sq("d1")
    )
    st = position({"S": ["Lc5", "Db3", "Dd3", "Ce6"], "N": ["Le7", "Df9", "Cb9"]}, ball="e7", cards=[1, 0])
    st.pos[7] = BOX  # L2 and D3 in the box
    st.pos[4] = BOX
    out["move box set"] = st
    offside = {"S": ["Db13", "Lc12", "Cc11", "Le3"], "N": ["Dd11", "Lg9", "Ce9"]}
    out["move offside set"] = position(offside, ball="c11")  # S must take them off or forfeit
    st = position(offside, ball="c11")
    st.turn, st.relocate = 1, True  # S forfeited: N relocates one of them, then moves
    out["move relocation set"] = st
    st = position({"S": ["Kf0", "Lc5", "Dd3", "Ca6"], "N": ["Ld4", "Cg9"]}, ball="d4", turn="away")
    FORMAT.apply(st, "away", {"kind": "move", "move": "d4>d1"}, Rng(0))
    FORMAT.apply(st, "home", {"kind": "move", "move": "concede"}, Rng(0))
    out["penalty set"] = FORMAT.clone(st)
    FORMAT.apply(st, "away", {"kind": "penalty", "aim": "e0", "taker": "C"}, Rng(0))
    out["penalty one chosen set"] = st
    return out


@functools.cache
def moments() -> dict[str, ChessState]:
    """The first state of every kind of moment in a few random matches, plus the set-up ones."""
    found: dict[str, ChessState] = {}
    for seed in range(6):
        options = {"knockout": seed % 2 == 0, "half_moves": 30, "extra_time_moves": 4, "shootout_kicks": 2}
        st = FORMAT.start(chess_setup(**options), Rng(seed))
        found.setdefault("kick-off", FORMAT.clone(st))
        rng = Rng(100 + seed)
        while pending := FORMAT.decisions(st):
            found.setdefault(_key(st), FORMAT.clone(st))
            d = pending[rng.randbelow(len(pending))]
            FORMAT.apply(st, d.side, bots.random_policy(FORMAT, st, d, rng), rng)
        found.setdefault(f"full time {st.decided_by}", FORMAT.clone(st))
    return found | _set_up()


MOMENTS = sorted(moments())


def test_the_moments_cover_every_kind_of_decision_and_ending():
    keys = " | ".join(MOMENTS)
    for want in (
        "kick-off",
        "move red square",
        "move relocation",
        "move offside",
        "move box",
        "extra time",
        "penalty",
        "penalty one chosen",
        "shoot-out",
        "shoot-out one chosen",
        "full time regular",
        "full time penalties",
    ):
        assert want in keys, want


def render(st: ChessState, viewer: str | None, lang: str = "en") -> tuple[dict[str, Any], list | None, str]:
    """The board for ``viewer`` (None: a spectator), with his choices when he decides."""
    view = FORMAT.view(st, viewer)
    mine = [d for d in FORMAT.decisions(st) if d.side == viewer]
    choices = list(mine[0].choices) if mine else None
    ctx = {"board": board_context(view, choices, NAMES)} | (FORM if choices is not None else {})
    with translation.override(lang):
        return view, choices, render_to_string("chess_football/board.html", ctx)


def viewers(st: ChessState) -> list[str | None]:
    sides = [d.side for d in FORMAT.decisions(st)]
    return [*sides, *(s for s in ("home", "away") if s not in sides), None]


# ------------------------------------------------------------------------------------------ the choices
def Tree(html: str) -> BoardTree:
    """The decider's choices as this board's page nests them."""
    return BoardTree(html, "chess")


_SQ = r"([a-i]\d{1,2})"


def clicks(choice: dict[str, Any], view: dict[str, Any]) -> list[str]:
    """What a player clicks for a choice, read from its notation (RULES.md §10): squares, or the key of a
    piece in the box, or of a void move."""
    if choice["kind"] == "cover":
        return [choice["square"]]
    if choice["kind"] == "penalty":
        if "taker" not in choice:
            return [choice["aim"]]
        kicker = view["penalty"]["kicker"]
        at = next(
            p["square"] for p in view["pieces"] if p["side"] == kicker and p["label"] == choice["taker"]
        )
        return [at, choice["aim"]]
    text = choice["move"]
    if text in ("concede", "forfeit", "pass"):
        return [f"void-{text}"]
    if m := re.fullmatch(_SQ + "=" + _SQ + ";(.+)", text):
        return [m.group(1), m.group(2), *clicks({"kind": "move", "move": m.group(3)}, view)]
    if m := re.fullmatch(r"\+(C|[DL]\d)" + _SQ, text):
        return [f"+{m.group(1)}", m.group(2)]
    if m := re.fullmatch("K" + _SQ + "-" + _SQ + ">" + _SQ, text):
        return [m.group(1), m.group(3)]
    m = re.fullmatch("[KCDL]?" + _SQ + "[-x>]" + _SQ, text)
    assert m, text
    return [m.group(1), m.group(2)]


def _follow(tree: BoardTree, path: list[str]) -> dict[str, Any]:
    """Click the path: at each level the one node standing for that square (or key)."""
    node = tree.root
    for i, step in enumerate(path):
        found = [c for c in node["children"] if step in c["squares"] or c["key"] == step]
        assert len(found) == 1, (path, i, [c["key"] for c in node["children"]])
        node = found[0]
    return node


@pytest.mark.parametrize("moment", MOMENTS)
def test_every_choice_is_one_path_of_clicks_and_each_button_answers_one_choice(moment: str):
    st = moments()[moment]
    for d in FORMAT.decisions(st):
        view, choices, html = render(st, d.side)
        tree = Tree(html)
        assert sorted(tree.buttons) == list(range(len(choices))), "every choice once, nothing else"
        for number, choice in enumerate(choices):
            leaf = _follow(tree, clicks(choice, view))
            assert leaf.get("pick") == number, (choice, leaf)


def test_any_free_goal_square_the_ball_reaches_plays_the_goal_move():
    """X-29, CF-3: the three goal squares are one move; a click on any free one of them plays it."""
    st = moments()["move goal chance"]
    _view, choices, html = render(st, "home")
    goal = next(i for i, c in enumerate(choices) if c["move"].endswith("14"))
    tree = Tree(html)
    for square in ("e14", "f14"):  # the keeper stands on d14: not a free goal square
        assert _follow(tree, ["e11", square])["pick"] == goal
    holder = _follow(tree, ["e11"])
    assert not [c for c in holder["children"] if "d14" in c["squares"]]


def test_a_relocation_is_the_offender_its_new_square_then_a_whole_move():
    st = moments()["move relocation set"]
    _view, choices, html = render(st, "away")
    assert len(choices) > 100 and all("=" in c["move"] for c in choices)
    tree = Tree(html)
    assert sorted(c["key"] for c in tree.root["children"]) == ["b13", "c12"]  # the offside pieces, no other
    summaries = [words(e.text) for e in Page(html).tags("summary")]
    assert "Put the offside D1 on b13 back" in summaries


# ------------------------------------------------------------------------------------------ what it shows
@pytest.mark.parametrize("moment", MOMENTS)
def test_the_board_shows_the_view(moment: str):
    st = moments()[moment]
    for viewer in viewers(st):
        view, choices, html = render(st, viewer)
        page = Page(html)
        assert len(page.all("chess-sq")) == 9 * 13 + 6
        on_board = [p for p in view["pieces"] if p["where"] == "board"]
        drawn = {e.attrs["data-square"] for e in page.all("chess-piece")}
        assert drawn == {p["square"] for p in on_board}
        assert page.one("chess-ball").attrs["data-square"] == view["ball"]
        header = words(page.one("chess-score").text)
        assert "Ann" in header and "Bosnia and Herzegovina" in header
        assert page.one("chess-score__goals").attrs["aria-label"] == (
            f"Score: Ann {view['score'][0]}, Bosnia and Herzegovina {view['score'][1]}"
        )
        for side in ("home", "away"):
            boxed = [p["label"] for p in view["pieces"] if p["side"] == side and p["where"] != "board"]
            bench = " ".join(words(e.text) for e in page.all(f"chess-bench--{side}"))
            assert all(label in bench for label in boxed)
        if view["phase"] == "play":
            n = min(view["moves_per_half"], view["plies"] // 2 + 1)
            assert f"Move {n} of {view['moves_per_half']}" in words(page.one("chess-clock__text").text)
        assert ("chess-choices" in html) == (choices is not None)


def test_each_player_sees_his_own_goal_at_the_bottom():
    st = moments()["kick-off"]
    for viewer, south_at_bottom in (("home", True), (None, True), ("away", False)):
        page = Page(render(st, viewer)[2])
        y = {e.attrs["data-square"]: int(e.attrs["y"]) for e in page.all("chess-sq")}
        assert (y["e0"] > y["e14"]) == south_at_bottom
        assert (y["a1"] == y["i1"]) and y["e7"] == (y["e0"] + y["e14"]) // 2


def test_the_last_move_is_an_arrow_and_every_move_is_in_the_list():
    st = FORMAT.start(chess_setup(toss="home"), Rng(0))
    for move in ("Lc5-d6", "Ce9-d8", "e7>e9"):  # a piece, a piece, the ball
        side = ("home", "away")[st.turn]
        FORMAT.apply(st, side, {"kind": "move", "move": move}, Rng(0))
        page = Page(render(st, None)[2])
        (arrow,) = page.tags("line")[-1:]
        kind = "ball" if ">" in move else "piece"
        assert f"chess-arrow--{kind}" in arrow.classes
        assert f"Last move: {move}" in words(page.one("chess-caption").text)
    listed = [words(e.text) for e in page.all("chess-moves__ply")]
    assert listed == ["Lc5-d6", "Ce9-d8", "e7>e9"]


def test_a_penalty_choice_never_shows_on_another_board():
    """X-18: once the kicker has chosen, the keeper's side and the spectators get the very same board
    whatever he chose; he sees his own choice."""
    st = moments()["penalty one chosen set"]
    chooser = next(s for s in ("home", "away") if st.pen_choice[("home", "away").index(s)] is not None)
    others = [other(chooser), None]
    pages = {v: render(st, v)[2] for v in others}
    assert "secret until both are in" in render(st, chooser)[2]
    index = ("home", "away").index(chooser)
    for alternative in _other_choices(st, index):
        twin = FORMAT.clone(st)
        twin.pen_choice[index] = alternative
        assert twin.pen_choice != st.pen_choice
        for v in others:
            assert render(twin, v)[2] == pages[v], v


def _other_choices(st: ChessState, index: int) -> list[list[int]]:
    current = st.pen_choice[index]
    assert current is not None
    goal = sq("d0") if st.pen_side == 1 else sq("d14")
    return [[*current[:-1], goal + dx] for dx in range(3) if [*current[:-1], goal + dx] != current]


def test_the_other_side_and_spectators_read_who_decides():
    st = moments()["move offside"]
    turn = ("home", "away")[st.turn]
    name = NAMES[turn]
    for viewer in (other(turn), None):
        text = words(Page(render(st, viewer)[2]).one("chess-turn").text)
        assert text == f"{name} is to move."
    text = words(Page(render(st, turn)[2]).one("chess-choices__lead").text)
    assert text.startswith("Offside (")


@pytest.mark.parametrize("lang", ["de", "nl", "es"])
def test_no_number_of_the_drawing_is_written_the_readers_way(lang: str):
    """SVG coordinates and the choices' numbers are never localised (a German "12,5" breaks the drawing)."""
    st = moments()["move relocation set"]
    html = render(st, "away", lang)[2]
    assert not re.search(r'\b(x1|y1|x2|y2|x|y|cx|cy|r|value)="-?\d+,\d', html)
    assert re.search(r'value="1\d\d"', html)  # a choice past 99, written plainly


# ------------------------------------------------------------------------------------------ Dutch
@functools.cache
def _my_msgids() -> set[tuple[str, str]]:
    return board_msgids(board_module.__file__, TEMPLATES)


@pytest.mark.parametrize("lang", ["nl", "de", "es"])
def test_every_text_of_the_board_is_translated(lang: str):
    catalog = trans_real.translation(lang)._catalog
    ids = _my_msgids()
    assert {("", "Your move."), ("", "Light piece"), ("a piece moves to a square", "to")} <= ids
    assert ("", "Move list (%(n)s move)") in ids  # a plural
    missing = sorted(
        m for ctx, m in ids if (f"{ctx}\x04{m}" if ctx else m) not in catalog and (m, 0) not in catalog
    )
    assert not missing, missing


@pytest.mark.parametrize(
    "moment", ["kick-off", "move box set", "move red square set", "penalty set", "full time penalties"]
)
def test_the_dutch_board_has_no_english_left(moment: str):
    st = moments()[moment]
    english = translated_away(_my_msgids(), "nl", shortest=4)
    assert "Legend" in english
    for viewer in viewers(st):
        left = english_left(shown_text(Page(render(st, viewer, "nl")[2])), english)
        assert not left, (moment, viewer, left)
