"""Phase changes and the finals: phase-2 preparation (R12), settlement (R15), placement (R16), the
knock-out bracket with its match order and assistant coaches (R17), the Cup (R18)."""

from __future__ import annotations

from tournament.rules.events import Ctx
from tournament.rules.matches import choose_ac, place_marker, start_match
from tournament.rules.money import transfer
from tournament.rules.state import (
    BANK,
    BONUS,
    RIVAL_ALL_STAR_MATCH_CARDS,
    SETTLEMENT_UNIT,
    MatchRecord,
    MatchSide,
    account_key,
    holding_key,
    team_key,
)

QUARTER_FINALS = (("A", 1, 5), ("B", 2, 6), ("C", 3, 7), ("D", 4, 8))
SEMI_FINALS = (("AB", "A", "B"), ("CD", "C", "D"))
ROUND_ORDER = {"qf": 0, "sf": 1, "f": 2}


def begin_phase2(ctx: Ctx) -> None:
    """Preparation: pawn to Start, every empty country square filled (16 qualified), uncontracted
    class-3 countries eliminated with Markers in track order from Start while markers last (R12)."""
    st = ctx.state
    st.phase = "phase2"
    st.pawn = 0
    ctx.emit("phase_started", phase="phase2")
    ctx.emit("pawn_moved", seat=None, src=None, dst=0, path=[0], die=None, jump=True)
    stack = st.pile("official_countries")
    for idx in sorted(st.squares):
        sq = st.squares[idx]
        if sq.status == "empty" and stack:
            country = stack.pop()
            st.on_square[idx] = country
            sq.status = "qualified"
            ctx.emit("country_qualified", seat=None, square=idx, country=country)
    for idx in sorted(st.squares):
        sq = st.squares[idx]
        if sq.status != "qualified":
            continue
        country = st.on_square[idx]
        if ctx.cat.countries[country].klass == 3 and st.markers_placed() < len(st.markers):
            st.on_square.pop(idx)
            st.pile("out").append(country)
            ctx.emit("country_eliminated", country=country, square=idx, reason="class3")
            place_marker(ctx, idx)


def begin_phase3(ctx: Ctx) -> None:
    """Settlement: trainers are out; each BC turns every full 500,000 into a blind field player and the
    rest goes to the Bank, then trims his team (R15); the Bank closes."""
    st = ctx.state
    st.phase = "phase3"
    st.stage = "settlement"
    ctx.emit("phase_started", phase="phase3")
    for seat in st.active_seats():
        if not st.seats[seat].is_bc:
            st.seats[seat].out = True
            for key in (team_key(seat), holding_key(seat)):
                pile = st.pile(key)
                st.pile("out").extend(pile)
                pile.clear()
            transfer(ctx, account_key(seat), BANK, st.accounts[account_key(seat)], "bank_closes")
            ctx.emit("participant_out", seat=seat)
    from tournament.rules.board import draw_blind_field
    from tournament.rules.teams import receive_players

    for seat in st.active_seats():
        money = st.accounts[account_key(seat)]
        count = money // SETTLEMENT_UNIT
        cards = []
        for _ in range(count):
            card = draw_blind_field(ctx)
            if card is None:
                break
            cards.append(card)
        transfer(ctx, account_key(seat), BANK, money, "settlement", cards=len(cards))
        ctx.emit("settled", seat=seat, money=money, cards=len(cards))
        if cards:
            ctx.private(seat, "cards_dealt", seat=seat, cards=cards)
        receive_players(ctx, seat, cards, "settlement")
    transfer(ctx, BONUS, BANK, st.accounts[BONUS], "bank_closes")
    ctx.emit("bank_closed")


def _place(ctx: Ctx) -> None:
    """Placement (R16): contracted countries into finals boxes 1, 2, … in an order drawn by lot, then the
    rivals in track order from Start; the quarter-finals are scheduled."""
    st = ctx.state
    contracted = [idx for idx in sorted(st.squares) if st.squares[idx].status == "contracted"]
    ctx.rng.shuffle(contracted)
    rivals = [idx for idx in sorted(st.squares) if st.squares[idx].status == "qualified"]
    order = contracted + rivals
    for box, idx in enumerate(order, start=1):
        country = st.on_square.pop(idx)
        st.finals[box] = country
        coach = st.squares[idx].coach
        if coach is not None:
            st.finals_coaches[box] = coach
        st.squares[idx].status = "empty"
        st.squares[idx].coach = None
        ctx.emit("finals_placed", box=box, country=country, coach=coach)
    base = len(st.matches)
    for i, (slot, a, b) in enumerate(QUARTER_FINALS):
        st.matches.append(
            MatchRecord(
                number=base + i + 1,
                kind="qf",
                slot=slot,
                home=_finals_side(ctx, st.finals.get(a)),
                away=_finals_side(ctx, st.finals.get(b)),
            )
        )
    for i, (slot, _a, _b) in enumerate(SEMI_FINALS):
        st.matches.append(MatchRecord(number=base + 5 + i, kind="sf", slot=slot, home=None, away=None))
    st.matches.append(MatchRecord(number=base + 7, kind="f", slot="F", home=None, away=None))
    st.stage = "finals"


def _finals_side(ctx: Ctx, country: str | None) -> MatchSide | None:
    """A finals side: the country's BC, or a rival whose AC is chosen when the match starts."""
    if country is None:
        return None
    st = ctx.state
    box = next(b for b, c in st.finals.items() if c == country)
    coach = st.finals_coaches.get(box)
    if coach is not None:
        return MatchSide(country, coach, "bc")
    return MatchSide(country, None, "ac")


def _category(m: MatchRecord) -> int:
    """Rival vs rival first (0), BC vs rival (1), BC vs BC last (2)."""
    assert m.home is not None and m.away is not None
    return (m.home.role == "bc") + (m.away.role == "bc")


def step(ctx: Ctx) -> bool:
    """Run phase 3 forward by one step; False when nothing can happen without a decision."""
    st = ctx.state
    if st.stage == "settlement":
        _place(ctx)
        return True
    if st.stage != "finals":
        return False
    planned = [m for m in st.matches if m.status == "planned" and m.kind in ROUND_ORDER]
    ready = [m for m in planned if m.home is not None and m.away is not None]
    if not ready:
        return False
    rnd = min(ROUND_ORDER[m.kind] for m in planned)
    ready = [m for m in ready if ROUND_ORDER[m.kind] == rnd]
    if not ready:
        return False
    record = min(ready, key=lambda m: (_category(m), m.slot))
    _start_finals_match(ctx, record)
    return True


def _start_finals_match(ctx: Ctx, record: MatchRecord) -> None:
    """ACs by highest roll among BCs not playing this match, else the house bot (R17)."""
    st = ctx.state
    assert record.home is not None and record.away is not None
    playing = {s.seat for s in (record.home, record.away) if s.role == "bc" and s.seat is not None}
    rival_vs_rival = record.home.role != "bc" and record.away.role != "bc"
    for side in (record.home, record.away):
        if side.role == "bc":
            continue
        seat = choose_ac(ctx, exclude=playing, any_participant=False)
        side.seat = seat
        side.role = "ac" if seat is not None else "bot"
        if seat is not None:
            playing.add(seat)
    if rival_vs_rival:
        ac_cards = {"home": RIVAL_ALL_STAR_MATCH_CARDS, "away": RIVAL_ALL_STAR_MATCH_CARDS}
    else:
        bc = record.home if record.home.role == "bc" else record.away
        n = max(0, len(st.pile(holding_key(bc.seat))) - 1) if bc.seat is not None else 0
        ac_cards = {"home": n, "away": n}
    start_match(ctx, record, ac_cards)


def after_finals_match(ctx: Ctx, record: MatchRecord) -> None:
    """The winner goes through to the next round; the final's winner lifts the Cup (R18)."""
    st = ctx.state
    winner = record.winner_country
    assert winner is not None
    loser = record.away.country if record.winner_side == "home" else record.home.country  # type: ignore[union-attr]
    ctx.emit("knocked_out", country=loser, match=record.number)
    if record.kind == "f":
        box = next(b for b, c in st.finals.items() if c == winner)
        st.finals.pop(box)
        st.pile("cup").append(winner)
        side = record.home if record.winner_side == "home" else record.away
        assert side is not None
        # "bc", "ac", or "bot" when the house bot coached the winning rival (R17: nobody left to be AC)
        st.winner = {"country": winner, "coach": side.seat, "coach_kind": side.role}
        st.status = "finished"
        st.phase = "finished"
        st.stage = ""
        ctx.emit("cup_won", country=winner, coach=side.seat, coach_kind=st.winner["coach_kind"])
        return
    next_slot = {
        "A": ("AB", "home"),
        "B": ("AB", "away"),
        "C": ("CD", "home"),
        "D": ("CD", "away"),
        "AB": ("F", "home"),
        "CD": ("F", "away"),
    }[record.slot]
    target = next(m for m in st.matches if m.slot == next_slot[0] and m.status == "planned")
    side = _finals_side(ctx, winner)
    if next_slot[1] == "home":
        target.home = side
    else:
        target.away = side
