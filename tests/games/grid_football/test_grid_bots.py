"""The grid-football bots: a legal choice in every decision (line-ups with suspended players included), the
same match from the same seed, the strong bot's football (a sure goal taken, never its own goal, the best
save square, a try at a shot on its goal, the keeper kept home) and a small strength sample. The real
strength figures (500 matches per pairing) come from bench/formats.py; MFT_SOAK=1 plays them here too."""

from __future__ import annotations

import math

import pytest
import sweep
from grid_helpers import AWAY, HOME, act, at, choices, kick_from, pending, position, turn

from games.bots import play_match
from games.grid_football.bots import POLICIES, chosen_lineup, position_after
from games.grid_football.rules import FORMAT, grid_setup, lineup_error
from games.rng import BlockRng, Rng


def short_setup(seed: int) -> object:
    """Short knock-out matches (extra time and a shoot-out come often), some players unavailable, every
    third one of the fixed-length variant (§15)."""
    unavailable = {"home": [2, 15], "away": [9]} if seed % 2 else {}
    length = {"fixed_length": True, "fixed_rolls": 12} if seed % 3 == 2 else {"normal_ones": 3}
    return grid_setup(knockout=True, extra_ones=1, shootout_kicks=2, unavailable=unavailable, **length)


@pytest.mark.parametrize("seed", range(sweep.size(ci=3, soak=40)))
def test_every_policy_chooses_a_legal_choice_in_every_decision(seed: int) -> None:
    """Every policy is asked at every decision of a seeded knock-out match (the match itself goes on by a
    policy drawn per decision): its choice is one of the decision's, a line-up one the rules accept."""
    setup = short_setup(seed)
    state = FORMAT.start(setup, Rng(seed))
    rng, walk = BlockRng(seed), Rng(seed ^ 0x5EED)
    names = sorted(POLICIES)
    asked = 0
    kinds = set()
    while pending_ := FORMAT.decisions(state):
        for d in pending_:
            kinds.add(d.kind)
            for name in names:
                choice = POLICIES[name](FORMAT, state, d, Rng(asked))
                if d.kind == "lineup":
                    side = 0 if d.side == "home" else 1
                    assert lineup_error(state, side, choice["players"]) is None, (name, choice)
                    assert choice["keeper_column"] in (5, 6) and all(c in (5, 6) for c in choice["centre"])
                else:
                    assert choice in d.choices, (name, d.kind, choice)
            asked += 1
        d = pending_[0]
        policy = POLICIES[names[walk.randbelow(len(names))]]
        FORMAT.apply(state, d.side, policy(FORMAT, state, d, walk), rng)
    assert FORMAT.result(state).winner is not None
    assert asked > 30 and {"lineup", "act", "kick"} <= kinds


def test_line_ups_leave_out_suspended_and_injured_players() -> None:
    """The cup's unavailable players (the decision's options mark them) are never named; with too few of a
    kind for 4-4-2 the bots field another formation."""
    setup = grid_setup(unavailable={"home": [1, 2, 3, 4, 8, 14, 15, 16], "away": []})
    state = FORMAT.start(setup, Rng(1))
    d = next(d for d in FORMAT.decisions(state) if d.side == "home")
    for name in ("default", "random", "easy", "strong"):
        for seed in range(5):
            choice = POLICIES[name](FORMAT, state, d, Rng(seed))
            players = choice["players"]
            assert not {1, 2, 3, 4, 8, 14, 15, 16} & set(players), (name, players)
            assert 20 in players and len(players) == 11
            assert lineup_error(state, 0, players) is None
    assert chosen_lineup(d, ((4, 4, 2),))["players"] == [5, 6, 7, 9, 10, 11, 12, 17, 18, 19, 20]


@pytest.mark.parametrize("pairing", [("strong", "easy"), ("easy", "random")])
def test_a_bot_match_replays_exactly_from_its_seed(pairing: tuple[str, str]) -> None:
    home, away = (POLICIES[n] for n in pairing)
    setup = grid_setup(normal_ones=4)
    first = play_match(FORMAT, setup, BlockRng(7), home, away)
    again = play_match(FORMAT, setup, BlockRng(7), home, away)
    assert first[1] == again[1] and FORMAT.to_dict(first[0]) == FORMAT.to_dict(again[0])
    assert FORMAT.result(first[0]) is not None and len(first[1]) > 50


def choose(name: str, state) -> dict:
    d = FORMAT.decisions(state)[0]
    return POLICIES[name](FORMAT, state, d, Rng(0))


@pytest.mark.parametrize("name", ["easy", "strong"])
def test_the_bots_walk_onto_the_ball_and_shoot_a_sure_goal(name: str) -> None:
    """Home's 9 stands next to the ball three rows from the away goal; a 6 leaves budget 6: the ball enters
    a goal square with 3 or more left, which no keeper can save (§9.4, A-74)."""
    st = position(
        {1: (5, 0), 9: (6, 12), 4: (3, 5)},
        {20: (5, 16), 3: (2, 13), 8: (9, 9)},
        ball=(6, 13),
    )
    turn(st, 6)
    assert pending(st) == ("home", "act")
    walked = choose(name, st)
    assert walked == {"kind": "ball", "player": 9, "steps": 1}
    act(st, walked)
    assert pending(st) == ("home", "kick")
    shot = choose(name, st)
    assert shot["path"].endswith("6,16"), shot
    act(st, shot)
    assert st.score == [1, 0]


@pytest.mark.parametrize("name", ["easy", "strong"])
def test_the_bots_never_kick_into_their_own_goal(name: str) -> None:
    """Away's 4 plays the ball on (7, 15), right in front of its own goal: (6, 16) is a shot at its own
    keeper (A-13) and every bot plays it away instead."""
    st = position({1: (5, 0), 9: (3, 8)}, {20: (5, 16), 4: (7, 14)}, ball=(7, 15))
    kick_from(st, AWAY, 4, 4)
    assert pending(st) == ("away", "kick")
    paths = [c["path"] for c in choices(st)]
    assert any(p.endswith("6,16") for p in paths)
    assert not choose(name, st)["path"].endswith("6,16")


def test_the_bots_save_on_the_square_with_the_best_chance() -> None:
    """Home's 9 shoots straight at (6, 16) with nothing left: away's keeper on (5, 16) has c = 3 on the goal
    square, 2 on (6, 15) and 1 on (6, 14) (§9.3); both bots dive where the chance is best."""
    st = position({1: (5, 0), 9: (6, 12)}, {20: (5, 16), 3: (2, 13)}, ball=(6, 12))
    kick_from(st, HOME, 9, 4)
    act(st, {"kind": "kick", "path": "6,13>6,14>6,15>6,16"})
    assert pending(st) == ("away", "save")
    d = FORMAT.decisions(st)[0]
    assert d.options["chances"] == {"6,16": 3, "6,15": 2, "6,14": 1}
    for name in ("easy", "strong"):
        assert POLICIES[name](FORMAT, st, d, Rng(0))["square"] == "6,16", name


def test_the_bots_try_to_intercept_a_shot_at_their_goal() -> None:
    """Away's 3 stands next to (7, 14) on the path of home's shot: a try deflects it one time in three."""
    st = position({1: (5, 0), 9: (7, 11)}, {20: (5, 16), 3: (8, 14)}, ball=(7, 11))
    kick_from(st, HOME, 9, 5)
    act(st, {"kind": "kick", "path": "7,12>7,13>7,14>7,15>6,16"})
    assert pending(st) == ("away", "intercept")
    for name in ("easy", "strong"):
        assert choose(name, st) == {"kind": "intercept", "player": 3}, name


def test_the_strong_keeper_stays_in_goal_when_the_ball_is_out_of_reach() -> None:
    """Away cannot reach the ball (eight steps from anyone); its keeper could walk out, but stays home."""
    st = position(
        {1: (5, 0), 9: (6, 3), 4: (3, 2)},
        {20: (5, 16), 3: (2, 13), 10: (9, 9)},
        ball=(6, 2),
        turn=AWAY,
    )
    turn(st, 4)
    assert pending(st) == ("away", "act")
    for name in ("easy", "strong"):
        choice = choose(name, st)
        assert choice["player"] != 20, (name, choice)


def wilson_low(wins: int, n: int, z: float = 1.96) -> float:
    if n == 0:
        return 0.0
    p = wins / n
    centre = p + z * z / (2 * n)
    spread = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - spread) / (1 + z * z / n)


def tally(a: str, b: str, n: int, setup: object) -> tuple[int, int, int, int]:
    """Wins, losses, goals for and against of ``a`` over ``n`` matches against ``b``, seats alternating."""
    wins = losses = gf = ga = 0
    for i in range(n):
        home, away = (a, b) if i % 2 == 0 else (b, a)
        state, _ = play_match(FORMAT, setup, BlockRng(1_000_000 + i), POLICIES[home], POLICIES[away])
        me = i % 2
        gf += state.score[me]
        ga += state.score[1 - me]
        if state.winner == me:
            wins += 1
        elif state.winner == 1 - me:
            losses += 1
    return wins, losses, gf, ga


# issue 25's targets, of the decided matches: strong-random 90 %, strong-easy 65 %; easy-random (no target)
TARGETS = {("strong", "random"): 0.90, ("strong", "easy"): 0.65, ("easy", "random"): 0.5}
# CI: matches and their length (counting '1's) per pairing: random loses by far, easy is the close one
CI_SAMPLE = {("strong", "random"): (4, 6), ("strong", "easy"): (6, 16), ("easy", "random"): (4, 6)}


@pytest.mark.parametrize("pairing", list(TARGETS))
def test_the_better_bot_wins_more(pairing: tuple[str, str]) -> None:
    """CI: a few matches, the better bot scores more and wins more than it loses. Soak: 500 full
    matches per pairing, the 95 % Wilson interval's lower end at the issue's target."""
    a, b = pairing
    if sweep.SOAK:
        wins, losses, gf, ga = tally(a, b, 500, grid_setup())
        assert wilson_low(wins, wins + losses) >= TARGETS[pairing], (pairing, wins, losses)
        return
    n, ones = CI_SAMPLE[pairing]
    wins, losses, gf, ga = tally(a, b, n, grid_setup(normal_ones=ones))
    assert gf > ga and wins > losses, (pairing, wins, losses, gf, ga)


def test_the_strong_bot_sees_where_a_shoulder_charge_leaves_the_players() -> None:
    """On a '1' home's 9 may charge away's 8, nearest the ball, from the west (§6.S): 8 goes one square east
    and pushes 10 behind him; the position the bot values is the one the rules make."""
    st = position(
        {1: (5, 0), 9: (5, 9), 4: (3, 4)},
        {20: (5, 16), 8: (6, 9), 10: (7, 9), 3: (2, 13)},
        ball=(6, 10),
    )
    turn(st, 1)
    assert pending(st) == ("home", "act")
    acts = list(FORMAT.legal_actions(st))
    charge = next(a for a in acts if a[0] == "charge")
    seen = position_after(st, charge)
    FORMAT.apply_action(st, charge, Rng(0))
    assert seen == st.pos
    assert at(st, HOME, 9) == "6,9" and at(st, AWAY, 8) == "7,9" and at(st, AWAY, 10) == "8,9"


def test_the_strong_bot_relays_to_a_team_mate_for_a_sure_goal() -> None:
    """Home's 9 plays from (6, 12) with 6: no single leg reaches a goal square (one curve a leg, §7.2, and
    the keeper's square is never entered); through 14 on (6, 14), whose square costs nothing (§7), the ball
    reaches (6, 16) with 3 left, which no keeper can save (A-74). Away's 3 on (2, 15) keeps 14 onside."""
    st = position({1: (5, 0), 9: (6, 12), 14: (6, 14)}, {20: (5, 16), 3: (2, 15)}, ball=(6, 12))
    kick_from(st, HOME, 9, 6)
    assert pending(st) == ("home", "kick")
    assert choose("strong", st) == {"kind": "kick", "path": "6,13>6,14"}
    act(st, choose("strong", st))
    assert pending(st) == ("home", "kick")
    shot = choose("strong", st)
    assert shot["path"].endswith(",16")
    act(st, shot)
    assert st.score == [1, 0]
