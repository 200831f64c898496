"""The game catalog: every card and the board, as validated data (pure, no Django)."""

from cards.catalog.loader import CatalogError, build_catalog, card_data, get_catalog, load_catalog
from cards.catalog.types import (
    MATCH_EFFECT_KINDS,
    MONEY_EFFECT_KINDS,
    Board,
    CardKind,
    Catalog,
    ClassRow,
    Color,
    Country,
    Effect,
    MatchCard,
    MoneyCard,
    PlayerCard,
    Square,
    SquareKind,
    Target,
)

__all__ = [
    "MATCH_EFFECT_KINDS",
    "MONEY_EFFECT_KINDS",
    "Board",
    "CardKind",
    "Catalog",
    "CatalogError",
    "ClassRow",
    "Color",
    "Country",
    "Effect",
    "MatchCard",
    "MoneyCard",
    "PlayerCard",
    "Square",
    "SquareKind",
    "Target",
    "build_catalog",
    "card_data",
    "get_catalog",
    "load_catalog",
]
