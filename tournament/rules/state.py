"""The whole state of one game as plain data, shared by the rules, the services and the projections.

The state is mutable for speed; ``apply_action`` works on a ``clone()`` so a refused action leaves the
caller's state untouched. Seats (1..8) identify participants inside the rules; the database maps them to
``Participant`` rows. Card ids are catalog ids (one physical copy of each card per game).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

BANK = "bank"
BONUS = "bonus"

# A Bank reserve large enough never to run dry; money is conserved: the sum of all accounts is constant.
BANK_RESERVE = 1_000_000_000

FIRING_COMPENSATION = 1_500_000  # R10 / phase-2 rule 7
PRICE_PER_STAR = 100_000
TRAINING_FEE = 100_000
RISK_FEE = 400_000
CREDIT_PER_PIP = 50_000
DEBET_PER_PIP = 50_000
SETTLEMENT_UNIT = 500_000  # phase 3: one blind field player per full 500,000
TEAM_FIELD_LIMIT = 11  # 10 + 1 reserve
TEAM_KEEPER_LIMIT = 1
HOLDING_LIMIT = 5
MARKERS = 8
RIVAL_ALL_STAR_MATCH_CARDS = 3  # phase 3 rival vs rival: 3 match cards per AC

# Piles without an owner; owned piles are "team:<seat>", "holding:<seat>" and "selection:<seat>".
SHARED_PILES = (
    "box1",  # field players, blind
    "box2",  # match cards
    "box3",  # keepers, blind
    "box4",  # money cards
    "box5",  # field players, the top one face up
    "box6",  # used match cards
    "box7",  # keepers, the top one face up
    "official_countries",
    "official_fields",
    "official_rivals",
    "match",  # in play in the running match: rival cards, a borrowed keeper, AC/extra-time/played cards
    "cup",
    "out",
)


def account_key(seat: int) -> str:
    """Ledger account key of a participant."""
    return f"p{seat}"


def team_key(seat: int) -> str:
    """Pile key of a participant's team (field players and keeper)."""
    return f"team:{seat}"


def selection_key(seat: int) -> str:
    """Pile key of cards in a participant's hand while he chooses what to keep."""
    return f"selection:{seat}"


def holding_key(seat: int) -> str:
    """Pile key of a participant's match cards."""
    return f"holding:{seat}"


@dataclass(slots=True)
class SeatState:
    """One participant as the rules see him."""

    seat: int
    nickname: str
    bot: str | None = None  # None for a human, else the bot's strength ("easy", "strong", "random")
    host: bool = False
    role: str = "trainer"  # "trainer" | "bc"
    out: bool = False
    takeover: bool = False  # the host handed this human's seat to a bot

    @property
    def is_bc(self) -> bool:
        """A national coach (BC) holds a contract."""
        return self.role == "bc"

    @property
    def automated(self) -> bool:
        """Decisions of this seat are taken by a bot (a bot seat, or a human's seat handed to a bot)."""
        return self.bot is not None or self.takeover


@dataclass(slots=True)
class SquareState:
    """A country square: empty, qualified (a country card lies there), contracted, or a marker."""

    status: str = "empty"  # "empty" | "qualified" | "contracted" | "marker"
    coach: int | None = None  # seat of the BC holding the contract


@dataclass(slots=True)
class Prompt:
    """A pending decision owned by one seat (None = the house bot), with its legal choices and default."""

    id: int
    seat: int | None
    kind: str
    choices: list[dict[str, Any]]
    default: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)  # shown to the owner only
    context: dict[str, Any] = field(default_factory=dict)  # internal: what happens after the answer
    # The decision timer (R19, R19a–c), kept by the service layer (``tournament/services/timers.py``) in
    # server time and never read by the rules: ``deadline`` is when the default is taken (epoch ms) while
    # the timer runs, ``left`` the milliseconds left while the game is paused; both None without a timer.
    deadline: int | None = None
    left: int | None = None


@dataclass(slots=True)
class MatchSide:
    """Who plays one side of a match: a country, coached by a BC, an AC, or the house bot."""

    country: str
    seat: int | None  # the coach's seat; None = house bot
    role: str  # "bc" | "ac" | "bot"


@dataclass(slots=True)
class MatchRecord:
    """A match of the game: planned, playing or finished (phase-2 challenges and the finals)."""

    number: int
    kind: str  # "challenge" | "qf" | "sf" | "f"
    slot: str  # "" | "A".."D" | "AB" | "CD" | "F"
    home: MatchSide | None
    away: MatchSide | None
    status: str = "planned"  # "planned" | "playing" | "finished"
    format: str = "duel"
    score: tuple[int, int] = (0, 0)
    penalties: tuple[int, int] | None = None
    decided_by: str = ""
    winner_side: str = ""
    engine: Any = None  # the match format's state while playing (serialised in Match.state)
    context: dict[str, Any] = field(default_factory=dict)

    @property
    def winner_country(self) -> str | None:
        """The winning country, once finished."""
        if self.winner_side == "home" and self.home:
            return self.home.country
        if self.winner_side == "away" and self.away:
            return self.away.country
        return None


@dataclass(slots=True)
class GameState:
    """Everything about one game that the rules read or change."""

    seed: int
    rng_counter: int = 0
    rng_generation: int = 1  # which of games.rng's generators the game draws from (its setup's "rng")
    game: str = "magic-football"  # or the key of a game under games/ played as a competition (competition.py)
    mode: str = "world_cup"  # "world_cup" | "euro"
    house_rules: dict[str, Any] = field(default_factory=dict)
    status: str = "lobby"  # "lobby" | "running" | "paused" | "finished" | "abandoned"
    phase: str = "lobby"  # "lobby" | "phase1" | "phase2" | "phase3" | "finished"
    stage: str = ""  # phase-specific step: "await_roll", "resolving", "settlement", "finals", ...
    seats: dict[int, SeatState] = field(default_factory=dict)
    accounts: dict[str, int] = field(default_factory=dict)
    piles: dict[str, list[str]] = field(default_factory=dict)  # index 0 = bottom, last = top
    on_square: dict[int, str] = field(default_factory=dict)  # country square index -> country card
    finals: dict[int, str] = field(default_factory=dict)  # finals box 1..8 -> country card
    finals_coaches: dict[int, int] = field(default_factory=dict)  # finals box -> seat of its BC
    squares: dict[int, SquareState] = field(default_factory=dict)
    markers: dict[int, int | None] = field(default_factory=dict)  # marker number -> square index
    turn_order: list[int] = field(default_factory=list)
    turn: int = 0  # index into turn_order
    pawn: int = 0
    prompts: list[Prompt] = field(default_factory=list)
    next_prompt: int = 1
    matches: list[MatchRecord] = field(default_factory=list)
    turns: dict[str, int] = field(default_factory=dict)  # turns played per phase
    pre_qualified: str = ""  # R18: country pre-qualified from the previous game's Cup
    winner: dict[str, Any] | None = None
    competition: dict[str, Any] = field(default_factory=dict)  # another game's cup or league (competition.py)

    # ------------------------------------------------------------------ helpers
    def clone(self) -> GameState:
        """An independent copy, cheap enough to take before every action.

        Prompts and finished matches are never mutated in place by the rules (they are replaced), so
        they are shared; mutable containers and the running match's engine state are copied.
        """
        other = copy.copy(self)
        other.house_rules = dict(self.house_rules)
        other.seats = {
            k: SeatState(v.seat, v.nickname, v.bot, v.host, v.role, v.out, v.takeover)
            for k, v in self.seats.items()
        }
        other.accounts = dict(self.accounts)
        other.piles = {k: list(v) for k, v in self.piles.items()}
        other.on_square = dict(self.on_square)
        other.finals = dict(self.finals)
        other.finals_coaches = dict(self.finals_coaches)
        other.squares = {k: SquareState(v.status, v.coach) for k, v in self.squares.items()}
        other.markers = dict(self.markers)
        other.turn_order = list(self.turn_order)
        other.prompts = list(self.prompts)
        other.turns = dict(self.turns)
        other.matches = [m if m.status == "finished" else _clone_match(m) for m in self.matches]
        other.winner = dict(self.winner) if self.winner else None
        other.competition = copy.deepcopy(self.competition) if self.competition else {}
        return other

    @property
    def active_seat(self) -> int | None:
        """The seat whose turn it is (phases 1–2)."""
        if not self.turn_order:
            return None
        return self.turn_order[self.turn % len(self.turn_order)]

    @property
    def running_match(self) -> MatchRecord | None:
        """The match being played, if any (Magic Football plays one at a time; a competition room's
        round plays several: see ``playing_matches``)."""
        for m in self.matches:
            if m.status == "playing":
                return m
        return None

    def playing_matches(self) -> list[MatchRecord]:
        """Every match being played."""
        return [m for m in self.matches if m.status == "playing"]

    def pile(self, key: str) -> list[str]:
        """A pile by key, created empty on first use."""
        p = self.piles.get(key)
        if p is None:
            p = self.piles[key] = []
        return p

    def active_seats(self) -> list[int]:
        """Seats still in the game, in seat order."""
        return [s for s, st in sorted(self.seats.items()) if not st.out]

    def country_of(self, seat: int) -> str | None:
        """The country a BC holds the contract of."""
        for box, coach in self.finals_coaches.items():
            if coach == seat and box in self.finals:
                return self.finals[box]
        for idx, sq in self.squares.items():
            if sq.status == "contracted" and sq.coach == seat:
                return self.on_square.get(idx)
        return None

    def countries_by_seat(self) -> dict[int, str | None]:
        """``country_of`` for every BC at once (same precedence: a finals box first, then the first
        contracted square), for projections that list all seats: one pass instead of one per seat."""
        found: dict[int, str | None] = {}
        for box, coach in self.finals_coaches.items():
            if coach is not None and box in self.finals:
                found.setdefault(coach, self.finals[box])
        for idx, sq in self.squares.items():
            if sq.status == "contracted" and sq.coach is not None:
                found.setdefault(sq.coach, self.on_square.get(idx))
        return found

    def square_of_country(self, country: str) -> int | None:
        """The track index where a country card lies, if on the board."""
        for idx, cid in self.on_square.items():
            if cid == country:
                return idx
        return None

    def prompt(self, prompt_id: int) -> Prompt | None:
        """An open prompt by id."""
        for p in self.prompts:
            if p.id == prompt_id:
                return p
        return None

    def markers_placed(self) -> int:
        """How many markers lie on the board."""
        return sum(1 for sq in self.markers.values() if sq is not None)


def _clone_match(m: MatchRecord) -> MatchRecord:
    """Copy a planned or running match record (finished ones are never changed again: shared)."""
    c = copy.copy(m)
    c.home = copy.copy(m.home)
    c.away = copy.copy(m.away)
    if m.status != "finished":
        if m.engine is not None:
            from games.api import get_format

            fmt = get_format(m.format)
            clone = getattr(fmt, "clone", None)
            c.engine = clone(m.engine) if clone is not None else copy.deepcopy(m.engine)
        c.context = copy.deepcopy(m.context)
    return c
