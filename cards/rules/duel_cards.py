"""Match cards as the duel engine reads them: one small tuple per card, checked once.

Why a compiled form: legality is evaluated after every reveal for both sides, so the hot path reads
plain tuples of ints instead of enums and nested dicts. The catalog (``cards.catalog.types.MatchCard``)
stays the source of truth; this module only translates it and refuses combinations the engine cannot
play (digest §4 D4/D5, docs/RULES.md "Match cards").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from cards.catalog.types import Color, MatchCard, Target

# Effect kinds (cards.catalog.types.MATCH_EFFECT_KINDS) as small ints.
E_STARS = 0
E_SET = 1
E_DISALLOW = 2
E_PENALTY = 3
E_CORNER = 4
E_CANCEL = 5
E_FREE_SWAP = 6
E_FORCE_NEXT = 7

EFFECT_CODES: dict[str, int] = {
    "stars": E_STARS,
    "set_stars": E_SET,
    "disallow_goal": E_DISALLOW,
    "penalty": E_PENALTY,
    "corner": E_CORNER,
    "cancel": E_CANCEL,
    "free_swap": E_FREE_SWAP,
    "force_next": E_FORCE_NEXT,
}
EFFECT_NAMES: dict[int, str] = {v: k for k, v in EFFECT_CODES.items()}

# Targets as small ints.
T_FIELD = 0
T_KEEPER = 1
T_NONE = 2

MAX_STARS = 7  # D4: stars are capped at 7 ...
MIN_STARS = 0  # ... and floored at 0


class CardRule(NamedTuple):
    """What the engine needs to know about one match card."""

    green: bool
    target: int  # T_FIELD | T_KEEPER | T_NONE
    penalty_ok: bool
    corner_ok: bool
    kind: int  # E_*
    value: int  # delta for E_STARS, value for E_SET, else 0


# Which colour and target each kind must have (a card that breaks this cannot be placed, D4).
_SHAPES: dict[int, tuple[bool | None, tuple[int, ...]]] = {
    E_STARS: (None, (T_FIELD, T_KEEPER)),
    E_SET: (None, (T_FIELD, T_KEEPER)),
    E_DISALLOW: (False, (T_NONE,)),
    E_PENALTY: (True, (T_FIELD,)),
    E_CORNER: (True, (T_FIELD,)),
    E_CANCEL: (None, (T_NONE,)),
    E_FREE_SWAP: (True, (T_FIELD,)),
    E_FORCE_NEXT: (False, (T_FIELD,)),
}


def compile_card(card: MatchCard) -> CardRule:
    """Translate one catalog card; raises ``ValueError`` naming the card when it is not playable."""
    kind = EFFECT_CODES.get(card.effect.kind)
    if kind is None:
        raise ValueError(f"match card {card.id}: unknown effect kind {card.effect.kind!r}")
    green = card.color == Color.GREEN
    target = {Target.FIELD: T_FIELD, Target.KEEPER: T_KEEPER, Target.NONE: T_NONE}[Target(card.target)]
    colour_needed, targets = _SHAPES[kind]
    if colour_needed is not None and colour_needed != green:
        colour = "green" if colour_needed else "red"
        raise ValueError(f"match card {card.id}: effect {card.effect.kind} must be {colour}")
    if target not in targets:
        raise ValueError(f"match card {card.id}: effect {card.effect.kind} cannot target {card.target}")
    value = 0
    if kind == E_STARS:
        value = card.effect.params.get("delta")
        if not isinstance(value, int) or value == 0:
            raise ValueError(f"match card {card.id}: stars needs a non-zero integer 'delta'")
        if (value > 0) != green:
            raise ValueError(f"match card {card.id}: green cards add stars, red cards take them away")
    elif kind == E_SET:
        value = card.effect.params.get("value")
        if not isinstance(value, int) or not MIN_STARS <= value <= MAX_STARS:
            raise ValueError(f"match card {card.id}: set_stars needs an integer 'value' in 0..7")
    return CardRule(green, target, bool(card.penalty_ok), bool(card.corner_ok), kind, value)


def compile_table(cards: Mapping[str, MatchCard]) -> dict[str, CardRule]:
    """Compile the whole match-card table (id -> rule)."""
    return {card_id: compile_card(card) for card_id, card in cards.items()}


def apply_mods(base: int, mods: list[list]) -> int:
    """Effective stars of a card: its modifiers in the order placed, capped and floored at each step.

    Each modifier is ``[serial, card_id, is_set, value]``. Clamping at each step follows the printed
    "tot maximaal 7 sterren": a 6★ player with Tackle (+2) counts 7, and a later Blessure (−1) makes 6.

    >>> apply_mods(6, [[0, "M01", 0, 2], [1, "M02", 0, -1]])
    6
    """
    v = base
    for m in mods:
        v = m[3] if m[2] else v + m[3]
        if v > MAX_STARS:
            v = MAX_STARS
        elif v < MIN_STARS:
            v = MIN_STARS
    return v
