"""Matches inside the tournament: challenges (§5), finals matches (§6), assistant coaches (R14, R17).

The card duel itself is a pure match format (``cards.rules``, D7); this module deals the teams and the
match cards, turns the format's decisions into prompts, and puts every card back where it belongs.
"""

from __future__ import annotations

from typing import Any

from games.api import (
    IllegalDecision,
    MalformedDecision,
    MatchError,
    MatchEvent,
    MatchResult,
    MatchSetup,
    NotYourDecision,
    TeamCard,
    TeamEntry,
    get_format,
)
from tournament.rules import policy
from tournament.rules.board import draw_match_card
from tournament.rules.errors import N_, IllegalAction, MalformedAction, RulesError
from tournament.rules.events import Ctx
from tournament.rules.money import return_team_and_holding
from tournament.rules.prompts import ask, close
from tournament.rules.state import (
    HOLDING_LIMIT,
    MatchRecord,
    MatchSide,
    Prompt,
    holding_key,
    team_key,
)
from tournament.rules.teams import return_to_official

MATCH_PROMPTS = frozenset({"lineup", "window"})  # the duel's decisions (other formats have their own kinds)


def is_match_prompt(prompt: Prompt) -> bool:
    """A prompt that mirrors a match format's decision (``sync_prompts``), whatever the format."""
    return isinstance(prompt.context.get("match"), int) and prompt.context.get("side") in ("home", "away")


RIVAL_DEAL = 11  # rival cards dealt to each rival side (practice-match style)
EXTRA_TIME_CARDS = 4  # two per side (D6 / "Verlenging")


# --------------------------------------------------------------------------- assistant coaches


def roll_off(ctx: Ctx, candidates: list[int], purpose: str) -> int | None:
    """Highest roll among ``candidates`` (ties re-roll among themselves); None when nobody is left."""
    contenders = list(candidates)
    if not contenders:
        return None
    while len(contenders) > 1:
        rolls = {s: ctx.rng.d6() for s in contenders}
        ctx.emit("ac_roll", rolls={str(k): v for k, v in rolls.items()}, purpose=purpose)
        top = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == top]
    return contenders[0]


def choose_ac(ctx: Ctx, exclude: set[int], any_participant: bool) -> int | None:
    """R14/R17: the AC is the highest roller among the BCs not playing; R14 falls back on any other
    participant; with nobody available the house bot plays the rival (None)."""
    st = ctx.state
    bcs = [s for s in st.active_seats() if s not in exclude and st.seats[s].is_bc]
    seat = roll_off(ctx, bcs, "ac")
    if seat is None and any_participant:
        others = [s for s in st.active_seats() if s not in exclude]
        seat = roll_off(ctx, others, "ac")
    return seat


# ------------------------------------------------------------------------------------- starting


def challenge(ctx: Ctx, seat: int, square: int) -> None:
    """R13: a BC landing on a rival must challenge it; an AC plays the rival (R14)."""
    st = ctx.state
    rival = st.on_square[square]
    own = st.country_of(seat)
    assert own is not None
    ac = choose_ac(ctx, exclude={seat}, any_participant=True)
    record = MatchRecord(
        number=len(st.matches) + 1,
        kind="challenge",
        slot="",
        home=MatchSide(own, seat, "bc"),
        away=MatchSide(rival, ac, "ac" if ac is not None else "bot"),
        context={"square": square, "challenger": seat},
    )
    st.matches.append(record)
    ctx.emit("challenge", seat=seat, country=own, rival=rival, square=square, ac=ac)
    start_match(ctx, record)


def _team_entry(ctx: Ctx, record: MatchRecord, side_name: str, side: MatchSide, ac_cards: int) -> TeamEntry:
    """Build one side: a BC's own team and holding, or dealt rival cards, a keeper and AC match cards."""
    st = ctx.state
    cat = ctx.cat
    ctxd = record.context.setdefault("dealt", {})
    if side.role == "bc":
        assert side.seat is not None
        team = st.pile(team_key(side.seat))
        field = [c for c in team if c[0] != "K"]
        keepers = [c for c in team if c[0] == "K"]
        keeper = keepers[0] if keepers else _lend_keeper(ctx, ctxd, side_name)
        holding = tuple(st.pile(holding_key(side.seat)))
    else:
        rivals = st.pile("official_rivals")
        ctx.rng.shuffle(rivals)
        field = [rivals.pop() for _ in range(min(RIVAL_DEAL, len(rivals)))]
        st.pile("match").extend(field)
        ctxd.setdefault(side_name, {})["rivals"] = field
        keeper = _lend_keeper(ctx, ctxd, side_name)
        cards = []
        for _ in range(ac_cards):
            card = draw_match_card(ctx)
            if card is None:
                break
            cards.append(card)
        st.pile("match").extend(cards)
        ctxd.setdefault(side_name, {})["ac_cards"] = cards
        holding = tuple(cards)
        if cards:
            ctx.emit("ac_cards_dealt", side=side_name, seat=side.seat, count=len(cards))
            ctx.private(side.seat, "cards_dealt", seat=side.seat, cards=cards)
    return TeamEntry(
        label=side.country,
        field=tuple(TeamCard(c, cat.player(c).stars) for c in field),
        keeper=TeamCard(keeper, cat.player(keeper).stars, keeper=True),
        holding=holding,
    )


def _lend_keeper(ctx: Ctx, ctxd: dict[str, Any], side_name: str) -> str:
    """A keeper from the keeper stack for a rival side (practice-match style) or a BC without one."""
    st = ctx.state
    for key in ("box3", "box7"):
        pile = st.pile(key)
        if pile:
            keeper = pile.pop()
            st.pile("match").append(keeper)
            ctxd.setdefault(side_name, {})["keeper"] = keeper
            return keeper
    raise AssertionError("no keeper left for a match")


def start_match(ctx: Ctx, record: MatchRecord, ac_cards: dict[str, int] | None = None) -> None:
    """Deal both sides, reserve the extra-time cards, start the format and open the line-up prompts.

    The format is the room's house rule (R20): the card duel, or dice football, whose match knows nothing
    of the cards dealt (they go back as unused cards, ruling R20a).
    """
    st = ctx.state
    assert record.home is not None and record.away is not None
    record.format = st.house_rules.get("match_format", "duel")
    if ac_cards is None:
        # phase 2 / BC vs rival: the AC gets one match card fewer than the BC holds (min 0)
        bc_side = record.home if record.home.role == "bc" else record.away
        n = max(0, len(st.pile(holding_key(bc_side.seat))) - 1) if bc_side.seat is not None else 0
        ac_cards = {"home": n, "away": n}
    home = _team_entry(ctx, record, "home", record.home, ac_cards["home"])
    away = _team_entry(ctx, record, "away", record.away, ac_cards["away"])
    stack = st.pile("box2")
    if len(stack) < EXTRA_TIME_CARDS and st.pile("box6"):
        used = st.pile("box6")
        ctx.rng.shuffle(used)
        stack[:0] = used
        used.clear()
        ctx.emit("match_stack_reshuffled", count=len(stack))
    extra = tuple(reversed(stack[-EXTRA_TIME_CARDS:]))
    record.context["extra_time_cards"] = list(extra)
    fmt = get_format(record.format)
    setup = MatchSetup(home=home, away=away, knockout=True, extra_time_cards=extra)
    begin = getattr(fmt, "start_with_events", None)  # dice football tells its toss and kick-off
    record.engine, start_events = (
        begin(setup, ctx.rng) if begin is not None else (fmt.start(setup, ctx.rng), [])
    )
    record.status = "playing"
    ctx.emit(
        "match_started",
        match=record.number,
        match_kind=record.kind,
        slot=record.slot,
        home=record.home.country,
        away=record.away.country,
        home_coach=record.home.seat,
        away_coach=record.away.seat,
        home_role=record.home.role,
        away_role=record.away.role,
    )
    forward_events(ctx, record, list(start_events))
    sync_prompts(ctx, record)


# ------------------------------------------------------------------------------------ decisions


def _side(record: MatchRecord, side: str) -> MatchSide:
    s = record.home if side == "home" else record.away
    assert s is not None
    return s


def sync_prompts(ctx: Ctx, record: MatchRecord) -> None:
    """Mirror the format's pending decisions as prompts; an unchanged decision keeps its prompt id."""
    st = ctx.state
    fmt = get_format(record.format)
    decisions = fmt.decisions(record.engine)
    existing = [p for p in st.prompts if p.context.get("match") == record.number]
    keep: list[Prompt] = []
    for d in decisions:
        choices = [dict(c) for c in d.choices]
        same = next(
            (
                p
                for p in existing
                if p.context["side"] == d.side
                and p.kind == d.kind
                and p.choices == choices
                and p.default == d.default
                and p.options.get("decision") == d.options
            ),
            None,
        )
        if same is not None:
            keep.append(same)
            continue
        seat = _side(record, d.side).seat
        prompt = ask(
            ctx,
            seat,
            d.kind,
            choices,
            dict(d.default),
            options={"match": record.number, "side": d.side, "decision": d.options},
            context={"match": record.number, "side": d.side},
        )
        keep.append(prompt)
    keep_ids = {p.id for p in keep}
    st.prompts = [p for p in st.prompts if p.context.get("match") != record.number or p.id in keep_ids]


def answer(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    """Apply a match decision through the format; map its errors to rules errors."""
    st = ctx.state
    record = next((m for m in st.matches if m.number == prompt.context.get("match")), None)
    if record is None or record.status != "playing":
        raise RulesError("unknown_prompt", prompt=prompt.id)
    fmt = get_format(record.format)
    try:
        events = fmt.apply(record.engine, prompt.context["side"], choice, ctx.rng)
    except MalformedDecision as exc:
        raise MalformedAction(**_detail(exc)) from exc
    except (IllegalDecision, NotYourDecision, MatchError) as exc:
        raise IllegalAction(**_detail(exc)) from exc
    close(ctx, prompt)
    forward_events(ctx, record, events)
    result = fmt.result(record.engine)
    if result is not None:
        if st.game != "magic-football":
            from tournament.rules import competition

            competition.finish_match(ctx, record, result)
        else:
            finish_match(ctx, record, result)
    else:
        sync_prompts(ctx, record)


def _detail(exc: MatchError) -> dict[str, Any]:
    """A format's refusal as a rules error's detail: the English sentence, and the msgid and its values
    from which ``tournament.messages.error_text`` words it in the reader's language."""
    return {"detail": str(exc), "detail_msgid": exc.msgid, "detail_words": exc.words}


def forward_events(ctx: Ctx, record: MatchRecord, events: list[MatchEvent]) -> None:
    """Re-emit the format's events as game events with seat audiences; in Magic Football's duels, move
    the played match cards (the cards of a duel alone, and the dice of dice football, are the match's own)."""
    st = ctx.state
    cards = st.game == "magic-football" and record.format == "duel"
    for ev in events:
        if ev.audience == "public":
            audience: tuple[int, ...] | None = None
        else:
            seat = _side(record, ev.audience).seat
            audience = (seat,) if seat is not None else ()
        ctx.emit(f"m.{ev.kind}", audience, match=record.number, **ev.data)
        if not cards:
            continue
        if ev.kind == "match_card_played":
            side = _side(record, ev.data["side"])
            card = ev.data["card"]
            if side.role == "bc" and side.seat is not None and card in st.pile(holding_key(side.seat)):
                st.pile(holding_key(side.seat)).remove(card)
                st.pile("match").append(card)
        elif ev.kind == "extra_time":
            extra = record.context.get("extra_time_cards", [])
            box2 = st.pile("box2")
            for card in extra:
                if card in box2:
                    box2.remove(card)
                    st.pile("match").append(card)


def house_bot_choice(ctx: Ctx, prompt: Prompt) -> dict[str, Any]:
    """What the house bot (a rival side nobody coaches) decides: the strong bot."""
    from tournament.rules import bots

    return bots.decide(ctx.state, prompt, "strong", ctx.cat, ctx.rng)


# -------------------------------------------------------------------------------------- results


def finish_match(ctx: Ctx, record: MatchRecord, result: MatchResult) -> None:
    """Record the result and put every card back: used and extra-time cards to box 6, rival cards and
    borrowed keepers to the Official, an AC's unused cards to his holding if he won (max 5)."""
    st = ctx.state
    record.status = "finished"
    record.score = result.score
    record.penalties = result.penalties
    record.decided_by = result.decided_by
    record.winner_side = result.winner or ""
    st.prompts = [p for p in st.prompts if p.context.get("match") != record.number]
    match_pile = st.pile("match")
    box6 = st.pile("box6")
    for side_name in ("home", "away"):
        for card in result.used.get(side_name, ()):  # type: ignore[call-overload]
            _take_from(ctx, card)
            box6.append(card)
    for card in result.extra_time_dealt:
        _take_from(ctx, card)
        box6.append(card)
    dealt = record.context.get("dealt", {})
    ac_keep: list[tuple[int, list[str]]] = []
    for side_name in ("home", "away"):
        info = dealt.get(side_name, {})
        for card in info.get("rivals", []):
            match_pile.remove(card)
            st.pile("official_rivals").append(card)
        if "keeper" in info:
            match_pile.remove(info["keeper"])
            return_to_official(ctx, info["keeper"])
        leftovers = [c for c in info.get("ac_cards", []) if c in match_pile]
        side = _side(record, side_name)
        if (
            leftovers
            and record.winner_side == side_name
            and side.seat is not None
            and st.seats[side.seat].is_bc
            and record.kind != "f"  # ruling R17a: after the final nothing is left to play for
        ):
            ac_keep.append((side.seat, leftovers))
        else:
            for card in leftovers:
                match_pile.remove(card)
                st.pile("box2").insert(0, card)
    offered = {c for _, cards in ac_keep for c in cards}
    if set(match_pile) != offered:
        raise AssertionError(f"cards left in play after match {record.number}: {match_pile}")
    ctx.emit(
        "match_over",
        match=record.number,
        match_kind=record.kind,
        home=_side(record, "home").country,
        away=_side(record, "away").country,
        score=list(result.score),
        penalties=list(result.penalties) if result.penalties else None,
        decided_by=result.decided_by,
        winner=record.winner_country,
    )
    for seat, cards in ac_keep:
        _offer_ac_keep(ctx, seat, cards, record.number)
    if record.kind == "challenge":
        _challenge_consequences(ctx, record)
    else:
        from tournament.rules.finals import after_finals_match

        after_finals_match(ctx, record)


def _take_from(ctx: Ctx, card: str) -> None:
    """Remove a match card from wherever it is during a match (the match pile, a holding or box 2)."""
    st = ctx.state
    for key in ("match", "box2", *[holding_key(s) for s in st.seats]):
        pile = st.piles.get(key)
        if pile and card in pile:
            pile.remove(card)
            return
    raise AssertionError(f"match card {card} not found")


def _offer_ac_keep(ctx: Ctx, seat: int, cards: list[str], number: int) -> None:
    """A winning AC may add his unused match cards to his own holding, up to five (§5.4)."""
    st = ctx.state
    room = HOLDING_LIMIT - len(st.pile(holding_key(seat)))
    if room >= len(cards):
        for card in cards:
            st.pile("match").remove(card)
            st.pile(holding_key(seat)).append(card)
        ctx.emit("ac_kept_cards", seat=seat, count=len(cards))
        ctx.private(seat, "cards_received", seat=seat, cards=cards)
        return
    ranked = sorted(cards, key=lambda c: (-policy.match_card_value(ctx.cat, c), c))
    default = {"keep": sorted(ranked[: max(room, 0)])}
    ask(
        ctx,
        seat,
        "ac_keep",
        [],
        default,
        options={"cards": cards, "room": max(room, 0)},
        context={"cards": cards, "match": None, "room": max(room, 0)},
    )


def on_ac_keep(ctx: Ctx, prompt: Prompt, choice: dict[str, Any]) -> None:
    """Answer to the AC's choice of which unused match cards to keep."""
    seat = prompt.seat
    assert seat is not None
    st = ctx.state
    cards = prompt.context["cards"]
    keep = choice.get("keep")
    if set(choice) != {"keep"}:
        raise MalformedAction(detail=N_('the answer is {"keep": [card ids]}'))
    if not isinstance(keep, list) or not all(isinstance(c, str) for c in keep):
        raise MalformedAction(detail=N_("keep must be a list of card ids"))
    room = HOLDING_LIMIT - len(st.pile(holding_key(seat)))
    if len(set(keep)) != len(keep) or not set(keep) <= set(cards) or len(keep) > room:
        raise IllegalAction(detail=f"keep at most {room} of the offered cards")
    for card in cards:
        st.pile("match").remove(card)
        if card in keep:
            st.pile(holding_key(seat)).append(card)
        else:
            st.pile("box2").insert(0, card)
    ctx.emit("ac_kept_cards", seat=seat, count=len(keep))


def place_marker(ctx: Ctx, square: int) -> None:
    """The Official puts his next Marker on an eliminated country's square."""
    st = ctx.state
    free = next((n for n, sq in sorted(st.markers.items()) if sq is None), None)
    if free is None:
        return
    st.markers[free] = square
    st.squares[square].status = "marker"
    st.squares[square].coach = None
    ctx.emit("marker_placed", marker=free, square=square)


def _challenge_consequences(ctx: Ctx, record: MatchRecord) -> None:
    """BC wins → the rival is out (Marker); BC loses → he resigns (country out, Marker, trainer again)."""
    st = ctx.state
    square = record.context["square"]
    challenger = record.context["challenger"]
    home = _side(record, "home")
    if record.winner_side == "home":
        rival = st.on_square.pop(square)
        st.pile("out").append(rival)
        ctx.emit("rival_eliminated", country=rival, square=square, by=challenger)
        place_marker(ctx, square)
        return
    own_square = st.square_of_country(home.country)
    assert own_square is not None
    return_team_and_holding(ctx, challenger)
    country = st.on_square.pop(own_square)
    st.pile("out").append(country)
    st.seats[challenger].role = "trainer"
    ctx.emit("bc_resigned", seat=challenger, country=country)
    place_marker(ctx, own_square)


__all__ = [
    "MATCH_PROMPTS",
    "answer",
    "challenge",
    "finish_match",
    "forward_events",
    "is_match_prompt",
    "start_match",
    "sync_prompts",
]
