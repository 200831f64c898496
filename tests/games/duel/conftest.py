"""Pure tests of the match engine: make the project importable without the Django plugin too
(``pytest tests/games -p no:django``)."""

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parents[3])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)
