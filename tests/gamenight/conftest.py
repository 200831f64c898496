"""Fixtures of the game-night tests (helpers in nightkit.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fresh_timelines() -> Iterator[None]:
    """Rolled-back test databases reuse game ids and codes never: still, start every test cold."""
    from tournament.services.timeline import timelines

    timelines.clear()
    yield
    timelines.clear()
