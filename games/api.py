"""The small interface every match format implements (D7), and what a game brings to the platform.

Two teams and their match-card holdings go in; decisions, events, a score and a winner come out. The
tournament knows nothing else about how a match is played. A football game of our seeds is a folder under
``games/`` with its ``MatchFormat`` and a ``Game`` registration (its name, bots, room options, the log
sentences of its events, what each side keeps to itself, its board): rooms, competitions, pages, replays
and the conformance suite then work for it (docs/ARCHITECTURE.md, "Adding a game").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from games.rng import Rng

if TYPE_CHECKING:
    from games.competition import CarryRules

Side = Literal["home", "away"]
SIDES: tuple[Side, Side] = ("home", "away")
Audience = Literal["public", "home", "away"]


def other(side: Side) -> Side:
    """The opposing side."""
    return "away" if side == "home" else "home"


class MatchError(ValueError):
    """A decision that cannot be applied; ``code`` is stable, the message names the situation.

    The state is unchanged when this is raised. A format whose player reads the message (why a move is
    illegal) gives an ``N_``-marked msgid with ``%(name)s`` placeholders and their values as ``words``:
    ``str(exc)`` is then the English sentence, and ``msgid`` and ``words`` let the presentation say it in
    the reader's language (``tournament.messages.error_text``). Without ``words`` the message is both.
    """

    code = "match_error"

    def __init__(self, message: str, /, *, words: Mapping[str, Any] | None = None, **params: Any) -> None:
        self.msgid = message
        self.words: dict[str, Any] = dict(words) if words is not None else {}
        super().__init__(message % self.words if words is not None else message)
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
    # format options, e.g. dice football's {"half_ticks": 60, "boskov": True}; each format checks its own
    options: Mapping[str, Any] = field(default_factory=dict, hash=False)


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


def cardless_setup(knockout: bool, labels: tuple[str, str], options: Mapping[str, Any]) -> MatchSetup:
    """A ``MatchSetup`` for a game without team cards (dice and chess football): labels and options only."""
    home, away = (TeamEntry(label, (), TeamCard(f"{label}-keeper", 0, keeper=True)) for label in labels)
    return MatchSetup(home=home, away=away, knockout=knockout, options=dict(options))


def cardless_result(
    score: list[int], winner: Side | None, decided_by: str, penalties: list[int] | None
) -> MatchResult:
    """The result of a game without match cards: every card field is empty."""
    return MatchResult(
        score=(score[0], score[1]),
        winner=winner,
        decided_by=decided_by,
        penalties=(penalties[0], penalties[1]) if penalties is not None else None,
        used={"home": (), "away": ()},
        unused={"home": (), "away": ()},
        extra_time_dealt=(),
    )


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


# Formats that register themselves when their module is imported (kept lazy: importing the platform
# must not load every game, and the duel loads the card catalog).
_LAZY = {
    "duel": "cards.rules.duel",
    "dice-football": "games.dice_football.rules",
    "chess-football": "games.chess_football.rules",
    "grid-football": "games.grid_football.rules",
}


def get_format(key: str) -> MatchFormat:
    """The registered match format with this key (``"duel"`` is Magic Football's card duel,
    ``"dice-football"`` the 8-dice game of seeds 001/004)."""
    if key not in _FORMATS and key in _LAZY:
        import importlib

        importlib.import_module(_LAZY[key])  # registers the format
    return _FORMATS[key]


# ------------------------------------------------------------------------------------ games (platform)

Policy = Callable[[MatchFormat, Any, Decision, Rng], dict[str, Any]]
"""A bot: ``(format, state, decision, rng) -> choice``, one of the decision's legal choices."""


def N_(text: str) -> str:
    """Mark a literal for translation without translating it (nothing under ``games/`` imports Django;
    ``manage.py makemessages`` extracts ``N_("...")``); the presentation layer translates."""
    return text


@dataclass(frozen=True, slots=True)
class Option:
    """A room option of a game (the create-room form and the lobby): its values and their labels, the
    first value being the default."""

    key: str
    label: str  # N_-marked English
    choices: tuple[tuple[Any, str], ...]  # (value, N_-marked label)

    @property
    def default(self) -> Any:
        return self.choices[0][0]


@dataclass(frozen=True, slots=True)
class Ref:
    """A value of a log line that the presenter words for its reader: ``side`` (the name of who plays
    that side), ``player`` (a player card's name), ``match_card`` (a match card's name in the reader's
    language), ``period`` (first half, extra time…)."""

    kind: str
    value: Any


@dataclass(frozen=True, slots=True)
class Line:
    """The log line of one match event before translation: an English msgid (N_-marked) with
    ``%(name)s`` placeholders, its values (``Ref`` for what the presenter words, a ``Line`` for a phrase it
    translates), a lucide icon and a tone (``match``, ``goal``, ``private``, ``turn``); ``plural`` = (plural
    msgid, the count's param)."""

    text: str
    params: Mapping[str, Any] = field(default_factory=dict)
    icon: str = "info"
    tone: str = "match"
    plural: tuple[str, str] | None = None


def sentence_line(
    said: tuple[str, Mapping[str, Any]] | None,
    side_params: Iterable[str],
    look: tuple[str, str],
) -> Line | None:
    """A game's log line from its sentence (``sentences.sentence(event)``: a msgid and its params, or None
    for an event the log leaves out): the params naming a side become ``Ref("side", …)`` for the presenter;
    ``look`` is the line's (icon, tone)."""
    if said is None:
        return None
    text, params = said
    sides = set(side_params)
    values = {k: Ref("side", v) if k in sides else v for k, v in params.items()}
    return Line(text, values, *look)


def _nothing_private(state: Any, side: Side) -> frozenset[str]:
    return frozenset()


def _reveals_nothing(event: MatchEvent) -> Iterable[str]:
    return ()


@dataclass(frozen=True)
class Game:
    """A football game as the platform knows it: the match format and everything around a match.

    - ``room_setup(labels, knockout, options, rng)``: the ``MatchSetup`` of a match between two seats in
      a room of this game (teams dealt by the rules, the room's options).
    - ``policies``: bots by strength (``random``, ``easy``, ``strong``; ``default`` takes the default).
    - ``line(event)``: the event's log line, None for events the log leaves out.
    - ``private(state, side)``: what that side keeps to itself (card ids, …): no view for anyone else
      may contain it unless an event revealed it (``reveals``); the conformance suite checks this.
    - ``board``: the template of the board partial (``<package>/board.html`` under the game's
      ``templates/``), which draws the format's ``view``; ``board_context(view, choices, names)`` turns a
      viewer's view, the choices of his pending decision (None: he has none) and who plays each side
      (``{"home": "Anna", "away": "Ben"}``) into what it reads, as
      ``board``, beside ``act_url``, ``prompt_id``, ``version`` and ``action_id`` for its form (each
      choice is answered by its number, ``pick``). A decision whose choices cannot be listed (the duel's
      line-up) comes with empty ``choices``: the board reads its options and default from the view, which
      gives them to the deciding side, and answers with that decision's own form. A game without a board
      has no pages yet.
    - ``league_points(result)``: the game's own points scheme (grid football's 5-0 / 4-1 / 3-2 by how the
      match was decided): its league matches are then knock-out matches and the table counts these points
      (ruling CP6 of ``games/competition.py``). None: 3-1-0 and draws, as CP3.
    - ``carry``: what a seat carries from one competition match into its next (grid football's suspensions
      and injuries, ``games.competition.CarryRules``, ruling CP7). None: every match starts afresh.
    """

    key: str
    title: str  # N_-marked
    summary: str  # N_-marked, one line for the landing page
    format: MatchFormat
    policies: Mapping[str, Policy]
    room_setup: Callable[[tuple[str, str], bool, Mapping[str, Any], Rng], MatchSetup]
    line: Callable[[MatchEvent], Line | None]
    private: Callable[[Any, Side], frozenset[str]] = _nothing_private
    reveals: Callable[[MatchEvent], Iterable[str]] = _reveals_nothing
    options: tuple[Option, ...] = ()
    competitions: tuple[str, ...] = ("single", "cup", "league")
    in_magic_football: bool = False  # Magic Football's matches can be played as this game (house rule)
    board: str = ""
    board_context: (
        Callable[[Mapping[str, Any], list[dict[str, Any]] | None, Mapping[str, str]], dict[str, Any]] | None
    ) = None
    # the board's static files in load order (``js/boardkit.js``, what every board's script uses, then
    # ``<package>/board.css``, ``board.js``)
    board_assets: tuple[str, ...] = ()
    league_points: Callable[[MatchResult], Mapping[Side, int]] | None = None
    carry: CarryRules | None = None

    def clean_options(self, raw: Mapping[str, Any]) -> dict[str, Any]:
        """The room options with defaults filled in.

        :raises MalformedDecision: an unknown option or a value the option does not offer.
        """
        known = {o.key: o for o in self.options}
        unknown = set(raw) - set(known)
        if unknown:
            raise MalformedDecision(f"unknown option {sorted(unknown)[0]!r}")
        out: dict[str, Any] = {}
        for key, option in known.items():
            value = raw.get(key, option.default)
            if not any(value == v and type(value) is type(v) for v, _label in option.choices):
                raise MalformedDecision(f"{key} cannot be {value!r}")
            out[key] = value
        return out


_GAMES: dict[str, Game] = {}
# Games that register themselves when their package is imported (lazy, like the formats).
_LAZY_GAMES = {
    "duel": "games.duel",
    "dice-football": "games.dice_football",
    "chess-football": "games.chess_football",
    "grid-football": "games.grid_football",
}


def register_game(game: Game) -> Game:
    """Register a game under its key (its format must be registered under the same key)."""
    _GAMES[game.key] = game
    return game


def get_game(key: str) -> Game:
    """The registered game with this key.

    :raises KeyError: no such game.
    """
    if key not in _GAMES and key in _LAZY_GAMES:
        import importlib

        importlib.import_module(_LAZY_GAMES[key])
    return _GAMES[key]


def game_keys() -> tuple[str, ...]:
    """Every game a room can be opened for, in the order the landing page offers them."""
    return tuple(_LAZY_GAMES)
