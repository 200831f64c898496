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
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

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


def knockout(kind: str) -> bool:
    """Whether the competition's matches must have a winner (cup: yes; a single match or a league: no)."""
    return kind == "cup"


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
    """One line of the league table."""

    seat: int
    played: int
    won: int
    drawn: int
    lost: int
    goals_for: int
    goals_against: int
    points: int
    form: tuple[str, ...]  # "W" | "D" | "L", oldest first

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
        }


@dataclass(frozen=True, slots=True)
class Result:
    """A finished match as the competition needs it (goals in play; ``winner`` decides a knock-out)."""

    home: int
    away: int
    score: tuple[int, int]
    winner: int | None  # the winning seat, None for a draw


def table(draw: list[int], results: list[Result]) -> list[Row]:
    """The league table after ``results`` (in the order they were played), sorted by CP4."""
    stats = {s: [0, 0, 0, 0, 0, 0, 0] for s in draw}  # played, won, drawn, lost, for, against, points
    form: dict[int, list[str]] = {s: [] for s in draw}
    for res in results:
        for seat, own, other in (
            (res.home, res.score[0], res.score[1]),
            (res.away, res.score[1], res.score[0]),
        ):
            row = stats[seat]
            row[0] += 1
            row[4] += own
            row[5] += other
            if res.winner is None:
                row[2] += 1
                row[6] += POINTS["draw"]
                form[seat].append("D")
            elif res.winner == seat:
                row[1] += 1
                row[6] += POINTS["win"]
                form[seat].append("W")
            else:
                row[3] += 1
                form[seat].append("L")
    rows = {
        s: Row(s, *v[:6], points=v[6], form=tuple(form[s][-FORM_LENGTH:]))  # type: ignore[misc]
        for s, v in stats.items()
    }
    lot = {s: i for i, s in enumerate(draw)}

    def head_to_head(seat: int, tied: set[int]) -> int:
        points = 0
        for res in results:
            if {res.home, res.away} <= tied and seat in (res.home, res.away):
                points += POINTS["draw"] if res.winner is None else POINTS["win"] if res.winner == seat else 0
        return points

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
