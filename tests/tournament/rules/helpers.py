"""Helpers for the pure tournament-rules tests: build games, put them in a chosen position, answer
prompts, play random or default decisions, and compare whole states.

Everything here goes through the real rules (``setup.new_game``, ``engine.apply_action``,
``board.land``); the positioning helpers only move cards and money the way the Official or the Bank
would, so every state they build still passes ``invariants.check``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from cards.catalog import Catalog, SquareKind, get_catalog
from games.api import get_format
from tournament.rules import board, invariants
from tournament.rules.engine import advance, apply_action
from tournament.rules.errors import RulesError
from tournament.rules.events import Actor, Ctx, Ev
from tournament.rules.setup import new_game
from tournament.rules.state import (
    BANK,
    BONUS,
    GameState,
    Prompt,
    account_key,
    holding_key,
    selection_key,
    team_key,
)

CAT: Catalog = get_catalog()
HOST = Actor("host")
SYSTEM = Actor("system")
GUEST = Actor("guest")
NAMES = ("Anna", "Ben", "Cas", "Dirk", "Eva", "Fleur", "Gijs", "Hanna")


def seat(n: int) -> Actor:
    """The actor of seat ``n``."""
    return Actor("seat", n)


# ------------------------------------------------------------------------------------ building


def lobby(seats: int = 4, seed: int = 1, cat: Catalog = CAT, **house_rules: Any) -> GameState:
    """A lobby with ``seats`` humans (Anna, Ben, …) joined through the real join action."""
    st = new_game(seed, house_rules={"seats": 8, **house_rules})
    for i in range(seats):
        st, _ = apply_action(st, GUEST, {"type": "join", "nickname": NAMES[i]}, cat)
    return st


def started(
    seats: int = 4,
    seed: int = 1,
    cat: Catalog = CAT,
    mode: str = "world_cup",
    pre_qualified: str = "",
    **house_rules: Any,
) -> GameState:
    """A game just started by the host: phase 1, the first roll prompt open."""
    st = lobby(seats, seed, cat, **house_rules)
    st.mode = mode
    st.pre_qualified = pre_qualified
    st, _ = apply_action(st, HOST, {"type": "start"}, cat)
    return st


def act(
    st: GameState, actor: Actor, action: dict[str, Any], cat: Catalog = CAT
) -> tuple[GameState, list[Ev]]:
    """``apply_action`` that also checks the invariants of the result."""
    new, events = apply_action(st, actor, action, cat)
    assert_sound(new, cat)
    return new, events


def assert_sound(st: GameState, cat: Catalog = CAT) -> None:
    """Fail with the list of broken invariants, if any."""
    problems = invariants.check(st, cat)
    assert not problems, problems


# ------------------------------------------------------------------------------------ prompts


def only_prompt(st: GameState, kind: str | None = None, seat_no: int | None = None) -> Prompt:
    """The one open prompt (of ``kind`` / for ``seat_no``); fails when there is not exactly one."""
    found = [
        p for p in st.prompts if (kind is None or p.kind == kind) and (seat_no is None or p.seat == seat_no)
    ]
    assert len(found) == 1, [(p.kind, p.seat) for p in st.prompts]
    return found[0]


def answer(
    st: GameState,
    kind: str | None = None,
    choice: dict[str, Any] | None = None,
    seat_no: int | None = None,
    cat: Catalog = CAT,
) -> tuple[GameState, list[Ev]]:
    """Answer the one open prompt (of ``kind``) with ``choice`` (default: the prompt's default)."""
    p = only_prompt(st, kind, seat_no)
    assert p.seat is not None
    return act(st, seat(p.seat), {"type": "answer", "prompt": p.id, "choice": choice or p.default}, cat)


def roll(st: GameState, cat: Catalog = CAT) -> tuple[GameState, list[Ev]]:
    """The active participant rolls."""
    p = only_prompt(st, "roll")
    assert p.seat is not None
    return act(st, seat(p.seat), {"type": "roll"}, cat)


def random_answer(p: Prompt, rnd: random.Random) -> dict[str, Any]:
    """A uniformly random legal answer: one of the listed choices, or a random legal open-ended one."""
    if p.kind == "keep_selection":
        pool = list(p.options["field"])
        rnd.shuffle(pool)
        keepers = p.options["keepers"]
        return {"field": pool[: p.options["keep_field"]], "keeper": rnd.choice(keepers) if keepers else None}
    if p.kind == "ac_keep":
        cards = list(p.options["cards"])
        rnd.shuffle(cards)
        return {"keep": cards[: rnd.randint(0, p.options["room"])]}
    if p.kind == "lineup":
        decision = p.options["decision"]
        ids = [c["id"] for c in decision["field"]]
        rnd.shuffle(ids)
        if decision["reserve_required"]:
            return {"kind": "lineup", "order": ids[:-1], "reserve": ids[-1]}
        return {"kind": "lineup", "order": ids, "reserve": None}
    return rnd.choice(p.choices)


@dataclass
class PlayLog:
    """What a played game went through (for reporting and assertions)."""

    actions: int = 0
    phases: list[str] = field(default_factory=list)
    kinds: dict[str, int] = field(default_factory=dict)
    capped: bool = False


def play(
    st: GameState,
    rnd: random.Random,
    *,
    p_default: float = 0.0,
    until_phase: str | None = None,
    max_actions: int = 50_000,
    max_phase1_turns: int | None = None,
    check: bool = True,
    cat: Catalog = CAT,
) -> tuple[GameState, PlayLog]:
    """Answer open prompts (a random one of them) until the game ends or reaches ``until_phase``.

    Each answer is the prompt's default with probability ``p_default``, else a random legal answer.
    The invariants are checked after every action when ``check`` is set.
    """
    log = PlayLog(phases=[st.phase])
    while st.status == "running" and st.phase != until_phase:
        if log.actions >= max_actions or (
            max_phase1_turns is not None
            and st.phase == "phase1"
            and st.turns.get("phase1", 0) >= max_phase1_turns
        ):
            log.capped = True
            break
        p = rnd.choice(st.prompts)
        choice = p.default if rnd.random() < p_default else random_answer(p, rnd)
        assert p.seat is not None
        st, _ = apply_action(st, seat(p.seat), {"type": "answer", "prompt": p.id, "choice": choice}, cat)
        if check:
            assert_sound(st, cat)
        log.actions += 1
        log.kinds[p.kind] = log.kinds.get(p.kind, 0) + 1
        if st.phase != log.phases[-1]:
            log.phases.append(st.phase)
    return st, log


def play_defaults(
    st: GameState, until_phase: str | None = None, max_actions: int = 50_000, cat: Catalog = CAT
) -> GameState:
    """Answer the first open prompt with its default until the game ends or reaches ``until_phase``."""
    n = 0
    while st.status == "running" and st.phase != until_phase and n < max_actions:
        p = st.prompts[0]
        assert p.seat is not None
        st, _ = apply_action(st, seat(p.seat), {"type": "answer", "prompt": p.id, "choice": p.default}, cat)
        n += 1
    return st


# ------------------------------------------------------------------------------------ positions


def square(kind: str, nth: int = 0, cat: Catalog = CAT) -> int:
    """Track index of the ``nth`` square of a kind."""
    return [s.index for s in cat.board.squares if s.kind is SquareKind(kind)][nth]


def where(st: GameState, card: str) -> str:
    """The pile key (or ``square:<i>`` / ``finals:<box>``) a card lies in."""
    for key, pile in st.piles.items():
        if card in pile:
            return key
    for idx, c in st.on_square.items():
        if c == card:
            return f"square:{idx}"
    for box, c in st.finals.items():
        if c == card:
            return f"finals:{box}"
    raise AssertionError(f"{card} is nowhere")


def move_card(st: GameState, card: str, dest: str, bottom: bool = False) -> None:
    """The Official moves one card to the top (or bottom) of a pile."""
    src = where(st, card)
    assert not src.startswith(("square:", "finals:")), src
    st.piles[src].remove(card)
    if bottom:
        st.pile(dest).insert(0, card)
    else:
        st.pile(dest).append(card)


def on_top(st: GameState, card: str, pile: str) -> None:
    """Put ``card`` on top of ``pile`` (taken from wherever it lies in the piles)."""
    move_card(st, card, pile)


def set_money(st: GameState, seat_no: int, amount: int) -> None:
    """The Bank sets a participant's balance (money stays conserved)."""
    key = account_key(seat_no)
    st.accounts[BANK] += st.accounts[key] - amount
    st.accounts[key] = amount


def set_bonus(st: GameState, amount: int) -> None:
    """Fill (or empty) the Bonus Fund from the Bank."""
    st.accounts[BANK] += st.accounts[BONUS] - amount
    st.accounts[BONUS] = amount


def fields_by_stars(stars: int, cat: Catalog = CAT) -> list[str]:
    """Field-player ids with this many stars."""
    return [c for c, p in cat.field_players.items() if p.stars == stars]


def keepers_by_stars(stars: int, cat: Catalog = CAT) -> list[str]:
    """Keeper ids with this many stars."""
    return [c for c, p in cat.keepers.items() if p.stars == stars]


def countries_of_class(klass: int, cat: Catalog = CAT, european: bool | None = None) -> list[str]:
    """Country ids of a class."""
    return [
        c
        for c, k in cat.countries.items()
        if k.klass == klass and (european is None or k.european == european)
    ]


def qualify(st: GameState, idx: int, country: str) -> None:
    """The Official places a country card on an empty country square (it is qualified)."""
    assert st.squares[idx].status == "empty"
    where_now = where(st, country)
    st.piles[where_now].remove(country)
    st.on_square[idx] = country
    st.squares[idx].status = "qualified"


def make_bc(
    st: GameState,
    seat_no: int,
    idx: int,
    country: str,
    field_cards: Iterable[str] | None = None,
    keeper: str | None = None,
    match_cards: Iterable[str] = (),
) -> None:
    """Make a participant the BC of ``country`` on square ``idx`` with the given team (default: the
    11 strongest field players still with the Official and the best keeper in box 3)."""
    if st.squares[idx].status == "empty":
        qualify(st, idx, country)
    assert st.on_square[idx] == country
    st.squares[idx].status = "contracted"
    st.squares[idx].coach = seat_no
    st.seats[seat_no].role = "bc"
    if field_cards is None:
        pool = st.pile("official_fields") + st.pile("box1")
        field_cards = sorted(pool, key=lambda c: (-CAT.player(c).stars, c))[:11]
    for card in field_cards:
        move_card(st, card, team_key(seat_no))
    if keeper is None and not any(c[0] == "K" for c in st.pile(team_key(seat_no))):
        keeper = sorted(st.pile("box3"), key=lambda c: (-CAT.player(c).stars, c))[0]
    if keeper is not None:
        move_card(st, keeper, team_key(seat_no))
    for card in match_cards:
        move_card(st, card, holding_key(seat_no))


def make_trainer_team(st: GameState, seat_no: int, cards: Iterable[str]) -> None:
    """Give a trainer some player cards (as if bought earlier)."""
    for card in cards:
        move_card(st, card, team_key(seat_no))


def turn_to(st: GameState, seat_no: int) -> None:
    """Make it ``seat_no``'s turn with his roll prompt open (as at the start of any turn)."""
    st.turn = st.turn_order.index(seat_no)
    st.prompts = []
    st.stage = "await_roll"
    ctx = Ctx(st, CAT, HOST)
    advance(ctx)
    ctx.sync_rng()


def land_on(
    st: GameState, seat_no: int, index: int, cat: Catalog = CAT, rng_counter: int | None = None
) -> tuple[GameState, list[Ev]]:
    """``seat_no`` lands on square ``index`` (as after his roll); the game then runs on as after any
    action (the turn ends when the square has finished acting). Works on a copy."""
    new = st.clone()
    new.turn = new.turn_order.index(seat_no)
    new.prompts = [p for p in new.prompts if p.kind != "roll"]
    assert not new.prompts, new.prompts
    new.stage = "resolving"
    new.pawn = index
    if rng_counter is not None:
        new.rng_counter = rng_counter
    ctx = Ctx(new, cat, seat(seat_no))
    board.land(ctx, seat_no, index)
    advance(ctx)
    ctx.sync_rng()
    assert_sound(new, cat)
    return new, ctx.events


def kinds(events: Iterable[Ev]) -> list[str]:
    """Event kinds in order."""
    return [e.kind for e in events]


def of_kind(events: Iterable[Ev], kind: str) -> list[Ev]:
    """Events of one kind."""
    return [e for e in events if e.kind == kind]


def transfers(events: Iterable[Ev]) -> list[tuple[str, str, int, str]]:
    """Every money move as (from, to, amount, reason)."""
    return [
        (e.payload["src"], e.payload["dst"], e.payload["amount"], e.payload["reason"])
        for e in events
        if e.kind == "transfer"
    ]


def money(st: GameState, seat_no: int) -> int:
    """A participant's balance."""
    return st.accounts[account_key(seat_no)]


def team(st: GameState, seat_no: int) -> list[str]:
    """A participant's team pile."""
    return list(st.piles.get(team_key(seat_no), []))


def holding(st: GameState, seat_no: int) -> list[str]:
    """A participant's match cards."""
    return list(st.piles.get(holding_key(seat_no), []))


def selection(st: GameState, seat_no: int) -> list[str]:
    """Cards in a participant's hand while he chooses."""
    return list(st.piles.get(selection_key(seat_no), []))


# ------------------------------------------------------------------------------------ comparing


def dump(st: GameState) -> dict[str, Any]:
    """A deep, comparable copy of the whole state (match engines through their format's ``to_dict``)."""
    data = {
        name: copy.deepcopy(getattr(st, name)) for name in GameState.__dataclass_fields__ if name != "matches"
    }
    data["seats"] = {
        k: (v.seat, v.nickname, v.bot, v.host, v.role, v.out, v.takeover) for k, v in st.seats.items()
    }
    data["squares"] = {k: (v.status, v.coach) for k, v in st.squares.items()}
    data["prompts"] = [(p.id, p.seat, p.kind, p.choices, p.default, p.options, p.context) for p in st.prompts]
    data["matches"] = [
        (
            m.number,
            m.kind,
            m.slot,
            m.home,
            m.away,
            m.status,
            m.score,
            m.penalties,
            m.decided_by,
            m.winner_side,
            get_format(m.format).to_dict(m.engine) if m.engine is not None else None,
            copy.deepcopy(m.context),
        )
        for m in st.matches
    ]
    return data


def refused(st: GameState, actor: Actor, action: Any, cat: Catalog = CAT) -> RulesError:
    """Apply an action that must be refused; check the state passed in is unchanged; return the error."""
    before = dump(st)
    try:
        apply_action(st, actor, action, cat)
    except RulesError as exc:
        assert dump(st) == before, "a refused action changed the state"
        assert exc.code and str(exc)
        return exc
    raise AssertionError(f"{action!r} by {actor.label} was accepted")


# ------------------------------------------------------------------------------------ catalogs


def catalog_with_classes(changes: dict[str, int], cat: Catalog = CAT) -> Catalog:
    """A copy of the catalog in which some countries have another class (for rare set-ups like R12's
    'more than eight class-3 countries')."""
    countries = dict(cat.countries)
    for cid, klass in changes.items():
        countries[cid] = replace(countries[cid], klass=klass)
    return replace(cat, countries=countries)


def after_phase1(seats: int = 4, seed: int = 1, cat: Catalog = CAT) -> GameState:
    """A game played on defaults to the start of phase 2."""
    st = started(seats, seed, cat)
    return play_defaults(st, until_phase="phase2", cat=cat)


# ------------------------------------------------------------------------------------ phase 2 / 3


def phase2(
    seats: int = 4,
    seed: int = 1,
    bcs: Iterable[int] | None = None,
    countries: Iterable[str] | None = None,
    cat: Catalog = CAT,
) -> GameState:
    """A game put into phase 2 (preparation done, R12) with ``bcs`` as BCs of ``countries`` (default:
    every seat, class 6/5/4 countries) on the first country squares; the others are trainers."""
    from tournament.rules import finals

    st = started(seats, seed, cat)
    bc_seats = list(range(1, seats + 1) if bcs is None else bcs)
    chosen = (
        list(countries)
        if countries is not None
        else [
            c
            for c in sorted(cat.countries, key=lambda c: (-cat.countries[c].klass, c))
            if cat.countries[c].klass < 7
        ]
    )
    squares = cat.board.country_squares
    for i, s in enumerate(bc_seats):
        make_bc(st, s, squares[i], chosen[i])
    ctx = Ctx(st, cat, HOST)
    finals.begin_phase2(ctx)
    ctx.sync_rng()
    turn_to(st, bc_seats[0] if bc_seats else 1)
    assert_sound(st, cat)
    return st


def rivals(st: GameState) -> list[int]:
    """Squares with a rival (qualified, uncontracted) country, in track order."""
    return [idx for idx, sq in sorted(st.squares.items()) if sq.status == "qualified"]


def finish_match_with(
    st: GameState, winner: str, score: tuple[int, int] | None = None, cat: Catalog = CAT
) -> tuple[GameState, list[Ev]]:
    """End the running match at once with ``winner`` ("home"/"away"), nothing played, and let the
    game run on: tests the consequences of a result without depending on the duel."""
    from games.api import MatchResult
    from tournament.rules import matches

    new = st.clone()
    record = new.running_match
    assert record is not None
    ctx = Ctx(new, cat, HOST)
    result = MatchResult(
        score=score or ((1, 0) if winner == "home" else (0, 1)),
        winner=winner,  # type: ignore[arg-type]
        decided_by="regular",
        penalties=None,
        used={"home": (), "away": ()},
        unused={"home": (), "away": ()},
        extra_time_dealt=(),
    )
    matches.finish_match(ctx, record, result)
    advance(ctx)
    ctx.sync_rng()
    assert_sound(new, cat)
    return new, ctx.events


def play_running_match(
    st: GameState, rnd: random.Random | None = None, cat: Catalog = CAT
) -> tuple[GameState, list[Ev]]:
    """Play the running match to its end: defaults, or random legal decisions with ``rnd``."""
    events: list[Ev] = []
    number = st.running_match.number if st.running_match else None
    while st.running_match is not None and st.running_match.number == number:
        p = next(p for p in st.prompts if p.context.get("match") == number)
        choice = random_answer(p, rnd) if rnd else p.default
        assert p.seat is not None
        st, ev = act(st, seat(p.seat), {"type": "answer", "prompt": p.id, "choice": choice}, cat)
        events += ev
    return st, events


def to_eight(st: GameState) -> None:
    """The Official eliminates rivals (last ones in track order first) until eight countries remain,
    as the end of phase 2 would."""
    from tournament.rules.matches import place_marker

    ctx = Ctx(st, CAT, HOST)
    for idx in reversed(rivals(st)):
        if len(st.on_square) <= 8:
            break
        st.pile("out").append(st.on_square.pop(idx))
        place_marker(ctx, idx)
    assert len(st.on_square) == 8, "too many contracted countries"


def phase3(
    seats: int = 4, seed: int = 1, bcs: Iterable[int] | None = None, settle: bool = True, cat: Catalog = CAT
) -> tuple[GameState, list[Ev]]:
    """A game at the start of the finals: phase 2 with ``bcs`` as BCs, eight countries left, phase 3
    begun (settlement answered with defaults when ``settle``). Returns the state and the events of
    the phase change."""
    from tournament.rules import finals

    st = phase2(seats, seed, bcs, cat=cat)
    to_eight(st)
    st.prompts = []
    ctx = Ctx(st, cat, HOST)
    finals.begin_phase3(ctx)
    advance(ctx)
    ctx.sync_rng()
    events = list(ctx.events)
    assert_sound(st, cat)
    while settle and st.stage == "settlement":
        p = st.prompts[0]
        assert p.seat is not None
        st, ev = act(st, seat(p.seat), {"type": "answer", "prompt": p.id, "choice": p.default}, cat)
        events += ev
    return st, events
