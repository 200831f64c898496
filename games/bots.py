"""What the bots of every game under games/ share: playing a whole match between two policies.

Pure like the formats (no Django, no I/O): a bot match is a function of its setup and its two generators,
so it replays exactly (the policies draw only from ``bot_rng``, the format only from ``rng``).
"""

from __future__ import annotations

from typing import Any

from games.api import MatchEvent, MatchSetup, Policy, Side
from games.rng import Rng


def play_match(
    fmt: Any, setup: MatchSetup, rng: Rng, home: Policy, away: Policy, bot_rng: Rng | None = None
) -> tuple[Any, list[MatchEvent]]:
    """A whole match of ``fmt`` (a format with ``start_with_events``) through ``decisions``/``apply``; the
    final state and every event (the start's included). ``bot_rng`` feeds the policies: by default a
    generator of the rooms' kind seeded from the match's seed, never the match's own."""
    policies: dict[Side, Policy] = {"home": home, "away": away}
    brng = bot_rng if bot_rng is not None else type(rng)(rng.seed ^ 0x5EED)
    state, events = fmt.start_with_events(setup, rng)
    while pending := fmt.decisions(state):
        d = pending[0]
        events += fmt.apply(state, d.side, policies[d.side](fmt, state, d, brng), rng)
    return state, events
