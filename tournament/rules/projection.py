"""What each viewer may see of a game: the only way state leaves the server.

Viewers: a participant's seat, a spectator, the host (Bank/Official console). Blind piles are counts,
others' teams and holdings are counts, a running match is the match format's view for the viewer's
side (or the public view). A host who also plays sees his own seat's private cards and nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cards.catalog import Catalog
from games.api import get_format
from tournament.rules import competition
from tournament.rules.state import (
    BANK,
    BONUS,
    SHARED_PILES,
    GameState,
    MatchRecord,
    account_key,
    holding_key,
    selection_key,
    team_key,
)

FACE_UP_PILES = ("box5", "box7", "box6")  # only the top of box 5/7 is visible; box 6 is an open pile


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking: ``seat`` for a participant, ``host`` for the console, neither for a spectator."""

    seat: int | None = None
    host: bool = False
    reveal_all: bool = False  # replays of finished games only

    @property
    def kind(self) -> str:
        """ "seat", "host" or "spectator"."""
        if self.host:
            return "host"
        return "seat" if self.seat is not None else "spectator"


SPECTATOR = Viewer()


def _card(cat: Catalog, card: str) -> dict[str, Any]:
    p = cat.player(card)
    return {
        "id": card,
        "name": p.name,
        "stars": p.stars,
        "keeper": p.kind.value == "keeper",
        "position": p.position,
        "country": p.country,
    }


def project(
    state: GameState, viewer: Viewer, cat: Catalog, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The JSON-safe view of ``state`` for ``viewer``: the public part plus the viewer's personal part.

    ``public`` is ``public_part(state, cat)`` when the caller projects one state for many viewers: the
    parts everybody sees are then built once and shared (never mutated afterwards).
    """
    view = dict(public if public is not None else public_part(state, cat))
    view.update(personal_part(state, viewer, cat))
    return view


def public_part(state: GameState, cat: Catalog) -> dict[str, Any]:
    """Everything in a view that is the same for every viewer (no key of ``personal_part``)."""
    if state.game != "magic-football":
        return competition.public_part(state)
    seats = []
    countries = state.countries_by_seat()
    for seat, st in sorted(state.seats.items()):
        team = state.piles.get(team_key(seat), [])
        seats.append(
            {
                "seat": seat,
                "nickname": st.nickname,
                "bot": st.bot,
                "host": st.host,
                "takeover": st.takeover,
                "role": st.role,
                "out": st.out,
                "money": state.accounts.get(account_key(seat)),
                "country": countries.get(seat),
                "team_count": len(team),
                "holding_count": len(state.piles.get(holding_key(seat), [])),
            }
        )
    squares = []
    marker_on: dict[int, int] = {}  # square -> the first marker lying on it
    for n, at in state.markers.items():
        if at is not None:
            marker_on.setdefault(at, n)
    rivals = state.phase == "phase2"
    for idx, sq in sorted(state.squares.items()):
        status = sq.status
        if status == "qualified" and rivals:
            status = "rival"
        marker = marker_on.get(idx)
        squares.append(
            {
                "index": idx,
                "status": status,
                "country": state.on_square.get(idx),
                "coach": sq.coach,
                "marker": marker,
            }
        )
    box5 = state.piles.get("box5", [])
    box7 = state.piles.get("box7", [])
    return {
        "status": state.status,
        "phase": state.phase,
        "stage": state.stage,
        "mode": state.mode,
        "house_rules": dict(state.house_rules),
        "seats": seats,
        "bonus_fund": state.accounts.get(BONUS, 0),
        "pawn": state.pawn,
        "active_seat": state.active_seat if state.phase in ("phase1", "phase2") else None,
        "squares": squares,
        "open_cards": {
            "field": _card(cat, box5[-1]) if box5 else None,
            "keeper": _card(cat, box7[-1]) if box7 else None,
        },
        "piles": {key: len(state.piles.get(key, [])) for key in SHARED_PILES},
        "used_match_cards": list(state.piles.get("box6", [])),
        "markers": {str(n): sq for n, sq in sorted(state.markers.items())},
        # who decides what, and the decision timer's deadline (server epoch ms) or, while paused, the
        # milliseconds left (R19a–b; null without a timer)
        "prompts": [
            {"id": p.id, "seat": p.seat, "kind": p.kind, "deadline": p.deadline, "left": p.left}
            for p in state.prompts
        ],
        "finals": {str(box): c for box, c in sorted(state.finals.items())},
        "finals_coaches": {str(box): s for box, s in sorted(state.finals_coaches.items())},
        "matches": [_match_summary(m) for m in state.matches],
        "turns": dict(state.turns),
        "winner": dict(state.winner) if state.winner else None,
        "cup": list(state.piles.get("cup", [])),
    }


def personal_part(
    state: GameState,
    viewer: Viewer,
    cat: Catalog,
    match_views: dict[tuple[str | None, bool], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What depends on who looks: the match from his side, his cards and decisions, host data.

    ``match_views`` caches the running match's view by (side, reveal) when one state is projected for
    many viewers: every viewer outside the match shares the public one.
    """
    if state.game != "magic-football":
        return competition.personal_part(state, viewer, match_views)  # type: ignore[arg-type]
    reveal = viewer.reveal_all and state.status in ("finished", "abandoned")
    part: dict[str, Any] = {
        "viewer": viewer.kind,
        "seat": viewer.seat,
        "match": None,
        "me": None,
        "my_prompts": [],
    }
    running = state.running_match
    if running is not None:
        side = _match_side(running, viewer)
        if match_views is None:
            part["match"] = _match_view(running, side, reveal)
        else:
            view = match_views.get((side, reveal))
            if view is None:
                view = match_views[(side, reveal)] = _match_view(running, side, reveal)
            part["match"] = view
    if viewer.seat is not None and viewer.seat in state.seats:
        seat = viewer.seat
        part["me"] = {
            "seat": seat,
            "team": [_card(cat, c) for c in state.piles.get(team_key(seat), [])],
            "holding": list(state.piles.get(holding_key(seat), [])),
            "selection": list(state.piles.get(selection_key(seat), [])),
        }
        part["my_prompts"] = [
            {"id": p.id, "kind": p.kind, "choices": p.choices, "default": p.default, "options": p.options}
            for p in state.prompts
            if p.seat == seat
        ]
    if reveal:
        part["teams"] = {str(s): list(state.piles.get(team_key(s), [])) for s in state.seats}
        part["holdings"] = {str(s): list(state.piles.get(holding_key(s), [])) for s in state.seats}
    if viewer.host:
        part["host"] = {
            "accounts": dict(state.accounts),
            "bank": state.accounts.get(BANK, 0),
            "official": {
                "countries": len(state.piles.get("official_countries", [])),
                "field_players": len(state.piles.get("official_fields", [])),
                "rivals": len(state.piles.get("official_rivals", [])),
                "markers": sum(1 for s in state.markers.values() if s is None),
            },
            "open_prompts": [{"id": p.id, "seat": p.seat, "kind": p.kind} for p in state.prompts],
        }
    return part


def _match_summary(m: MatchRecord) -> dict[str, Any]:
    return {
        "number": m.number,
        "kind": m.kind,
        "slot": m.slot,
        "format": m.format,  # the card duel or another game (house rule R20)
        "status": m.status,
        "home": _side(m.home),
        "away": _side(m.away),
        "score": list(m.score),
        "penalties": list(m.penalties) if m.penalties else None,
        "decided_by": m.decided_by,
        "winner_side": m.winner_side,
        "winner": m.winner_country,
    }


def _side(side: Any) -> dict[str, Any] | None:
    if side is None:
        return None
    return {"country": side.country, "seat": side.seat, "role": side.role}


def _match_side(m: MatchRecord, viewer: Viewer) -> str | None:
    """The side of the match the viewer coaches, if any."""
    if viewer.seat is not None:
        if m.home and m.home.seat == viewer.seat:
            return "home"
        if m.away and m.away.seat == viewer.seat:
            return "away"
    return None


def _match_view(m: MatchRecord, side: str | None, reveal: bool) -> dict[str, Any]:
    fmt = get_format(m.format)
    summary = _match_summary(m)
    summary["my_side"] = side
    summary["engine"] = fmt.view(m.engine, side, reveal_all=reveal)
    return summary
