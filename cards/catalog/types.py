"""Catalog value types: what is printed on every card and the board, as frozen dataclasses.

Pure (no Django): the rules, the match engine and the loader all share these types.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class CardKind(StrEnum):
    """The six kinds of cards in the box (the rulebook's 'zes soorten kaarten')."""

    COUNTRY = "country"
    FIELD = "field"
    KEEPER = "keeper"
    RIVAL = "rival"
    MATCH = "match"
    MONEY = "money"


class Color(StrEnum):
    """Green cards help their holder, red cards hinder the opponent (match) or cost money (money)."""

    GREEN = "green"
    RED = "red"


class Target(StrEnum):
    """What a match card is placed beside: a field player or a keeper in action, or nothing."""

    FIELD = "field"
    KEEPER = "keeper"
    NONE = "none"


class SquareKind(StrEnum):
    """Square kinds of the track (§3 of the digest)."""

    START = "start"
    TRAINING = "training"
    CREDIT = "credit"
    DEBET = "debet"
    FIELD = "field"
    KEEPER = "keeper"
    LUCK = "luck"
    RISK = "risk"
    COUNTRY = "country"
    MATCH = "match"
    MONEY = "money"


# Money card effects understood by tournament.rules.money (params in brackets):
#   bank_pays {amount}            receive amount from the Bank
#   pay_bank {amount}             pay amount to the Bank
#   pay_bonus {amount}            pay amount into the Bonus Fund
#   collect_from_each {amount}    every other participant (not out) pays you amount
#   pay_each {amount}             you pay every other participant (not out) amount
#   pay_per_player {amount}       pay amount per card in your team (field players + keeper) to the Bank
#   bank_pays_per_star {amount}   receive amount per star of your team's keeper and field players
#                                 from the Bank
#   bonus_share {percent}         receive percent % of the Bonus Fund (rounded down to 5,000)
#   goto {square}                 move the pawn forward to the next square of that kind (a SquareKind);
#                                 that square then acts (as R5); passing Start pays nothing (R4)
MONEY_EFFECT_KINDS: frozenset[str] = frozenset(
    {
        "bank_pays",
        "pay_bank",
        "pay_bonus",
        "collect_from_each",
        "pay_each",
        "pay_per_player",
        "bank_pays_per_star",
        "bonus_share",
        "goto",
    }
)


# Match card effects understood by the duel engine (cards/rules/); docs/RULES.md gives the full text.
#   stars {delta}       the target in action counts delta more (or fewer) stars while it stays in action,
#                       capped at 7 and floored at 0 (D4); green → own card, red → the opponent's card
#   set_stars {value}   the target in action counts exactly value stars (cap 7) while it stays in action
#   disallow_goal       only in the window right after a goal against you: the goal is cancelled and the
#                       scorer's side brings in its next field player (seed card "Doelpunt afgekeurd")
#   penalty             your field player in action takes a penalty against the opponent's keeper (D5)
#   corner              your next field player comes up to head against the opponent's card in action (D5)
#   cancel              the last match card the opponent played in this window has no effect (match on match)
#   free_swap           swap your field player in action with your reserve; does not count toward the 3 (D3)
#   force_next          the opponent's field player in action must make way: the opponent brings in his next
MATCH_EFFECT_KINDS: frozenset[str] = frozenset(
    {"stars", "set_stars", "disallow_goal", "penalty", "corner", "cancel", "free_swap", "force_next"}
)


@dataclass(frozen=True, slots=True)
class ClassRow:
    """One row of the rulebook's class table (KLASSENTABEL)."""

    klass: int
    selection: int
    entry_cost: int
    visit_fee: int
    field_dealt: int
    keepers_dealt: int
    field_returned: int
    keepers_returned: int


@dataclass(frozen=True, slots=True)
class Country:
    """A country card; the back is the BC's contract."""

    id: str  # FIFA trigram, e.g. "NED"
    name_en: str
    name_nl: str
    klass: int  # 3..7
    european: bool
    flag: str  # flag-icons code, e.g. "nl", "gb-eng"
    fifa_rank: int


@dataclass(frozen=True, slots=True)
class PlayerCard:
    """A field player, keeper or rival card (fictional people)."""

    id: str  # "F001".."F103", "K01".."K33", "R01".."R22"
    kind: CardKind  # FIELD, KEEPER or RIVAL
    name: str
    stars: int
    position: str  # "GK", "DF", "MF", "FW"
    country: str | None  # FIFA trigram of the player's nationality, None for rival cards


@dataclass(frozen=True, slots=True)
class Effect:
    """A machine-readable effect: a kind from a known vocabulary plus its parameters."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchCard:
    """A match card: read aloud, then placed beside a card in action (D4, D5)."""

    id: str  # "M01".."M40"
    name_en: str
    name_nl: str
    text_en: str
    text_nl: str
    color: Color
    target: Target
    penalty_ok: bool  # P not crossed out: may be played during a Penalty moment
    corner_ok: bool  # C not crossed out: may be played during a Corner moment
    effect: Effect
    seed: bool = False  # one of the four cards printed in the rulebook


@dataclass(frozen=True, slots=True)
class MoneyCard:
    """A money card: shown to all and executed (R6)."""

    id: str  # "G01".."G22"
    name_en: str
    name_nl: str
    text_en: str
    text_nl: str
    color: Color
    effect: Effect


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the track, in order from Start (index 0)."""

    index: int
    kind: SquareKind


@dataclass(frozen=True, slots=True)
class Board:
    """The board: the track, the card boxes and the finals boxes."""

    squares: tuple[Square, ...]
    card_boxes: dict[int, str]  # box number -> what lies there (1..7)
    finals_boxes: int  # 8
    starting_capital: int  # 2,440,000
    bills: dict[int, int]  # bill value -> count making up the starting capital

    @property
    def country_squares(self) -> tuple[int, ...]:
        """Indexes of the 16 country squares in track order from Start."""
        return tuple(s.index for s in self.squares if s.kind is SquareKind.COUNTRY)


@dataclass(frozen=True, slots=True)
class Catalog:
    """Everything in the box, validated. One instance per process (see ``get_catalog``)."""

    version: str
    ranking_date: str
    classes: dict[int, ClassRow]
    countries: dict[str, Country]
    field_players: dict[str, PlayerCard]
    keepers: dict[str, PlayerCard]
    rivals: dict[str, PlayerCard]
    match_cards: dict[str, MatchCard]
    money_cards: dict[str, MoneyCard]
    board: Board

    def kind_of(self, card_id: str) -> CardKind:
        """The kind of a card id; raises KeyError for an unknown id."""
        for kind, table in (
            (CardKind.FIELD, self.field_players),
            (CardKind.KEEPER, self.keepers),
            (CardKind.RIVAL, self.rivals),
            (CardKind.MATCH, self.match_cards),
            (CardKind.MONEY, self.money_cards),
            (CardKind.COUNTRY, self.countries),
        ):
            if card_id in table:
                return kind
        raise KeyError(card_id)

    def player(self, card_id: str) -> PlayerCard:
        """A field, keeper or rival card by id."""
        return self.field_players.get(card_id) or self.keepers.get(card_id) or self.rivals[card_id]

    def all_ids(self) -> list[str]:
        """Every card id in the box, in a stable order."""
        return [
            *self.countries,
            *self.field_players,
            *self.keepers,
            *self.rivals,
            *self.match_cards,
            *self.money_cards,
        ]
