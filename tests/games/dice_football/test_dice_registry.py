"""Dice football is a registered match format beside the duel, and imports no Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from games.api import MatchSetup, get_format
from games.dice_football.rules import DiceFootballFormat, dice_setup

ROOT = Path(__file__).resolve().parents[3]


def test_get_format_finds_dice_football_and_still_the_duel():
    fmt = get_format("dice-football")
    assert isinstance(fmt, DiceFootballFormat) and fmt.key == "dice-football"
    assert get_format("duel").key == "duel"


def test_match_setup_options_default_to_empty():
    setup = dice_setup()
    assert isinstance(setup, MatchSetup) and dict(setup.options) == {}
    assert MatchSetup(home=setup.home, away=setup.away, knockout=False).options == {}
    assert hash(dice_setup(boskov=True)) == hash(dice_setup(boskov=False))  # still hashable, options aside


def test_knockout_timing_and_options():
    from games.rng import Rng

    fmt = get_format("dice-football")
    assert fmt.start(dice_setup(), Rng(1)).half_ticks == 60
    assert fmt.start(dice_setup(knockout=True), Rng(1)).half_ticks == 40  # 5 + 5 minutes (§13)
    st = fmt.start(dice_setup(knockout=True, half_ticks=7, extra_time_ticks=3, boskov=True), Rng(1))
    assert (st.half_ticks, st.extra_ticks, st.boskov) == (7, 3, True)


def test_the_dice_football_package_imports_no_django():
    code = (
        "import sys; import games.dice_football.rules, games.dice_football.bots, games.dice_football.view, "
        "games.dice_football.sentences, games.dice_football.values, games.api; "
        "games.api.get_format('dice-football'); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'tournament', 'cards')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
