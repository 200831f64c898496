"""Helpers shared by the duel tests: the match-card table, teams, and a driver for bot matches."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from cards.catalog.types import Color, Effect, MatchCard, Target
from cards.rules.duel import DuelFormat, DuelState
from games.api import MatchEvent, MatchSetup, TeamCard, TeamEntry
from games.rng import Rng

DATA = Path(__file__).resolve().parents[3] / "cards" / "data" / "match_cards.json"


@cache
def match_table() -> dict[str, MatchCard]:
    """The 40 match cards read straight from the data file (independent of the catalog loader)."""
    raw = json.loads(DATA.read_text(encoding="utf-8"))
    table = {}
    for c in raw["cards"]:
        effect = dict(c["effect"])
        kind = effect.pop("kind")
        table[c["id"]] = MatchCard(
            id=c["id"],
            name_en=c["name_en"],
            name_nl=c["name_nl"],
            text_en=c["text_en"],
            text_nl=c["text_nl"],
            color=Color(c["color"]),
            target=Target(c["target"]),
            penalty_ok=c["penalty_ok"],
            corner_ok=c["corner_ok"],
            effect=Effect(kind, effect),
            seed=c.get("seed", False),
        )
    return table


@cache
def fmt() -> DuelFormat:
    return DuelFormat(match_table())


def team(
    prefix: str, stars: list[int], keeper: int, holding: tuple[str, ...] = (), label: str = ""
) -> TeamEntry:
    """A team whose field players are ``{prefix}1..`` with the given stars and keeper ``{prefix}K``."""
    field = tuple(TeamCard(f"{prefix}{i + 1}", s) for i, s in enumerate(stars))
    return TeamEntry(label or prefix, field, TeamCard(f"{prefix}K", keeper, keeper=True), holding)


def setup(home: TeamEntry, away: TeamEntry, knockout: bool = True, et: tuple[str, ...] = ()) -> MatchSetup:
    return MatchSetup(home=home, away=away, knockout=knockout, extra_time_cards=et)


def lineup(order: list[str], reserve: str | None = None) -> dict[str, Any]:
    return {"kind": "lineup", "order": order, "reserve": reserve}


def kinds(events: list[MatchEvent]) -> list[str]:
    return [e.kind for e in events]


def reveals(events: list[MatchEvent]) -> list[tuple[str, str]]:
    return [(e.data["side"], e.data["card"]) for e in events if e.kind == "card_revealed"]


class Match:
    """A scripted match: start it, set line-ups, take decisions, keep every event."""

    def __init__(
        self,
        home: TeamEntry,
        away: TeamEntry,
        knockout: bool = True,
        et: tuple[str, ...] = (),
        seed: int = 7,
    ) -> None:
        self.f = fmt()
        self.rng = Rng(seed)
        self.st: DuelState = self.f.start(setup(home, away, knockout, et), self.rng)
        self.events: list[MatchEvent] = []

    def lineups(
        self, home: dict[str, Any] | None = None, away: dict[str, Any] | None = None
    ) -> list[MatchEvent]:
        """Both line-ups (None = the side's default); returns the events of the kick-off and after."""
        out: list[MatchEvent] = []
        for side, choice in (("home", home), ("away", away)):
            d = next(d for d in self.f.decisions(self.st) if d.side == side)
            out += self.act(side, choice if choice is not None else d.default)
        return out

    def act(self, side: str, choice: dict[str, Any]) -> list[MatchEvent]:
        ev = self.f.apply(self.st, side, choice, self.rng)
        self.events += ev
        return ev

    def play(self, side: str, card: str) -> list[MatchEvent]:
        return self.act(side, {"kind": "play", "card": card})

    def pass_(self, side: str) -> list[MatchEvent]:
        return self.act(side, {"kind": "pass"})

    def swap(self, side: str) -> list[MatchEvent]:
        return self.act(side, {"kind": "swap"})

    def pending(self) -> tuple[str, ...]:
        return tuple(d.side for d in self.f.decisions(self.st))

    def choices(self, side: str) -> list[dict[str, Any]]:
        d = [d for d in self.f.decisions(self.st) if d.side == side]
        return list(d[0].choices) if d else []

    def playable(self, side: str) -> set[str]:
        return {c["card"] for c in self.choices(side) if c["kind"] == "play"}

    def in_action(self) -> tuple[tuple[str, int] | None, tuple[str, int] | None]:
        """(card id, effective stars) in action per side."""
        out = []
        for s in (0, 1):
            a = self.st.active[s]
            out.append((self.st.ids[s][a], self.st.eff[s]) if a >= 0 else None)
        return out[0], out[1]

    def snapshot(self) -> str:
        return json.dumps(self.f.to_dict(self.st), sort_keys=True)

    def pass_until(self, done: Any, limit: int = 500) -> None:
        """Pass every window (default line-ups) until ``done(self)`` is true (fails after ``limit`` steps)."""
        for _ in range(limit):
            if done(self):
                return
            pending = self.f.decisions(self.st)
            assert pending, "the match ended before the awaited situation"
            d = pending[0]
            self.act(d.side, d.default if d.kind == "lineup" else {"kind": "pass"})
        raise AssertionError("situation not reached")

    def secrets(self) -> dict[str | None, set[str]]:
        """Card ids each viewer must not see now: per viewer (None = public), everything of the match
        (team cards, holdings, extra-time cards) not yet shown to that viewer by an event."""
        everything = {cid for ids in self.st.ids for cid in ids} | {c for h in self.st.holding for c in h}
        everything |= set(self.st.et_cards)
        own = {
            side: set(self.st.ids[s]) | set(self.st.holding[s]) | set(self.st.et_cards[2 * s : 2 * s + 2])
            for s, side in enumerate(("home", "away"))
        }
        known = _public_ids(self.events)
        return {
            None: everything - known,
            "home": everything - known - own["home"],
            "away": everything - known - own["away"],
        }

    def public_ids_ok(self) -> None:
        """Every public event names only cards that are public by then (revealed or played)."""
        everything = {cid for ids in self.st.ids for cid in ids} | {c for h in self.st.holding for c in h}
        everything |= set(self.st.et_cards)
        for i, e in enumerate(self.events):
            if e.audience != "public":
                continue
            known = _public_ids(self.events[: i + 1])
            assert not leaks(e.data, everything - known), (e.kind, e.data)


_SHOWN = {
    "card_revealed": ("card",),
    "swap": ("in",),
    "penalty_moment": ("keeper",),
    "corner_moment": ("card",),
    "match_card_played": ("card",),
    "shootout_kick": ("card",),
}


def _public_ids(events: list[MatchEvent]) -> set[str]:
    """Card ids made public by these events."""
    known: set[str] = set()
    for e in events:
        if e.audience == "public":
            for key in _SHOWN.get(e.kind, ()):
                known.add(e.data[key])
    return known


def leaks(data: Any, secret: set[str]) -> set[str]:
    """Which secret ids occur (as JSON strings) in ``data``."""
    text = json.dumps(data)
    return {cid for cid in secret if f'"{cid}"' in text}


# Field players in the catalog have 2–6 stars, fewest at 5 and 6; keepers 3–5, fewest at 5 (§1).
FIELD_STARS = [2] * 22 + [3] * 26 + [4] * 26 + [5] * 16 + [6] * 13
KEEPER_STARS = [3] * 12 + [4] * 13 + [5] * 8


def equal_teams(seed: int) -> MatchSetup:
    """Two teams with the same stars (different cards), 3–5 random match cards each, and four
    extra-time cards: only line-ups, swaps and match-card play can make the difference."""
    r = Rng(seed)
    stars = [r.choice(FIELD_STARS) for _ in range(11)]
    keeper = r.choice(KEEPER_STARS)
    cards = sorted(match_table())
    r.shuffle(cards)
    nh, na = 3 + r.randbelow(3), 3 + r.randbelow(3)
    return setup(
        team("H", stars, keeper, tuple(cards[:nh])),
        team("A", stars, keeper, tuple(cards[nh : nh + na])),
        et=tuple(cards[nh + na : nh + na + 4]),
    )
