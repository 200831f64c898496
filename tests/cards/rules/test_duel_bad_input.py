"""Bad input is a clear domain error and leaves the state exactly as it was."""

from __future__ import annotations

import pytest
from duel_helpers import Match, fmt, lineup, setup, team

from cards.rules.duel import InvalidSetup
from games.api import (
    IllegalDecision,
    MalformedDecision,
    MatchError,
    NotYourDecision,
    TeamCard,
    TeamEntry,
)
from games.rng import Rng

ELEVEN = [4, 5, 3, 6, 2, 4, 5, 3, 4, 2, 3]


def fresh() -> Match:
    return Match(team("H", ELEVEN, 4, ("M01", "M19")), team("A", ELEVEN, 4, ("M02",)))


def in_window() -> Match:
    m = fresh()
    m.lineups(
        lineup([f"H{i}" for i in range(1, 11)], "H11"),
        lineup([f"A{i}" for i in range(1, 11)], "A11"),
    )
    assert m.pending() == ("away",)
    return m


def refused(m: Match, side, choice, error: type[MatchError], text: str = "") -> MatchError:
    before = m.snapshot()
    with pytest.raises(error) as err:
        m.f.apply(m.st, side, choice, m.rng)
    assert m.snapshot() == before
    assert text in str(err.value)
    return err.value


@pytest.mark.parametrize(
    ("choice", "text"),
    [
        (
            {"kind": "lineup", "order": [f"H{i}" for i in range(1, 10)], "reserve": "H11"},
            "all 11 field players",
        ),
        ({"kind": "lineup", "order": [f"H{i}" for i in range(1, 11)], "reserve": None}, "one is the reserve"),
        ({"kind": "lineup", "order": ["H1", *[f"H{i}" for i in range(1, 10)]], "reserve": "H11"}, "twice"),
        ({"kind": "lineup", "order": [f"H{i}" for i in range(1, 11)], "reserve": "H1"}, "twice"),
        ({"kind": "lineup", "order": ["HK", *[f"H{i}" for i in range(2, 11)]], "reserve": "H11"}, "keeper"),
        (
            {"kind": "lineup", "order": ["A1", *[f"H{i}" for i in range(2, 11)]], "reserve": "H11"},
            "not in its team",
        ),
    ],
)
def test_a_line_up_that_is_not_a_permutation_of_the_team_is_refused(choice, text):
    err = refused(fresh(), "home", choice, IllegalDecision, text)
    assert err.code == "illegal_decision"


def test_a_small_team_has_no_reserve():
    m = Match(team("H", [4, 5], 3), team("A", [4], 3))
    refused(m, "home", lineup(["H1"], "H2"), IllegalDecision, "no reserve")


@pytest.mark.parametrize(
    "choice",
    [
        "pass",
        {"kind": 3},
        {"kind": "dance"},
        {"kind": "lineup", "order": "H1 H2", "reserve": None},
        {"kind": "lineup", "order": [1, 2], "reserve": None},
        {"kind": "lineup", "order": [f"H{i}" for i in range(1, 11)], "reserve": 11},
    ],
)
def test_malformed_decisions(choice):
    err = refused(fresh(), "home", choice, MalformedDecision)
    assert err.code == "malformed_decision"


def test_a_line_up_is_set_once_per_period():
    m = fresh()
    m.act("home", lineup([f"H{i}" for i in range(1, 11)], "H11"))
    err = refused(m, "home", lineup([f"H{i}" for i in range(1, 11)], "H11"), NotYourDecision, "already set")
    assert err.code == "not_your_decision"


def test_no_match_card_before_kick_off():
    refused(fresh(), "home", {"kind": "play", "card": "M01"}, IllegalDecision, "line-up")


def test_acting_for_the_other_side_or_out_of_turn():
    m = in_window()
    refused(m, "home", {"kind": "pass"}, NotYourDecision, "away's turn")
    refused(m, "home", {"kind": "play", "card": "M01"}, NotYourDecision)


def test_an_unknown_side():
    refused(in_window(), "left", {"kind": "pass"}, MalformedDecision, "unknown side")


def test_playing_a_card_not_held():
    m = in_window()
    err = refused(m, "away", {"kind": "play", "card": "M01"}, IllegalDecision, "does not hold")
    assert err.params["reason"] == "card_not_held"
    refused(m, "away", {"kind": "play", "card": "M99"}, IllegalDecision, "does not hold")


def test_a_play_without_a_card_id_is_malformed():
    m = in_window()
    refused(m, "away", {"kind": "play"}, MalformedDecision, "card")
    refused(m, "away", {"kind": "play", "card": 7}, MalformedDecision, "card")


def test_playing_a_card_on_an_illegal_target():
    m = in_window()
    m.pass_("away")
    assert m.pending() == ("home",)
    err = refused(m, "home", {"kind": "play", "card": "M19"}, IllegalDecision, "no card in action")
    assert err.params["reason"] == "not_playable_now"


def test_a_card_already_played_cannot_be_played_again():
    m = in_window()
    m.pass_("away")
    m.play("home", "M01")
    m.pass_until(lambda m: "home" in m.pending() and m.st.phase == 1)
    refused(m, "home", {"kind": "play", "card": "M01"}, IllegalDecision, "already played")


def test_no_decision_after_the_match_is_over():
    m = Match(team("H", [4], 3), team("A", [4], 3), knockout=False)
    m.lineups()
    m.lineups()
    assert m.f.result(m.st) is not None
    refused(m, "home", {"kind": "pass"}, NotYourDecision, "over")


def test_preview_validates_the_same_way_and_never_changes_the_state():
    m = in_window()
    before = m.snapshot()
    with pytest.raises(NotYourDecision):
        m.f.preview(m.st, "home", {"kind": "pass"})
    after = m.f.preview(m.st, "away", {"kind": "swap"})
    assert after.active[1] == 10 and m.st.active[1] == 0
    assert m.snapshot() == before


def bad(**changes):
    base = {
        "home": team("H", [4, 5], 3, ("M01",)),
        "away": team("A", [4, 5], 3, ("M02",)),
        "knockout": True,
        "et": (),
    }
    base.update(changes)
    return setup(base["home"], base["away"], base["knockout"], base["et"])


@pytest.mark.parametrize(
    ("broken", "text"),
    [
        (bad(home=team("H", [4] * 12, 3)), "at most 11"),
        (bad(home=team("H", [4], 3, ("M02",))), "held twice"),
        (bad(home=team("H", [4], 3, ("M77",))), "unknown match card"),
        (bad(et=("M01",)), "extra-time card"),
        (bad(et=("M03", "M05", "M06", "M07", "M08")), "at most four"),
        (bad(away=team("H", [4], 3)), "in both teams"),
        (bad(home=TeamEntry("H", (TeamCard("H1", 4),), TeamCard("HK", 3, keeper=False))), "not a keeper"),
        (
            bad(home=TeamEntry("H", (TeamCard("H1", 4, keeper=True),), TeamCard("HK", 3, True))),
            "field player",
        ),
        (bad(home=team("H", [9], 3)), "stars"),
    ],
)
def test_an_illegal_setup_is_refused(broken, text):
    with pytest.raises(InvalidSetup) as err:
        fmt().start(broken, Rng(1))
    assert err.value.code == "invalid_setup" and text in str(err.value)
