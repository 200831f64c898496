"""The dice-football board (``games/dice_football/board.py`` and ``dice_football/board.html``) drawn for
real views: moments of played bot matches (every decision kind, the STAR windows, both ends, extra time,
shoot-outs, full time) and a few positions set up with the dice forced, each for the deciding side, the other
side and a spectator."""

from __future__ import annotations

import functools
from typing import Any

import pytest
from boardpage import Element, Page, board_msgids, english_left, shown_text, translated_away, words
from dice_helpers import FMT, play, position, roll
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import trans_real

from games.api import other
from games.dice_football import board as board_module
from games.dice_football import bots
from games.dice_football.board import board_context
from games.dice_football.geometry import square_name
from games.dice_football.rules import dice_setup
from games.dice_football.state import DiceState
from games.rng import Rng

TEMPLATE = "dice_football/board.html"
NAMES = {"home": "Ann", "away": "Bob"}
FORM = {"act_url": "/r/ABCD/act", "prompt_id": 41, "version": 17, "action_id": "a-1"}
PERIOD_TEXT = {1: "1st half", 2: "2nd half", 3: "Extra time, 1st half", 4: "Extra time, 2nd half"}


# ------------------------------------------------------------------------------------------ moments
def _key(st: DiceState) -> str:
    """What kind of moment this is: the decision, its window or restart, the period, the attacking end."""
    d = FMT.decisions(st)[0]
    v = FMT.view(st, None)
    end = "up" if v["attacker"] == v["attacks_row_11"] else "down"
    extra = " extra time" if v["period"] > 2 else ""
    detail = v["to_decide"].get("window") or d.options.get("restart") or ""
    return f"{d.kind} {detail} {end}{extra}".replace("  ", " ")


def _set_up() -> dict[str, DiceState]:
    """Rare moments, set up with the dice forced."""
    out = {}
    st = position((2, 10), star=("away", "PERFECT_SAVE"))
    play(st, "home", roll("shot"), ("shot", "CROSSBAR"))
    out["crossbar with a STAR perfect save"] = st
    st = position((2, 10), star=("home", "UNSTOPPABLE"))
    play(st, "home", {"kind": "star"}, ("star", "PERFECT_SAVE"))
    out["star unstoppable window"] = st
    st = position((3, 10))
    play(st, "home", roll("shot"), ("shot", "ON_TARGET"), ("gk", "CORNER"))
    out["place corner"] = st
    st = position((1, 10))
    play(st, "home", roll("control", rotate=True), ("control", "DF1"))
    out["direction rotated on the wing"] = st
    st = position((3, 5), must_ctrl=True)
    out["action must control"] = st
    return out


@functools.cache
def moments() -> dict[str, DiceState]:
    """The first state of every kind of moment in 24 random bot matches, plus the set-up ones."""
    found: dict[str, DiceState] = {}
    configs = (
        {"knockout": True, "half_ticks": 15},
        {"knockout": True, "half_ticks": 12, "extra_time_ticks": 6},
        {"knockout": False, "half_ticks": 15, "boskov": True},
    )
    for seed in range(24):
        rng, brng = Rng(seed), Rng(1000 + seed)
        st = FMT.start(dice_setup(**configs[seed % 3]), rng)
        found.setdefault("kick-off", FMT.clone(st))
        while pending := FMT.decisions(st):
            d = pending[0]
            found.setdefault(_key(st), FMT.clone(st))
            FMT.apply(st, d.side, bots.random_policy(FMT, st, d, brng), rng)
        found.setdefault(f"full time {st.decided_by}", FMT.clone(st))
    return found | _set_up()


MOMENTS = sorted(moments())


def test_the_moments_cover_every_kind_of_decision_and_ending():
    keys = " | ".join(MOMENTS)
    for want in (
        "kick-off",
        "action  up",
        "action  down",
        "direction up",
        "direction down",
        "place goal_kick",
        "place keeper_restart",
        "place corner",
        "crossbar",
        "star before_action",
        "star goal_mouth",
        "star unstoppable",
        "extra time",
        "full time penalties",
        "full time regular",
    ):
        assert want.replace("  ", " ") in keys, want


# ------------------------------------------------------------------------------------------ HTML
def render(st: DiceState, viewer: str | None, lang: str = "en") -> tuple[dict[str, Any], list | None, str]:
    """The board for ``viewer`` (None: a spectator): with the choices when that viewer decides."""
    view = FMT.view(st, viewer)
    pending = FMT.decisions(st)
    choices = list(pending[0].choices) if pending and pending[0].side == viewer else None
    ctx = {"board": board_context(view, choices, NAMES)}
    if choices is not None:
        ctx |= FORM
    with translation.override(lang):
        return view, choices, render_to_string(TEMPLATE, ctx)


def viewers(st: DiceState) -> list[str | None]:
    pending = FMT.decisions(st)
    if not pending:
        return ["home", None]
    return [pending[0].side, other(pending[0].side), None]


# ------------------------------------------------------------------------------------------ tests
@pytest.mark.parametrize("moment", MOMENTS)
def test_the_board_shows_the_view(moment: str):
    st = moments()[moment]
    for viewer in viewers(st):
        view, choices, html = render(st, viewer)
        page = Page(html)
        where = f"{moment}, viewer {viewer}"
        # the ball is drawn on the view's square (row 11 at the top, column a on the left)
        x, y = view["ball"]
        ball = page.one("dice-ball")
        assert ball.attrs["data-square"] == square_name(x, y), where
        inner = next(e for e in page.elements[page.elements.index(ball) + 1 :] if e.tag == "g")
        assert inner.attrs["transform"] == f"translate({(x - 1) * 40 + 20} {(11 - y) * 40 + 20})", where
        assert f"The ball is on {square_name(x, y)}." in words(page.one("dice-pitch").text), where
        # the score, the period and the clock
        assert [e.text for e in page.all("dice-score__goal")] == [str(g) for g in view["score"]], where
        period = words(page.one("dice-score__period").text)
        if view["result"] is not None:
            assert period.startswith("Full time"), where
            assert not page.all("dice-clock"), where
        else:
            assert period.startswith(PERIOD_TEXT[view["period"]]), where
            bar = page.one("dice-clock__bar")
            assert (bar.attrs["aria-valuenow"], bar.attrs["aria-valuemax"]) == (
                str(view["ticks"]),
                str(view["half_ticks"]),
            ), where
            assert f"Roll {view['ticks']} of {view['half_ticks']}" in page.one("dice-clock__text").text, where
        # who holds the STAR die, and its face
        holder = page.one(f"dice-score__side--{view['star']['holder']}")
        assert "Holds the STAR die" in holder.text, where
        assert "Holds the STAR die" not in page.one(f"dice-score__side--{other(view['star']['holder'])}").text
        # the last roll
        if view["last_roll"] is not None:
            caption = words(page.one("dice-caption").text)
            who = NAMES[view["last_roll"]["side"]]
            assert caption.startswith(f"{who} rolled the {view['last_roll']['die'].upper()} die:"), where
        # the choices: only the deciding viewer gets the form, every choice exactly once
        buttons = page.tags("button")
        if choices is None:
            assert not page.tags("form") and not buttons, where
        else:
            form = page.tags("form")
            assert len(form) == 1 and form[0].attrs["hx-post"] == FORM["act_url"], where
            hidden = {e.attrs["name"]: e.attrs["value"] for e in page.tags("input")}
            assert hidden == {"action": "pick", "prompt": "41", "version": "17", "action_id": "a-1"}, where
            assert all(b.attrs["name"] == "pick" and b.attrs["type"] == "submit" for b in buttons), where
            assert sorted(int(b.attrs["value"]) for b in buttons) == list(range(len(choices))), where
        # nothing left unfilled
        for leftover in ("{{", "{%", "%(", "None", "[]", 'dice-face-"', 'href="#"'):
            assert leftover not in html, (where, leftover)


def _choice_by_value(page: Page, value: int) -> Element:
    return next(b for b in page.tags("button") if b.attrs["value"] == str(value))


@pytest.mark.parametrize("moment", [m for m in MOMENTS if m.startswith(("direction", "place"))])
def test_a_highlighted_square_is_where_its_choice_sends_the_ball(moment: str):
    """The squares lit for a choice (and the square that submits it) are where the engine puts the ball."""
    st = moments()[moment]
    side = FMT.decisions(st)[0].side
    view, choices, html = render(st, side)
    page = Page(html)
    squares = [e for e in page.all("dice-sq") if "data-pick" in e.attrs]
    picks = {e.attrs["data-square"]: int(e.attrs["data-pick"]) for e in squares}
    ctx = board_context(view, choices)
    lit = [c for c in ctx["choices"] if c["squares"]]
    assert lit, moment  # (a roll turned on the wing too: the view says so, §6.5)
    for c in lit:
        after = FMT.clone(st)
        FMT.apply(after, side, choices[c["index"]], Rng(7))
        moved = FMT.view(after, None)
        target = c["squares"][0]
        assert target in _choice_by_value(page, c["index"]).attrs["data-squares"].split()
        if picks.get(target) is not None:
            assert picks[target] == c["index"]
        if c["kind"] == "place" or not c["exit_label"]:
            assert square_name(*moved["ball"]) == target, (moment, c)


def test_a_direction_on_the_wing_is_drawn_when_the_view_says_it_was_turned():
    st = moments()["direction rotated on the wing"]
    view = FMT.view(st, "home")
    assert view["to_decide"]["rotated"] is True and view["to_decide"]["long_kick"] is False
    choices = list(FMT.decisions(st)[0].choices)
    ctx = board_context(view, choices)
    for c in ctx["choices"]:
        after = FMT.clone(st)
        FMT.apply(after, "home", choices[c["index"]], Rng(7))
        if not c["exit_label"]:
            assert c["squares"] == [square_name(*FMT.view(after, None)["ball"])]


def test_the_other_side_and_spectators_read_who_decides_what():
    st = moments()["crossbar with a STAR perfect save"]
    for viewer in ("home", None):
        page = Page(render(st, viewer)[2])
        turn = words(page.one("dice-turn").text)
        assert turn == "Off the crossbar: Bob chooses the defender or the keeper."
    page = Page(render(st, "away")[2])
    texts = [words(b.text) for b in page.tags("button")]
    assert texts == [
        "1 The defender rolls DEF",
        "2 The keeper rolls GK",
        "3 Play the STAR die: perfect save",
    ]


def test_the_shoot_out_is_shown_kick_by_kick():
    st = moments()["full time penalties"]
    view = FMT.view(st, None)
    page = Page(render(st, None)[2])
    rows = page.all("dice-shootout__row")
    for side, row in zip(("home", "away"), rows, strict=True):
        scored = [k["scored"] for k in view["result"]["kicks"] if k["side"] == side]
        assert NAMES[side] in row.text
        assert (row.text.count("●"), row.text.count("✕")) == (scored.count(True), scored.count(False))
    h, a = view["result"]["penalties"]
    assert f"Penalties {h}–{a}" in page.one("dice-shootout__score").text
    winner = NAMES[view["result"]["winner"]]
    assert f"Full time: {winner} wins on penalties." in words(page.one("dice-turn").text)


# ------------------------------------------------------------------------------------------ Dutch
@functools.cache
def _my_msgids() -> set[tuple[str, str]]:
    return board_msgids(
        board_module.__file__, (TEMPLATE, "dice_football/_face.html", "dice_football/_symbols.html")
    )


def test_every_text_of_the_board_has_a_dutch_translation():
    catalog = trans_real.translation("nl")._catalog
    ids = _my_msgids()
    assert {("", "Your move: left or right?"), ("", "on target"), ("match side", "Home")} <= ids
    missing = sorted(m for ctx, m in ids if (f"{ctx}\x04{m}" if ctx else m) not in catalog)
    assert not missing, missing


@pytest.mark.parametrize("moment", MOMENTS)
def test_the_dutch_board_has_no_english_left(moment: str):
    st = moments()[moment]
    english = translated_away(_my_msgids(), "nl")
    assert "The defender rolls DEF" in english
    for viewer in viewers(st):
        left = english_left(shown_text(Page(render(st, viewer, "nl")[2])), english)
        assert not left, (moment, viewer, left)
