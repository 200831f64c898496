"""Competitions any match format can be played in: one match, a knock-out cup, a round-robin league.

Pure and small on purpose: it says who plays whom in which round, who goes through, and what the league
table says. Playing a match is the format's business (``games.api.MatchFormat``); the room engine opens a
round's matches, feeds their results back here and asks for the next round.

Rulings (recorded in docs/RULES.md, "Competitions"):

- CP1 A single match is for 2 seats; it may end level where the format allows a draw.
- CP2 A cup is for 3–8 seats. The draw (seeded) orders the seats; with fewer than 4 or 8 the first seats
  of the draw get a bye into the next round (a bye is no match and no result). Cup matches are knock-out
  matches: the format's own tie-break (extra time, penalties) decides every match.
- CP3 A league is for 3–8 seats: every pair meets once (the circle method; an odd number of seats gives
  one seat a rest each round), home and away alternating. A win earns 3 points, a draw 1, a defeat 0.
- CP4 League table order: points, then goal difference, then goals scored, then the points of the matches
  between the tied seats, then the draw (a seeded lot at the start): the order is always total.
- CP5 Matches of one round involve different seats and are played at the same time.
- CP6 A game with its own points scheme (``Game.league_points``, e.g. grid football's 5-0 / 4-1 / 3-2) plays
  its league matches as knock-out matches (no draws: the format's extra time and shoot-out decide) and its
  table counts that scheme's points, the head-to-head of CP4 included; the rest of CP4 stands. Its rows also
  count the wins and defeats after extra time and on penalties.
- CP7 A game that carries something from match to match (``Game.carry``, e.g. grid football's suspensions and
  injuries) keeps one book per seat in the competition's state: before a seat's match its book says who may
  not play it and why (the match option ``CarryRules.option``), after the match the side's part of the
  match's report updates it. Only a seat's own matches count: a bye or a rest is no match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from games.api import MatchSetup

Kind = Literal["single", "cup", "league"]
KINDS: tuple[Kind, ...] = ("single", "cup", "league")
MIN_SEATS: dict[str, int] = {"single": 2, "cup": 3, "league": 3}
MAX_SEATS: dict[str, int] = {"single": 2, "cup": 8, "league": 8}
POINTS = {"win": 3, "draw": 1, "loss": 0}  # CP3
FORM_LENGTH = 5  # the table's "form" column: the last five results, newest last


class CompetitionError(ValueError):
    """A competition that cannot be held (a kind we do not know, a number of seats it does not allow)."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """One match of a round: two seats, who is at home, and where it sits in the cup bracket."""

    round: int  # 1-based
    home: int
    away: int
    slot: int = 0  # cup: the match's index in its round (its winner fills entry ``slot`` of the next)


def check(kind: str, seats: int) -> None:
    """Refuse a competition the rules do not hold.

    :raises CompetitionError: unknown kind, or a number of seats outside its range (CP1–CP3).
    """
    if kind not in KINDS:
        raise CompetitionError(f"unknown competition {kind!r}")
    if not MIN_SEATS[kind] <= seats <= MAX_SEATS[kind]:
        raise CompetitionError(f"a {kind} is for {MIN_SEATS[kind]} to {MAX_SEATS[kind]} seats, not {seats}")


def knockout(kind: str, points_scheme: bool = False) -> bool:
    """Whether the competition's matches must have a winner (cup: yes; a single match: no; a league: only
    when its game scores by its own points scheme, CP6)."""
    return kind == "cup" or (kind == "league" and points_scheme)


# ------------------------------------------------------------------------------------------ league


def league_rounds(draw: list[int]) -> list[list[Pairing]]:
    """Every round of a round robin over the seats in ``draw`` order (CP3, CP5).

    >>> [[(p.home, p.away) for p in r] for r in league_rounds([1, 2, 3])]
    [[(2, 3)], [(3, 1)], [(1, 2)]]
    """
    ring: list[int | None] = list(draw)
    if len(ring) % 2:
        ring.append(None)  # the seat paired with None rests this round
    n = len(ring)
    rounds: list[list[Pairing]] = []
    for r in range(n - 1):
        pairs: list[Pairing] = []
        for i in range(n // 2):
            a, b = ring[i], ring[n - 1 - i]
            if a is None or b is None:
                continue
            # the first seat (fixed in the circle) alternates; the others are at home in the upper row, which
            # the turning circle gives each of them about half the time: homes differ by at most one
            home, away = (a, b) if i > 0 or r % 2 == 0 else (b, a)
            pairs.append(Pairing(round=r + 1, home=home, away=away, slot=len(pairs)))
        rounds.append(pairs)
        ring = [ring[0], ring[-1], *ring[1:-1]]  # the circle turns; the first seat stays
    return rounds


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the league table (``won`` and ``lost`` count every win and defeat, those after extra time
    and on penalties included: CP6's table shows them apart)."""

    seat: int
    played: int
    won: int
    drawn: int
    lost: int
    goals_for: int
    goals_against: int
    points: int
    form: tuple[str, ...]  # "W" | "D" | "L", oldest first
    won_extra_time: int = 0
    won_penalties: int = 0
    lost_extra_time: int = 0
    lost_penalties: int = 0

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, for views."""
        return {
            "seat": self.seat,
            "played": self.played,
            "won": self.won,
            "drawn": self.drawn,
            "lost": self.lost,
            "goals_for": self.goals_for,
            "goals_against": self.goals_against,
            "goal_difference": self.goal_difference,
            "points": self.points,
            "form": list(self.form),
            "won_regular": self.won - self.won_extra_time - self.won_penalties,
            "won_extra_time": self.won_extra_time,
            "won_penalties": self.won_penalties,
            "lost_regular": self.lost - self.lost_extra_time - self.lost_penalties,
            "lost_extra_time": self.lost_extra_time,
            "lost_penalties": self.lost_penalties,
        }


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match as the competition needs it (goals in play; ``winner`` decides a knock-out;
    ``points`` are the game's own scheme's, CP6, None for 3-1-0)."""

    home: int
    away: int
    score: tuple[int, int]
    winner: int | None  # the winning seat, None for a draw
    decided_by: str = "regular"  # "regular" | "extra_time" | "penalties" | …, as ``MatchResult``
    points: tuple[int, int] | None = None  # (home, away)

    def points_of(self, seat: int) -> int:
        """The points this match earned ``seat`` (CP3, or the game's scheme, CP6)."""
        if self.points is not None:
            return self.points[0 if seat == self.home else 1]
        if self.winner is None:
            return POINTS["draw"]
        return POINTS["win"] if self.winner == seat else POINTS["loss"]


_COUNTS = ("played", "won", "drawn", "lost", "goals_for", "goals_against", "points")
_WAYS = ("won_extra_time", "won_penalties", "lost_extra_time", "lost_penalties")


def table(draw: list[int], results: list[Result]) -> list[Row]:
    """The league table after ``results`` (in the order they were played), sorted by CP4 with each result's
    points (CP3, or its game's scheme: CP6)."""
    counts = {s: dict.fromkeys(_COUNTS, 0) for s in draw}
    ways = {s: dict.fromkeys(_WAYS, 0) for s in draw}
    form: dict[int, list[str]] = {s: [] for s in draw}
    for res in results:
        for seat, own, other in (
            (res.home, res.score[0], res.score[1]),
            (res.away, res.score[1], res.score[0]),
        ):
            row = counts[seat]
            row["played"] += 1
            row["goals_for"] += own
            row["goals_against"] += other
            row["points"] += res.points_of(seat)
            outcome = "drawn" if res.winner is None else "won" if res.winner == seat else "lost"
            row[outcome] += 1
            form[seat].append(outcome[0].upper())
            if outcome != "drawn" and res.decided_by in ("extra_time", "penalties"):
                ways[seat][f"{outcome}_{res.decided_by}"] += 1
    rows = {s: Row(s, **counts[s], form=tuple(form[s][-FORM_LENGTH:]), **ways[s]) for s in draw}
    lot = {s: i for i, s in enumerate(draw)}

    def head_to_head(seat: int, tied: set[int]) -> int:
        return sum(
            res.points_of(seat)
            for res in results
            if {res.home, res.away} <= tied and seat in (res.home, res.away)
        )

    def key(row: Row) -> tuple[int, ...]:
        return (-row.points, -row.goal_difference, -row.goals_for)

    ordered = sorted(rows.values(), key=key)
    out: list[Row] = []
    i = 0
    while i < len(ordered):  # CP4: break ties by the matches between the tied seats, then by the lot
        j = i
        while j < len(ordered) and key(ordered[j]) == key(ordered[i]):
            j += 1
        tied = {r.seat for r in ordered[i:j]}
        out += sorted(ordered[i:j], key=lambda r: (-head_to_head(r.seat, tied), lot[r.seat]))
        i = j
    return out


# -------------------------------------------------------------------------------------------- cup


def bracket_size(seats: int) -> int:
    """The smallest power of two that holds every seat (4 or 8 for a cup of 3–8)."""
    size = 2
    while size < seats:
        size *= 2
    return size


def cup_entries(draw: list[int]) -> list[int | None]:
    """Round 1's bracket lines: pairs ``(entries[2k], entries[2k+1])``; ``None`` is a bye (CP2).

    >>> cup_entries([5, 6, 7])
    [5, None, 6, 7]
    """
    byes = bracket_size(len(draw)) - len(draw)
    entries: list[int | None] = []
    for i, seat in enumerate(draw):
        entries.append(seat)
        if i < byes:
            entries.append(None)
    return entries


def cup_round(entries: list[int | None], round_number: int) -> tuple[list[Pairing], dict[int, int]]:
    """The matches of a cup round from its bracket lines, and the seats going through on a bye
    (by the slot of the next round's entry they fill)."""
    pairings: list[Pairing] = []
    byes: dict[int, int] = {}
    for slot in range(len(entries) // 2):
        a, b = entries[2 * slot], entries[2 * slot + 1]
        if a is not None and b is not None:
            pairings.append(Pairing(round=round_number, home=a, away=b, slot=slot))
        elif a is not None or b is not None:
            byes[slot] = a if a is not None else b  # type: ignore[assignment]
    return pairings, byes


def cup_next_entries(entries: list[int | None], winners: dict[int, int]) -> list[int | None]:
    """The next round's bracket lines: the winner (or bye) of slot k fills entry k."""
    return [winners.get(slot) for slot in range(len(entries) // 2)]


def cup_rounds(seats: int) -> int:
    """How many rounds a cup of ``seats`` has (2 for 3–4, 3 for 5–8)."""
    rounds, size = 0, bracket_size(seats)
    while size > 1:
        size //= 2
        rounds += 1
    return rounds


def round_name(kind: str, round_number: int, rounds: int) -> str:
    """A round's key for sentences and pages: ``final``, ``semi_final``, ``quarter_final``, ``round_N``,
    or ``match`` for a single match."""
    if kind == "single":
        return "match"
    if kind == "cup":
        left = rounds - round_number
        return {0: "final", 1: "semi_final", 2: "quarter_final"}.get(left, f"round_{round_number}")
    return f"round_{round_number}"


# ------------------------------------------------------------------------- carried from match to match

Absence = dict[str, Any]
"""A player who may not play a match, and why: ``{"player": 7, "reason": "suspended" | "injured",
"matches": 2}`` (``matches``: the matches he still misses, this one included)."""


@dataclass(frozen=True)
class CarryRules:
    """What a seat carries from each of its matches into its next one (CP7): a book per seat, JSON-safe so
    that it lives in the competition's state (a restart or a replay has it as it was).

    - ``start()``: a seat's book before its first match.
    - ``report(engine)``: a finished match's state -> each side's part of its report (``"home"``, ``"away"``).
    - ``after(book, part)``: the book after a match, from the seat's part of that match's report.
    - ``absent(book)``: who may not play the seat's next match and why (``Absence``), in squad order.
    - ``option``: the match option that receives ``{"home": [players], "away": [players]}``; the format
      refuses a line-up naming any of them.
    """

    start: Callable[[], Any]
    report: Callable[[Any], Mapping[str, Any]]
    after: Callable[[Any, Any], Any]
    absent: Callable[[Any], list[Absence]]
    option: str = "unavailable"


def carry_start(carry: CarryRules, draw: list[int]) -> dict[str, Any]:
    """Every seat's book before the competition's first match (JSON: seats as strings)."""
    return {str(seat): carry.start() for seat in draw}


def carry_absent(
    carry: CarryRules, books: Mapping[str, Any], home: int, away: int
) -> dict[str, list[Absence]]:
    """Who may not play the match between ``home`` and ``away``, and why, by side."""
    return {
        "home": carry.absent(books.get(str(home), carry.start())),
        "away": carry.absent(books.get(str(away), carry.start())),
    }


def carry_into(carry: CarryRules, setup: MatchSetup, absent: Mapping[str, list[Absence]]) -> MatchSetup:
    """The match's setup with its absent players in the carry's option (a player missing for two reasons is
    named once)."""
    players = {side: sorted({a["player"] for a in absent.get(side, [])}) for side in ("home", "away")}
    return replace(setup, options={**setup.options, carry.option: players})


def carry_after(
    carry: CarryRules, books: Mapping[str, Any], home: int, away: int, engine: Any
) -> dict[str, Any]:
    """Every seat's book after the match between ``home`` and ``away`` ended in state ``engine``: the two
    seats' books move on, the others' stay as they were (GF-21: only a seat's own matches count)."""
    report = carry.report(engine)
    out = dict(books)
    for seat, side in ((home, "home"), (away, "away")):
        out[str(seat)] = carry.after(books.get(str(seat), carry.start()), report.get(side, {}))
    return out
