"""The rulebook's worked example ("VOORBEELD VAN EEN WEDSTRIJD", a–e), replayed card by card."""

from __future__ import annotations

from duel_helpers import Match, kinds, lineup, reveals, team

# White attacks with 4★; Yellow's 2★ loses and Yellow brings in a 5★; White brings in until it
# has a 5★ (a 3★ first); equal: both bring in (6★ against 6★, equal again); White's keeper comes up
# beside Yellow's 4★; Yellow brings in until it beats that keeper: 3★, then 5★ scores.
WHITE = team("W", [4, 3, 5, 6], keeper=4, label="White")
YELLOW = team("Y", [2, 5, 6, 4, 3, 5], keeper=3, label="Yellow")


def start() -> Match:
    m = Match(WHITE, YELLOW, knockout=False)
    m.lineups(lineup(["W1", "W2", "W3", "W4"]), lineup(["Y1", "Y2", "Y3", "Y4", "Y5", "Y6"]))
    return m


def test_first_half_replays_steps_a_to_e_card_by_card():
    m = start()
    assert reveals(m.events) == [
        ("home", "W1"),
        ("away", "Y1"),  # a) kick-off: White 4★ attacks, Yellow 2★ loses the duel
        ("away", "Y2"),  # b) Yellow brings in 5★ and wins the duel
        ("home", "W2"),  # White defends: 3★ is not enough ...
        ("home", "W3"),  # ... 5★: equally strong
        ("home", "W4"),
        ("away", "Y3"),  # c) both bring in: 6★ against 6★, equal again
        ("home", "WK"),
        ("away", "Y4"),  # d) White's keeper comes into action: White can no longer score
        ("away", "Y5"),  # Yellow's 4★ does not beat the 4★ keeper, nor its 3★ ...
        ("away", "Y6"),  # e) ... its 5★ does
    ]
    goal = next(e for e in m.events if e.kind == "goal")
    assert goal.data == {
        "side": "away",
        "card": "Y6",
        "stars": 5,
        "against_stars": 4,
        "how": "duel",
        "provisional": True,
    }
    assert kinds(m.events)[-3:] == ["goal", "goal_confirmed", "half_over"]
    assert m.events[-1].data == {"period": 1, "goal": "away", "reason": "goal", "score": [0, 1]}
    assert m.st.score == [0, 1]


def test_white_keeper_in_action_is_revealed_as_a_keeper():
    m = start()
    keeper = next(e for e in m.events if e.kind == "card_revealed" and e.data["card"] == "WK")
    assert keeper.data == {"side": "home", "card": "WK", "stars": 4, "keeper": True, "reason": "duel"}
    assert m.st.kfirst == -1  # reset at half time


def test_second_half_starts_again_from_the_full_eleven():
    m = start()
    assert set(m.pending()) == {"home", "away"}  # D1: both choose again, at the same time
    ev = m.lineups(lineup(["W4", "W3", "W1", "W2"]), lineup(["Y3", "Y2", "Y6", "Y4", "Y5", "Y1"]))
    assert kinds(ev)[:5] == ["lineup_set", "lineup_set", "kickoff", "card_revealed", "card_revealed"]
    assert reveals(ev)[:2] == [("home", "W4"), ("away", "Y3")]
