"""The track: moving the shared pawn and what every square does (phases 1 and 2, §3 and §5)."""

from __future__ import annotations

from typing import Any

from cards.catalog import SquareKind
from tournament.rules import policy
from tournament.rules.events import Ctx
from tournament.rules.money import balance, charge, draw_money_card, transfer
from tournament.rules.prompts import ask
from tournament.rules.state import (
    BANK,
    BONUS,
    CREDIT_PER_PIP,
    DEBET_PER_PIP,
    PRICE_PER_STAR,
    RISK_FEE,
    TRAINING_FEE,
    account_key,
)
from tournament.rules.teams import receive_match_card, receive_players

MAX_CHAIN = 8  # guard for money-card "goto" chains


def track_length(ctx: Ctx) -> int:
    """Number of squares on the track."""
    return len(ctx.cat.board.squares)


def move_pawn(ctx: Ctx, seat: int, steps: int, die: int | None = None) -> None:
    """Move the shared pawn ``steps`` squares forward; the square acts (passing Start pays nothing, R4)."""
    st = ctx.state
    n = track_length(ctx)
    start = st.pawn
    path = [(start + i) % n for i in range(1, steps + 1)]
    st.pawn = path[-1]
    ctx.emit("pawn_moved", seat=seat, src=start, dst=st.pawn, path=path, die=die)
    land(ctx, seat, st.pawn)


def move_to_next_of_kind(ctx: Ctx, seat: int, kind: str, depth: int) -> None:
    """Money card "goto": forward to the next square of a kind; it then acts (as R5)."""
    st = ctx.state
    squares = ctx.cat.board.squares
    n = len(squares)
    if depth > MAX_CHAIN:
        ctx.emit("chain_stopped", seat=seat)
        return
    for step in range(1, n + 1):
        idx = (st.pawn + step) % n
        if squares[idx].kind.value == kind:
            path = [(st.pawn + i) % n for i in range(1, step + 1)]
            src = st.pawn
            st.pawn = idx
            ctx.emit("pawn_moved", seat=seat, src=src, dst=idx, path=path, die=None)
            land(ctx, seat, idx, depth)
            return


def jump_to(ctx: Ctx, seat: int, index: int) -> None:
    """Luck: the pawn goes directly to the chosen square, which then acts (R5)."""
    st = ctx.state
    src = st.pawn
    st.pawn = index
    ctx.emit("pawn_moved", seat=seat, src=src, dst=index, path=[index], die=None, jump=True)
    land(ctx, seat, index)


def land(ctx: Ctx, seat: int, index: int, depth: int = 0) -> None:
    """The square the pawn lands on acts on the participant."""
    kind = ctx.cat.board.squares[index].kind
    ctx.emit("landed", seat=seat, square=index, square_kind=kind.value)
    handler = _HANDLERS[kind]
    handler(ctx, seat, index, depth)


# ---------------------------------------------------------------------------------------- squares


def _start(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """R4: landing exactly on Start takes the whole Bonus Fund."""
    fund = ctx.state.accounts[BONUS]
    if fund > 0:
        transfer(ctx, BONUS, account_key(seat), fund, "bonus_fund")
    else:
        ctx.emit("bonus_fund_empty", seat=seat)


def _training(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Training: pay 100,000 into the Bonus Fund."""
    charge(ctx, seat, TRAINING_FEE, BONUS, "training")


def _credit(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Credit: roll again and receive roll × 50,000 from the Bank."""
    roll = ctx.rng.d6()
    ctx.emit("second_roll", seat=seat, die=roll)
    transfer(ctx, BANK, account_key(seat), roll * CREDIT_PER_PIP, "credit")


def _debet(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Debet: roll again and pay roll × 50,000 into the Bonus Fund."""
    roll = ctx.rng.d6()
    ctx.emit("second_roll", seat=seat, die=roll)
    charge(ctx, seat, roll * DEBET_PER_PIP, BONUS, "debet")


def _field(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Field-player square: offer the face-up field player; the next card is turned up either way."""
    offer_open_card(ctx, seat, "field")


def _keeper(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Keeper square: offer the face-up keeper; the next keeper is turned up either way."""
    offer_open_card(ctx, seat, "keeper")


def _risk(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Risk: pay 400,000 to the Bank and take the top blind field-player card.

    Ruling R9c: the fee pays for the card; when no field player is left anywhere (box 1, box 5 under
    its top card, the Official's half) nothing happens.
    """
    card = draw_blind_field(ctx)
    if card is None:
        ctx.emit("field_stack_empty", seat=seat)
        return
    charge(ctx, seat, RISK_FEE, BANK, "risk")
    ctx.emit("blind_card_taken", seat=seat, source="box1")
    ctx.private(seat, "card_received", seat=seat, card=card, source="box1")
    receive_players(ctx, seat, [card], "risk")


def _luck(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Luck: go directly to any other square, which then acts (R5; another Luck square is excluded, R5a)."""
    squares = ctx.cat.board.squares
    choices = [{"square": s.index} for s in squares if s.kind is not SquareKind.LUCK]
    default = policy.luck_default(ctx, seat, [c["square"] for c in choices])
    ask(ctx, seat, "luck", choices, {"square": default})


def _match(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Match square: a BC takes a match card (holding max 5); a trainer gets nothing."""
    if not ctx.state.seats[seat].is_bc:
        ctx.emit("nothing_happens", seat=seat, reason="trainer_match_square")
        return
    take_match_card(ctx, seat)


def _money(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Money square: take a money card, show it, execute it (R6)."""
    draw_money_card(ctx, seat, depth)


def _country(ctx: Ctx, seat: int, index: int, depth: int) -> None:
    """Country square: qualify, contract, challenge, pay the visit fee, marker or money card (§3, §5)."""
    st = ctx.state
    sq = st.squares[index]
    me = st.seats[seat]
    if sq.status == "empty":
        stack = st.pile("official_countries")
        if not stack:
            ctx.emit("no_country_left", seat=seat, square=index)
            return
        country = stack.pop()
        st.on_square[index] = country
        sq.status = "qualified"
        ctx.emit("country_qualified", seat=seat, square=index, country=country)
        return
    if sq.status == "marker":
        offer_marker(ctx, seat, index)
        return
    country = st.on_square[index]
    if sq.status == "contracted":
        if sq.coach == seat:
            ctx.emit("own_country", seat=seat, country=country)
            draw_money_card(ctx, seat, depth)
            return
        fee = ctx.cat.classes[ctx.cat.countries[country].klass].visit_fee
        to_bank = st.house_rules.get("visit_fee_to", "coach") == "bank"
        dst = BANK if to_bank else account_key(sq.coach)
        charge(ctx, seat, fee, dst, "visit_fee", country=country)
        return
    # qualified, uncontracted (a rival from phase 2 on)
    if me.is_bc:
        if st.phase == "phase2":
            from tournament.rules.matches import challenge

            challenge(ctx, seat, index)
            return
        ctx.emit("already_coach", seat=seat, country=country)  # R7
        draw_money_card(ctx, seat, depth)
        return
    cost = ctx.cat.classes[ctx.cat.countries[country].klass].entry_cost
    if balance(ctx, seat) < cost:
        ctx.emit("cannot_afford", seat=seat, country=country, amount=cost)
        draw_money_card(ctx, seat, depth)
        return
    default = policy.contract_default(ctx, seat, country, cost)
    ask(
        ctx,
        seat,
        "contract",
        [{"contract": True}, {"contract": False}],
        {"contract": default},
        options={"country": country, "cost": cost, "square": index},
        context={"square": index, "country": country, "cost": cost},
    )


_HANDLERS = {
    SquareKind.START: _start,
    SquareKind.TRAINING: _training,
    SquareKind.CREDIT: _credit,
    SquareKind.DEBET: _debet,
    SquareKind.FIELD: _field,
    SquareKind.KEEPER: _keeper,
    SquareKind.RISK: _risk,
    SquareKind.LUCK: _luck,
    SquareKind.MATCH: _match,
    SquareKind.MONEY: _money,
    SquareKind.COUNTRY: _country,
}

# ---------------------------------------------------------------------------------------- cards

OPEN_BOX = {"field": "box5", "keeper": "box7"}
BLIND_BOX = {"field": "box1", "keeper": "box3"}


def open_card(ctx: Ctx, kind: str) -> str | None:
    """The face-up field player (box 5) or keeper (box 7)."""
    pile = ctx.state.pile(OPEN_BOX[kind])
    return pile[-1] if pile else None


def blind_card(ctx: Ctx, kind: str) -> str | None:
    """Take the top card of the blind stack (box 1 field players, box 3 keepers).

    Ruling R9b: an empty blind stack is refilled from its open pile (box 5 / box 7): every card under
    the face-up top card is shuffled with the game's RNG and becomes the new blind stack. Without it
    the cards turned up and never bought would be lost under the open card, and new BCs would be dealt
    short (as R11a does for match cards).
    """
    st = ctx.state
    blind = st.pile(BLIND_BOX[kind])
    if not blind:
        open_pile = st.pile(OPEN_BOX[kind])
        if len(open_pile) > 1:
            under = open_pile[:-1]
            del open_pile[:-1]
            ctx.rng.shuffle(under)
            blind.extend(under)
            ctx.emit("open_pile_reshuffled", box=BLIND_BOX[kind], source=OPEN_BOX[kind], count=len(under))
    return blind.pop() if blind else None


def turn_up_next(ctx: Ctx, kind: str) -> None:
    """Turn the next blind card face up onto the open pile ("Leg altijd de volgende kaart open")."""
    card = blind_card(ctx, kind)
    if card is None:
        ctx.emit("blind_stack_empty", box=BLIND_BOX[kind])
        return
    ctx.state.pile(OPEN_BOX[kind]).append(card)
    ctx.emit("card_turned_up", box=OPEN_BOX[kind], card=card)


def offer_open_card(ctx: Ctx, seat: int, kind: str, turn_up_after: bool = True) -> None:
    """Offer the face-up card at 100,000 per star; an optional purchase needs the money in hand (R10)."""
    card = open_card(ctx, kind)
    if card is None:
        turn_up_next(ctx, kind)
        card = open_card(ctx, kind)
        if card is None:
            return
    price = ctx.cat.player(card).stars * PRICE_PER_STAR
    if balance(ctx, seat) < price:
        ctx.emit("cannot_afford", seat=seat, card=card, amount=price)
        if turn_up_after:
            turn_up_next(ctx, kind)
        return
    default = policy.buy_default(ctx, seat, card, price)
    ask(
        ctx,
        seat,
        "buy",
        [{"buy": True}, {"buy": False}],
        {"buy": default},
        options={"card": card, "price": price, "kind": kind},
        context={"card": card, "price": price, "kind": kind, "turn_up": turn_up_after},
    )


def buy_open_card(ctx: Ctx, seat: int, kind: str, card: str, price: int) -> None:
    """Pay the Bank and take the open card (a surplus player is chosen back at once)."""
    pile = ctx.state.pile(OPEN_BOX[kind])
    pile.remove(card)
    transfer(ctx, account_key(seat), BANK, price, "purchase", card=card)
    ctx.emit("card_bought", seat=seat, card=card, price=price)
    receive_players(ctx, seat, [card], "purchase")


def draw_blind_field(ctx: Ctx) -> str | None:
    """Top card of the blind field-player stack (box 1, refilled from box 5 by R9b), falling back on
    the Official's half (R9a)."""
    card = blind_card(ctx, "field")
    if card is None:
        pile = ctx.state.pile("official_fields")
        card = pile.pop() if pile else None
    return card


def draw_match_card(ctx: Ctx) -> str | None:
    """Top of the match stack; when it is empty the used pile is shuffled into it (ruling R11a)."""
    st = ctx.state
    stack = st.pile("box2")
    if not stack:
        used = st.pile("box6")
        if not used:
            return None
        ctx.rng.shuffle(used)
        stack.extend(used)
        used.clear()
        ctx.emit("match_stack_reshuffled", count=len(stack))
    return stack.pop()


def take_match_card(ctx: Ctx, seat: int) -> None:
    """A BC takes a match card; with a sixth he discards the one he chooses (to box 6)."""
    card = draw_match_card(ctx)
    if card is None:
        ctx.emit("match_stack_empty", seat=seat)
        return
    ctx.emit("match_card_taken", seat=seat)
    ctx.private(seat, "card_received", seat=seat, card=card, source="box2")
    receive_match_card(ctx, seat, card)


def offer_marker(ctx: Ctx, seat: int, index: int) -> None:
    """Marker square (phase 2): buy the open field player or keeper, take a match card, or a money card."""
    st = ctx.state
    choices: list[dict[str, Any]] = []
    for kind in ("field", "keeper"):
        card = open_card(ctx, kind)
        if card is not None and balance(ctx, seat) >= ctx.cat.player(card).stars * PRICE_PER_STAR:
            choices.append({"take": kind})
    if st.seats[seat].is_bc:
        choices.append({"take": "match"})
    choices.append({"take": "money"})
    default = policy.marker_default(ctx, seat, [c["take"] for c in choices])
    options = {
        "field": open_card(ctx, "field"),
        "keeper": open_card(ctx, "keeper"),
        "square": index,
    }
    ask(ctx, seat, "marker", choices, {"take": default}, options=options)
