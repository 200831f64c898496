"""Extra time (two extra cards each, sudden death) and the penalty series (D6)."""

from __future__ import annotations

from duel_helpers import Match, kinds, lineup, team

ET = ("M03", "M05", "M13", "M25")  # home gets M03 and M05, away M13 and M25


def mirror(stars, home_keeper, away_keeper, home_hold=(), away_hold=(), et=()) -> Match:
    """Both sides play the same stars in the same order: every duel is level and both keepers
    come into action together (D2), so every period ends goalless."""
    m = Match(
        team("H", stars, home_keeper, tuple(home_hold)),
        team("A", stars, away_keeper, tuple(away_hold)),
        knockout=True,
        et=et,
    )
    for _ in range(3):
        if m.st.phase != 0:
            break
        m.lineups(
            lineup([f"H{i + 1}" for i in range(len(stars))]), lineup([f"A{i + 1}" for i in range(len(stars))])
        )
        m.pass_until(lambda m: m.st.phase != 1)
    return m


def kicks(m: Match) -> list[tuple[str, str, bool]]:
    return [(e.data["side"], e.data["card"], e.data["scored"]) for e in m.events if e.kind == "shootout_kick"]


def test_extra_time_deals_two_cards_each_valid_only_in_extra_time():
    m = Match(team("H", [4, 4], 3), team("A", [4, 4], 3), knockout=True, et=ET)
    m.lineups()
    m.lineups()
    assert m.st.period == 3
    assert m.events[-3].kind == "extra_time"
    assert m.events[-3].data == {"cards_dealt": {"home": 2, "away": 2}}
    private = [e for e in m.events if e.kind == "cards_dealt"]
    assert [(e.audience, e.data["cards"]) for e in private] == [
        ("home", ["M03", "M05"]),
        ("away", ["M13", "M25"]),
    ]
    assert m.f.view(m.st, "home")["sides"]["home"]["extra_time_holding"] == ["M03", "M05"]
    m.lineups()
    assert m.pending() == ("away",)  # 4 = 4, 0-0: away first, with its two extra-time cards
    assert {c.get("card") for c in m.choices("away")} == {None, "M13"}  # no keeper in action for M25


def test_extra_time_cards_go_to_box_6_whether_played_or_not():
    m = Match(team("H", [4, 4], 3, ("M01",)), team("A", [4, 4], 3), knockout=True, et=ET)
    for _ in range(2):
        m.lineups()
        m.pass_until(lambda m: m.st.phase != 1)
    m.lineups()
    m.pass_("away")  # 4 = 4: away first; it passes
    m.play("home", "M03")  # an extra-time card: home 5 against 4 ...
    m.pass_until(lambda m: m.st.phase == 2)
    result = m.f.result(m.st)
    assert result.extra_time_dealt == ET
    assert result.used == {"home": (), "away": ()}  # the holding card M01 was never played
    assert result.unused == {"home": ("M01",), "away": ()}
    assert (result.winner, result.decided_by, result.score) == ("home", "extra_time", (1, 0))


def test_extra_time_is_sudden_death():
    m2 = Match(team("H", [5, 4], 3), team("A", [4, 5], 3), knockout=True)
    m2.lineups(lineup(["H1", "H2"]), lineup(["A2", "A1"]))  # 5 = 5, 4 = 4: D2, goalless
    m2.lineups(lineup(["H1", "H2"]), lineup(["A2", "A1"]))
    assert m2.st.period == 3
    ev = m2.lineups(lineup(["H1", "H2"]), lineup(["A1", "A2"]))  # 5 beats 4, 5 ...
    assert kinds(ev)[-4:] == ["goal", "goal_confirmed", "half_over", "match_over"]
    assert m2.events[-1].data == {
        "score": [1, 0],
        "winner": "home",
        "decided_by": "extra_time",
        "penalties": None,
    }


def test_penalty_series_ends_early_when_one_side_cannot_catch_up():
    m = mirror([4] * 10, home_keeper=5, away_keeper=3)
    # home's 4s beat the 3-star keeper, away's 4s do not beat the 5-star keeper: 3-0 after six kicks
    assert kicks(m) == [
        ("home", "H1", True),
        ("away", "A1", False),
        ("home", "H2", True),
        ("away", "A2", False),
        ("home", "H3", True),
        ("away", "A3", False),
    ]
    result = m.f.result(m.st)
    assert (result.winner, result.decided_by, result.penalties, result.score) == (
        "home",
        "penalties",
        (3, 0),
        (0, 0),
    )


def test_penalty_series_goes_to_sudden_death_after_five_rounds():
    m = mirror([5, 5, 5, 5, 5, 4, 4, 4, 4, 4], home_keeper=4, away_keeper=3)
    assert len(kicks(m)) == 12  # 5-5 after five rounds; in round six home's 4 scores, away's 4 does not
    assert kicks(m)[-2:] == [("home", "H6", True), ("away", "A6", False)]
    assert m.f.result(m.st).penalties == (6, 5)


def test_when_the_kickers_run_out_the_die_decides():
    m = mirror([5, 5, 5], home_keeper=4, away_keeper=4)
    assert len(kicks(m)) == 6
    rolls = [e.data for e in m.events if e.kind == "die_roll"]
    assert (
        rolls and all(r["home"] == r["away"] for r in rolls[:-1]) and rolls[-1]["home"] != rolls[-1]["away"]
    )
    result = m.f.result(m.st)
    assert result.decided_by == "die" and result.penalties == (3, 3)
    assert result.winner == ("home" if rolls[-1]["home"] > rolls[-1]["away"] else "away")
    replay = mirror([5, 5, 5], home_keeper=4, away_keeper=4)
    assert [e.data for e in replay.events if e.kind == "die_roll"] == rolls  # the seeded die


def test_the_penalty_series_uses_the_last_line_up_and_never_the_reserve():
    stars = [4] * 10 + [6]
    m = Match(team("H", stars, 5), team("A", stars, 3), knockout=True)
    order = [f"H{i}" for i in range(10, 0, -1)]
    for _ in range(3):
        m.lineups(lineup(order, "H11"), lineup([f"A{i}" for i in range(1, 11)], "A11"))
        m.pass_until(lambda m: m.st.phase != 1)
    assert [k for k in kicks(m) if k[0] == "home"][:3] == [
        ("home", "H10", True),
        ("home", "H9", True),
        ("home", "H8", True),
    ]
    assert "H11" not in {k[1] for k in kicks(m)}
