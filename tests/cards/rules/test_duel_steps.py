"""Steps 3–5 of the duel, every branch, and how halves, practice and knock-out matches end."""

from __future__ import annotations

from duel_helpers import Match, kinds, lineup, reveals, team


def play_half(home, away, **kw) -> Match:
    m = Match(home, away, **kw)
    m.lineups(lineup([c.id for c in home.field]), lineup([c.id for c in away.field]))
    return m


def half_over(m: Match, period: int = 1) -> dict:
    return next(e.data for e in m.events if e.kind == "half_over" and e.data["period"] == period)


def test_step_4_equal_stars_both_bring_in():
    m = play_half(team("H", [4, 3], 3), team("A", [4, 2], 3))
    assert reveals(m.events)[:4] == [("home", "H1"), ("away", "A1"), ("home", "H2"), ("away", "A2")]


def test_step_4_the_side_with_fewer_stars_brings_in_until_it_has_as_many_or_more():
    m = play_half(team("H", [5, 2], 3), team("A", [2, 3, 5, 4], 3))
    assert reveals(m.events)[:5] == [
        ("home", "H1"),
        ("away", "A1"),
        ("away", "A2"),
        ("away", "A3"),
        ("home", "H2"),
    ]


def test_step_5_the_side_whose_keeper_came_first_cannot_score():
    # home's keeper (5) comes in against away's 3: it does not score; away keeps bringing in
    m = play_half(team("H", [2], 5), team("A", [3, 4, 6], 3))
    assert reveals(m.events) == [
        ("home", "H1"),
        ("away", "A1"),
        ("home", "HK"),
        ("away", "A2"),
        ("away", "A3"),
    ]
    goal = next(e for e in m.events if e.kind == "goal")
    assert (goal.data["side"], goal.data["card"], goal.data["against_stars"]) == ("away", "A3", 5)


def test_step_5_scores_at_once_when_the_card_in_action_already_beats_the_keeper():
    m = play_half(team("H", [2], 3), team("A", [5, 2], 4))
    assert reveals(m.events) == [("home", "H1"), ("away", "A1"), ("home", "HK")]
    assert m.st.score == [0, 1]


def test_step_5_no_card_left_ends_the_half_without_a_goal():
    m = play_half(team("H", [2], 5), team("A", [3, 4], 3))
    assert reveals(m.events)[-1] == ("away", "AK")  # even its own keeper does not beat 5
    assert half_over(m) == {"period": 1, "goal": None, "reason": "no_cards", "score": [0, 0]}


def test_step_5_the_attackers_own_keeper_can_score():
    """'Dat zou zelfs een doelpunt kunnen zijn van eigen keeper!'"""
    m = play_half(team("H", [2], 3), team("A", [3], 5))
    assert reveals(m.events) == [("home", "H1"), ("away", "A1"), ("home", "HK"), ("away", "AK")]
    goal = next(e for e in m.events if e.kind == "goal")
    assert (goal.data["side"], goal.data["card"], goal.data["stars"]) == ("away", "AK", 5)


def test_d2_both_keepers_at_the_same_moment_end_the_half_without_a_goal():
    m = play_half(team("H", [4, 3], 5), team("A", [4, 3], 3))
    assert reveals(m.events)[-2:] == [("home", "HK"), ("away", "AK")]
    assert half_over(m)["reason"] == "both_keepers"
    assert m.st.score == [0, 0]


def test_a_team_without_field_players_starts_with_its_keeper_in_action():
    m = play_half(team("H", [], 4), team("A", [5], 3))
    assert reveals(m.events)[:2] == [("home", "HK"), ("away", "A1")]
    assert m.st.score == [0, 1]


def test_at_most_one_goal_per_half_and_the_second_half_starts_from_the_full_eleven():
    m = play_half(team("H", [2, 2, 2], 3), team("A", [6, 6, 6], 3), knockout=False)
    assert m.st.score == [0, 1]
    assert kinds(m.events).count("goal_confirmed") == 1
    assert m.st.period == 2 and set(m.pending()) == {"home", "away"}
    ev = m.lineups(lineup(["H3", "H1", "H2"]), lineup(["A2", "A1", "A3"]))
    assert reveals(ev)[:2] == [("home", "H3"), ("away", "A2")]  # D1: reordered, all cards back
    assert m.st.score == [0, 2]
    result = m.f.result(m.st)
    assert result is not None and result.winner == "away" and result.decided_by == "regular"


def test_a_practice_match_may_end_level():
    m = play_half(team("H", [4], 3), team("A", [4], 3), knockout=False)
    m.lineups()
    assert m.f.decisions(m.st) == []
    result = m.f.result(m.st)
    assert (result.score, result.winner, result.decided_by, result.penalties) == (
        (0, 0),
        None,
        "regular",
        None,
    )
    assert m.events[-1].kind == "match_over"


def test_a_level_knockout_match_goes_to_extra_time_with_a_new_line_up():
    m = play_half(team("H", [4], 3), team("A", [4], 3), knockout=True)
    m.lineups()
    assert m.st.period == 3 and set(m.pending()) == {"home", "away"}
    assert kinds(m.events)[-1] == "extra_time"
    assert m.f.result(m.st) is None


def test_a_half_time_line_up_may_change_the_reserve():
    home = team("H", [5] * 10 + [2], 3)
    away = team("A", [5] * 10 + [2], 3)
    m = Match(home, away, knockout=False)
    m.lineups(lineup([f"H{i}" for i in range(1, 11)], "H11"), lineup([f"A{i}" for i in range(1, 11)], "A11"))
    m.pass_until(lambda m: m.st.period == 2)
    order = ["H11", *[f"H{i}" for i in range(2, 11)]]
    m.lineups(lineup(order, "H1"), None)
    kickoff = next(i for i, e in enumerate(m.events) if e.kind == "kickoff" and e.data["period"] == 2)
    assert reveals(m.events[kickoff:])[0] == ("home", "H11")
    assert m.f.view(m.st, "home")["sides"]["home"]["reserve"] == "H1"  # H1 is on the bench now
