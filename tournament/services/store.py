"""Between the pure ``GameState`` and the models: load a snapshot, write back only what changed.

A loaded snapshot is cached in the process under the game's id together with its version. Every write
bumps the version by compare-and-swap, so a cached snapshot whose version equals the database's is
exactly the database state; a stale one is reloaded. Cached states are never mutated (the rules work
on a clone), so readers on other threads may use them freely.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from cards.models import CardCopy, CatalogCard, Match
from games.api import get_format
from tournament.models import Account, CountrySquare, Game, Marker, Participant
from tournament.rules.competition import SEAT_ROLE
from tournament.rules.state import (
    BANK,
    BONUS,
    GameState,
    MatchRecord,
    MatchSide,
    Prompt,
    SeatState,
    SquareState,
)
from tournament.services import sql

CACHE_SIZE = 512


@dataclass
class Snapshot:
    """A game's state at one version plus the row ids needed to write changes back."""

    game_id: int
    code: str
    version: int
    last_seq: int
    ledger_seq: int
    state: GameState
    seat_pk: dict[int, int] = field(default_factory=dict)
    account_pk: dict[str, int] = field(default_factory=dict)
    card_pk: dict[str, int] = field(default_factory=dict)
    square_pk: dict[int, int] = field(default_factory=dict)
    marker_pk: dict[int, int] = field(default_factory=dict)
    match_pk: dict[int, int] = field(default_factory=dict)


class _Cache:
    """A small thread-safe LRU of snapshots by game id."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._data: OrderedDict[int, Snapshot] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: int, version: int) -> Snapshot | None:
        with self._lock:
            snap = self._data.get(game_id)
            if snap is None or snap.version != version:
                return None
            self._data.move_to_end(game_id)
            return snap

    def put(self, snap: Snapshot) -> None:
        with self._lock:
            current = self._data.get(snap.game_id)
            if current is not None and current.version > snap.version:
                return
            self._data[snap.game_id] = snap
            self._data.move_to_end(snap.game_id)
            while len(self._data) > self.size:
                self._data.popitem(last=False)

    def latest(self, code: str) -> Snapshot | None:
        """The newest cached snapshot of a room, whatever its version (committed versions only)."""
        with self._lock:
            for snap in reversed(self._data.values()):
                if snap.code == code:
                    return snap
        return None

    def drop(self, game_id: int) -> None:
        with self._lock:
            self._data.pop(game_id, None)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()


cache = _Cache(CACHE_SIZE)


class _RecentEvents:
    """The events of the last versions committed by this process, so the room hub of this process can
    push a new version without reading the database (issue 10). Bounded per game and in games."""

    PER_GAME = 64

    def __init__(self) -> None:
        self._data: OrderedDict[int, deque[dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, game_id: int, events: list[dict[str, Any]]) -> None:
        with self._lock:
            buf = self._data.get(game_id)
            if buf is None:
                buf = self._data[game_id] = deque(maxlen=self.PER_GAME * 8)
            if buf and events and events[0]["seq"] != buf[-1]["seq"] + 1:
                buf.clear()  # a gap (another process committed in between): start afresh
            buf.extend(events)
            self._data.move_to_end(game_id)
            while len(self._data) > CACHE_SIZE:
                self._data.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._data.clear()

    def between(self, game_id: int, after_seq: int, upto_seq: int) -> list[dict[str, Any]] | None:
        """Events in ``(after_seq, upto_seq]`` if this process has all of them, else None."""
        if upto_seq <= after_seq:
            return []
        with self._lock:
            buf = self._data.get(game_id)
            if not buf or buf[0]["seq"] > after_seq + 1 or buf[-1]["seq"] < upto_seq:
                return None
            found = []
            for e in reversed(buf):  # the wanted events are the newest few of up to 512
                if e["seq"] <= after_seq:
                    break
                if e["seq"] <= upto_seq:
                    found.append(e)
            found.reverse()
            return found


recent_events = _RecentEvents()


# --------------------------------------------------------------------------------------- flow


def _prompt_to_json(p: Prompt) -> dict[str, Any]:
    out = {
        "id": p.id,
        "seat": p.seat,
        "kind": p.kind,
        "choices": p.choices,
        "default": p.default,
        "options": p.options,
        "context": p.context,
    }
    if p.deadline is not None:  # the decision timer (services/timers.py): stored, so every process agrees
        out["deadline"] = p.deadline
    if p.left is not None:
        out["left"] = p.left
    return out


def _prompt_from_json(d: dict[str, Any]) -> Prompt:
    return Prompt(
        id=d["id"],
        seat=d["seat"],
        kind=d["kind"],
        choices=d["choices"],
        default=d["default"],
        options=d["options"],
        context=d["context"],
        deadline=d.get("deadline"),
        left=d.get("left"),
    )


def flow_to_json(st: GameState, ledger_seq: int) -> dict[str, Any]:
    """The parts of the state that live in ``Game.flow``."""
    return {
        "stage": st.stage,
        "turn_order": st.turn_order,
        "turn": st.turn,
        "pawn": st.pawn,
        "prompts": [_prompt_to_json(p) for p in st.prompts],
        "next_prompt": st.next_prompt,
        "turns": st.turns,
        "winner": st.winner,
        "finals_coaches": {str(k): v for k, v in st.finals_coaches.items()},
        "ledger_seq": ledger_seq,
        "competition": st.competition,
    }


def _side_from(country: str, seat: int | None, role: str) -> MatchSide | None:
    """A match side: a country (Magic Football), or a seat of a competition room (no country)."""
    return MatchSide(country, seat, role) if country or role == SEAT_ROLE else None


def match_state_json(m: MatchRecord) -> dict[str, Any] | None:
    """What ``Match.state`` stores: the engine state and the tournament's bookkeeping."""
    engine = get_format(m.format).to_dict(m.engine) if m.engine is not None else None
    return {"engine": engine, "context": m.context}


# --------------------------------------------------------------------------------------- load


def load_snapshot(game: Game) -> Snapshot:
    """Build the pure state of ``game`` from its rows (7 queries)."""
    st = GameState(
        seed=game.seed,
        game=game.kind,
        rng_counter=game.rng_counter,
        rng_generation=(game.setup or {}).get("rng", 1),
        mode=game.mode,
        house_rules=dict(game.house_rules),
        status=game.status,
        phase=game.phase,
        pre_qualified=game.pre_qualified,
    )
    flow = game.flow or {}
    st.stage = flow.get("stage", "")
    st.turn_order = list(flow.get("turn_order", []))
    st.turn = flow.get("turn", 0)
    st.pawn = flow.get("pawn", 0)
    st.prompts = [_prompt_from_json(d) for d in flow.get("prompts", [])]
    st.next_prompt = flow.get("next_prompt", 1)
    st.turns = dict(flow.get("turns", {}))
    st.winner = flow.get("winner")
    st.finals_coaches = {int(k): v for k, v in flow.get("finals_coaches", {}).items()}
    st.competition = flow.get("competition") or {}
    snap = Snapshot(
        game_id=game.pk,
        code=game.code,
        version=game.version,
        last_seq=game.last_seq,
        ledger_seq=flow.get("ledger_seq", 0),
        state=st,
    )
    seat_of: dict[int, int] = {}
    for p in Participant.objects.filter(game=game).order_by("seat"):
        st.seats[p.seat] = SeatState(
            seat=p.seat,
            nickname=p.nickname,
            bot=(p.strength or "easy") if p.kind == Participant.Kind.BOT else None,
            host=p.is_host,
            role=p.role,
            out=p.out,
            takeover=p.bot_takeover,
        )
        snap.seat_pk[p.seat] = p.pk
        seat_of[p.pk] = p.seat
    for pk, key, balance in Account.objects.filter(game=game).values_list("pk", "key", "balance"):
        st.accounts[key] = balance
        snap.account_pk[key] = pk
    piles: dict[str, list[tuple[int, str]]] = {}
    rows = CardCopy.objects.filter(game=game).values_list("pk", "card_id", "location", "owner_id", "position")
    for pk, card, location, owner, position in rows:
        snap.card_pk[card] = pk
        if location == "square":
            st.on_square[position] = card
        elif location == "finals":
            st.finals[position] = card
        else:
            key = f"{location}:{seat_of[owner]}" if owner is not None else location
            piles.setdefault(key, []).append((position, card))
    st.piles = {key: [c for _, c in sorted(items)] for key, items in piles.items()}
    for pk, idx, status, coach in CountrySquare.objects.filter(game=game).values_list(
        "pk", "index", "status", "coach_id"
    ):
        st.squares[idx] = SquareState(status=status, coach=seat_of.get(coach) if coach else None)
        snap.square_pk[idx] = pk
    for pk, number, square in Marker.objects.filter(game=game).values_list("pk", "number", "square"):
        st.markers[number] = square
        snap.marker_pk[number] = pk
    st.squares = dict(sorted(st.squares.items()))
    st.markers = dict(sorted(st.markers.items()))
    for m in Match.objects.filter(game=game).order_by("number"):
        data = m.state or {}
        engine = None
        if data.get("engine") is not None:
            engine = get_format(m.format).from_dict(data["engine"])
        st.matches.append(
            MatchRecord(
                number=m.number,
                kind=m.kind,
                slot=m.slot,
                home=_side_from(m.home_country, m.home_coach_seat, m.home_role),
                away=_side_from(m.away_country, m.away_coach_seat, m.away_role),
                status=m.status,
                format=m.format,
                score=(m.score_home, m.score_away),
                penalties=(m.penalties_home, m.penalties_away) if m.penalties_home is not None else None,
                decided_by=m.decided_by,
                winner_side=m.winner_side,
                engine=engine,
                context=data.get("context", {}),
            )
        )
        snap.match_pk[m.number] = m.pk
    return snap


# --------------------------------------------------------------------------------------- save


def _card_places(
    st: GameState, piles: Iterable[str] | None = None, squares: bool = True
) -> dict[str, tuple[str, int | None, int]]:
    """Where each card copy lies: (location, owner seat, position). ``piles``: only those piles (and the
    squares and finals only if ``squares``)."""
    places: dict[str, tuple[str, int | None, int]] = {}
    for key in st.piles if piles is None else piles:
        pile = st.piles.get(key, ())
        if ":" in key:
            location, seat = key.split(":")
            owner: int | None = int(seat)
        else:
            location, owner = key, None
        for pos, card in enumerate(pile):
            places[card] = (location, owner, pos)
    if squares:
        for idx, card in st.on_square.items():
            places[card] = ("square", None, idx)
        for box, card in st.finals.items():
            places[card] = ("finals", None, box)
    return places


def _moved_cards(old: GameState, new: GameState) -> list[tuple[str, tuple[str, int | None, int]]]:
    """The cards whose place differs between ``old`` and ``new``, with their new place.

    Only piles that differ are looked at: a card that moved left one changed pile (or square, or final)
    and entered another, and a card in an unchanged pile kept its place.
    """
    changed = [k for k in new.piles.keys() | old.piles.keys() if new.piles.get(k) != old.piles.get(k)]
    squares = new.on_square != old.on_square or new.finals != old.finals
    if not changed and not squares:
        return []
    before = _card_places(old, changed, squares)
    return [
        (card, place)
        for card, place in _card_places(new, changed, squares).items()
        if before.get(card) != place
    ]


def write_changes(snap: Snapshot, old: GameState, new: GameState) -> None:
    """Write every row whose part of the state changed between ``old`` and ``new`` (in ``snap``'s game).

    Updates ``snap``'s id maps for rows it creates. The caller holds the transaction and has already
    bumped the version.
    """
    gid = snap.game_id
    # participants
    for seat, s in new.seats.items():
        before = old.seats.get(seat)
        if before is None:
            import secrets

            p = Participant.objects.create(
                game_id=gid,
                seat=seat,
                nickname=s.nickname,
                kind=Participant.Kind.BOT if s.bot else Participant.Kind.HUMAN,
                strength=s.bot or "",
                is_host=s.host,
                token=secrets.token_urlsafe(24),
                role=s.role,
                out=s.out,
                bot_takeover=s.takeover,
            )
            snap.seat_pk[seat] = p.pk
        elif before != s:
            Participant.objects.filter(pk=snap.seat_pk[seat]).update(
                nickname=s.nickname, role=s.role, out=s.out, bot_takeover=s.takeover, is_host=s.host
            )
    for seat in set(old.seats) - set(new.seats):
        Participant.objects.filter(pk=snap.seat_pk.pop(seat)).delete()
    # accounts (created together at the start, one statement; changed balances in one statement)
    if new.accounts != old.accounts:
        created: list[Account] = []
        changed = []
        for key, balance in new.accounts.items():
            if key not in snap.account_pk:
                if key in (BANK, BONUS):
                    kind, participant = key, None
                else:
                    kind, participant = Account.Kind.PARTICIPANT, snap.seat_pk[int(key[1:])]
                created.append(
                    Account(game_id=gid, kind=kind, participant_id=participant, key=key, balance=balance)
                )
            elif old.accounts.get(key) != balance:
                changed.append((balance, snap.account_pk[key]))
        for acc in Account.objects.bulk_create(created):
            snap.account_pk[acc.key] = acc.pk
        if changed:
            sql.update_rows(Account, ["balance"], changed)
    # country squares and markers (likewise: a phase change touches up to 16 squares at once)
    if new.squares != old.squares:
        new_squares: list[CountrySquare] = []
        moved_squares = []
        for idx, sq in new.squares.items():
            coach = snap.seat_pk[sq.coach] if sq.coach is not None else None
            if idx not in snap.square_pk:
                new_squares.append(CountrySquare(game_id=gid, index=idx, status=sq.status, coach_id=coach))
            elif old.squares.get(idx) != sq:
                moved_squares.append((sq.status, coach, snap.square_pk[idx]))
        for row in CountrySquare.objects.bulk_create(new_squares):
            snap.square_pk[row.index] = row.pk
        if moved_squares:
            sql.update_rows(CountrySquare, ["status", "coach_id"], moved_squares)
    if new.markers != old.markers:
        new_markers: list[Marker] = []
        moved_markers = []
        for number, square in new.markers.items():
            if number not in snap.marker_pk:
                new_markers.append(Marker(game_id=gid, number=number, square=square))
            elif old.markers.get(number) != square:
                moved_markers.append((square, snap.marker_pk[number]))
        for row in Marker.objects.bulk_create(new_markers):
            snap.marker_pk[row.number] = row.pk
        if moved_markers:
            sql.update_rows(Marker, ["square"], moved_markers)
    # cards
    if not snap.card_pk and (new_places := _card_places(new)):
        rows = [
            CardCopy(
                game_id=gid,
                card_id=card,
                location=loc,
                owner_id=snap.seat_pk[owner] if owner is not None else None,
                position=pos,
            )
            for card, (loc, owner, pos) in new_places.items()
        ]
        _ensure_catalog_rows()
        CardCopy.objects.bulk_create(rows)
        for pk, card in CardCopy.objects.filter(game_id=gid).values_list("pk", "card_id"):
            snap.card_pk[card] = pk
    elif snap.card_pk:
        moved = [
            (loc, snap.seat_pk[owner] if owner is not None else None, pos, snap.card_pk[card])
            for card, (loc, owner, pos) in _moved_cards(old, new)
        ]
        if moved:
            sql.update_rows(CardCopy, ["location", "owner_id", "position"], moved)
    # matches
    for m in new.matches:
        before = next((o for o in old.matches if o.number == m.number), None)
        unchanged = before is not None and before.status != "playing" and m.status == before.status
        if unchanged and (m.status == "finished" or before == m):
            continue
        fields = {
            "kind": m.kind,
            "slot": m.slot,
            "format": m.format,
            "home_country": m.home.country if m.home else "",
            "away_country": m.away.country if m.away else "",
            "home_coach_seat": m.home.seat if m.home else None,
            "away_coach_seat": m.away.seat if m.away else None,
            "home_role": m.home.role if m.home else "",
            "away_role": m.away.role if m.away else "",
            "status": m.status,
            "score_home": m.score[0],
            "score_away": m.score[1],
            "penalties_home": m.penalties[0] if m.penalties else None,
            "penalties_away": m.penalties[1] if m.penalties else None,
            "decided_by": m.decided_by,
            "winner_side": m.winner_side,
            "state": match_state_json(m),
        }
        if m.number not in snap.match_pk:
            row = Match.objects.create(game_id=gid, number=m.number, **fields)
            snap.match_pk[m.number] = row.pk
        else:
            sql.update_where(Match, fields, {"id": snap.match_pk[m.number]})
    if len(snap.match_pk) > len(new.matches):  # a host's rewind went back before some matches existed
        kept = {m.number for m in new.matches}
        gone = [snap.match_pk.pop(number) for number in list(snap.match_pk) if number not in kept]
        Match.objects.filter(pk__in=gone).delete()


def _ensure_catalog_rows() -> None:
    """Card copies reference catalog rows: load the catalog into the database if it is not there
    (checked once per game start, one query)."""
    from cards.catalog import get_catalog

    cat = get_catalog()
    if CatalogCard.objects.filter(catalog_version=cat.version).count() != len(cat.all_ids()):
        from cards.services import catalog_load

        catalog_load()
