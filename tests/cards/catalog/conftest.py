"""Fixtures for the catalog tests: the real data files as mutable JSON, and a synthetic match-card file.

The error-path tests mutate a copy of the real files and load it from a temporary directory, so they run
whether or not ``cards/data/match_cards.json`` (written by the duel engine) exists, and do not depend on
its exact cards: they always use the synthetic match cards below.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cards.catalog.loader import DATA_DIR, FILES, MATCH_FILE

Docs = dict[str, Any]


def synthetic_match_cards() -> dict[str, Any]:
    """40 valid match cards: the four printed in the rulebook plus 36 simple star and moment cards."""
    cards: list[dict[str, Any]] = [
        _match(1, "Tackle", "green", "field", {"kind": "stars", "delta": 2}, seed=True),
        _match(2, "Blessure", "red", "field", {"kind": "stars", "delta": -1}, seed=True),
        _match(3, "Blinkt uit", "green", "field", {"kind": "stars", "delta": 1}, seed=True),
        _match(4, "Doelpunt afgekeurd", "red", "none", {"kind": "disallow_goal"}, seed=True),
    ]
    extra = [
        ("green", "field", {"kind": "stars", "delta": 1}),
        ("red", "field", {"kind": "stars", "delta": -2}),
        ("green", "keeper", {"kind": "set_stars", "value": 5}),
        ("red", "keeper", {"kind": "stars", "delta": -1}),
        ("green", "field", {"kind": "penalty"}),
        ("green", "field", {"kind": "corner"}),
        ("red", "none", {"kind": "cancel"}),
        ("green", "field", {"kind": "free_swap"}),
        ("red", "field", {"kind": "force_next"}),
    ]
    for n in range(5, 41):
        color, target, effect = extra[(n - 5) % len(extra)]
        cards.append(_match(n, f"Synthetic {n}", color, target, dict(effect)))
    return {"version": "2026.1", "cards": cards}


def _match(
    n: int, name: str, color: str, target: str, effect: dict[str, Any], seed: bool = False
) -> dict[str, Any]:
    return {
        "id": f"M{n:02d}",
        "name_en": name,
        "name_nl": name,
        "text_en": f"{name} (test card).",
        "text_nl": f"{name} (testkaart).",
        "color": color,
        "target": target,
        "penalty_ok": n % 2 == 0,
        "corner_ok": n % 3 == 0,
        "effect": effect,
        "seed": seed,
    }


def _real_docs() -> Docs:
    docs: Docs = {}
    for file in FILES:
        path = DATA_DIR / file
        if file == MATCH_FILE and not path.exists():
            docs[file] = synthetic_match_cards()
        else:
            docs[file] = json.loads(path.read_text(encoding="utf-8"))
    return docs


_REAL = _real_docs()


@pytest.fixture
def real_docs() -> Docs:
    """The real data files parsed (the synthetic match cards stand in while match_cards.json is absent)."""
    return copy.deepcopy(_REAL)


@pytest.fixture
def docs(real_docs: Docs) -> Docs:
    """The real data files with the synthetic match cards: what the error-path tests mutate."""
    real_docs[MATCH_FILE] = synthetic_match_cards()
    return real_docs


def write_docs(directory: Path, docs: Docs) -> Path:
    """Write parsed documents as data files into ``directory``; returns it."""
    directory.mkdir(parents=True, exist_ok=True)
    for file, doc in docs.items():
        (directory / file).write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    return directory


@pytest.fixture
def write(tmp_path: Path) -> Callable[[Docs], Path]:
    """``write(docs)`` puts the documents into a fresh temporary data directory and returns its path."""
    return lambda docs: write_docs(tmp_path / "data", docs)
