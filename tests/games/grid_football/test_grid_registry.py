"""The engine is pure (no Django, no platform code) and registers its format on import; the package registers
the game (its board, sentences and line-up secrecy) and still imports nothing of Django."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_the_grid_football_package_imports_no_django_and_is_a_game() -> None:
    code = (
        "import sys; import games.grid_football, games.grid_football.bots, "
        "games.grid_football.competition, games.api as api; "
        "assert api.get_format('grid-football').key == 'grid-football'; "
        "assert 'grid-football' in api.game_keys() and api.get_game('grid-football').board; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('django', 'tournament', 'cards')); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
