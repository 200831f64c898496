"""Money: transfers between ledger accounts, payments that cannot be made (R10), firing, money cards (R6)."""

from __future__ import annotations

from tournament.rules.events import Ctx
from tournament.rules.state import (
    BANK,
    BONUS,
    FIRING_COMPENSATION,
    account_key,
    holding_key,
    team_key,
)


def transfer(ctx: Ctx, src: str, dst: str, amount: int, reason: str, **extra: object) -> None:
    """Move money between two accounts and record it (the service writes one ledger entry per transfer)."""
    if amount <= 0:
        return
    acc = ctx.state.accounts
    if acc[src] < amount:
        raise AssertionError(f"account {src} cannot pay {amount} (has {acc[src]})")
    acc[src] -= amount
    acc[dst] += amount
    ctx.emit("transfer", src=src, dst=dst, amount=amount, reason=reason, **extra)


def balance(ctx: Ctx, seat: int) -> int:
    """A participant's money."""
    return ctx.state.accounts[account_key(seat)]


def charge(ctx: Ctx, seat: int, amount: int, dst: str, reason: str, **extra: object) -> int:
    """Make ``seat`` pay ``amount`` to ``dst``; returns what was actually paid.

    R10: a BC who cannot pay is fired first (compensation 1,500,000 from the Bank, then he pays as a
    trainer); a trainer who cannot pay pays what he has and the rest is waived.
    """
    if amount <= 0:
        return 0
    key = account_key(seat)
    if ctx.state.accounts[key] < amount and ctx.state.seats[seat].is_bc:
        fire(ctx, seat, cause=reason)
    have = ctx.state.accounts[key]
    paid = min(have, amount)
    transfer(ctx, key, dst, paid, reason, **extra)
    if paid < amount:
        ctx.emit("payment_waived", seat=seat, amount=amount - paid, reason=reason)
    return paid


def fire(ctx: Ctx, seat: int, cause: str) -> None:
    """Fire a BC who cannot pay (phase-2 rule 7, used in every phase by R10).

    Players and match cards go back to the Official (R11: match cards to the bottom of the match stack),
    the contract is turned back (the country stays on the board, uncontracted), he receives 1,500,000
    compensation and is a trainer again.
    """
    st = ctx.state
    country = st.country_of(seat)
    transfer(ctx, BANK, account_key(seat), FIRING_COMPENSATION, "compensation")
    return_team_and_holding(ctx, seat)
    for sq in st.squares.values():
        if sq.status == "contracted" and sq.coach == seat:
            sq.status = "qualified"
            sq.coach = None
    st.seats[seat].role = "trainer"
    ctx.emit("bc_fired", seat=seat, country=country, cause=cause, compensation=FIRING_COMPENSATION)


def return_team_and_holding(ctx: Ctx, seat: int) -> None:
    """Give a coach's players and match cards back to the Official (resigning or fired)."""
    st = ctx.state
    team = st.pile(team_key(seat))
    for card in list(team):
        if ctx.cat.kind_of(card).value == "keeper":
            st.pile("box3").insert(0, card)
        else:
            st.pile("official_fields").insert(0, card)
    team.clear()
    holding = st.pile(holding_key(seat))
    for card in list(holding):
        st.pile("box2").insert(0, card)
    holding.clear()


def draw_money_card(ctx: Ctx, seat: int, depth: int = 0) -> None:
    """Take the top money card, show it to all, execute it; it goes under the stack (R6)."""
    st = ctx.state
    stack = st.pile("box4")
    if not stack:
        ctx.emit("money_stack_empty", seat=seat)
        return
    card_id = stack.pop()
    stack.insert(0, card_id)
    card = ctx.cat.money_cards[card_id]
    ctx.emit("money_card", seat=seat, card=card_id)
    execute_money_effect(ctx, seat, card.effect.kind, card.effect.params, card_id, depth)


def execute_money_effect(ctx: Ctx, seat: int, kind: str, params: dict, card_id: str, depth: int = 0) -> None:
    """Carry out one money card's effect (vocabulary in ``cards.catalog.types.MONEY_EFFECT_KINDS``)."""
    st = ctx.state
    me = account_key(seat)
    others = [s for s in st.active_seats() if s != seat]
    reason = f"money_card:{card_id}"
    if kind == "bank_pays":
        transfer(ctx, BANK, me, int(params["amount"]), reason)
    elif kind == "pay_bank":
        charge(ctx, seat, int(params["amount"]), BANK, reason)
    elif kind == "pay_bonus":
        charge(ctx, seat, int(params["amount"]), BONUS, reason)
    elif kind == "collect_from_each":
        for other in others:
            charge(ctx, other, int(params["amount"]), me, reason)
    elif kind == "pay_each":
        for other in others:
            charge(ctx, seat, int(params["amount"]), account_key(other), reason)
    elif kind == "pay_per_player":
        n = len(st.pile(team_key(seat)))
        charge(ctx, seat, n * int(params["amount"]), BANK, reason, players=n)
    elif kind == "bank_pays_per_star":
        stars = sum(ctx.cat.player(c).stars for c in st.pile(team_key(seat)))
        transfer(ctx, BANK, me, stars * int(params["amount"]), reason, stars=stars)
    elif kind == "bonus_share":
        share = st.accounts[BONUS] * int(params["percent"]) // 100 // 5_000 * 5_000
        transfer(ctx, BONUS, me, share, reason)
    elif kind == "goto":
        from tournament.rules.board import move_to_next_of_kind

        move_to_next_of_kind(ctx, seat, str(params["square"]), depth + 1)
    else:  # the catalog loader only admits known kinds
        raise AssertionError(f"unknown money effect {kind!r}")
