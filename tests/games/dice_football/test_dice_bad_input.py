"""Bad decisions get the right error with a stable code and change nothing (not even the dice)."""

from __future__ import annotations

import pytest
from dice_helpers import FMT, Faces, play, position, roll

from games.api import IllegalDecision, MalformedDecision, MatchError, NotYourDecision
from games.dice_football.rules import dice_setup
from games.dice_football.state import PH_PLACE, R_GOAL_KICK
from games.rng import Rng


def refuse(st, side, choice, error):
    """Apply ``choice`` expecting ``error``; the stored state must be exactly as before."""
    before = FMT.to_dict(st)
    rng = Faces()  # any die rolled would fail the test
    with pytest.raises(error) as info:
        FMT.apply(st, side, choice, rng)
    assert FMT.to_dict(st) == before
    assert isinstance(info.value, MatchError) and info.value.code == error.code
    assert str(info.value)  # the message names the situation
    return info.value


def test_error_codes_are_stable():
    assert MalformedDecision.code == "malformed_decision"
    assert IllegalDecision.code == "illegal_decision"
    assert NotYourDecision.code == "not_your_decision"


def test_wrong_side_is_not_your_decision():
    st = position((3, 5))
    refuse(st, "away", roll("pass"), NotYourDecision)
    st = position((3, 2), star=("away", "FOUL"))  # the defender's window is open: the attacker waits
    refuse(st, "home", roll("pass"), NotYourDecision)


@pytest.mark.parametrize("side", ["north", None, 0, "HOME"])
def test_unknown_side_is_malformed(side):
    refuse(position((3, 5)), side, roll("pass"), MalformedDecision)


@pytest.mark.parametrize(
    "choice",
    [
        None,
        "roll",
        ["roll", "pass"],
        {},
        {"kind": 3},
        {"kind": "dance"},
        {"kind": "roll"},
        {"kind": "roll", "die": "purple"},
        {"kind": "roll", "die": 2},
        {"kind": "roll", "die": "pass", "rotate": "yes"},
        {"kind": "roll", "die": "pass", "long_kick": 1},
        {"kind": "roll", "die": "pass", "spin": True},
        {"kind": "star", "face": "FOUL"},
        {"kind": "pass", "now": True},
        {"kind": "direction", "to": "up"},
        {"kind": "direction"},
        {"kind": "place", "square": "c6"},
        {"kind": "place", "square": [3]},
        {"kind": "place", "square": [True, 1]},
    ],
)
def test_malformed_choices(choice):
    refuse(position((3, 5)), "home", choice, MalformedDecision)


def test_control_twice_in_a_row_is_illegal():
    st = position((3, 3))
    play(st, "home", roll("control"), ("control", "F1"))
    err = refuse(st, "home", roll("control"), IllegalDecision)
    assert err.params["reason"] == "die_not_allowed" and "twice" in str(err)


@pytest.mark.parametrize(
    ("choice", "reason"),
    [
        (roll("def"), "not_an_attack_die"),
        (roll("gk"), "not_an_attack_die"),
        (roll("star"), "not_an_attack_die"),
        (roll("shot"), "die_not_allowed"),  # (3,5) is no shooting square
        (roll("pass", rotate=True), "declaration_not_allowed"),  # not on a wing
        (roll("pass", long_kick=True), "declaration_not_allowed"),  # not a goal kick
        (roll("shot", rotate=True), "die_not_allowed"),
        ({"kind": "star"}, "not_allowed_now"),  # STAR is with the defender
        ({"kind": "direction", "to": "left"}, "wrong_decision_kind"),
        ({"kind": "place", "square": [2, 1]}, "wrong_decision_kind"),
        ({"kind": "keeper"}, "wrong_decision_kind"),
    ],
)
def test_illegal_choices_for_the_attacker(choice, reason):
    err = refuse(position((3, 5)), "home", choice, IllegalDecision)
    assert err.params["reason"] == reason


def test_must_start_with_control_after_winning_the_ball():
    st = position((3, 5))
    play(st, "home", roll("long"), ("long", "X"))
    for die in ("pass", "long"):
        refuse(st, "away", roll(die), IllegalDecision)
    st = position((3, 10))
    play(st, "home", roll("control"), ("control", "?"), ("def", "STEAL"))
    refuse(st, "away", roll("shot"), IllegalDecision)  # B-36, even in front of a goal
    st = position((3, 10), must_ctrl=True)
    refuse(st, "home", roll("shot"), IllegalDecision)


def test_illegal_direction_and_placement():
    st = position((3, 5))
    play(st, "home", roll("pass"), ("pass", "L2"))
    refuse(st, "home", roll("pass"), IllegalDecision)
    refuse(st, "home", {"kind": "direction", "to": "up"}, MalformedDecision)
    st = position((3, 1), restart=R_GOAL_KICK)
    st.phase, st.ctx = PH_PLACE, R_GOAL_KICK  # placement pending
    refuse(st, "home", {"kind": "place", "square": [3, 1]}, IllegalDecision)  # never column 3 (§12.2)
    refuse(st, "away", {"kind": "place", "square": [2, 1]}, NotYourDecision)


def test_nothing_after_the_final_whistle():
    st = FMT.start(dice_setup(half_ticks=1), Faces(0, ("star", "ASSIST")))
    rng = Rng(4)
    while FMT.decisions(st):
        d = FMT.decisions(st)[0]
        FMT.apply(st, d.side, d.default, rng)
    refuse(st, "home", roll("pass"), NotYourDecision)
    refuse(st, "away", {"kind": "pass"}, NotYourDecision)


def test_bad_setup_and_bad_records():
    from games.dice_football.rules import InvalidSetup

    for options in (
        {"half_ticks": 0},
        {"half_ticks": "60"},
        {"boskov": "yes"},
        {"toss": "north"},
        {"colour": 1},
    ):
        with pytest.raises(InvalidSetup):
            FMT.start(dice_setup(**options), Faces(0, 0))
    for record in (None, [], {"format": "duel"}, {"format": "dice-football"}):
        with pytest.raises(MalformedDecision):
            FMT.from_dict(record)
    data = FMT.to_dict(position((3, 5)))
    data["bx"] = "three"
    with pytest.raises(MalformedDecision):
        FMT.from_dict(data)
