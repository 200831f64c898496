"""The Champions Cup's bookkeeping (§16): points by how a match was won, and the suspensions and injury
windows a squad carries from match to match. Pure: a book in, the match's report in, a new book out.

Why its own module: ``games/competition.py`` knows rounds, brackets and a 3-1-0 league table for every
format; grid football's tournament also needs points that depend on how a match was decided and players
who miss matches for what happened in earlier ones. The platform calls these through two hooks of grid
football's ``Game`` (``league_points=LEAGUE_POINTS, carry=CARRY``; rulings CP6 and CP7 of
``games/competition.py``): the books live in the competition's state as JSON (``book_to_json``).

Rulings (RULES.md, §9 "The Champions Cup"):

- Points (§16): a win in normal time 5-0, after extra time (golden goal) 4-1, on penalties 3-2. Every cup
  match has a winner (it is played as a knock-out match).
- Cards (§16): a red card (a second yellow or a keeper's handball) suspends for the next 2 matches; a
  yellow opens a window of 3 matches in which another yellow suspends for 1 match; after a suspension the
  same window of 3 opens again; a red inside a window suspends for 2 + 1 = 3. A match without a card counts
  the window down; at 0 the slate is clean.
- Injuries (§16, PROPOSED mapping): the same with a window of 2: one bandage is the yellow, being injured
  out (a second bandage) is the red.
- GF-21: windows and suspensions count the team's matches (a match he is not named for counts too);
  a match he is suspended for counts his suspension down and is no card-free match of the window.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.api import MatchResult, Side
from games.competition import Absence, CarryRules

POINTS: dict[str, tuple[int, int]] = {"regular": (5, 0), "extra_time": (4, 1), "penalties": (3, 2)}
CARD_WINDOW = 3
INJURY_WINDOW = 2
RED_MATCHES = 2
SECOND_MATCHES = 1


def match_points(result: MatchResult) -> dict[Side, int]:
    """The cup points of each side for a decided match (§16).

    :raises ValueError: a match without a winner, or decided in a way the cup does not score.
    """
    if result.winner is None:
        raise ValueError("a Champions Cup match always has a winner")
    try:
        win, loss = POINTS[result.decided_by]
    except KeyError:
        raise ValueError(f"a cup match is not decided by {result.decided_by!r}") from None
    loser: Side = "away" if result.winner == "home" else "home"
    return {result.winner: win, loser: loss}


@dataclass(frozen=True, slots=True)
class Track:
    """One kind of sanction of one player: matches still to miss, and the matches left in his window."""

    suspended: int = 0
    window: int = 0

    def after(self, event: str | None, window: int) -> Track:
        """The track after a team match in which he got ``event``: None, "minor" (a yellow, one bandage) or
        "major" (sent off, injured out)."""
        if self.suspended:  # he sat this one out: it counts his suspension down (GF-21)
            left = self.suspended - 1
            return Track(left, 0 if left else window)
        if event == "major":
            return Track(RED_MATCHES + (SECOND_MATCHES if self.window else 0), 0)
        if event == "minor":
            return Track(SECOND_MATCHES, 0) if self.window else Track(0, window)
        return Track(0, max(0, self.window - 1))


@dataclass(frozen=True, slots=True)
class Record:
    """A player's cards and injuries as the cup carries them."""

    cards: Track = Track()
    injuries: Track = Track()

    @property
    def available(self) -> bool:
        return not self.cards.suspended and not self.injuries.suspended


Book = Mapping[int, Record]  # squad number -> record (a player absent from the book has a clean record)


def unavailable(book: Book) -> list[int]:
    """The squad numbers that may not be named for the next match (the match option ``unavailable``)."""
    return sorted(n for n, r in book.items() if not r.available)


def _events(line: Mapping[str, Any] | None) -> tuple[str | None, str | None]:
    if not line:
        return None, None
    yellow = line.get("yellow", 0)
    card = "major" if line.get("red") or yellow >= 2 else "minor" if yellow else None
    injury = "major" if line.get("injured_out") else "minor" if line.get("injuries") else None
    return card, injury


def after_match(book: Book, report: Mapping[int, Mapping[str, Any]]) -> dict[int, Record]:
    """The squad's book after a match, from the side's part of the match report
    (``GridFootballFormat.report``: squad number -> yellow, red, injuries, injured_out). Clean records are
    left out."""
    out: dict[int, Record] = {}
    for n in sorted(set(book) | set(report)):
        record = book.get(n, Record())
        card, injury = _events(report.get(n))
        new = replace(
            record,
            cards=record.cards.after(card, CARD_WINDOW),
            injuries=record.injuries.after(injury, INJURY_WINDOW),
        )
        if new != Record():
            out[n] = new
    return out


# ------------------------------------------------------------------ the platform's hooks (CP6, CP7)

LEAGUE_POINTS = match_points  # ``Game.league_points``: 5-0, 4-1, 3-2, and no draws in a league


def book_to_json(book: Book) -> dict[str, Any]:
    """A book as the competition's state stores it: ``{"7": {"cards": [2, 0], "injuries": [0, 0]}}``
    (squad number -> [matches still to miss, matches left in the window])."""
    return {
        str(n): {
            "cards": [r.cards.suspended, r.cards.window],
            "injuries": [r.injuries.suspended, r.injuries.window],
        }
        for n, r in sorted(book.items())
    }


def book_from_json(data: Mapping[str, Any]) -> dict[int, Record]:
    """Inverse of ``book_to_json``."""
    return {int(n): Record(cards=Track(*r["cards"]), injuries=Track(*r["injuries"])) for n, r in data.items()}


def _start() -> dict[str, Any]:
    return {}


def _report(engine: Any) -> Mapping[str, Any]:
    from games.grid_football.rules import FORMAT

    return FORMAT.report(engine)


def _after(book: Mapping[str, Any], part: Mapping[Any, Mapping[str, Any]]) -> dict[str, Any]:
    report = {int(n): line for n, line in part.items()}  # the report's numbers, ints or (from JSON) strings
    return book_to_json(after_match(book_from_json(book), report))


def absences(book: Book) -> list[Absence]:
    """Who may not be named for the next match and why, in squad order: suspended (cards) and injured, with
    the matches each still misses, this one included (a player may be both)."""
    out: list[Absence] = []
    for n, record in sorted(book.items()):
        for reason, track in (("suspended", record.cards), ("injured", record.injuries)):
            if track.suspended:
                out.append({"player": n, "reason": reason, "matches": track.suspended})
    return out


def _absent(book: Mapping[str, Any]) -> list[Absence]:
    return absences(book_from_json(book))


CARRY = CarryRules(start=_start, report=_report, after=_after, absent=_absent, option="unavailable")
"""``Game.carry``: each seat's book moves on after its matches (``FORMAT.report``) and its suspended and
injured players go into its next match's ``unavailable`` option, which the line-up refuses (§16, GF-21)."""


__all__ = [
    "CARD_WINDOW",
    "CARRY",
    "INJURY_WINDOW",
    "LEAGUE_POINTS",
    "POINTS",
    "Book",
    "Record",
    "Track",
    "absences",
    "after_match",
    "book_from_json",
    "book_to_json",
    "match_points",
    "unavailable",
]
