"""Match bots: legal, deterministic, fair (no peeking), sensible, and strong beats easy and random."""

from __future__ import annotations

import random

import pytest
from duel_helpers import Match, equal_teams, fmt, lineup, team

from cards.rules.bots import POLICIES, get_policy, play_match, strong_policy
from games.rng import Rng

N_STRENGTH = 2000


def win_rate(a: str, b: str, n: int = N_STRENGTH) -> float:
    """Share of ``n`` seeded knock-out matches with equal teams won by ``a`` (sides alternate)."""
    f = fmt()
    wins = 0
    for seed in range(n):
        if seed % 2 == 0:
            state, _ = play_match(f, equal_teams(seed), Rng(seed), a, b)
            wins += state.winner == 0
        else:
            state, _ = play_match(f, equal_teams(seed), Rng(seed), b, a)
            wins += state.winner == 1
    return wins / n


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_every_policy_plays_whole_matches_deterministically(name):
    f = fmt()
    for seed in range(60):
        one, events = play_match(f, equal_teams(seed), Rng(seed), name, name)
        two, again = play_match(f, equal_teams(seed), Rng(seed), name, name)
        assert events == again and f.result(one) == f.result(two)
        assert f.result(one).winner in ("home", "away")


def test_unknown_policy():
    with pytest.raises(ValueError, match="unknown match bot policy"):
        get_policy("genius")


def test_strong_beats_easy_and_random_clearly_and_easy_beats_random():
    rates = {
        ("strong", "easy"): win_rate("strong", "easy"),
        ("strong", "random"): win_rate("strong", "random"),
        ("easy", "random"): win_rate("easy", "random"),
    }
    print("win rates over", N_STRENGTH, "seeded matches with equal teams:", rates)
    assert rates[("strong", "easy")] >= 0.7
    assert rates[("strong", "random")] >= 0.85
    assert rates[("easy", "random")] >= 0.52


def test_strong_decides_only_on_what_its_side_can_see():
    """Changing what the strong bot cannot see (the order of the opponent's unrevealed stack, its
    reserve, its holding, the stars of a keeper not in action) never changes its decision."""
    f = fmt()
    checked = 0
    for seed in range(40):
        state = f.start(equal_teams(seed), Rng(seed))
        rng = Rng(seed)
        shuffler = random.Random(seed)
        while pending := f.decisions(state):
            d = pending[0]
            if d.kind == "window":
                s = 0 if d.side == "home" else 1
                o = 1 - s
                twin = f.clone(state)
                shuffler.shuffle(twin.stack[o])  # order (and keeper position) of hidden cards
                if twin.reserve[o] >= 0 and twin.stack[o]:
                    i = shuffler.randrange(len(twin.stack[o]))
                    twin.reserve[o], twin.stack[o][i] = twin.stack[o][i], twin.reserve[o]
                twin.hold[o] = list(reversed(twin.hold[o]))
                keeper = twin.nfield[o]
                if state.wkind == 0 and twin.active[o] != keeper:
                    twin.stars[o][keeper] = 8 - twin.stars[o][keeper]  # an unrevealed keeper: 3 <-> 5
                assert strong_policy(f, twin, d, Rng(1)) == strong_policy(f, state, d, Rng(1))
                checked += 1
            f.apply(state, d.side, strong_policy(f, state, d, Rng(2)), rng)
    assert checked > 200


def decide(m: Match, side: str):
    (d,) = [d for d in m.f.decisions(m.st) if d.side == side]
    return strong_policy(m.f, m.st, d, Rng(0))


def start(home, away) -> Match:
    m = Match(home, away)
    m.lineups(lineup([c.id for c in home.field]), lineup([c.id for c in away.field]))
    return m


def test_strong_makes_a_seven_star_card_nothing_can_beat():
    m = start(team("H", [5, 2], 3, ("M01", "M03")), team("A", [5, 4], 3))
    assert decide(m, "home") == {"kind": "play", "card": "M01"}  # 5 + 2 = 7; Blinkt uit would make 6


def test_strong_keeps_its_cards_when_nothing_is_at_stake():
    m = start(team("H", [4, 2], 3), team("A", [3, 4, 5], 3, ("M03", "M13")))
    assert decide(m, "away") == {"kind": "pass"}


def test_strong_stops_a_goal_past_its_keeper_and_disallows_what_gets_through():
    m = start(team("H", [2], 3, ("M19", "M04")), team("A", [4, 5], 3))
    assert m.in_action() == (("HK", 3), ("A1", 4))
    assert decide(m, "home") == {"kind": "play", "card": "M19"}  # keeper 4: A1 no longer scores
    m2 = start(team("H", [2], 3, ("M04",)), team("A", [4, 5], 3))
    assert m2.st.wkind == 2 and decide(m2, "home") == {"kind": "play", "card": "M04"}


def test_strong_takes_a_penalty_only_with_a_player_stronger_than_any_keeper():
    m = start(team("H", [6, 2], 3, ("M28",)), team("A", [6, 3], 3))
    assert decide(m, "home") == {"kind": "play", "card": "M28"}
    m2 = start(team("H", [4, 2], 3, ("M28",)), team("A", [4, 3], 3))
    assert decide(m2, "home") == {"kind": "pass"}


def test_strong_swaps_when_the_reserve_wins_the_lost_duel():
    home = team("H", [3] * 10 + [6], 3)
    away = team("A", [5] * 10 + [2], 3)
    m = Match(home, away)
    m.lineups(lineup([f"H{i}" for i in range(1, 11)], "H11"), lineup([f"A{i}" for i in range(1, 11)], "A11"))
    assert m.pending() == ("home",)
    assert decide(m, "home") == {"kind": "swap"}
