"""Every match-card effect, the seed's examples of their use, windows and match on match (D4, D5)."""

from __future__ import annotations

import pytest
from duel_helpers import Match, kinds, lineup, reveals, team

from games.api import IllegalDecision


def start(home, away, **kw) -> Match:
    m = Match(home, away, **kw)
    m.lineups(
        lineup([c.id for c in home.field]),
        lineup([c.id for c in away.field]),
    )
    return m


def played(m: Match) -> list[dict]:
    return [e.data for e in m.events if e.kind == "match_card_played"]


# ---------------------------------------------------------------- the seed's examples
def test_tackle_turns_a_lost_duel_into_an_attack():
    """'NL zet nu zijn groene Match-kaart Tackle in en zijn speler krijgt 2* meer. NL valt nu aan met 6.'"""
    m = start(team("N", [4, 3, 3], 3, ("M01",)), team("G", [5, 2, 2], 3))
    assert m.pending() == ("home",)  # home is behind (4 < 5) and may play first
    assert m.playable("home") == {"M01"}
    ev = m.play("home", "M01")
    assert played(m) == [
        {
            "side": "home",
            "card": "M01",
            "effect": "stars",
            "window": "main",
            "target": {"side": "home", "card": "N1"},
            "stars": 6,
        }
    ]
    # GB (5) now loses against 6 and must bring in its next cards until its keeper; NL scores with 6
    assert reveals(ev) == [("away", "G2"), ("away", "G3"), ("away", "GK")]
    goal = next(e for e in ev if e.kind == "goal")
    assert (goal.data["card"], goal.data["stars"], goal.data["against_stars"]) == ("N1", 6, 3)


def test_blessure_forces_the_other_side_to_bring_in_its_next_player():
    """'Spelers zijn even sterk. Maar NL zet rode Match-kaart Blessure in ...
    GB moet volgende speler inzetten.'"""
    m = start(team("N", [5, 2], 3, ("M02",)), team("G", [5, 2], 3))
    assert m.pending() == ("home",)
    ev = m.play("home", "M02")
    assert ev[0].data["target"] == {"side": "away", "card": "G1"}
    assert ev[1].kind == "modifier_ended" and ev[1].data == {"side": "away", "card": "M02", "target": "G1"}
    assert reveals(ev)[0] == ("away", "G2")


def test_match_on_match_blinkt_uit_then_doelpunt_afgekeurd():
    """GB's 4★ keeper is in action; NL's 4★ plus 'Blinkt uit' scores 5 against 4 ... but GB plays
    'Doelpunt afgekeurd': no goal, NL must bring in its next player."""
    m = start(team("N", [4, 5], 3, ("M03",)), team("G", [3], 4, ("M04",)))
    m.pass_("home")  # 4 against 3: GB brings in its next card, its keeper
    assert m.in_action() == (("N1", 4), ("GK", 4))
    assert m.st.kfirst == 1
    m.play("home", "M03")
    assert m.pending() == ("away",)  # the goal is provisional: GB may dispute it
    assert [e.kind for e in m.events][-2:] == ["match_card_played", "goal"]
    ev = m.play("away", "M04")
    assert kinds(ev)[:5] == [
        "match_card_played",
        "goal_disallowed",
        "modifier_ended",
        "card_revealed",
        "goal",
    ]
    assert ev[1].data == {"side": "home", "card": "N1"}
    assert reveals(ev) == [("home", "N2")]  # NL brings in its next field player (5★), who beats the keeper
    assert kinds(ev)[-3:] == ["goal", "goal_confirmed", "half_over"]
    assert m.st.score == [1, 0]
    confirmed = next(e for e in ev if e.kind == "goal_confirmed")
    assert confirmed.data["card"] == "N2"


def test_disallowed_goal_with_no_field_player_left_ends_the_half_goalless():
    m = start(team("N", [5], 3), team("G", [3], 4, ("M04",)))
    assert m.pending() == ("away",)  # provisional goal of N1 (5 > 4)
    ev = m.play("away", "M04")
    assert kinds(ev) == ["match_card_played", "goal_disallowed", "half_over"]
    assert ev[-1].data == {"period": 1, "goal": None, "reason": "disallowed_no_field_player", "score": [0, 0]}


# ---------------------------------------------------------------- stars and set_stars
def test_stars_are_capped_at_seven_and_each_card_counts_in_order():
    m = start(team("H", [6], 3, ("M01",)), team("A", [6], 3, ("M02",)))
    assert m.pending() == ("away",)  # equal stars, equal score: the away side first
    m.pass_("away")
    m.play("home", "M01")
    assert m.in_action()[0] == ("H1", 7)  # 6 + 2, at most 7
    m.play("away", "M02")
    assert played(m)[-1]["target"] == {"side": "home", "card": "H1"}
    assert played(m)[-1]["stars"] == 6  # 7 - 1: each card counts in the order it was placed


def test_stars_are_floored_at_zero():
    m = start(team("H", [2], 3), team("A", [2], 3, ("M18",)))
    m.play("away", "M18")  # -3 on a 2-star player
    assert played(m)[-1]["stars"] == 0


def test_keeper_cards_only_target_a_keeper_in_action():
    m = start(team("H", [2], 3, ("M19", "M24", "M03")), team("A", [5, 6, 4], 3))
    assert m.playable("home") == {"M03"}  # a field player is in action, not the keeper
    m.pass_("home")  # 2 < 5: home brings in its keeper
    assert m.in_action() == (("HK", 3), ("A1", 5))
    assert m.playable("home") == {"M19", "M24"}


def test_a_keeper_save_holds_while_the_keeper_stays_in_action():
    m = start(team("H", [2], 3, ("M24",)), team("A", [5, 6, 4], 3))
    assert m.in_action() == (("HK", 3), ("A1", 5))  # 2 < 5: home's keeper came into action
    m.play("home", "M24")  # save of the year: the keeper counts exactly 6
    assert played(m)[-1]["stars"] == 6
    ev = m.events
    assert reveals(ev)[-3:] == [("away", "A2"), ("away", "A3"), ("away", "AK")]  # 5, 6, 4 and 3 do not beat 6
    assert ev[-1].kind == "half_over" and ev[-1].data["reason"] == "no_cards"
    assert m.st.score == [0, 0]


def test_red_keeper_card_answers_a_save():
    m = start(team("H", [2], 3, ("M24",)), team("A", [5, 6], 3, ("M27",)))
    assert m.pending() == ("home",)  # A1 (5) beats the 3-star keeper: home is behind and acts first
    m.play("home", "M24")  # keeper 6
    assert m.pending() == ("away",)
    ev = m.play("away", "M27")  # keeper's blunder: 6 - 2 = 4 < 5
    assert next(e for e in ev if e.kind == "goal").data["card"] == "A1"


def test_a_modifier_ends_when_its_target_leaves_action():
    m = start(team("H", [4, 2], 3, ("M03",)), team("A", [6, 3], 3))
    ev = m.play("home", "M03")  # 5 against 6: still lost, H1 leaves with its modifier
    assert kinds(ev)[:3] == ["match_card_played", "modifier_ended", "card_revealed"]
    assert m.events[-1].kind == "half_over"
    assert m.in_action() == (None, None)


# ---------------------------------------------------------------- penalty (D5)
def test_penalty_scores_when_the_shooter_beats_the_keeper():
    m = start(team("H", [6, 2], 3, ("M28",)), team("A", [6, 5, 4], 4))
    assert m.pending() == ("home",)
    ev = m.play("home", "M28")
    moment = next(e for e in ev if e.kind == "penalty_moment")
    assert moment.data == {"side": "home", "card": "H1", "stars": 6, "keeper": "AK", "keeper_stars": 4}
    goal = next(e for e in ev if e.kind == "goal")
    assert goal.data["how"] == "penalty" and goal.data["card"] == "H1"
    assert m.st.score == [1, 0]


def test_saved_penalty_ends_the_keepers_moment_modifiers_and_the_duel_goes_on():
    m = start(team("H", [5, 2], 3, ("M28",)), team("A", [5, 4], 4, ("M21", "M13", "M14")))
    assert m.playable("away") == {"M13", "M14"}  # red field cards; the keeper is not in action
    m.pass_("away")
    m.play("home", "M28")
    assert m.st.wkind == 1  # inside the moment
    # only P-cards: Cramp (P crossed out) cannot be played, Yellow card can; the keeper card can
    assert m.playable("away") == {"M21", "M14"}
    with pytest.raises(IllegalDecision) as err:
        m.play("away", "M13")
    assert "crossed out" in str(err.value)
    m.play("away", "M21")  # penalty killer: keeper 4 + 2 = 6 >= 5
    assert m.pending() == ("away",)  # home has no answer; away may still play its Yellow card
    ev = m.pass_("away")
    assert kinds(ev) == ["modifier_ended", "penalty_saved"]
    assert ev[0].data == {"side": "away", "card": "M21", "target": "AK"}
    assert ev[1].data == {"side": "home", "card": "H1", "stars": 5, "against_stars": 6}
    assert m.pending() == ("away",)  # back in the main window, where the Yellow card is still legal
    ev = m.pass_("away")
    # back in the main window: 5 against 5, both bring in
    assert reveals(ev)[:2] == [("home", "H2"), ("away", "A2")]


def test_no_penalty_or_corner_once_the_own_keeper_is_in_action():
    m = start(team("H", [2], 3, ("M28", "M31", "M19")), team("A", [5, 4], 3))
    m.pass_until(lambda m: m.st.kfirst == 0)
    assert m.playable("home") == {"M19"}


def test_the_goal_window_after_a_penalty_keeps_the_p_restriction():
    m = start(team("H", [6, 2], 3, ("M28",)), team("A", [6, 5], 4, ("M04", "M40")))
    m.play("home", "M28")
    assert m.st.wkind == 2
    assert m.playable("away") == {"M04"}  # Offside has its P crossed out


# ---------------------------------------------------------------- corner (D5)
def test_corner_header_taker_scores_against_the_card_in_action():
    m = start(team("H", [4, 6, 2], 3, ("M31",)), team("A", [5, 3], 3))
    ev = m.play("home", "M31")
    corner = next(e for e in ev if e.kind == "corner_moment")
    assert corner.data == {"side": "home", "card": "H2", "stars": 6, "against": "A1", "against_stars": 5}
    goal = next(e for e in ev if e.kind == "goal")
    assert (goal.data["how"], goal.data["card"]) == ("corner", "H2")


def test_cleared_corner_spends_the_header_taker_and_the_previous_card_stays():
    m = start(team("H", [4, 3, 2], 3, ("M31",)), team("A", [5, 1], 3))
    ev = m.play("home", "M31")
    assert next(e for e in ev if e.kind == "corner_cleared").data == {
        "side": "home",
        "card": "H2",
        "stars": 3,
        "against_stars": 5,
    }
    # H1 stayed in action, lost 4 against 5: the next card is H3, the header taker is spent
    assert reveals(ev)[0] == ("home", "H3")


def test_corner_needs_a_next_field_player():
    m = start(team("H", [4], 3, ("M31", "M03")), team("A", [5], 3))
    assert m.playable("home") == {"M03"}  # the next card is the keeper


def test_corner_moment_allows_only_c_cards():
    m = start(team("H", [4, 6, 2], 3, ("M31",)), team("A", [5, 3], 3, ("M13", "M14", "M20")))
    assert m.pending() == ("home",)  # 4 < 5; away has nothing to place yet
    m.play("home", "M31")
    # red field cards go beside the header taker; Yellow card has its C crossed out; no keeper in action
    assert m.playable("away") == {"M13"}
    m.play("away", "M13")  # header 6 - 1 = 5, not more than 5: cleared
    assert any(e.kind == "corner_cleared" for e in m.events)


# ---------------------------------------------------------------- cancel, free swap, force next
def test_var_cancels_the_last_card_the_opponent_played():
    m = start(team("H", [5], 3, ("M01",)), team("A", [5], 3, ("M34",)))
    assert m.pending() == ("home",)  # away had nothing to cancel yet
    m.play("home", "M01")
    assert m.in_action()[0] == ("H1", 7)
    assert m.playable("away") == {"M34"}
    ev = m.play("away", "M34")
    assert ev[1].kind == "card_cancelled"
    assert ev[1].data == {"side": "home", "card": "M01", "by": "M34", "stars": 5}
    assert m.st.used == [["M01"], ["M34"]]  # both cards are used


def test_var_cancels_a_penalty_inside_its_moment():
    m = start(team("H", [6, 2], 3, ("M28",)), team("A", [6, 3], 3, ("M34",)))
    m.play("home", "M28")
    ev = m.play("away", "M34")
    assert "penalty_saved" not in kinds(ev) and "goal" not in kinds(ev)
    assert ev[1].data == {"side": "home", "card": "M28", "by": "M34"}
    assert reveals(ev)[:2] == [("home", "H2"), ("away", "A2")]  # the duel goes on: 6 = 6, both bring in


def test_play_on_cannot_cancel_inside_a_penalty_moment():
    m = start(team("H", [6, 2], 3, ("M28",)), team("A", [6, 3], 3, ("M36",)))
    ev = m.play("home", "M28")
    # Play on has its P crossed out: away gets no window inside the moment, the penalty is taken
    assert kinds(ev)[:3] == ["match_card_played", "penalty_moment", "goal"]
    assert m.st.hold[1] == ["M36"]


def test_var_against_a_disallowed_goal_lets_it_stand():
    m = start(team("N", [4, 5], 3, ("M03", "M34")), team("G", [3], 4, ("M04",)))
    m.pass_("home")
    m.play("home", "M03")
    m.play("away", "M04")
    assert m.playable("home") == {"M34"}
    ev = m.play("home", "M34")
    assert kinds(ev)[:3] == ["match_card_played", "card_cancelled", "goal_confirmed"]
    assert ev[2].data["card"] == "N1"


def test_cancel_is_not_legal_against_a_force_next():
    m = start(team("H", [3, 2], 3, ("M39",)), team("A", [6, 2], 3, ("M34", "M03")))
    m.play("home", "M39")
    assert m.playable("away") == {"M03"}


def test_force_next_sends_the_opponents_field_player_out():
    m = start(team("H", [3, 2], 3, ("M39",)), team("A", [6, 2], 3))
    ev = m.play("home", "M39")
    assert ev[0].data["target"] == {"side": "away", "card": "A1"}
    assert (
        ev[1].kind == "card_revealed" and ev[1].data["card"] == "A2" and ev[1].data["reason"] == "force_next"
    )


def test_force_next_can_bring_the_opponents_keeper_into_action():
    m = start(team("H", [3, 5], 3, ("M39",)), team("A", [6], 4))
    ev = m.play("home", "M39")
    assert ev[1].data == {"side": "away", "card": "AK", "stars": 4, "keeper": True, "reason": "force_next"}
    # the away keeper came into action first: away can no longer score; 3 < 4, home brings in its 5
    assert reveals(ev)[1:] == [("home", "H2")]
    assert m.st.score == [1, 0]


def test_window_order_behind_in_score_then_away():
    m = start(team("H", [5, 2], 3, ("M03", "M08")), team("A", [5, 6, 4], 3, ("M05",)))
    assert m.pending() == ("away",)  # equal stars, 0-0: the away side first
    m.pass_("away")
    m.play("home", "M03")  # a play re-opens the answer for the other side
    assert m.pending() == ("away",)
    m.pass_("away")
    m.pass_("home")  # both passed in a row: the window closes; 5 < 6, away brings in its 6
    assert m.in_action() == (("H1", 6), ("A2", 6))
    m.pass_until(lambda m: m.st.phase == 0)  # 6 = 6; home's 2 and keeper lose to away's 4
    assert m.st.score == [0, 1]
    m.lineups(lineup(["H1", "H2"]), lineup(["A1", "A2", "A3"]))
    # second half, 5 against 5 again: home is behind in the score and decides first
    assert m.pending() == ("home",)


def test_var_cancels_a_corner_and_the_header_taker_goes_back_on_top():
    m = start(team("H", [4, 6, 2], 3, ("M31",)), team("A", [5, 3], 3, ("M34",)))
    m.play("home", "M31")
    ev = m.play("away", "M34")
    assert ev[1].data == {"side": "home", "card": "M31", "by": "M34"}
    assert "corner_cleared" not in kinds(ev)
    # 4 < 5: home brings in its next card, the 6-star header taker that went back on top
    assert reveals(ev)[0] == ("home", "H2")


def test_a_disallowed_corner_goal_costs_the_header_taker_and_the_card_in_action():
    m = start(team("H", [4, 6, 5, 2], 3, ("M31",)), team("A", [5, 3], 3, ("M04", "M40")))
    m.play("home", "M31")  # header H2 (6) beats A1 (5): provisional goal
    assert m.st.goal is not None and m.pending() == ("away",)
    assert m.playable("away") == {"M04", "M40"}  # both disallow cards have their C
    ev = m.play("away", "M40")
    assert kinds(ev)[:2] == ["match_card_played", "goal_disallowed"]
    assert ev[1].data == {"side": "home", "card": "H2"}
    # H1, in action, leaves too (M10): the next field player H3 comes in; H2 is spent
    assert reveals(ev)[0] == ("home", "H3")
