"""Default decisions: what the plain bot does, and what an expired decision timer applies (R19).

Sensible rather than clever; the stronger bot lives in ``tournament.rules.bots``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from cards.catalog import SquareKind
from tournament.rules.state import (
    BONUS,
    HOLDING_LIMIT,
    PRICE_PER_STAR,
    TEAM_FIELD_LIMIT,
    account_key,
    team_key,
)

if TYPE_CHECKING:
    from cards.catalog import Catalog
    from tournament.rules.events import Ctx

CASH_RESERVE = 300_000  # the plain bot keeps this much for fees and Debet squares

MATCH_CARD_VALUE = {
    "disallow_goal": 7,
    "penalty": 6,
    "cancel": 5,
    "set_stars": 4,
    "force_next": 4,
    "corner": 3,
    "free_swap": 2,
    "stars": 2,
}


def player_sort_key(cat: Catalog, card: str) -> tuple[int, str]:
    """Order players strongest first; ties by id so the choice is deterministic."""
    return (-cat.player(card).stars, card)


def strongest(cat: Catalog, cards: Iterable[str], n: int) -> list[str]:
    """The ``n`` strongest players."""
    return sorted(cards, key=lambda c: player_sort_key(cat, c))[:n]


def weakest_player(ctx: Ctx, cards: list[str]) -> str:
    """The weakest player of a list (the default card to give back)."""
    return sorted(cards, key=lambda c: player_sort_key(ctx.cat, c))[-1]


def match_card_value(cat: Catalog, card: str) -> int:
    """A rough worth of a match card for the plain bot."""
    mc = cat.match_cards[card]
    base = MATCH_CARD_VALUE.get(mc.effect.kind, 1)
    if mc.effect.kind == "stars":
        base += abs(int(mc.effect.params.get("delta", 1)))
    if mc.effect.kind == "set_stars":
        base += int(mc.effect.params.get("value", 0)) - 4
    return base


def weakest_match_card(ctx: Ctx, holding: list[str]) -> str:
    """The match card the plain bot discards first."""
    return sorted(holding, key=lambda c: (match_card_value(ctx.cat, c), c))[0]


def buy_default(ctx: Ctx, seat: int, card: str, price: int) -> bool:
    """Buy when the card strengthens the team and the bot keeps a cash reserve."""
    st = ctx.state
    if st.accounts[account_key(seat)] - price < CASH_RESERVE:
        return False
    team = st.pile(team_key(seat))
    stars = ctx.cat.player(card).stars
    if card[0] == "K":
        keepers = [c for c in team if c[0] == "K"]
        return not keepers or stars > ctx.cat.player(keepers[0]).stars
    field = [c for c in team if c[0] != "K"]
    if len(field) < TEAM_FIELD_LIMIT:
        # a trainer's early purchase survives becoming BC only when it is a decent player
        return stars >= 4 or st.seats[seat].is_bc
    return stars > min(ctx.cat.player(c).stars for c in field)


def contract_default(ctx: Ctx, seat: int, country: str, cost: int) -> bool:
    """Become BC whenever the entry is affordable: only BCs reach the finals."""
    return ctx.state.accounts[account_key(seat)] >= cost


def luck_default(ctx: Ctx, seat: int, squares: list[int]) -> int:
    """Where the plain bot goes from Luck."""
    st = ctx.state
    board = ctx.cat.board.squares
    money = st.accounts[account_key(seat)]
    me = st.seats[seat]
    allowed = set(squares)
    if st.accounts[BONUS] >= 400_000 and 0 in allowed:
        return 0
    if not me.is_bc:
        best: tuple[int, int] | None = None
        for idx, sq in sorted(st.squares.items()):
            if idx not in allowed or sq.status != "qualified":
                continue
            klass = ctx.cat.countries[st.on_square[idx]].klass
            cost = ctx.cat.classes[klass].entry_cost
            if cost <= money and (best is None or klass > best[0]):
                best = (klass, idx)
        if best is not None:
            return best[1]
    elif len(st.pile(f"holding:{seat}")) < HOLDING_LIMIT:
        for s in board:
            if s.kind is SquareKind.MATCH and s.index in allowed:
                return s.index
    for s in board:
        if s.kind is SquareKind.CREDIT and s.index in allowed:
            return s.index
    return squares[0]


def marker_default(ctx: Ctx, seat: int, options: list[str]) -> str:
    """Marker square: a BC takes a match card while he has room, else the best affordable buy."""
    st = ctx.state
    if "match" in options and len(st.pile(f"holding:{seat}")) < HOLDING_LIMIT:
        return "match"
    for kind, box in (("field", "box5"), ("keeper", "box7")):
        pile = st.pile(box)
        if kind in options and pile and buy_default(ctx, seat, pile[-1], _price(ctx.cat, pile[-1])):
            return kind
    return "money"


def _price(cat: Catalog, card: str) -> int:
    return cat.player(card).stars * PRICE_PER_STAR


def keep_selection_default(cat: Catalog, field: list[str], keepers: list[str]) -> dict:
    """Keep the strongest 11 field players and the strongest keeper (R9, R15 default)."""
    return {
        "field": sorted(strongest(cat, field, TEAM_FIELD_LIMIT)),
        "keeper": strongest(cat, keepers, 1)[0] if keepers else None,
    }
