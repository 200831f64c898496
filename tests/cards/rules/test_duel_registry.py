"""The duel behind the tournament's one small interface (D7), with the real catalog, and pure."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from duel_helpers import equal_teams, match_table

from cards.catalog import get_catalog
from cards.rules.bots import play_match
from cards.rules.duel import DuelFormat
from games.api import get_format
from games.rng import Rng

ROOT = Path(__file__).resolve().parents[3]


def test_get_format_duel_plays_with_the_real_catalog():
    fmt = get_format("duel")
    assert isinstance(fmt, DuelFormat) and fmt.key == "duel"
    assert fmt.cards == get_catalog().match_cards
    state, events = play_match(fmt, equal_teams(3), Rng(3), "strong", "easy")
    result = fmt.result(state)
    assert result.winner in ("home", "away") and events[-1].kind == "match_over"


def test_the_catalog_reads_the_match_cards_exactly_as_the_engine_tests_do():
    assert get_catalog().match_cards == match_table()


def test_the_engine_and_bots_import_no_django():
    code = (
        "import sys; import cards.rules.duel, cards.rules.bots, cards.rules.duel_cards; "
        "import games.api, games.rng; "
        "bad = sorted(m for m in sys.modules if m == 'django' or m.startswith('django.')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
