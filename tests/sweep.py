"""How big the long sweeps are: a CI-sized sample by default, the full sweep under ``make soak``.

A sweep (seeded tournaments checked action by action, Hypothesis examples of whole games) proves more
the more it covers, but CI must stay under 15 minutes on two cores. Each sweep names both sizes at its
definition, ``size(ci=12, soak=100)``; ``MFT_SOAK=1`` (what ``make soak`` sets) selects the full one.
The CI sample of every sweep was checked to catch the bugs the full sweep found so far
(docs/RELIABILITY.md, "The CI sample and the soak").

Hypothesis reads its profile from here too (tests/conftest.py loads it): ``ci`` is derandomized, so a
CI run tries the same examples every time (a failure is reproducible, never a flaky discovery), and
``soak`` explores with fresh random examples, ten times as many.
"""

from __future__ import annotations

import os

SOAK = os.environ.get("MFT_SOAK", "").strip().lower() in {"1", "true", "yes", "on"}
PROFILE = "soak" if SOAK else "ci"
SOAK_FACTOR = 10  # Hypothesis examples: soak runs this many times the CI count


def size(*, ci: int, soak: int) -> int:
    """The sweep's size for this run: ``soak`` under ``make soak``, else ``ci``."""
    return soak if SOAK else ci


def examples(ci: int) -> int:
    """Hypothesis ``max_examples`` for a test whose examples are costly (a whole game each): ``ci`` in CI,
    ``SOAK_FACTOR`` times as many in the soak. Cheap tests take the profile's default instead."""
    return ci * SOAK_FACTOR if SOAK else ci


QUICK_CHOICES = ("short",)  # an option value that plays a game's matches shorter (chess football's length)


def quick_options(game: str) -> dict[str, object]:
    """A game's room options for a CI-sized sweep over whole competitions: the short match length where the
    game offers one (chess football's halves of 10 moves, CF-10), the rules' full length under the soak.
    The full length itself is tested by each game's own room tests."""
    if SOAK:
        return {}
    from games.api import get_game

    return {
        option.key: value
        for option in get_game(game).options
        for value, _label in option.choices
        if value in QUICK_CHOICES
    }
