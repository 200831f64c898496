"""Bot strength and fairness. The full 1,000-match figures come from bench/formats.py; CI plays a smaller
sample and asserts what that sample can prove: the lower end of a 95 % Wilson interval above 50 %."""

from __future__ import annotations

import math

from dice_helpers import FMT, position
from sweep import size

from games.dice_football import bots
from games.dice_football.bots import best_action, play_match, strong_policy
from games.dice_football.rules import dice_setup
from games.dice_football.values import _normalise, key, outcomes, table
from games.rng import Rng


def wilson_low(wins: int, n: int, z: float = 1.96) -> float:
    p = wins / n
    centre = p + z * z / (2 * n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - half) / (1 + z * z / n)


def head_to_head(a: str, b: str, n: int, seed: int) -> tuple[int, int]:
    """(wins of ``a``, decided matches); seats alternate so each bot plays home and away equally."""
    wins = decided = 0
    for i in range(n):
        home, away = (a, b) if i % 2 == 0 else (b, a)
        state, _ = play_match(FMT, dice_setup(), Rng(seed + i), home, away)
        winner = FMT.result(state).winner
        if winner is not None:
            decided += 1
            wins += (winner == "home") == (i % 2 == 0)
    return wins, decided


def test_strong_beats_easy():
    wins, decided = head_to_head("strong", "easy", size(ci=160, soak=1000), 10_000)
    assert wilson_low(wins, decided) > 0.5, (wins, decided)


def test_strong_and_easy_beat_random():
    for bot in ("strong", "easy"):
        wins, decided = head_to_head(bot, "random", size(ci=40, soak=400), 20_000)
        assert wilson_low(wins, decided) > 0.6, (bot, wins, decided)


def test_the_value_table_solves_the_rules_as_they_are():
    """At every position of a few matches the stored value equals one exact backup over the engine's
    own outcomes (a changed rule or die face without ``python -m games.dice_football.values`` fails)."""
    values = table()
    checked = 0
    for seed in range(size(ci=3, soak=30)):
        rng = Rng(seed)
        state = FMT.start(dice_setup(), rng)
        while pending := FMT.decisions(state):
            model = _normalise(state)  # the table's view: no clock, no foul counts, home in possession
            k = key(model)
            side = FMT.to_act(model)
            backups = [
                sum(p * bots._value(s, side, [0, 0]) for p, s in outcomes(model, a))
                for a in FMT.legal_actions(model)
            ]
            v = values[k] if side == model.att else 1 - values[k]
            assert abs(max(backups) - v) < 1e-4, (k, backups, v)
            checked += 1
            d = pending[0]
            FMT.apply(state, d.side, bots.easy_policy(FMT, state, d, rng), rng)
    assert checked > 100


def test_bots_read_no_dice_to_come():
    """A bot's choice depends on the position only: not on the generator it is handed."""
    for pos in (position((3, 9)), position((1, 10)), position((3, 2), star=("away", "RECOVERY"))):
        d = FMT.decisions(pos)[0]
        for policy in (bots.strong_policy, bots.easy_policy, bots.default_policy):
            assert policy(FMT, pos, d, Rng(1)) == policy(FMT, pos, d, Rng(999))


def test_strong_shoots_from_the_goal_mouth_and_saves_certain_goals():
    assert best_action(position((3, 11))) == ("roll", 3, False, False)
    st = position((4, 10), star=("away", "PERFECT_SAVE"))
    FMT.apply(st, "home", {"kind": "roll", "die": "shot"}, _Fixed(2))  # UNSTOPPABLE
    assert strong_policy(FMT, st, FMT.decisions(st)[0], Rng(0)) == {"kind": "star"}


class _Fixed:
    def __init__(self, face: int) -> None:
        self.face = face

    def randbelow(self, n: int) -> int:
        return self.face


def test_strong_plays_the_last_roll_of_a_tied_knockout_match():
    """Its lookahead once followed the roll into the shoot-out and enumerated sudden death without end
    (a dice-football cup room hung): the next-goal lookahead runs on a clock that never ends."""
    import signal

    def too_long(*_):
        raise TimeoutError("the strong bot did not decide within 20 s")

    old = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(20)
    try:
        shootouts = 0
        for seed in range(8):
            state, _ = play_match(FMT, dice_setup(knockout=True, half_ticks=2), Rng(seed), "strong", "strong")
            result = FMT.result(state)
            assert result is not None and result.winner is not None  # a knock-out match always has a winner
            shootouts += result.decided_by == "penalties"
        assert shootouts  # the case that hung was met
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
