"""The chess-football bots: legal and deterministic choices, the strong bot's tactics, fair penalties and a
small strength sample. The real strength figures (500 matches per pairing) come from bench/formats.py."""

from __future__ import annotations

import itertools

import pytest
import sweep
from chess_helpers import position, sq

from games.chess_football.bots import POLICIES, best_action, penalty_value, play_match
from games.chess_football.rules import FORMAT, chess_setup, legal_moves, notation
from games.chess_football.state import PH_PENALTY, PH_PLAY
from games.rng import BlockRng, Rng


def strong_move(st) -> str:
    return notation(st, best_action(st, Rng(1)))


@pytest.mark.parametrize("seed", range(sweep.size(ci=2, soak=20)))
def test_every_policy_chooses_a_legal_choice_in_seeded_random_positions(seed: int) -> None:
    """Random knock-out matches (penalties, a shoot-out, offside, the red square) asked of every policy
    at each decision (the strong one at every sixth, it is the costly one); the match goes on randomly."""
    setup = chess_setup(knockout=True, half_moves=14, extra_time_moves=2, shootout_kicks=2)
    state = FORMAT.start(setup, Rng(seed))
    rng, walk = BlockRng(seed), Rng(seed ^ 0x5EED)
    asked = 0
    while pending := FORMAT.decisions(state):
        for d in pending:
            for name, policy in POLICIES.items():
                if name == "strong" and (asked % 6 and state.phase == PH_PLAY):
                    continue
                assert policy(FORMAT, state, d, rng) in d.choices, (name, d)
            asked += 1
        d = pending[walk.randbelow(len(pending))]
        FORMAT.apply(state, d.side, d.choices[walk.randbelow(len(d.choices))], Rng(0))
    assert FORMAT.result(state).winner is not None and asked > 50


def test_a_bot_match_replays_exactly_from_its_seed() -> None:
    setup = chess_setup(half_moves=3)
    first = play_match(FORMAT, setup, BlockRng(7), "strong", "easy")
    again = play_match(FORMAT, setup, BlockRng(7), "strong", "easy")
    assert first[1] == again[1] and FORMAT.to_dict(first[0]) == FORMAT.to_dict(again[0])
    moves = [e.data["move"] for e in first[1] if e.kind == "move"]
    assert len(moves) == 12


def test_the_strong_choice_does_not_depend_on_what_it_searched_before() -> None:
    """No memory outlives a decision (a replay starts from any point)."""
    a = FORMAT.start(chess_setup(toss="home"), Rng(3))
    b = position({"S": ["Ce7", "Lc9", "Dd11"], "N": ["Df11", "Lg9"]}, ball="e7", fresh=True)
    before = strong_move(a)
    strong_move(b)
    assert strong_move(a) == before


def test_the_strong_bot_scores_when_it_can() -> None:
    st = position({"S": ["Le11", "Cc5"], "N": ["Ke14", "Dd11", "Lc9"]}, ball="e11", fresh=True)
    assert strong_move(st) in {"e11>d14", "e11>f14"}


def test_the_strong_bot_passes_to_a_team_mate_who_can_shoot() -> None:
    """Two moves to a goal: the pass to e11 (a fresh receiver, whom no opponent may tackle, who can shoot
    at d14, e14 and f14 while the keeper covers one) and then the shot."""
    st = position({"S": ["Ce7", "Le11", "Lc5"], "N": ["Ke14", "Lg9", "Dh11"]}, ball="e7", fresh=True)
    move = strong_move(st)
    assert move == "e7>e11"
    FORMAT.apply(st, "home", {"kind": "move", "move": move}, Rng(0))
    FORMAT.apply(st, "away", FORMAT.decisions(st)[0].default, Rng(0))
    assert strong_move(st) in {"e11>d14", "e11>e14", "e11>f14"}


def test_the_strong_bot_covers_the_goal_square_a_holder_threatens() -> None:
    """North's fresh holder on d4 can shoot at d0 (four squares straight) and nowhere else; no tackle is
    possible, so South's keeper must step onto d0."""
    st = position({"S": ["Ke0", "La5", "Db3"], "N": ["Ld4", "Ce9"]}, ball="d4", fresh=True)
    assert strong_move(st) == "Ke0-d0"


def test_the_strong_bot_tackles_a_holder_who_threatens_to_score() -> None:
    st = position({"S": ["Ke0", "Lf6", "Db3"], "N": ["Ld4", "Ce9"]}, ball="d4", fresh=False)
    assert strong_move(st) == "Lf6xd4"


def test_the_strong_bot_clears_its_red_square_rather_than_concede() -> None:
    st = position({"S": ["Ke0", "Lc5", "Dd3"], "N": ["Lf4", "Ce9"]}, ball="d1", red=sq("d1"))
    move = strong_move(st)
    assert move.startswith("Ke0-d1>") and st.red == sq("d1")
    assert "concede" in {notation(st, a) for a in legal_moves(st)}


def test_uniform_aim_and_cover_are_the_penalty_equilibrium() -> None:
    """Against a uniform keeper every aim scores 2/3, against a uniform kicker every cover concedes 2/3,
    and any other keeper mix leaves an aim that scores more (so uniform is the keeper's only safe mix)."""
    third = [1 / 3] * 3
    for i in range(3):
        pure = [float(i == j) for j in range(3)]
        assert penalty_value(pure, third) == pytest.approx(2 / 3)
        assert penalty_value(third, pure) == pytest.approx(2 / 3)
    for a, b in itertools.product(range(11), repeat=2):
        if a + b > 10:
            continue
        mix = [a / 10, b / 10, (10 - a - b) / 10]
        worst = max(penalty_value([float(i == j) for j in range(3)], mix) for i in range(3))
        assert worst > 2 / 3


@pytest.mark.parametrize("policy", ["easy", "strong"])
def test_penalty_choices_are_uniform_and_never_read_the_other_side(policy: str) -> None:
    st = position({"S": ["Lc5", "Cd6"], "N": ["Ld4"]}, ball="d1", turn="home", red=sq("d1"))
    st.pos[0] = sq("f0")  # two steps from d1: concede is the only move
    FORMAT.apply(st, "home", {"kind": "move", "move": "concede"}, Rng(0))
    assert st.phase == PH_PENALTY and st.pen_side == 1
    aims, covers, takers = {}, {}, set()
    for seed in range(150):
        for d in FORMAT.decisions(st):
            choice = POLICIES[policy](FORMAT, st, d, Rng(seed))
            assert choice in d.choices
            if d.kind == "penalty":
                aims[choice["aim"]] = aims.get(choice["aim"], 0) + 1
                takers.add(choice["taker"])
            else:
                covers[choice["square"]] = covers.get(choice["square"], 0) + 1
    assert set(aims) == set(covers) == {"d0", "e0", "f0"}
    assert min(aims.values()) > 30 and min(covers.values()) > 30
    assert takers == {"L1"}  # North's only taker


def test_the_strong_kicker_picks_one_taker_by_what_follows_a_save() -> None:
    st = FORMAT.start(chess_setup(toss="home"), Rng(1))
    st.phase, st.pen_side, st.pen_choice = PH_PENALTY, 0, [None, None]
    d = next(d for d in FORMAT.decisions(st) if d.kind == "penalty")
    picked = {POLICIES["strong"](FORMAT, st, d, Rng(seed))["taker"] for seed in range(20)}
    assert len(picked) == 1 and picked <= {"C", "L1", "L2", "L3", "L4"}


def test_strong_outscores_random_and_easy_in_short_matches() -> None:
    """A smoke test of strength: short matches, seats alternating; the benchmark has the real figures."""
    n = sweep.size(ci=4, soak=40)
    for rival in ("random", "easy"):
        goals = [0, 0]
        for i in range(n):
            home, away = ("strong", rival) if i % 2 == 0 else (rival, "strong")
            state, _ = play_match(FORMAT, chess_setup(half_moves=6), BlockRng(500 + i), home, away)
            me = i % 2
            goals[0] += state.score[me]
            goals[1] += state.score[1 - me]
        assert goals[0] > goals[1], (rival, goals)
