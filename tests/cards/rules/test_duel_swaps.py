"""Reserve swaps (D3): any moment in the main window, at most three per match, never the keeper."""

from __future__ import annotations

import pytest
from duel_helpers import Match, lineup, team

from games.api import IllegalDecision

SWAP = {"kind": "swap"}


def start(home_stars, away_stars, home_hold=(), away_hold=(), keeper=3, **kw) -> Match:
    home = team("H", home_stars, keeper, tuple(home_hold))
    away = team("A", away_stars, keeper, tuple(away_hold))
    m = Match(home, away, **kw)
    m.lineups(
        lineup([f"H{i}" for i in range(1, 11)], "H11"),
        lineup([f"A{i}" for i in range(1, 11)], "A11"),
    )
    return m


def test_a_swap_puts_the_reserve_in_action_and_the_card_out_on_the_bench():
    m = start([5] * 10 + [6], [5] * 10 + [2])
    assert m.pending() == ("away",) and SWAP in m.choices("away")
    m.pass_("away")
    ev = m.swap("home")
    assert ev[0].kind == "swap"
    assert ev[0].data == {
        "side": "home",
        "out": "H1",
        "in": "H11",
        "stars": 6,
        "free": False,
        "swaps_left": 2,
    }
    assert m.in_action() == (("H11", 6), ("A1", 5))
    view = m.f.view(m.st, "home")["sides"]["home"]
    assert (view["reserve"], view["swaps_left"]) == ("H1", 2)
    assert m.pending() == ("away",)  # the comparison changed: the other side may answer


def test_the_fourth_swap_is_refused_and_nothing_changes_but_a_free_swap_card_still_works():
    m = start([5] * 10 + [6], [5] * 10 + [2], home_hold=("M03", "M37"))
    m.pass_("away")
    for _ in range(3):
        m.swap("home")
        m.pass_("away")
    assert m.st.swaps == [3, 0]
    assert SWAP not in m.choices("home")
    before = m.snapshot()
    with pytest.raises(IllegalDecision) as err:
        m.swap("home")
    assert err.value.code == "illegal_decision" and "3 swaps" in str(err.value)
    assert m.snapshot() == before
    ev = m.play("home", "M37")  # Injury substitution: does not count toward the three
    swap = next(e for e in ev if e.kind == "swap")
    assert swap.data["free"] is True and swap.data["swaps_left"] == 0
    assert m.st.swaps == [3, 0]


def test_swaps_are_counted_over_the_whole_match():
    m = start([5] * 10 + [6], [5] * 10 + [2], home_hold=("M03",), knockout=False)
    m.pass_("away")
    for _ in range(3):
        m.swap("home")
        m.pass_("away")
    m.pass_until(lambda m: m.st.period == 2)
    m.lineups()
    m.pass_until(lambda m: "home" in m.pending())
    assert SWAP not in m.choices("home")


def test_the_keeper_is_never_swapped():
    m = start([2] * 10 + [6], [5] * 10 + [2], home_hold=("M19",))
    m.pass_until(lambda m: m.st.kfirst == 0 and "home" in m.pending())
    assert SWAP not in m.choices("home")
    with pytest.raises(IllegalDecision) as err:
        m.swap("home")
    assert "keeper" in str(err.value)


def test_no_swap_inside_a_penalty_moment():
    m = start([6] * 10 + [2], [6] * 10 + [2], home_hold=("M28",), away_hold=("M21",))
    m.pass_until(lambda m: "home" in m.pending() and {"kind": "play", "card": "M28"} in m.choices("home"))
    m.play("home", "M28")
    assert m.pending() == ("away",)
    assert m.choices("away") == [{"kind": "pass"}, {"kind": "play", "card": "M21"}]


def test_a_side_without_reserve_cannot_swap():
    home = team("H", [5] * 10, 3, ("M03",))
    away = team("A", [5] * 10, 3)
    m = Match(home, away)
    m.lineups()
    assert m.pending() == ("home",)
    assert SWAP not in m.choices("home")
    with pytest.raises(IllegalDecision) as err:
        m.swap("home")
    assert "no reserve" in str(err.value)
