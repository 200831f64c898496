"""The card duel (Magic Football's match, D1–D7) as a game of its own: the rulebook's practice match.

The engine lives in ``cards/rules/`` (``DuelFormat``, key ``"duel"``; Magic Football plays every match
with it), its bots in ``cards/rules/bots.py``. This package registers it on the platform: a room of the
duel alone deals each side 11 of the 22 rival cards and a keeper (§4, "een oefenwedstrijd"), and, as the
rulebook's last practice match does, three match cards (the ``match_cards`` option; ruling DU-1 in
docs/RULES.md). ``sentences.py`` holds its log lines, ``board.py`` with ``templates/duel/`` and
``static/duel/`` its board. Nothing here imports Django.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from cards.catalog import get_catalog
from cards.rules import bots
from cards.rules.duel import FORMAT, DuelState, practice_setup
from games.api import N_, SIDES, Game, MatchEvent, MatchSetup, Option, Side, TeamCard, register_game
from games.duel import board, sentences
from games.rng import Rng

EXTRA_TIME_CARDS = 4  # a knock-out match needs two match cards per side for extra time (D6)

OPTIONS = (
    Option(
        "match_cards",
        N_("Match cards"),
        (
            (3, N_("Three each, as in the rulebook's last practice match")),
            (0, N_("None: players only, as in the first practice match")),
        ),
    ),
)


def room_setup(labels: tuple[str, str], knockout: bool, options: Mapping[str, Any], rng: Rng) -> MatchSetup:
    """A practice match: the 22 rival cards shuffled and dealt 11 a side, a keeper each from the shuffled
    keeper stack, ``match_cards`` match cards each from the shuffled match-card stack (and, in a cup,
    four more for extra time)."""
    cat = get_catalog()
    keepers = list(cat.keepers)
    rng.shuffle(keepers)
    stack = list(cat.match_cards)
    rng.shuffle(stack)
    n = int(options.get("match_cards", 3))
    rivals = [TeamCard(c, cat.player(c).stars) for c in cat.rivals]
    two_keepers = [TeamCard(k, cat.player(k).stars, keeper=True) for k in keepers[:2]]
    setup, _keepers = practice_setup(
        rivals, two_keepers, rng, (tuple(stack[:n]), tuple(stack[n : 2 * n])), labels
    )
    if knockout:
        setup = replace(setup, knockout=True, extra_time_cards=tuple(stack[2 * n : 2 * n + EXTRA_TIME_CARDS]))
    return setup


def private(state: DuelState, side: Side) -> frozenset[str]:
    """What a side keeps to itself until the duel shows it: its players (stack, reserve, keeper) and the
    match cards in its hand."""
    s = SIDES.index(side)
    return frozenset(state.ids[s]) | frozenset(state.holding[s]) | frozenset(state.et_hold[s])


_SHOWN = {  # the event fields that put a card on the table for everyone
    "card_revealed": ("card",),
    "swap": ("in", "out"),
    "penalty_moment": ("card", "keeper"),
    "corner_moment": ("card", "against"),
    "match_card_played": ("card",),
    "card_cancelled": ("card", "by"),
    "goal": ("card",),
    "shootout_kick": ("card",),
}


def reveals(event: MatchEvent) -> Iterable[str]:
    """The cards a public event shows."""
    if event.audience != "public":
        return ()
    shown = [event.data.get(key) for key in _SHOWN.get(event.kind, ())]
    target = event.data.get("target")
    if event.kind == "match_card_played" and isinstance(target, dict):
        shown.append(target.get("card"))
    return [c for c in shown if isinstance(c, str)]


GAME = register_game(
    Game(
        key=FORMAT.key,
        title=N_("Card duel"),
        summary=N_("Magic Football's duel on its own: the rulebook's practice match with the rival cards."),
        format=FORMAT,
        policies=bots.POLICIES,
        room_setup=room_setup,
        line=sentences.line,
        private=private,
        reveals=reveals,
        options=OPTIONS,
        board="duel/board.html",
        board_context=board.board_context,
        board_assets=("js/boardkit.js", "duel/board.css", "duel/board.js"),
    )
)
