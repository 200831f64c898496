"""The small interface every match format implements (D7).

Two teams and their match-card holdings go in; decisions, events, a score and a winner come out.
The tournament knows nothing else about how a match is played, so other football games (dice, grid,
chess-like) can be added as further formats later.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from tournament.rules.rng import Rng

Side = Literal["home", "away"]
SIDES: tuple[Side, Side] = ("home", "away")
Audience = Literal["public", "home", "away"]


def other(side: Side) -> Side:
    """The opposing side."""
    return "away" if side == "home" else "home"


class MatchError(ValueError):
    """A decision that cannot be applied; ``code`` is stable, the message names the situation.

    The state is unchanged when this is raised.
    """

    code = "match_error"

    def __init__(self, message: str, **params: Any) -> None:
        super().__init__(message)
        self.params = params


class MalformedDecision(MatchError):
    """The decision is not of a shape the format understands (missing keys, wrong types)."""

    code = "malformed_decision"


class IllegalDecision(MatchError):
    """The decision is well-formed but not legal now (closed window, card not held, 4th swap …)."""

    code = "illegal_decision"


class NotYourDecision(MatchError):
    """The side has no decision pending (acting for the other side, or out of turn)."""

    code = "not_your_decision"


@dataclass(frozen=True, slots=True)
class TeamCard:
    """A player card as the match sees it."""

    id: str
    stars: int
    keeper: bool = False


@dataclass(frozen=True, slots=True)
class TeamEntry:
    """One side: its field players (usually 11 = ten + reserve), its keeper and its match cards."""

    label: str  # country id (or a practice label)
    field: tuple[TeamCard, ...]
    keeper: TeamCard
    holding: tuple[str, ...] = ()  # match card ids this side may use in this match


@dataclass(frozen=True, slots=True)
class MatchSetup:
    """Everything a match needs to start."""

    home: TeamEntry
    away: TeamEntry
    knockout: bool  # a knock-out match always ends with a winner; a practice match may end level
    extra_time_cards: tuple[str, ...] = ()  # the top of the match stack: home gets [0:2], away [2:4]


@dataclass(frozen=True, slots=True)
class Decision:
    """A pending decision of one side.

    ``choices`` lists every legal choice when they can be enumerated (windows); for a line-up it is
    empty and ``options`` describes the legal space (the team's card ids). ``default`` is always a
    legal choice: what the plain bot (and an expired decision timer, R19) does.
    """

    side: Side
    kind: str  # "lineup" | "window" | format-specific kinds
    choices: tuple[dict[str, Any], ...]
    default: dict[str, Any]
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchEvent:
    """One step of a match, with who may see it."""

    kind: str
    data: dict[str, Any]
    audience: Audience = "public"


@dataclass(frozen=True, slots=True)
class MatchResult:
    """How a match ended and where its match cards go."""

    score: tuple[int, int]  # (home, away), goals in play (penalty-series goals not included)
    winner: Side | None  # None only for a level practice match
    decided_by: str  # "regular" | "extra_time" | "penalties" | "die"
    penalties: tuple[int, int] | None  # penalty-series score, if there was one
    used: dict[Side, tuple[str, ...]]  # match cards played (go to box 6)
    unused: dict[Side, tuple[str, ...]]  # holding cards not played (stay with their holder)
    extra_time_dealt: tuple[str, ...]  # extra-time cards dealt (go to box 6 whether played or not)


class MatchFormat(Protocol):
    """A match format: pure, deterministic, driven by decisions.

    ``apply`` mutates the state in place and returns the events; it validates the decision fully
    before changing anything, so a raised ``MatchError`` leaves the state as it was.
    """

    key: str

    def start(self, setup: MatchSetup, rng: Rng) -> Any:
        """Create the state of a new match (no decision taken yet)."""
        ...

    def decisions(self, state: Any) -> list[Decision]:
        """Decisions pending now (both sides at a line-up, one side in a window); [] when finished."""
        ...

    def apply(self, state: Any, side: Side, choice: dict[str, Any], rng: Rng) -> list[MatchEvent]:
        """Apply one decision of ``side`` and run the match forward to the next decision."""
        ...

    def result(self, state: Any) -> MatchResult | None:
        """The result once the match is over, else None."""
        ...

    def view(self, state: Any, side: Side | None, reveal_all: bool = False) -> dict[str, Any]:
        """JSON-safe projection for one side (``None`` = spectators and the other participants)."""
        ...

    def to_dict(self, state: Any) -> dict[str, Any]:
        """JSON-safe full state, to store with the game."""
        ...

    def from_dict(self, data: dict[str, Any]) -> Any:
        """Inverse of ``to_dict``."""
        ...


_FORMATS: dict[str, MatchFormat] = {}


def register(fmt: MatchFormat) -> MatchFormat:
    """Register a match format under its key."""
    _FORMATS[fmt.key] = fmt
    return fmt


def get_format(key: str) -> MatchFormat:
    """The registered match format with this key (``"duel"`` is Magic Football's card duel)."""
    if not _FORMATS:
        import cards.rules.duel  # noqa: F401  (registers "duel")
    return _FORMATS[key]
