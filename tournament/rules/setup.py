"""The lobby and the set-up of a new game (§1 set-up, §3 start, R2, R3, R18)."""

from __future__ import annotations

import unicodedata
from typing import Any

from games.rng import GENERATIONS, LATEST
from tournament.rules import competition
from tournament.rules.errors import N_, Forbidden, IllegalAction, MalformedAction, RulesError
from tournament.rules.events import Ctx
from tournament.rules.money import transfer
from tournament.rules.state import (
    BANK,
    BANK_RESERVE,
    BONUS,
    MARKERS,
    GameState,
    SeatState,
    SquareState,
    account_key,
)

MIN_SEATS = 2
MAX_SEATS = 8
BOT_STRENGTHS = ("easy", "strong", "random")
BOT_NAMES = ("Robin", "Sam", "Noa", "Kim", "Lou", "Max", "Bo", "Jip")

DEFAULT_HOUSE_RULES: dict[str, Any] = {
    "seats": 6,  # room size 2..8
    "visit_fee_to": "coach",  # R8: "coach" (rulebook) or "bank" (house rule)
    "decision_timer": None,  # R19: seconds per decision, None = no timer
}
# House rules a room may set and that are absent from older rooms (their absence means the default).
OPTIONAL_HOUSE_RULES: dict[str, Any] = {
    "match_format": "duel",  # R20: matches played as the card duel (rulebook) or as another game
}


def new_game(
    seed: int,
    mode: str = "world_cup",
    house_rules: dict[str, Any] | None = None,
    game: str = competition.MAGIC_FOOTBALL,
) -> GameState:
    """A fresh room in the lobby: Magic Football, or a competition of another registered game.

    :raises RulesError: ``unknown_game``; ``malformed`` for bad house rules.
    """
    if not isinstance(game, str) or not competition.known_game(game):
        raise RulesError("unknown_game", game=str(game)[:40])
    if game != competition.MAGIC_FOOTBALL:
        # the games under games/ simulate whole matches per action and start on the newest generator
        return GameState(
            seed=seed,
            game=game,
            house_rules=competition.validate_house_rules(house_rules or {}, game),
            rng_generation=LATEST,
        )
    rules = dict(DEFAULT_HOUSE_RULES)
    rules.update(house_rules or {})
    validate_house_rules(rules)
    if mode not in ("world_cup", "euro"):
        raise MalformedAction(detail=f"unknown mode {mode!r}")
    return GameState(seed=seed, mode=mode, house_rules=rules)


def setup_of(state: GameState) -> dict[str, Any]:
    """What a room stores at creation (``Game.setup``, a record's ``setup``): enough, with the seed, to
    open the same room again (replay, rewind, import). Magic Football's omits the game, and generator 1
    is not named, as older setups do."""
    setup: dict[str, Any] = {"mode": state.mode, "house_rules": state.house_rules}
    if state.game != competition.MAGIC_FOOTBALL:
        setup["game"] = state.game
    if state.rng_generation != 1:
        setup["rng"] = state.rng_generation
    return setup


def from_setup(seed: int, setup: dict[str, Any]) -> GameState:
    """The fresh room ``setup_of`` describes; a setup that names no generator is older than generator 2
    and replays with 1.

    :raises RulesError: as ``new_game``; ``malformed`` for a generator that does not exist.
    """
    state = new_game(
        seed,
        setup.get("mode", "world_cup"),
        setup.get("house_rules"),
        game=setup.get("game", competition.MAGIC_FOOTBALL),
    )
    generation = setup.get("rng", 1)
    if not isinstance(generation, int) or isinstance(generation, bool) or generation not in GENERATIONS:
        raise MalformedAction(detail=f"unknown random generator {str(generation)[:20]!r}")
    state.rng_generation = generation
    return state


def rematch_house_rules(state: GameState) -> dict[str, Any]:
    """The house rules a rematch keeps: every one the room's game knows (Magic Football's optional ones,
    such as its match format, included)."""
    known = (
        competition.DEFAULT_HOUSE_RULES
        if state.game != competition.MAGIC_FOOTBALL
        else {**DEFAULT_HOUSE_RULES, **OPTIONAL_HOUSE_RULES}
    )
    return {k: v for k, v in state.house_rules.items() if k in known}


def match_formats() -> tuple[str, ...]:
    """How Magic Football's matches can be played (R20): the card duel, or a game that offers itself."""
    from games.api import game_keys, get_game

    return ("duel", *(k for k in game_keys() if k != "duel" and get_game(k).in_magic_football))


def validate_house_rules(rules: dict[str, Any]) -> None:
    """House rules are few and bounded; anything else is refused."""
    seats = rules.get("seats")
    if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
        raise MalformedAction(detail=N_("seats must be a whole number from 2 to 8"))
    if rules.get("visit_fee_to") not in ("coach", "bank"):
        raise MalformedAction(detail=N_("visit_fee_to must be coach or bank"))
    timer = rules.get("decision_timer")
    if timer is not None and (
        not isinstance(timer, int) or isinstance(timer, bool) or not 10 <= timer <= 600
    ):
        raise MalformedAction(detail=N_("decision_timer must be empty or 10 to 600 seconds"))
    if rules.get("match_format", "duel") not in match_formats():
        raise MalformedAction(detail=N_("matches cannot be played in that format here"))
    unknown = set(rules) - set(DEFAULT_HOUSE_RULES) - set(OPTIONAL_HOUSE_RULES)
    if unknown:
        raise MalformedAction(detail=f"unknown house rule {sorted(unknown)[0]!r}")


# Names of the roles the host plays and the pages show (ruling G16), in English and Dutch, with and
# without an article, compared on letters and digits only ("The Host", "de gastheer", "B.a.n.k").
RESERVED_NICKNAMES = frozenset(
    {
        "host", "thehost", "gastheer", "degastheer",
        "bank", "thebank", "debank",
        "official", "theofficial", "deofficial", "bankandofficial", "bankenofficial",
        "bonusfund", "thebonusfund", "bonusfonds", "hetbonusfonds",
        # the same roles as German and Spanish pages name them
        "gastgeber", "dergastgeber", "diebank", "funktionär", "derfunktionär", "bankundfunktionär",
        "derbonusfonds",
        "anfitrión", "anfitrion", "elanfitrión", "elanfitrion", "banca", "labanca", "delegado", "eldelegado",
        "bancaydelegado", "labancayeldelegado", "cajadeprimas", "lacajadeprimas",
    }
)  # fmt: skip


def clean_nickname(raw: Any) -> str:
    """Normalise a nickname: NFC, trimmed, 1–24 visible characters, no control characters, and not the name
    of the host, the Bank or the Official (G16: a chat line or a log line signed so would pass for theirs).

    :raises RulesError: ``bad_nickname``, ``reserved_nickname``.
    """
    if not isinstance(raw, str):
        raise RulesError("bad_nickname")
    name = unicodedata.normalize("NFC", raw).strip()
    name = " ".join(name.split())
    if not name or len(name) > 24 or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise RulesError("bad_nickname")
    if "".join(ch for ch in name.casefold() if ch.isalnum()) in RESERVED_NICKNAMES:
        raise RulesError("reserved_nickname", nickname=name)
    return name


def _require_lobby(st: GameState) -> None:
    if st.status != "lobby":
        raise RulesError("already_started")


def _require_host(ctx: Ctx, what: str) -> None:
    if ctx.actor.kind not in ("host", "system"):
        raise Forbidden(detail=f"only the host can {what}")


def join(ctx: Ctx, action: dict[str, Any]) -> None:
    """A guest takes the lowest free seat with a nickname."""
    st = ctx.state
    _require_lobby(st)
    if ctx.actor.kind not in ("guest", "host"):
        raise Forbidden(detail=N_("you already have a seat"))
    name = clean_nickname(action.get("nickname"))
    _add_seat(ctx, name, bot=None, host=bool(action.get("host")) and ctx.actor.kind == "host")


def _add_seat(ctx: Ctx, name: str, bot: str | None, host: bool = False) -> int:
    st = ctx.state
    if len(st.seats) >= st.house_rules["seats"]:
        raise RulesError("room_full", seats=st.house_rules["seats"])
    if any(s.nickname.casefold() == name.casefold() for s in st.seats.values()):
        raise RulesError("nickname_taken", nickname=name)
    seat = next(n for n in range(1, MAX_SEATS + 1) if n not in st.seats)
    st.seats[seat] = SeatState(seat=seat, nickname=name, bot=bot, host=host)
    ctx.emit("joined", seat=seat, nickname=name, bot=bot)
    return seat


def add_bot(ctx: Ctx, action: dict[str, Any]) -> None:
    """The host fills a seat with a bot of the chosen strength."""
    st = ctx.state
    _require_lobby(st)
    _require_host(ctx, "add bots")
    strength = action.get("strength", "easy")
    if strength not in BOT_STRENGTHS:
        raise MalformedAction(detail=f"strength must be one of {', '.join(BOT_STRENGTHS)}")
    taken = {s.nickname.casefold() for s in st.seats.values()}
    name = next(
        (f"{n} (bot)" for n in BOT_NAMES if f"{n} (bot)".casefold() not in taken),
        f"Bot {len(st.seats) + 1}",
    )
    _add_seat(ctx, name, bot=strength)


def remove_seat(ctx: Ctx, action: dict[str, Any]) -> None:
    """The host removes a seat in the lobby, or a participant leaves his own seat."""
    st = ctx.state
    _require_lobby(st)
    seat = action.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in st.seats:
        raise RulesError("unknown_participant", who=seat)
    if ctx.actor.kind == "seat":
        if ctx.actor.seat != seat:
            raise Forbidden(detail=N_("you can only leave your own seat"))
    else:
        _require_host(ctx, "remove a seat")
    del st.seats[seat]
    ctx.emit("left", seat=seat)


def set_house_rules(ctx: Ctx, action: dict[str, Any]) -> None:
    """The host changes house rules or the mode before the start."""
    st = ctx.state
    _require_lobby(st)
    _require_host(ctx, "change the house rules")
    rules = dict(st.house_rules)
    if competition.is_competition(st):
        for key in competition.DEFAULT_HOUSE_RULES:
            if key in action:
                rules[key] = action[key]
        rules = competition.validate_house_rules(rules, st.game)
        if rules["seats"] < len(st.seats):
            raise IllegalAction(detail=N_("there are more participants than that"))
        st.house_rules = rules
        ctx.emit("house_rules", game=st.game, **rules)
        return
    for key in ("seats", "visit_fee_to", "decision_timer", "match_format"):
        if key in action:
            rules[key] = action[key]
    validate_house_rules(rules)
    if rules["seats"] < len(st.seats):
        raise IllegalAction(detail=N_("there are more participants than that"))
    mode = action.get("mode", st.mode)
    if mode not in ("world_cup", "euro"):
        raise MalformedAction(detail=f"unknown mode {mode!r}")
    st.house_rules = rules
    st.mode = mode
    ctx.emit("house_rules", mode=mode, **rules)


def start(ctx: Ctx, action: dict[str, Any]) -> None:
    """Lay out the game: money, shuffled decks, boxes, turn order by die (R2, R3)."""
    st = ctx.state
    _require_lobby(st)
    _require_host(ctx, "start the game")
    if len(st.seats) < MIN_SEATS:
        raise RulesError("not_enough_players", minimum=MIN_SEATS)
    if competition.is_competition(st):
        competition.start(ctx)
        return
    cat = ctx.cat
    rng = ctx.rng
    st.status = "running"
    st.phase = "phase1"
    st.accounts = {BANK: BANK_RESERVE, BONUS: 0}
    for seat in st.seats:
        st.accounts[account_key(seat)] = 0
    ctx.emit("game_started", mode=st.mode, seats=sorted(st.seats))
    for seat in sorted(st.seats):
        transfer(ctx, BANK, account_key(seat), cat.board.starting_capital, "starting_capital")

    fields = list(cat.field_players)
    rng.shuffle(fields)
    half = (len(fields) + 1) // 2  # "circa de helft" in box 1, the rest with the Official
    st.piles = {key: [] for key in ("box1", "box2", "box3", "box4", "box5", "box6", "box7")}
    st.piles["box1"] = fields[:half]
    st.piles["official_fields"] = fields[half:]
    keepers = list(cat.keepers)
    rng.shuffle(keepers)
    st.piles["box3"] = keepers
    match_cards = list(cat.match_cards)
    rng.shuffle(match_cards)
    st.piles["box2"] = match_cards
    money_cards = list(cat.money_cards)
    rng.shuffle(money_cards)
    st.piles["box4"] = money_cards
    rivals = list(cat.rivals)
    rng.shuffle(rivals)
    st.piles["official_rivals"] = rivals
    countries = [c.id for c in cat.countries.values() if st.mode == "world_cup" or c.european]
    st.piles["out"] = [c.id for c in cat.countries.values() if c.id not in countries]
    rng.shuffle(countries)
    st.squares = {idx: SquareState() for idx in cat.board.country_squares}
    st.on_square = {}
    # R18: the previous Cup winner is pre-qualified on the last country square before Start.
    if st.pre_qualified and st.pre_qualified in countries:
        countries.remove(st.pre_qualified)
        last = cat.board.country_squares[-1]
        st.on_square[last] = st.pre_qualified
        st.squares[last].status = "qualified"
        ctx.emit("country_qualified", seat=None, square=last, country=st.pre_qualified, cup=True)
    st.piles["official_countries"] = countries
    for key in ("match", "cup"):
        st.piles[key] = []
    st.markers = {n: None for n in range(1, MARKERS + 1)}
    # the top field player and keeper are turned face up
    st.piles["box5"].append(st.piles["box1"].pop())
    st.piles["box7"].append(st.piles["box3"].pop())
    ctx.emit("card_turned_up", box="box5", card=st.piles["box5"][-1])
    ctx.emit("card_turned_up", box="box7", card=st.piles["box7"][-1])
    st.pawn = 0
    st.turn_order = roll_for_order(ctx, sorted(st.seats))
    st.turn = 0
    st.turns = {"phase1": 0, "phase2": 0}
    st.stage = "await_roll"
    ctx.emit("turn", seat=st.active_seat, phase=st.phase)


def roll_for_order(ctx: Ctx, seats: list[int]) -> list[int]:
    """R3: everyone rolls; highest starts (ties re-roll among themselves); then seat order."""
    contenders = list(seats)
    round_no = 1
    while True:
        rolls = {s: ctx.rng.d6() for s in contenders}
        ctx.emit("order_roll", rolls={str(k): v for k, v in rolls.items()}, round=round_no)
        top = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == top]
        if len(contenders) == 1:
            break
        round_no += 1
    first = contenders[0]
    i = seats.index(first)
    order = seats[i:] + seats[:i]
    ctx.emit("turn_order", order=order)
    return order
